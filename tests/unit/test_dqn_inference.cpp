// ref/src/dqn_inference.cpp: the fixed-point MLP the DQN inference block
// must match, checked on networks small enough to compute by hand.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "rlroute/ref/dqn_inference.hpp"

using namespace rlroute::ref;

namespace {

// 2 inputs -> 2 hidden (ReLU) -> 3 outputs, 8-bit weights and activations.
DqnNetwork small() {
  DqnNetwork n;
  n.weight_bits = 8;
  n.activation_bits = 8;
  n.layers.push_back({2, 2, {3, -2, 1, 4}, {5, -100}, 2});
  n.layers.push_back({2, 3, {1, 0, 0, 1, -1, 2}, {0, 0, 7}, 1});
  return n;
}

}  // namespace

TEST(DqnInference, RoundShiftRoundsHalfUp) {
  EXPECT_EQ(round_shift(5, 0), 5);
  EXPECT_EQ(round_shift(5, 1), 3);   // 2.5 -> 3
  EXPECT_EQ(round_shift(-5, 1), -2); // -2.5 -> -2 (half up)
  EXPECT_EQ(round_shift(6, 2), 2);   // 1.5 -> 2
  EXPECT_EQ(round_shift(-7, 2), -2); // -1.75 -> -2
}

TEST(DqnInference, HandComputedNetwork) {
  const DqnNetwork n = small();
  // x = (10, 4): hidden acc = (5 + 30 - 8, -100 + 10 + 16) = (27, -74) >> 2
  // rounded = (7, -18) -> ReLU (7, 0); outputs acc = (7, 0, -7 + 7) = (7, 0, 0)
  // >> 1 rounded = (4, 0, 0): action 0, or 1 when output 0 is masked (tie 1 vs 2).
  const std::vector<int32_t> x{10, 4};
  const DqnResult r = dqn_infer(n, x, 0b111);
  EXPECT_EQ(r.q, (std::vector<int64_t>{4, 0, 0}));
  EXPECT_EQ(r.action, 0);
  EXPECT_EQ(dqn_infer(n, x, 0b110).action, 1);
  EXPECT_EQ(dqn_infer(n, x, 0).action, -1);
}

TEST(DqnInference, HiddenActivationsSaturate) {
  DqnNetwork n = small();
  n.layers[0].shift = 0;  // 3 * 127 - 2 * (-128) + 5 = 642 saturates to 127
  const DqnResult r = dqn_infer(n, std::vector<int32_t>{127, -128}, 0b111);
  EXPECT_EQ(r.q[0], round_shift(127, 1));
}

TEST(DqnInference, AccumulatorWidthLatencyAndInterval) {
  const DqnNetwork n = small();
  EXPECT_EQ(n.accumulator_bits(), 8u + 8u + 2u);  // clog2(2 + 1) = 2
  EXPECT_EQ(n.bias_limit(), 1 << 16);
  // Layer tiles with 1 neuron x 1 input: 2x2 + 3x2, each + 3, plus 3.
  EXPECT_EQ(dqn_latency_cycles(n, 1, 1), (4 + 3) + (6 + 3) + 3);
  EXPECT_EQ(dqn_latency_cycles(n, 4, 4), (1 + 3) + (1 + 3) + 3);
  // The pipeline takes a decision every largest-layer-tiles cycles.
  EXPECT_EQ(dqn_interval_cycles(n, 1, 1), 6);
  EXPECT_EQ(dqn_interval_cycles(n, 2, 1), 4);  // 1 x 2 and 2 x 2 tiles
  EXPECT_EQ(dqn_interval_cycles(n, 4, 4), 1);
}

TEST(DqnInference, ValidateNamesTheFieldOutOfRange) {
  DqnNetwork n = small();
  n.layers[1].weights[0] = 128;
  EXPECT_THROW(n.validate(), std::invalid_argument);
  n = small();
  n.layers[1].inputs = 3;
  EXPECT_THROW(n.validate(), std::invalid_argument);
  n = small();
  n.layers[0].biases[0] = n.bias_limit();
  EXPECT_THROW(n.validate(), std::invalid_argument);
  EXPECT_THROW(dqn_infer(small(), std::vector<int32_t>{200, 0}, 1), std::invalid_argument) << "observation out of range";
}
