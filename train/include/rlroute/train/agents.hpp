// Agents for evaluating DQN-routing policies behind the routers' agent ports
// (routing.dqn_agent = "external"): a uniformly random policy (the baseline a
// trained network must beat), and a meter that passes decisions to another
// agent and records the rewards the routers report (distance / latency, as in
// [Lonardo 2019]).
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <vector>

#include "rlroute/tb/dqn_agent.hpp"

namespace rlroute::train {

// Each decision: one of the allowed actions, uniformly.
class RandomAgent final : public DqnAgent {
 public:
  explicit RandomAgent(std::uint64_t seed) : rng_(seed) {}
  int act(int router, int episode, std::span<const std::int32_t> observation, std::uint32_t mask) override;

 private:
  std::mt19937_64 rng_;
};

// Passes every decision to `inner` and keeps the rewards.
class RewardMeter final : public DqnAgent {
 public:
  explicit RewardMeter(std::shared_ptr<DqnAgent> inner) : inner_(std::move(inner)) {}
  int act(int router, int episode, std::span<const std::int32_t> observation, std::uint32_t mask) override {
    ++decisions_;
    return inner_->act(router, episode, observation, mask);
  }
  void reward(int router, const DqnReward& r) override;

  std::int64_t decisions() const { return decisions_; }
  std::int64_t rewards() const { return rewards_; }
  double mean_reward() const { return rewards_ > 0 ? sum_ / static_cast<double>(rewards_) : 0; }

 private:
  std::shared_ptr<DqnAgent> inner_;
  std::int64_t decisions_ = 0, rewards_ = 0;
  double sum_ = 0;
};

// The reward of [Lonardo 2019] (equation 3.1): distance / latency, hops per
// cycle.
double dqn_reward(const DqnReward& r);

}  // namespace rlroute::train
