#include "rlroute/train/trainer.hpp"

#include <fmt/format.h>

#include <map>
#include <memory>
#include <random>
#include <stdexcept>

#include "rlroute/gen/dqn_block.hpp"
#include "rlroute/tb/dqn_agent.hpp"
#include "rlroute/train/agents.hpp"
#include "rlroute/train/q_network.hpp"

namespace rlroute::train {

double epsilon_at(const TrainOptions& o, std::int64_t step) {
  if (step < o.anneal_steps && o.init.layers.empty()) {
    return o.epsilon_start + (o.epsilon_mid - o.epsilon_start) * static_cast<double>(step) /
                                 static_cast<double>(o.anneal_steps);
  }
  return step < o.mid_until ? o.epsilon_mid : o.epsilon_final;
}

std::string curve_csv(const std::vector<CurvePoint>& curve) {
  std::string s = "step,epsilon,rewards,mean_reward,loss,updates\n";
  for (const CurvePoint& p : curve) {
    s += fmt::format("{},{:.4f},{},{:.6f},{:.8f},{}\n", p.step, p.epsilon, p.rewards, p.mean_reward, p.loss, p.updates);
  }
  return s;
}

namespace {

// A decision the agent made, waiting for its reward, and a finished one.
struct Transition {
  std::vector<float> observation;
  std::uint32_t mask = 0;
  int action = 0;
  float reward = 0;
};

// The agent behind the routers' agent ports while the network runs.
class LearningAgent final : public DqnAgent {
 public:
  LearningAgent(const DqnBlock& block, const TrainOptions& o, std::function<void(const std::string&)> log)
      : o_(o), log_(std::move(log)), net_(block.sizes.front(),
                                         std::vector<int>(block.sizes.begin() + 1, block.sizes.end() - 1),
                                         block.sizes.back(),
                                         o.quantization_aware
                                             ? QuantizationWidths{block.weight_bits, block.activation_bits}
                                             : QuantizationWidths{}),
        optimizer_(net_->parameters(), torch::optim::AdamOptions(o.learning_rate).eps(o.adam_epsilon)),
        rng_(o.seed), explore_(o.seed ^ 0x9E3779B97F4A7C15ull) {
    replay_.reserve(static_cast<std::size_t>(o.replay_size));
    if (!o.init.layers.empty()) net_->load_float_network(o.init);
  }

  int act(int router, int episode, std::span<const std::int32_t> observation, std::uint32_t mask) override {
    if (mask == 0) return -1;
    const double eps = epsilon_at(o_, steps_);
    std::vector<float> obs(observation.begin(), observation.end());
    int action;
    if (std::uniform_real_distribution<double>(0, 1)(rng_) < eps) {
      action = explore_.act(router, episode, observation, mask);
    } else {
      torch::NoGradGuard no_grad;
      const torch::Tensor q = net_->forward(torch::from_blob(obs.data(), {1, static_cast<long>(obs.size())}).clone());
      const std::vector<float> values(q.data_ptr<float>(), q.data_ptr<float>() + q.numel());
      action = ref::masked_argmax(values, mask);
    }
    if (episode >= 0) pending_[{router, episode}] = {std::move(obs), mask, action, 0};
    ++steps_;
    if (steps_ >= o_.learning_starts && steps_ % o_.train_every == 0 &&
        replay_.size() >= static_cast<std::size_t>(o_.batch_size)) {
      update();
    }
    if (steps_ % o_.curve_every == 0) close_window(eps);
    return action;
  }

  // The reward of [Lonardo 2019]: distance / latency (hops per cycle of the
  // rest of the way).
  void reward(int router, const DqnReward& r) override {
    const auto it = pending_.find({router, static_cast<int>(r.episode)});
    if (it == pending_.end()) {
      throw std::logic_error(fmt::format("train: router {} rewarded episode {}, which the agent never decided",
                                         router, r.episode));
    }
    Transition t = std::move(it->second);
    pending_.erase(it);
    t.reward = static_cast<float>(dqn_reward(r));
    window_reward_ += t.reward;
    ++window_rewards_;
    ++rewards_;
    if (replay_.size() < static_cast<std::size_t>(o_.replay_size)) {
      replay_.push_back(std::move(t));
    } else {
      replay_[next_] = std::move(t);
      next_ = (next_ + 1) % replay_.size();
    }
  }

  TrainResult finish(const DqnBlock& block) {
    TrainResult r;
    r.float_network = net_->to_float_network();
    Calibration cal;
    const std::size_t n = std::min(replay_.size(), static_cast<std::size_t>(o_.calibration));
    for (std::size_t k = 0; k < n; ++k) {
      const Transition& t = replay_[(next_ + replay_.size() - n + k) % replay_.size()];
      cal.observations.emplace_back(t.observation.begin(), t.observation.end());
      cal.masks.push_back(t.mask);
    }
    if (o_.quantization_aware) cal.activation_maxima = net_->activation_maxima();
    if (cal.observations.empty()) {
      throw std::runtime_error("train: no decision was rewarded (no packet asked for an ack, or the run was too short)");
    }
    r.quantized = quantize(r.float_network, block, cal);
    if (o_.quantization_aware) {
      // The network trained is the one the forward pass rounds: the
      // quantized network should act as it does.
      torch::NoGradGuard no_grad;
      std::size_t same = 0;
      for (std::size_t k = 0; k < cal.observations.size(); ++k) {
        std::vector<float> x(cal.observations[k].begin(), cal.observations[k].end());
        const torch::Tensor q = net_->forward(torch::from_blob(x.data(), {1, static_cast<long>(x.size())}).clone());
        const std::vector<float> values(q.data_ptr<float>(), q.data_ptr<float>() + q.numel());
        same += ref::masked_argmax(values, cal.masks[k]) ==
                ref::dqn_infer(r.quantized.network, cal.observations[k], cal.masks[k]).action;
      }
      r.quantized.agreement = static_cast<double>(same) / static_cast<double>(cal.observations.size());
    }
    r.curve = curve_;
    r.steps = steps_;
    r.rewards = rewards_;
    r.updates = updates_;
    return r;
  }

 private:
  void update() {
    const auto b = static_cast<std::size_t>(o_.batch_size);
    const std::size_t inputs = replay_.front().observation.size();
    std::vector<float> obs(b * inputs), rewards(b);
    std::vector<std::int64_t> actions(b);
    std::uniform_int_distribution<std::size_t> pick(0, replay_.size() - 1);
    for (std::size_t k = 0; k < b; ++k) {
      const Transition& t = replay_[pick(rng_)];
      std::copy(t.observation.begin(), t.observation.end(), obs.begin() + static_cast<long>(k * inputs));
      rewards[k] = t.reward;
      actions[k] = t.action;
    }
    const torch::Tensor x = torch::from_blob(obs.data(), {static_cast<long>(b), static_cast<long>(inputs)});
    const torch::Tensor a = torch::from_blob(actions.data(), {static_cast<long>(b), 1}, torch::kInt64);
    const torch::Tensor y = torch::from_blob(rewards.data(), {static_cast<long>(b)});
    // Every transition is terminal (one decision per episode): the target is the reward.
    const torch::Tensor q = net_->forward(x).gather(1, a).squeeze(1);
    const torch::Tensor loss = torch::nn::functional::smooth_l1_loss(q, y);
    optimizer_.zero_grad();
    loss.backward();
    torch::nn::utils::clip_grad_norm_(net_->parameters(), o_.grad_norm_clip);
    optimizer_.step();
    window_loss_ += loss.item<double>();
    ++window_updates_;
    ++updates_;
  }

  void close_window(double eps) {
    CurvePoint p;
    p.step = steps_;
    p.epsilon = eps;
    p.rewards = window_rewards_;
    p.mean_reward = window_rewards_ > 0 ? window_reward_ / static_cast<double>(window_rewards_) : 0;
    p.loss = window_updates_ > 0 ? window_loss_ / static_cast<double>(window_updates_) : 0;
    p.updates = updates_;
    curve_.push_back(p);
    if (log_) {
      log_(fmt::format("step {:>8}  epsilon {:.3f}  rewards {:>6}  mean reward {:.4f}  loss {:.6f}", p.step, p.epsilon,
                       p.rewards, p.mean_reward, p.loss));
    }
    window_reward_ = window_loss_ = 0;
    window_rewards_ = window_updates_ = 0;
  }

  const TrainOptions& o_;
  std::function<void(const std::string&)> log_;
  QNetwork net_;
  torch::optim::Adam optimizer_;
  std::mt19937_64 rng_;
  RandomAgent explore_;  // epsilon's random actions
  std::map<std::pair<int, int>, Transition> pending_;  // (router, episode)
  std::vector<Transition> replay_;
  std::size_t next_ = 0;  // the oldest transition once the buffer is full
  std::int64_t steps_ = 0, rewards_ = 0, updates_ = 0;
  std::vector<CurvePoint> curve_;
  double window_reward_ = 0, window_loss_ = 0;
  std::int64_t window_rewards_ = 0, window_updates_ = 0;
};

}  // namespace

void check_trainable(const Config& cfg) {
  if (cfg.algorithm != RoutingAlgorithm::Dqn) {
    throw std::invalid_argument(fmt::format("{}: routing.algorithm = \"{}\": rlroute train trains DQN-routing's "
                                            "agent; the config must say \"dqn\"",
                                            cfg.where("routing.algorithm"), to_string(cfg.algorithm)));
  }
  if (cfg.dqn_ack_ratio == 0) {
    throw std::invalid_argument(fmt::format("{}: routing.dqn_ack_ratio = 0: no packet asks for an ack, so no reward "
                                            "comes; training needs 1 or more",
                                            cfg.where("routing.dqn_ack_ratio")));
  }
  if (cfg.dqn_episodes == 0) {
    throw std::invalid_argument(fmt::format("{}: routing.dqn_episodes = 0: no pending-episode table, so no ack and no "
                                            "reward comes; training needs 1 or more entries",
                                            cfg.where("routing.dqn_episodes")));
  }
}

TrainResult train_dqn(const Simulator& simulator, const TrainOptions& options,
                      const std::function<void(const std::string&)>& log) {
  const Design& d = simulator.design();
  check_trainable(d.cfg);
  if (d.cfg.dqn_agent != DqnAgentKind::External) {
    throw std::invalid_argument("train: the simulator's design must have routing.dqn_agent = \"external\" (the "
                                "agent on the routers' agent ports)");
  }
  torch::manual_seed(options.seed);
  torch::set_num_threads(1);
  const DqnBlock block = dqn_block(d.cfg);
  auto agent = std::make_shared<LearningAgent>(block, options, log);
  SimOptions sim = options.sim;
  sim.dqn_agent = agent;
  sim.dqn_network = nullptr;
  const SimResult run = simulator.run(sim);
  if (!run.ok()) {  // the failure is the result; there is nothing to quantize
    TrainResult failed;
    failed.sim = run;
    return failed;
  }
  TrainResult r = agent->finish(block);
  r.sim = run;
  return r;
}

}  // namespace rlroute::train
