// Synthetic traffic patterns: which node a new packet of `src` goes to.
// docs/traffic.md defines every pattern and its parameters.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "rlroute/gen/topology.hpp"
#include "rlroute/gen/traffic_spec.hpp"

namespace rlroute {

using Rng = std::mt19937_64;

class TrafficPattern {
 public:
  virtual ~TrafficPattern() = default;
  // Destination node, or -1 when `src` sends nothing under this pattern
  // (a node the permutation maps onto itself). `rng` is the caller's
  // per-source stream; anything fixed (permutations, neighbour sets, mixed
  // participants) is drawn once from the seed when the pattern is built, so
  // a pattern is deterministic for a given seed.
  virtual int destination(int src, Rng& rng) const = 0;
};

// `name` is a spec as parse_traffic_spec() reads it: uniform, transpose,
// bitcomp, bitrev, tornado, neighbor, hotspot, randperm, adv+<i>, shift,
// mixed, stencil3d, many2many, randneighbors (dpsnn is an application model:
// make_dpsnn_app), with parameters such as
// "mixed:share=0.25". Throws std::invalid_argument with a one-line reason for
// a bad spec or a pattern the network shape cannot support.
std::unique_ptr<TrafficPattern> make_traffic_pattern(const std::string& name, const Topology& topo,
                                                     std::uint64_t seed, double hotspot_fraction,
                                                     int hotspot_node);
std::unique_ptr<TrafficPattern> make_traffic_pattern(const TrafficSpec& spec, const Topology& topo,
                                                     std::uint64_t seed, double hotspot_fraction,
                                                     int hotspot_node);

}  // namespace rlroute
