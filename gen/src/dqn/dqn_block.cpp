// The DQN inference block of a design: gen/include/rlroute/gen/dqn_block.hpp.
#include "rlroute/gen/dqn_block.hpp"

#include "rlroute/gen/dqn_episodes.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <fstream>
#include <iterator>
#include <random>

#include "rlroute/gen/topology.hpp"
#include "rlroute/gen/dqn_weights.hpp"

namespace rlroute {

ref::DqnNetwork DqnBlock::zero_network() const {
  ref::DqnNetwork n;
  n.weight_bits = static_cast<unsigned>(weight_bits);
  n.activation_bits = static_cast<unsigned>(activation_bits);
  for (int l = 0; l < layers(); ++l) {
    ref::DqnLayer layer;
    layer.inputs = sizes[static_cast<size_t>(l)];
    layer.outputs = sizes[static_cast<size_t>(l + 1)];
    layer.weights.assign(static_cast<size_t>(layer.inputs * layer.outputs), 0);
    layer.biases.assign(static_cast<size_t>(layer.outputs), 0);
    n.layers.push_back(std::move(layer));
  }
  return n;
}

int DqnBlock::largest_fan_in() const { return *std::max_element(sizes.begin(), sizes.end() - 1); }

int DqnBlock::layer_bits() const { return std::max(1, bits_for(layers())); }

int DqnBlock::address_bits() const {
  int most = 1;
  for (int l = 0; l < layers(); ++l) {
    const int in = sizes[static_cast<size_t>(l)], out = sizes[static_cast<size_t>(l + 1)];
    most = std::max({most, parallel ? out : ((out + npar - 1) / npar) * ((in + ipar - 1) / ipar), out});
  }
  return std::max(1, bits_for(most));
}

int DqnBlock::data_bits() const {
  const int word = parallel ? largest_fan_in() * weight_bits : npar * ipar * weight_bits;
  return std::max(word, accumulator_bits());
}

int DqnBlock::latency_cycles() const {
  return parallel ? ref::dqn_parallel_latency_cycles(zero_network()) : ref::dqn_latency_cycles(zero_network(), npar, ipar);
}

int DqnBlock::interval_cycles() const { return parallel ? 1 : ref::dqn_interval_cycles(zero_network(), npar, ipar); }

std::vector<ref::DqnWrite> DqnBlock::program(const ref::DqnNetwork& network) const {
  if (constant) return {};
  return parallel ? ref::dqn_program(network, 1, largest_fan_in()) : ref::dqn_program(network, npar, ipar);
}

DqnBlock dqn_block(const Config& cfg) {
  const int dims = static_cast<int>(cfg.dims.size());
  DqnBlock b;
  b.sizes.push_back(6 * dims + 1);
  for (const int n : cfg.dqn_hidden) b.sizes.push_back(n);
  b.sizes.push_back(2 * dims);
  b.weight_bits = cfg.dqn_weight_bits;
  b.activation_bits = cfg.dqn_activation_bits;
  b.npar = cfg.dqn_npar;
  b.ipar = cfg.dqn_ipar;
  b.parallel = cfg.dqn_block == DqnBlockKind::Parallel;
  b.constant = cfg.dqn_weights_mode == DqnWeightsMode::Constant;
  return b;
}

DqnAgentPort dqn_agent_port(const Design& design) {
  const DqnBlock b = dqn_block(design.cfg);
  const DqnEpisodeLayout e = dqn_episode_layout(design.cfg);
  return {b.sizes.front(), b.activation_bits, b.sizes.back(), std::max(1, bits_for(design.ports * design.vcs)),
          std::max(1, bits_for(b.sizes.back())), e.index_bits, e.distance_bits, e.stamp_bits};
}

void check_fits(const DqnBlock& block, const ref::DqnNetwork& network, const std::string& where) {
  const auto fail = [&where](const std::string& key, long long value, const std::string& rule) {
    throw WeightsError(fmt::format("{}: {} = {}: {}", where, key, value, rule));
  };
  if (static_cast<int>(network.weight_bits) != block.weight_bits) {
    fail("weight_bits", network.weight_bits, fmt::format("must be {} (routing.dqn_weight_bits)", block.weight_bits));
  }
  if (static_cast<int>(network.activation_bits) != block.activation_bits) {
    fail("activation_bits", network.activation_bits,
         fmt::format("must be {} (routing.dqn_activation_bits)", block.activation_bits));
  }
  if (static_cast<int>(network.layers.size()) != block.layers()) {
    fail("layers", static_cast<long long>(network.layers.size()),
         fmt::format("must hold {} layers (routing.dqn_hidden has {} hidden layers)", block.layers(),
                     block.layers() - 1));
  }
  for (int l = 0; l < block.layers(); ++l) {
    const ref::DqnLayer& layer = network.layers[static_cast<size_t>(l)];
    const int in = block.sizes[static_cast<size_t>(l)], out = block.sizes[static_cast<size_t>(l + 1)];
    if (layer.inputs != in) {
      fail(fmt::format("layers[{}].inputs", l), layer.inputs,
           l == 0 ? fmt::format("must be {} (the observation of the topology)", in)
                  : fmt::format("must be {} (routing.dqn_hidden[{}])", in, l - 1));
    }
    if (layer.outputs != out) {
      fail(fmt::format("layers[{}].outputs", l), layer.outputs,
           l + 1 == block.layers() ? fmt::format("must be {} (one Q-value per network port)", out)
                                   : fmt::format("must be {} (routing.dqn_hidden[{}])", out, l));
    }
  }
}

namespace {

// `values` of `width` bits each, LSB first, as a Verilog literal.
std::string packed_literal(const std::vector<std::int64_t>& values, int width) {
  const size_t bits = values.size() * static_cast<size_t>(width);
  std::string hex;
  for (size_t nibble = (bits + 3) / 4; nibble-- > 0;) {
    unsigned v = 0;
    for (unsigned b = 0; b < 4; ++b) {
      const size_t bit = nibble * 4 + b;
      if (bit >= bits) continue;
      const std::uint64_t value = static_cast<std::uint64_t>(values[bit / static_cast<size_t>(width)]);
      v |= static_cast<unsigned>((value >> (bit % static_cast<size_t>(width))) & 1u) << b;
    }
    hex += "0123456789abcdef"[v];
  }
  return fmt::format("{}'h{}", bits, hex);
}

}  // namespace

std::string dqn_constants_sv(const Config& cfg) {
  const DqnBlock block = dqn_block(cfg);
  std::string source;
  const ref::DqnNetwork network = dqn_network_for(cfg, "", &source);
  const std::filesystem::path file = dqn_weights_file(cfg, "");
  std::string hash;
  if (!file.empty()) {
    std::ifstream in(file, std::ios::binary);
    hash = fmt::format(" (hash {})", content_hash({{"weights", std::string(std::istreambuf_iterator<char>(in), {})}}));
  }
  // One literal per neuron's weights and per layer's biases, MSB first (the
  // last layer's last neuron first), so that the package reads row by row.
  const int accw = block.accumulator_bits();
  std::vector<std::string> weight_rows, bias_rows;
  std::vector<std::int64_t> shifts;
  size_t weight_bits = 0, bias_bits = 0;
  for (size_t l = 0; l < network.layers.size(); ++l) {
    const ref::DqnLayer& layer = network.layers[l];
    for (int o = 0; o < layer.outputs; ++o) {
      const auto row = layer.weights.begin() + static_cast<std::ptrdiff_t>(o) * layer.inputs;
      weight_rows.push_back(fmt::format("    {}  // layer {}, neuron {}",
                                        packed_literal(std::vector<std::int64_t>(row, row + layer.inputs), block.weight_bits),
                                        l, o));
    }
    bias_rows.push_back(fmt::format("    {}  // layer {}", packed_literal({layer.biases.begin(), layer.biases.end()}, accw), l));
    weight_bits += layer.weights.size() * static_cast<size_t>(block.weight_bits);
    bias_bits += layer.biases.size() * static_cast<size_t>(accw);
    shifts.push_back(layer.shift);
  }
  shifts.resize(4, 0);
  const auto concatenation = [](std::vector<std::string> rows) {
    std::reverse(rows.begin(), rows.end());
    for (size_t k = 0; k + 1 < rows.size(); ++k) rows[k].insert(rows[k].find("  //"), ",");
    return fmt::format("{{\n{}\n  }}", fmt::join(rows, "\n"));
  };
  return fmt::format(
      "  // The network built into the inference block (routing.dqn_weights_mode = \"constant\"):\n"
      "  // {}{}.\n"
      "  // Weights: a row per neuron, input 0 in the low bits ({} bits each); biases: a row per\n"
      "  // layer ({} bits each); shifts: 8 bits per layer, layer 0 in the low bits.\n"
      "  localparam logic [{}-1:0] DQN_WEIGHTS = {};\n"
      "  localparam logic [{}-1:0] DQN_BIASES = {};\n"
      "  localparam logic [31:0] DQN_SHIFTS = {};\n",
      source, hash, block.weight_bits, accw, weight_bits, concatenation(weight_rows), bias_bits,
      concatenation(bias_rows), packed_literal(shifts, 8));
}

ref::DqnNetwork random_dqn_network(const DqnBlock& block, std::uint64_t seed) {
  ref::DqnNetwork n = block.zero_network();
  std::mt19937_64 rng(seed ^ 0x44514e5f52414e44ull);  // "DQN_RAND"
  const std::uint64_t span = std::uint64_t{1} << block.weight_bits;
  const int accw = static_cast<int>(n.accumulator_bits());
  for (ref::DqnLayer& layer : n.layers) {
    // Weights uniform over the whole range (the same draw on every platform).
    for (int32_t& w : layer.weights) w = static_cast<int32_t>(rng() % span) - (1 << (block.weight_bits - 1));
    // A sum of `inputs` products of such weights has a spread of about
    // sqrt(inputs / 3) x 2^(weight_bits - 1) times the inputs' spread.
    const double gain = std::sqrt(layer.inputs / 3.0) * std::ldexp(1.0, block.weight_bits - 1);
    layer.shift = static_cast<unsigned>(std::clamp(static_cast<int>(std::lround(std::log2(gain))), 0, accw - 1));
  }
  return n;
}

std::filesystem::path dqn_weights_file(const Config& cfg, const std::string& weights) {
  if (!weights.empty()) return weights;
  if (cfg.dqn_weights.empty()) return {};
  const std::filesystem::path path(cfg.dqn_weights);
  return path.is_relative() ? std::filesystem::path(cfg.path).parent_path() / path : path;
}

void use_dqn_weights(Config& cfg, const std::string& weights) {
  if (!weights.empty() && cfg.algorithm == RoutingAlgorithm::Dqn) cfg.dqn_weights = std::filesystem::absolute(weights).string();
}

ref::DqnNetwork dqn_network_for(const Config& cfg, const std::string& weights, std::string* source,
                                ref::FloatNetwork* float_network) {
  const DqnBlock block = dqn_block(cfg);
  const std::filesystem::path path = dqn_weights_file(cfg, weights);
  if (path.empty()) {
    if (float_network) *float_network = ref::FloatNetwork{};
    if (source) *source = fmt::format("an untrained random network (seed routing.seed = {})", cfg.seed);
    return random_dqn_network(block, cfg.seed);
  }
  ref::DqnNetwork n = read_dqn_weights(path, nullptr, float_network);
  check_fits(block, n, path.string());
  if (source) *source = path.string();
  return n;
}

std::string dqn_program_memh(const Config& cfg, const ref::DqnNetwork& network, const std::string& source) {
  const DqnBlock block = dqn_block(cfg);
  check_fits(block, network, source);
  const int lw = block.layer_bits(), aw = block.address_bits(), dw = block.data_bits();
  const int width = lw + 2 + aw + dw;
  std::string s = fmt::format(
      "// DQN inference block programming image for \"{}\" ({}).\n"
      "// Network: {}.\n"
      "// One write of the programming port per line (rr_dqn_infer; docs/dqn.md), {} bits in hex:\n"
      "// {{prog_layer_i[{}], prog_kind_i[2], prog_addr_i[{}], prog_data_i[{}]}}, MSB first; apply one per\n"
      "// clock cycle with prog_we_i high, after reset and before traffic.\n",
      cfg.name, std::filesystem::path(cfg.path).filename().string(), source, width, lw, aw, dw);
  for (const ref::DqnWrite& w : block.program(network)) {
    // The word as bits, LSB first: data, address, kind, layer.
    std::vector<bool> bits(static_cast<size_t>(width), false);
    for (int b = 0; b < dw; ++b) {
      const size_t word = static_cast<size_t>(b / 64);
      bits[static_cast<size_t>(b)] = word < w.data.size() && ((w.data[word] >> (b % 64)) & 1u);
    }
    for (int b = 0; b < aw; ++b) bits[static_cast<size_t>(dw + b)] = (w.addr >> b) & 1u;
    for (int b = 0; b < 2; ++b) bits[static_cast<size_t>(dw + aw + b)] = (static_cast<unsigned>(w.kind) >> b) & 1u;
    for (int b = 0; b < lw; ++b) bits[static_cast<size_t>(dw + aw + 2 + b)] = (w.layer >> b) & 1u;
    std::string hex;
    for (int nibble = (width + 3) / 4 - 1; nibble >= 0; --nibble) {
      unsigned v = 0;
      for (int b = 3; b >= 0; --b) {
        const int bit = nibble * 4 + b;
        v = (v << 1) | (bit < width && bits[static_cast<size_t>(bit)] ? 1u : 0u);
      }
      hex += "0123456789abcdef"[v];
    }
    s += hex + "\n";
  }
  return s;
}

void add_dqn_program(EmittedDesign& emitted, const Config& cfg, const ref::DqnNetwork& network,
                     const std::string& source) {
  const std::string name = cfg.name + "_dqn_program.memh";
  emitted.files[name] = dqn_program_memh(cfg, network, source);
  nlohmann::ordered_json m = nlohmann::ordered_json::parse(emitted.files.at("manifest.json"));
  m["dqn_program"] = {{"file", name}, {"network", source}};
  emitted.files["manifest.json"] = m.dump(2) + "\n";
}

}  // namespace rlroute
