// The path, hop bound and VC-level sequence of every dragonfly routing
// algorithm for every source and destination of dfly(2,4,2,9), and the
// deadlock check with the documented VC counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <set>

#include <fmt/format.h>

#include "configs.hpp"
#include "route_paths.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing_check.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"

using namespace rlroute;
using rlroute::test::all_paths;
using rlroute::test::dragonfly;
using rlroute::test::Hop;

namespace {

struct Expect {
  std::string algorithm;
  int vcs;        // VC levels needed
  int max_hops;   // hop bound, reached by some path
  bool minimal_option;
  bool nonminimal_option;
};

}  // namespace

TEST(DragonflyRouting, EveryAlgorithmOnEveryPair) {
  const std::vector<Expect> expectations = {
      {"min", 2, 3, true, false},    {"valg", 3, 5, false, true},   {"valn", 4, 6, false, true},
      {"ugal_g", 3, 5, true, true},  {"ugal_n", 4, 6, true, true},  {"ugal_le", 4, 6, true, true},
      {"par", 5, 7, true, true},
  };
  // dfly(2,4,2,9) as the issue asks, and dfly(2,4,2,5) with palmtree links (l = 2).
  for (const auto& [g, arrangement] : std::vector<std::pair<int, std::string>>{{9, "absolute"}, {5, "palmtree"}})
  for (const Expect& e : expectations) {
    SCOPED_TRACE(e.algorithm + " g=" + std::to_string(g));
    const Design d = derive_design(dragonfly(2, 4, 2, g, e.algorithm, e.vcs, arrangement));
    const DragonflyRouting rel(d);
    const Topology& t = d.topo;
    EXPECT_EQ(rel.levels(), e.vcs);
    EXPECT_EQ(rel.hop_bound(), e.max_hops);
    int longest = 0;
    for (int src = 0; src < t.num_nodes(); ++src) {
      for (int dst = 0; dst < t.num_nodes(); ++dst) {
        if (src == dst) continue;
        std::vector<Hop> path;
        std::vector<std::vector<Hop>> paths;
        all_paths(d, rel, t.router_of_node(src), t.local_of_node(src), 0, {dst, src, -1, RouteMode::Minimal}, path,
                  paths);
        ASSERT_FALSE(paths.empty());
        bool saw_minimal = false, saw_nonminimal = false;
        for (const std::vector<Hop>& p : paths) {
          const int hops = static_cast<int>(p.size()) - 1;
          longest = std::max(longest, hops);
          ASSERT_LE(hops, e.max_hops) << src << "->" << dst;
          EXPECT_EQ(p.back().router, t.router_of_node(dst));
          EXPECT_EQ(p.back().out_port, t.local_of_node(dst));
          const bool nonminimal = p.back().next.mode != RouteMode::Minimal;
          (nonminimal ? saw_nonminimal : saw_minimal) = true;
          if (!nonminimal) {
            EXPECT_EQ(hops, t.min_hops(src, dst)) << "a minimal path is minimal";
          }
          // VC levels: start at 0; +1 after a global hop or for local after local.
          int level = 0;
          for (size_t i = 0; i + 1 < p.size(); ++i) {
            if (i > 0) {
              const bool prev_global = t.is_global_port(p[i - 1].out_port);
              const bool local_local = t.is_local_port(p[i - 1].out_port) && t.is_local_port(p[i].out_port);
              if (prev_global || local_local) ++level;
            }
            ASSERT_LT(level, e.vcs);
            EXPECT_EQ(p[i].vc, level) << src << "->" << dst << " hop " << i;
          }
          if (nonminimal) {
            const int inter = p.back().next.inter;
            ASSERT_GE(inter, 0);
            EXPECT_NE(t.group_of(inter), t.group_of(t.router_of_node(dst)));
            bool visited = false;
            for (const Hop& h : p) {
              visited = visited || (rel.intermediate_is_group() ? t.group_of(h.router) == t.group_of(inter)
                                                                : h.router == inter);
            }
            EXPECT_TRUE(visited) << "a non-minimal path passes its intermediate";
          }
        }
        const bool same_group = t.group_of(t.router_of_node(src)) == t.group_of(t.router_of_node(dst));
        if (same_group && t.router_of_node(src) != t.router_of_node(dst)) {
          // routing.intra_group = "minimal" (the default): one minimal path.
          EXPECT_TRUE(saw_minimal) << src << "->" << dst;
          EXPECT_FALSE(saw_nonminimal) << src << "->" << dst;
          EXPECT_EQ(paths.size(), 1u) << src << "->" << dst;
        } else if (!same_group) {
          EXPECT_EQ(saw_minimal, e.minimal_option) << src << "->" << dst;
          EXPECT_EQ(saw_nonminimal, e.nonminimal_option) << src << "->" << dst;
        }
      }
    }
    EXPECT_EQ(longest, e.max_hops) << "the documented hop bound is tight";
  }
}

TEST(DragonflyRouting, DeadlockFreeWithTheDocumentedVcsAndNotWithOneLess) {
  for (const auto& [algorithm, vcs] : std::vector<std::pair<std::string, int>>{
           {"min", 2}, {"valg", 3}, {"valn", 4}, {"ugal_g", 3}, {"ugal_n", 4}, {"ugal_le", 4}, {"par", 5}}) {
    for (const std::string arrangement : {"absolute", "palmtree"}) {
      SCOPED_TRACE(algorithm + " " + arrangement);
      const Design ok = derive_design(dragonfly(2, 4, 2, 9, algorithm, vcs, arrangement));
      EXPECT_NO_THROW(check_routing(ok, DragonflyRouting(ok)));
      const Design few = derive_design(dragonfly(2, 4, 2, 9, algorithm, vcs - 1, arrangement));
      try {
        check_routing(few, DragonflyRouting(few));
        ADD_FAILURE() << "expected a dependency cycle";
      } catch (const ConfigError& err) {
        const std::string m = err.what();
        EXPECT_NE(m.find(fmt::format("router.vcs = {}: too few VCs for {}", vcs - 1, algorithm)), std::string::npos)
            << m;
        EXPECT_NE(m.find("channel dependency cycle R"), std::string::npos) << m;
      }
    }
  }
  // l = 2 links per group pair.
  const Design l2 = derive_design(dragonfly(2, 4, 2, 5, "par", 5));
  EXPECT_NO_THROW(check_routing(l2, DragonflyRouting(l2)));
}

// routing.intra_group = "valiant": a pair inside one group may go through
// another group (as before the default became minimal), with the same VC
// levels and hop bounds; the deadlock check still passes with the documented
// VCs.
TEST(DragonflyRouting, IntraGroupValiantSendsSameGroupPairsThroughAnotherGroup) {
  for (const auto& [algorithm, vcs] : std::vector<std::pair<std::string, int>>{
           {"valg", 3}, {"valn", 4}, {"ugal_g", 3}, {"ugal_n", 4}, {"ugal_le", 4}, {"par", 5}}) {
    SCOPED_TRACE(algorithm);
    Config cfg = dragonfly(2, 4, 2, 9, algorithm, vcs);
    cfg.intra_group = IntraGroup::Valiant;
    const Design d = derive_design(cfg);
    const DragonflyRouting rel(d);
    const Topology& t = d.topo;
    EXPECT_NO_THROW(check_routing(d, rel));
    const int src = t.node_at(t.router_in_group(2, 1), 0);
    const int dst = t.node_at(t.router_in_group(2, 3), 1);
    std::vector<Hop> path;
    std::vector<std::vector<Hop>> paths;
    all_paths(d, rel, t.router_of_node(src), t.local_of_node(src), 0, {dst, src, -1, RouteMode::Minimal}, path, paths);
    std::set<int> groups_visited;
    bool saw_minimal = false;
    for (const std::vector<Hop>& p : paths) {
      ASSERT_LE(static_cast<int>(p.size()) - 1, rel.hop_bound());
      if (p.back().next.mode == RouteMode::Minimal) {
        saw_minimal = true;
        continue;
      }
      for (const Hop& h : p) groups_visited.insert(t.group_of(h.router));
    }
    EXPECT_EQ(saw_minimal, algorithm != "valg" && algorithm != "valn");
    EXPECT_EQ(groups_visited.size(), 9u) << "every other group is an intermediate";
    // The default keeps the pair in its group.
    const Design def = derive_design(dragonfly(2, 4, 2, 9, algorithm, vcs));
    const DragonflyRouting rd(def);
    path.clear();
    paths.clear();
    all_paths(def, rd, t.router_of_node(src), t.local_of_node(src), 0, {dst, src, -1, RouteMode::Minimal}, path, paths);
    ASSERT_EQ(paths.size(), 1u);
    EXPECT_EQ(paths[0].size(), 2u) << "one local hop, then ejection";
  }
}

// PAR (the reference implementation): the source writes its candidate into
// the header of a packet it routes minimally, and the next router of the
// source group can divert only through that candidate.
TEST(DragonflyRouting, ParReevaluatesAgainstTheSourcesCandidate) {
  const Design d = derive_design(dragonfly(2, 4, 2, 9, "par", 5));
  const DragonflyRouting rel(d);
  const Topology& t = d.topo;
  const int r0 = t.router_in_group(1, 0);  // no global link to group 7
  const int dst = t.node_at(t.router_in_group(7, 2), 0);
  const RouteState start{dst, t.node_at(r0, 0), -1, RouteMode::Minimal};
  const std::vector<int> inters = rel.intermediates(1, dst);
  const std::vector<RouteOption> at_source = rel.next_hops(r0, 0, 0, start);
  ASSERT_EQ(at_source.size(), 2 * inters.size()) << "a minimal and a non-minimal option per candidate";
  std::set<int> minimal_inters;
  for (const RouteOption& o : at_source) {
    if (o.next.mode == RouteMode::Minimal) minimal_inters.insert(o.next.inter);
  }
  EXPECT_EQ(minimal_inters, std::set<int>(inters.begin(), inters.end()));
  // At the next router of the group: minimal (keeping the candidate) or through it.
  const RouteOption m = *std::find_if(at_source.begin(), at_source.end(), [&](const RouteOption& o) {
    return o.next.mode == RouteMode::Minimal && o.next.inter == inters[5];
  });
  ASSERT_TRUE(t.is_local_port(m.out_port));
  const PortRef next = *t.neighbor(r0, m.out_port);
  const std::vector<RouteOption> again = rel.next_hops(next.router, next.port, 0, m.next);
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[0].next, m.next);
  EXPECT_EQ(again[1].next.mode, RouteMode::ToIntermediate);
  EXPECT_EQ(again[1].next.inter, inters[5]);
  // A header without a legal candidate (e.g. in the destination group): no divert.
  RouteState bad = m.next;
  bad.inter = t.router_in_group(7, 0);
  EXPECT_EQ(rel.next_hops(next.router, next.port, 0, bad).size(), 1u);
}
