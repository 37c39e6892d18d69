// gen/src/cube/routing_dor.cpp: the dimension-order routing relation of tori and meshes.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing.hpp"
#include "rlroute/gen/routing_dor.hpp"

#include "configs.hpp"

using namespace rlroute;
using rlroute::test::grid;

namespace {
struct Hop {
  int router, out_port, vc;
  std::uint32_t vc_mask;
};

// Follows DOR from src to dst taking the lowest (or highest) allowed VC;
// checks that the relation is deterministic (one port) on the way.
std::vector<Hop> walk(const Design& d, const RoutingRelation& rel, int src, int dst,
                      bool highest_vc = false) {
  std::vector<Hop> path;
  int router = d.topo.router_of_node(src), port = d.topo.local_of_node(src), vc = 0;
  for (int guard = 0; guard < 100; ++guard) {
    const auto options = rel.next_hops(router, port, vc, RouteState{dst, src, -1, RouteMode::Minimal});
    EXPECT_EQ(options.size(), 1u);
    const RouteOption o = options.front();
    int out_vc = highest_vc ? 31 : 0;
    while (!(o.vc_mask & (1u << out_vc))) out_vc += highest_vc ? -1 : 1;
    path.push_back({router, o.out_port, out_vc, o.vc_mask});
    if (d.topo.is_ni_port(o.out_port)) return path;
    const auto next = d.topo.neighbor(router, o.out_port);
    EXPECT_TRUE(next);
    router = next->router;
    port = next->port;
    vc = out_vc;
  }
  ADD_FAILURE() << "no ejection after 100 hops";
  return path;
}
}  // namespace

TEST(DorRouting, TorusPathsAreMinimalDimensionOrderedAndUseDatelineClasses) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4, 5}, 4));
  const DorRouting rel(d);
  const Topology& t = d.topo;
  const std::uint32_t all = 0b1111, class0 = 0b0101, class1 = 0b1010;
  for (const bool highest_vc : {false, true}) {
    for (int s = 0; s < t.num_nodes(); ++s) {
      for (int x = 0; x < t.num_nodes(); ++x) {
        const auto path = walk(d, rel, s, x, highest_vc);
        ASSERT_FALSE(path.empty());
        EXPECT_EQ(static_cast<int>(path.size()) - 1, t.min_hops(s, x)) << s << "->" << x;
        EXPECT_EQ(path.back().router, t.router_of_node(x));
        int last_dim = -1;
        bool crossed = false, in_class1 = false;
        for (size_t i = 0; i + 1 < path.size(); ++i) {
          const int dim = t.port_dim(path[i].out_port);
          ASSERT_GE(dim, last_dim) << "dimensions must be corrected in order";
          if (dim != last_dim) crossed = in_class1 = false;
          last_dim = dim;
          const int c = t.coords(path[i].router)[dim];
          const int dest = t.coords(t.router_of_node(x))[dim];
          const bool plus = path[i].out_port == t.plus_port(dim);
          crossed = crossed || (plus ? c == t.radix(dim) - 1 : c == 0);
          const bool wrap_ahead = plus ? dest < c : dest > c;
          const std::uint32_t expected = (crossed || in_class1) ? class1 : wrap_ahead ? class0 : all;
          EXPECT_EQ(path[i].vc_mask, expected)
              << s << "->" << x << " hop " << i << ": class 1 from the wrap on, class 0 before it, any VC without a wrap";
          in_class1 = path[i].vc % 2 == 1;
        }
      }
    }
  }
}

TEST(DorRouting, TorusTieGoesPlus) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4}));
  const DorRouting rel(d);
  const auto o = rel.next_hops(0, 0, 0, RouteState{2, 0, -1, RouteMode::Minimal});
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].out_port, d.topo.plus_port(0));
}

TEST(DorRouting, MeshPathsAreMinimal) {
  const Design d = derive_design(grid(TopologyKind::Mesh, {3, 4, 2}, 1, 2));
  const DorRouting rel(d);
  for (int s = 0; s < d.topo.num_nodes(); ++s)
    for (int x = 0; x < d.topo.num_nodes(); ++x)
      EXPECT_EQ(static_cast<int>(walk(d, rel, s, x).size()) - 1, d.topo.min_hops(s, x));
}
