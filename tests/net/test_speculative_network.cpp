// Network regressions of speculative switch allocation
// (router.switch_allocation = "speculative", rtl/rr_sw_alloc.sv SPEC): a head
// asks for the switch in the cycle it asks for its output VC and, at zero
// load, leaves a cycle earlier in every router (gen/pipeline.hpp). Under
// overload nothing is lost, duplicated, corrupted or misrouted and nothing
// deadlocks, with multi-flit and single-flit packets, with speedup, with
// decisions at the head of the VC, and with Q-adaptive; and the harness and
// the generated network top agree cycle for cycle.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>

#include "bench.hpp"
#include "rlroute/gen/pipeline.hpp"

using namespace rlroute;
using namespace rlroute::test;

namespace {

constexpr auto kSpec = SwitchAllocation::Speculative;

// The 4x4 torus (DOR, 2 VCs x 8 flits) with speculative switch allocation, at
// speedup S, with packets of at least `min_flits` flits (1: single-flit
// packets, in 128-bit flits).
std::string torus(int speedup, int min_flits) {
  return fmt::format(R"(
[design]
name = "net_t44_spec_s{0}_m{1}"
[topology]
kind = "torus"
dims = [4, 4]
[router]
vcs = 2
buffer_flits = 8
flit_bits = {2}
min_packet_flits = {1}
max_packet_flits = 4
speedup = {0}
switch_allocation = "speculative"
)",
                     speedup, min_flits, min_flits == 1 ? 128 : 64);
}
const std::string kTorusSpec = torus(1, 2);

// A dragonfly with the adaptive algorithm's decision at the head of the VC (or
// Q-adaptive's), speculative switch allocation and the router keys given.
std::string dragonfly(const std::string& algorithm, int vcs, const std::string& router_keys) {
  return fmt::format(R"(
[design]
name = "net_dfly_spec_{0}"
[topology]
kind = "dragonfly"
p = 2
a = 4
h = 2
g = 9
local_link_latency = 1
global_link_latency = 10
local_credit_latency = 1
global_credit_latency = 10
[router]
vcs = {1}
buffer_flits = 24
flit_bits = 128
max_packet_flits = 4
switch_allocation = "speculative"
{2}
[routing]
algorithm = "{0}"
)",
                     algorithm, vcs, router_keys);
}

// Run options with packets of 1 to 4 flits (single-flit packets among longer ones).
SimOptions one_to_four_flits(SimOptions o) {
  o.packet_flits_min = 1;
  o.packet_flits_max = 4;
  return o;
}

}  // namespace

TEST(SpeculativeNetwork, Torus4x4LowLoadTakesOneCycleLessPerRouter) {
  Bench b(kTorusSpec);
  const SimResult r = b.run(run_options(0.01, 200, 20000));
  expect_clean(r);
  ASSERT_GT(r.packets.size(), 500u);
  const auto fastest = expect_zero_load_latency(r, 1, "speculative", kSpec);
  for (int hops = 1; hops <= 4; ++hops) EXPECT_EQ(fastest.count({hops, 4}), 1u) << hops << " hops";
  for (const auto& [kinds, res] : r.router_residence) {
    EXPECT_GT(res.heads, 500u);
    EXPECT_GE(res.avg, zero_load_residence(kSpec));
    EXPECT_LT(res.avg, zero_load_residence(kSpec) + 0.05);
  }
}

TEST(SpeculativeNetwork, Torus4x4AtTwiceSaturationNeitherDeadlocksNorLosesPackets) {
  Bench b(kTorusSpec);
  const SimResult r = b.run(run_options(1.0, 0, 20000, 0));
  expect_clean(r);
  expect_saturated(r);
  EXPECT_GT(r.accepted_load, 0.6);
}

TEST(SpeculativeNetwork, SingleFlitPacketsWithAndWithoutSpeedup) {
  for (const int speedup : {1, 2}) {
    Bench b(torus(speedup, 1));
    const SimResult r = b.run(one_to_four_flits(run_options(0.01, 100, 8000)));
    expect_clean(r);
    const auto fastest = expect_zero_load_latency(r, 1, fmt::format("speculative, speedup {}", speedup), kSpec);
    EXPECT_EQ(fastest.count({2, 1}), 1u) << "no single-flit packet over 2 hops";
    // Twice saturation.
    const SimResult h = b.run(one_to_four_flits(run_options(1.0, 0, 20000, 0)));
    expect_clean(h);
    expect_saturated(h);
  }
}

// UGAL-g decides at the head of the VC: a speculation carries that cycle's
// decision (and its header patch) and, at speedup 2 with single-flit packets,
// several packets a cycle on one output VC.
TEST(SpeculativeNetwork, DragonflyUgalAtTheHeadOfTheVcAtSpeedupTwo) {
  Bench b(dragonfly("ugal_g", 3, "min_packet_flits = 1\nspeedup = 2\noutput_buffer_flits = 32\n") +
          "decision = \"vc_head\"\n");
  const SimResult r = b.run(one_to_four_flits(run_options(1.0, 0, 20000, 0)));
  expect_clean(r);
  expect_saturated(r);
  EXPECT_LT(r.minimal_share, 0.99) << "UGAL took no non-minimal route";
}

TEST(SpeculativeNetwork, DragonflyQAdaptive) {
  Bench b(dragonfly("q_adaptive", 5, ""));
  const SimResult r = b.run(run_options(0.9, 0, 10000, 0));
  expect_clean(r);
  EXPECT_GT(r.accepted_load, 0.4);
}

// The harness and the generated network top agree packet for packet.
TEST(SpeculativeNetwork, HarnessMatchesNetworkTop) {
  Bench b(kTorusSpec);
  expect_harness_matches_network_top(b, run_options(0.6, 200, 3000));
}
