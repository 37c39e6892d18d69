// gen/src/dqn/dqn_weights.cpp: the DQN weights file round-trips bit for bit and
// refuses bad input with one line naming the key, the value and the rule.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "rlroute/gen/dqn_weights.hpp"

using namespace rlroute;
using rlroute::ref::DqnLayer;
using rlroute::ref::DqnNetwork;

namespace {

DqnNetwork random_network(unsigned seed) {
  std::mt19937 rng(seed);
  DqnNetwork n;
  n.weight_bits = 8;
  n.activation_bits = 8;
  const int sizes[] = {13, 32, 32, 4};
  for (int l = 0; l < 3; ++l) {
    DqnLayer layer{sizes[l], sizes[l + 1], {}, {}, static_cast<unsigned>(l == 2 ? 0 : 7)};
    for (int k = 0; k < layer.inputs * layer.outputs; ++k) layer.weights.push_back(static_cast<int>(rng() % 256) - 128);
    for (int o = 0; o < layer.outputs; ++o) {
      layer.biases.push_back(static_cast<std::int64_t>(rng() % (2 * n.bias_limit() - 1)) - (n.bias_limit() - 1));
    }
    n.layers.push_back(layer);
  }
  return n;
}

// A float network of `n`'s shape with values of every magnitude a trained
// network has (and some that are hard to print exactly).
ref::FloatNetwork random_float_network(const DqnNetwork& n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> value(0.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-30, 10);
  ref::FloatNetwork f;
  for (const DqnLayer& q : n.layers) {
    ref::FloatLayer layer{q.inputs, q.outputs, {}, {}};
    for (int k = 0; k < q.inputs * q.outputs; ++k) layer.weights.push_back(std::ldexp(value(rng), exponent(rng)));
    for (int o = 0; o < q.outputs; ++o) layer.biases.push_back(std::ldexp(value(rng), exponent(rng)));
    f.layers.push_back(layer);
  }
  f.layers.front().weights[0] = std::numeric_limits<float>::denorm_min();
  f.layers.front().weights[1] = -std::numeric_limits<float>::max();
  f.layers.front().weights[2] = 0.1f;
  return f;
}

bool same_bits(const ref::FloatNetwork& a, const ref::FloatNetwork& b) {
  if (a.layers.size() != b.layers.size()) return false;
  for (size_t l = 0; l < a.layers.size(); ++l) {
    const ref::FloatLayer &x = a.layers[l], &y = b.layers[l];
    if (x.inputs != y.inputs || x.outputs != y.outputs || x.weights.size() != y.weights.size() ||
        x.biases.size() != y.biases.size()) {
      return false;
    }
    if (std::memcmp(x.weights.data(), y.weights.data(), x.weights.size() * sizeof(float)) != 0) return false;
    if (std::memcmp(x.biases.data(), y.biases.data(), x.biases.size() * sizeof(float)) != 0) return false;
  }
  return true;
}

std::string error_of(const std::string& text) {
  try {
    parse_dqn_weights(text, "w.json");
  } catch (const WeightsError& e) {
    return e.what();
  }
  return "";
}

// The text of a small valid file (with a float network) with `to` replacing `from`.
std::string small_with(const std::string& from, const std::string& to) {
  DqnNetwork n;
  n.layers.push_back({2, 2, {1, -2, 3, 4}, {5, -6}, 1});
  ref::FloatNetwork f;
  f.layers.push_back({2, 2, {0.5f, -0.25f, 1.5f, 2.0f}, {0.125f, -3.0f}});
  std::string text = dqn_weights_json(n, nlohmann::json::object(), &f);
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::filesystem::path temp_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("rlroute_weights_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

TEST(DqnWeights, RoundTripsBitForBit) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const DqnNetwork n = random_network(seed);
    const nlohmann::json provenance = {{"trainer", "test"}, {"steps", 1000}};
    const std::string text = dqn_weights_json(n, provenance);
    nlohmann::json read_back;
    const DqnNetwork m = parse_dqn_weights(text, "w.json", &read_back);
    EXPECT_EQ(m, n);
    EXPECT_EQ(read_back, provenance);
    EXPECT_EQ(dqn_weights_json(m, read_back), text) << "write(read(f)) == f";
  }
}

TEST(DqnWeights, TheFloatNetworkRoundTripsBitForBit) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const DqnNetwork n = random_network(seed);
    const ref::FloatNetwork f = random_float_network(n, seed);
    const std::string text = dqn_weights_json(n, nlohmann::json::object(), &f);
    ref::FloatNetwork read_back;
    EXPECT_EQ(parse_dqn_weights(text, "w.json", nullptr, &read_back), n);
    EXPECT_TRUE(same_bits(read_back, f)) << "every float reads back to the same bits";
    EXPECT_EQ(dqn_weights_json(n, nlohmann::json::object(), &read_back), text) << "write(read(f)) == f";
  }
  // A file without one: no layers.
  ref::FloatNetwork none = random_float_network(random_network(1), 1);
  parse_dqn_weights(dqn_weights_json(random_network(1)), "w.json", nullptr, &none);
  EXPECT_TRUE(none.layers.empty());
}

TEST(DqnWeights, WritesAtomicallyAndReplacesOnlyItsOwnFiles) {
  const auto dir = temp_dir();
  const auto file = dir / "w.json";
  const DqnNetwork n = random_network(7);
  write_dqn_weights(file, n);
  EXPECT_EQ(read_dqn_weights(file), n);
  write_dqn_weights(file, random_network(8));  // a weights file: replaced
  EXPECT_EQ(read_dqn_weights(file), random_network(8));
  const auto other = dir / "notes.json";
  { std::ofstream(other) << "{\"mine\": 1}\n"; }
  EXPECT_THROW(write_dqn_weights(other, n), WeightsError);
  std::ifstream in(other);
  std::stringstream kept;
  kept << in.rdbuf();
  EXPECT_EQ(kept.str(), "{\"mine\": 1}\n") << "a file rlroute did not write stays as it was";
  std::filesystem::remove_all(dir);
}

TEST(DqnWeights, BadInputNamesTheKeyTheValueAndTheRule) {
  EXPECT_EQ(error_of("[1, 2").rfind("w.json: not JSON", 0), 0u);
  EXPECT_EQ(error_of("{\"layers\": []}"), "w.json: not a weights file: no \"rlroute_dqn_weights\" key (rlroute train writes it)");
  EXPECT_EQ(error_of(small_with("\"weight_bits\": 8", "\"weight_bits\": 1")),
            "w.json: weight_bits = 1: must be an integer in 2..16");
  EXPECT_EQ(error_of(small_with("[1, -2]", "[1, -200]")),
            "w.json: layers[0].weights[0][1] = -200: must be an integer in -128..127");
  EXPECT_EQ(error_of(small_with("[1, -2]", "[1]")), "w.json: layers[0].weights[0] = [1]: must be 2 weights (one per input)");
  EXPECT_EQ(error_of(small_with("\"biases\": [5, -6]", "\"biases\": [5]")),
            "w.json: layers[0].biases = [5]: must be 2 biases (one per output)");
  EXPECT_EQ(error_of(small_with("\"biases\": [5, -6]", "\"biases\": [5, 1000000]")),
            "w.json: layers[0].biases[1] = 1000000: must be an integer in -65535..65535");
  EXPECT_EQ(error_of(small_with("\"shift\": 1", "\"shift\": 1, \"bias\": 0")), "w.json: layers[0].bias = 0: unknown key");
  EXPECT_EQ(error_of(small_with("\"shift\": 1", "\"shift\": 1.5")), "w.json: layers[0].shift = 1.5: must be an integer in 0..40");
  EXPECT_EQ(error_of(small_with("\"shift\": 1", "\"shift\": 30")), "w.json: layers[0].shift = 30: must be below the accumulator width 18");
  EXPECT_EQ(error_of(small_with("      \"outputs\": 2,\n", "")), "w.json: layers[0].outputs: missing");
  EXPECT_THROW(read_dqn_weights("/nonexistent/w.json"), WeightsError);
  // The floating-point network: the quantized network's shapes, finite numbers.
  EXPECT_EQ(error_of(small_with("[0.5, -0.25]", "[0.5, \"x\"]")),
            "w.json: float_layers[0].weights[0][1] = \"x\": must be a finite number");
  EXPECT_EQ(error_of(small_with("[0.5, -0.25]", "[0.5, 1e300]")),
            "w.json: float_layers[0].weights[0][1] = 1e+300: must be a finite number");
  EXPECT_EQ(error_of(small_with("[0.5, -0.25]", "[0.5]")),
            "w.json: float_layers[0].weights[0] = [0.5]: must be 2 weights (one per input)");
  EXPECT_EQ(error_of(small_with("\"biases\": [0.125, -3]", "\"biases\": [0.125]")),
            "w.json: float_layers[0].biases = [0.125]: must be 2 biases (one per output)");
  EXPECT_EQ(error_of(small_with("\"inputs\": 2,\n      \"outputs\": 2,\n      \"weights\": [\n        [0.5",
                                "\"inputs\": 3,\n      \"outputs\": 2,\n      \"weights\": [\n        [0.5")),
            "w.json: float_layers[0].inputs = 3: must be an integer in 2..2");
  EXPECT_EQ(error_of(small_with("\"float_layers\": [", "\"float_layers\": [{}, ")),
            "w.json: float_layers = [{},{\"biases\":[0.125,-3],\"inputs\":2,\"...: must be an array of 1 layers, like layers");
}
