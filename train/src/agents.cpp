#include "rlroute/train/agents.hpp"

#include <algorithm>

namespace rlroute::train {

int RandomAgent::act(int /*router*/, int /*episode*/, std::span<const std::int32_t> /*observation*/,
                     std::uint32_t mask) {
  std::vector<int> allowed;
  for (int a = 0; a < 32; ++a) {
    if ((mask >> a) & 1u) allowed.push_back(a);
  }
  if (allowed.empty()) return -1;
  return allowed[std::uniform_int_distribution<std::size_t>(0, allowed.size() - 1)(rng_)];
}

void RewardMeter::reward(int router, const DqnReward& r) {
  ++rewards_;
  sum_ += dqn_reward(r);
  inner_->reward(router, r);
}

double dqn_reward(const DqnReward& r) {
  return static_cast<double>(r.distance) / static_cast<double>(std::max<std::uint32_t>(1, r.latency));
}

}  // namespace rlroute::train
