// Training DQN-routing's agent in the loop (rlroute train; docs/dqn.md,
// "Training"): the Verilated network runs with the agent outside the routers
// (routing.dqn_agent = "external"), a floating-point Q-network behind the
// agent port acting epsilon-greedily; every reward a router reports (the ack
// of a decided episode: distance / latency, [Lonardo 2019], equation 3.1)
// completes a transition in the replay buffer, and Adam trains the network on
// batches from it. At the end the network is folded and quantized for the
// block.
//
// The episodes of [Lonardo 2019] are one decision long (Algorithm 2 starts an
// episode and asks for one action, Algorithm 3 logs its reward and ends it), so
// every transition is terminal: the target of a transition is its reward, and
// the bootstrap term through which a target network and double DQN act is zero.
// They are therefore not part of the update (docs/dqn.md, "Interpretations").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "rlroute/tb/simulator.hpp"
#include "rlroute/tb/simulation.hpp"
#include "rlroute/ref/dqn_float.hpp"
#include "rlroute/train/quantize.hpp"

namespace rlroute::train {

// The agent settings of [Lonardo 2019] (appendix A.1, RLlib's DQN with these
// values) unless noted.
struct TrainOptions {
  SimOptions sim;  // the traffic and the run's length; the trainer sets the agent
  double learning_rate = 5e-4;
  double adam_epsilon = 1e-8;
  double grad_norm_clip = 40;
  int replay_size = 50000;
  int batch_size = 32;
  std::int64_t learning_starts = 1000;  // steps (decisions) before the first update
  int train_every = 4;                  // steps per gradient step (RLlib's sample_batch_size)
  // Epsilon: start -> mid linearly over anneal_steps, mid until mid_until, then final.
  double epsilon_start = 1.0, epsilon_mid = 0.1, epsilon_final = 0.02;
  std::int64_t anneal_steps = 10000, mid_until = 100000;
  std::int64_t curve_every = 1000;  // steps per training-curve row
  int calibration = 5000;           // observations the quantizer calibrates on
  // Train the network as the block computes it (QNetworkImpl's quantization-
  // aware forward pass), or in floating point, quantized only at the end.
  bool quantization_aware = true;
  std::uint64_t seed = 1;
  // The network training starts from (rlroute train --init: the
  // pre-training of [Lonardo 2019], or a curriculum over loads); none:
  // PyTorch's random initialisation. It must have the block's layer shapes.
  ref::FloatNetwork init;
};

// The epsilon of step `step` (0-based) under the options' schedule. A network
// that starts trained (options.init) explores at epsilon_mid from the first
// step: the anneal from epsilon_start is for a network that knows nothing.
double epsilon_at(const TrainOptions& o, std::int64_t step);

struct CurvePoint {
  std::int64_t step = 0;     // decisions so far
  double epsilon = 0;
  std::int64_t rewards = 0;  // rewards in the window
  double mean_reward = 0;    // their mean (distance / latency)
  double loss = 0;           // mean loss of the window's gradient steps
  std::int64_t updates = 0;  // gradient steps so far
};

struct TrainResult {
  ref::FloatNetwork float_network;  // the trained network, dueling head folded
  Quantized quantized;         // its fixed point for the block
  std::vector<CurvePoint> curve;
  std::int64_t steps = 0, rewards = 0, updates = 0;
  SimResult sim;  // the training run (its checks included)
};

// Throws std::invalid_argument, one line naming the key, if `cfg` cannot be
// trained: not routing.algorithm = "dqn", or no packet asks for an ack
// (routing.dqn_ack_ratio = 0) or no router has an episode table
// (routing.dqn_episodes = 0), so no reward would come.
void check_trainable(const Config& cfg);

// `simulator` must be a DQN design with the agent outside
// (routing.dqn_agent = "external"). Throws std::invalid_argument otherwise.
// `log` gets a progress line per curve row (may be empty). If the training
// run fails a check, the result holds only that run (sim.failure).
TrainResult train_dqn(const Simulator& simulator, const TrainOptions& options,
                      const std::function<void(const std::string&)>& log = {});

// The curve as CSV: step,epsilon,rewards,mean_reward,loss,updates.
std::string curve_csv(const std::vector<CurvePoint>& curve);

}  // namespace rlroute::train
