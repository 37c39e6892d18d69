// gen/src/dqn/routing_dqn.cpp: DQN-routing's relation (the DQN VC on any network
// port below the hop threshold, DOR on the escape VCs with Pdor) and the
// checks that prove it deadlock- and livelock-free. The config does not
// accept routing.algorithm = "dqn" until its router exists, so the tests
// build the relation on a torus design directly.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing_check.hpp"
#include "rlroute/gen/routing_dqn.hpp"

#include "configs.hpp"

using namespace rlroute;
using rlroute::test::grid;

namespace {
RouteState at(int dst, int hops, bool pdor) {
  RouteState s{dst, 0, -1, RouteMode::Minimal};
  s.hops = hops;
  s.pdor = pdor;
  return s;
}
}  // namespace

TEST(DqnRouting, OffersEveryPortOnTheDqnVcAndTheDorHopWithPdor) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4, 4}, 3));
  const Topology& t = d.topo;
  const DqnRouting rel(d, 8);
  EXPECT_EQ(rel.escape_vcs(), 0b011u);
  EXPECT_EQ(rel.hop_bound(), 8 + 4);
  const int here = t.router_at({1, 1}), dst = t.router_at({2, 1});
  const auto options = rel.next_hops(here, t.local_of_node(here), 0, at(dst, 0, false));
  ASSERT_EQ(options.size(), 5u) << "the DOR hop and the four network ports";
  EXPECT_EQ(options[0].out_port, t.plus_port(0));
  EXPECT_EQ(options[0].vc_mask & 0b100u, 0u) << "the DOR hop is on the escape VCs only";
  EXPECT_TRUE(options[0].next.pdor);
  EXPECT_EQ(options[0].next.hops, 1);
  for (size_t i = 1; i < options.size(); ++i) {
    EXPECT_EQ(options[i].vc_mask, 0b100u);
    EXPECT_FALSE(options[i].next.pdor);
    EXPECT_EQ(options[i].next.hops, 1);
  }
  // At the threshold, and once Pdor: the DOR hop alone.
  EXPECT_EQ(rel.next_hops(here, t.plus_port(1), 2, at(dst, 8, false)).size(), 1u);
  EXPECT_EQ(rel.next_hops(here, t.plus_port(1), 0, at(dst, 3, true)).size(), 1u);
  // At the destination: ejection, the hop count unchanged.
  const auto eject = rel.next_hops(dst, t.minus_port(0), 2, at(dst, 5, false));
  ASSERT_EQ(eject.size(), 1u);
  EXPECT_TRUE(t.is_ni_port(eject[0].out_port));
  EXPECT_EQ(eject[0].next.hops, 5);
}

// routing.dqn_fallback = "hop": the DOR hop leaves Pdor clear below the
// threshold, so the next router offers the DQN VC again; at the threshold it
// sets Pdor as the rule of [Lonardo 2019] does.
TEST(DqnRouting, AHopFallbackLeavesPdorClearBelowTheThreshold) {
  Config c = grid(TopologyKind::Torus, {4, 4}, 3);
  c.dqn_fallback = DqnFallback::Hop;
  const Design d = derive_design(c);
  const Topology& t = d.topo;
  const DqnRouting rel(d, 8);
  const int here = t.router_at({1, 1}), dst = t.router_at({3, 2});
  const auto options = rel.next_hops(here, t.plus_port(0), 0, at(dst, 2, false));
  ASSERT_EQ(options.size(), 5u);
  EXPECT_FALSE(options[0].next.pdor) << "the DOR hop, for this hop only";
  const RouteState after = options[0].next;
  EXPECT_EQ(rel.next_hops(t.neighbor(here, options[0].out_port)->router, t.minus_port(0), 0, after).size(), 5u)
      << "the DQN VC again at the next router";
  const auto at_threshold = rel.next_hops(here, t.plus_port(0), 2, at(dst, 8, false));
  ASSERT_EQ(at_threshold.size(), 1u);
  EXPECT_TRUE(at_threshold[0].next.pdor);
  for (const auto& [cc, threshold] : {std::pair{c, 8}, std::pair{grid(TopologyKind::Mesh, {4, 4}, 2), 6}}) {
    Config hop = cc;
    hop.dqn_fallback = DqnFallback::Hop;
    const Design dd = derive_design(hop);
    const DqnRouting r(dd, threshold);
    const auto failure = check_connectivity(dd, r);
    EXPECT_FALSE(failure) << *failure;
    EXPECT_FALSE(find_escape_cycle(dd, r)) << "Duato: the escape VCs stay DOR's";
  }
}

// routing.dqn_dor_vcs = "all": every DOR hop that leaves the router (the
// fallback and a Pdor packet's) may take the DQN VC as well, as star-channel's
// DOR hops take its adaptive VC; ejection and the DQN options are unchanged,
// and the escape VCs stay DOR's, so the checks still pass with either
// fallback.
TEST(DqnRouting, DorHopsMayTakeTheDqnVcWithDorVcsAll) {
  Config c = grid(TopologyKind::Torus, {4, 4}, 3);
  c.dqn_dor_vcs = DqnDorVcs::All;
  const Design d = derive_design(c);
  const Topology& t = d.topo;
  const DqnRouting rel(d, 8);
  EXPECT_EQ(rel.escape_vcs(), 0b011u);
  const int here = t.router_at({1, 1}), dst = t.router_at({2, 1});
  const auto open = rel.next_hops(here, t.local_of_node(here), 0, at(dst, 0, false));
  ASSERT_EQ(open.size(), 5u);
  EXPECT_NE(open[0].vc_mask & 0b100u, 0u) << "the fallback may take the DQN VC";
  EXPECT_NE(open[0].vc_mask & 0b011u, 0u) << "and its escape VC";
  EXPECT_TRUE(open[0].next.pdor);
  for (size_t i = 1; i < open.size(); ++i) EXPECT_EQ(open[i].vc_mask, 0b100u);
  const auto pdor = rel.next_hops(here, t.plus_port(1), 0, at(dst, 3, true));
  ASSERT_EQ(pdor.size(), 1u);
  EXPECT_NE(pdor[0].vc_mask & 0b100u, 0u) << "a Pdor packet's DOR hop too";
  const auto eject = rel.next_hops(dst, t.minus_port(0), 2, at(dst, 5, true));
  ASSERT_EQ(eject.size(), 1u);
  EXPECT_TRUE(t.is_ni_port(eject[0].out_port));
  for (const DqnFallback fallback : {DqnFallback::Pdor, DqnFallback::Hop}) {
    for (const auto& [cc, threshold] : {std::pair{c, 8}, std::pair{grid(TopologyKind::Mesh, {4, 4}, 2), 6},
                                        std::pair{grid(TopologyKind::Torus, {3, 3, 3}, 3), 6}}) {
      Config all = cc;
      all.dqn_dor_vcs = DqnDorVcs::All;
      all.dqn_fallback = fallback;
      const Design dd = derive_design(all);
      const DqnRouting r(dd, threshold);
      const auto failure = check_connectivity(dd, r);
      EXPECT_FALSE(failure) << *failure;
      EXPECT_FALSE(find_escape_cycle(dd, r)) << "Duato: the escape VCs stay DOR's";
    }
  }
}

TEST(DqnRouting, MeshOffersOnlyConnectedPorts) {
  const Design d = derive_design(grid(TopologyKind::Mesh, {3, 3}, 2));
  const DqnRouting rel(d, 4);
  const int corner = d.topo.router_at({0, 0});
  EXPECT_EQ(rel.next_hops(corner, 0, 0, at(d.topo.router_at({2, 2}), 0, false)).size(), 3u)
      << "the DOR hop and the corner's two links";
}

TEST(DqnRouting, TorusAndMeshAreDeadlockFreeWithinTheHopBound) {
  for (const auto& [c, threshold] : {std::pair{grid(TopologyKind::Torus, {4, 4}, 3), 8},
                                     std::pair{grid(TopologyKind::Torus, {3, 3, 3}, 3), 6},
                                     std::pair{grid(TopologyKind::Mesh, {4, 4}, 2), 6}}) {
    const Design d = derive_design(c);
    const DqnRouting rel(d, threshold);
    const auto failure = check_connectivity(d, rel);
    EXPECT_FALSE(failure) << *failure;
    EXPECT_FALSE(find_escape_cycle(d, rel));
  }
}

TEST(DqnRouting, OneVcFewerFailsNamingTheEscapeCycle) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4, 4}, 2));
  const DqnRouting rel(d, 8);
  try {
    check_routing(d, rel);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("too few VCs for dqn"), std::string::npos) << m;
    EXPECT_NE(m.find("channel dependency cycle R"), std::string::npos) << m;
  }
}

namespace {
// The DQN VC counted as escape: non-minimal hops on one VC close cycles.
class DqnAllEscape : public DqnRouting {
 public:
  using DqnRouting::DqnRouting;
  std::uint32_t escape_vcs() const override { return 0b111u; }
};

// No hop threshold: a packet could wander for ever on the DQN VC.
class DqnNoThreshold : public DqnRouting {
 public:
  using DqnRouting::DqnRouting;
  int hop_bound() const override { return 64; }
};
}  // namespace

TEST(DqnRouting, TheDqnVcAloneWouldDeadlock) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4, 4}, 3));
  EXPECT_TRUE(find_escape_cycle(d, DqnAllEscape(d, 8)));
}

TEST(DqnRouting, WithoutTheThresholdTheWalkFindsALivelock) {
  const Design d = derive_design(grid(TopologyKind::Torus, {3, 3}, 3));
  const auto failure = check_connectivity(d, DqnNoThreshold(d, 1000));
  ASSERT_TRUE(failure);
  // Past the bound the walk's hop counts repeat: it names the loop.
  EXPECT_NE(failure->find("can loop forever through"), std::string::npos) << *failure;
}
