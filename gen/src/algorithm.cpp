#include "rlroute/gen/algorithm.hpp"

namespace rlroute {

const AlgorithmTraits* find_algorithm(std::string_view name) {
  for (const AlgorithmTraits& t : kAlgorithms) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

const char* to_string(RoutingAlgorithm algorithm) { return traits(algorithm).name.data(); }

}  // namespace rlroute
