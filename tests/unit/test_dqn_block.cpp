// gen/src/dqn/dqn_block.cpp: the DQN inference block of a design (its shape from
// the config, its programming port's widths), the check that a network fits
// it, the untrained random network and where `rlroute sim` takes its
// network from.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>

#include "rlroute/gen/config.hpp"
#include "rlroute/gen/dqn_block.hpp"
#include "rlroute/gen/dqn_weights.hpp"

using namespace rlroute;

namespace {

const char* kDqn =
    "[topology]\nkind = \"torus\"\ndims = [4, 4]\n[router]\nvcs = 3\n[routing]\nalgorithm = \"dqn\"\n";

std::string fit_error(const DqnBlock& b, const ref::DqnNetwork& n) {
  try {
    check_fits(b, n, "w.json");
  } catch (const WeightsError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(DqnBlock, ShapeAndProgrammingPortOfTheDefaultBlock) {
  const DqnBlock p = dqn_block(parse_config(kDqn, "t.toml"));
  EXPECT_TRUE(p.parallel);
  EXPECT_FALSE(p.constant);
  EXPECT_EQ(p.latency_cycles(), 3 + 2) << "the observation, three layers, the argmax";
  EXPECT_EQ(p.interval_cycles(), 1);
  EXPECT_EQ(p.address_bits(), 5) << "a neuron per write: 32 at most";
  EXPECT_EQ(p.data_bits(), 32 * 8) << "the weights of a neuron with 32 inputs";
  EXPECT_EQ(p.program(random_dqn_network(p, 1)).size(), (32 + 32 + 4) * 2 + 3) << "weights and bias per neuron, shifts";
  const DqnBlock b = dqn_block(parse_config(std::string(kDqn) + "dqn_block = \"tiled\"\n", "t.toml"));
  EXPECT_EQ(b.sizes, (std::vector<int>{13, 32, 32, 4})) << "13 observation values [Lonardo 2019], one Q-value per port";
  EXPECT_EQ(b.layers(), 3);
  EXPECT_EQ(b.accumulator_bits(), 8 + 8 + 6);  // clog2(32 + 1) = 6
  EXPECT_EQ(b.layer_bits(), 2);
  // Words: 4 x 4, 4 x 8, 1 x 8 tiles; neurons: 32 at most: addresses 0..31.
  EXPECT_EQ(b.address_bits(), 5);
  EXPECT_EQ(b.data_bits(), 8 * 4 * 8);
  EXPECT_EQ(b.latency_cycles(), (16 + 3) + (32 + 3) + (8 + 3) + 3);
  const DqnBlock mesh3d = dqn_block(parse_config(
      "[topology]\nkind = \"mesh\"\ndims = [3, 3, 3]\n[router]\nvcs = 2\n[routing]\nalgorithm = \"dqn\"\n"
      "dqn_hidden = []\ndqn_block = \"tiled\"\ndqn_npar = 1\ndqn_ipar = 1\n",
      "t.toml"));
  EXPECT_EQ(mesh3d.sizes, (std::vector<int>{19, 6}));
  EXPECT_EQ(mesh3d.address_bits(), 7) << "114 words";
  EXPECT_EQ(mesh3d.data_bits(), mesh3d.accumulator_bits()) << "a bias is wider than one 8-bit weight";
}

TEST(DqnBlock, ARandomNetworkFitsIsTheSameForTheSameSeedAndKeepsActivationsInRange) {
  const DqnBlock b = dqn_block(parse_config(kDqn, "t.toml"));
  const ref::DqnNetwork n = random_dqn_network(b, 1);
  EXPECT_NO_THROW(n.validate());
  EXPECT_EQ(fit_error(b, n), "");
  EXPECT_EQ(random_dqn_network(b, 1), n);
  EXPECT_NE(random_dqn_network(b, 2), n);
  // Shifts: 7 + round(log2(sqrt(fan-in / 3))): 8 for 13 inputs, 9 for 32.
  EXPECT_EQ(n.layers[0].shift, 8u);
  EXPECT_EQ(n.layers[1].shift, 9u);
  // Over random observations the hidden activations neither all saturate
  // nor all die, and the actions vary.
  std::vector<int> actions(4, 0);
  std::mt19937 rng(3);
  for (int k = 0; k < 200; ++k) {
    std::vector<int32_t> obs(13);
    for (int32_t& v : obs) v = static_cast<int32_t>(rng() % 9);
    ++actions[static_cast<size_t>(ref::dqn_infer(n, obs, 0xf).action)];
  }
  int used = 0;
  for (const int a : actions) used += a > 0;
  EXPECT_GE(used, 2) << "a random network that always proposes the same port is not random";
}

TEST(DqnBlock, ANetworkOfAnotherShapeDoesNotFit) {
  const DqnBlock b = dqn_block(parse_config(kDqn, "t.toml"));
  ref::DqnNetwork n = random_dqn_network(b, 1);
  n.weight_bits = 6;
  EXPECT_EQ(fit_error(b, n), "w.json: weight_bits = 6: must be 8 (routing.dqn_weight_bits)");
  n = random_dqn_network(b, 1);
  n.activation_bits = 16;
  EXPECT_EQ(fit_error(b, n), "w.json: activation_bits = 16: must be 8 (routing.dqn_activation_bits)");
  n = random_dqn_network(b, 1);
  n.layers.pop_back();
  EXPECT_EQ(fit_error(b, n), "w.json: layers = 2: must hold 3 layers (routing.dqn_hidden has 2 hidden layers)");
  DqnBlock other = b;
  other.sizes = {13, 16, 32, 4};
  EXPECT_EQ(fit_error(other, random_dqn_network(b, 1)),
            "w.json: layers[0].outputs = 32: must be 16 (routing.dqn_hidden[0])");
  other.sizes = {19, 32, 32, 4};
  EXPECT_EQ(fit_error(other, random_dqn_network(b, 1)),
            "w.json: layers[0].inputs = 13: must be 19 (the observation of the topology)");
  other.sizes = {13, 32, 32, 6};
  EXPECT_EQ(fit_error(other, random_dqn_network(b, 1)),
            "w.json: layers[2].outputs = 4: must be 6 (one Q-value per network port)");
}

// --weights wins over routing.dqn_weights, which is relative to the config's
// directory; without either, the random network of routing.seed.
TEST(DqnBlock, TheSimulatorsNetworkComesFromWeightsThenTheConfigThenRandom) {
  const auto dir = std::filesystem::temp_directory_path() / ("rlroute_dqn_block_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "cfg");
  const Config plain = parse_config(kDqn, (dir / "cfg" / "t.toml").string());
  const DqnBlock b = dqn_block(plain);
  std::string source;
  EXPECT_EQ(dqn_network_for(plain, "", &source), random_dqn_network(b, plain.seed));
  EXPECT_EQ(source, "an untrained random network (seed routing.seed = 1)");

  write_dqn_weights(dir / "cfg" / "trained.json", random_dqn_network(b, 11));
  write_dqn_weights(dir / "other.json", random_dqn_network(b, 12));
  const Config named = parse_config(std::string(kDqn) + "dqn_weights = \"trained.json\"\n",
                                    (dir / "cfg" / "t.toml").string());
  EXPECT_EQ(dqn_network_for(named, "", &source), random_dqn_network(b, 11));
  EXPECT_EQ(source, (dir / "cfg" / "trained.json").string());
  EXPECT_EQ(dqn_network_for(named, (dir / "other.json").string(), &source), random_dqn_network(b, 12));

  // A file for another block: one line naming the file, the key and the rule.
  DqnBlock small = b;
  small.sizes = {13, 16, 4};
  write_dqn_weights(dir / "small.json", random_dqn_network(small, 1));
  try {
    dqn_network_for(plain, (dir / "small.json").string());
    ADD_FAILURE() << "a network of another shape was accepted";
  } catch (const WeightsError& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir / "small.json").string() + ": layers = 2: must hold 3 layers (routing.dqn_hidden has 2 hidden layers)");
  }
  std::filesystem::remove_all(dir);
}

// The programming image for a test bench of the generated RTL: every write
// of ref::dqn_program, in order, one per line, {layer, kind, address, data}.
TEST(DqnBlock, TheProgrammingImageHoldsEveryWriteInOrder) {
  const Config cfg = parse_config(std::string(kDqn) + "dqn_hidden = [6]\ndqn_block = \"tiled\"\ndqn_npar = 2\ndqn_ipar = 3\n", "t.toml");
  const DqnBlock b = dqn_block(cfg);
  const ref::DqnNetwork n = random_dqn_network(b, 5);
  const std::string image = dqn_program_memh(cfg, n, "test network");
  std::vector<std::string> lines;
  std::istringstream in(image);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("//", 0) != 0) lines.push_back(line);
  }
  const std::vector<ref::DqnWrite> writes = ref::dqn_program(n, b.npar, b.ipar);
  ASSERT_EQ(lines.size(), writes.size());
  const int lw = b.layer_bits(), aw = b.address_bits(), dw = b.data_bits();
  const auto bit = [](const std::string& hex, int i) {
    const char c = hex[hex.size() - 1 - static_cast<size_t>(i / 4)];
    const int v = c <= '9' ? c - '0' : c - 'a' + 10;
    return (v >> (i % 4)) & 1;
  };
  for (size_t k = 0; k < writes.size(); ++k) {
    const std::string& hex = lines[k];
    ASSERT_EQ(hex.size(), static_cast<size_t>((lw + 2 + aw + dw + 3) / 4));
    for (int i = 0; i < dw; ++i) {
      const size_t word = static_cast<size_t>(i / 64);
      const int want = word < writes[k].data.size() ? static_cast<int>((writes[k].data[word] >> (i % 64)) & 1u) : 0;
      ASSERT_EQ(bit(hex, i), want) << "write " << k << " data bit " << i;
    }
    unsigned addr = 0, kind = 0, layer = 0;
    for (int i = 0; i < aw; ++i) addr |= static_cast<unsigned>(bit(hex, dw + i)) << i;
    for (int i = 0; i < 2; ++i) kind |= static_cast<unsigned>(bit(hex, dw + aw + i)) << i;
    for (int i = 0; i < lw; ++i) layer |= static_cast<unsigned>(bit(hex, dw + aw + 2 + i)) << i;
    EXPECT_EQ(addr, writes[k].addr) << k;
    EXPECT_EQ(kind, static_cast<unsigned>(writes[k].kind)) << k;
    EXPECT_EQ(layer, writes[k].layer) << k;
  }
  EXPECT_NE(image.find("Network: test network."), std::string::npos);
}

// Constant weights (routing.dqn_weights_mode = "constant"): the package's
// rows are the network's weights, neuron by neuron (input 0 in the low
// bits), its biases layer by layer and its shifts; the comment names the
// file and its hash; a command-line weights file takes the config's place;
// nothing is programmed.
TEST(DqnBlock, ConstantWeightsAreThePackagesRowsAndNothingIsProgrammed) {
  const auto dir = std::filesystem::temp_directory_path() / ("rlroute_dqn_constant_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string toml = std::string(kDqn) + "dqn_hidden = [2]\ndqn_weight_bits = 4\ndqn_weights_mode = \"constant\"\n";
  Config cfg = parse_config(toml, (dir / "t.toml").string());
  const DqnBlock b = dqn_block(cfg);
  ASSERT_TRUE(b.constant);
  ref::DqnNetwork n = b.zero_network();  // 13 -> 2 -> 4, 4-bit weights
  n.layers[0].weights[0] = -1;           // neuron 0, input 0
  n.layers[0].weights[1] = 3;            // neuron 0, input 1
  n.layers[0].weights[13 + 12] = 7;      // neuron 1, input 12
  n.layers[0].biases = {5, -2};
  n.layers[0].shift = 4;
  n.layers[1].weights[2 * 3 + 1] = -8;   // neuron 3, input 1
  n.layers[1].shift = 1;
  write_dqn_weights(dir / "w.json", n);
  EXPECT_TRUE(b.program(n).empty());

  use_dqn_weights(cfg, (dir / "w.json").string());
  EXPECT_EQ(cfg.dqn_weights, std::filesystem::absolute(dir / "w.json").string());
  const std::string sv = dqn_constants_sv(cfg);
  std::ifstream in(dir / "w.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(sv.find((dir / "w.json").string() + " (hash " + content_hash({{"weights", text}}) + ")"), std::string::npos) << sv;
  EXPECT_NE(sv.find("localparam logic [136-1:0] DQN_WEIGHTS = {\n"
                    "    8'h80,  // layer 1, neuron 3\n"
                    "    8'h00,  // layer 1, neuron 2\n"
                    "    8'h00,  // layer 1, neuron 1\n"
                    "    8'h00,  // layer 1, neuron 0\n"
                    "    52'h7000000000000,  // layer 0, neuron 1\n"
                    "    52'h000000000003f  // layer 0, neuron 0\n"
                    "  };\n"),
            std::string::npos)
      << sv;
  // Biases: 4 + 8 + clog2(14) = 16 bits each.
  EXPECT_NE(sv.find("localparam logic [96-1:0] DQN_BIASES = {\n"
                    "    64'h0000000000000000,  // layer 1\n"
                    "    32'hfffe0005  // layer 0\n"
                    "  };\n"),
            std::string::npos)
      << sv;
  EXPECT_NE(sv.find("localparam logic [31:0] DQN_SHIFTS = 32'h00000104;"), std::string::npos) << sv;
  std::filesystem::remove_all(dir);
}
