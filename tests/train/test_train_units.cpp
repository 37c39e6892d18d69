// The training library's parts without the network: the dueling head folds
// exactly into one layer, the quantizer is exact where the float network is
// already on the block's grid and close elsewhere, and the epsilon schedule is
// the one docs/dqn.md states.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "rlroute/gen/config.hpp"
#include "rlroute/gen/dqn_block.hpp"
#include "rlroute/ref/dqn_inference.hpp"
#include "rlroute/train/agents.hpp"
#include "rlroute/train/q_network.hpp"
#include "rlroute/train/quantize.hpp"
#include "rlroute/train/trainer.hpp"

using namespace rlroute;
using namespace rlroute::train;

namespace {

DqnBlock block_13_16_4() {
  const Config cfg = parse_config("[topology]\nkind = \"torus\"\ndims = [4, 4]\n[router]\nvcs = 3\n"
                                  "[routing]\nalgorithm = \"dqn\"\ndqn_hidden = [16]\n",
                                  "t.toml");
  return dqn_block(cfg);
}

// Observations as the routers give them: small non-negative integers.
Calibration random_observations(int n, int values, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Calibration c;
  for (int k = 0; k < n; ++k) {
    std::vector<std::int32_t> obs;
    for (int i = 0; i < values; ++i) obs.push_back(static_cast<std::int32_t>(rng() % 9));
    c.observations.push_back(obs);
    c.masks.push_back(0xfu);
  }
  return c;
}

}  // namespace

TEST(QNetwork, TheDuelingHeadFoldsExactlyIntoOneLayer) {
  torch::manual_seed(3);
  QNetwork net(13, std::vector<int>{32, 32}, 4);
  const ref::FloatNetwork folded = net->to_float_network();
  ASSERT_EQ(folded.layers.size(), 3u);
  EXPECT_EQ(folded.layers.back().inputs, 32);
  EXPECT_EQ(folded.layers.back().outputs, 4);
  const torch::Tensor x = torch::rand({50, 13}) * 8;
  const torch::Tensor q = net->forward(x).detach();
  for (int k = 0; k < 50; ++k) {
    std::vector<float> obs(13);
    for (int i = 0; i < 13; ++i) obs[static_cast<size_t>(i)] = x[k][i].item<float>();
    const std::vector<float> mine = folded.q_values(obs);
    for (int a = 0; a < 4; ++a) EXPECT_NEAR(mine[static_cast<size_t>(a)], q[k][a].item<float>(), 1e-4) << k << " " << a;
  }
}

// rlroute train --init: a folded network loaded into the dueling network
// computes the same Q-values and folds back to itself.
TEST(QNetwork, ALoadedFloatNetworkComputesTheSameQValues) {
  torch::manual_seed(4);
  const ref::FloatNetwork original = QNetwork(13, std::vector<int>{32, 16}, 4)->to_float_network();
  torch::manual_seed(5);
  QNetwork net(13, std::vector<int>{32, 16}, 4);
  ASSERT_GT(std::abs(net->to_float_network().layers[0].weights[0] - original.layers[0].weights[0]), 0.0f)
      << "another seed draws other weights";
  net->load_float_network(original);
  const ref::FloatNetwork back = net->to_float_network();
  for (std::size_t l = 0; l < original.layers.size(); ++l) {
    for (std::size_t k = 0; k < original.layers[l].weights.size(); ++k) {
      EXPECT_NEAR(back.layers[l].weights[k], original.layers[l].weights[k], 1e-6) << l << " " << k;
    }
    for (std::size_t k = 0; k < original.layers[l].biases.size(); ++k) {
      EXPECT_NEAR(back.layers[l].biases[k], original.layers[l].biases[k], 1e-6) << l << " " << k;
    }
  }
  const torch::Tensor x = torch::rand({20, 13}) * 8;
  const torch::Tensor q = net->forward(x).detach();
  for (int k = 0; k < 20; ++k) {
    std::vector<float> obs(13);
    for (int i = 0; i < 13; ++i) obs[static_cast<size_t>(i)] = x[k][i].item<float>();
    const std::vector<float> want = original.q_values(obs);
    for (int a = 0; a < 4; ++a) EXPECT_NEAR(q[k][a].item<float>(), want[static_cast<size_t>(a)], 1e-4) << k << " " << a;
  }
}

TEST(QNetwork, LoadingANetworkOfAnotherShapeNamesTheLayer) {
  const ref::FloatNetwork other = QNetwork(13, std::vector<int>{16}, 4)->to_float_network();
  QNetwork net(13, std::vector<int>{32}, 4);
  try {
    net->load_float_network(other);
    FAIL() << "loaded a 16-wide network into a 32-wide one";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "layer 0 is 16 x 13; this Q-network needs 32 x 13");
  }
  EXPECT_THROW(net->load_float_network(QNetwork(13, std::vector<int>{32, 32}, 4)->to_float_network()),
               std::invalid_argument);
}

TEST(QNetwork, WithoutHiddenLayersTheHeadIsTheOnlyLayer) {
  QNetwork net(13, std::vector<int>{}, 4);
  EXPECT_EQ(net->to_float_network().layers.size(), 1u);
}

// Weights already integers with the largest at the full 8-bit range, integer
// biases, activations that stay within 127: every scale is 1 and every shift
// 0, so the fixed point is the float network exactly.
TEST(Quantize, ANetworkOnTheBlocksGridQuantizesExactly) {
  const DqnBlock block = block_13_16_4();
  ref::FloatNetwork n;
  std::mt19937_64 rng(5);
  ref::FloatLayer hidden{13, 16, {}, {}}, out{16, 4, {}, {}};
  for (int k = 0; k < 13 * 16; ++k) hidden.weights.push_back(static_cast<float>(static_cast<int>(rng() % 3) - 1));
  hidden.weights[0] = 127;  // the layer's largest weight: scale 1
  for (int o = 0; o < 16; ++o) hidden.biases.push_back(static_cast<float>(static_cast<int>(rng() % 5) - 2));
  for (int k = 0; k < 16 * 4; ++k) out.weights.push_back(static_cast<float>(static_cast<int>(rng() % 21) - 10));
  out.weights[3] = -127;
  for (int o = 0; o < 4; ++o) out.biases.push_back(static_cast<float>(o));
  n.layers = {hidden, out};
  Calibration cal = random_observations(500, 13, 7);
  for (auto& obs : cal.observations) obs[0] = 0;  // keeps the hidden activations below 128
  const Quantized q = quantize(n, block, cal);
  EXPECT_EQ(q.network.layers[0].shift, 0u);
  EXPECT_EQ(q.network.layers[1].shift, 0u);
  for (size_t k = 0; k < hidden.weights.size(); ++k) {
    ASSERT_EQ(q.network.layers[0].weights[k], static_cast<std::int32_t>(hidden.weights[k]));
  }
  for (const auto& obs : cal.observations) {
    const std::vector<float> x(obs.begin(), obs.end());
    const std::vector<float> want = n.q_values(x);
    const ref::DqnResult got = ref::dqn_infer(q.network, obs, 0xfu);
    for (size_t a = 0; a < 4; ++a) ASSERT_EQ(static_cast<float>(got.q[a]), want[a]);
  }
  EXPECT_EQ(q.agreement, 1.0);
}

// A trained-looking network (random float weights): the largest calibration
// activation fits the 8-bit range after the chosen shift, and the fixed point
// picks the float network's action on almost every observation.
TEST(Quantize, ARandomFloatNetworkKeepsItsActions) {
  const DqnBlock block = block_13_16_4();
  torch::manual_seed(11);
  QNetwork net(13, std::vector<int>{16}, 4);
  const ref::FloatNetwork n = net->to_float_network();
  const Calibration cal = random_observations(2000, 13, 13);
  const Quantized q = quantize(n, block, cal);
  EXPECT_GT(q.agreement, 0.95);
  q.network.validate();
  // The hidden layer's shift: the largest activation / its unit lands in (63, 127].
  float largest = 0;
  for (const auto& obs : cal.observations) {
    const std::vector<float> x(obs.begin(), obs.end());
    const std::vector<std::vector<float>> acts = n.activations(x);
    for (const float a : acts[0]) largest = std::max(largest, a);
  }
  const double units = largest / q.scales[0];
  EXPECT_LE(units, 127.0 + 1e-6);
  EXPECT_GT(units, 63.0) << "the smallest shift that fits, not a larger one";
}

// Quantization-aware training: the forward pass computes what the block
// computes once train::quantize has mapped the network onto it with the
// forward pass's activation maxima: the fixed-point Q-values times the
// output scale are the forward pass's Q-values (to single precision) and
// so are the actions but for ties, with 4-bit weights as with 8. The floating-point network under it,
// quantized after the fact, agrees far less at 4 bits.
TEST(QNetwork, TheQuantizationAwareForwardPassIsWhatTheBlockComputes) {
  for (const int weight_bits : {8, 4}) {
    DqnBlock block = block_13_16_4();
    block.weight_bits = weight_bits;
    torch::manual_seed(5);
    QNetwork net(13, std::vector<int>{16}, 4, QuantizationWidths{weight_bits, 8});
    Calibration cal = random_observations(2000, 13, 21);
    std::vector<float> flat;
    for (const auto& obs : cal.observations) flat.insert(flat.end(), obs.begin(), obs.end());
    const torch::Tensor x = torch::from_blob(flat.data(), {2000, 13}).clone();
    net->forward(x);  // gradients on: the running maxima follow this batch
    cal.activation_maxima = net->activation_maxima();
    ASSERT_EQ(cal.activation_maxima.size(), 1u);
    EXPECT_GT(cal.activation_maxima[0], 0);
    const Quantized q = quantize(net->to_float_network(), block, cal);
    torch::NoGradGuard no_grad;
    const torch::Tensor want = net->forward(x);
    int same = 0, exact = 0;
    for (int k = 0; k < 2000; ++k) {
      const ref::DqnResult got = ref::dqn_infer(q.network, cal.observations[static_cast<size_t>(k)], 0xfu);
      std::vector<float> values(4);
      bool equal = true;
      for (int a = 0; a < 4; ++a) {
        values[static_cast<size_t>(a)] = want[k][a].item<float>();
        const double fixed = static_cast<double>(got.q[static_cast<size_t>(a)]) * q.scales.back();
        equal = equal && std::fabs(fixed - values[static_cast<size_t>(a)]) <= 1e-5 * (1 + std::fabs(fixed));
      }
      exact += equal;
      same += ref::masked_argmax(values, 0xfu) == got.action;
    }
    EXPECT_EQ(exact, 2000) << weight_bits << "-bit weights";
    // Only equal Q-values may part them (the block takes the lowest index,
    // single precision whatever its last bit says).
    EXPECT_GE(same, 1990) << weight_bits << "-bit weights";
    if (weight_bits == 4) {
      EXPECT_LT(q.agreement, 0.9) << "the float network, quantized after the fact";
    }
  }
}

TEST(Quantize, RefusesANetworkOfAnotherShape) {
  const DqnBlock block = block_13_16_4();
  QNetwork net(13, std::vector<int>{32}, 4);
  EXPECT_THROW(quantize(net->to_float_network(), block, random_observations(10, 13, 1)), std::invalid_argument);
  QNetwork ok(13, std::vector<int>{16}, 4);
  EXPECT_THROW(quantize(ok->to_float_network(), block, Calibration{}), std::invalid_argument);
}

// 1.0 -> 0.1 over the first 10,000 decisions, 0.1 until 100,000, then 0.02.
TEST(TrainOptions, ANetworkThatStartsTrainedExploresAtTheMiddleEpsilonFromTheStart) {
  TrainOptions o;
  o.init = QNetwork(13, std::vector<int>{8}, 4)->to_float_network();
  EXPECT_DOUBLE_EQ(epsilon_at(o, 0), 0.1);
  EXPECT_DOUBLE_EQ(epsilon_at(o, 5000), 0.1);
  EXPECT_DOUBLE_EQ(epsilon_at(o, 99999), 0.1);
  EXPECT_DOUBLE_EQ(epsilon_at(o, 100000), 0.02);
}

TEST(TrainOptions, EpsilonSchedule) {
  const TrainOptions o;
  EXPECT_DOUBLE_EQ(epsilon_at(o, 0), 1.0);
  EXPECT_NEAR(epsilon_at(o, 5000), 0.55, 1e-12);
  EXPECT_NEAR(epsilon_at(o, 10000), 0.1, 1e-12);
  EXPECT_NEAR(epsilon_at(o, 99999), 0.1, 1e-12);
  EXPECT_NEAR(epsilon_at(o, 100000), 0.02, 1e-12);
}

TEST(Agents, RandomAgentTakesEveryAllowedActionAndNoOther) {
  RandomAgent a(1);
  std::vector<int> seen(4, 0);
  const std::vector<std::int32_t> obs(13, 0);
  for (int k = 0; k < 400; ++k) ++seen[static_cast<size_t>(a.act(0, -1, obs, 0b1011u))];
  EXPECT_GT(seen[0], 90);
  EXPECT_GT(seen[1], 90);
  EXPECT_EQ(seen[2], 0);
  EXPECT_GT(seen[3], 90);
  EXPECT_EQ(a.act(0, -1, obs, 0u), -1);
}

TEST(Agents, TheRewardIsDistanceOverLatency) {
  EXPECT_DOUBLE_EQ(dqn_reward(DqnReward{1, 0, 3, 12}), 0.25);
  auto inner = std::make_shared<RandomAgent>(1);
  RewardMeter m(inner);
  m.reward(0, DqnReward{1, 0, 2, 10});
  m.reward(0, DqnReward{1, 1, 4, 10});
  EXPECT_EQ(m.rewards(), 2);
  EXPECT_DOUBLE_EQ(m.mean_reward(), 0.3);
}
