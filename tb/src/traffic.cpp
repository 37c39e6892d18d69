// The factory and the classic patterns (uniform, bit permutations, tornado,
// neighbor, hotspot, randperm). Dragonfly group patterns are in
// traffic_dragonfly.cpp, the application patterns in traffic_app.cpp.
#include "rlroute/tb/traffic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "traffic_patterns.hpp"

namespace rlroute {

namespace traffic_detail {

int uniform_other(int src, int n, Rng& rng) {
  if (n < 2) return -1;
  const int pick = static_cast<int>(std::uniform_int_distribution<int>(0, n - 2)(rng));
  return pick >= src ? pick + 1 : pick;
}

std::vector<int> random_permutation(int n, std::uint64_t seed) {
  std::vector<int> map(static_cast<size_t>(n));
  std::iota(map.begin(), map.end(), 0);
  Rng rng(seed ^ 0x5eedba5eull);
  std::shuffle(map.begin(), map.end(), rng);
  return map;
}

}  // namespace traffic_detail

namespace {

using traffic_detail::Permutation;
using traffic_detail::uniform_other;

class Uniform : public TrafficPattern {
 public:
  explicit Uniform(int n) : n_(n) {}
  int destination(int src, Rng& rng) const override { return uniform_other(src, n_, rng); }

 private:
  int n_;
};

class Hotspot : public TrafficPattern {
 public:
  Hotspot(int n, double fraction, int node) : n_(n), fraction_(fraction), node_(node) {}
  int destination(int src, Rng& rng) const override {
    if (src != node_ && std::uniform_real_distribution<double>(0, 1)(rng) < fraction_) return node_;
    return uniform_other(src, n_, rng);
  }

 private:
  int n_;
  double fraction_;
  int node_;
};

int log2_exact(int n) {
  int b = 0;
  while ((1 << b) < n) ++b;
  return (1 << b) == n ? b : -1;
}

std::vector<int> bit_map(const std::string& name, int n) {
  const int b = log2_exact(n);
  if (b < 1) throw std::invalid_argument(fmt::format("pattern {} needs a power-of-two node count, not {}", name, n));
  if (name == "transpose" && b % 2 != 0) {
    throw std::invalid_argument(fmt::format("pattern transpose needs 2^(2m) nodes, not {}", n));
  }
  std::vector<int> map(static_cast<size_t>(n));
  for (int s = 0; s < n; ++s) {
    if (name == "bitcomp") {
      map[s] = ~s & (n - 1);
    } else if (name == "bitrev") {
      int r = 0;
      for (int i = 0; i < b; ++i) r |= ((s >> i) & 1) << (b - 1 - i);
      map[s] = r;
    } else {  // transpose: swap the upper and lower halves of the address bits
      const int h = b / 2;
      map[s] = ((s & ((1 << h) - 1)) << h) | (s >> h);
    }
  }
  return map;
}

// Same local index, every coordinate shifted by offset(k).
std::vector<int> coordinate_map(const Topology& t, int (*offset)(int k)) {
  std::vector<int> map(static_cast<size_t>(t.num_nodes()));
  for (int s = 0; s < t.num_nodes(); ++s) {
    std::vector<int> c = t.coords(t.router_of_node(s));
    for (int d = 0; d < t.num_dims(); ++d) c[d] = (c[d] + offset(t.radix(d))) % t.radix(d);
    map[s] = t.node_at(t.router_at(c), t.local_of_node(s));
  }
  return map;
}

}  // namespace

std::unique_ptr<TrafficPattern> make_traffic_pattern(const std::string& name, const Topology& t,
                                                     std::uint64_t seed, double hotspot_fraction,
                                                     int hotspot_node) {
  return make_traffic_pattern(parse_traffic_spec(name), t, seed, hotspot_fraction, hotspot_node);
}

std::unique_ptr<TrafficPattern> make_traffic_pattern(const TrafficSpec& spec, const Topology& t,
                                                     std::uint64_t seed, double hotspot_fraction,
                                                     int hotspot_node) {
  const std::string& name = spec.name;
  const int n = t.num_nodes();
  if (name == "uniform") return std::make_unique<Uniform>(n);
  if (name == "transpose" || name == "bitcomp" || name == "bitrev") {
    return std::make_unique<Permutation>(bit_map(name, n));
  }
  if ((name == "tornado" || name == "neighbor") && t.dragonfly()) {
    traffic_spec_fail(spec.text, fmt::format("needs a torus or mesh (router coordinates); this network is {}",
                                             t.describe()));
  }
  // Tornado: halfway round minus one in every dimension (Dally & Towles).
  if (name == "tornado") return std::make_unique<Permutation>(coordinate_map(t, [](int k) { return (k + 1) / 2 - 1; }));
  if (name == "neighbor") return std::make_unique<Permutation>(coordinate_map(t, [](int) { return 1; }));
  if (name == "hotspot") {
    if (hotspot_node < 0 || hotspot_node >= n) {
      throw std::invalid_argument(fmt::format("hotspot node {} is not a node of this network (0..{})", hotspot_node, n - 1));
    }
    return std::make_unique<Hotspot>(n, hotspot_fraction, hotspot_node);
  }
  if (name == "randperm") return std::make_unique<Permutation>(traffic_detail::random_permutation(n, seed));
  if (name == "adv") return traffic_detail::make_adv(spec, t);
  if (name == "shift") return traffic_detail::make_shift(spec, t);
  if (name == "mixed") return traffic_detail::make_mixed(spec, t, seed);
  if (name == "stencil3d") return traffic_detail::make_stencil3d(spec, t);
  if (name == "many2many") return traffic_detail::make_many2many(spec, t);
  if (name == "randneighbors") return traffic_detail::make_randneighbors(spec, t, seed);
  if (is_application_traffic(spec)) {
    traffic_spec_fail(spec.text, "an application model, not a destination pattern: it runs only as the whole "
                                 "traffic of a run (--pattern or sim.pattern), not in --phases");
  }
  throw std::invalid_argument(fmt::format("unknown traffic pattern \"{}\"; valid: {}", name,
                                          fmt::join(traffic_pattern_names(), ", ")));
}

}  // namespace rlroute
