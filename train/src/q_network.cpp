#include "rlroute/train/q_network.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace rlroute::train {

QNetworkImpl::QNetworkImpl(int inputs, const std::vector<int>& hidden, int actions) {
  int width = inputs;
  for (std::size_t l = 0; l < hidden.size(); ++l) {
    trunk_.push_back(register_module("hidden" + std::to_string(l), torch::nn::Linear(width, hidden[l])));
    width = hidden[l];
  }
  value_ = register_module("value", torch::nn::Linear(width, 1));
  advantage_ = register_module("advantage", torch::nn::Linear(width, actions));
}

torch::Tensor QNetworkImpl::forward(torch::Tensor x) {
  for (torch::nn::Linear& layer : trunk_) x = torch::relu(layer->forward(x));
  const torch::Tensor a = advantage_->forward(x);
  return value_->forward(x) + a - a.mean(1, /*keepdim=*/true);
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

ref::FloatNetwork QNetworkImpl::to_float_network() {
  torch::NoGradGuard no_grad;
  ref::FloatNetwork n;
  for (torch::nn::Linear& layer : trunk_) n.layers.push_back(to_float(layer->weight, layer->bias));
  // Q_i = w_v.h + b_v + (W_a[i] - mean_j W_a[j]).h + b_a[i] - mean_j b_a[j]
  const torch::Tensor wa = advantage_->weight, ba = advantage_->bias;
  const torch::Tensor w = value_->weight + wa - wa.mean(0, /*keepdim=*/true);
  const torch::Tensor b = value_->bias + ba - ba.mean();
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
