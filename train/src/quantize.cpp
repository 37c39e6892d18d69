#include "rlroute/train/quantize.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rlroute::train {

namespace {

std::vector<float> as_float(const std::vector<std::int32_t>& obs) { return {obs.begin(), obs.end()}; }

}  // namespace

Quantized quantize(const ref::FloatNetwork& net, const DqnBlock& block, const Calibration& calibration) {
  if (static_cast<int>(net.layers.size()) != block.layers()) {
    throw std::invalid_argument(fmt::format("quantize: the network has {} layers, the block {}", net.layers.size(),
                                            block.layers()));
  }
  for (std::size_t l = 0; l < net.layers.size(); ++l) {
    if (net.layers[l].inputs != block.sizes[l] || net.layers[l].outputs != block.sizes[l + 1]) {
      throw std::invalid_argument(fmt::format("quantize: layer {} is {} -> {}, the block's {} -> {}", l,
                                              net.layers[l].inputs, net.layers[l].outputs, block.sizes[l],
                                              block.sizes[l + 1]));
    }
  }
  if (calibration.observations.empty()) throw std::invalid_argument("quantize: no calibration observations");

  // The largest activation of every hidden layer over the calibration set,
  // or as quantization-aware training scaled it.
  std::vector<double> largest(net.layers.size(), 0.0);
  if (!calibration.activation_maxima.empty()) {
    if (calibration.activation_maxima.size() + 1 != net.layers.size()) {
      throw std::invalid_argument(fmt::format("quantize: {} activation maxima for {} hidden layers",
                                              calibration.activation_maxima.size(), net.layers.size() - 1));
    }
    std::copy(calibration.activation_maxima.begin(), calibration.activation_maxima.end(), largest.begin());
  } else {
    for (const auto& obs : calibration.observations) {
      const std::vector<float> x = as_float(obs);
      const auto acts = net.activations(x);
      for (std::size_t l = 0; l < acts.size(); ++l) {
        for (const float a : acts[l]) largest[l] = std::max(largest[l], static_cast<double>(a));
      }
    }
  }

  Quantized q;
  q.network = block.zero_network();
  ref::DqnNetwork& n = q.network;
  const double wmax = std::ldexp(1.0, block.weight_bits - 1) - 1;
  const double amax = std::ldexp(1.0, block.activation_bits - 1) - 1;
  const std::int64_t bias_max = n.bias_limit() - 1;
  const unsigned shift_max = n.accumulator_bits() - 1;
  double in_scale = 1.0;  // the real value of one unit of the layer's input
  for (std::size_t l = 0; l < net.layers.size(); ++l) {
    const ref::FloatLayer& f = net.layers[l];
    ref::DqnLayer& layer = n.layers[l];
    float largest_weight = 0;
    for (const float w : f.weights) largest_weight = std::max(largest_weight, std::fabs(w));
    const double w_scale = largest_weight > 0 ? largest_weight / wmax : 1.0;
    for (std::size_t k = 0; k < f.weights.size(); ++k) {
      layer.weights[k] = static_cast<std::int32_t>(std::clamp(std::lround(f.weights[k] / w_scale), -std::lround(wmax),
                                                              std::lround(wmax)));
    }
    const double acc_scale = w_scale * in_scale;  // one accumulator unit
    for (std::size_t o = 0; o < f.biases.size(); ++o) {
      layer.biases[o] = std::clamp<std::int64_t>(std::llround(f.biases[o] / acc_scale), -bias_max, bias_max);
    }
    const bool last = l + 1 == net.layers.size();
    unsigned shift = 0;
    if (!last && largest[l] > 0) {
      // The smallest shift at which the largest calibration activation fits.
      const double need = std::log2(largest[l] / (amax * acc_scale));
      shift = static_cast<unsigned>(std::clamp(std::ceil(need), 0.0, static_cast<double>(shift_max)));
    }
    layer.shift = shift;
    in_scale = acc_scale * std::ldexp(1.0, static_cast<int>(shift));
    q.scales.push_back(in_scale);
  }
  n.validate();

  std::size_t same = 0;
  for (std::size_t k = 0; k < calibration.observations.size(); ++k) {
    const auto& obs = calibration.observations[k];
    const std::uint32_t mask = calibration.masks[k];
    const std::vector<float> x = as_float(obs);
    if (ref::dqn_infer(n, obs, mask).action == net.action(x, mask)) ++same;
  }
  q.agreement = static_cast<double>(same) / static_cast<double>(calibration.observations.size());
  return q;
}

}  // namespace rlroute::train
