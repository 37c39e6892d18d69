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
#include <map>
#include <span>
#include <memory>
#include <string>
#include <vector>

#include "bench.hpp"
#include "rlroute/gen/dqn_block.hpp"
#include "rlroute/gen/emit.hpp"
#include "rlroute/gen/pipeline.hpp"

using namespace rlroute;
using namespace rlroute::test;

namespace {

std::string torus(const std::string& name, int k, const std::string& extra_routing = "") {
  return R"(
[design]
name = ")" + name + R"("
[topology]
kind = "torus"
dims = [)" + std::to_string(k) + ", " + std::to_string(k) + R"(]
[router]
vcs = 3
buffer_flits = 8
flit_bits = 64
max_packet_flits = 4
[routing]
algorithm = "dqn"
dqn_hidden = [16]
dqn_npar = 4
dqn_ipar = 4
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
TEST(DqnNetwork, AnAgentThatAlwaysProposesPlusXGoesRoundTheRingUntilTheThresholdThenDor) {
  Bench b(torus("net_dqn4x4", 4));
  SimOptions o = run_options(0.005, 200, 20000);
  o.dqn_network = constant_action(b.design, 0);
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
    const auto latency = static_cast<int>(p.ejected - p.injected);
    if (p.hops != want.hops) {
      EXPECT_NE(std::find(want.escapes.begin(), want.escapes.end(), p.hops), want.escapes.end())
          << p.src << "->" << p.dst << ": " << p.hops << " hops";
      continue;
    }
    ++whole;
    const int formula = zero_load_latency(p.hops, 1, p.length) + want.decided * per_decision;
    EXPECT_GE(latency, zero_load_latency(p.hops, 1, p.length)) << p.src << "->" << p.dst;
    if (latency == formula) ++exact[want.decided];
  }
  EXPECT_GT(whole, static_cast<int>(r.packets.size() * 85 / 100));
  // +x reaches a destination in the same row after 1..3 hops; any other one
  // takes all 8 +x hops (twice round the ring) and then DOR.
  for (const int decided : {1, 2, 3, 8}) {
    EXPECT_GT(exact[decided], 0) << decided << " decided hops: no packet exactly at the formula";
  }
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

// The route unit keeping the DQN VC open for four hops past the threshold:
// the always-+x agent then takes a DQN hop the relation forbids, and the
// route checker names it.
TEST(DqnNetwork, RouteCheckerFailsOnADqnHopPastTheThreshold) {
  Bench b(torus("net_dqn4x4", 4));
  EmittedDesign e = b.emitted;
  std::string& text = e.files.at("rtl/rr_route_dor.sv");
  const std::string from = "(hdr_i[HOPS_LSB+:HOPS_W] < HOPS_W'(THR))";
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "(hdr_i[HOPS_LSB+:HOPS_W] < HOPS_W'(THR + 4))");
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
  int act(int /*router*/, std::span<const std::int32_t> observation, std::uint32_t mask) override {
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
  int whole = 0, decided_hops = 0;
  std::map<int, int> exact;
  for (const DeliveredPacket& p : r.packets) {
    const PlusXPath want = plus_x_path(t, t.router_of_node(p.src), t.router_of_node(p.dst), 8);
    if (p.hops != want.hops) {
      EXPECT_NE(std::find(want.escapes.begin(), want.escapes.end(), p.hops), want.escapes.end())
          << p.src << "->" << p.dst << ": " << p.hops << " hops";
      continue;
    }
    ++whole;
    decided_hops += want.decided;
    const auto latency = static_cast<int>(p.ejected - p.injected);
    if (latency == zero_load_latency(p.hops, 1, p.length) + 2 * want.decided) ++exact[want.decided];
  }
  EXPECT_GT(whole, static_cast<int>(r.packets.size() * 85 / 100));
  for (const int decided : {1, 2, 3, 8}) EXPECT_GT(exact[decided], 0) << decided << " decided hops";
  EXPECT_GE(agent->decisions, decided_hops) << "every decided hop was the agent's";
}

// The generated network top, programmed through its one programming port,
// and the harness, each router programmed through its own, agree cycle for
// cycle (a 3x3 torus, a random network).
TEST(DqnNetworkTop, HarnessAndGeneratedNetworkTopAgreeCycleForCycle) {
  Bench b(torus("net_dqn3x3", 3));
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
  Bench b(torus("net_dqn3x3_ext", 3, "dqn_agent = \"external\"\n"));
  SimOptions o = run_options(0.4, 100, 3000);
  o.dqn_network = std::make_shared<const ref::DqnNetwork>(random_dqn_network(dqn_block(b.design.cfg), 3));
  const auto [harness, network] = expect_harness_matches_network_top(b, o);
  EXPECT_EQ(harness.hop_histogram, network.hop_histogram);
  EXPECT_EQ(harness.link_utilisation, network.link_utilisation);
}
