#include "rlroute/tb/grid3d.hpp"

namespace rlroute {

Grid3dDims cubic_dims(int n) {
  Grid3dDims best{1, 1, n};
  long best_surface = -1;
  for (int x = 1; x * x * x <= n; ++x) {
    if (n % x != 0) continue;
    for (int y = x; x * y * y <= n; ++y) {
      if ((n / x) % y != 0) continue;
      const int z = n / x / y;
      const long surface = static_cast<long>(x) * y + static_cast<long>(y) * z + static_cast<long>(z) * x;
      if (best_surface < 0 || surface < best_surface) {
        best = {x, y, z};
        best_surface = surface;
      }
    }
  }
  return best;
}

}  // namespace rlroute
