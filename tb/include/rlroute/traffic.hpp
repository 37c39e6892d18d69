// Synthetic traffic patterns: which node a new packet of `src` goes to.
#pragma once

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "rlroute/topology.hpp"

namespace rlroute {

using Rng = std::mt19937_64;

class TrafficPattern {
 public:
  virtual ~TrafficPattern() = default;
  // Destination node, or -1 when `src` sends nothing under this pattern
  // (a node the permutation maps onto itself).
  virtual int destination(int src, Rng& rng) const = 0;
};

// Names: uniform, transpose, bitcomp, bitrev, tornado, neighbor, hotspot,
// randperm. Throws std::invalid_argument with a one-line reason for an
// unknown name or a pattern the network shape cannot support.
std::unique_ptr<TrafficPattern> make_traffic_pattern(const std::string& name, const Topology& topo,
                                                     std::uint64_t seed, double hotspot_fraction,
                                                     int hotspot_node);

const std::vector<std::string>& traffic_pattern_names();

}  // namespace rlroute
