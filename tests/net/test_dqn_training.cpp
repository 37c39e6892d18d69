// DQN-routing's agent trained in the loop (rlroute train; docs/dqn.md,
// "Training"): on the 4x4 torus under uniform traffic the trained network,
// quantized into the block's fixed point, routes better than a policy that
// picks its channel at random: a larger mean reward (distance / latency, the
// quantity it learns) and fewer hops, with every check on during training
// and evaluation.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "bench.hpp"
#include "rlroute/tb/simulator.hpp"
#include "rlroute/train/agents.hpp"
#include "rlroute/train/trainer.hpp"

using namespace rlroute;
using namespace rlroute::test;
using namespace rlroute::train;

namespace {

const char* kTorus = R"(
[design]
name = "net_dqn4x4_train"
[topology]
kind = "torus"
dims = [4, 4]
[router]
vcs = 3
buffer_flits = 8
flit_bits = 64
max_packet_flits = 4
[routing]
algorithm = "dqn"
dqn_agent = "external"
)";

struct Evaluation {
  double mean_reward = 0;
  double hops = 0;
  double latency = 0;
};

Evaluation evaluate(const Simulator& simulator, std::shared_ptr<DqnAgent> policy) {
  auto meter = std::make_shared<RewardMeter>(std::move(policy));
  SimOptions o = run_options(0.3, 500, 3000);
  o.seed = 2;
  o.dqn_agent = meter;
  const SimResult r = simulator.run(o);
  expect_clean(r);
  EXPECT_GT(meter->rewards(), 1000);
  return {meter->mean_reward(), r.avg_hops, r.latency.avg};
}

}  // namespace

TEST(DqnTraining, ATrainedAgentBeatsARandomPolicy) {
  const Simulator simulator(parse_config(kTorus, "test.toml"), FabricKind::Harness);
  TrainOptions o;
  o.sim = run_options(0.3, 0, 20000, 0);
  o.seed = 1;
  const TrainResult t = train_dqn(simulator, o);
  expect_clean(t.sim);
  ASSERT_GT(t.steps, 40000);
  EXPECT_GT(t.updates, 9000);
  ASSERT_GE(t.curve.size(), 40u);
  EXPECT_GT(t.curve.back().mean_reward, t.curve.front().mean_reward * 1.2) << "the reward rises while it learns";
  EXPECT_GT(t.quantized.agreement, 0.9);

  const Evaluation trained = evaluate(simulator, std::make_shared<FixedPointAgent>(t.quantized.network));
  const Evaluation random = evaluate(simulator, std::make_shared<RandomAgent>(5));
  std::cout << "trained: reward " << trained.mean_reward << " hops " << trained.hops << " latency " << trained.latency
            << "; random: reward " << random.mean_reward << " hops " << random.hops << " latency " << random.latency
            << "\n";
  EXPECT_GT(trained.mean_reward, random.mean_reward * 1.3);
  EXPECT_LT(trained.hops, random.hops * 0.8);
  EXPECT_LT(trained.latency, random.latency);
}
