#include "rlroute/ref/dqn_float.hpp"

#include <algorithm>
#include <stdexcept>

namespace rlroute::ref {

std::vector<std::vector<float>> FloatNetwork::activations(std::span<const float> observation) const {
  std::vector<std::vector<float>> out;
  std::vector<float> x(observation.begin(), observation.end());
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const FloatLayer& layer = layers[l];
    if (static_cast<int>(x.size()) != layer.inputs) throw std::invalid_argument("FloatNetwork: input size mismatch");
    std::vector<float> y(static_cast<std::size_t>(layer.outputs));
    for (int o = 0; o < layer.outputs; ++o) {
      float sum = layer.biases[static_cast<std::size_t>(o)];
      for (int i = 0; i < layer.inputs; ++i) {
        sum += layer.weights[static_cast<std::size_t>(o * layer.inputs + i)] * x[static_cast<std::size_t>(i)];
      }
      y[static_cast<std::size_t>(o)] = l + 1 < layers.size() ? std::max(0.0f, sum) : sum;
    }
    out.push_back(y);
    x = std::move(y);
  }
  return out;
}

std::vector<float> FloatNetwork::q_values(std::span<const float> observation) const {
  return activations(observation).back();
}

int FloatNetwork::action(std::span<const float> observation, std::uint32_t mask) const {
  const std::vector<float> q = q_values(observation);
  return masked_argmax(q, mask);
}

int masked_argmax(std::span<const float> q, std::uint32_t mask) {
  int best = -1;
  for (std::size_t a = 0; a < q.size(); ++a) {
    if (((mask >> a) & 1u) == 0) continue;
    if (best < 0 || q[a] > q[static_cast<std::size_t>(best)]) best = static_cast<int>(a);
  }
  return best;
}

}  // namespace rlroute::ref
