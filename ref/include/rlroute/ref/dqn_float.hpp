// A trained DQN-routing network in floating point, as plain layers: the
// agent's Q-network with its dueling head folded into the last layer
// (train/q_network.hpp), which is the shape the inference block runs, what the
// quantizer (train/quantize.hpp) turns into the block's fixed point, and what
// a weights file keeps beside it (gen/dqn_weights.hpp) so that `rlroute sim
// --float-agent` can run the network as trained.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace rlroute::ref {

struct FloatLayer {
  int inputs = 0;
  int outputs = 0;
  std::vector<float> weights;  // outputs x inputs, row-major: weights[o * inputs + i]
  std::vector<float> biases;
};

struct FloatNetwork {
  std::vector<FloatLayer> layers;  // ReLU after every layer but the last

  // Every layer's outputs for one observation (after ReLU for hidden layers);
  // the last entry is the Q-values.
  std::vector<std::vector<float>> activations(std::span<const float> observation) const;
  std::vector<float> q_values(std::span<const float> observation) const;
  // The argmax of the Q-values over the actions `mask` allows (ties: the
  // lowest index), -1 if none is.
  int action(std::span<const float> observation, std::uint32_t mask) const;
};

// The argmax over the allowed entries of `q` (ties: the lowest index); -1 if none.
int masked_argmax(std::span<const float> q, std::uint32_t mask);

}  // namespace rlroute::ref
