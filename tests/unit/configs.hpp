// Small configs shared by the unit tests.
#pragma once

#include <fmt/format.h>

#include <string>
#include <vector>

#include "rlroute/gen/config.hpp"

namespace rlroute::test {

// A torus or mesh config with every other key at its default.
inline Config grid(TopologyKind kind, std::vector<int> dims, int vcs = 2, int nodes_per_router = 1,
                   const std::string& algorithm = "dor") {
  std::string toml = "[topology]\nkind = \"" + std::string(to_string(kind)) + "\"\ndims = [";
  for (size_t i = 0; i < dims.size(); ++i) toml += (i ? ", " : "") + std::to_string(dims[i]);
  toml += "]\n[router]\nvcs = " + std::to_string(vcs) + "\nnodes_per_router = " + std::to_string(nodes_per_router) + "\n";
  toml += "[routing]\nalgorithm = \"" + algorithm + "\"\n";
  return parse_config(toml, "t.toml");
}

// dfly(p, a, h, g) with the given algorithm, VCs and global-link arrangement
// (24-flit buffers, 128-bit flits for Q-adaptive's longer header, every other
// key at its default).
inline Config dragonfly(int p, int a, int h, int g, const std::string& algorithm = "min", int vcs = 2,
                 const std::string& arrangement = "absolute") {
  const std::string toml = fmt::format(
      "[topology]\nkind = \"dragonfly\"\np = {}\na = {}\nh = {}\ng = {}\narrangement = \"{}\"\n"
      "[router]\nvcs = {}\nbuffer_flits = 24\nflit_bits = {}\n[routing]\nalgorithm = \"{}\"\n",
      p, a, h, g, arrangement, vcs, algorithm == "q_adaptive" ? 128 : 64, algorithm);
  return parse_config(toml, "t.toml");
}

}  // namespace rlroute::test
