// Network regressions: Verilated routers in the C++ harness (and the
// Verilated network top) under real traffic, with scoreboard, route checker
// and deadlock watchdog.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <tuple>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/emit.hpp"
#include "rlroute/gen/pipeline.hpp"
#include "rlroute/tb/fabric.hpp"
#include "rlroute/tb/model_build.hpp"
#include "rlroute/gen/routing.hpp"
#include "rlroute/tb/simulation.hpp"
#include "bench.hpp"

using namespace rlroute;
using namespace rlroute::test;

TEST(Network, Torus4x4LowLoadDeliversEverythingAtTheZeroLoadLatency) {
  Bench b(kTorus4x4);
  SimOptions o;
  o.load = 0.01;
  o.warmup = 200;
  o.cycles = 20000;
  const SimResult r = b.run(o);
  expect_clean(r);
  ASSERT_GT(r.packets.size(), 500u);
  std::map<int, int> fastest;  // hops -> lowest latency seen
  int exact = 0;
  for (const DeliveredPacket& p : r.packets) {
    const int expected = zero_load_latency(p.hops, 1, p.length, SwitchAllocation::AfterVc);
    const auto latency = static_cast<int>(p.ejected - p.injected);
    EXPECT_GE(latency, expected) << "faster than the pipeline allows: " << p.src << "->" << p.dst;
    EXPECT_EQ(p.hops, b.design.topo.min_hops(p.src, p.dst)) << "DOR is minimal";
    exact += latency == expected;
    auto [it, fresh] = fastest.emplace(p.hops, latency);
    if (!fresh) it->second = std::min(it->second, latency);
  }
  for (const auto& [hops, latency] : fastest) EXPECT_EQ(latency, zero_load_latency(hops, 1, 4, SwitchAllocation::AfterVc)) << hops << " hops";
  EXPECT_GT(exact, static_cast<int>(r.packets.size() * 9 / 10)) << "at 1% load almost no packet meets another";
  // The checker's router residence: every head through every router at
  // the pipeline's cycles, a few a cycle or two more.
  const std::vector<std::pair<PortClass, PortClass>> kinds = {{PortClass::Terminal, PortClass::Dimension},
                                                              {PortClass::Dimension, PortClass::Dimension},
                                                              {PortClass::Dimension, PortClass::Terminal}};
  ASSERT_EQ(r.router_residence.size(), kinds.size());
  for (const auto& k : kinds) {
    const RouterResidence& res = r.router_residence.at(k);
    EXPECT_GT(res.heads, 500u);
    EXPECT_GE(res.avg, zero_load_residence(SwitchAllocation::AfterVc));
    EXPECT_LT(res.avg, zero_load_residence(SwitchAllocation::AfterVc) + 0.05);
  }
}

// --phases: the offered load and the pattern change at the cycles given, and
// the time series shows it.
TEST(Network, TrafficPhasesChangeLoadAndPatternDuringTheRun) {
  Bench b(kTorus4x4);
  SimOptions o;
  o.warmup = 0;
  o.cycles = 6000;
  o.drain = 0;
  o.series_window = 1000;
  o.phases = {{0, "uniform", 0.05}, {2000, "uniform", 0.3}, {4000, "transpose", 0.05}};
  o.pattern = "uniform";
  o.load = 0.05;
  const SimResult r = b.run(o);
  expect_clean(r);
  ASSERT_GE(r.series.size(), 6u);
  for (int w : {1, 3, 5}) {  // a window after each change has settled
    // Transpose: the 4 diagonal nodes of 16 send nothing.
    const double want = w == 1 ? 0.05 : w == 3 ? 0.3 : 0.05 * 12 / 16;
    EXPECT_NEAR(r.series[static_cast<size_t>(w)].accepted_load, want, want * 0.2) << "window " << w;
  }
  // Each window names the load offered in it, its phase's.
  for (std::size_t w = 0; w < 6; ++w) EXPECT_EQ(r.series[w].offered_load, w / 2 == 1 ? 0.3 : 0.05) << "window " << w;
  // Transpose sends nothing from the diagonal nodes (4 of 16).
  std::set<int> senders;
  for (const DeliveredPacket& p : r.packets) {
    if (p.ejected > 4300) senders.insert(p.src);
  }
  EXPECT_EQ(senders.size(), 12u);
}

TEST(Network, Torus4x4AtTwiceSaturationNeitherDeadlocksNorLosesPackets) {
  // Saturation of this network under uniform traffic is about 0.65
  // flits/node/cycle (docs/results.md, "DOR and star-channel, uniform random"); offer
  // 1.0 for 20,000 cycles.
  Bench b(kTorus4x4);
  SimOptions o;
  o.load = 1.0;
  o.warmup = 0;
  o.cycles = 20000;
  o.drain = 0;
  const SimResult r = b.run(o);
  expect_clean(r);
  EXPECT_GT(r.accepted_load, 0.3);
  EXPECT_LT(r.accepted_load, 0.9) << "the network must be saturated for this test to mean anything";
  EXPECT_GT(r.packets_not_injected, 0) << "sources must have backed up";
}

// Internal speedup and single-flit packets: the zero-load latency formula
// holds with and without speedup and for every packet length, 1 flit
// included (speedup 3's output port is covered by its block test).
TEST(Network, SpeedupAndSingleFlitPacketsKeepTheZeroLoadLatency) {
  for (const int speedup : {1, 2}) {
    Bench b(fmt::format(R"(
[design]
name = "net_t44_s{0}"
[topology]
kind = "torus"
dims = [4, 4]
[router]
vcs = 2
buffer_flits = 8
flit_bits = 128
min_packet_flits = 1
max_packet_flits = 4
speedup = {0}
)",
                        speedup));
    SimOptions o;
    o.load = 0.01;
    o.warmup = 100;
    o.cycles = 8000;
    o.packet_flits_min = 1;
    o.packet_flits_max = 4;
    const SimResult r = b.run(o);
    expect_clean(r);
    const auto fastest = expect_zero_load_latency(r, 1, fmt::format("speedup {}", speedup));
    EXPECT_EQ(fastest.count({2, 1}), 1u) << "no single-flit packet over 2 hops";
  }
}

// The packets of [Lonardo 2019]: up to 256 flits of 128 bits, in 256-flit VC
// buffers (virtual cut-through holds a whole packet). At 2% load 256-flit
// packets cross at exactly the zero-load formula (the fastest of each hop
// count); at 0.6 (past DOR's saturation) with uniform sizes of 2..256 flits
// nothing is lost, duplicated, corrupted or misrouted, and nothing deadlocks.
TEST(Network, PacketsOfUpTo256Flits) {
  Bench b(R"(
[design]
name = "net_t44_p256"
[topology]
kind = "torus"
dims = [4, 4]
[router]
vcs = 2
buffer_flits = 256
flit_bits = 128
max_packet_flits = 256
)");
  SimOptions o = run_options(0.02, 0, 60000);
  o.packet_flits_min = o.packet_flits_max = 256;
  const SimResult low = b.run(o);
  expect_clean(low);
  ASSERT_GT(low.packets.size(), 50u);
  const auto fastest = expect_zero_load_latency(low, 1, "256-flit packets");
  for (int hops = 1; hops <= 4; ++hops) EXPECT_EQ(fastest.count({hops, 256}), 1u) << hops << " hops";
  o = run_options(0.6, 0, 8000, 30000);
  o.packet_flits_min = 2;
  o.packet_flits_max = 256;
  const SimResult high = b.run(o);
  expect_clean(high);
  EXPECT_GT(high.packets.size(), 300u);
}

// Speedup 2 with single-flit packets at more than twice saturation, on the
// torus and on a dragonfly: nothing lost, duplicated, corrupted or
// misrouted, no deadlock, and the network did saturate.
TEST(Network, SpeedupTwoWithSingleFlitPacketsAtTwiceSaturation) {
  const char* tail = R"(
[router]
vcs = {}
buffer_flits = 8
flit_bits = 128
min_packet_flits = 1
max_packet_flits = 1
speedup = 2
)";
  for (const std::string& topology :
       {std::string("kind = \"torus\"\ndims = [4, 4]\n"),
        std::string("kind = \"dragonfly\"\np = 2\na = 4\nh = 2\ng = 9\n")}) {
    const bool dfly = topology.find("dragonfly") != std::string::npos;
    Bench b(fmt::format("[design]\nname = \"net_{}_s2_1flit\"\n[topology]\n{}", dfly ? "dfly" : "t44", topology) +
            fmt::format(fmt::runtime(tail), 2));
    SimOptions o;
    o.load = 1.0;
    o.warmup = 0;
    o.cycles = 20000;
    o.drain = 0;
    o.packet_flits_min = o.packet_flits_max = 1;
    const SimResult r = b.run(o);
    expect_clean(r);
    expect_saturated(r);
    EXPECT_GT(r.accepted_load, 0.3) << topology;
  }
}

// Speedup 2 with packets of 1 to 4 flits at twice saturation on a dragonfly:
// single-flit packets share output VCs (several per cycle) and multi-flit
// packets wait until none holds the VC; nothing lost, duplicated, corrupted,
// interleaved or misrouted, no deadlock.
TEST(Network, SpeedupTwoWithMixedPacketLengthsAtTwiceSaturation) {
  Bench b(R"(
[design]
name = "net_dfly_s2_mixed"
[topology]
kind = "dragonfly"
p = 2
a = 4
h = 2
g = 9
[router]
vcs = 2
buffer_flits = 8
flit_bits = 128
min_packet_flits = 1
max_packet_flits = 4
speedup = 2
output_buffer_flits = 8
)");
  SimOptions o;
  o.load = 1.0;
  o.warmup = 0;
  o.cycles = 10000;
  o.drain = 0;
  o.packet_flits_min = 1;
  o.packet_flits_max = 4;
  const SimResult r = b.run(o);
  expect_clean(r);
  expect_saturated(r);
  // 8-flit buffers behind 10-cycle global links bound it near 0.26 (0.2555
  // before single-flit packets shared output VCs, 0.2569 after).
  EXPECT_GT(r.accepted_load, 0.2);
}

// router.buffer_read = "registered" (block RAM) changes how the VC buffers are
// built, not what the router does: the same traffic gives the same packets
// in the same cycles.
TEST(Network, RegisteredReadBuffersBehaveTheSameCycleForCycle) {
  const char* base = R"(
[design]
name = "net_ring5_{0}"
[topology]
kind = "torus"
dims = [5]
[router]
vcs = 2
buffer_flits = 6
flit_bits = 96
min_packet_flits = 1
max_packet_flits = 4
buffer_read = "{0}"
)";
  Bench async_buffers(fmt::format(fmt::runtime(base), "async"));
  Bench registered(fmt::format(fmt::runtime(base), "registered"));
  SimOptions o;
  o.load = 0.7;
  o.warmup = 100;
  o.cycles = 3000;
  o.packet_flits_min = 1;
  o.packet_flits_max = 4;
  const SimResult a = async_buffers.run(o);
  const SimResult r = registered.run(o);
  expect_clean(a);
  expect_clean(r);
  ASSERT_EQ(a.packets.size(), r.packets.size());
  ASSERT_GT(a.packets.size(), 1000u);
  for (size_t i = 0; i < a.packets.size(); ++i) {
    const DeliveredPacket& x = a.packets[i];
    const DeliveredPacket& y = r.packets[i];
    ASSERT_EQ(std::tie(x.src, x.dst, x.length, x.injected, x.ejected), std::tie(y.src, y.dst, y.length, y.injected, y.ejected))
        << "packet " << i;
  }
}

TEST(Network, LongerLinksAddTheirLatencyPerHop) {
  Bench b(R"(
[design]
name = "net_ring6_l3"
[topology]
kind = "torus"
dims = [6]
link_latency = 3
credit_latency = 2
[router]
vcs = 2
buffer_flits = 8
max_packet_flits = 5
)");
  SimOptions o;
  o.load = 0.01;
  o.warmup = 100;
  o.cycles = 20000;
  o.packet_flits_min = 2;
  o.packet_flits_max = 5;
  const SimResult r = b.run(o);
  expect_clean(r);
  expect_zero_load_latency(r, 3, "link latency 3");
}

TEST(Network, MeshWithTwoNodesPerRouterUnderEveryPattern) {
  Bench b(R"(
[design]
name = "net_mesh4x2x2"
[topology]
kind = "mesh"
dims = [4, 2]
[router]
vcs = 1
buffer_flits = 4
max_packet_flits = 4
nodes_per_router = 2
)");
  for (const std::string pattern : {"uniform", "transpose", "bitcomp", "bitrev", "tornado", "neighbor", "hotspot",
                                    "randperm"}) {
    SimOptions o;
    o.pattern = pattern;
    o.load = 0.3;
    o.warmup = 200;
    o.cycles = 2000;
    o.drain = 2000;
    const SimResult r = b.run(o);
    expect_clean(r);
    EXPECT_GT(r.packets_delivered, 100) << pattern;
  }
}

TEST(Network, Torus3x3x3DeliversUnderOverload) {
  Bench b(R"(
[design]
name = "net_torus3x3x3"
[topology]
kind = "torus"
dims = [3, 3, 3]
[router]
vcs = 3
buffer_flits = 6
flit_bits = 128
max_packet_flits = 6
)");
  SimOptions o;
  o.load = 0.9;
  o.warmup = 0;
  o.cycles = 5000;
  o.drain = 0;
  o.packet_flits_min = 2;
  o.packet_flits_max = 6;
  const SimResult r = b.run(o);
  expect_clean(r);
  expect_saturated(r);
  // Saturated DOR is not fair (the healthy 4x4 torus under uniform load gives
  // its least served source 55% of the mean), but no source may starve.
  EXPECT_GE(r.source_fairness, 0.3);
}

// A 3x2 torus with 2-cycle links, internal speedup 2 (output buffers of 3
// flits) and packets of 1 to 4 flits.
constexpr const char* kTorus3x2Speedup2 = R"(
[design]
name = "net_torus3x2"
[topology]
kind = "torus"
dims = [3, 2]
link_latency = 2
[router]
vcs = 2
buffer_flits = 5
flit_bits = 96
min_packet_flits = 1
max_packet_flits = 4
speedup = 2
output_buffer_flits = 3
)";

// The router without speedup is compared on a dragonfly
// (test_dragonfly_network.cpp).
TEST(Network, HarnessAndGeneratedNetworkTopAgreeCycleForCycle) {
  Bench b(kTorus3x2Speedup2);
  SimOptions o;
  o.load = 0.6;  // enough contention to exercise arbitration
  o.warmup = 100;
  o.cycles = 3000;
  o.packet_flits_min = 1;
  o.packet_flits_max = 4;
  const auto [harness, network] = expect_harness_matches_network_top(b, o);
  EXPECT_EQ(harness.hop_histogram, network.hop_histogram);
  EXPECT_EQ(harness.packets_minimal, network.packets_minimal);
  // The checker sees the links inside the network top too: the same utilisation.
  EXPECT_TRUE(harness.links_observed);
  EXPECT_TRUE(network.links_observed);
  EXPECT_GT(harness.link_utilisation, 0);
  EXPECT_EQ(harness.link_utilisation, network.link_utilisation);
  EXPECT_EQ(harness.link_utilisation_by_class, network.link_utilisation_by_class);
}

// `--threads`: that torus on 1, 2 and 3 threads (more threads than routers' halves, and than this machine's cores).
TEST(Network, ResultsAreIdenticalAtEveryThreadCount) {
  Bench b(kTorus3x2Speedup2);
  SimOptions o = run_options(0.6, 100, 2000);
  o.packet_flits_min = 1;
  o.packet_flits_max = 4;
  const SimResult r = expect_same_at_every_thread_count(b, o);
  EXPECT_GT(r.packets_delivered, 1000);
}

// The routers' own counters, read from the Verilated routers after a run
// at saturation: every flit a port counted (into its output buffer, with
// speedup) is one the checker saw leave on it or a node received, and a
// cycle counted as stalled is one the port took no flit (so at most the
// cycles it did not send a full speedup's worth); contention stalls some.
TEST(Network, RouterCountersAgreeWithTheFlitsTheCheckerSaw) {
  Bench b(kTorus3x2Speedup2);
  const ModelFactory factory = load_model(b.design, b.emitted, ModelKind::Router);
  HarnessFabric fabric(b.design, *b.relation, factory);
  const SimResult r = run_simulation(b.design, *b.relation, fabric, run_options(0.9, 100, 2000));
  ASSERT_TRUE(r.ok()) << r.failure;
  const Topology& t = b.design.topo;
  const int ports = b.design.ports;
  const std::vector<std::uint64_t> left = fabric.link_flits();
  std::uint64_t ejected = 0, stalled = 0;
  for (int router = 0; router < t.num_routers(); ++router) {
    for (int p = 0; p < ports; ++p) {
      const std::uint32_t flits = fabric.router(router).stat_flits(p);
      const std::uint32_t stall = fabric.router(router).stat_stall(p);
      if (t.is_ni_port(p)) {
        ejected += flits;
      } else {
        EXPECT_EQ(flits, left[static_cast<size_t>(router * ports + p)]) << "router " << router << " port " << p;
      }
      EXPECT_LE(stall + (flits + b.design.cfg.speedup - 1) / b.design.cfg.speedup, r.cycles)
          << "router " << router << " port " << p;
      stalled += stall;
    }
  }
  EXPECT_EQ(ejected, 4 * static_cast<std::uint64_t>(r.packets_delivered));
  EXPECT_GT(stalled, 0u);
}

// The harness, recording after every cycle how many flits have crossed its
// router-to-router links so far, to check the measurement window.
class LinkRecordingFabric : public HarnessFabric {
 public:
  using HarnessFabric::HarnessFabric;
  void step() override {
    HarnessFabric::step();
    const std::vector<std::uint64_t> ports = link_flits();
    flits_after_cycle.push_back(std::accumulate(ports.begin(), ports.end(), std::uint64_t{0}));
  }
  std::vector<std::uint64_t> flits_after_cycle;  // [c]: flits sent in cycles 0..c
};

TEST(Network, Torus4x4StatisticsMinimalShareHopHistogramAndLinkUtilisation) {
  Bench b(kTorus4x4);
  const ModelFactory factory = load_model(b.design, b.emitted, ModelKind::Router);
  LinkRecordingFabric fabric(b.design, *b.relation, factory);
  SimOptions o;
  o.load = 0.05;
  o.warmup = 500;
  o.cycles = 3000;
  const SimResult r = run_simulation(b.design, *b.relation, fabric, o);
  expect_clean(r);

  // Every measured packet that arrived, with its hops from the header.
  std::vector<std::int64_t> histogram;
  std::int64_t measured = 0;
  for (const DeliveredPacket& p : r.packets) {
    if (!p.measured) continue;
    ++measured;
    EXPECT_TRUE(p.minimal()) << "DOR routes every packet minimally";
    if (static_cast<size_t>(p.hops) >= histogram.size()) histogram.resize(static_cast<size_t>(p.hops) + 1);
    ++histogram[static_cast<size_t>(p.hops)];
  }
  ASSERT_GT(measured, 300);
  EXPECT_EQ(r.packets_delivered_measured, measured);
  EXPECT_EQ(r.packets_delivered_measured, r.latency.count);
  EXPECT_LT(r.packets_delivered_measured, r.packets_delivered) << "warmup packets are not measured";
  EXPECT_EQ(r.packets_minimal, measured);
  EXPECT_EQ(r.packets_nonminimal, 0);
  EXPECT_EQ(r.minimal_share, 1.0);
  EXPECT_EQ(r.hop_histogram, histogram);
  EXPECT_EQ(std::accumulate(r.hop_histogram.begin(), r.hop_histogram.end(), std::int64_t{0}), measured);

  // Link utilisation over the measurement window only: flits sent in cycles
  // warmup .. warmup+cycles-1 over 64 links.
  ASSERT_GE(fabric.flits_after_cycle.size(), static_cast<size_t>(o.warmup + o.cycles));
  const std::uint64_t in_window = fabric.flits_after_cycle[static_cast<size_t>(o.warmup + o.cycles - 1)] -
                                  fabric.flits_after_cycle[static_cast<size_t>(o.warmup - 1)];
  EXPECT_TRUE(r.links_observed);
  EXPECT_DOUBLE_EQ(r.link_utilisation, static_cast<double>(in_window) / (64.0 * static_cast<double>(o.cycles)));
  EXPECT_GT(r.link_utilisation, 0);
  ASSERT_EQ(r.link_utilisation_by_class.size(), 1u);
  EXPECT_EQ(r.link_utilisation_by_class.at(PortClass::Dimension), r.link_utilisation);

  const nlohmann::ordered_json j = r.to_json();
  for (const char* key : {"packets_delivered", "packets_delivered_measured", "minimal_share", "packets_minimal",
                          "packets_nonminimal", "hop_histogram", "link_utilisation", "link_utilisation_by_class"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["minimal_share"], 1.0);
  EXPECT_EQ(j["hop_histogram"].size(), histogram.size());
  EXPECT_EQ(j["link_utilisation_by_class"].size(), 1u);
  EXPECT_EQ(j["link_utilisation_by_class"]["dimension"], r.link_utilisation);
}

// A fabric whose NIs never return ejection credits: the network must fill and
// stop, and the watchdog must call it a deadlock and dump the occupied VCs.
class CreditSwallowingFabric : public HarnessFabric {
 public:
  using HarnessFabric::HarnessFabric;
  void set_ni_credit_in(int node, const LinkCredit&) override { HarnessFabric::set_ni_credit_in(node, {}); }
};

TEST(Network, WatchdogReportsDeadlockWithADumpOfOccupiedVcs) {
  Bench b(kTorus4x4);
  const ModelFactory factory = load_model(b.design, b.emitted, ModelKind::Router);
  CreditSwallowingFabric fabric(b.design, *b.relation, factory);
  SimOptions o;
  o.load = 0.5;
  o.warmup = 0;
  o.cycles = 3000;
  o.watchdog = 500;
  const SimResult r = run_simulation(b.design, *b.relation, fabric, o);
  EXPECT_TRUE(r.deadlock);
  EXPECT_NE(r.failure.find("deadlock: no flit moved for 500 cycles"), std::string::npos) << r.failure;
  EXPECT_NE(r.failure.find("input port"), std::string::npos) << r.failure;
  EXPECT_NE(r.failure.find("packets in flight"), std::string::npos) << r.failure;
}

TEST(Network, SaturationIsNotMistakenForDeadlock) {
  // Hotspot traffic saturates one ejection port; flits still move, so the
  // watchdog (short here) must stay quiet.
  Bench b(kTorus4x4);
  SimOptions o;
  o.pattern = "hotspot";
  o.hotspot_fraction = 0.9;
  o.load = 0.8;
  o.warmup = 0;
  o.cycles = 4000;
  o.drain = 0;
  o.watchdog = 200;
  const SimResult r = b.run(o);
  expect_clean(r);
  expect_saturated(r);
  EXPECT_LT(r.accepted_load, 0.2) << "one ejection port of 16 carries the hotspot share";
  // That port ejects a flit almost every cycle, and never more than one.
  ASSERT_EQ(r.ejected_by_node.size(), 16u);
  const auto hottest = std::max_element(r.ejected_by_node.begin(), r.ejected_by_node.end());
  EXPECT_GT(*hottest, 0.95);
  EXPECT_LE(*hottest, 1.0);
  EXPECT_NEAR(std::accumulate(r.ejected_by_node.begin(), r.ejected_by_node.end(), 0.0),
              std::accumulate(r.accepted_by_node.begin(), r.accepted_by_node.end(), 0.0), 1e-9)
      << "the same packets, counted at their destinations";
}
