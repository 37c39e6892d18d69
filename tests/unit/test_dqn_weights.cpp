// gen/src/dqn_weights.cpp: the DQN weights file round-trips bit for bit and
// refuses bad input with one line naming the key, the value and the rule.
#include <gtest/gtest.h>

#include <filesystem>
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

std::string error_of(const std::string& text) {
  try {
    parse_dqn_weights(text, "w.json");
  } catch (const WeightsError& e) {
    return e.what();
  }
  return "";
}

// The text of a small valid file with `edit` replacing `from`.
std::string small_with(const std::string& from, const std::string& to) {
  DqnNetwork n;
  n.layers.push_back({2, 2, {1, -2, 3, 4}, {5, -6}, 1});
  std::string text = dqn_weights_json(n);
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
}
