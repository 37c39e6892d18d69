// gen/src/routing_check.cpp: connectivity, the escape channel dependency check
// and the VC request map of the walk.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing_check.hpp"
#include "rlroute/gen/routing_dor.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"

#include "configs.hpp"

using namespace rlroute;
using rlroute::test::dragonfly;
using rlroute::test::grid;

TEST(RoutingCheck, TorusWithOneVcHasADependencyCycleNamedInTheError) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4, 4}, 1));
  const DorRouting rel(d);
  EXPECT_FALSE(check_connectivity(d, rel));
  const auto cycle = find_escape_cycle(d, rel);
  ASSERT_TRUE(cycle);
  ASSERT_GE(cycle->size(), 5u) << "a ring of 4 routers";
  EXPECT_EQ(describe_channel(d, cycle->front()), describe_channel(d, cycle->back()));
  try {
    check_routing(d, rel);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("router.vcs = 1"), std::string::npos) << m;
    EXPECT_NE(m.find("too few VCs for dor"), std::string::npos) << m;
    EXPECT_NE(m.find("channel dependency cycle R"), std::string::npos) << m;
    EXPECT_NE(m.find(" -> "), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line";
  }
}

TEST(RoutingCheck, TorusWithTwoVcsAndMeshWithOneAreDeadlockFree) {
  for (const Config& c : {grid(TopologyKind::Torus, {4, 4}, 2), grid(TopologyKind::Torus, {3, 3, 3}, 2),
                          grid(TopologyKind::Mesh, {4, 4}, 1), grid(TopologyKind::Torus, {5}, 3)}) {
    const Design d = derive_design(c);
    const DorRouting rel(d);
    EXPECT_FALSE(check_connectivity(d, rel));
    EXPECT_FALSE(find_escape_cycle(d, rel));
  }
}

namespace {

// The VC requests of every path, walked the slow way: every source, every
// destination, every state expanded once per destination node (no sharing
// between the terminals of a router), independent of check_routing's walk.
VcRequestMap requests_walked_in_full(const Design& d, const RoutingRelation& rel) {
  const Topology& t = d.topo;
  VcRequestMap map(d.ports * d.vcs);
  for (int dst = 0; dst < t.num_nodes(); ++dst) {
    std::set<std::tuple<int, int, int, int, int, int, bool, int>> seen;
    std::vector<std::tuple<int, int, int, RouteState>> todo;
    for (int src = 0; src < t.num_nodes(); ++src) {
      for (int vc = 0; vc < d.vcs; ++vc) {
        if (rel.injection_vcs() & (1u << vc)) {
          todo.emplace_back(t.router_of_node(src), t.local_of_node(src), vc, RouteState{dst, src, -1, RouteMode::Minimal});
        }
      }
    }
    while (!todo.empty()) {
      const auto [router, port, vc, state] = todo.back();
      todo.pop_back();
      const RouteState c = rel.canonical(state);
      if (!seen.insert({router, port, vc, c.src, c.inter, static_cast<int>(c.mode), c.pdor, c.hops}).second) continue;
      for (const RouteOption& o : rel.next_hops(router, port, vc, state)) {
        for (int w = 0; w < d.vcs; ++w) {
          if (!(o.vc_mask & (1u << w))) continue;
          map.allow(o.out_port * d.vcs + w, port * d.vcs + vc);
          if (!t.is_ni_port(o.out_port)) {
            const PortRef n = *t.neighbor(router, o.out_port);
            todo.emplace_back(n.router, n.port, w, o.next);
          }
        }
      }
    }
  }
  return map;
}

void expect_same_map(const Design& d, const RoutingRelation& rel) {
  const VcRequestMap fast = check_routing(d, rel);
  const VcRequestMap full = requests_walked_in_full(d, rel);
  ASSERT_EQ(fast.size(), d.ports * d.vcs);
  int allowed = 0;
  for (int o = 0; o < fast.size(); ++o) {
    for (int r = 0; r < fast.size(); ++r) {
      EXPECT_EQ(fast.allows(o, r), full.allows(o, r))
          << "output " << d.topo.port_name(0, o / d.vcs) << ".vc" << o % d.vcs << ", input "
          << d.topo.port_name(0, r / d.vcs) << ".vc" << r % d.vcs;
      allowed += full.allows(o, r) ? 1 : 0;
    }
  }
  EXPECT_LT(allowed, fast.size() * fast.size()) << "some request is impossible on every network here";
}

}  // namespace

// The map the VC allocator is built from must hold every request a packet
// can make: a missing one would stall that packet forever. check_routing's
// walk shares work between the terminals of a router; the map must not
// lose the other terminals' ejections to it (the first version did: on
// dfly(2,4,2,9), NI port 1 was asked for only by the router's own NIs).
TEST(RoutingCheck, VcRequestMapHoldsEveryRequestOfAFullWalk) {
  for (const Config& c : {grid(TopologyKind::Torus, {4, 4}, 2), grid(TopologyKind::Torus, {4, 4}, 2, 2),
                          grid(TopologyKind::Mesh, {3, 3}, 1), grid(TopologyKind::Torus, {5}, 3)}) {
    const Design d = derive_design(c);
    SCOPED_TRACE(d.topo.describe());
    expect_same_map(d, DorRouting(d));
  }
  for (const auto& [algorithm, vcs] : std::vector<std::pair<std::string, int>>{
           {"min", 2}, {"valn", 4}, {"ugal_g", 3}, {"ugal_n", 4}, {"par", 5}, {"q_adaptive", 5}}) {
    SCOPED_TRACE(algorithm);
    const Design d = derive_design(dragonfly(2, 4, 2, 9, algorithm, vcs));
    expect_same_map(d, *make_routing_relation(d));
  }
}

// What the map says on the 4x4 torus under DOR: no U-turns; a packet in x
// never comes from a y port; on a ring of 4 a packet goes at most one hop in
// -x, so x- is asked for only by the NI; every input may eject.
TEST(RoutingCheck, VcRequestMapOfTheTorusFollowsDor) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4, 4}, 2));
  const Topology& t = d.topo;
  const VcRequestMap m = check_routing(d, DorRouting(d));
  const int x_plus = t.plus_port(0), x_minus = t.minus_port(0), y_plus = t.plus_port(1);
  for (int vc = 0; vc < 2; ++vc) {
    for (int in = 0; in < m.size(); ++in) {
      const int in_port = in / 2;
      EXPECT_TRUE(m.allows(vc, in)) << "ejection from input VC " << in;
      EXPECT_EQ(m.allows(x_minus * 2 + vc, in), t.is_ni_port(in_port)) << "x-.vc" << vc << " from input VC " << in;
      EXPECT_FALSE(m.allows(x_plus * 2 + vc, x_plus * 2 + in % 2)) << "U-turn";
      if (t.port_dim(in_port) == 1) {
        EXPECT_FALSE(m.allows(x_plus * 2 + vc, in)) << "y to x";
      }
    }
  }
  EXPECT_TRUE(m.allows(y_plus * 2 + 1, x_plus * 2 + 1));
}
