// A DQN-routing agent outside the routers (routing.dqn_agent = "external"):
// the fabric passes every decision a router starts on its agent port
// (rr_dqn_unit) to act() and returns the action in the same cycle, so the
// decision costs no inference time, as in the simulator of [Lonardo 2019]; and
// every reward a router reports (rr_dqn_episode_unit) to reward(), in the cycle
// its ack arrives.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "rlroute/ref/dqn_float.hpp"
#include "rlroute/ref/dqn_inference.hpp"
#include "rlroute/tb/model.hpp"

namespace rlroute {

class DqnAgent {
 public:
  virtual ~DqnAgent() = default;
  // The action (0..actions-1: the router's network ports in order) for a
  // decision at `router`, or -1 for none (the packet escapes to DOR);
  // `mask` has a bit per action the agent may take. `episode` is the
  // router's pending-episode entry for the packet (-1: none, no reward will
  // come): if the router takes the action, the entry's reward reports it.
  virtual int act(int router, int episode, std::span<const std::int32_t> observation, std::uint32_t mask) = 0;
  // The reward of a decided episode of `router` (DqnReward: distance and
  // latency; the reward of [Lonardo 2019] is distance / latency). The entry is
  // free again after this, so a later act() may name the same episode.
  virtual void reward(int /*router*/, const DqnReward& /*reward*/) {}
};

// The fixed-point network in software (ref::dqn_infer): the actions the
// inference block would give, without its latency.
class FixedPointAgent final : public DqnAgent {
 public:
  explicit FixedPointAgent(ref::DqnNetwork network) : network_(std::move(network)) { network_.validate(); }
  int act(int /*router*/, int /*episode*/, std::span<const std::int32_t> observation, std::uint32_t mask) override {
    ++decisions_;
    return ref::dqn_infer(network_, observation, mask).action;
  }
  std::int64_t decisions() const { return decisions_; }

 private:
  ref::DqnNetwork network_;
  std::int64_t decisions_ = 0;
};

// The floating-point network as trained (rlroute sim --float-agent): the
// greedy action of its Q-values on the observation as floats, which is what
// the trainer's network does when it does not explore.
class FloatAgent final : public DqnAgent {
 public:
  explicit FloatAgent(ref::FloatNetwork network) : network_(std::move(network)) {}
  int act(int /*router*/, int /*episode*/, std::span<const std::int32_t> observation, std::uint32_t mask) override {
    observation_.assign(observation.begin(), observation.end());
    return network_.action(observation_, mask);
  }

 private:
  ref::FloatNetwork network_;
  std::vector<float> observation_;
};

}  // namespace rlroute
