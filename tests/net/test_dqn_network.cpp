// DQN-routing in the network (routing.algorithm = "dqn", docs/dqn.md): the
// inference block in every router, programmed through the programming port
// after reset. A directed network whose Q-values never change (it always
// proposes +x) makes every path known: round the x ring until the hop
// threshold, then DOR with Pdor; overload with an untrained random network
// and every check on; the route checker on a DQN hop past the threshold; an
// agent outside the routers on their agent ports; and the generated network
// top against the harness, with the block and with the agent outside.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <span>
#include <memory>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include "bench.hpp"
#include "rlroute/gen/dqn_block.hpp"
#include "rlroute/gen/dqn_weights.hpp"
#include "rlroute/gen/emit.hpp"
#include "rlroute/gen/pipeline.hpp"
#include "rlroute/gen/routing_dqn.hpp"

using namespace rlroute;
using namespace rlroute::test;

namespace {

// A k x k torus (k1 x k with k1 given) with DQN-routing.
std::string torus(const std::string& name, int k, const std::string& extra_routing = "", int k1 = 0) {
  return R"(
[design]
name = ")" + name + R"("
[topology]
kind = "torus"
dims = [)" + std::to_string(k) + ", " + std::to_string(k1 > 0 ? k1 : k) + R"(]
[router]
vcs = 3
buffer_flits = 8
flit_bits = 64
max_packet_flits = 4
[routing]
algorithm = "dqn"
dqn_hidden = [16]
)" + extra_routing;
}

// A network of the design's shape whose Q-values are its last layer's
// biases: output `action` 1, the others 0, whatever the observation.
std::shared_ptr<const ref::DqnNetwork> constant_action(const Design& d, int action) {
  ref::DqnNetwork n = dqn_block(d.cfg).zero_network();
  n.layers.back().biases[static_cast<size_t>(action)] = 1;
  return std::make_shared<const ref::DqnNetwork>(n);
}

// The paths of a packet from router `src` to router `dst` of a k x k torus
// under an agent that always proposes +x: +x while the packet is not at its
// destination and below the threshold (each such hop a decision), then
// DOR's hops. A packet may leave the +x walk early, at any router of it, when
// the DQN VC there is taken (then DOR with Pdor): `escapes` holds the hop
// counts of those paths.
struct PlusXPath {
  int hops = 0;     // taking +x at every router until the threshold
  int decided = 0;  // of which +x hops (decisions that took the agent's port)
  std::vector<int> escapes;
};

PlusXPath plus_x_path(const Topology& t, int src, int dst, int threshold) {
  std::vector<int> at = t.coords(src);
  const std::vector<int> to = t.coords(dst);
  const int k = t.radix(0);
  const auto dor_hops = [&](const std::vector<int>& from) {
    int hops = 0;
    for (int d = 0; d < 2; ++d) {
      const int fwd = (to[d] - from[d] + k) % k;
      hops += std::min(fwd, k - fwd);
    }
    return hops;
  };
  PlusXPath p;
  while (at != to && p.decided < threshold) {
    p.escapes.push_back(p.decided + dor_hops(at));
    at[0] = (at[0] + 1) % k;
    ++p.decided;
  }
  p.hops = p.decided + dor_hops(at);
  return p;
}

// A packet arrives with Pdor set if the threshold ended its +x hops, or if it
// escaped to DOR on the way (its hop count then one of the escapes'), and
// without it if it reached its destination by +x alone.
void expect_pdor_as_on_its_path(const DeliveredPacket& p, const PlusXPath& want, int threshold) {
  const bool escaped = std::find(want.escapes.begin(), want.escapes.end(), p.hops) != want.escapes.end();
  if (want.decided == threshold || p.hops != want.hops) {
    EXPECT_TRUE(p.pdor) << p.src << "->" << p.dst << ": " << p.hops << " hops, DOR without Pdor";
  } else if (!escaped) {
    EXPECT_FALSE(p.pdor) << p.src << "->" << p.dst << ": Pdor on the +x path";
  }
}

}  // namespace

// At 0.5% load a packet seldom meets another, so its DQN VC is free and the
// agent's +x is taken at every router before the threshold: almost every
// packet takes exactly plus_x_path's hops, and every packet takes that path
// or leaves it for DOR at one of its routers. So the programmed network, the
// threshold and the escape to DOR with Pdor act as docs/dqn.md says. Each
// decided hop costs the inference's latency L plus two cycles (the answer to
// the head's next presentation after done, and the registered decision): a
// packet's latency is at least the zero-load formula plus that per decided
// hop when it met no other packet (exactly that for many packets; never
// less than the zero-load formula: a head may be answered at once when the
// head before it at that input port, with the same destination and length,
// left its answer there, rtl/rr_dqn_unit.sv).
// The parallel block (the default), the tiled one with 4 x 4 multipliers per
// layer, and the parallel one with the network built in (constant weights).
void expect_plus_x_paths(Bench& b, std::shared_ptr<const ref::DqnNetwork> network) {
  SimOptions o = run_options(0.005, 200, 20000);
  o.dqn_network = std::move(network);
  const SimResult r = b.run(o);
  expect_clean(r);
  ASSERT_GT(r.packets.size(), 300u);
  const Topology& t = b.design.topo;
  const int threshold = b.design.cfg.dqn_hop_threshold;
  ASSERT_EQ(threshold, 8) << "twice the diameter of the 4x4 torus";
  const int per_decision = dqn_block(b.design.cfg).latency_cycles() + 2;
  int whole = 0;
  std::map<int, int> exact;  // decided hops -> packets exactly at the formula
  for (const DeliveredPacket& p : r.packets) {
    const PlusXPath want = plus_x_path(t, t.router_of_node(p.src), t.router_of_node(p.dst), threshold);
    expect_pdor_as_on_its_path(p, want, threshold);
    const auto latency = static_cast<int>(p.ejected - p.injected);
    if (p.hops != want.hops) {
      EXPECT_NE(std::find(want.escapes.begin(), want.escapes.end(), p.hops), want.escapes.end())
          << p.src << "->" << p.dst << ": " << p.hops << " hops";
      continue;
    }
    ++whole;
    const int formula = zero_load_latency(p.hops, 1, p.length, SwitchAllocation::AfterVc) + want.decided * per_decision;
    EXPECT_GE(latency, zero_load_latency(p.hops, 1, p.length, SwitchAllocation::AfterVc)) << p.src << "->" << p.dst;
    if (latency == formula) ++exact[want.decided];
  }
  EXPECT_GT(whole, static_cast<int>(r.packets.size() * 85 / 100));
  std::int64_t measured = 0, pdor = 0;
  for (const DeliveredPacket& p : r.packets) {
    measured += p.measured;
    pdor += p.measured && p.pdor;
  }
  EXPECT_DOUBLE_EQ(r.dqn_pdor_share, static_cast<double>(pdor) / static_cast<double>(measured));
  EXPECT_GT(r.dqn_pdor_share, 0.5) << "12 of 15 destinations are off the source's row";
  // +x reaches a destination in the same row after 1..3 hops; any other one
  // takes all 8 +x hops (twice round the ring) and then DOR.
  for (const int decided : {1, 2, 3, 8}) {
    EXPECT_GT(exact[decided], 0) << decided << " decided hops: no packet exactly at the formula";
  }
}

TEST(DqnNetwork, AnAgentThatAlwaysProposesPlusXGoesRoundTheRingUntilTheThresholdThenDor) {
  Bench b(torus("net_dqn4x4", 4));
  ASSERT_EQ(dqn_block(b.design.cfg).latency_cycles(), 4) << "the parallel block: two layers";
  expect_plus_x_paths(b, constant_action(b.design, 0));
}

TEST(DqnNetwork, TheTiledBlockTakesThePlusXPathsWithItsLatency) {
  Bench b(torus("net_dqn4x4_tiled", 4, "dqn_block = \"tiled\"\ndqn_npar = 4\ndqn_ipar = 4\n"));
  ASSERT_EQ(dqn_block(b.design.cfg).latency_cycles(), (4 * 4 + 3) + (1 * 4 + 3) + 3);
  expect_plus_x_paths(b, constant_action(b.design, 0));
}

// Constant weights: the always-+x network written to a weights file that the
// generated RTL is built with; the run names that network and programs nothing.
TEST(DqnNetwork, ConstantWeightsBuiltIntoTheRtlTakeThePlusXPaths) {
  const Bench shape(torus("net_dqn4x4", 4));
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "rlroute_dqn_constant_plus_x";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "plus_x.weights.json";
  std::filesystem::remove(file);
  write_dqn_weights(file, *constant_action(shape.design, 0));
  Bench b(torus("net_dqn4x4_const", 4,
                "dqn_weights_mode = \"constant\"\ndqn_weights = \"" + file.string() + "\"\n"));
  ASSERT_EQ(b.emitted.files.count("rtl/rr_dqn_infer_parallel.sv"), 1u);
  ASSERT_NE(b.emitted.files.at("net_dqn4x4_const_pkg.sv").find("DQN_WEIGHTS"), std::string::npos);
  expect_plus_x_paths(b, constant_action(b.design, 0));
  // Another network than the one built in is refused.
  SimOptions o = run_options(0.005, 0, 100);
  o.dqn_network = constant_action(b.design, 1);
  try {
    b.run(o);
    ADD_FAILURE() << "a network other than the built-in one ran";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("is not the one built into the RTL"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

// 20,000 cycles at a load of 1.0 with an untrained random network: nothing
// lost, duplicated, corrupted or misrouted (the route checker holds every
// hop, Pdor and hop count included, to the DQN relation), no deadlock.
TEST(DqnNetwork, OverloadWithARandomNetworkDeliversEverything) {
  Bench b(torus("net_dqn4x4", 4));
  SimOptions o = run_options(1.0, 0, 20000, 0);
  o.dqn_network = std::make_shared<const ref::DqnNetwork>(random_dqn_network(dqn_block(b.design.cfg), 7));
  const SimResult r = b.run(o);
  expect_clean(r);
  EXPECT_GT(r.packets.size(), 1000u);
}

// Without the pending-episode table (routing.dqn_episodes = 0, the
// inference-only router): no ack field on the credit channel and no episode
// unit in the RTL, and the same overload with every check on.
TEST(DqnNetwork, WithoutAnEpisodeTableOverloadDeliversEverything) {
  Bench b(torus("net_dqn4x4_e0", 4, "dqn_episodes = 0\n"));
  ASSERT_EQ(b.design.link.feedback_bits, 0) << "no ack words on the credit channel";
  ASSERT_EQ(b.emitted.files.count("rtl/rr_dqn_episode_unit.sv"), 0u);
  SimOptions o = run_options(1.0, 0, 5000, 0);
  o.dqn_network = std::make_shared<const ref::DqnNetwork>(random_dqn_network(dqn_block(b.design.cfg), 7));
  const SimResult r = b.run(o);
  expect_clean(r);
  EXPECT_GT(r.packets.size(), 500u);
}

// The route unit keeping the DQN VC open for four hops past the threshold:
// the always-+x agent then takes a DQN hop the relation forbids, and the
// route checker names it.
TEST(DqnNetwork, RouteCheckerFailsOnADqnHopPastTheThreshold) {
  Bench b(torus("net_dqn4x4", 4));
  EmittedDesign e = b.emitted;
  std::string& text = e.files.at("rtl/rr_route_dor.sv");
  const std::string from = "(hdr_i[HOPS_LSB+:HOPS_W] < HOPS_W'(HOP_THRESHOLD))";
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "(hdr_i[HOPS_LSB+:HOPS_W] < HOPS_W'(HOP_THRESHOLD + 4))");
  e.hash = content_hash({{"rtl", b.emitted.hash}, {"broken", "DQN hops past the threshold"}});
  const ModelFactory factory = load_model(b.design, e, ModelKind::Router);
  HarnessFabric fabric(b.design, *b.relation, factory);
  SimOptions o = run_options(0.05, 0, 3000, 2000);
  o.dqn_network = constant_action(b.design, 0);
  const SimResult r = run_simulation(b.design, *b.relation, fabric, o);
  EXPECT_EQ(r.failure.rfind("route checker: router ", 0), 0u) << r.failure;
  EXPECT_NE(r.failure.find("the dqn relation allows"), std::string::npos) << r.failure;
}

// An agent outside the routers that always proposes +x (port NUM_NI).
class PlusXAgent final : public DqnAgent {
 public:
  int act(int /*router*/, int /*episode*/, std::span<const std::int32_t> observation, std::uint32_t mask) override {
    ++decisions;
    EXPECT_EQ(observation.size(), 13u);
    return (mask & 1u) ? 0 : -1;
  }
  std::int64_t decisions = 0;
};

// routing.dqn_agent = "external": the routers' agent port goes to a
// test-bench agent that answers in the cycle of the request, so a decided
// hop costs 2 cycles (the answer to the head's next presentation, the
// registered decision) instead of the block's L + 2. With the always-+x
// agent the paths are those of the block's test, and at 1% load most
// packets' latencies are exactly the zero-load formula + 2 per decided hop.
TEST(DqnNetwork, AnAgentOutsideTheRoutersAnswersInTheCycleOfTheRequest) {
  Bench b(torus("net_dqn4x4_ext", 4, "dqn_agent = \"external\"\n"));
  SimOptions o = run_options(0.01, 200, 10000);
  auto agent = std::make_shared<PlusXAgent>();
  o.dqn_agent = agent;
  const SimResult r = b.run(o);
  expect_clean(r);
  ASSERT_GT(r.packets.size(), 300u);
  const Topology& t = b.design.topo;
  const int threshold = b.design.cfg.dqn_hop_threshold;
  int whole = 0, decided_hops = 0;
  std::map<int, int> exact;
  for (const DeliveredPacket& p : r.packets) {
    const PlusXPath want = plus_x_path(t, t.router_of_node(p.src), t.router_of_node(p.dst), threshold);
    expect_pdor_as_on_its_path(p, want, threshold);
    if (p.hops != want.hops) {
      EXPECT_NE(std::find(want.escapes.begin(), want.escapes.end(), p.hops), want.escapes.end())
          << p.src << "->" << p.dst << ": " << p.hops << " hops";
      continue;
    }
    ++whole;
    decided_hops += want.decided;
    const auto latency = static_cast<int>(p.ejected - p.injected);
    if (latency == zero_load_latency(p.hops, 1, p.length, SwitchAllocation::AfterVc) + 2 * want.decided) ++exact[want.decided];
  }
  EXPECT_GT(whole, static_cast<int>(r.packets.size() * 85 / 100));
  for (const int decided : {1, 2, 3, 8}) EXPECT_GT(exact[decided], 0) << decided << " decided hops";
  EXPECT_GE(agent->decisions, decided_hops) << "every decided hop was the agent's";
}

// `--threads` with an agent outside the routers: the routers settle on their
// threads, the agent answers them one by one on the calling thread, and the
// results are those of one thread.
TEST(DqnNetwork, AnAgentOutsideGivesIdenticalResultsAtEveryThreadCount) {
  Bench b(torus("net_dqn4x4_ext", 4, "dqn_agent = \"external\"\n"));
  SimOptions o = run_options(0.3, 100, 1500);
  o.dqn_network = std::make_shared<const ref::DqnNetwork>(random_dqn_network(dqn_block(b.design.cfg), 3));
  const SimResult r = expect_same_at_every_thread_count(b, o);
  EXPECT_GT(r.packets_delivered, 500);
}

// routing.dqn_fallback = "hop": a packet whose +x DQN VC is taken goes one
// DOR hop on the escape VCs and is offered the DQN VC again at the next
// router, so Pdor comes from the hop threshold alone: a packet arrives with
// Pdor exactly when it took more hops than the threshold (under the rule of
// [Lonardo 2019] the escapes of this load would arrive with Pdor and fewer
// hops). The route checker holds every hop, Pdor included, to the hop relation.
TEST(DqnNetwork, AHopFallbackSetsPdorOnlyAtTheThreshold) {
  Bench b(torus("net_dqn4x4_ext_hop", 4, "dqn_agent = \"external\"\ndqn_fallback = \"hop\"\n"));
  SimOptions o = run_options(0.3, 200, 3000);
  auto agent = std::make_shared<PlusXAgent>();
  o.dqn_agent = agent;
  const SimResult r = b.run(o);
  expect_clean(r);
  ASSERT_GT(r.packets.size(), 1000u);
  const int threshold = b.design.cfg.dqn_hop_threshold;
  int fell_back = 0;
  for (const DeliveredPacket& p : r.packets) {
    EXPECT_EQ(p.pdor, p.hops > threshold) << p.src << "->" << p.dst << ": " << p.hops << " hops";
    const Topology& t = b.design.topo;
    fell_back += p.hops != plus_x_path(t, t.router_of_node(p.src), t.router_of_node(p.dst), threshold).hops;
  }
  EXPECT_GT(fell_back, 50) << "the load makes packets fall back";
}

// routing.dqn_dor_vcs = "all": the DOR hops may take the DQN VC when it is
// free. Under the always-+x agent at 0.3 packets fall back to DOR (and stay
// Pdor); the network delivers everything with every hop the relation's, and
// the same RTL checked against the relation of "escape" fails at the first
// DOR hop on the DQN VC, so the RTL does take them.
TEST(DqnNetwork, DorHopsOnTheDqnVcWithDorVcsAll) {
  Bench b(torus("net_dqn4x4_ext_all", 4, "dqn_agent = \"external\"\ndqn_dor_vcs = \"all\"\n"));
  SimOptions o = run_options(0.3, 200, 3000);
  o.dqn_agent = std::make_shared<PlusXAgent>();
  const SimResult r = b.run(o);
  expect_clean(r);
  ASSERT_GT(r.packets.size(), 1000u);
  const auto pdor = std::count_if(r.packets.begin(), r.packets.end(), [](const DeliveredPacket& p) { return p.pdor; });
  EXPECT_GT(pdor, 100) << "the load makes packets fall back";

  Design escape = b.design;
  escape.cfg.dqn_dor_vcs = DqnDorVcs::Escape;
  const DqnRouting relation(escape, escape.cfg.dqn_hop_threshold);
  const ModelFactory factory = load_model(b.design, b.emitted, ModelKind::Router);
  HarnessFabric fabric(b.design, relation, factory);
  o.dqn_agent = std::make_shared<PlusXAgent>();
  const SimResult broken = run_simulation(b.design, relation, fabric, o);
  EXPECT_EQ(broken.failure.rfind("route checker: router ", 0), 0u) << broken.failure;
  EXPECT_NE(broken.failure.find(" vc2 as ("), std::string::npos) << "a hop on the DQN VC: " << broken.failure;
  EXPECT_NE(broken.failure.find("the dqn relation allows"), std::string::npos) << broken.failure;
}

// An always-+x agent outside that keeps, per (router, episode), the distance
// its observation gives (own and destination coordinates) and checks the
// rewards against it: every reward names an episode the agent was asked
// about at that router and not yet rewarded.
class RewardCheckingAgent final : public DqnAgent {
 public:
  explicit RewardCheckingAgent(int k) : k_(k) {}
  int act(int router, int episode, std::span<const std::int32_t> obs, std::uint32_t mask) override {
    if (episode >= 0) {
      Pending p;
      for (int d = 0; d < 2; ++d) {
        const int fwd = (obs[static_cast<size_t>(2 + d)] - obs[static_cast<size_t>(d)] + k_) % k_;
        p.distance += std::min(fwd, k_ - fwd);
      }
      p.same_row_hops = obs[1] == obs[3] ? (obs[2] - obs[0] + k_) % k_ : -1;
      pending[{router, episode}] = p;
      ++episodes;
    } else {
      ++without_entry;
    }
    return (mask & 1u) ? 0 : -1;
  }
  void reward(int router, const DqnReward& r) override {
    const auto it = pending.find({router, static_cast<int>(r.episode)});
    if (it == pending.end()) {
      ADD_FAILURE() << "router " << router << " rewarded episode " << r.episode << ", which it never asked about";
      return;
    }
    EXPECT_EQ(static_cast<int>(r.distance), it->second.distance) << "router " << router << " episode " << r.episode;
    if (it->second.same_row_hops > 0) {
      ++same_row;
      // At zero load each +x hop costs the hop latency + 2 (the answer, then
      // the registered decision), from the entry's opening at this router to
      // the head's arrival at its destination router.
      if (static_cast<int>(r.latency) == it->second.same_row_hops * (hop_latency(1, SwitchAllocation::AfterVc) + 2)) ++same_row_exact;
    }
    pending.erase(it);
    ++rewards;
  }
  struct Pending {
    int distance = 0;
    int same_row_hops = -1;  // +x hops to a destination in this row, else -1
  };
  std::map<std::pair<int, int>, Pending> pending;
  std::int64_t episodes = 0, without_entry = 0, rewards = 0, same_row = 0, same_row_exact = 0;

 private:
  int k_;
};

// Every packet asks for an ack (routing.dqn_ack_ratio = 1): at every router
// before its destination it opens a pending-episode entry, the decisions the
// agent's port took mark theirs, and the acks come back on the credit
// channels. The agent gets a reward for most decisions (at 1% load the DQN
// VC is seldom taken), each for an episode it decided, with the distance of
// its observation and, for destinations in the router's row, exactly the
// zero-load latency of the +x hops; the episode check (acks to open entries,
// every entry closed at the end) holds.
TEST(DqnNetwork, EveryDecidedHopIsRewardedWithItsDistanceAndLatency) {
  Bench b(torus("net_dqn4x4_ext", 4, "dqn_agent = \"external\"\n"));
  SimOptions o = run_options(0.01, 200, 10000);
  auto agent = std::make_shared<RewardCheckingAgent>(4);
  o.dqn_agent = agent;
  const SimResult r = b.run(o);
  expect_clean(r);
  ASSERT_GT(r.packets.size(), 300u);
  EXPECT_GT(agent->episodes, 1000);
  EXPECT_GT(agent->rewards, agent->episodes * 9 / 10) << "most decisions take the agent's port";
  EXPECT_LE(agent->rewards + static_cast<std::int64_t>(agent->pending.size()), agent->episodes);
  EXPECT_GT(agent->same_row, 100);
  EXPECT_GT(agent->same_row_exact, agent->same_row * 9 / 10);
}

// A table of five entries per router (the least: one per port) under a load of 0.5: most heads find it
// full, clear ReqAck and cancel upstream, and the cancels free the chain back
// to the source without a reward; the episode check holds throughout, every
// entry is closed at the end, and rewards still come for the episodes that
// kept their chain.
TEST(DqnNetwork, AFullTableCancelsCleanly) {
  Bench b(torus("net_dqn4x4_ext_e5", 4, "dqn_agent = \"external\"\ndqn_episodes = 5\n"));
  SimOptions o = run_options(0.5, 0, 4000, 4000);
  auto agent = std::make_shared<RewardCheckingAgent>(4);
  o.dqn_agent = agent;
  const SimResult r = b.run(o);
  expect_clean(r);
  EXPECT_GT(agent->without_entry, agent->episodes) << "most heads find the table full";
  EXPECT_GT(agent->rewards, 100);
}

// The DPSNN traffic of [Lonardo 2019] (docs/traffic.md, "dpsnn"): steps of a
// compute phase, an all-to-all burst and a barrier, with the agent outside the
// routers on an untrained network. Every check holds, every step's burst
// reaches every other node, and the run completes step after step.
TEST(DqnNetwork, BurstyAllToAllTrafficCompletesItsSteps) {
  Bench b(torus("net_dqn4x4_ext", 4, "dqn_agent = \"external\"\n"));
  SimOptions o = run_options(0.1, 500, 6000);
  o.pattern = "dpsnn:rate=200,neurons=50,compute=300";  // 10 spikes: 8 packets a message
  const SimResult r = b.run(o);
  expect_clean(r);
  EXPECT_EQ(r.app["name"], "dpsnn");
  EXPECT_GE(r.app["steps_completed"].get<int>(), 3) << "steps of " << r.app["mean_step_cycles"] << " cycles";
  EXPECT_GT(r.app["mean_step_cycles"].get<double>(), 300.0);
  std::set<std::pair<int, int>> pairs;
  for (const DeliveredPacket& p : r.packets) pairs.insert({p.src, p.dst});
  EXPECT_EQ(pairs.size(), 16u * 15u) << "every node sends to every other";
  EXPECT_GT(r.latency.stdev, 0.0);
  EXPECT_EQ(r.offered_load, r.generated_load);
}

// The episode check fires on RTL broken on purpose, each way it can fail
// (every packet asks for an ack, the always-+x agent at 5% load): the
// replacement in one RTL file and what the failure must say.
struct BrokenEpisodes {
  const char* why;
  const char* file;
  const char* from;
  const char* to;
  const char* failure;  // a part of the episode check's message
  const char* routing = "";  // more [routing] keys
};

void PrintTo(const BrokenEpisodes& broken, std::ostream* os) { *os << broken.why; }

class DqnEpisodeCheck : public ::testing::TestWithParam<BrokenEpisodes> {};

TEST_P(DqnEpisodeCheck, FailsOnBrokenAcks) {
  const BrokenEpisodes& broken = GetParam();
  Bench b(torus(*broken.routing ? "net_dqn4x4_ext_e5" : "net_dqn4x4_ext", 4,
                std::string("dqn_agent = \"external\"\n") + broken.routing));
  EmittedDesign e = b.emitted;
  std::string& text = e.files.at(broken.file);
  const std::size_t at = text.find(broken.from);
  ASSERT_NE(at, std::string::npos) << broken.from;
  text.replace(at, std::string(broken.from).size(), broken.to);
  e.hash = content_hash({{"rtl", b.emitted.hash}, {"broken", broken.why}});
  const ModelFactory factory = load_model(b.design, e, ModelKind::Router);
  HarnessFabric fabric(b.design, *b.relation, factory);
  SimOptions o = run_options(0.05, 0, 3000, 2000);
  o.dqn_agent = std::make_shared<RewardCheckingAgent>(4);
  const SimResult r = run_simulation(b.design, *b.relation, fabric, o);
  EXPECT_EQ(r.failure.rfind("episode check: ", 0), 0u) << broken.why << ": " << r.failure;
  EXPECT_NE(r.failure.find(broken.failure), std::string::npos) << broken.why << ": " << r.failure;
}

INSTANTIATE_TEST_SUITE_P(
    DqnNetwork, DqnEpisodeCheck,
    ::testing::Values(
        BrokenEpisodes{"a destination's ack names the next entry", "rtl/rr_dqn_episode_unit.sv",
                       "imm_d[p*ACK_W+:ACK_W] = {1'b1, !dest[p], up[p*EW+:EW], now_i};",
                       "imm_d[p*ACK_W+:ACK_W] = {1'b1, !dest[p], up[p*EW+:EW] + 1'b1, now_i};",
                       "that no parked ack or arriving head of it owes"},
        BrokenEpisodes{"a destination never acks", "rtl/rr_dqn_episode_unit.sv",
                       "if (p >= NUM_NI && want_ack[p] && (dest[p] || !open_ok[p])) begin",
                       "if (p >= NUM_NI && want_ack[p] && !dest[p] && !open_ok[p]) begin",
                       "at its destination without the router sending the ack it owes upstream"},
        BrokenEpisodes{"a full table sends no cancel", "rtl/rr_dqn_episode_unit.sv",
                       "if (p >= NUM_NI && want_ack[p] && (dest[p] || !open_ok[p])) begin",
                       "if (p >= NUM_NI && want_ack[p] && dest[p]) begin",
                       "with ReqAck cleared (table full) without the router sending the cancel it owes upstream",
                       "dqn_episodes = 5\n"},
        BrokenEpisodes{"parked acks never go upstream", "rtl/rr_dqn_episodes.sv",
                       "if (!found && parked_q[e] && port_q[e] == PW'(p)) begin",
                       "if (!found && parked_q[e] && port_q[e] == PW'(p) && 1'b0) begin",
                       "pending-episode entries still open 4096 cycles after the last packet left"}),
    [](const ::testing::TestParamInfo<BrokenEpisodes>& info) {
      std::string name;
      bool up = true;
      for (const char c : std::string(info.param.why)) {
        if (c == ' ' || c == '\'') {
          up = true;
        } else {
          name += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
          up = false;
        }
      }
      return name;
    });

// The generated network top, programmed through its one programming port,
// and the harness, each router programmed through its own, agree cycle for
// cycle (a 3x3 torus, a random network).
TEST(DqnNetworkTop, HarnessAndGeneratedNetworkTopAgreeCycleForCycle) {
  Bench b(torus("net_dqn3x2", 3, "", 2));
  SimOptions o = run_options(0.4, 100, 3000);
  o.dqn_network = std::make_shared<const ref::DqnNetwork>(random_dqn_network(dqn_block(b.design.cfg), 3));
  const auto [harness, network] = expect_harness_matches_network_top(b, o);
  EXPECT_EQ(harness.hop_histogram, network.hop_histogram);
  EXPECT_EQ(harness.link_utilisation, network.link_utilisation);
}

// The same with the agent outside: the network top's agent port (every
// router's side by side) and the harness's, with the fixed-point network in
// software as the agent.
TEST(DqnNetworkTop, AnAgentOutsideHarnessAndGeneratedNetworkTopAgreeCycleForCycle) {
  Bench b(torus("net_dqn3x2_ext", 3, "dqn_agent = \"external\"\n", 2));
  SimOptions o = run_options(0.4, 100, 3000);
  o.dqn_network = std::make_shared<const ref::DqnNetwork>(random_dqn_network(dqn_block(b.design.cfg), 3));
  const auto [harness, network] = expect_harness_matches_network_top(b, o);
  EXPECT_EQ(harness.hop_histogram, network.hop_histogram);
  EXPECT_EQ(harness.link_utilisation, network.link_utilisation);
}
