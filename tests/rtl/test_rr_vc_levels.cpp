// Block test for rtl/rr_vc_levels.sv (the VC levels of the dragonfly route
// units): for every VC of every model (2..6 VCs, 2..5 levels, including more
// levels than VCs), the VCs of level 0, of the VC's level and of the level
// above it, against DragonflyRouting::level_vcs and level_of of a design with
// as many VCs and an algorithm that needs as many levels
// (gen/src/dragonfly/routing_dragonfly.cpp). V and LEVELS are read from the
// models.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

#include "Vrr_vc_levels_v2l2.h"
#include "Vrr_vc_levels_v2l2___024root.h"
#include "Vrr_vc_levels_v3l3.h"
#include "Vrr_vc_levels_v3l3___024root.h"
#include "Vrr_vc_levels_v4l4.h"
#include "Vrr_vc_levels_v4l4___024root.h"
#include "Vrr_vc_levels_v4l5.h"
#include "Vrr_vc_levels_v4l5___024root.h"
#include "Vrr_vc_levels_v5l5.h"
#include "Vrr_vc_levels_v5l5___024root.h"
#include "Vrr_vc_levels_v6l4.h"
#include "Vrr_vc_levels_v6l4___024root.h"
#include "rlroute/gen/algorithm.hpp"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"
#include "vtb.hpp"

namespace {

using namespace rlroute;

#define RR_LEVELS_CFG(NAME)                                                                      \
  struct NAME {                                                                                  \
    using Model = Vrr_vc_levels_##NAME;                                                          \
    using Root = Vrr_vc_levels_##NAME##___024root;                                               \
    static constexpr unsigned V = Root::rr_vc_levels__DOT__V, LEVELS = Root::rr_vc_levels__DOT__LEVELS; \
  }
RR_LEVELS_CFG(v2l2);
RR_LEVELS_CFG(v3l3);
RR_LEVELS_CFG(v4l4);
RR_LEVELS_CFG(v5l5);
RR_LEVELS_CFG(v6l4);
RR_LEVELS_CFG(v4l5);

// A dragonfly algorithm whose relation needs `levels` VC levels.
const AlgorithmTraits& algorithm_with_levels(unsigned levels) {
  for (const AlgorithmTraits& a : kAlgorithms) {
    if (a.backend == Backend::Dragonfly && a.vc_levels == static_cast<int>(levels)) return a;
  }
  throw std::runtime_error(fmt::format("no dragonfly algorithm with {} VC levels", levels));
}

template <class Cfg>
class VcLevelsTest : public ::testing::Test {
 protected:
  VcLevelsTest()
      : d_(derive_design(parse_config(fmt::format("[topology]\nkind = \"dragonfly\"\np = 2\na = 4\nh = 2\ng = 9\n"
                                                  "[router]\nvcs = {}\n[routing]\nalgorithm = \"{}\"\n",
                                                  Cfg::V, algorithm_with_levels(Cfg::LEVELS).name),
                                      "test_rr_vc_levels.toml"))),
        rel_(d_) {}

  Design d_;
  DragonflyRouting rel_;
  rtltest::CombDut<typename Cfg::Model> dut_;
};

using LevelCfgs = ::testing::Types<v2l2, v3l3, v4l4, v5l5, v6l4, v4l5>;
TYPED_TEST_SUITE(VcLevelsTest, LevelCfgs);

TYPED_TEST(VcLevelsTest, EveryVc) {
  const DragonflyRouting& rel = this->rel_;
  ASSERT_EQ(rel.levels(), static_cast<int>(TypeParam::LEVELS));
  auto& dut = this->dut_;
  for (unsigned vc = 0; vc < TypeParam::V; ++vc) {
    dut->vc_i = vc;
    dut.eval();
    const int level = rel.level_of(static_cast<int>(vc));
    EXPECT_EQ(dut->first_o, rel.level_vcs(0)) << "vc " << vc;
    EXPECT_EQ(dut->same_o, rel.level_vcs(level)) << "vc " << vc;
    EXPECT_EQ(dut->next_o, rel.level_vcs(level + 1)) << "vc " << vc;
    EXPECT_NE(dut->same_o & (1u << vc), 0u) << "vc " << vc << " lies in its own level's VCs";
  }
}

}  // namespace
