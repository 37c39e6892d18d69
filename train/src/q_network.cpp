#include "rlroute/train/q_network.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace rlroute::train {

QNetworkImpl::QNetworkImpl(int inputs, const std::vector<int>& hidden, int actions, QuantizationWidths widths)
    : widths_(widths) {
  int width = inputs;
  for (std::size_t l = 0; l < hidden.size(); ++l) {
    trunk_.push_back(register_module("hidden" + std::to_string(l), torch::nn::Linear(width, hidden[l])));
    width = hidden[l];
  }
  value_ = register_module("value", torch::nn::Linear(width, 1));
  advantage_ = register_module("advantage", torch::nn::Linear(width, actions));
  largest_ = register_buffer("largest", torch::zeros({static_cast<long>(hidden.size())}));
}

namespace {

// x rounded to `scale` units in lo..hi, halves away from zero (as
// train::quantize rounds weights and biases, and as the block rounds its
// non-negative activations: half up), the gradient passed straight through.
torch::Tensor fake_quantize(const torch::Tensor& x, const torch::Tensor& scale, double lo, double hi) {
  const torch::Tensor units = x / scale;
  const torch::Tensor rounded = torch::sign(units) * torch::floor(torch::abs(units) + 0.5);
  const torch::Tensor q = torch::clamp(rounded, lo, hi) * scale;
  return x + (q - x).detach();
}

// Biases are not clamped here: train::quantize's limit is half the
// accumulator's range, which a trained bias does not come near.
constexpr double kNoLimit = 1e30;

// A layer's weight scale: its largest weight maps to 2^(bits-1) - 1 (train::quantize).
torch::Tensor weight_scale(const torch::Tensor& w, double wmax) {
  return torch::clamp_min(w.detach().abs().max(), 1e-12) / wmax;
}

}  // namespace

std::pair<torch::Tensor, torch::Tensor> QNetworkImpl::folded_head() {
  const torch::Tensor wa = advantage_->weight, ba = advantage_->bias;
  return {value_->weight + wa - wa.mean(0, /*keepdim=*/true), value_->bias + ba - ba.mean()};
}

torch::Tensor QNetworkImpl::forward(torch::Tensor x) {
  if (widths_.weight_bits == 0) {
    for (torch::nn::Linear& layer : trunk_) x = torch::relu(layer->forward(x));
    const torch::Tensor a = advantage_->forward(x);
    return value_->forward(x) + a - a.mean(1, /*keepdim=*/true);
  }
  const double wmax = std::ldexp(1.0, widths_.weight_bits - 1) - 1;
  const double amax = std::ldexp(1.0, widths_.activation_bits - 1) - 1;
  const bool learning = torch::GradMode::is_enabled();
  torch::Tensor in_scale = torch::ones({});  // observations are integers
  for (std::size_t l = 0; l < trunk_.size(); ++l) {
    const torch::Tensor w = trunk_[l]->weight, s_w = weight_scale(w, wmax);
    // The bias in accumulator units (s_w x in_scale), as the block adds it.
    const torch::Tensor acc_scale = (s_w * in_scale).detach();
    const torch::Tensor b = fake_quantize(trunk_[l]->bias, acc_scale, -kNoLimit, kNoLimit);
    x = torch::relu(torch::nn::functional::linear(x, fake_quantize(w, s_w, -wmax, wmax), b));
    if (learning) {
      torch::NoGradGuard no_grad;
      // A maximum that decays, so that the scale follows the network as it learns.
      largest_[static_cast<long>(l)].copy_(torch::maximum(largest_[static_cast<long>(l)] * 0.999, x.max()));
    }
    // The smallest power-of-two shift of the accumulator at which the largest
    // activation fits (train::quantize).
    const torch::Tensor shift = torch::clamp_min(
        torch::ceil(torch::log2(torch::clamp_min(largest_[static_cast<long>(l)], 1e-12) / (amax * acc_scale))), 0);
    const torch::Tensor step = torch::pow(2.0, shift), s_a = acc_scale * step;
    // As the block rounds: the accumulator (an integer number of acc_scale,
    // recovered exactly from single precision), plus half a step, shifted.
    const torch::Tensor acc = torch::round(x.detach() / acc_scale);
    const torch::Tensor units = torch::floor((acc + torch::floor(step / 2)) / step);
    x = x + (torch::clamp(units, 0, amax) * s_a - x).detach();
    in_scale = s_a;
  }
  const auto [w, b] = folded_head();
  const torch::Tensor s_w = weight_scale(w, wmax);
  return torch::nn::functional::linear(x, fake_quantize(w, s_w, -wmax, wmax),
                                       fake_quantize(b, (s_w * in_scale).detach(), -kNoLimit, kNoLimit));
}

namespace {

ref::FloatLayer to_float(const torch::Tensor& weight, const torch::Tensor& bias) {
  const torch::Tensor w = weight.detach().to(torch::kFloat32).contiguous();
  const torch::Tensor b = bias.detach().to(torch::kFloat32).contiguous();
  ref::FloatLayer f;
  f.outputs = static_cast<int>(w.size(0));
  f.inputs = static_cast<int>(w.size(1));
  f.weights.assign(w.data_ptr<float>(), w.data_ptr<float>() + w.numel());
  f.biases.assign(b.data_ptr<float>(), b.data_ptr<float>() + b.numel());
  return f;
}

// Copies `f` into `weight` and `bias` ([outputs, inputs], [outputs]).
void from_float(const ref::FloatLayer& f, torch::Tensor& weight, torch::Tensor& bias) {
  weight.copy_(torch::from_blob(const_cast<float*>(f.weights.data()), {f.outputs, f.inputs}));
  bias.copy_(torch::from_blob(const_cast<float*>(f.biases.data()), {f.outputs}));
}

}  // namespace

std::vector<double> QNetworkImpl::activation_maxima() const {
  std::vector<double> m;
  for (long l = 0; l < largest_.size(0); ++l) m.push_back(largest_[l].item<double>());
  return m;
}

ref::FloatNetwork QNetworkImpl::to_float_network() {
  torch::NoGradGuard no_grad;
  ref::FloatNetwork n;
  for (torch::nn::Linear& layer : trunk_) n.layers.push_back(to_float(layer->weight, layer->bias));
  // Q_i = w_v.h + b_v + (W_a[i] - mean_j W_a[j]).h + b_a[i] - mean_j b_a[j]
  const auto [w, b] = folded_head();
  n.layers.push_back(to_float(w, b));
  return n;
}

void QNetworkImpl::load_float_network(const ref::FloatNetwork& network) {
  const std::size_t layers = trunk_.size() + 1;
  if (network.layers.size() != layers) {
    throw std::invalid_argument(
        fmt::format("the network has {} layers; this Q-network needs {}", network.layers.size(), layers));
  }
  for (std::size_t l = 0; l < layers; ++l) {
    const ref::FloatLayer& f = network.layers[l];
    const torch::Tensor& w = l < trunk_.size() ? trunk_[l]->weight : advantage_->weight;
    if (f.outputs != w.size(0) || f.inputs != w.size(1) ||
        f.weights.size() != static_cast<std::size_t>(f.outputs * f.inputs) ||
        f.biases.size() != static_cast<std::size_t>(f.outputs)) {
      throw std::invalid_argument(fmt::format("layer {} is {} x {}; this Q-network needs {} x {}", l, f.outputs,
                                              f.inputs, w.size(0), w.size(1)));
    }
  }
  torch::NoGradGuard no_grad;
  for (std::size_t l = 0; l < trunk_.size(); ++l) from_float(network.layers[l], trunk_[l]->weight, trunk_[l]->bias);
  from_float(network.layers.back(), advantage_->weight, advantage_->bias);
  // V = the mean of the output rows: V + A - mean(A) is then the output layer.
  value_->weight.copy_(advantage_->weight.mean(0, /*keepdim=*/true));
  value_->bias.copy_(advantage_->bias.mean().reshape({1}));
}

}  // namespace rlroute::train
