// The DPSNN application model (tb/src/dpsnn_app.cpp): messages cut into
// packets, the compute / exchange / barrier cycle of a step, Poisson spike
// counts at the firing rate's mean, and the errors of a network or a run that
// cannot carry it. docs/traffic.md, "dpsnn".
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "configs.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/tb/dpsnn_app.hpp"
#include "rlroute/tb/sim_options.hpp"

using namespace rlroute;

namespace {

std::vector<int> lengths(const std::vector<AppPacket>& packets) {
  std::vector<int> out;
  for (const AppPacket& p : packets) out.push_back(p.length);
  return out;
}

DpsnnSpec spec_with(double rate, int neurons, int spike_bytes, int compute) {
  DpsnnSpec s;
  s.rate_hz = rate;
  s.neurons = neurons;
  s.spike_bytes = spike_bytes;
  s.compute_cycles = compute;
  return s;
}

// Every packet of a step's exchange, by (src, dst): its payload flits.
std::map<std::pair<int, int>, int> payload_by_pair(const std::vector<AppPacket>& packets) {
  std::map<std::pair<int, int>, int> m;
  for (const AppPacket& p : packets) m[{p.src, p.dst}] += p.length - 2;
  return m;
}

}  // namespace

TEST(DpsnnApp, AMessageIsItsSpikesInPacketsOfUpToTheRoutersMaximum) {
  // 12-byte spikes. 64-bit flits and 4-flit packets (2 payload flits each):
  // 52 spikes = 624 bytes = 78 flits = 39 packets.
  const DpsnnApp small(DpsnnSpec{}, 16, 64, 2, 4, 1);
  const std::vector<AppPacket> m = small.message(3, 7, 52);
  ASSERT_EQ(m.size(), 39u);
  for (const AppPacket& p : m) EXPECT_EQ((std::vector<int>{p.src, p.dst, p.length}), (std::vector<int>{3, 7, 4}));
  // 128-bit flits and the 256-flit packets of [Lonardo 2019] (254 payload
  // flits): 1000 spikes = 12,000 bytes = 750 flits = 254 + 254 + 242.
  const DpsnnApp big(DpsnnSpec{}, 16, 128, 2, 256, 1);
  EXPECT_EQ(lengths(big.message(0, 1, 1000)), (std::vector<int>{256, 256, 244}));
  EXPECT_EQ(lengths(big.message(0, 1, 52)), (std::vector<int>{41}));  // 624 bytes: 39 flits, rounded up
  EXPECT_EQ(lengths(big.message(0, 1, 1)), (std::vector<int>{3}));
  EXPECT_TRUE(big.message(0, 1, 0).empty());  // no spikes, no message
  // A router whose packets have at least 8 flits: the last one is padded.
  const DpsnnApp padded(DpsnnSpec{}, 16, 64, 8, 16, 1);
  EXPECT_EQ(lengths(padded.message(0, 1, 12)), (std::vector<int>{16, 8}));  // 18 flits: 14 + 4
}

TEST(DpsnnApp, EachStepComputesThenExchangesAllToAllThenWaitsAtTheBarrier) {
  constexpr int kNodes = 5;
  DpsnnApp app(spec_with(400, 100, 8, 10), kNodes, 64, 2, 256, 3);  // 40 spikes per step, a flit each
  for (std::int64_t c = 0; c < 10; ++c) EXPECT_TRUE(app.tick(c, true).empty()) << "computing at cycle " << c;
  const std::vector<AppPacket> step = app.tick(10, true);
  const std::map<std::pair<int, int>, int> pairs = payload_by_pair(step);
  ASSERT_EQ(pairs.size(), static_cast<size_t>(kNodes * (kNodes - 1)));  // every ordered pair, once each
  for (int src = 0; src < kNodes; ++src) {
    EXPECT_EQ(pairs.count({src, src}), 0u);
    // The same spikes go to every other process.
    for (int dst = 0; dst < kNodes; ++dst) {
      if (dst != src) {
        EXPECT_EQ(pairs.at({src, dst}), pairs.at({src, (src + 1) % kNodes}));
      }
    }
  }
  // Each node's messages in pairwise all-to-all order: src + 1, src + 2, ...
  std::vector<int> order;
  for (const AppPacket& p : step) {
    if (p.src == 2 && (order.empty() || order.back() != p.dst)) order.push_back(p.dst);
  }
  EXPECT_EQ(order, (std::vector<int>{3, 4, 0, 1}));
  // Nothing more until every message has arrived, then a new compute phase.
  for (std::int64_t c = 11; c < 50; ++c) EXPECT_TRUE(app.tick(c, false).empty());
  EXPECT_EQ(app.steps_completed(), 0);
  EXPECT_TRUE(app.tick(50, true).empty());
  EXPECT_EQ(app.steps_completed(), 1);
  EXPECT_EQ(app.mean_step_cycles(), 50.0);
  for (std::int64_t c = 51; c < 60; ++c) EXPECT_TRUE(app.tick(c, true).empty());
  EXPECT_FALSE(app.tick(60, true).empty());
}

TEST(DpsnnApp, SpikeCountsArePoissonWithTheFiringRatesMean) {
  // 2,500 neurons at 100 Hz: 250 spikes per 1 ms step; 8-byte spikes in
  // 64-bit flits, so a message's payload flits are its spikes.
  constexpr int kNodes = 16, kSteps = 200;
  DpsnnApp app(spec_with(100, 2500, 8, 0), kNodes, 64, 2, 256, 11);
  EXPECT_DOUBLE_EQ(app.mean_spikes(), 250.0);
  std::vector<double> counts;
  // No compute phase: each cycle with an empty network passes the barrier
  // and starts the next exchange.
  for (int step = 0; step < kSteps; ++step) {
    const std::map<std::pair<int, int>, int> pairs = payload_by_pair(app.tick(step, true));
    for (int src = 0; src < kNodes; ++src) counts.push_back(pairs.at({src, (src + 1) % kNodes}));
  }
  const double n = static_cast<double>(counts.size());
  const double mean = std::accumulate(counts.begin(), counts.end(), 0.0) / n;
  double var = 0;
  for (double c : counts) var += (c - mean) * (c - mean);
  var /= n - 1;
  // 3,200 samples: the mean's standard error is 0.28 spikes; Poisson's variance equals its mean.
  EXPECT_NEAR(mean, 250.0, 1.5);
  EXPECT_NEAR(var / mean, 1.0, 0.1);
  EXPECT_EQ(app.steps_completed(), kSteps - 1);
}

TEST(DpsnnApp, TheSeedFixesTheTraffic) {
  const DpsnnSpec s = spec_with(50, 2500, 12, 0);
  auto first_step = [&s](std::uint64_t seed) {
    DpsnnApp app(s, 16, 64, 2, 64, seed);
    return lengths(app.tick(0, true));
  };
  EXPECT_EQ(first_step(4), first_step(4));
  EXPECT_NE(first_step(4), first_step(5));
}

TEST(DpsnnApp, NetworksThatCannotCarryItAreRejected) {
  auto error_of = [](const Config& cfg, const std::string& text) {
    try {
      make_dpsnn_app(derive_design(cfg), parse_traffic_spec(text), 1);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  Config two_flits = test::grid(TopologyKind::Torus, {4, 4});
  two_flits.max_packet_flits = 2;
  EXPECT_EQ(error_of(two_flits, "dpsnn:rate=47"),
            "traffic pattern \"dpsnn:rate=47\": needs router.max_packet_flits >= 3 (a header, payload, a footer); "
            "this router: 2");
  EXPECT_EQ(error_of(test::grid(TopologyKind::Torus, {4, 4}), "dpsnn"), "no error");
}

TEST(DpsnnApp, ASimulationWithItTakesNoPacketSizesAndItIsNoPhase) {
  const Design design = derive_design(test::grid(TopologyKind::Torus, {4, 4}));
  auto error_of = [&design](const SimOverrides& o) {
    try {
      resolve_sim_options(design, o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  SimOverrides o;
  o.pattern = "dpsnn:rate=89";
  EXPECT_EQ(error_of(o), "no error");
  EXPECT_TRUE(runs_application(resolve_sim_options(design, o)));
  o.packet_flits = 4;
  EXPECT_EQ(error_of(o), "--packet-flits 4: conflicts with the dpsnn pattern, which cuts its messages into packets "
                         "of up to router.max_packet_flits");
  SimOverrides phased;
  phased.phases = "0:uniform@0.3,1000:dpsnn@0.3";
  EXPECT_EQ(error_of(phased),
            "--phases 0:uniform@0.3,1000:dpsnn@0.3: phase at cycle 1000: traffic pattern \"dpsnn\": an application "
            "model, not a destination pattern: it runs only as the whole traffic of a run (--pattern or "
            "sim.pattern), not in --phases");
  EXPECT_FALSE(runs_application(resolve_sim_options(design, SimOverrides{})));
}
