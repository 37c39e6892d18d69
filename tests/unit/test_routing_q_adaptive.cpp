// Q-adaptive's routing relation (gen/include/rlroute/gen/routing_q_adaptive.hpp)
// on every source and destination of dfly(2,4,2,9) and of dfly(2,4,2,5) with
// palmtree links: where it offers a choice, the paths its choices make (hop
// bound, VC per hop), and the deadlock check.
#include <gtest/gtest.h>

#include <set>

#include <fmt/format.h>

#include "configs.hpp"
#include "route_paths.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing_check.hpp"
#include "rlroute/gen/routing_q_adaptive.hpp"

using namespace rlroute;
using rlroute::test::all_paths;
using rlroute::test::Hop;

namespace {

Design q_design(int g, const std::string& arrangement, int vcs) {
  return derive_design(rlroute::test::dragonfly(2, 4, 2, g, "q_adaptive", vcs, arrangement));
}

}  // namespace

TEST(QAdaptiveRouting, DecidesAtTheSourceAndTheFirstIntermediateRouterAndTakesAtMostFiveHops) {
  for (const auto& [g, arrangement] : std::vector<std::pair<int, std::string>>{{9, "absolute"}, {5, "palmtree"}}) {
    SCOPED_TRACE("g=" + std::to_string(g) + " " + arrangement);
    const Design d = q_design(g, arrangement, 5);
    const QAdaptiveRouting rel(d);
    const Topology& t = d.topo;
    const int network_ports = t.num_ports() - t.first_local_port();
    EXPECT_EQ(rel.hop_bound(), 5);
    int longest = 0;
    bool back_through_input = false;  // exploration at the intermediate router may turn back
    for (int src = 0; src < t.num_nodes(); ++src) {
      for (int dst = 0; dst < t.num_nodes(); ++dst) {
        if (src == dst) continue;
        const int sr = t.router_of_node(src), dr = t.router_of_node(dst);
        std::vector<Hop> path;
        std::vector<std::vector<Hop>> paths;
        all_paths(d, rel, sr, t.local_of_node(src), 0, {dst, src, -1, RouteMode::Minimal}, path, paths);
        ASSERT_FALSE(paths.empty());
        std::set<int> first_ports;
        bool saw_minimal = false;
        for (const std::vector<Hop>& p : paths) {
          const int hops = static_cast<int>(p.size()) - 1;
          longest = std::max(longest, hops);
          ASSERT_LE(hops, 5) << src << "->" << dst;
          EXPECT_EQ(p.back().router, dr);
          EXPECT_EQ(p.back().out_port, t.local_of_node(dst));
          first_ports.insert(p.front().out_port);
          // VC level = router-to-router hops before this one.
          for (int i = 0; i < hops; ++i) EXPECT_EQ(p[static_cast<size_t>(i)].vc, i) << src << "->" << dst;
          const bool minimal = p.back().next.mode == RouteMode::Minimal;
          saw_minimal = saw_minimal || minimal;
          if (minimal) {
            EXPECT_EQ(hops, t.min_hops(src, dst)) << "a path left minimal is minimal";
          }
          for (size_t i = 1; i + 1 < p.size(); ++i) {
            const PortRef back = *t.neighbor(p[i].router, p[i].out_port);
            if (back.router == p[i - 1].router && t.is_global_port(p[i].out_port)) back_through_input = true;
          }
        }
        EXPECT_TRUE(saw_minimal) << src << "->" << dst;
        if (sr == dr) {
          EXPECT_EQ(paths.size(), 1u);
        } else if (t.group_of(sr) == t.group_of(dr)) {
          EXPECT_EQ(paths.size(), 1u) << "in the destination group: minimal only, " << src << "->" << dst;
        } else {
          EXPECT_EQ(static_cast<int>(first_ports.size()), network_ports) << "every port at the source";
        }
      }
    }
    EXPECT_EQ(longest, 5) << "the hop bound is tight";
    EXPECT_TRUE(back_through_input);
  }
}

TEST(QAdaptiveRouting, TheIntermediateRouterDecidesOnlyWithoutALinkToTheDestinationGroup) {
  const Design d = q_design(9, "absolute", 5);
  const QAdaptiveRouting rel(d);
  const Topology& t = d.topo;
  const int dst = t.node_at(t.router_in_group(5, 2), 0);
  int deciding = 0, minimal = 0;
  for (int r = t.router_in_group(3, 0); r < t.router_in_group(4, 0); ++r) {
    bool has_link = false;
    for (const PortRef& link : t.global_links(3, 5)) has_link = has_link || link.router == r;
    for (int port = t.first_global_port(); port < t.num_ports(); ++port) {
      const RouteState s{dst, 0, r, RouteMode::ToIntermediate};
      const std::vector<RouteOption> options = rel.next_hops(r, port, 0, s);
      EXPECT_EQ(rel.decision_point(r, port, s), !has_link);
      EXPECT_EQ(options.size(), has_link ? 1u : static_cast<size_t>(t.num_ports() - t.first_local_port()));
      for (const RouteOption& o : options) EXPECT_EQ(o.next.mode, RouteMode::FromIntermediate);
      (has_link ? minimal : deciding)++;
    }
  }
  EXPECT_GT(deciding, 0);
  EXPECT_GT(minimal, 0);
}

// The Q-adaptive paper [Kang 2021] gives every hop its own VC (5). The check
// finds 4 enough: levels 3 and 4 then share a VC, and the only paths with a
// fifth hop end global -> local into the destination router, so no dependency
// on that VC leads back to a global channel. With 3 it names a cycle.
TEST(QAdaptiveRouting, DeadlockFreeWithFiveAndFourVcsAndNotWithThree) {
  for (const std::string arrangement : {"absolute", "palmtree"}) {
    SCOPED_TRACE(arrangement);
    const int g = arrangement == "absolute" ? 9 : 5;
    for (const int vcs : {5, 4}) {
      const Design d = q_design(g, arrangement, vcs);
      EXPECT_NO_THROW(check_routing(d, QAdaptiveRouting(d))) << vcs << " VCs";
    }
    for (const int vcs : {3, 2}) {
      const Design d = q_design(g, arrangement, vcs);
      try {
        check_routing(d, QAdaptiveRouting(d));
        ADD_FAILURE() << "expected a dependency cycle with " << vcs << " VCs";
      } catch (const ConfigError& err) {
        const std::string m = err.what();
        EXPECT_NE(m.find("router.vcs = " + std::to_string(vcs) + ": too few VCs for q_adaptive"), std::string::npos)
            << m;
        EXPECT_NE(m.find("channel dependency cycle R"), std::string::npos) << m;
      }
    }
  }
}

namespace {

Design q_source_group_design(int g, const std::string& arrangement, int vcs,
                              QSourceGroup rule = QSourceGroup::Decide) {
  Config cfg = rlroute::test::dragonfly(2, 4, 2, g, "q_adaptive", vcs, arrangement);
  cfg.q_source_group = rule;
  return derive_design(cfg);
}

// Every path from every node to every other: at most `bound` hops, the
// bound reached, each hop's VC level the hops before it.
void expect_paths_within(const Design& d, const RoutingRelation& rel, int bound) {
  const Topology& t = d.topo;
  int longest = 0;
  for (int src = 0; src < t.num_nodes(); ++src) {
    for (int to = 0; to < t.num_nodes(); ++to) {
      if (src == to) continue;
      std::vector<Hop> path;
      std::vector<std::vector<Hop>> paths;
      all_paths(d, rel, t.router_of_node(src), t.local_of_node(src), 0, {to, src, -1, RouteMode::Minimal}, path,
                paths);
      for (const std::vector<Hop>& p : paths) {
        const int hops = static_cast<int>(p.size()) - 1;
        longest = std::max(longest, hops);
        ASSERT_LE(hops, bound) << src << "->" << to;
        EXPECT_EQ(p.back().router, t.router_of_node(to));
        for (int i = 0; i < hops; ++i) EXPECT_EQ(p[static_cast<size_t>(i)].vc, i) << src << "->" << to;
      }
    }
  }
  EXPECT_EQ(longest, bound) << "the hop bound is tight";
}

}  // namespace

// routing.q_source_group = "decide": the next router of the source group,
// reached by the source's minimal local hop, offers its global ports (the
// minimal one keeps the packet minimal, one into a third group sends it to
// an intermediate group, whose first router decides again): up to 6 hops,
// the VC level still the hops before.
TEST(QAdaptiveRouting, TheSourceGroupsNextRouterOffersItsGlobalPorts) {
  const Design d = q_source_group_design(9, "absolute", 6);
  const QAdaptiveRouting rel(d);
  const Topology& t = d.topo;
  EXPECT_EQ(rel.hop_bound(), 6);
  // Node 0 (router 0 of group 0) to group 5: the source's minimal port is a
  // local one, to the router holding group 0's link to group 5.
  const int dst = t.node_at(t.router_in_group(5, 2), 0);
  const PortRef link = t.global_links(0, 5).front();
  ASSERT_NE(link.router, 0);
  const int in_port = t.local_port_to(t.index_in_group(link.router), 0);
  const RouteState s{dst, 0, -1, RouteMode::Minimal};
  EXPECT_TRUE(rel.decision_point(link.router, in_port, s));
  const std::vector<RouteOption> options = rel.next_hops(link.router, in_port, 0, s);
  ASSERT_EQ(static_cast<int>(options.size()), t.num_ports() - t.first_global_port());
  for (const RouteOption& o : options) {
    EXPECT_TRUE(t.is_global_port(o.out_port));
    EXPECT_EQ(o.next.mode, o.out_port == link.port ? RouteMode::Minimal : RouteMode::ToIntermediate);
  }
  // A packet the source sent on non-minimally, and one in the destination group, are not decided again.
  EXPECT_FALSE(rel.decision_point(link.router, in_port, {dst, 0, -1, RouteMode::FromIntermediate}));
  EXPECT_FALSE(rel.decision_point(t.router_in_group(5, 0), t.local_port_to(0, 1), {dst, 0, -1, RouteMode::Minimal}));
  expect_paths_within(d, rel, 6);
}

// routing.q_source_group = "detour": a local port other than the minimal
// one at the source leaves as a source detour, and the router it reaches
// offers its minimal port (minimal from there) and its global ports (one
// into a third group sends the packet to an intermediate group); the
// source's minimal local hop is not decided again. Up to 6 hops.
TEST(QAdaptiveRouting, WithDetourTheRouterASourceDetoursToOffersItsGlobalPorts) {
  const Design d = q_source_group_design(9, "absolute", 6, QSourceGroup::Detour);
  const QAdaptiveRouting rel(d);
  const Topology& t = d.topo;
  EXPECT_EQ(rel.hop_bound(), 6);
  // Node 0 (router 0 of group 0) to group 5, whose link is another router's.
  const int dst = t.node_at(t.router_in_group(5, 2), 0);
  const PortRef link = t.global_links(0, 5).front();
  ASSERT_NE(link.router, 0);
  const RouteState at_source{dst, 0, -1, RouteMode::Minimal};
  const int min_port = t.local_port_to(0, t.index_in_group(link.router));
  int detours = 0;
  for (const RouteOption& o : rel.next_hops(0, 0, 0, at_source)) {
    if (o.out_port == min_port) {
      EXPECT_EQ(o.next.mode, RouteMode::Minimal);
    } else if (t.is_local_port(o.out_port)) {
      EXPECT_EQ(o.next.mode, RouteMode::SourceDetour);
      ++detours;
    } else {
      EXPECT_EQ(o.next.mode, RouteMode::ToIntermediate);
    }
  }
  EXPECT_EQ(detours, 2) << "the local ports other than the minimal one";
  // The detour's router: router 1 of group 0 if it does not hold the link.
  const int other = t.index_in_group(link.router) == 1 ? 2 : 1;
  const int via = t.router_in_group(0, other);
  const int in_port = t.local_port_to(other, 0);
  const RouteState detour{dst, 0, -1, RouteMode::SourceDetour};
  EXPECT_TRUE(rel.decision_point(via, in_port, detour));
  const int via_min = t.local_port_to(other, t.index_in_group(link.router));
  const std::vector<RouteOption> options = rel.next_hops(via, in_port, 1, detour);
  ASSERT_EQ(static_cast<int>(options.size()), 1 + t.num_ports() - t.first_global_port());
  for (const RouteOption& o : options) {
    EXPECT_TRUE(o.out_port == via_min || t.is_global_port(o.out_port)) << o.out_port;
    EXPECT_EQ(o.next.mode, o.out_port == via_min ? RouteMode::FromIntermediate : RouteMode::ToIntermediate);
  }
  // The source's minimal hop is not decided again, and a detour lasts one local hop.
  const int link_in = t.local_port_to(t.index_in_group(link.router), 0);
  EXPECT_FALSE(rel.decision_point(link.router, link_in, at_source));
  EXPECT_TRUE(rel.next_hops(via, t.first_global_port(), 1, detour).empty());
  expect_paths_within(d, rel, 6);
}

// With the source group's decision a path has up to 6 hops, and 5 VCs are
// still enough (levels 4 and 5 share one: the sixth hop is the local hop
// into the destination router, as the fifth is without it). With "decide"
// 4 are enough on dfly(2,4,2,9) with one link per group pair, not on
// dfly(2,4,2,5) with palmtree links (two per pair); with "detour" (a local
// hop that starts a non-minimal path) on neither; 3 are never enough.
TEST(QAdaptiveRouting, WithTheSourceGroupsDecisionDeadlockFreeWithFiveVcs) {
  for (const auto& [arrangement, rule] : {std::pair{"absolute", QSourceGroup::Decide},
                                          {"palmtree", QSourceGroup::Decide},
                                          {"absolute", QSourceGroup::Detour},
                                          {"palmtree", QSourceGroup::Detour}}) {
    SCOPED_TRACE(std::string(arrangement) + (rule == QSourceGroup::Detour ? ", detour" : ", decide"));
    const int g = std::string(arrangement) == "absolute" ? 9 : 5;
    for (const int vcs : {6, 5, 4, 3}) {
      const Design d = q_source_group_design(g, arrangement, vcs, rule);
      const bool enough =
          vcs >= 5 || (vcs == 4 && std::string(arrangement) == "absolute" && rule == QSourceGroup::Decide);
      try {
        check_routing(d, QAdaptiveRouting(d));
        EXPECT_TRUE(enough) << "expected a dependency cycle with " << vcs << " VCs";
      } catch (const ConfigError& err) {
        const std::string m = err.what();
        EXPECT_FALSE(enough) << m;
        EXPECT_NE(m.find("channel dependency cycle R"), std::string::npos) << m;
      }
    }
  }
}

namespace {
Design q_rising_design(int g, const std::string& arrangement, int vcs, QSourceGroup rule, QVcs rising) {
  Config cfg = rlroute::test::dragonfly(2, 4, 2, g, "q_adaptive", vcs, arrangement);
  cfg.q_source_group = rule;
  cfg.q_vcs = rising;
  return derive_design(cfg);
}
}  // namespace

// routing.q_vcs = "rising": every hop still rises and a packet that rose
// keeps one VC group for each later hop, so the check passes wherever it
// passes with the paper's VCs (and fails where they do).
TEST(QAdaptiveRouting, RisingVcsAreDeadlockFreeWhereThePerHopVcsAre) {
  int passed = 0;
  for (const std::string arrangement : {"absolute", "palmtree"}) {
    for (const QSourceGroup rule : {QSourceGroup::Minimal, QSourceGroup::Decide, QSourceGroup::Detour}) {
      for (const int vcs : {8, 6, 5, 4, 3}) {
        SCOPED_TRACE(fmt::format("{}, q_source_group {}, {} VCs", arrangement, to_string(rule), vcs));
        const int g = arrangement == "absolute" ? 9 : 5;
        const Design per_hop = q_rising_design(g, arrangement, vcs, rule, QVcs::PerHop);
        const Design rising = q_rising_design(g, arrangement, vcs, rule, QVcs::Rising);
        bool per_hop_ok = true;
        try {
          check_routing(per_hop, QAdaptiveRouting(per_hop));
        } catch (const ConfigError&) {
          per_hop_ok = false;
        }
        if (per_hop_ok) {
          EXPECT_NO_THROW(check_routing(rising, QAdaptiveRouting(rising)));
          ++passed;
        } else {
          EXPECT_THROW(check_routing(rising, QAdaptiveRouting(rising)), ConfigError);
        }
      }
    }
  }
  EXPECT_GE(passed, 12);
}

// On dfly(2,4,2,9) with 5 VCs (one per level): a packet whose minimal path
// is local, global, local takes levels 0-2 out of its source router when it
// goes minimally (two hops after it), level 0 when it goes another way; at
// the router with the global link, from the level above its VC up to 3.
TEST(QAdaptiveRouting, RisingVcsLeaveOneLevelForEachRemainingHop) {
  const Design d = q_rising_design(9, "absolute", 5, QSourceGroup::Minimal, QVcs::Rising);
  const Design paper = q_rising_design(9, "absolute", 5, QSourceGroup::Minimal, QVcs::PerHop);
  const QAdaptiveRouting rel(d), per_hop(paper);
  const DragonflyRouting dfly(d);
  const Topology& t = d.topo;
  int checked = 0;
  for (int dst = 0; dst < t.num_nodes(); ++dst) {
    if (t.min_hops(0, dst) != 3) continue;
    const RouteState s{dst, 0, -1, RouteMode::Minimal};
    const int dst_router = t.router_of_node(dst);
    const int min_port = dfly.min_port_to_router(0, dst_router);
    ASSERT_TRUE(t.is_local_port(min_port));
    for (const RouteOption& o : rel.next_hops(0, t.local_of_node(0), 0, s)) {
      EXPECT_EQ(o.vc_mask, o.out_port == min_port ? 0b00111u : 0b00001u) << "port " << o.out_port;
    }
    for (const RouteOption& o : per_hop.next_hops(0, t.local_of_node(0), 0, s)) EXPECT_EQ(o.vc_mask, 0b00001u);
    const PortRef gateway = *t.neighbor(0, min_port);
    for (const auto& [in_vc, mask] : {std::pair{0, 0b01110u}, {1, 0b01100u}, {2, 0b01000u}}) {
      const std::vector<RouteOption> o = rel.next_hops(gateway.router, gateway.port, in_vc, s);
      ASSERT_EQ(o.size(), 1u);
      EXPECT_TRUE(t.is_global_port(o[0].out_port));
      EXPECT_EQ(o[0].vc_mask, mask) << "in VC " << in_vc;
    }
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

// The intermediate router's VCs serve every port it may choose: the hop's
// level alone, the minimal port's too.
TEST(QAdaptiveRouting, RisingVcsDoNotRiseAtTheIntermediateRouter) {
  const Design d = q_rising_design(9, "absolute", 5, QSourceGroup::Minimal, QVcs::Rising);
  const QAdaptiveRouting rel(d);
  const Topology& t = d.topo;
  int checked = 0;
  for (int router = 0; router < t.num_routers(); ++router) {
    for (int port = t.first_global_port(); port < t.num_ports(); ++port) {
      for (int dst = 0; dst < t.num_nodes(); ++dst) {
        const RouteState s{dst, 0, -1, RouteMode::ToIntermediate};
        if (t.group_of(t.router_of_node(dst)) == t.group_of(router) || !rel.decision_point(router, port, s)) continue;
        for (const RouteOption& o : rel.next_hops(router, port, 0, s)) EXPECT_EQ(o.vc_mask, 0b00010u);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}
