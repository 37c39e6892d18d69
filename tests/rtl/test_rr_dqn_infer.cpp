// Block test for rtl/rr_dqn_infer.sv (DQN-routing's tiled inference block,
// with its layers rtl/rr_dqn_layer.sv) against the bit-exact reference
// ref::dqn_infer: the tests of tests/rtl/dqn_block_tests.hpp, with random
// networks written through the programming port in the tiled layout
// (ref::dqn_program with the block's NPAR x IPAR) and the latency and
// interval of ref::dqn_latency_cycles and ref::dqn_interval_cycles.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <verilated.h>

#include "Vrr_dqn_infer_d13x32x32x4.h"
#include "Vrr_dqn_infer_d13x32x32x4___024root.h"
#include "Vrr_dqn_infer_d13x16x4.h"
#include "Vrr_dqn_infer_d13x16x4___024root.h"
#include "Vrr_dqn_infer_d5x3.h"
#include "Vrr_dqn_infer_d5x3___024root.h"
#include "Vrr_dqn_infer_d6x5x7x3x2.h"
#include "Vrr_dqn_infer_d6x5x7x3x2___024root.h"
#include "dqn_block_tests.hpp"
#include "dqn_program.hpp"

namespace cfg {

// The layer widths of each model (its -G values in CMakeLists.txt) and the
// shifts that suit them (the block's shifts are programmed); the scalar
// parameters are read back from the model.
#define RR_DQN_CFG(NAME, SUFFIX, SIZES, SHIFTS)                                                          \
  struct NAME {                                                                                          \
    using Model = Vrr_dqn_infer_##SUFFIX;                                                                \
    using Root = Vrr_dqn_infer_##SUFFIX##___024root;                                                     \
    static constexpr unsigned NL = Root::rr_dqn_infer__DOT__NL, WB = Root::rr_dqn_infer__DOT__WB,       \
                              AB = Root::rr_dqn_infer__DOT__AB, ACCW = Root::rr_dqn_infer__DOT__ACCW,   \
                              NPAR = Root::rr_dqn_infer__DOT__NPAR, IPAR = Root::rr_dqn_infer__DOT__IPAR; \
    static constexpr bool kProgrammable = true;                                                          \
    static std::vector<int> sizes() { return std::vector<int> SIZES; }                                   \
    static std::vector<unsigned> shifts() { return std::vector<unsigned> SHIFTS; }                       \
    static int latency(const rlroute::ref::DqnNetwork& n) { return rlroute::ref::dqn_latency_cycles(n, NPAR, IPAR); } \
    static int interval(const rlroute::ref::DqnNetwork& n) { return rlroute::ref::dqn_interval_cycles(n, NPAR, IPAR); } \
    static void program(rtltest::Dut<Model>& dut, const rlroute::ref::DqnNetwork& n) {                   \
      rtltest::program_dqn(dut, n, NPAR, IPAR, std::max(NPAR * IPAR * WB, ACCW));                        \
    }                                                                                                    \
  };
// The default block: 13 -> 32 -> 32 -> 4, 8-bit weights and activations,
// 8 neurons x 4 inputs per cycle.
RR_DQN_CFG(D13x32x32x4, d13x32x32x4, ({13, 32, 32, 4}), ({7, 7, 0}))
// A layer per cycle row: all 13 inputs at once, 4 neurons.
RR_DQN_CFG(D13x16x4, d13x16x4, ({13, 16, 4}), ({6, 3}))
// One layer, one multiplier, odd widths (4-bit weights, 6-bit activations).
RR_DQN_CFG(D5x3, d5x3, ({5, 3}), ({2}))
// Four layers, tiles that do not divide the widths (3 neurons x 2 inputs).
RR_DQN_CFG(D6x5x7x3x2, d6x5x7x3x2, ({6, 5, 7, 3, 2}), ({4, 3, 5, 1}))
#undef RR_DQN_CFG

}  // namespace cfg

namespace rtltest {

using DqnTiledCfgs = ::testing::Types<cfg::D13x32x32x4, cfg::D13x16x4, cfg::D5x3, cfg::D6x5x7x3x2>;
INSTANTIATE_TYPED_TEST_SUITE_P(Tiled, DqnBlockTest, DqnTiledCfgs);
INSTANTIATE_TYPED_TEST_SUITE_P(Tiled, DqnProgrammableTest, DqnTiledCfgs);

}  // namespace rtltest
