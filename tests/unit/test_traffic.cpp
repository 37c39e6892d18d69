// The traffic patterns the test bench builds from specs, on dfly(2,4,2,9): 9 groups x 4 routers x 2 nodes = 72 nodes;
// node n is terminal n % 2 of router n / 2, router r is index r % 4 of group
// r / 4, so group G holds nodes 8G .. 8G + 7. docs/traffic.md defines the
// patterns.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "rlroute/gen/config.hpp"
#include "rlroute/gen/topology.hpp"
#include "rlroute/tb/traffic.hpp"

using namespace rlroute;

namespace {

constexpr int kNodes = 72;
constexpr int kGroupNodes = 8;  // a * p
constexpr std::uint64_t kSeed = 7;

Config dragonfly_config() {
  Config c;
  c.path = "t.toml";
  c.name = "t";
  c.kind = TopologyKind::Dragonfly;
  c.p = 2;
  c.nodes_per_router = 2;
  c.a = 4;
  c.h = 2;
  c.g = 9;
  return c;
}

Config torus_config() {
  Config c;
  c.path = "t.toml";
  c.name = "t";
  c.kind = TopologyKind::Torus;
  c.dims = {4, 4};
  return c;
}

const Topology& dfly() {
  static const Topology t(dragonfly_config());
  return t;
}

const Topology& torus() {
  static const Topology t(torus_config());
  return t;
}

std::unique_ptr<TrafficPattern> build(const std::string& spec, const Topology& t = dfly(),
                                      std::uint64_t seed = kSeed) {
  return make_traffic_pattern(spec, t, seed, 0.2, 0);
}

// Every destination `src` produces over `draws` packets.
std::set<int> destinations(const TrafficPattern& p, int src, int draws = 2000, std::uint64_t stream = 1) {
  Rng rng(stream * 1000003 + static_cast<std::uint64_t>(src));
  std::set<int> seen;
  for (int i = 0; i < draws; ++i) seen.insert(p.destination(src, rng));
  return seen;
}

std::string build_error(const std::string& spec, const Topology& t = dfly()) {
  try {
    build(spec, t);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

// Independent oracle for the grid patterns: node n at (n % X, n / X % Y, n / XY).
using Dims = std::array<int, 3>;
std::set<int> grid_neighbours(int node, const Dims& d) {
  const int c[3] = {node % d[0], node / d[0] % d[1], node / (d[0] * d[1])};
  std::set<int> out;
  for (int axis = 0; axis < 3; ++axis) {
    for (const int step : {1, -1}) {
      int moved[3] = {c[0], c[1], c[2]};
      moved[axis] = (moved[axis] + step + d[axis]) % d[axis];
      const int n = (moved[2] * d[1] + moved[1]) * d[0] + moved[0];
      if (n != node) out.insert(n);
    }
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------
// Specs the network cannot support (the syntax is test_traffic_spec.cpp's)

TEST(TrafficBuildError, UnknownName) {
  EXPECT_EQ(build_error("shuffle"),
            "unknown traffic pattern \"shuffle\"; valid: uniform, transpose, bitcomp, bitrev, tornado, neighbor, "
            "hotspot, randperm, adv+<i>, shift, mixed, stencil3d, many2many, randneighbors, dpsnn");
}

TEST(TrafficBuildError, NeedsTheTopology) {
  const std::string torus_text = "4x4 torus, 1 node per router";
  EXPECT_EQ(build_error("adv+1", torus()),
            "traffic pattern \"adv+1\": needs a dragonfly (groups); this network is " + torus_text);
  EXPECT_EQ(build_error("shift", torus()),
            "traffic pattern \"shift\": needs a dragonfly (groups); this network is " + torus_text);
  EXPECT_EQ(build_error("mixed", torus()),
            "traffic pattern \"mixed\": needs a dragonfly (groups); this network is " + torus_text);
  EXPECT_EQ(build_error("adv+9"), "traffic pattern \"adv+9\": i must be in 1..8 (g - 1) on this dragonfly, g = 9");
  EXPECT_EQ(build_error("stencil3d:grid=4x3x5"),
            "traffic pattern \"stencil3d:grid=4x3x5\": grid 4x3x5 has 60 nodes; this network has 72");
  EXPECT_EQ(build_error("many2many:grid=4x4x4", torus()),
            "traffic pattern \"many2many:grid=4x4x4\": grid 4x4x4 has 64 nodes; this network has 16");
  EXPECT_EQ(build_error("many2many:axis=x,grid=1x8x9"),
            "traffic pattern \"many2many:axis=x,grid=1x8x9\": axis x of grid 1x8x9 has length 1, so every "
            "communicator is a single node");
  EXPECT_EQ(build_error("randneighbors:max=72"),
            "traffic pattern \"randneighbors:max=72\": max must be <= 71 (nodes - 1) on this network");
  EXPECT_EQ(build_error("randneighbors:min=16", torus()),
            "traffic pattern \"randneighbors:min=16\": min must be <= 15 (nodes - 1) on this network");
  EXPECT_EQ(build_error("tornado"), "traffic pattern \"tornado\": needs a torus or mesh (router coordinates); "
                                    "this network is " + dfly().describe());
}

// ---------------------------------------------------------------------------
// Every new pattern: valid destinations, never the source.

TEST(TrafficPatterns, DestinationsAreValidOtherNodes) {
  for (const char* spec : {"adv+1", "adv+4", "adv+8", "shift", "mixed", "mixed:share=0.3,with=randperm",
                           "mixed:level=packet", "mixed:share=1,with=randperm,level=router", "stencil3d",
                           "stencil3d:grid=4x3x6", "stencil3d:grid=cubic", "many2many", "many2many:axis=x",
                           "many2many:axis=y,grid=cubic", "randneighbors", "randneighbors:min=1,max=71"}) {
    const auto p = build(spec);
    for (int src = 0; src < kNodes; ++src) {
      for (const int dst : destinations(*p, src, 300)) {
        EXPECT_TRUE(dst >= 0 && dst < kNodes && dst != src) << spec << ": " << src << " -> " << dst;
      }
    }
  }
}

TEST(TrafficPatterns, DeterministicForASeed) {
  for (const char* spec : {"adv+2", "shift", "mixed", "mixed:share=0.4,with=randperm", "mixed:level=packet",
                           "stencil3d", "many2many", "randneighbors"}) {
    const auto a = build(spec);
    const auto b = build(spec);
    for (int src = 0; src < kNodes; ++src) {
      Rng ra(static_cast<std::uint64_t>(src)), rb(static_cast<std::uint64_t>(src));
      for (int i = 0; i < 50; ++i) ASSERT_EQ(a->destination(src, ra), b->destination(src, rb)) << spec;
    }
  }
}

// ---------------------------------------------------------------------------
// ADV+i and shift

TEST(TrafficAdv, LandsInGroupPlusIAndCoversIt) {
  for (int i = 1; i < 9; ++i) {
    const auto p = build("adv+" + std::to_string(i));
    for (int src = 0; src < kNodes; ++src) {
      const int group = (src / kGroupNodes + i) % 9;
      std::set<int> expected;
      for (int k = 0; k < kGroupNodes; ++k) expected.insert(group * kGroupNodes + k);
      EXPECT_EQ(destinations(*p, src, 400), expected) << "adv+" << i << " from " << src;
    }
  }
}

TEST(TrafficAdv, UniformOverTheTargetGroup) {
  const auto p = build("adv+4");
  Rng rng(3);
  std::vector<int> hits(kNodes, 0);
  const int draws = 80000;
  for (int i = 0; i < draws; ++i) ++hits[p->destination(5, rng)];
  for (int k = 0; k < kGroupNodes; ++k) EXPECT_NEAR(hits[4 * kGroupNodes + k], draws / 8, draws / 80);
}

TEST(TrafficShift, SameRouterIndexAndTerminalInTheNextGroup) {
  const Topology& t = dfly();
  const auto p = build("shift");
  std::set<int> images;
  for (int src = 0; src < kNodes; ++src) {
    const int dst = *destinations(*p, src, 5).begin();
    ASSERT_EQ(destinations(*p, src, 50).size(), 1u) << "shift is a fixed map";
    const int sr = t.router_of_node(src), dr = t.router_of_node(dst);
    EXPECT_EQ(t.group_of(dr), (t.group_of(sr) + 1) % 9);
    EXPECT_EQ(t.index_in_group(dr), t.index_in_group(sr));
    EXPECT_EQ(t.local_of_node(dst), t.local_of_node(src));
    EXPECT_EQ(dst, (src + kGroupNodes) % kNodes);
    images.insert(dst);
  }
  EXPECT_EQ(images.size(), static_cast<size_t>(kNodes)) << "a permutation";
}

// ---------------------------------------------------------------------------
// mixed

namespace {
// Share of draws (all sources, many packets each) that follow `map`.
double followed_share(const TrafficPattern& p, const std::vector<int>& map, int draws_per_node) {
  int followed = 0, total = 0;
  for (int src = 0; src < kNodes; ++src) {
    Rng rng(static_cast<std::uint64_t>(src) + 99);
    for (int i = 0; i < draws_per_node; ++i, ++total) followed += p.destination(src, rng) == map[src];
  }
  return static_cast<double>(followed) / total;
}

std::vector<int> shift_map() {
  std::vector<int> map(kNodes);
  for (int n = 0; n < kNodes; ++n) map[n] = (n + kGroupNodes) % kNodes;
  return map;
}

// The participants of a router- or node-level mix: the nodes that always follow `map`.
std::vector<int> always_following(const TrafficPattern& p, const std::vector<int>& map) {
  std::vector<int> out;
  for (int src = 0; src < kNodes; ++src) {
    if (destinations(p, src, 200) == std::set<int>{map[src]}) out.push_back(src);
  }
  return out;
}
}  // namespace

TEST(TrafficMixed, ShareOfShiftTrafficWithinTolerance) {
  for (const char* level : {"router", "node", "packet"}) {
    for (const double share : {0.0, 0.25, 0.5, 0.75, 1.0}) {
      const std::string spec = fmt::format("mixed:share={},level={}", share, level);
      const auto p = build(spec);
      // A uniform draw hits the shift target by chance with probability 1/71.
      const double expected = share + (1 - share) / (kNodes - 1);
      EXPECT_NEAR(followed_share(*p, shift_map(), 2000), expected, 0.02) << spec;
    }
  }
}

TEST(TrafficMixed, RouterLevelPicksWholeRouters) {
  const auto p = build("mixed:share=0.25");
  const std::vector<int> in = always_following(*p, shift_map());
  EXPECT_EQ(in.size(), 2u * 9);  // round(0.25 * 36) routers x 2 nodes
  for (const int n : in) EXPECT_TRUE(std::find(in.begin(), in.end(), n ^ 1) != in.end()) << n;
}

TEST(TrafficMixed, NodeLevelPicksNodes) {
  const auto p = build("mixed:share=0.25,level=node");
  EXPECT_EQ(always_following(*p, shift_map()).size(), 18u);  // round(0.25 * 72)
}

TEST(TrafficMixed, RandpermUsesTheRandpermMap) {
  const auto perm = build("randperm");
  std::vector<int> map(kNodes);
  for (int n = 0; n < kNodes; ++n) {
    Rng rng(1);
    map[n] = perm->destination(n, rng);
    if (map[n] < 0) map[n] = n;  // a fixed point
  }
  const auto all = build("mixed:share=1,with=randperm");
  for (int src = 0; src < kNodes; ++src) {
    const std::set<int> seen = destinations(*all, src, 200);
    if (map[src] == src) {
      EXPECT_GT(seen.size(), 10u) << "a fixed point sends uniform traffic";
    } else {
      EXPECT_EQ(seen, std::set<int>{map[src]});
    }
  }
  const auto half = build("mixed:share=0.5,with=randperm");  // node level
  size_t fixed = 0;
  for (int n = 0; n < kNodes; ++n) fixed += map[n] == n;
  const size_t in = always_following(*half, map).size();
  EXPECT_LE(in, 36u);
  EXPECT_GE(in + fixed, 36u);
}

// ---------------------------------------------------------------------------
// 3D stencil

TEST(TrafficStencil, ExplicitGridGoesToExactlyTheSixNeighbours) {
  const auto p = build("stencil3d:grid=4x3x6");
  for (int src = 0; src < kNodes; ++src) {
    const std::set<int> expected = grid_neighbours(src, {4, 3, 6});
    ASSERT_EQ(expected.size(), 6u);
    EXPECT_EQ(destinations(*p, src, 600), expected) << src;
  }
}

TEST(TrafficStencil, DefaultGridIsPxAxG) {
  // 2 x 4 x 9: x = terminal, y = router index, z = group; along x the +1 and
  // -1 neighbours are the same node, so five distinct neighbours.
  const auto p = build("stencil3d");
  for (int src = 0; src < kNodes; ++src) {
    const std::set<int> expected = grid_neighbours(src, {2, 4, 9});
    ASSERT_EQ(expected.size(), 5u);
    EXPECT_EQ(destinations(*p, src, 600), expected) << src;
    EXPECT_TRUE(expected.count((src + kGroupNodes) % kNodes)) << "z neighbour: same router index, next group";
  }
}

TEST(TrafficStencil, SixDirectionsEquallyLikely) {
  const auto p = build("stencil3d");
  Rng rng(11);
  std::vector<int> hits(kNodes, 0);
  const int draws = 60000;
  const int src = 10;  // (0, 1, 1)
  for (int i = 0; i < draws; ++i) ++hits[p->destination(src, rng)];
  EXPECT_NEAR(hits[11], draws / 3, draws / 60);  // x+ and x- are both node 11
  for (const int n : {12, 8, 18, 2}) EXPECT_NEAR(hits[n], draws / 6, draws / 60) << n;
}

TEST(TrafficStencil, CubicGridAndUnitAxes) {
  // 72 = 3 x 4 x 6 is the most cubic factorisation.
  const auto p = build("stencil3d:grid=cubic");
  for (int src = 0; src < kNodes; ++src) EXPECT_EQ(destinations(*p, src, 600), grid_neighbours(src, {3, 4, 6}));
  // Axes of length 1 have no neighbours: a ring of 72.
  const auto ring = build("stencil3d:grid=1x72x1");
  EXPECT_EQ(destinations(*ring, 0, 200), (std::set<int>{1, 71}));
  // 4x4 torus, 16 nodes: 2 x 2 x 4.
  const auto small = build("stencil3d", torus());
  EXPECT_EQ(destinations(*small, 0, 400), grid_neighbours(0, {2, 2, 4}));
}

// ---------------------------------------------------------------------------
// many-to-many

TEST(TrafficManyToMany, StaysInsideTheCommunicator) {
  // Default: grid p x a x g, communicators along z = the 9 nodes with the same
  // terminal and router index, one per group.
  const auto z = build("many2many");
  for (int src = 0; src < kNodes; ++src) {
    std::set<int> expected;
    for (int g = 0; g < 9; ++g) expected.insert(src % kGroupNodes + g * kGroupNodes);
    expected.erase(src);
    EXPECT_EQ(destinations(*z, src, 500), expected) << src;
  }
  const auto x = build("many2many:axis=x");
  for (int src = 0; src < kNodes; ++src) EXPECT_EQ(destinations(*x, src, 50), std::set<int>{src ^ 1});
  const auto y = build("many2many:axis=y,grid=4x3x6");
  for (int src = 0; src < kNodes; ++src) {
    std::set<int> expected;
    for (int k = 0; k < 3; ++k) expected.insert(src % 4 + 4 * k + 12 * (src / 12));
    expected.erase(src);
    EXPECT_EQ(destinations(*y, src, 300), expected) << src;
  }
}

// ---------------------------------------------------------------------------
// random neighbours

TEST(TrafficRandNeighbors, SixToTwentyFixedTargets) {
  const auto p = build("randneighbors");
  const auto again = build("randneighbors");
  std::set<size_t> sizes;
  for (int src = 0; src < kNodes; ++src) {
    const std::set<int> targets = destinations(*p, src, 3000, 1);
    EXPECT_GE(targets.size(), 6u);
    EXPECT_LE(targets.size(), 20u);
    EXPECT_FALSE(targets.count(src));
    EXPECT_EQ(destinations(*p, src, 3000, 2), targets) << "fixed: another packet stream, same targets";
    EXPECT_EQ(destinations(*again, src, 3000, 3), targets) << "fixed for the seed";
    sizes.insert(targets.size());
  }
  EXPECT_GT(sizes.size(), 5u) << "the target count varies per node";
  const auto other = build("randneighbors", dfly(), kSeed + 1);
  int differ = 0;
  for (int src = 0; src < kNodes; ++src) differ += destinations(*other, src, 3000) != destinations(*p, src, 3000);
  EXPECT_GT(differ, kNodes / 2) << "another seed, other targets";
}

TEST(TrafficRandNeighbors, MinMaxAndCaps) {
  const auto three = build("randneighbors:min=3,max=3");
  for (int src = 0; src < kNodes; ++src) EXPECT_EQ(destinations(*three, src, 500).size(), 3u);
  const auto all = build("randneighbors:min=71,max=71");
  for (int src = 0; src < kNodes; src += 7) EXPECT_EQ(destinations(*all, src, 5000).size(), 71u);
  // 4x4 torus: the defaults are capped at 15 targets.
  const auto small = build("randneighbors", torus());
  for (int src = 0; src < 16; ++src) {
    const size_t n = destinations(*small, src, 2000).size();
    EXPECT_GE(n, 6u);
    EXPECT_LE(n, 15u);
  }
}

// ---------------------------------------------------------------------------
// Existing patterns keep their behaviour.

TEST(TrafficExisting, RandpermIsTheSeededShuffle) {
  std::vector<int> map(16);
  std::iota(map.begin(), map.end(), 0);
  Rng shuffle_rng(kSeed ^ 0x5eedba5eull);
  std::shuffle(map.begin(), map.end(), shuffle_rng);
  const auto p = build("randperm", torus());
  Rng rng(1);
  for (int src = 0; src < 16; ++src) EXPECT_EQ(p->destination(src, rng), map[src] == src ? -1 : map[src]);
}

TEST(TrafficExisting, TorusPatterns) {
  Rng rng(1);
  EXPECT_EQ(build("bitcomp", torus())->destination(3, rng), 12);
  EXPECT_EQ(build("transpose", torus())->destination(1, rng), 4);
  EXPECT_EQ(build("neighbor", torus())->destination(0, rng), 5);  // (0,0) -> (1,1)
  EXPECT_EQ(build("tornado", torus())->destination(0, rng), 5);   // (4+1)/2-1 = 1 in both dims
  const auto hot = make_traffic_pattern("hotspot", torus(), kSeed, 1.0, 9);
  EXPECT_EQ(hot->destination(0, rng), 9);
  EXPECT_EQ(build_error("bitrev"), "pattern bitrev needs a power-of-two node count, not 72");
}
