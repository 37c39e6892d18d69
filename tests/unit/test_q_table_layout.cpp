// Q-adaptive's table layout (gen/include/rlroute/gen/q_table_layout.hpp) on
// dfly(2,4,2,9) with local/global links of 1/10 cycles: rows and columns,
// and the initial values (the zero-load time to the destination group
// through each port).
#include <gtest/gtest.h>

#include <set>

#include "configs.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/pipeline.hpp"
#include "rlroute/gen/q_table_layout.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"

using namespace rlroute;

namespace {

Design q_design() { return derive_design(rlroute::test::dragonfly(2, 4, 2, 9, "q_adaptive", 5)); }

// Calls f(router, row, destination group, column, whether the column is the
// router's own global link to that group) for every entry of every table;
// returns how many entries are such own links.
template <class F>
int for_each_entry(const QTableLayout& q, const Topology& t, F f) {
  int direct = 0;
  for (int router = 0; router < t.num_routers(); ++router) {
    for (int row = 0; row < q.rows(); ++row) {
      const int group = q.dst_group_of_row(router, row);
      for (int c = 0; c < q.columns(); ++c) {
        const int port = q.port_of_column(c);
        const bool own_link = t.is_global_port(port) && t.group_of(t.neighbor(router, port)->router) == group;
        direct += own_link;
        f(router, row, group, c, own_link);
      }
    }
  }
  return direct;
}

}  // namespace

TEST(QTableLayout, ARowPerOtherGroupAndSourceNodeAndAColumnPerNetworkPort) {
  const Design d = q_design();
  const Topology& t = d.topo;
  const QTableLayout q(d);
  EXPECT_EQ(q.rows(), 16);    // (g - 1) x p
  EXPECT_EQ(q.columns(), 5);  // a - 1 + h
  for (int c = 0; c < q.columns(); ++c) EXPECT_EQ(q.column_of_port(q.port_of_column(c)), c);
  EXPECT_TRUE(t.is_local_port(q.port_of_column(0)));
  EXPECT_TRUE(t.is_global_port(q.port_of_column(q.columns() - 1)));
  for (int router = 0; router < t.num_routers(); ++router) {
    std::set<int> rows;
    for (int src = 0; src < t.num_nodes(); ++src) {
      for (int dst = 0; dst < t.num_nodes(); ++dst) {
        const int row = q.row(router, src, dst);
        const int group = t.group_of(t.router_of_node(dst));
        if (group == t.group_of(router)) {
          EXPECT_EQ(row, -1);
          continue;
        }
        ASSERT_GE(row, 0);
        ASSERT_LT(row, q.rows());
        EXPECT_EQ(q.dst_group_of_row(router, row), group);
        EXPECT_EQ(row % t.nodes_per_router(), t.local_of_node(src));
        rows.insert(row);
      }
    }
    EXPECT_EQ(static_cast<int>(rows.size()), q.rows()) << "every row is some packet's, router " << router;
  }
}

TEST(QTableLayout, InitialValuesAreTheZeroLoadTimeThroughEachPort) {
  const Design d = q_design();
  const Topology& t = d.topo;
  const QTableLayout q(d);
  const DragonflyRouting paths(d);
  const int local = hop_latency(1, SwitchAllocation::AfterVc), global = hop_latency(10, SwitchAllocation::AfterVc);
  // Router 0 of group 0: its global link to group j, a local detour to a
  // router with a link to j, and one to a router without.
  const int r0 = t.router_in_group(0, 0);
  for (int j = 1; j < t.num_groups(); ++j) {
    const int min_port = paths.min_port_to_group(r0, j);
    for (int c = 0; c < q.columns(); ++c) {
      const int port = q.port_of_column(c);
      const int next = t.neighbor(r0, port)->router;
      int expected = 0;
      if (t.is_global_port(port)) {
        const int k = t.group_of(next);
        const bool next_has_link = k == j || paths.min_port_to_group(next, j) >= t.first_global_port();
        expected = global + (k == j ? 0 : (next_has_link ? global : local + global));
      } else {
        const bool next_has_link = paths.min_port_to_group(next, j) >= t.first_global_port();
        expected = local + (next_has_link ? global : local + global);
      }
      EXPECT_EQ(q.initial_cycles(r0, j, c), expected) << "group " << j << " column " << c;
      // The minimal port is never worse than another.
      EXPECT_LE(q.initial_cycles(r0, j, q.column_of_port(min_port)), q.initial_cycles(r0, j, c));
    }
    EXPECT_EQ(q.initial_cycles(r0, j, q.column_of_port(min_port)),
              t.is_global_port(min_port) ? global : local + global);
  }
  // The extremes on this network: a direct global link (12 cycles), and a
  // global hop to a group whose landing router must go local first (27).
  int lowest = 1 << 30, highest = 0;
  for (int router = 0; router < t.num_routers(); ++router) {
    for (int row = 0; row < q.rows(); ++row) {
      for (int c = 0; c < q.columns(); ++c) {
        const int v = q.initial_cycles(router, q.dst_group_of_row(router, row), c);
        lowest = std::min(lowest, v);
        highest = std::max(highest, v);
      }
    }
  }
  EXPECT_EQ(lowest, global);
  EXPECT_EQ(highest, global + local + global);
}

// With speculative switch allocation every hop is a cycle shorter, and so is
// every initial value, by the hops of its path.
TEST(QTableLayout, SpeculativeSwitchAllocationTakesACyclePerHop) {
  const Design plain = q_design();
  Config cfg = rlroute::test::dragonfly(2, 4, 2, 9, "q_adaptive", 5);
  cfg.switch_allocation = SwitchAllocation::Speculative;
  const Design spec = derive_design(cfg);
  const QTableLayout a(plain), b(spec);
  const Topology& t = plain.topo;
  EXPECT_EQ(hop_latency(10, SwitchAllocation::Speculative), hop_latency(10, SwitchAllocation::AfterVc) - 1);
  for (int j = 1; j < t.num_groups(); ++j) {
    for (int c = 0; c < a.columns(); ++c) {
      const int slow = a.initial_cycles(0, j, c), fast = b.initial_cycles(0, j, c);
      // Paths of 1 to 3 hops: global 12, local + global 15, and 27 with a global detour.
      EXPECT_GE(slow - fast, 1) << "group " << j << " column " << c;
      EXPECT_LE(slow - fast, 3) << "group " << j << " column " << c;
    }
  }
  EXPECT_EQ(b.initial_cycles(0, t.group_of(t.neighbor(0, t.first_global_port())->router),
                             b.column_of_port(t.first_global_port())),
            hop_latency(10, SwitchAllocation::Speculative));
}

// routing.q_initial = "flat", the authors' code's values: a global hop (12
// cycles) through the router's own link to the row's group, a global and a
// local hop (15) through every other port, whatever lies beyond it.
TEST(QTableLayout, FlatInitialValuesAreTheAuthorsCodes) {
  Config cfg = rlroute::test::dragonfly(2, 4, 2, 9, "q_adaptive", 5);
  cfg.q_initial = QInitial::Flat;
  const Design d = derive_design(cfg);
  const QTableLayout q(d);
  const Topology& t = d.topo;
  const int global = hop_latency(10, SwitchAllocation::AfterVc), local = hop_latency(1, SwitchAllocation::AfterVc);
  const int direct = for_each_entry(q, t, [&](int router, int row, int group, int c, bool own_link) {
    EXPECT_EQ(q.initial_cycles(router, group, c), own_link ? global : global + local)
        << "router " << router << " row " << row << " column " << c;
  });
  // Every router has its own link to 2 of the 8 other groups: 2 rows x 2 nodes each.
  EXPECT_EQ(direct, t.num_routers() * 2 * 2);
  // The zero-load values differ: a local port to a router without the link starts at 27 there, 15 here.
  const Design zero_design = q_design();  // QTableLayout keeps a reference to its design
  const QTableLayout zero(zero_design);
  int differ = 0;
  for (int row = 0; row < q.rows(); ++row) {
    for (int c = 0; c < q.columns(); ++c) differ += zero.initial_cycles(0, q.dst_group_of_row(0, row), c) != q.initial_cycles(0, q.dst_group_of_row(0, row), c);
  }
  EXPECT_GT(differ, 0);
}

// routing.q_stamp = "crossbar": r runs from the upstream crossbar to the
// decision here, so each hop of a zero-load estimate is its link latency
// (the output register and the link) and routing.q_decision_cycles (from the
// route unit to the answer; measured, docs/q_adaptive.md, "Where r starts"):
// per hop, a router's cycles less the decision's than from arrival to arrival.
TEST(QTableLayout, CrossbarStampCountsTheLinksAndTheDecision) {
  Config cfg = rlroute::test::dragonfly(2, 4, 2, 9, "q_adaptive", 5);
  cfg.q_stamp = QStamp::Crossbar;
  EXPECT_EQ(QTableLayout::hop_cycles(cfg, 10), 11);
  EXPECT_EQ(QTableLayout::hop_cycles(cfg, 1), 2);
  cfg.q_decision_cycles = 2;
  EXPECT_EQ(QTableLayout::hop_cycles(cfg, 10), 12);
  cfg.q_decision_cycles = 1;
  const Design d = derive_design(cfg);
  const Design arrival_design = q_design();
  const QTableLayout q(d), arrival(arrival_design);
  const Topology& t = d.topo;
  const int less_per_hop = hop_latency(1, cfg.switch_allocation) - QTableLayout::hop_cycles(cfg, 1);
  ASSERT_EQ(less_per_hop, 1);
  const int direct = for_each_entry(q, t, [&](int router, int row, int group, int c, bool own_link) {
    const int hops = arrival.initial_cycles(router, group, c) - q.initial_cycles(router, group, c);
    EXPECT_GE(hops, 1);
    EXPECT_LE(hops, 3) << "router " << router << " row " << row << " column " << c;
    if (own_link) {
      EXPECT_EQ(q.initial_cycles(router, group, c), 11) << "the direct link: one global hop";
    }
  });
  EXPECT_EQ(direct, t.num_routers() * 2 * 2);
}

// routing.q_stamp = "request": r runs from the upstream router's VC request
// to the decision here: the crossbar-to-decision time and the cycles from
// the request to the crossbar (one, or none with speculative allocation);
// the zero-load tables stay as they start ("AtZeroLoad..." in
// tests/net/test_checkers.cpp).
TEST(QTableLayout, RequestStampCountsFromTheVcRequest) {
  Config cfg = rlroute::test::dragonfly(2, 4, 2, 9, "q_adaptive", 5);
  cfg.q_stamp = QStamp::Request;
  EXPECT_EQ(QTableLayout::hop_cycles(cfg, 10), 12);
  EXPECT_EQ(QTableLayout::hop_cycles(cfg, 1), 3);
  cfg.q_decision_cycles = 2;
  EXPECT_EQ(QTableLayout::hop_cycles(cfg, 10), 13);
  cfg.switch_allocation = SwitchAllocation::Speculative;
  EXPECT_EQ(QTableLayout::hop_cycles(cfg, 10), 12);
}
