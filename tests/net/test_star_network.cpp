// Star-channel routing in the network (routing.algorithm = "star",
// docs/routing_star.md): the zero-load latency with its decisions at the
// head of the VC, overload with every check on, what the adaptive VC buys
// against DOR with as many VCs, the route checker on a star hop outside the
// relation, and the generated network top against the harness.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "bench.hpp"
#include "rlroute/gen/emit.hpp"
#include "rlroute/gen/pipeline.hpp"

using namespace rlroute;
using namespace rlroute::test;

namespace {

// The example's router (examples/torus4x4_star.toml) on a 4x4 torus.
std::string torus4x4(const std::string& name, const std::string& algorithm, int vcs) {
  return R"(
[design]
name = ")" + name + R"("
[topology]
kind = "torus"
dims = [4, 4]
[router]
vcs = )" + std::to_string(vcs) +
         R"(
buffer_flits = 8
flit_bits = 64
max_packet_flits = 4
[routing]
algorithm = ")" + algorithm +
         "\"\n";
}

SimResult overload(Bench& b) { return b.run(run_options(1.0, 0, 20000, 0)); }

}  // namespace

// At zero load the decision sees equal (empty) ports and keeps the DOR hop,
// so a packet follows DOR's path; each router at which two dimensions are
// left to correct holds an open decision, which costs the registered
// decision's cycle there: latency = the zero-load formula + dx when the
// packet also moves in dimension 1 (dx: its hops in dimension 0). A packet
// that meets another may turn into dimension 1 early (fewer open decisions
// after it), but every packet pays for the one at its source router.
TEST(StarNetwork, LowLoadTakesDorPathsAtTheZeroLoadLatencyPlusOneCyclePerOpenDecision) {
  Bench b(torus4x4("net_star4x4", "star", 3));
  const SimResult r = b.run(run_options(0.01, 200, 20000));
  expect_clean(r);
  ASSERT_GT(r.packets.size(), 500u);
  const Topology& t = b.design.topo;
  std::map<std::pair<int, int>, int> exact;  // (hops, open decisions) -> packets at exactly the formula
  int on_formula = 0;
  for (const DeliveredPacket& p : r.packets) {
    EXPECT_EQ(p.hops, t.min_hops(p.src, p.dst)) << "star is minimal";
    const std::vector<int> s = t.coords(t.router_of_node(p.src)), d = t.coords(t.router_of_node(p.dst));
    const int dx = std::min((d[0] - s[0] + 4) % 4, (s[0] - d[0] + 4) % 4);
    const int open = d[1] != s[1] ? dx : 0;
    const int base = zero_load_latency(p.hops, 1, p.length, SwitchAllocation::AfterVc);
    const auto latency = static_cast<int>(p.ejected - p.injected);
    EXPECT_GE(latency, base + std::min(open, 1)) << p.src << "->" << p.dst << ", injected " << p.injected;
    if (latency == base + open) {
      ++exact[{p.hops, open}];
      ++on_formula;
    }
  }
  EXPECT_GT(on_formula, static_cast<int>(r.packets.size() * 9 / 10)) << "at 1% load almost no packet meets another";
  // Every kind of path of the 4x4 torus, with 0, 1 and 2 open decisions, met the formula.
  EXPECT_EQ(exact.size(), 6u);
  for (const auto& [hops, open] : {std::pair{1, 0}, {2, 0}, {2, 1}, {3, 1}, {3, 2}, {4, 2}}) {
    const int seen = exact[{hops, open}];
    EXPECT_GT(seen, 0) << hops << " hops, " << open << " open decisions";
  }
}

// 20,000 cycles at twice saturation: nothing lost, duplicated, corrupted or
// misrouted (the route checker holds every hop to the star relation), no
// deadlock; and the adaptive VC carries more than DOR does with the same
// three VCs (its third VC a second class-0 VC).
TEST(StarNetwork, AtTwiceSaturationDeliversEverythingAndBeatsDorWithAsManyVcs) {
  Bench star(torus4x4("net_star4x4", "star", 3));
  const SimResult r = overload(star);
  expect_clean(r);
  expect_saturated(r);
  Bench dor(torus4x4("net_dor4x4_v3", "dor", 3));
  const SimResult d = overload(dor);
  expect_clean(d);
  EXPECT_GT(r.accepted_load, d.accepted_load * 1.08)
      << "star " << r.accepted_load << ", DOR with 3 VCs " << d.accepted_load;
}

// The route unit offering every VC on the alternative port, escape VCs
// included: a packet that takes an escape VC off DOR's path breaks the
// deadlock argument, and the route checker names that hop.
TEST(StarNetwork, RouteCheckerFailsOnAnEscapeVcOffTheDorPath) {
  Bench b(torus4x4("net_star4x4", "star", 3));
  EmittedDesign e = b.emitted;
  std::string& text = e.files.at("rtl/rr_route_dor.sv");
  const std::string from = "if (STAR && alt) star_alt_vcs[V-1] = 1'b1;";
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "if (STAR && alt) star_alt_vcs = '1;");
  e.hash = content_hash({{"rtl", b.emitted.hash}, {"broken", "star alternative on every VC"}});
  const ModelFactory factory = load_model(b.design, e, ModelKind::Router);
  HarnessFabric fabric(b.design, *b.relation, factory);
  const SimResult r = run_simulation(b.design, *b.relation, fabric, run_options(0.5, 0, 3000, 2000));
  EXPECT_EQ(r.failure.rfind("route checker: router ", 0), 0u) << r.failure;
  EXPECT_NE(r.failure.find("the star relation allows"), std::string::npos) << r.failure;
}

// The generated network top and the harness agree cycle for cycle (a 3x2
// torus, dateline hops in the ring of 3, with single-flit and longer packets
// and speedup 2).
TEST(StarNetworkTop, HarnessAndGeneratedNetworkTopAgreeCycleForCycle) {
  Bench b(R"(
[design]
name = "net_star3x2"
[topology]
kind = "torus"
dims = [3, 2]
[router]
vcs = 3
buffer_flits = 6
flit_bits = 96
min_packet_flits = 1
max_packet_flits = 4
speedup = 2
output_buffer_flits = 3
[routing]
algorithm = "star"
)");
  SimOptions o = run_options(0.6, 100, 3000);
  o.packet_flits_min = 1;
  o.packet_flits_max = 4;
  const auto [harness, network] = expect_harness_matches_network_top(b, o);
  EXPECT_EQ(harness.hop_histogram, network.hop_histogram);
  EXPECT_EQ(harness.link_utilisation, network.link_utilisation);
  // The model was built without a waveform (network_top_build): asked for one, it says so.
  // (Here, not in the torus test the AddressSanitizer run takes: loading a model a second time in one
  // process orphans the first load's thread-local name buffer of Verilator's runtime, 73 bytes.)
  const ModelFactory factory = load_model(b.design, b.emitted, ModelKind::Network, {}, network_top_build());
  EXPECT_TRUE(factory.was_cached());
  try {
    factory.new_network()->open_trace("w.fst");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "w.fst: this network model was built without a waveform (ModelCacheOptions::waveform)");
  }
}
