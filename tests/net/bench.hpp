// Shared by the network regressions: a design built from a TOML string, its
// Verilated model, and the checks every clean run must pass.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/emit.hpp"
#include "rlroute/gen/pipeline.hpp"
#include "rlroute/tb/fabric.hpp"
#include "rlroute/tb/model_build.hpp"
#include "rlroute/gen/routing.hpp"
#include "rlroute/tb/simulation.hpp"

namespace rlroute::test {

// The 4x4 torus of the network regressions (DOR, 2 VCs, 4-flit packets).
inline constexpr const char* kTorus4x4 = R"(
[design]
name = "net_torus4x4"
[topology]
kind = "torus"
dims = [4, 4]
[router]
vcs = 2
buffer_flits = 8
flit_bits = 64
max_packet_flits = 4
)";

// A network top is simulated here only for a short cross-check against the
// harness, so its model is compiled for build time, not for long runs, and
// without a waveform unless the test reads one (or shares the model of one
// that does).
inline ModelCacheOptions network_top_build(bool waveform = false) {
  ModelCacheOptions cache;
  cache.compile = ModelCompile::ForBuildTime;
  cache.waveform = waveform;
  return cache;
}

// The emitted design run on the harness (its router models) or as one
// network top, with `threads` harness threads.
inline SimResult run_emitted(const Design& design, const RoutingRelation& relation, const EmittedDesign& emitted,
                             ModelKind kind, const SimOptions& o, int threads, bool waveform = false) {
  const ModelFactory factory = kind == ModelKind::Network
                                   ? load_model(design, emitted, kind, {}, network_top_build(waveform))
                                   : load_model(design, emitted, kind);
  if (kind == ModelKind::Network) {
    NetworkTopFabric fabric(design, relation, factory);
    return run_simulation(design, relation, fabric, o);
  }
  HarnessFabric fabric(design, relation, factory, threads);
  return run_simulation(design, relation, fabric, o);
}

struct Bench {
  Design design;
  EmittedDesign emitted;
  std::unique_ptr<RoutingRelation> relation;
  bool network_waveform = false;  // the network top's model with a waveform (network_top_build)
  explicit Bench(const std::string& toml)
      : design(derive_design(parse_config(toml, "test.toml"))),
        emitted(emit_design(design)),
        relation(make_routing_relation(design)) {}

  SimResult run(const SimOptions& o, ModelKind kind = ModelKind::Router) {
    return run_emitted(design, *relation, emitted, kind, o, o.threads, network_waveform);
  }
};

// Run options: offered load, warmup, measured cycles and drain cap.
inline SimOptions run_options(double load, std::int64_t warmup, std::int64_t cycles, std::int64_t drain = 20000) {
  SimOptions o;
  o.load = load;
  o.warmup = warmup;
  o.cycles = cycles;
  o.drain = drain;
  return o;
}

// No packet of a low-load run is faster than the formula, and the fastest of
// every (hops, length) takes exactly that long. Returns the pairs seen.
inline std::map<std::pair<int, int>, int> expect_zero_load_latency(const SimResult& r, int link_latency,
                                                                   const std::string& what,
                                                                   SwitchAllocation allocation = SwitchAllocation::AfterVc) {
  std::map<std::pair<int, int>, int> fastest;  // (hops, length) -> lowest latency
  for (const DeliveredPacket& p : r.packets) {
    const auto latency = static_cast<int>(p.ejected - p.injected);
    EXPECT_GE(latency, zero_load_latency(p.hops, link_latency, p.length, allocation)) << what;
    auto [it, fresh] = fastest.emplace(std::make_pair(p.hops, p.length), latency);
    if (!fresh) it->second = std::min(it->second, latency);
  }
  for (const auto& [key, latency] : fastest) {
    EXPECT_EQ(latency, zero_load_latency(key.first, link_latency, key.second, allocation))
        << what << ", " << key.first << " hops, " << key.second << " flits";
  }
  return fastest;
}

inline void expect_clean(const SimResult& r) {
  EXPECT_TRUE(r.ok()) << r.failure;
  EXPECT_FALSE(r.deadlock);
  EXPECT_EQ(r.packets_lost, 0);
  EXPECT_EQ(r.packets_corrupted, 0);
  EXPECT_EQ(r.packets_duplicated, 0);
  EXPECT_EQ(r.packets_misrouted, 0);
  EXPECT_EQ(r.packets_delivered, r.packets_injected);
}

// The network was overloaded: sources backed up (packets still queued at the
// end) and the network accepted less than was offered.
inline void expect_saturated(const SimResult& r) {
  EXPECT_GT(r.packets_not_injected, 0) << "sources must have backed up for this to be overload";
  EXPECT_LT(r.accepted_load, r.offered_load * 0.95) << "the network accepted (nearly) all that was offered";
}

// Runs the same traffic on the harness and on the generated network top and
// checks that every packet is injected and ejected in the same cycle, over the
// same number of hops, with the same final route state. Returns both results.
inline std::pair<SimResult, SimResult> expect_harness_matches_network_top(Bench& b, const SimOptions& o) {
  SimResult harness = b.run(o, ModelKind::Router);
  SimResult network = b.run(o, ModelKind::Network);
  expect_clean(harness);
  expect_clean(network);
  EXPECT_EQ(harness.packets.size(), network.packets.size());
  for (size_t i = 0; i < std::min(harness.packets.size(), network.packets.size()); ++i) {
    const DeliveredPacket& a = harness.packets[i];
    const DeliveredPacket& n = network.packets[i];
    if (std::tie(a.src, a.dst, a.length, a.hops, a.injected, a.ejected, a.phase, a.inter) !=
        std::tie(n.src, n.dst, n.length, n.hops, n.injected, n.ejected, n.phase, n.inter)) {
      ADD_FAILURE() << "packet " << i << " differs";
      break;
    }
  }
  EXPECT_EQ(harness.cycles, network.cycles);
  return {std::move(harness), std::move(network)};
}

// `rlroute sim --threads`: the harness on 1, 2 and 3 threads gives the same
// results, every delivered packet and every statistic (all but the speed).
// Returns the run on one thread.
inline SimResult expect_same_at_every_thread_count(Bench& b, SimOptions o) {
  const auto without_speed = [](const SimResult& r) {
    nlohmann::ordered_json j = r.to_json();
    j.erase("router_cycles_per_second");
    j.erase("wall_seconds");
    return j;
  };
  o.threads = 1;
  SimResult one = b.run(o);
  expect_clean(one);
  for (const int threads : {2, 3}) {
    o.threads = threads;
    const SimResult r = b.run(o);
    EXPECT_EQ(without_speed(r).dump(), without_speed(one).dump()) << threads << " threads";
    EXPECT_EQ(r.packets.size(), one.packets.size()) << threads << " threads";
    for (size_t i = 0; i < std::min(r.packets.size(), one.packets.size()); ++i) {
      const DeliveredPacket& a = one.packets[i];
      const DeliveredPacket& t = r.packets[i];
      if (std::tie(a.src, a.dst, a.length, a.hops, a.created, a.injected, a.ejected, a.phase, a.inter, a.pdor) !=
          std::tie(t.src, t.dst, t.length, t.hops, t.created, t.injected, t.ejected, t.phase, t.inter, t.pdor)) {
        ADD_FAILURE() << "packet " << i << " differs on " << threads << " threads";
        break;
      }
    }
  }
  return one;
}

}  // namespace rlroute::test
