// Torus/mesh coordinate math, port maps and node addresses.
#include <gtest/gtest.h>

#include "rlroute/gen/config.hpp"
#include "rlroute/gen/topology.hpp"

using namespace rlroute;

namespace {
Config grid(TopologyKind kind, std::vector<int> dims, int nodes_per_router = 1) {
  Config c;
  c.path = "t.toml";
  c.name = "t";
  c.kind = kind;
  c.dims = std::move(dims);
  c.nodes_per_router = nodes_per_router;
  return c;
}
}  // namespace

TEST(Topology, CoordinatesRoundTrip) {
  const Topology t(grid(TopologyKind::Torus, {4, 3, 2}));
  EXPECT_EQ(t.num_routers(), 24);
  EXPECT_EQ(t.num_ports(), 7);
  for (int r = 0; r < t.num_routers(); ++r) {
    EXPECT_EQ(t.router_at(t.coords(r)), r);
    for (int d = 0; d < 3; ++d) EXPECT_EQ(t.coord(r, d), t.coords(r)[static_cast<size_t>(d)]) << r << " dim " << d;
  }
  EXPECT_EQ(t.coords(5), (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(t.coord(23, 2), 1);
}

TEST(Topology, TorusNeighboursWrapAndAreSymmetric) {
  const Topology t(grid(TopologyKind::Torus, {4, 4}));
  const auto n = t.neighbor(t.router_at({3, 0}), t.plus_port(0));
  ASSERT_TRUE(n);
  EXPECT_EQ(n->router, t.router_at({0, 0}));
  EXPECT_EQ(n->port, t.minus_port(0));
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int p = t.nodes_per_router(); p < t.num_ports(); ++p) {
      const auto far = t.neighbor(r, p);
      ASSERT_TRUE(far);
      const auto back = t.neighbor(far->router, far->port);
      ASSERT_TRUE(back);
      EXPECT_EQ(back->router, r);
      EXPECT_EQ(back->port, p);
    }
  }
}

TEST(Topology, MeshEdgesHaveNoNeighbour) {
  const Topology t(grid(TopologyKind::Mesh, {3, 3}));
  EXPECT_FALSE(t.neighbor(t.router_at({2, 1}), t.plus_port(0)));
  EXPECT_FALSE(t.neighbor(t.router_at({0, 1}), t.minus_port(0)));
  EXPECT_TRUE(t.neighbor(t.router_at({1, 1}), t.plus_port(1)));
  EXPECT_FALSE(t.neighbor(0, 0)) << "NI ports lead to no router";
}

TEST(Topology, AddressesRoundTripWithSeveralNodesPerRouter) {
  const Topology t(grid(TopologyKind::Mesh, {3, 5}, 3));
  EXPECT_EQ(t.local_bits(), 2);
  EXPECT_EQ(t.coord_bits(), 3);
  for (int n = 0; n < t.num_nodes(); ++n) EXPECT_EQ(t.node_of_address(t.address_of(n)), n);
  // Local index in the LSBs, then dimension 0, then dimension 1.
  const int node = t.node_at(t.router_at({2, 4}), 1);
  EXPECT_EQ(t.address_of(node), 1u | (2u << 2) | (4u << 5));
  EXPECT_EQ(t.node_of_address(3u), -1) << "local index 3 does not exist";
  EXPECT_EQ(t.node_of_address(3u << 2), -1) << "dimension 0 has coordinates 0..2";
  EXPECT_EQ(t.node_of_address(5u << 5), -1) << "dimension 1 has coordinates 0..4";
  EXPECT_EQ(t.node_of_address(1u << 8), -1) << "no bits above the last dimension";
}

TEST(Topology, MinimalHops) {
  const Topology torus(grid(TopologyKind::Torus, {8, 8}));
  const Topology mesh(grid(TopologyKind::Mesh, {8, 8}));
  const int a = torus.router_at({0, 0});
  const int b = torus.router_at({7, 5});
  EXPECT_EQ(torus.min_hops(a, b), 1 + 3);
  EXPECT_EQ(mesh.min_hops(a, b), 7 + 5);
}
