// Internal to the test bench: the pattern families behind make_traffic_pattern
// (tb/src/traffic.cpp) and the helpers they share. docs/traffic.md defines
// every pattern.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "rlroute/gen/topology.hpp"
#include "rlroute/tb/traffic.hpp"
#include "rlroute/gen/traffic_spec.hpp"

namespace rlroute::traffic_detail {

// A uniformly random node other than `src` among 0..n-1; -1 if n < 2.
int uniform_other(int src, int n, Rng& rng);

// The random permutation of 0..n-1 that `randperm` uses for `seed`.
std::vector<int> random_permutation(int n, std::uint64_t seed);

// A fixed map src -> dst; a node mapped onto itself sends nothing.
class Permutation : public TrafficPattern {
 public:
  explicit Permutation(std::vector<int> map) : map_(std::move(map)) {}
  int destination(int src, Rng&) const override { return map_[src] == src ? -1 : map_[src]; }

 private:
  std::vector<int> map_;
};

// Dragonfly group patterns (traffic_dragonfly.cpp).
std::unique_ptr<TrafficPattern> make_adv(const TrafficSpec& spec, const Topology& t);
std::unique_ptr<TrafficPattern> make_shift(const TrafficSpec& spec, const Topology& t);
std::unique_ptr<TrafficPattern> make_mixed(const TrafficSpec& spec, const Topology& t, std::uint64_t seed);

// Application patterns from Q-adaptive section 6 (traffic_app.cpp).
std::unique_ptr<TrafficPattern> make_stencil3d(const TrafficSpec& spec, const Topology& t);
std::unique_ptr<TrafficPattern> make_many2many(const TrafficSpec& spec, const Topology& t);
std::unique_ptr<TrafficPattern> make_randneighbors(const TrafficSpec& spec, const Topology& t, std::uint64_t seed);

}  // namespace rlroute::traffic_detail
