// The 3D grid that a stencil lays its processes on (the 3D stencil pattern,
// the host layer's halo3d workload).
#pragma once

#include <array>

namespace rlroute {

using Grid3dDims = std::array<int, 3>;

// The most cubic X <= Y <= Z with X*Y*Z = n: least surface XY + YZ + ZX
// (the halo a stencil exchanges), ties to the smallest X, then Y.
Grid3dDims cubic_dims(int n);

}  // namespace rlroute
