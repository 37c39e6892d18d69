// gen/src/cube/routing_star.cpp: star-channel routing (DOR escape VCs below one
// adaptive minimal VC) and the checks that prove it deadlock-free.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing_check.hpp"
#include "rlroute/gen/routing_star.hpp"

#include "configs.hpp"

using namespace rlroute;
using rlroute::test::grid;

namespace {
Design star(TopologyKind kind, std::vector<int> dims, int vcs) {
  return derive_design(grid(kind, std::move(dims), vcs, 1, "star"));
}

std::string config_error(TopologyKind kind, std::vector<int> dims, int vcs) {
  try {
    const Design d = star(kind, std::move(dims), vcs);
    check_routing(d, *make_routing_relation(d));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(StarRouting, OffersTheDorHopOnEscapeAndAdaptiveVcsAndEveryOtherMinimalPortOnTheAdaptiveVc) {
  const Design d = star(TopologyKind::Torus, {4, 4}, 3);
  const Topology& t = d.topo;
  const auto rel = make_routing_relation(d);
  ASSERT_EQ(rel->name(), "star");
  EXPECT_EQ(rel->escape_vcs(), 0b011u);
  EXPECT_EQ(rel->injection_vcs(), 0b111u);
  // From (0,0) to (3,2): dimension 0 goes - (wrap ahead: 0 -> 3 wraps, so
  // escape class 1), dimension 1 is a tie (distance 2) and goes +.
  const int src = t.router_at({0, 0}), dst = t.router_at({3, 2});
  const auto options = rel->next_hops(src, t.local_of_node(src), 0, RouteState{dst, src, -1, RouteMode::Minimal});
  ASSERT_EQ(options.size(), 2u);
  EXPECT_EQ(options[0].out_port, t.minus_port(0));
  EXPECT_EQ(options[0].vc_mask, 0b110u) << "the wrap hop: escape class 1 and the adaptive VC";
  EXPECT_EQ(options[1].out_port, t.plus_port(1));
  EXPECT_EQ(options[1].vc_mask, 0b100u) << "dimension 1 only on the adaptive VC";
  // One dimension left: one port, escape and adaptive VCs.
  const int r = t.router_at({3, 0});
  const auto last = rel->next_hops(r, t.plus_port(0), 2, RouteState{t.router_at({3, 1}), src, -1, RouteMode::Minimal});
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].out_port, t.plus_port(1));
  EXPECT_EQ(last[0].vc_mask, 0b111u) << "a path that never wraps: every escape VC and the adaptive one";
  // At the destination: ejection on any VC.
  const auto eject = rel->next_hops(dst, t.plus_port(1), 2, RouteState{dst, src, -1, RouteMode::Minimal});
  ASSERT_EQ(eject.size(), 1u);
  EXPECT_TRUE(t.is_ni_port(eject[0].out_port));
}

TEST(StarRouting, ArrivingOnTheAdaptiveVcDoesNotCountAsDatelineClassOne) {
  // VC 3 (adaptive) has odd parity: a packet continuing in its dimension on it
  // must not be held to escape class 1 as an escape arrival on VC 1 is.
  const Design d = star(TopologyKind::Torus, {8}, 4);
  const Topology& t = d.topo;
  const auto rel = make_routing_relation(d);
  const int here = t.router_at({1}), dst = t.router_at({3});
  const RouteState to{dst, 0, -1, RouteMode::Minimal};
  EXPECT_EQ(rel->next_hops(here, t.minus_port(0), 3, to).front().vc_mask, 0b1111u);
  EXPECT_EQ(rel->next_hops(here, t.minus_port(0), 1, to).front().vc_mask, 0b1010u) << "class 1 is sticky on escape";
}

TEST(StarRouting, TorusAndMeshConfigsAreDeadlockFreeAndConnected) {
  for (const Design& d : {star(TopologyKind::Torus, {4, 4}, 3), star(TopologyKind::Torus, {3, 3, 3}, 3),
                          star(TopologyKind::Torus, {8, 8}, 4), star(TopologyKind::Mesh, {4, 4}, 2),
                          star(TopologyKind::Torus, {5}, 3)}) {
    const auto rel = make_routing_relation(d);
    EXPECT_FALSE(check_connectivity(d, *rel)) << *check_connectivity(d, *rel);
    EXPECT_FALSE(find_escape_cycle(d, *rel));
    EXPECT_NO_THROW(check_routing(d, *rel));
  }
}

TEST(StarRouting, OneVcFewerFailsNamingTheEscapeCycle) {
  const std::string torus = config_error(TopologyKind::Torus, {4, 4}, 2);
  EXPECT_NE(torus.find("router.vcs = 2"), std::string::npos) << torus;
  EXPECT_NE(torus.find("too few VCs for star"), std::string::npos) << torus;
  EXPECT_NE(torus.find("channel dependency cycle R"), std::string::npos) << torus;
  const std::string mesh = config_error(TopologyKind::Mesh, {4, 4}, 1);
  EXPECT_NE(mesh.find("router.vcs = 1"), std::string::npos) << mesh;
  EXPECT_NE(mesh.find("at least 2"), std::string::npos) << mesh;
}

namespace {
// Star-channel with the adaptive VC counted as escape: its dependencies, with
// packets turning between dimensions in any order, are cyclic. Shows that
// the check judges the escape VCs alone, as Duato's theorem allows.
class StarAllEscape : public StarRouting {
 public:
  using StarRouting::StarRouting;
  std::uint32_t escape_vcs() const override { return all_vcs_mask(3); }
};

// Star-channel whose escape hop loses its escape VCs at one router: a packet
// there has only the adaptive VC, so the escape sub-relation is not connected.
class StarBrokenEscape : public StarRouting {
 public:
  StarBrokenEscape(const Design& d, int router) : StarRouting(d), router_(router) {}
  std::vector<RouteOption> next_hops(int router, int in_port, int in_vc, const RouteState& s) const override {
    std::vector<RouteOption> options = StarRouting::next_hops(router, in_port, in_vc, s);
    if (router == router_ && options.size() > 0 && options[0].out_port >= 1) options[0].vc_mask = 1u << adaptive_vc();
    return options;
  }

 private:
  int router_;
};
}  // namespace

TEST(StarRouting, TheAdaptiveVcAloneWouldDeadlock) {
  const Design d = star(TopologyKind::Torus, {4, 4}, 3);
  const StarAllEscape rel(d);
  EXPECT_TRUE(find_escape_cycle(d, rel));
}

TEST(StarRouting, AnEscapeSubRelationThatIsNotConnectedFailsTheCheck) {
  const Design d = star(TopologyKind::Torus, {4, 4}, 3);
  const StarBrokenEscape rel(d, 5);
  const auto failure = check_connectivity(d, rel);
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("escape sub-relation is not connected"), std::string::npos) << *failure;
  EXPECT_NE(failure->find(d.topo.router_name(5)), std::string::npos) << *failure;
}
