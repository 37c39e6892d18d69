// Block test for rtl/rr_dqn_infer.sv (DQN-routing's inference block, with its
// layers rtl/rr_dqn_layer.sv) against the bit-exact reference
// ref::dqn_infer (ref/src/dqn_inference.cpp): random networks are written
// through the programming port, random observations and action masks go
// through both, and the Q-values, the action and the cycles from start to
// done must be identical. Besides random weights: weights and inputs at the
// ends of their ranges (every hidden activation saturates, or every one is
// cut by ReLU), equal Q-values (the lowest allowed index wins), an empty
// mask, and back-to-back decisions (the block takes the next observation
// when done; a start while busy is ignored). The layers' rounding shifts
// are programmed too: some random networks draw them over the whole range.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
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
#include "dqn_program.hpp"
#include "rlroute/ref/dqn_inference.hpp"
#include "vtb.hpp"

namespace cfg {

// The layer widths of each model (its -G values in CMakeLists.txt) and the
// shifts that suit them (the block's shifts are programmed); the scalar
// parameters are read back from the model.
#define RR_DQN_CFG(NAME, SUFFIX, SIZES, SHIFTS)                            \
  struct NAME {                                                            \
    using Model = Vrr_dqn_infer_##SUFFIX;                                  \
    using Root = Vrr_dqn_infer_##SUFFIX##___024root;                       \
    static std::vector<int> sizes() { return std::vector<int> SIZES; }     \
    static std::vector<unsigned> shifts() { return std::vector<unsigned> SHIFTS; } \
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

namespace {

using rlroute::ref::DqnLayer;
using rlroute::ref::DqnNetwork;
using rtltest::Bits;
using rtltest::Rng;

template <class Cfg>
class DqnInferTest : public ::testing::Test {
 protected:
  using Root = typename Cfg::Root;
  static constexpr unsigned NL = Root::rr_dqn_infer__DOT__NL, WB = Root::rr_dqn_infer__DOT__WB,
                            AB = Root::rr_dqn_infer__DOT__AB, ACCW = Root::rr_dqn_infer__DOT__ACCW,
                            NPAR = Root::rr_dqn_infer__DOT__NPAR, IPAR = Root::rr_dqn_infer__DOT__IPAR;

  DqnInferTest() {
    dut_->start_i = 0;  // the model's inputs start random
    dut_->prog_we_i = 0;
    dut_.reset();
  }

  DqnNetwork shape() const {
    DqnNetwork n;
    n.weight_bits = WB;
    n.activation_bits = AB;
    const std::vector<int> sizes = Cfg::sizes();
    for (size_t l = 0; l + 1 < sizes.size(); ++l) {
      DqnLayer layer;
      layer.inputs = sizes[l];
      layer.outputs = sizes[l + 1];
      layer.shift = Cfg::shifts()[l];
      layer.weights.assign(static_cast<size_t>(layer.inputs * layer.outputs), 0);
      layer.biases.assign(static_cast<size_t>(layer.outputs), 0);
      n.layers.push_back(layer);
    }
    return n;
  }

  DqnNetwork random_network(Rng& rng) const {
    DqnNetwork n = shape();
    const bool any_shift = rng.chance(30);
    for (DqnLayer& l : n.layers) {
      if (any_shift) l.shift = static_cast<unsigned>(rng.range(0, ACCW - 1));
      for (int32_t& w : l.weights) w = static_cast<int32_t>(rng.range(0, (1u << WB) - 1)) - (1 << (WB - 1));
      // Biases mostly small (like a trained network's), some at the limit.
      const int64_t lim = n.bias_limit() - 1;
      for (int64_t& b : l.biases) {
        b = rng.chance(10) ? (rng.chance(50) ? lim : -lim)
                           : static_cast<int64_t>(rng.range(0, 2000)) - 1000;
      }
    }
    return n;
  }

  // Writes every layer's weight words and biases through the programming port.
  void program(const DqnNetwork& n) { rtltest::program_dqn(dut_, n, NPAR, IPAR, kProgBits); }

  void put_obs(const std::vector<int32_t>& obs, std::uint32_t mask) {
    Bits x;
    for (size_t i = 0; i < obs.size(); ++i) x.set(static_cast<unsigned>(i) * AB, AB, static_cast<std::uint64_t>(obs[i]));
    rtltest::put_bits(dut_->obs_i, x, static_cast<unsigned>(obs.size()) * AB);
    dut_->mask_i = mask & ((1u << Cfg::sizes().back()) - 1);  // a port's unused bits must be 0
  }

  // Starts a decision and clocks until done; returns the cycles it took.
  // Meanwhile a start is asserted, with another observation, in every cycle
  // in which the block is not ready: it must be ignored.
  int decide(const std::vector<int32_t>& obs, std::uint32_t mask) {
    EXPECT_TRUE(dut_->ready_o);
    put_obs(obs, mask);
    dut_->tag_i = 5;
    dut_->start_i = 1;
    dut_.tick();
    int cycles = 1;
    while (!dut_->done_o) {
      dut_->start_i = !dut_->ready_o;
      put_obs(std::vector<int32_t>(obs.size(), 0x5a), ~0u);
      dut_->tag_i = 6;
      dut_.tick();
      if (++cycles > 100000) {
        ADD_FAILURE() << "no done";
        break;
      }
    }
    dut_->start_i = 0;
    EXPECT_EQ(dut_->tag_o, 5u);
    return cycles;
  }

  // One decision on the DUT and the reference: identical Q-values, action, latency.
  void check(const DqnNetwork& n, const std::vector<int32_t>& obs, std::uint32_t mask, const std::string& what) {
    const rlroute::ref::DqnResult want = rlroute::ref::dqn_infer(n, obs, mask);
    const int cycles = decide(obs, mask);
    ASSERT_EQ(cycles, rlroute::ref::dqn_latency_cycles(n, NPAR, IPAR)) << what;
    const Bits q = rtltest::get_bits(dut_->q_o, static_cast<unsigned>(n.outputs()) * ACCW);
    for (int o = 0; o < n.outputs(); ++o) {
      std::int64_t got = static_cast<std::int64_t>(q.get(static_cast<unsigned>(o) * ACCW, ACCW));
      if (got >> (ACCW - 1)) got -= std::int64_t{1} << ACCW;  // sign-extend
      ASSERT_EQ(got, want.q[static_cast<size_t>(o)]) << what << ": Q[" << o << "]";
    }
    ASSERT_EQ(dut_->action_valid_o != 0, want.action >= 0) << what;
    if (want.action >= 0) {
      ASSERT_EQ(static_cast<int>(dut_->action_o), want.action) << what;
    }
    // Held until the next decision.
    const unsigned action = dut_->action_o;
    dut_.tick();
    ASSERT_EQ(dut_->action_o, action) << what;
    ASSERT_FALSE(dut_->done_o) << what;
  }

  std::vector<int32_t> random_obs(Rng& rng, int inputs) const {
    std::vector<int32_t> obs(static_cast<size_t>(inputs));
    for (int32_t& v : obs) v = static_cast<int32_t>(rng.range(0, (1u << AB) - 1)) - (1 << (AB - 1));
    return obs;
  }

  static constexpr unsigned kProgBits = std::max(NPAR * IPAR * WB, ACCW);
  rtltest::Dut<typename Cfg::Model> dut_;
};

using DqnCfgs = ::testing::Types<cfg::D13x32x32x4, cfg::D13x16x4, cfg::D5x3, cfg::D6x5x7x3x2>;
TYPED_TEST_SUITE(DqnInferTest, DqnCfgs);

TYPED_TEST(DqnInferTest, AccumulatorWidthIsTheReferences) {
  const DqnNetwork n = this->shape();
  EXPECT_EQ(TestFixture::ACCW, n.accumulator_bits());
  EXPECT_EQ(TestFixture::NL, n.layers.size());
}

TYPED_TEST(DqnInferTest, RandomNetworksAndObservationsMatchTheReference) {
  Rng rng(0xD0 + TestFixture::NPAR * 7 + TestFixture::IPAR);
  for (int net = 0; net < 6; ++net) {
    const DqnNetwork n = this->random_network(rng);
    this->program(n);
    for (int k = 0; k < 40; ++k) {
      const std::uint32_t all = (1u << n.outputs()) - 1;
      const std::uint32_t mask = rng.chance(80) ? all : static_cast<std::uint32_t>(rng.bits(static_cast<unsigned>(n.outputs())));
      this->check(n, this->random_obs(rng, n.inputs()), mask, "network " + std::to_string(net) + " obs " + std::to_string(k));
    }
  }
}

TYPED_TEST(DqnInferTest, RangeEndsSaturateAndReluCutsAndTiesGoToTheLowestIndex) {
  constexpr unsigned WB = TestFixture::WB, AB = TestFixture::AB;
  DqnNetwork n = this->shape();
  const std::vector<int32_t> high(static_cast<size_t>(n.inputs()), (1 << (AB - 1)) - 1);
  const std::vector<int32_t> low(static_cast<size_t>(n.inputs()), -(1 << (AB - 1)));
  // Every weight at its most negative, biases at the limit: the sums reach
  // the accumulator's ends, hidden layers saturate (high x low) or cut.
  for (DqnLayer& l : n.layers) {
    std::fill(l.weights.begin(), l.weights.end(), -(1 << (WB - 1)));
    std::fill(l.biases.begin(), l.biases.end(), n.bias_limit() - 1);
  }
  this->program(n);
  this->check(n, high, ~0u, "most negative weights, highest inputs");
  this->check(n, low, ~0u, "most negative weights, lowest inputs");
  // Zero weights and equal biases: every Q-value equal; the lowest allowed index wins.
  for (DqnLayer& l : n.layers) {
    std::fill(l.weights.begin(), l.weights.end(), 0);
    std::fill(l.biases.begin(), l.biases.end(), 3);
  }
  this->program(n);
  this->check(n, high, ~0u, "all equal");
  this->check(n, high, 0b10, "all equal, only output 1 allowed");
  this->check(n, high, 0, "empty mask");
}

TYPED_TEST(DqnInferTest, BackToBackDecisionsWithoutReprogramming) {
  Rng rng(0xB2B);
  const DqnNetwork n = this->random_network(rng);
  this->program(n);
  for (int k = 0; k < 100; ++k) this->check(n, this->random_obs(rng, n.inputs()), ~0u, "decision " + std::to_string(k));
}

// The layers are a pipeline: with a start in every cycle the block is
// ready, it takes one every interval (ref::dqn_interval_cycles), each
// decision is done exactly its latency after its start, in order, with its
// tag, and its Q-values and action are the reference's.
TYPED_TEST(DqnInferTest, DecisionsStartedEveryIntervalFinishInOrderWithTheirTags) {
  Rng rng(0x9195 + TestFixture::NPAR);
  const DqnNetwork n = this->random_network(rng);
  this->program(n);
  const int interval = rlroute::ref::dqn_interval_cycles(n, TestFixture::NPAR, TestFixture::IPAR);
  const int latency = rlroute::ref::dqn_latency_cycles(n, TestFixture::NPAR, TestFixture::IPAR);
  constexpr int kDecisions = 40;
  std::vector<std::vector<int32_t>> obs;
  std::vector<std::uint32_t> masks;
  std::vector<int> started;
  int done = 0;
  for (int cycle = 0; done < kDecisions && cycle < 100000; ++cycle) {
    const bool more = static_cast<int>(obs.size()) < kDecisions;
    if (more) {
      obs.push_back(this->random_obs(rng, n.inputs()));
      masks.push_back(rng.chance(80) ? ~0u : static_cast<std::uint32_t>(rng.bits(static_cast<unsigned>(n.outputs()))));
      this->put_obs(obs.back(), masks.back());
      this->dut_->tag_i = static_cast<unsigned>(obs.size() - 1) & 0xf;
    }
    const bool taken = more && this->dut_->ready_o;
    this->dut_->start_i = more;
    this->dut_.tick();
    if (taken) {
      started.push_back(cycle);
    } else if (more) {
      obs.pop_back();  // not taken: drawn again next cycle
      masks.pop_back();
    }
    if (!this->dut_->done_o) continue;
    ASSERT_LT(done, static_cast<int>(started.size()));
    EXPECT_EQ(cycle + 1 - started[static_cast<size_t>(done)], latency) << "decision " << done;
    EXPECT_EQ(this->dut_->tag_o, static_cast<unsigned>(done) & 0xf) << "decision " << done;
    const rlroute::ref::DqnResult want = rlroute::ref::dqn_infer(n, obs[static_cast<size_t>(done)], masks[static_cast<size_t>(done)]);
    const Bits q = rtltest::get_bits(this->dut_->q_o, static_cast<unsigned>(n.outputs()) * TestFixture::ACCW);
    for (int o = 0; o < n.outputs(); ++o) {
      std::int64_t got = static_cast<std::int64_t>(q.get(static_cast<unsigned>(o) * TestFixture::ACCW, TestFixture::ACCW));
      if (got >> (TestFixture::ACCW - 1)) got -= std::int64_t{1} << TestFixture::ACCW;
      ASSERT_EQ(got, want.q[static_cast<size_t>(o)]) << "decision " << done << " Q[" << o << "]";
    }
    ASSERT_EQ(this->dut_->action_valid_o != 0, want.action >= 0) << "decision " << done;
    if (want.action >= 0) {
      ASSERT_EQ(static_cast<int>(this->dut_->action_o), want.action) << "decision " << done;
    }
    ++done;
  }
  this->dut_->start_i = 0;
  ASSERT_EQ(done, kDecisions);
  for (size_t k = 1; k < started.size(); ++k) EXPECT_EQ(started[k] - started[k - 1], interval) << k;
}

}  // namespace
