// Block test for rtl/rr_dqn_infer_parallel.sv (DQN-routing's parallel
// inference block, with its layers rtl/rr_dqn_layer_parallel.sv) against the
// bit-exact reference ref::dqn_infer: the tests of
// tests/rtl/dqn_block_tests.hpp, with a decision started in every cycle
// (interval 1) and done ref::dqn_parallel_latency_cycles after its start.
// Programmable models get random networks through the programming port (a
// neuron's weights per write: ref::dqn_program with 1 x the largest fan-in);
// constant models (-GCONST) are read back from the model's parameters
// (drawn in CMakeLists.txt: 4-bit weights; a ternary network; four odd
// layers), so the test holds whatever the draw.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <verilated.h>

#include "Vrr_dqn_infer_parallel_c13x16x16x4t.h"
#include "Vrr_dqn_infer_parallel_c13x16x16x4t___024root.h"
#include "Vrr_dqn_infer_parallel_c13x16x4.h"
#include "Vrr_dqn_infer_parallel_c13x16x4___024root.h"
#include "Vrr_dqn_infer_parallel_c6x5x7x3x2.h"
#include "Vrr_dqn_infer_parallel_c6x5x7x3x2___024root.h"
#include "Vrr_dqn_infer_parallel_p13x16x4.h"
#include "Vrr_dqn_infer_parallel_p13x16x4___024root.h"
#include "Vrr_dqn_infer_parallel_p13x32x32x4.h"
#include "Vrr_dqn_infer_parallel_p13x32x32x4___024root.h"
#include "Vrr_dqn_infer_parallel_p6x5x7x3x2.h"
#include "Vrr_dqn_infer_parallel_p6x5x7x3x2___024root.h"
#include "dqn_block_tests.hpp"
#include "dqn_program.hpp"

namespace cfg {

// Field [lsb +: width] of a wide Verilated constant, sign-extended.
template <class Wide>
std::int64_t signed_field(const Wide& w, unsigned lsb, unsigned width) {
  std::int64_t v = 0;
  for (unsigned b = 0; b < width; ++b) v |= static_cast<std::int64_t>((w[(lsb + b) / 32] >> ((lsb + b) % 32)) & 1u) << b;
  return (v >> (width - 1)) ? v - (std::int64_t{1} << width) : v;
}

#define RR_DQN_CFG(NAME, SUFFIX, SIZES, SHIFTS, PROGRAMMABLE)                                                   \
  struct NAME {                                                                                                 \
    using Model = Vrr_dqn_infer_parallel_##SUFFIX;                                                              \
    using Root = Vrr_dqn_infer_parallel_##SUFFIX##___024root;                                                   \
    static constexpr unsigned NL = Root::rr_dqn_infer_parallel__DOT__NL, WB = Root::rr_dqn_infer_parallel__DOT__WB, \
                              AB = Root::rr_dqn_infer_parallel__DOT__AB,                                        \
                              ACCW = Root::rr_dqn_infer_parallel__DOT__ACCW;                                    \
    static constexpr bool kProgrammable = PROGRAMMABLE;                                                         \
    static std::vector<int> sizes() { return std::vector<int> SIZES; }                                          \
    static std::vector<unsigned> shifts() { return std::vector<unsigned> SHIFTS; }                              \
    static int latency(const rlroute::ref::DqnNetwork& n) { return rlroute::ref::dqn_parallel_latency_cycles(n); } \
    static int interval(const rlroute::ref::DqnNetwork&) { return 1; }                                          \
    static void program(rtltest::Dut<Model>& dut, const rlroute::ref::DqnNetwork& n) {                          \
      const std::vector<int> s = sizes();                                                                       \
      const int fan_in = *std::max_element(s.begin(), s.end() - 1);                                             \
      rtltest::program_dqn(dut, n, 1, fan_in, std::max(static_cast<unsigned>(fan_in) * WB, ACCW));             \
    }                                                                                                           \
    static rlroute::ref::DqnNetwork constant_network();                                                         \
  };
RR_DQN_CFG(P13x32x32x4, p13x32x32x4, ({13, 32, 32, 4}), ({7, 7, 0}), true)
RR_DQN_CFG(P13x16x4, p13x16x4, ({13, 16, 4}), ({5, 3}), true)
RR_DQN_CFG(P6x5x7x3x2, p6x5x7x3x2, ({6, 5, 7, 3, 2}), ({4, 3, 5, 1}), true)
RR_DQN_CFG(C13x16x4, c13x16x4, ({13, 16, 4}), ({}), false)
RR_DQN_CFG(C13x16x16x4t, c13x16x16x4t, ({13, 16, 16, 4}), ({}), false)
RR_DQN_CFG(C6x5x7x3x2, c6x5x7x3x2, ({6, 5, 7, 3, 2}), ({}), false)
#undef RR_DQN_CFG

// The network a constant model was built with, from its WEIGHTS, BIASES
// and SHIFTS parameters (layer by layer; neuron o, input i).
template <class Cfg>
rlroute::ref::DqnNetwork read_constant_network() {
  using Root = typename Cfg::Root;
  rlroute::ref::DqnNetwork n;
  n.weight_bits = Cfg::WB;
  n.activation_bits = Cfg::AB;
  const std::vector<int> sizes = Cfg::sizes();
  unsigned w = 0, b = 0;
  for (size_t l = 0; l + 1 < sizes.size(); ++l) {
    rlroute::ref::DqnLayer layer;
    layer.inputs = sizes[l];
    layer.outputs = sizes[l + 1];
    for (int k = 0; k < layer.inputs * layer.outputs; ++k, ++w) {
      layer.weights.push_back(static_cast<int32_t>(signed_field(Root::rr_dqn_infer_parallel__DOT__WEIGHTS, w * Cfg::WB, Cfg::WB)));
    }
    for (int o = 0; o < layer.outputs; ++o, ++b) {
      layer.biases.push_back(signed_field(Root::rr_dqn_infer_parallel__DOT__BIASES, b * Cfg::ACCW, Cfg::ACCW));
    }
    layer.shift = (Root::rr_dqn_infer_parallel__DOT__SHIFTS >> (8 * l)) & 0xffu;
    n.layers.push_back(layer);
  }
  n.validate();
  return n;
}
rlroute::ref::DqnNetwork C13x16x4::constant_network() { return read_constant_network<C13x16x4>(); }
rlroute::ref::DqnNetwork C13x16x16x4t::constant_network() { return read_constant_network<C13x16x16x4t>(); }
rlroute::ref::DqnNetwork C6x5x7x3x2::constant_network() { return read_constant_network<C6x5x7x3x2>(); }
rlroute::ref::DqnNetwork P13x32x32x4::constant_network() { return {}; }
rlroute::ref::DqnNetwork P13x16x4::constant_network() { return {}; }
rlroute::ref::DqnNetwork P6x5x7x3x2::constant_network() { return {}; }

}  // namespace cfg

namespace rtltest {

using DqnParallelCfgs = ::testing::Types<cfg::P13x32x32x4, cfg::P13x16x4, cfg::P6x5x7x3x2, cfg::C13x16x4,
                                         cfg::C13x16x16x4t, cfg::C6x5x7x3x2>;
INSTANTIATE_TYPED_TEST_SUITE_P(Parallel, DqnBlockTest, DqnParallelCfgs);
using DqnParallelProgrammableCfgs = ::testing::Types<cfg::P13x32x32x4, cfg::P13x16x4, cfg::P6x5x7x3x2>;
INSTANTIATE_TYPED_TEST_SUITE_P(Parallel, DqnProgrammableTest, DqnParallelProgrammableCfgs);

// The constant networks are what CMakeLists.txt drew: every weight in range,
// zeros among them, a ternary network's weights all -1, 0 or 1.
TEST(DqnParallelConstants, TheDrawnNetworksHaveZerosAndTheirRanges) {
  for (const rlroute::ref::DqnNetwork& n :
       {cfg::C13x16x4::constant_network(), cfg::C13x16x16x4t::constant_network(), cfg::C6x5x7x3x2::constant_network()}) {
    int zeros = 0, nonzero = 0;
    for (const rlroute::ref::DqnLayer& l : n.layers) {
      for (const int32_t w : l.weights) (w == 0 ? zeros : nonzero)++;
    }
    EXPECT_GT(zeros, 0);
    EXPECT_GT(nonzero, zeros);
  }
  for (const rlroute::ref::DqnLayer& l : cfg::C13x16x16x4t::constant_network().layers) {
    for (const int32_t w : l.weights) EXPECT_TRUE(w >= -1 && w <= 1) << w;
  }
}

}  // namespace rtltest
