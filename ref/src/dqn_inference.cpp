#include "rlroute/ref/dqn_inference.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace rlroute::ref {

namespace {

int64_t saturate(int64_t x, unsigned bits) {
  const int64_t hi = (int64_t{1} << (bits - 1)) - 1;
  return std::clamp(x, -hi - 1, hi);
}

unsigned clog2(uint64_t x) {
  unsigned b = 0;
  while ((uint64_t{1} << b) < x) ++b;
  return b;
}

}  // namespace

int64_t round_shift(int64_t x, unsigned shift) {
  if (shift == 0) return x;
  return (x + (int64_t{1} << (shift - 1))) >> shift;  // arithmetic shift: floor
}

unsigned DqnNetwork::accumulator_bits() const {
  int fan_in = 1;
  for (const DqnLayer& l : layers) fan_in = std::max(fan_in, l.inputs);
  return weight_bits + activation_bits + clog2(static_cast<uint64_t>(fan_in) + 1);
}

int64_t DqnNetwork::bias_limit() const { return int64_t{1} << (accumulator_bits() - 2); }

void DqnNetwork::validate() const {
  auto fail = [](const std::string& what) { throw std::invalid_argument(what); };
  if (weight_bits < 2 || weight_bits > 16) fail("weight_bits must be in 2..16");
  if (activation_bits < 2 || activation_bits > 16) fail("activation_bits must be in 2..16");
  if (layers.empty()) fail("no layers");
  const int64_t wmax = (int64_t{1} << (weight_bits - 1)) - 1;
  for (size_t l = 0; l < layers.size(); ++l) {
    const DqnLayer& layer = layers[l];
    const std::string at = "layer " + std::to_string(l) + ": ";
    if (layer.inputs < 1 || layer.outputs < 1) fail(at + "inputs and outputs must be at least 1");
    if (l > 0 && layer.inputs != layers[l - 1].outputs) fail(at + "inputs must equal the previous layer's outputs");
    if (layer.weights.size() != static_cast<size_t>(layer.inputs) * static_cast<size_t>(layer.outputs)) {
      fail(at + "weights must hold outputs x inputs values");
    }
    if (layer.biases.size() != static_cast<size_t>(layer.outputs)) fail(at + "biases must hold one value per output");
    for (const int32_t w : layer.weights) {
      if (w < -wmax - 1 || w > wmax) fail(at + "weight " + std::to_string(w) + " outside the signed weight_bits range");
    }
    for (const int64_t b : layer.biases) {
      if (b <= -bias_limit() || b >= bias_limit()) fail(at + "bias " + std::to_string(b) + " outside +-bias_limit()");
    }
    if (layer.shift >= accumulator_bits()) fail(at + "shift must be below the accumulator width");
  }
  if (outputs() > 32) fail("at most 32 outputs (the action mask)");
}

DqnResult dqn_infer(const DqnNetwork& network, std::span<const int32_t> observation, uint32_t action_mask) {
  network.validate();
  if (observation.size() != static_cast<size_t>(network.inputs())) {
    throw std::invalid_argument("observation size must equal the network's inputs");
  }
  std::vector<int64_t> x(observation.begin(), observation.end());
  for (const int64_t v : x) {
    if (saturate(v, network.activation_bits) != v) throw std::invalid_argument("observation outside activation_bits");
  }
  for (size_t l = 0; l < network.layers.size(); ++l) {
    const DqnLayer& layer = network.layers[l];
    const bool last = l + 1 == network.layers.size();
    std::vector<int64_t> y(static_cast<size_t>(layer.outputs));
    for (int o = 0; o < layer.outputs; ++o) {
      int64_t acc = layer.biases[static_cast<size_t>(o)];
      for (int i = 0; i < layer.inputs; ++i) {
        acc += int64_t{layer.weights[static_cast<size_t>(o * layer.inputs + i)]} * x[static_cast<size_t>(i)];
      }
      const int64_t v = round_shift(acc, layer.shift);
      y[static_cast<size_t>(o)] = last ? v : std::max<int64_t>(0, saturate(v, network.activation_bits));
    }
    x = std::move(y);
  }
  DqnResult r;
  r.q = x;
  for (int o = 0; o < network.outputs(); ++o) {
    if (!((action_mask >> o) & 1u)) continue;
    if (r.action < 0 || r.q[static_cast<size_t>(o)] > r.q[static_cast<size_t>(r.action)]) r.action = o;
  }
  return r;
}

unsigned dqn_observation_shift(int largest, unsigned activation_bits) {
  unsigned bits = 0;  // ceil(log2(largest))
  while ((int64_t{1} << bits) < largest) ++bits;
  return bits > activation_bits - 1 ? bits - (activation_bits - 1) : 0;
}

std::vector<int32_t> dqn_observation(const DqnObservationInputs& in, unsigned activation_bits) {
  const int32_t top = (int32_t{1} << (activation_bits - 1)) - 1;
  const unsigned length_shift = dqn_observation_shift(in.max_length, activation_bits);
  const unsigned occupancy_shift = dqn_observation_shift(in.buffer_flits, activation_bits);
  std::vector<int32_t> obs;
  auto add = [&](int v) { obs.push_back(std::clamp<int32_t>(v, 0, top)); };
  for (const int c : in.coords) add(c);
  for (const int c : in.dst) add(c);
  add(in.length >> length_shift);
  for (const int f : in.local) add(f >> occupancy_shift);
  for (const int f : in.downstream) add(f >> occupancy_shift);
  return obs;
}

std::vector<DqnWrite> dqn_program(const DqnNetwork& network, int npar, int ipar) {
  network.validate();
  auto put = [](std::vector<uint64_t>& data, unsigned lsb, unsigned width, uint64_t value) {
    value &= width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    for (unsigned b = 0; b < width; ++b) {
      if ((value >> b) & 1u) data[(lsb + b) / 64] |= uint64_t{1} << ((lsb + b) % 64);
    }
  };
  const unsigned wb = network.weight_bits;
  const unsigned word_bits = static_cast<unsigned>(npar * ipar) * wb;
  std::vector<DqnWrite> writes;
  for (size_t l = 0; l < network.layers.size(); ++l) {
    const DqnLayer& layer = network.layers[l];
    const int to = (layer.outputs + npar - 1) / npar, ti = (layer.inputs + ipar - 1) / ipar;
    for (int t_o = 0; t_o < to; ++t_o) {
      for (int t_i = 0; t_i < ti; ++t_i) {
        DqnWrite w{static_cast<unsigned>(l), DqnWriteKind::Weight, static_cast<unsigned>(t_o * ti + t_i),
                   std::vector<uint64_t>((word_bits + 63) / 64, 0)};
        for (int n = 0; n < npar; ++n) {
          for (int i = 0; i < ipar; ++i) {
            const int o = t_o * npar + n, in = t_i * ipar + i;
            if (o >= layer.outputs || in >= layer.inputs) continue;
            put(w.data, static_cast<unsigned>(n * ipar + i) * wb, wb,
                static_cast<uint64_t>(static_cast<int64_t>(layer.weights[static_cast<size_t>(o * layer.inputs + in)])));
          }
        }
        writes.push_back(std::move(w));
      }
    }
    for (int o = 0; o < layer.outputs; ++o) {
      DqnWrite w{static_cast<unsigned>(l), DqnWriteKind::Bias, static_cast<unsigned>(o), std::vector<uint64_t>(1, 0)};
      put(w.data, 0, std::min(64u, network.accumulator_bits()),
          static_cast<uint64_t>(layer.biases[static_cast<size_t>(o)]));
      writes.push_back(std::move(w));
    }
    writes.push_back(DqnWrite{static_cast<unsigned>(l), DqnWriteKind::Shift, 0, std::vector<uint64_t>(1, layer.shift)});
  }
  return writes;
}

int dqn_interval_cycles(const DqnNetwork& network, int npar, int ipar) {
  int interval = 1;
  for (const DqnLayer& l : network.layers) {
    interval = std::max(interval, ((l.outputs + npar - 1) / npar) * ((l.inputs + ipar - 1) / ipar));
  }
  return interval;
}

int dqn_latency_cycles(const DqnNetwork& network, int npar, int ipar) {
  int cycles = 3;
  for (const DqnLayer& l : network.layers) {
    cycles += ((l.outputs + npar - 1) / npar) * ((l.inputs + ipar - 1) / ipar) + 3;
  }
  return cycles;
}

int dqn_parallel_latency_cycles(const DqnNetwork& network) { return static_cast<int>(network.layers.size()) + 2; }

}  // namespace rlroute::ref
