// The agent's Q-network (PyTorch's C++ API): a multilayer perceptron over the
// observation (ReLU hidden layers of routing.dqn_hidden's sizes) with a
// dueling head, Q = V(h) + A(h) - mean(A(h)) on the last hidden layer h
// (Wang et al., as the agent of [Lonardo 2019]; docs/dqn.md, "Training"). Both
// streams are linear, so the head folds exactly into one output layer: the
// network the inference block runs (to_float_network).
#pragma once

#include <torch/torch.h>

#include <vector>

#include "rlroute/ref/dqn_float.hpp"

namespace rlroute::train {

// Quantization-aware training (the block's widths given): the forward pass
// computes what the block will, as train::quantize maps the network onto it
// (docs/dqn.md, "Quantization-aware training"): every layer's weights, the
// dueling head folded first for the last one, rounded to weight_bits with
// the layer's scale (its largest weight / (2^(weight_bits-1) - 1)), and every
// hidden activation rounded and saturated to activation_bits with the
// power-of-two scale quantize chooses from the largest activation (a running
// maximum of the training batches stands in for the calibration set's).
// Gradients pass the rounding unchanged (straight-through).
struct QuantizationWidths {
  int weight_bits = 0;  // 0: no quantization (a floating-point network)
  int activation_bits = 0;
};

class QNetworkImpl : public torch::nn::Module {
 public:
  QNetworkImpl(int inputs, const std::vector<int>& hidden, int actions, QuantizationWidths widths = {});
  // Q-values, [batch, actions], for observations [batch, inputs]. A forward
  // pass with gradients on (training) updates the running maxima.
  torch::Tensor forward(torch::Tensor observations);
  // The same function as plain layers, the dueling head folded into the last.
  ref::FloatNetwork to_float_network();
  // Sets the parameters so that the network computes `network` (a folded
  // network of this one's shape, as to_float_network gives): the trunk as
  // given, the advantage stream the output layer and the value stream its
  // mean, which the dueling head subtracts again. Throws
  // std::invalid_argument, naming the layer, if a shape differs.
  void load_float_network(const ref::FloatNetwork& network);
  // Quantization-aware training: each hidden layer's largest activation as
  // the forward pass scales it (Calibration::activation_maxima).
  std::vector<double> activation_maxima() const;

 private:
  // The output layer's weights and biases, the dueling head folded.
  std::pair<torch::Tensor, torch::Tensor> folded_head();

  std::vector<torch::nn::Linear> trunk_;
  torch::nn::Linear value_{nullptr}, advantage_{nullptr};
  QuantizationWidths widths_;
  torch::Tensor largest_;  // per hidden layer: the running maximum of its activations

};
TORCH_MODULE(QNetwork);

}  // namespace rlroute::train
