// The block tests both DQN inference blocks share (rr_dqn_infer, tiled;
// rr_dqn_infer_parallel): each block against the bit-exact reference
// ref::dqn_infer (ref/src/dqn_inference.cpp), with identical Q-values,
// actions, tags and cycles from start to done required.
//
// A configuration (Cfg) gives: Model, the scalar widths NL, WB, AB, ACCW,
// sizes() and shifts(), latency(n) and interval(n), kProgrammable, and
// either program(dut, n) (weights through the programming port) or
// constant_network() (the network the model was built with).
//
// DqnBlockTest (every configuration): random observations and masks, the
// observations at the ends of their range and an empty mask, back-to-back
// decisions, and a start in every cycle the block is ready (the pipeline:
// one decision per interval, each done exactly its latency after its start,
// in order, with its tag). DqnProgrammableTest (programmable blocks): random
// networks (some with shifts over the whole range), weights and biases at
// the ends of their ranges (every hidden activation saturated, or cut by
// ReLU), equal Q-values (the lowest allowed index wins).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rlroute/ref/dqn_inference.hpp"
#include "vtb.hpp"

namespace rtltest {

template <class Cfg>
class DqnBlockTest : public ::testing::Test {
 protected:
  static constexpr unsigned NL = Cfg::NL, WB = Cfg::WB, AB = Cfg::AB, ACCW = Cfg::ACCW;

  DqnBlockTest() {
    dut_->start_i = 0;  // the model's inputs start random
    dut_->prog_we_i = 0;
    dut_.reset();
  }

  rlroute::ref::DqnNetwork shape() const {
    rlroute::ref::DqnNetwork n;
    n.weight_bits = WB;
    n.activation_bits = AB;
    const std::vector<int> sizes = Cfg::sizes();
    const std::vector<unsigned> shifts = Cfg::shifts();  // none for a constant network
    for (size_t l = 0; l + 1 < sizes.size(); ++l) {
      rlroute::ref::DqnLayer layer;
      layer.inputs = sizes[l];
      layer.outputs = sizes[l + 1];
      layer.shift = l < shifts.size() ? shifts[l] : 0;
      layer.weights.assign(static_cast<size_t>(layer.inputs * layer.outputs), 0);
      layer.biases.assign(static_cast<size_t>(layer.outputs), 0);
      n.layers.push_back(layer);
    }
    return n;
  }

  rlroute::ref::DqnNetwork random_network(Rng& rng) const {
    rlroute::ref::DqnNetwork n = shape();
    const bool any_shift = rng.chance(30);
    for (rlroute::ref::DqnLayer& l : n.layers) {
      if (any_shift) l.shift = static_cast<unsigned>(rng.range(0, ACCW - 1));
      for (int32_t& w : l.weights) w = static_cast<int32_t>(rng.range(0, (1u << WB) - 1)) - (1 << (WB - 1));
      // Biases mostly small (like a trained network's), some at the limit.
      const int64_t lim = n.bias_limit() - 1;
      for (int64_t& b : l.biases) {
        b = rng.chance(10) ? (rng.chance(50) ? lim : -lim) : static_cast<int64_t>(rng.range(0, 2000)) - 1000;
      }
    }
    return n;
  }

  // The networks a test runs: random ones written through the programming
  // port, or the one the model was built with.
  std::vector<rlroute::ref::DqnNetwork> networks(Rng& rng, int count) const {
    if constexpr (Cfg::kProgrammable) {
      std::vector<rlroute::ref::DqnNetwork> all;
      for (int k = 0; k < count; ++k) all.push_back(random_network(rng));
      return all;
    } else {
      return {Cfg::constant_network()};
    }
  }
  void load(const rlroute::ref::DqnNetwork& n) {
    if constexpr (Cfg::kProgrammable) Cfg::program(dut_, n);
  }

  void put_obs(const std::vector<int32_t>& obs, std::uint32_t mask) {
    Bits x;
    for (size_t i = 0; i < obs.size(); ++i) x.set(static_cast<unsigned>(i) * AB, AB, static_cast<std::uint64_t>(obs[i]));
    put_bits(dut_->obs_i, x, static_cast<unsigned>(obs.size()) * AB);
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
    dut_->start_i = 0;
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

  // The block's Q-values and action against the reference's.
  void expect_result(const rlroute::ref::DqnResult& want, int outputs, const std::string& what) {
    const Bits q = get_bits(dut_->q_o, static_cast<unsigned>(outputs) * ACCW);
    for (int o = 0; o < outputs; ++o) {
      std::int64_t got = static_cast<std::int64_t>(q.get(static_cast<unsigned>(o) * ACCW, ACCW));
      if (got >> (ACCW - 1)) got -= std::int64_t{1} << ACCW;  // sign-extend
      ASSERT_EQ(got, want.q[static_cast<size_t>(o)]) << what << ": Q[" << o << "]";
    }
    ASSERT_EQ(dut_->action_valid_o != 0, want.action >= 0) << what;
    if (want.action >= 0) {
      ASSERT_EQ(static_cast<int>(dut_->action_o), want.action) << what;
    }
  }

  // One decision on the DUT and the reference: identical Q-values, action, latency.
  void check(const rlroute::ref::DqnNetwork& n, const std::vector<int32_t>& obs, std::uint32_t mask,
             const std::string& what) {
    const rlroute::ref::DqnResult want = rlroute::ref::dqn_infer(n, obs, mask);
    const int cycles = decide(obs, mask);
    ASSERT_EQ(cycles, Cfg::latency(n)) << what;
    expect_result(want, n.outputs(), what);
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

  Dut<typename Cfg::Model> dut_;
};

TYPED_TEST_SUITE_P(DqnBlockTest);

TYPED_TEST_P(DqnBlockTest, AccumulatorWidthIsTheReferences) {
  const rlroute::ref::DqnNetwork n = this->shape();
  EXPECT_EQ(TestFixture::ACCW, n.accumulator_bits());
  EXPECT_EQ(TestFixture::NL, n.layers.size());
}

TYPED_TEST_P(DqnBlockTest, RandomObservationsMatchTheReference) {
  Rng rng(0xD0 + TestFixture::WB * 7 + TestFixture::NL);
  int net = 0;
  for (const rlroute::ref::DqnNetwork& n : this->networks(rng, 6)) {
    this->load(n);
    for (int k = 0; k < (TypeParam::kProgrammable ? 40 : 240); ++k) {
      const std::uint32_t all = (1u << n.outputs()) - 1;
      const std::uint32_t mask =
          rng.chance(80) ? all : static_cast<std::uint32_t>(rng.bits(static_cast<unsigned>(n.outputs())));
      this->check(n, this->random_obs(rng, n.inputs()), mask, "network " + std::to_string(net) + " obs " + std::to_string(k));
    }
    ++net;
  }
}

TYPED_TEST_P(DqnBlockTest, ObservationsAtTheEndsOfTheirRangeAndAnEmptyMask) {
  constexpr unsigned AB = TestFixture::AB;
  Rng rng(0xE0D);
  const rlroute::ref::DqnNetwork n = this->networks(rng, 1).front();
  this->load(n);
  const std::vector<int32_t> high(static_cast<size_t>(n.inputs()), (1 << (AB - 1)) - 1);
  const std::vector<int32_t> low(static_cast<size_t>(n.inputs()), -(1 << (AB - 1)));
  this->check(n, high, ~0u, "highest inputs");
  this->check(n, low, ~0u, "lowest inputs");
  this->check(n, high, 0, "empty mask");
}

TYPED_TEST_P(DqnBlockTest, BackToBackDecisions) {
  Rng rng(0xB2B);
  const rlroute::ref::DqnNetwork n = this->networks(rng, 1).front();
  this->load(n);
  for (int k = 0; k < 100; ++k) this->check(n, this->random_obs(rng, n.inputs()), ~0u, "decision " + std::to_string(k));
}

// The layers are a pipeline: with a start in every cycle the block is
// ready, it takes one every interval, each decision is done exactly its
// latency after its start, in order, with its tag, and its Q-values and
// action are the reference's.
TYPED_TEST_P(DqnBlockTest, DecisionsStartedEveryIntervalFinishInOrderWithTheirTags) {
  Rng rng(0x9195 + TestFixture::WB);
  const rlroute::ref::DqnNetwork n = this->networks(rng, 1).front();
  this->load(n);
  const int interval = TypeParam::interval(n);
  const int latency = TypeParam::latency(n);
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
    this->expect_result(
        rlroute::ref::dqn_infer(n, obs[static_cast<size_t>(done)], masks[static_cast<size_t>(done)]), n.outputs(),
        "decision " + std::to_string(done));
    ++done;
  }
  this->dut_->start_i = 0;
  ASSERT_EQ(done, kDecisions);
  for (size_t k = 1; k < started.size(); ++k) EXPECT_EQ(started[k] - started[k - 1], interval) << k;
}

REGISTER_TYPED_TEST_SUITE_P(DqnBlockTest, AccumulatorWidthIsTheReferences, RandomObservationsMatchTheReference,
                            ObservationsAtTheEndsOfTheirRangeAndAnEmptyMask, BackToBackDecisions,
                            DecisionsStartedEveryIntervalFinishInOrderWithTheirTags);

template <class Cfg>
class DqnProgrammableTest : public DqnBlockTest<Cfg> {};

TYPED_TEST_SUITE_P(DqnProgrammableTest);

TYPED_TEST_P(DqnProgrammableTest, RangeEndsSaturateAndReluCutsAndTiesGoToTheLowestIndex) {
  constexpr unsigned WB = TestFixture::WB, AB = TestFixture::AB;
  rlroute::ref::DqnNetwork n = this->shape();
  const std::vector<int32_t> high(static_cast<size_t>(n.inputs()), (1 << (AB - 1)) - 1);
  const std::vector<int32_t> low(static_cast<size_t>(n.inputs()), -(1 << (AB - 1)));
  // Every weight at its most negative, biases at the limit: the sums reach
  // the accumulator's ends, hidden layers saturate (high x low) or cut.
  for (rlroute::ref::DqnLayer& l : n.layers) {
    std::fill(l.weights.begin(), l.weights.end(), -(1 << (WB - 1)));
    std::fill(l.biases.begin(), l.biases.end(), n.bias_limit() - 1);
  }
  this->load(n);
  this->check(n, high, ~0u, "most negative weights, highest inputs");
  this->check(n, low, ~0u, "most negative weights, lowest inputs");
  // Zero weights and equal biases: every Q-value equal; the lowest allowed index wins.
  for (rlroute::ref::DqnLayer& l : n.layers) {
    std::fill(l.weights.begin(), l.weights.end(), 0);
    std::fill(l.biases.begin(), l.biases.end(), 3);
  }
  this->load(n);
  this->check(n, high, ~0u, "all equal");
  this->check(n, high, 0b10, "all equal, only output 1 allowed");
  this->check(n, high, 0, "empty mask");
}

REGISTER_TYPED_TEST_SUITE_P(DqnProgrammableTest, RangeEndsSaturateAndReluCutsAndTiesGoToTheLowestIndex);

}  // namespace rtltest
