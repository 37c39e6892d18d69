// Dragonfly network regressions on dfly(2,4,2,9) (72 nodes, 36 routers) for
// every routing algorithm: zero-load latency against the per-hop formula,
// 20,000 cycles of overload without deadlock or loss, and MIN vs VALg under
// adversarial traffic.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "rlroute/gen/algorithm.hpp"
#include "rlroute/gen/pipeline.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"
#include "rlroute/gen/routing_q_adaptive.hpp"

#include "bench.hpp"
#include "fst_signals.hpp"

using namespace rlroute;
using namespace rlroute::test;

namespace rlroute {
// GoogleTest names the parameter in test names and failures by its algorithm name.
void PrintTo(const AlgorithmTraits& a, std::ostream* os) { *os << a.name; }
}  // namespace rlroute

namespace {

// Every implemented dragonfly algorithm of the traits table, with the VCs it needs.
std::vector<AlgorithmTraits> dragonfly_algorithms() {
  std::vector<AlgorithmTraits> out;
  for (const AlgorithmTraits& a : kAlgorithms) {
    if (a.family == TopologyFamily::Dragonfly && a.implemented) out.push_back(a);
  }
  return out;
}

std::string dfly_config(const AlgorithmTraits& a) {
  return fmt::format(
      "[design]\nname = \"net_dfly_{0}\"\n"
      "[topology]\nkind = \"dragonfly\"\np = 2\na = 4\nh = 2\ng = 9\n"
      "local_link_latency = 1\nglobal_link_latency = 10\nlocal_credit_latency = 1\nglobal_credit_latency = 10\n"
      "[router]\nvcs = {1}\nbuffer_flits = 24\nflit_bits = {2}\nmax_packet_flits = 4\n"
      "[routing]\nalgorithm = \"{0}\"\n",
      a.name, a.vc_levels, a.choice == PathChoice::QTable ? 128 : 64);  // Q-adaptive's header has a time stamp
}

// Zero-load network latency of a path (docs/routing_dragonfly.md): every
// router-to-router hop costs hop_latency(its link latency), plus the
// destination router's cycles and Lp (gen/pipeline.hpp, zero_load_latency).
struct PathLatencies {
  // (route phase, intermediate at ejection) -> zero-load latencies of the
  // paths the relation allows that end with that header.
  std::map<std::pair<int, int>, std::set<int>> by_end_state;
};

void walk(const Design& d, const RoutingRelation& rel, int router, int in_port, int in_vc, const RouteState& s,
          int cycles, int packet_flits, PathLatencies& out) {
  // A decision through a register (routing.decision = "vc_head_registered";
  // Q-adaptive always) delays the packet's VC request by one cycle; a
  // Q-adaptive decision in two cycles (routing.q_decision_cycles) by two.
  if (const auto* q = dynamic_cast<const QAdaptiveRouting*>(&rel)) {
    if (q->presented_at_head(router, in_port, s)) cycles += d.cfg.q_decision_cycles;
  } else if (d.cfg.decision == DecisionPoint::VcHeadRegistered &&
             dynamic_cast<const DragonflyRouting&>(rel).decision_open(router, in_port, s)) {
    ++cycles;
  }
  for (const RouteOption& o : rel.next_hops(router, in_port, in_vc, s)) {
    int vc = 0;
    while (!(o.vc_mask & (1u << vc))) ++vc;
    if (d.topo.is_ni_port(o.out_port)) {
      // A minimal PAR packet carries the source's candidate too; keyed as minimal.
      const int inter = o.next.mode == RouteMode::Minimal ? -1 : o.next.inter;
      out.by_end_state[{static_cast<int>(o.next.mode), inter}].insert(cycles + router_cycles(d.cfg.switch_allocation) + packet_flits);
      continue;
    }
    const PortRef n = *d.topo.neighbor(router, o.out_port);
    walk(d, rel, n.router, n.port, vc, o.next, cycles + hop_latency(d.topo.link_latency(o.out_port), d.cfg.switch_allocation), packet_flits, out);
  }
}

// At 0.01 every packet takes at least the zero-load latency of a path the
// relation allows, and the fastest of each path length exactly that.
void expect_zero_load_latencies(const std::string& toml) {
  Bench b(toml);
  SimOptions o;
  o.load = 0.01;
  o.warmup = 200;
  o.cycles = 6000;
  const SimResult r = b.run(o);
  expect_clean(r);
  const Topology& t = b.design.topo;
  std::map<std::pair<int, int>, PathLatencies> paths;  // (src, dst)
  std::map<int, int> fastest;                           // zero-load latency -> fastest such packet
  int checked = 0;
  for (const DeliveredPacket& p : r.packets) {
    auto it = paths.find({p.src, p.dst});
    if (it == paths.end()) {
      PathLatencies pl;
      walk(b.design, *b.relation, t.router_of_node(p.src), t.local_of_node(p.src), 0,
           RouteState{p.dst, p.src, -1, RouteMode::Minimal}, 0, p.length, pl);
      it = paths.emplace(std::make_pair(p.src, p.dst), pl).first;
    }
    // The delivered header's phase and intermediate pick the candidate paths.
    const int inter = p.phase == RouteMode::Minimal ? -1 : p.inter;
    const auto cand = it->second.by_end_state.find({static_cast<int>(p.phase), inter});
    ASSERT_NE(cand, it->second.by_end_state.end()) << "delivered with a route state no path ends in";
    const int latency = static_cast<int>(p.ejected - p.injected);
    ASSERT_GE(latency, *cand->second.begin()) << p.src << "->" << p.dst << ": faster than the zero-load latency";
    if (cand->second.size() == 1) {
      const int t0 = *cand->second.begin();
      auto [f, inserted] = fastest.emplace(t0, latency);
      if (!inserted) f->second = std::min(f->second, latency);
      ++checked;
    }
  }
  ASSERT_GT(checked, 100);
  for (const auto& [t0, best] : fastest) EXPECT_EQ(best, t0) << "the fastest packet of each path length takes T0";
}

// Offered 1.0 for 20,000 cycles from an empty network.
void expect_overload_survives(const std::string& toml, const std::string& name) {
  Bench b(toml);
  SimOptions o;
  o.load = 1.0;
  o.warmup = 0;
  o.cycles = 20000;
  o.drain = 0;
  const SimResult r = b.run(o);
  expect_clean(r);
  EXPECT_GT(r.accepted_load, 0.1);
  expect_saturated(r);
  if (name == "min") {
    EXPECT_DOUBLE_EQ(r.minimal_share, 1.0);
  }
  if (name == "valg" || name == "valn") {
    // Only packets inside one group go minimally (routing.intra_group =
    // "minimal"): 7 of the 71 destinations of a node under uniform traffic.
    EXPECT_GT(r.minimal_share, 0.06);
    EXPECT_LT(r.minimal_share, 0.2);
  }
}

}  // namespace

class DragonflyNetwork : public ::testing::TestWithParam<AlgorithmTraits> {};

TEST_P(DragonflyNetwork, LowLoadDeliversEverythingAtTheZeroLoadLatency) {
  expect_zero_load_latencies(dfly_config(GetParam()));
}

TEST_P(DragonflyNetwork, OverloadFor20000CyclesNeitherDeadlocksNorLosesPackets) {
  expect_overload_survives(dfly_config(GetParam()), std::string(GetParam().name));
}

INSTANTIATE_TEST_SUITE_P(EveryAlgorithm, DragonflyNetwork, ::testing::ValuesIn(dragonfly_algorithms()),
                         [](const ::testing::TestParamInfo<AlgorithmTraits>& info) { return std::string(info.param.name); });

// Q-adaptive with its decision in two cycles (routing.q_decision_cycles = 2:
// the row read into a register, the decision in the next cycle): each
// decision costs one cycle more at zero load, and the Q feedback check
// follows the later read.
std::string q_two_cycle_config() {
  for (const AlgorithmTraits& a : dragonfly_algorithms()) {
    if (a.choice == PathChoice::QTable) return dfly_config(a) + "q_decision_cycles = 2\n";
  }
  throw std::logic_error("no Q-adaptive in the traits table");
}

TEST(QAdaptiveTwoCycleDecisions, LowLoadDeliversEverythingAtTheZeroLoadLatency) {
  expect_zero_load_latencies(q_two_cycle_config());
}

TEST(QAdaptiveTwoCycleDecisions, OverloadFor20000CyclesNeitherDeadlocksNorLosesPackets) {
  expect_overload_survives(q_two_cycle_config(), "q_adaptive");
}

// Speculative switch allocation (router.switch_allocation): a cycle less in
// every router, the registered decisions' extra cycles unchanged. PAR (open
// choices at two routers of the source group) and Q-adaptive against the
// zero-load latencies of the paths the relation allows.
std::string speculative_config(const std::string& name) {
  for (const AlgorithmTraits& a : dragonfly_algorithms()) {
    if (a.name != name) continue;
    std::string toml = dfly_config(a);
    const std::string design = "name = \"net_dfly_" + name + "\"";
    toml.replace(toml.find(design), design.size(), "name = \"net_dfly_" + name + "_spec\"");
    toml.replace(toml.find("[router]\n"), 9, "[router]\nswitch_allocation = \"speculative\"\n");
    return toml;
  }
  throw std::logic_error("no algorithm " + name + " in the traits table");
}

TEST(DragonflySpeculative, LowLoadDeliversEverythingAtTheZeroLoadLatency) {
  for (const std::string name : {"par", "q_adaptive"}) {
    SCOPED_TRACE(name);
    expect_zero_load_latencies(speculative_config(name));
  }
}

TEST(DragonflyAdversarial, UnderAdv1MinAcceptsLessThanValg) {
  SimOptions o;
  o.pattern = "adv+1";
  o.load = 0.5;
  o.warmup = 1000;
  o.cycles = 4000;
  o.drain = 0;
  Bench min(dfly_config(traits(RoutingAlgorithm::Min)));
  Bench valg(dfly_config(traits(RoutingAlgorithm::Valg)));
  const SimResult rm = min.run(o);
  const SimResult rv = valg.run(o);
  EXPECT_TRUE(rm.ok()) << rm.failure;
  EXPECT_TRUE(rv.ok()) << rv.failure;
  // ADV+1 sends a whole group over its one global link to the next group:
  // MIN is capped near 1/(a*p) = 0.125; VALg spreads over every group.
  EXPECT_LT(rm.accepted_load, 0.13);
  EXPECT_GT(rv.accepted_load, 2 * rm.accepted_load);
}

// UGAL-LE's mechanism, isolated: on the smallest dragonfly, with the
// counters' window so long that no flow can become active in the run (C_j = 0
// always), UGAL-LE routes every packet as UGAL-n does, cycle for cycle; with
// the counters active under ADV+1 the series sees active flows and the
// contention term sends more packets off the minimal path than UGAL-n.
std::string small_ugal_config(const std::string& algorithm, const std::string& contention) {
  return fmt::format(
      "[design]\nname = \"net_dfly_1_2_1_3_{0}\"\n"
      "[topology]\nkind = \"dragonfly\"\np = 1\na = 2\nh = 1\ng = 3\n"
      "local_link_latency = 1\nglobal_link_latency = 3\nlocal_credit_latency = 2\nglobal_credit_latency = 3\n"
      "[router]\nvcs = 4\nbuffer_flits = 8\nmax_packet_flits = 4\n"
      "[routing]\nalgorithm = \"{1}\"\n{2}",
      contention.empty() ? algorithm : algorithm + "_c0", algorithm, contention);
}

TEST(UgalLeMechanism, WithNoActiveFlowItRoutesAsUgalNAndWithThemLessMinimally) {
  SimOptions o = run_options(0.4, 200, 3000);
  o.pattern = "adv+1";
  o.packet_flits_min = 2;
  o.packet_flits_max = 4;
  o.series_window = 500;
  Bench ugal_n(small_ugal_config("ugal_n", ""));
  Bench never_active(small_ugal_config("ugal_le", "contention_window = 65535\ncontention_threshold = 65534\n"));
  Bench ugal_le(small_ugal_config("ugal_le", "contention_window = 50\ncontention_threshold = 2\n"));
  const SimResult rn = ugal_n.run(o);
  const SimResult r0 = never_active.run(o);
  const SimResult rle = ugal_le.run(o);
  expect_clean(rn);
  expect_clean(r0);
  expect_clean(rle);
  ASSERT_EQ(r0.packets.size(), rn.packets.size());
  for (std::size_t i = 0; i < rn.packets.size(); ++i) {
    const DeliveredPacket& a = r0.packets[i];
    const DeliveredPacket& n = rn.packets[i];
    ASSERT_EQ(std::tie(a.src, a.dst, a.hops, a.injected, a.ejected, a.phase, a.inter),
              std::tie(n.src, n.dst, n.hops, n.injected, n.ejected, n.phase, n.inter))
        << "packet " << i << ": UGAL-LE without active flows routed it otherwise than UGAL-n";
  }
  for (const SeriesPoint& p : r0.series) EXPECT_EQ(p.contention_mean, 0.0);
  double most = 0;
  for (const SeriesPoint& p : rle.series) most = std::max(most, p.contention_mean);
  EXPECT_GT(most, 0.0) << "ADV+1 at 0.4 must make some flows active";
  EXPECT_LT(rle.minimal_share, rn.minimal_share)
      << "the contention term must move packets off the minimal path (UGAL-LE " << rle.minimal_share
      << ", UGAL-n " << rn.minimal_share << ")";
}

// The generated network top (every rr_route_dfly with its LFSR, the UGAL-LE
// counters, local and global links of different latency) and the harness
// agree on every packet's injection and ejection cycle and its route.
TEST(DragonflyNetworkTop, HarnessAndGeneratedNetworkTopAgreeCycleForCycle) {
  // The design of the contention test below, with its waveform: one
  // network-top model for both.
  Bench b(small_ugal_config("ugal_le", "contention_window = 50\ncontention_threshold = 2\n"));
  b.network_waveform = true;
  SimOptions o;
  o.load = 0.5;
  o.warmup = 100;
  o.cycles = 3000;
  o.packet_flits_min = 2;
  o.packet_flits_max = 4;
  o.series_window = 250;
  const auto [harness, network] = expect_harness_matches_network_top(b, o);
  EXPECT_GT(harness.packets_nonminimal, 0) << "some packets must have been routed non-minimally";
  EXPECT_GT(harness.packets_minimal, 0);
  // The series' mean contention factor (the reference's copy of the
  // counters, tb/contention_mirror.hpp): within 0..a, not always zero at
  // this load, the same on both fabrics; no Q-table estimates.
  ASSERT_EQ(harness.series.size(), network.series.size());
  double most = 0;
  for (std::size_t i = 0; i < harness.series.size(); ++i) {
    const SeriesPoint& p = harness.series[i];
    EXPECT_GE(p.contention_mean, 0.0);
    EXPECT_LE(p.contention_mean, b.design.topo.group_size());
    EXPECT_EQ(p.contention_mean, network.series[i].contention_mean) << "window " << i;
    EXPECT_EQ(p.mean_q, -1.0);
    most = std::max(most, p.contention_mean);
  }
  EXPECT_GT(most, 0.0);
}

// UGAL-LE's contention copy (tb/contention_mirror.hpp) against the routers'
// own counters: the generated network top's FST waveform holds every
// router's rr_contention output. After every clock edge the series' mean
// factor (a window per cycle) must equal the mean of those outputs over the
// routers and the groups other than each router's own, and it must not
// after the edge before or after it (the comparison sees a one-cycle slip).
// Tracing starts at cycle 0: the first rising edge it records is the first
// after reset.
TEST(DragonflyNetworkTop, ContentionCopyEqualsTheRoutersCountersAfterEveryEdge) {
  Bench b(small_ugal_config("ugal_le", "contention_window = 50\ncontention_threshold = 2\n"));
  SimOptions o = run_options(0.3, 200, 1000, 0);
  o.pattern = "adv+1";
  o.series_window = 1;
  o.trace_from = 0;
  o.trace_to = 1300;
  const std::filesystem::path fst =
      std::filesystem::temp_directory_path() / fmt::format("rlroute_contention_{}.fst", ::getpid());
  const ModelFactory factory = load_model(b.design, b.emitted, ModelKind::Network, {}, network_top_build(true));  // outlives the fabric
  SimResult r;
  {
    NetworkTopFabric fabric(b.design, *b.relation, factory);
    fabric.model().open_trace(fst.string());
    r = run_simulation(b.design, *b.relation, fabric, o);
  }  // the model closes the trace
  expect_clean(r);
  const FstSignals wave(fst.string(), {"i_contention.contention_o", "TOP.clk_i"});
  std::filesystem::remove(fst);
  std::vector<std::uint64_t> edges;  // edge k (1, 2, ...) at edges[k - 1]
  for (const auto& [time, bits] : wave.changes("TOP.clk_i")) {
    if (bits == "1") edges.push_back(time);
  }
  const Topology& t = b.design.topo;
  std::vector<std::string> counters(static_cast<std::size_t>(t.num_routers()));
  for (const std::string& name : wave.names()) {
    for (int router = 0; router < t.num_routers(); ++router) {
      if (name.find(fmt::format("gen_router[{}].", router)) != std::string::npos) counters[static_cast<std::size_t>(router)] = name;
    }
  }
  for (const std::string& name : counters) ASSERT_FALSE(name.empty()) << "a router's contention_o is not in the trace";
  int cfw = 0;  // $clog2(a + 1)
  while ((1 << cfw) < t.group_size() + 1) ++cfw;
  const auto hardware_mean = [&](std::size_t edge) {
    double sum = 0;
    int n = 0;
    for (int router = 0; router < t.num_routers(); ++router) {
      const std::string bits = wave.at(counters[static_cast<std::size_t>(router)], edges[edge - 1]);
      for (int j = 0; j < t.num_groups(); ++j) {
        if (j == t.group_of(router)) continue;
        const std::size_t lsb_from_right = static_cast<std::size_t>(j * cfw);
        sum += std::stoi(bits.substr(bits.size() - lsb_from_right - static_cast<std::size_t>(cfw), static_cast<std::size_t>(cfw)), nullptr, 2);
        ++n;
      }
    }
    return sum / n;
  };
  int checked = 0, slipped_back = 0, slipped_forward = 0, active = 0;
  for (std::size_t edge = 2; edge + 1 <= edges.size() && edge <= r.series.size(); ++edge) {
    const SeriesPoint& p = r.series[edge - 1];
    ASSERT_EQ(p.end, static_cast<std::int64_t>(edge));
    EXPECT_DOUBLE_EQ(p.contention_mean, hardware_mean(edge)) << "after edge " << edge;
    slipped_back += p.contention_mean != hardware_mean(edge - 1);
    if (edge + 1 <= edges.size()) slipped_forward += p.contention_mean != hardware_mean(edge + 1);
    active += p.contention_mean > 0;
    ++checked;
  }
  EXPECT_GT(checked, 1000);
  EXPECT_GT(active, checked / 2) << "flows must be active for the comparison to mean anything";
  EXPECT_GT(slipped_back, 0);
  EXPECT_GT(slipped_forward, 0);
}

// The same for Q-adaptive: the table's initial values, the decisions, the
// feedback on the credit words and every LFSR agree cycle for cycle; on the
// smallest dragonfly with Q-adaptive's 5 VC levels (p = 1: one row per
// destination group).
TEST(DragonflyNetworkTop, QAdaptiveHarnessAndGeneratedNetworkTopAgreeCycleForCycle) {
  Bench b(R"(
[design]
name = "net_dfly_1_2_1_3_q_adaptive"
[topology]
kind = "dragonfly"
p = 1
a = 2
h = 1
g = 3
local_link_latency = 1
global_link_latency = 3
local_credit_latency = 2
global_credit_latency = 3
[router]
vcs = 5
buffer_flits = 8
max_packet_flits = 4
[routing]
algorithm = "q_adaptive"
epsilon = 0.05
)");
  SimOptions o;
  o.load = 0.5;
  o.warmup = 100;
  o.cycles = 3000;
  o.packet_flits_min = 2;
  o.packet_flits_max = 4;
  o.series_window = 250;
  const auto [harness, network] = expect_harness_matches_network_top(b, o);
  EXPECT_GT(harness.packets_nonminimal, 0) << "exploration and the table must have sent some packets non-minimally";
  EXPECT_GT(harness.packets_minimal, 0);
  // The series' table estimates (QMirror::port_estimates): the same on both
  // fabrics, the minimal port's below the best other one's at the start
  // (zero-load values), and learning moves them; no contention factor.
  ASSERT_EQ(harness.series.size(), network.series.size());
  ASSERT_GE(harness.series.size(), 2u);
  for (std::size_t i = 0; i < harness.series.size(); ++i) {
    const SeriesPoint& p = harness.series[i];
    EXPECT_EQ(p.q_minimal, network.series[i].q_minimal) << "window " << i;
    EXPECT_EQ(p.q_best_other, network.series[i].q_best_other) << "window " << i;
    EXPECT_GT(p.q_minimal, 0.0);
    EXPECT_EQ(p.contention_mean, -1.0);
  }
  EXPECT_LT(harness.series.front().q_minimal, harness.series.front().q_best_other);
  EXPECT_NE(harness.series.front().q_minimal, harness.series.back().q_minimal);
}
