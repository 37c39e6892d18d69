// Small configs shared by the unit tests.
#pragma once

#include <string>
#include <vector>

#include "rlroute/config.hpp"

namespace rlroute::test {

// A torus or mesh config with every other key at its default.
inline Config grid(TopologyKind kind, std::vector<int> dims, int vcs = 2, int nodes_per_router = 1) {
  std::string toml = "[topology]\nkind = \"" + std::string(to_string(kind)) + "\"\ndims = [";
  for (size_t i = 0; i < dims.size(); ++i) toml += (i ? ", " : "") + std::to_string(dims[i]);
  toml += "]\n[router]\nvcs = " + std::to_string(vcs) + "\nnodes_per_router = " + std::to_string(nodes_per_router) + "\n";
  return parse_config(toml, "t.toml");
}

}  // namespace rlroute::test
