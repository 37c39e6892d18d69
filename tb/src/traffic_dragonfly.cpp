// Dragonfly group patterns: ADV+i (Q-adaptive), shift and mixed (Chaulagain &
// Yuan). Node n of dfly(p, a, h, g) is terminal n % p of router n / p, and
// router r is index r % a of group r / a, so group G holds the a*p
// consecutive nodes G*a*p .. (G+1)*a*p - 1.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "traffic_patterns.hpp"

namespace rlroute::traffic_detail {

namespace {

void require_dragonfly(const TrafficSpec& spec, const Topology& t) {
  if (!t.dragonfly()) {
    traffic_spec_fail(spec.text, fmt::format("needs a dragonfly (groups); this network is {}", t.describe()));
  }
  if (t.num_groups() < 2) traffic_spec_fail(spec.text, "needs a dragonfly with at least 2 groups");
}

int nodes_per_group(const Topology& t) { return t.group_size() * t.nodes_per_router(); }

// Every node of group G sends to a uniformly random node of group (G + i) mod g.
class Adversarial : public TrafficPattern {
 public:
  Adversarial(const Topology& t, int offset)
      : groups_(t.num_groups()), group_nodes_(nodes_per_group(t)), offset_(offset) {}
  int destination(int src, Rng& rng) const override {
    const int group = (src / group_nodes_ + offset_) % groups_;
    return group * group_nodes_ + std::uniform_int_distribution<int>(0, group_nodes_ - 1)(rng);
  }

 private:
  int groups_, group_nodes_, offset_;
};

// Router-level shift: node n -> n + a*p (mod N), i.e. terminal t of the router
// at index r of group G -> terminal t of the router at index r of group G + 1.
std::vector<int> shift_map(const Topology& t) {
  std::vector<int> map(static_cast<size_t>(t.num_nodes()));
  for (int n = 0; n < t.num_nodes(); ++n) map[n] = (n + nodes_per_group(t)) % t.num_nodes();
  return map;
}

// The nodes that follow the `with` pattern at router or node level: round(share
// * count) routers (with all their nodes) or nodes, drawn once from the seed.
std::vector<bool> participants(const TrafficSpec& spec, const Topology& t, std::uint64_t seed) {
  const bool by_router = spec.mixed_level == MixLevel::Router;
  const int count = by_router ? t.num_routers() : t.num_nodes();
  std::vector<int> order(static_cast<size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  Rng rng(seed ^ 0x6d1ced5eedull);
  std::shuffle(order.begin(), order.end(), rng);
  const auto chosen = static_cast<size_t>(std::lround(spec.mixed_share * count));
  std::vector<bool> in(static_cast<size_t>(t.num_nodes()), false);
  for (size_t i = 0; i < chosen; ++i) {
    if (by_router) {
      for (int k = 0; k < t.nodes_per_router(); ++k) in[static_cast<size_t>(t.node_at(order[i], k))] = true;
    } else {
      in[static_cast<size_t>(order[i])] = true;
    }
  }
  return in;
}

// A share of the traffic follows a fixed map (shift or randperm), the rest is
// uniform. A participant that the map sends to itself sends uniform traffic.
class Mixed : public TrafficPattern {
 public:
  Mixed(std::vector<int> map, std::vector<bool> participant, double share, bool per_packet)
      : map_(std::move(map)), participant_(std::move(participant)), share_(share), per_packet_(per_packet) {}
  int destination(int src, Rng& rng) const override {
    const bool follow = per_packet_ ? std::uniform_real_distribution<double>(0, 1)(rng) < share_
                                    : participant_[static_cast<size_t>(src)];
    if (follow && map_[src] != src) return map_[src];
    return uniform_other(src, static_cast<int>(map_.size()), rng);
  }

 private:
  std::vector<int> map_;
  std::vector<bool> participant_;
  double share_;
  bool per_packet_;
};

}  // namespace

std::unique_ptr<TrafficPattern> make_adv(const TrafficSpec& spec, const Topology& t) {
  require_dragonfly(spec, t);
  if (spec.adv_offset >= t.num_groups()) {
    traffic_spec_fail(spec.text, fmt::format("i must be in 1..{} (g - 1) on this dragonfly, g = {}",
                                             t.num_groups() - 1, t.num_groups()));
  }
  return std::make_unique<Adversarial>(t, spec.adv_offset);
}

std::unique_ptr<TrafficPattern> make_shift(const TrafficSpec& spec, const Topology& t) {
  require_dragonfly(spec, t);
  return std::make_unique<Permutation>(shift_map(t));
}

std::unique_ptr<TrafficPattern> make_mixed(const TrafficSpec& spec, const Topology& t, std::uint64_t seed) {
  const bool shift = spec.mixed_with == "shift";
  if (shift) require_dragonfly(spec, t);
  std::vector<int> map = shift ? shift_map(t) : random_permutation(t.num_nodes(), seed);
  const bool per_packet = spec.mixed_level == MixLevel::Packet;
  std::vector<bool> in = per_packet ? std::vector<bool>() : participants(spec, t, seed);
  return std::make_unique<Mixed>(std::move(map), std::move(in), spec.mixed_share, per_packet);
}

}  // namespace rlroute::traffic_detail
