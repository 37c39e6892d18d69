// Dragonfly port maps (both global-link arrangements) and the path, hop bound
// and VC-level sequence of every routing algorithm for every source and
// destination of dfly(2,4,2,9).
#include <gtest/gtest.h>

#include <deque>
#include <set>

#include <fmt/format.h>

#include "rlroute/design.hpp"
#include "rlroute/routing_check.hpp"
#include "rlroute/routing_dragonfly.hpp"

using namespace rlroute;

namespace {

Config dragonfly(int p, int a, int h, int g, const std::string& algorithm = "min", int vcs = 2,
                 const std::string& arrangement = "absolute") {
  const std::string toml = fmt::format(
      "[topology]\nkind = \"dragonfly\"\np = {}\na = {}\nh = {}\ng = {}\narrangement = \"{}\"\n"
      "[router]\nvcs = {}\nbuffer_flits = 24\n[routing]\nalgorithm = \"{}\"\n",
      p, a, h, g, arrangement, vcs, algorithm);
  return parse_config(toml, "t.toml");
}

// Router-level hop distances by breadth-first search over the link graph.
std::vector<int> bfs(const Topology& t, int from) {
  std::vector<int> dist(static_cast<size_t>(t.num_routers()), -1);
  std::deque<int> queue{from};
  dist[from] = 0;
  while (!queue.empty()) {
    const int r = queue.front();
    queue.pop_front();
    for (int port = 0; port < t.num_ports(); ++port) {
      const auto n = t.neighbor(r, port);
      if (n && dist[n->router] < 0) {
        dist[n->router] = dist[r] + 1;
        queue.push_back(n->router);
      }
    }
  }
  return dist;
}

void check_port_map(const Topology& t) {
  SCOPED_TRACE(t.describe());
  const int l = t.links_per_group_pair();
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int port = 0; port < t.num_ports(); ++port) {
      const auto n = t.neighbor(r, port);
      if (t.is_ni_port(port)) {
        EXPECT_FALSE(n);
        continue;
      }
      ASSERT_TRUE(n) << r << " port " << port;
      const auto back = t.neighbor(n->router, n->port);
      ASSERT_TRUE(back);
      EXPECT_EQ(*back, (PortRef{r, port})) << "links are bidirectional";
      EXPECT_EQ(t.port_class(n->port), t.port_class(port)) << "local meets local, global meets global";
      if (t.is_local_port(port)) {
        EXPECT_EQ(t.group_of(n->router), t.group_of(r));
        EXPECT_EQ(t.index_in_group(n->router), t.local_port_target(t.index_in_group(r), port));
      } else {
        EXPECT_NE(t.group_of(n->router), t.group_of(r));
        EXPECT_EQ(t.group_of(n->router), t.global_port_target(r, port));
      }
    }
  }
  for (int group = 0; group < t.num_groups(); ++group) {
    for (int target = 0; target < t.num_groups(); ++target) {
      if (target == group) continue;
      const std::vector<PortRef> links = t.global_links(group, target);
      ASSERT_EQ(static_cast<int>(links.size()), l);
      std::set<std::pair<int, int>> distinct;
      for (const PortRef& link : links) {
        EXPECT_EQ(t.group_of(link.router), group);
        EXPECT_EQ(t.global_port_target(link.router, link.port), target);
        distinct.insert({link.router, link.port});
      }
      EXPECT_EQ(static_cast<int>(distinct.size()), l);
    }
  }
  for (int r = 0; r < t.num_routers(); ++r) {
    const std::vector<int> dist = bfs(t, r);
    for (int x = 0; x < t.num_routers(); ++x) {
      // Dragonfly minimal routing uses at most one global link (local, global,
      // local); the graph distance can be shorter through a third group.
      int expected = t.group_of(r) == t.group_of(x) ? (r != x) : 3;
      for (const PortRef& link : t.global_links(t.group_of(r), t.group_of(x))) {
        if (t.group_of(r) == t.group_of(x)) break;
        expected = std::min(expected, (link.router != r) + 1 + (t.neighbor(link.router, link.port)->router != x));
      }
      EXPECT_EQ(t.min_router_hops(r, x), expected) << r << "->" << x;
      EXPECT_LE(dist[x], t.min_router_hops(r, x));
      EXPECT_GE(t.min_router_hops(r, x), 0);
    }
  }
  for (int node = 0; node < t.num_nodes(); ++node) EXPECT_EQ(t.node_of_address(t.address_of(node)), node);
}

}  // namespace

TEST(DragonflyTopology, PortMapsOfBothArrangements) {
  for (const std::string arrangement : {"absolute", "palmtree"}) {
    check_port_map(Topology(dragonfly(2, 4, 2, 9, "min", 2, arrangement)));
    check_port_map(Topology(dragonfly(2, 4, 2, 5, "min", 2, arrangement)));  // l = 2
    check_port_map(Topology(dragonfly(1, 3, 2, 4, "min", 2, arrangement)));  // l = 2, h does not divide g-1
  }
}

TEST(DragonflyTopology, ShapeAndNumbering) {
  const Topology t(dragonfly(2, 4, 2, 9));
  EXPECT_EQ(t.num_routers(), 36);
  EXPECT_EQ(t.num_nodes(), 72);
  EXPECT_EQ(t.num_ports(), 2 + 3 + 2);
  EXPECT_EQ(t.links_per_group_pair(), 1);
  EXPECT_EQ(t.first_local_port(), 2);
  EXPECT_EQ(t.first_global_port(), 5);
  EXPECT_EQ(t.router_name(9), "R9(g2.r1)");
  EXPECT_EQ(t.port_name(9, 2), "l0");
  EXPECT_EQ(t.port_name(9, 6), "g1");
  // Absolute: group 0's global link ends 0..7 go to groups 1..8 in order.
  for (int n = 0; n < 8; ++n) EXPECT_EQ(t.global_port_target(n / 2, 5 + n % 2), n + 1);
  // Group 3's ends go to 0, 1, 2, 4, 5, ...
  EXPECT_EQ(t.global_port_target(t.router_in_group(3, 1), 6), 4);
  // Palmtree: group G's end n goes to group (G - n - 1) mod g.
  const Topology p(dragonfly(2, 4, 2, 9, "min", 2, "palmtree"));
  for (int n = 0; n < 8; ++n) EXPECT_EQ(p.global_port_target(p.router_in_group(3, n / 2), 5 + n % 2), ((3 - n - 1) % 9 + 9) % 9);
}

namespace {

struct Hop {
  int router, out_port, vc;
  RouteState next;
};

// Every path the relation allows from src to dst, each hop taking the lowest
// VC of the allowed set (the VC-level rule makes every VC of a level
// equivalent).
void all_paths(const Design& d, const RoutingRelation& rel, int router, int in_port, int in_vc,
               const RouteState& s, std::vector<Hop>& path, std::vector<std::vector<Hop>>& out) {
  ASSERT_LE(path.size(), 10u) << "runaway path";
  for (const RouteOption& o : rel.next_hops(router, in_port, in_vc, s)) {
    ASSERT_NE(o.vc_mask, 0u);
    int vc = 0;
    while (!(o.vc_mask & (1u << vc))) ++vc;
    path.push_back({router, o.out_port, vc, o.next});
    if (d.topo.is_ni_port(o.out_port)) {
      out.push_back(path);
    } else {
      const PortRef n = *d.topo.neighbor(router, o.out_port);
      all_paths(d, rel, n.router, n.port, vc, o.next, path, out);
    }
    path.pop_back();
  }
}

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
        if (t.router_of_node(src) != t.router_of_node(dst)) {
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
