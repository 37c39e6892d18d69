// Block test for rtl/rr_dfly_path.sv (the path arithmetic of the dragonfly
// route units) on every pair of routers of dfly(2,4,2,9) absolute (l = 1) and
// dfly(2,4,2,5) palmtree (l = 2), in its three forms: LANDING (a link landing
// on the target router preferred), any link (LANDING = 0), and a given link
// copy. Against
//  - the routing relation's minimal ports (DragonflyRouting::min_port_to_router
//    and min_port_to_group, gen/src/dragonfly/routing_dragonfly.cpp);
//  - the topology's links (Topology::global_link, neighbor): the link copy
//    the rule of docs/routing_dragonfly.md picks (the router's own link, the
//    lowest copy; else with LANDING one that lands on the target; else copy
//    index mod l), where it lands, and whether it is another router's;
//  - Topology::min_router_hops for the path length (LANDING).
// The topology of each model is read from its parameters.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <string>

#include <fmt/format.h>

#include "Vrr_dfly_path_a9_any.h"
#include "Vrr_dfly_path_a9_any___024root.h"
#include "Vrr_dfly_path_a9_copy.h"
#include "Vrr_dfly_path_a9_copy___024root.h"
#include "Vrr_dfly_path_a9_land.h"
#include "Vrr_dfly_path_a9_land___024root.h"
#include "Vrr_dfly_path_p5_any.h"
#include "Vrr_dfly_path_p5_any___024root.h"
#include "Vrr_dfly_path_p5_copy.h"
#include "Vrr_dfly_path_p5_copy___024root.h"
#include "Vrr_dfly_path_p5_land.h"
#include "Vrr_dfly_path_p5_land___024root.h"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"
#include "rlroute/gen/topology.hpp"
#include "vtb.hpp"

namespace {

using namespace rlroute;

#define RR_PATH_CFG(NAME)                                                                               \
  struct NAME {                                                                                         \
    using Model = Vrr_##NAME;                                                                           \
    using Root = Vrr_##NAME##___024root;                                                                \
    static constexpr unsigned P = Root::rr_dfly_path__DOT__P, NUM_NI = Root::rr_dfly_path__DOT__NUM_NI, \
                              A = Root::rr_dfly_path__DOT__A, H = Root::rr_dfly_path__DOT__H,           \
                              NUM_G = Root::rr_dfly_path__DOT__NUM_G,                                   \
                              LINKS_PER_PAIR = Root::rr_dfly_path__DOT__LINKS_PER_PAIR;                 \
    static constexpr bool PALMTREE = Root::rr_dfly_path__DOT__PALMTREE != 0,                            \
                          LANDING = Root::rr_dfly_path__DOT__LANDING != 0,                              \
                          GIVEN_COPY = Root::rr_dfly_path__DOT__GIVEN_COPY != 0;                        \
  }
RR_PATH_CFG(dfly_path_a9_land);
RR_PATH_CFG(dfly_path_a9_any);
RR_PATH_CFG(dfly_path_a9_copy);
RR_PATH_CFG(dfly_path_p5_land);
RR_PATH_CFG(dfly_path_p5_any);
RR_PATH_CFG(dfly_path_p5_copy);

template <class Cfg>
class DflyPathTest : public ::testing::Test {
 protected:
  DflyPathTest()
      : d_(derive_design(parse_config(fmt::format("[topology]\nkind = \"dragonfly\"\np = {}\na = {}\nh = {}\ng = {}\n"
                                                  "arrangement = \"{}\"\n[routing]\nalgorithm = \"valn\"\n",
                                                  Cfg::NUM_NI, Cfg::A, Cfg::H, Cfg::NUM_G,
                                                  Cfg::PALMTREE ? "palmtree" : "absolute"),
                                      "test_rr_dfly_path.toml"))),
        t_(d_.topo),
        rel_(d_) {}

  // The link copy the rule picks from router r towards router q's group.
  int copy_for(int r, int q) const {
    const int gf = t_.group_of(r), gt = t_.group_of(q);
    for (int c = 0; c < t_.links_per_group_pair(); ++c) {
      if (t_.global_link(gf, gt, c).router == r) return c;
    }
    if (Cfg::LANDING) {
      for (int c = 0; c < t_.links_per_group_pair(); ++c) {
        if (landing(gf, gt, c) == t_.index_in_group(q)) return c;
      }
    }
    return t_.index_in_group(r) % t_.links_per_group_pair();
  }
  // Index of the router in group gt where copy c from group gf lands.
  int landing(int gf, int gt, int c) const {
    const PortRef end = t_.global_link(gf, gt, c);
    return t_.index_in_group(t_.neighbor(end.router, end.port)->router);
  }

  Design d_;
  const Topology& t_;
  DragonflyRouting rel_;
  rtltest::CombDut<typename Cfg::Model> dut_;
};

using PathCfgs = ::testing::Types<dfly_path_a9_land, dfly_path_a9_any, dfly_path_a9_copy, dfly_path_p5_land,
                                  dfly_path_p5_any, dfly_path_p5_copy>;
TYPED_TEST_SUITE(DflyPathTest, PathCfgs);

TYPED_TEST(DflyPathTest, ParametersMatchDesign) {
  EXPECT_EQ(this->d_.ports, static_cast<int>(TypeParam::P));
  EXPECT_EQ(this->t_.links_per_group_pair(), static_cast<int>(TypeParam::LINKS_PER_PAIR));
}

TYPED_TEST(DflyPathTest, EveryPairOfRouters) {
  const Topology& t = this->t_;
  auto& dut = this->dut_;
  rtltest::Rng rng(0x9A7 + TypeParam::NUM_G);
  const int copies = TypeParam::GIVEN_COPY ? t.links_per_group_pair() : 1;
  unsigned checked = 0, via_local = 0, landed = 0;
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int q = 0; q < t.num_routers(); ++q) {
      for (int given = 0; given < copies; ++given) {
        const unsigned terminal = static_cast<unsigned>(rng.range(0, TypeParam::NUM_NI - 1));
        dut->from_id_i = t.router_id(r);
        dut->to_id_i = t.router_id(q);
        dut->copy_i = static_cast<unsigned>(given);
        dut->terminal_i = terminal;
        dut.eval();
        const std::string at = fmt::format("{} -> {} (copy {})", t.router_name(r), t.router_name(q), given);
        const int gf = t.group_of(r), gt = t.group_of(q), ir = t.index_in_group(r), iq = t.index_in_group(q);
        ++checked;
        if (gf == gt) {
          ASSERT_EQ(dut->route_o, r == q ? terminal : static_cast<unsigned>(t.local_port_to(ir, iq))) << at;
          ASSERT_EQ(dut->hops_o, r == q ? 0u : 1u) << at;
          continue;
        }
        const int c = TypeParam::GIVEN_COPY ? given : this->copy_for(r, q);
        const PortRef end = t.global_link(gf, gt, c);
        const bool other = end.router != r;
        const int port = other ? t.local_port_to(ir, t.index_in_group(end.router)) : end.port;
        ASSERT_EQ(static_cast<int>(dut->group_port_o), port) << at;
        ASSERT_EQ(dut->route_o, dut->group_port_o) << at;
        ASSERT_EQ(dut->via_local_o != 0, other) << at;
        ASSERT_EQ(static_cast<int>(dut->landing_o), this->landing(gf, gt, c)) << at;
        via_local += other;
        landed += this->landing(gf, gt, c) == iq;
        if (TypeParam::LANDING) {
          ASSERT_EQ(port, this->rel_.min_port_to_router(r, q)) << at << ": the relation's minimal port";
          ASSERT_EQ(static_cast<int>(dut->hops_o), t.min_router_hops(r, q)) << at;
        } else if (!TypeParam::GIVEN_COPY) {
          ASSERT_EQ(port, this->rel_.min_port_to_group(r, gt)) << at << ": the relation's port to the group";
        }
        ASSERT_EQ(static_cast<int>(dut->hops_o), 1 + other + (this->landing(gf, gt, c) != iq)) << at;
      }
    }
  }
  std::cout << "[ info ] " << checked << " paths, " << via_local << " over another router's link, " << landed
            << " landing on the target\n";
  EXPECT_GT(via_local, 0u);
  EXPECT_GT(landed, 0u);
}

}  // namespace
