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

class QNetworkImpl : public torch::nn::Module {
 public:
  QNetworkImpl(int inputs, const std::vector<int>& hidden, int actions);
  // Q-values, [batch, actions], for observations [batch, inputs].
  torch::Tensor forward(torch::Tensor observations);
  // The same function as plain layers, the dueling head folded into the last.
  ref::FloatNetwork to_float_network();
  // Sets the parameters so that the network computes `network` (a folded
  // network of this one's shape, as to_float_network gives): the trunk as
  // given, the advantage stream the output layer and the value stream its
  // mean, which the dueling head subtracts again. Throws
  // std::invalid_argument, naming the layer, if a shape differs.
  void load_float_network(const ref::FloatNetwork& network);

 private:
  std::vector<torch::nn::Linear> trunk_;
  torch::nn::Linear value_{nullptr}, advantage_{nullptr};
};
TORCH_MODULE(QNetwork);

}  // namespace rlroute::train
