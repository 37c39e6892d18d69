// gen/src/router_core.cpp: how each algorithm's router core is built, derived
// once with the design from its row of kAlgorithms and the config.
#include <gtest/gtest.h>

#include "configs.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"

using namespace rlroute;
using rlroute::test::dragonfly;
using rlroute::test::grid;

namespace {

std::vector<bool> every(int ports) { return std::vector<bool>(static_cast<size_t>(ports), true); }

}  // namespace

TEST(RouterCore, DorAndMinDecideNothingAtTheHead) {
  for (const Config& c : {grid(TopologyKind::Torus, {4, 4}), dragonfly(2, 4, 2, 9, "min")}) {
    const RouterCore core = derive_design(c).core;
    EXPECT_FALSE(core.head.enabled) << c.name;
    EXPECT_FALSE(core.waiting_demand);
    EXPECT_TRUE(core.head.ports.empty());
  }
}

TEST(RouterCore, StarPicksTheAlternativeAtEveryPortAndPatchesNothing) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4, 4}, 3, 1, "star"));
  const HeadDecision& h = d.core.head;
  EXPECT_TRUE(h.enabled && h.registered && h.every_port && h.picks_alternative());
  EXPECT_FALSE(h.names_port || h.patches || h.late);
  EXPECT_EQ(h.field, PatchedField::None);
  EXPECT_EQ(h.ports, every(d.ports));
}

TEST(RouterCore, DqnNamesThePortAndSetsPdorUnlessItFallsBackForOneHop) {
  Config c = grid(TopologyKind::Torus, {4, 4}, 3, 1, "dqn");
  const HeadDecision pdor = derive_design(c).core.head;
  EXPECT_TRUE(pdor.enabled && pdor.registered && pdor.names_port && pdor.patches);
  EXPECT_EQ(pdor.field, PatchedField::Pdor);
  c.dqn_fallback = DqnFallback::Hop;
  const HeadDecision hop = derive_design(c).core.head;
  EXPECT_EQ(hop.field, PatchedField::Pdor);
  EXPECT_FALSE(hop.patches);
}

TEST(RouterCore, UgalDecidesWhereRoutingDecisionSaysAndOnlyWhereAChoiceOpens) {
  Config c = dragonfly(2, 4, 2, 9, "ugal_n", 4);
  const Design registered = derive_design(c);
  const HeadDecision& h = registered.core.head;
  EXPECT_TRUE(h.enabled && h.registered && h.picks_alternative() && h.patches);
  EXPECT_EQ(h.field, PatchedField::Phase);
  EXPECT_TRUE(registered.core.waiting_demand);
  const DragonflyRouting relation(registered);
  for (int p = 0; p < registered.ports; ++p) EXPECT_EQ(h.ports[static_cast<size_t>(p)], relation.decides_at(p)) << p;
  EXPECT_TRUE(h.ports[0]);                                                    // the NI ports
  EXPECT_FALSE(h.ports[static_cast<size_t>(registered.topo.first_local_port())]);  // not the local ones
  EXPECT_EQ(h.cycles(), 1);
  c.decision = DecisionPoint::VcHead;
  EXPECT_FALSE(derive_design(c).core.head.registered);
  EXPECT_EQ(derive_design(c).core.head.cycles(), 0);  // the answer counts for the same cycle's request
  c.decision = DecisionPoint::BufferWrite;
  EXPECT_FALSE(derive_design(c).core.head.enabled);
  c.ugal_queue = UgalQueue::Credits;
  EXPECT_FALSE(derive_design(c).core.waiting_demand);
}

TEST(RouterCore, ParAlsoDecidesAtTheLocalPorts) {
  const Design d = derive_design(dragonfly(2, 4, 2, 9, "par", 5));
  EXPECT_TRUE(d.core.head.ports[static_cast<size_t>(d.topo.first_local_port())]);
  EXPECT_FALSE(d.core.head.ports.back());  // a global port
}

TEST(RouterCore, QAdaptiveNamesThePortAndAnswersLateWithTwoCycleDecisions) {
  Config c = dragonfly(2, 4, 2, 9, "q_adaptive", 5);
  const Design d = derive_design(c);
  EXPECT_TRUE(d.core.head.names_port && d.core.head.every_port && d.core.head.patches);
  EXPECT_EQ(d.core.head.field, PatchedField::Phase);
  EXPECT_EQ(d.core.head.ports, every(d.ports));
  EXPECT_FALSE(d.core.head.late);
  EXPECT_FALSE(d.core.waiting_demand);  // the Q-table, not the queues
  EXPECT_EQ(d.core.head.cycles(), 1);
  c.q_decision_cycles = 2;
  EXPECT_TRUE(derive_design(c).core.head.late);
  EXPECT_EQ(derive_design(c).core.head.cycles(), 2);
}
