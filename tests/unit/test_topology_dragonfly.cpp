// Dragonfly port maps (both global-link arrangements), shape, numbering and
// minimal router distances.
#include <gtest/gtest.h>

#include <deque>
#include <set>

#include "configs.hpp"
#include "rlroute/gen/topology.hpp"

using namespace rlroute;
using rlroute::test::dragonfly;

namespace {

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

