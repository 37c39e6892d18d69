// One simulation run: warmup, measurement and drain phases over a fabric,
// with NICs, scoreboard, deadlock watchdog and statistics.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/ref/dqn_inference.hpp"
#include "rlroute/tb/application.hpp"
#include "rlroute/tb/dqn_agent.hpp"
#include "rlroute/tb/fabric.hpp"
#include "rlroute/gen/routing.hpp"
#include "rlroute/tb/scoreboard.hpp"
#include "rlroute/tb/traffic.hpp"

namespace rlroute {

// From cycle `start` on, traffic `pattern` at `load` (SimOptions::phases).
struct TrafficPhase {
  std::int64_t start = 0;
  std::string pattern;
  double load = 0;
};

struct SimOptions {
  std::string pattern = "uniform";
  // Destinations from this pattern instead of `pattern` (directed tests that
  // need a traffic the named patterns do not make). No command sets it.
  std::shared_ptr<const TrafficPattern> traffic;
  double load = 0.1;
  int packet_flits_min = 4;
  int packet_flits_max = 4;
  std::int64_t warmup = 2000;
  std::int64_t cycles = 10000;  // measurement window
  std::int64_t drain = 20000;   // cap on waiting for measured packets
  std::uint64_t seed = 1;
  double hotspot_fraction = 0.2;
  int hotspot_node = 0;
  std::int64_t watchdog = 5000;  // cycles with packets in flight and nothing moving
  // Threads that evaluate the harness's routers (HarnessFabric); the results
  // are the same at every count.
  int threads = 1;
  // FST trace window (network-top fabric only).
  std::int64_t trace_from = -1;
  std::int64_t trace_to = -1;
  // Traffic that changes during the run (`--phases`): the first phase starts
  // at cycle 0 and is `pattern` at `load`; each later one replaces the
  // pattern and the offered load at its start cycle.
  std::vector<TrafficPhase> phases;
  // A time series over windows of this many cycles from cycle 0 (0: none).
  std::int64_t series_window = 0;
  // Q-adaptive: the cycle at which SimResult::q_tables takes every router's
  // table (-1: none; past the run's end: at its end).
  std::int64_t q_dump_cycle = -1;
  // DQN-routing: the network programmed into every router's inference block
  // after reset, and where it came from (a weights file, or "an untrained
  // random network ..."). Null: routing.dqn_weights, else a random network.
  std::shared_ptr<const ref::DqnNetwork> dqn_network;
  std::string dqn_source;
  // DQN-routing with routing.dqn_agent = "external": the agent on every
  // router's agent port. Null: a FixedPointAgent on the network above.
  std::shared_ptr<DqnAgent> dqn_agent;
  // An application model instead of `pattern` and `load` (the SystemC host
  // layer's; no command line names it). The run ends when it has finished
  // and the network is empty, or at the end of the measurement window.
  std::shared_ptr<Application> application;
};

// One window of the time series: what was ejected in [begin, end) and, for
// Q-adaptive, the tables' mean at its end.
struct SeriesPoint {
  std::int64_t begin = 0, end = 0;
  // The offered load in force at `begin` (under --phases, that phase's);
  // with application traffic, the run's generated load.
  double offered_load = 0;
  double accepted_load = 0;  // flits/node/cycle ejected in the window
  std::int64_t packets = 0;  // packets whose tail was ejected in the window
  double latency_avg = 0, latency_p99 = 0;  // their network latency
  double minimal_share = 0;
  double avg_hops = 0;
  // Q-adaptive (else -1), at the window's end, in cycles: every table
  // entry's mean; each row's estimate through its minimal port and its best
  // estimate through another port, averaged over rows (QMirror::port_estimates).
  double mean_q = -1, q_minimal = -1, q_best_other = -1;
  // UGAL-LE (else -1): the mean contention factor C_j over routers and other
  // groups at the window's end (ContentionMirror::mean_factor).
  double contention_mean = -1;
};

struct LatencySummary {
  double avg = 0;
  double stdev = 0;  // population standard deviation
  double p50 = 0, p95 = 0, p99 = 0, max = 0;
  std::int64_t count = 0;
};

// The busiest link of a class: its flits per cycle and where it starts.
struct BusiestLink {
  double utilisation = 0;
  int router = -1, port = -1;  // the output port of `router` that drives it
  std::string at;              // "router R (name) port P (name)"
};

// Heads timed through the routers in the measurement window, for one pair of
// input and output port classes (NetworkChecker::residence).
struct RouterResidence {
  std::uint64_t heads = 0;
  double avg = 0;  // cycles from arrival at the input to departure on the output
};
using ResidenceByClasses = std::map<std::pair<PortClass, PortClass>, RouterResidence>;

struct SimResult {
  double offered_load = 0;   // requested, flits/node/cycle (an application's: generated_load)
  double generated_load = 0; // measured at the sources
  double accepted_load = 0;  // ejected in the window, flits/node/cycle
  // Fairness among the sources that generated packets in the window: the
  // accepted load of the least served one over their mean (1 = equal service;
  // a starved flow shows as a low value at saturation). 0 with no such source.
  double source_fairness = 0;
  // Per source node: the flits/cycle of its packets whose tail was ejected in
  // the window (accepted_load is their mean). Where starvation is.
  std::vector<double> accepted_by_node;
  // Per destination node: the flits/cycle of the packets whose tail it
  // ejected in the window (at most 1: one flit per cycle per ejection port).
  // Where the hot destinations are.
  std::vector<double> ejected_by_node;
  std::int64_t packets_injected = 0;
  std::int64_t packets_delivered = 0;           // the whole run: warmup, measurement, drain, flush
  std::int64_t packets_delivered_measured = 0;  // packets created in the measurement window that arrived
  std::int64_t packets_lost = 0;
  std::int64_t packets_corrupted = 0;
  std::int64_t packets_duplicated = 0;
  std::int64_t packets_misrouted = 0;
  std::int64_t packets_not_injected = 0;  // still queued at the sources at the end
  // The longest a flit waited at the front of an input VC of a router (the
  // whole run), and where: a starved VC shows here.
  std::int64_t longest_vc_wait = 0;
  std::string longest_vc_wait_at;
  // The same for body and tail flits: their wait for the switch, which the
  // checker bounds by VCs x ports.
  std::int64_t longest_switch_wait = 0;
  bool deadlock = false;
  bool drained = true;  // every measured packet arrived within the drain cap
  std::string failure;  // empty on success; else what went wrong, with a dump
  LatencySummary latency, total_latency;
  double avg_hops = 0;
  std::vector<std::int64_t> hop_histogram;  // [h]: measured packets that took h router-to-router hops
  std::int64_t packets_minimal = 0;     // measured packets whose route phase at ejection was Minimal
  std::int64_t packets_nonminimal = 0;  // the other measured packets
  double minimal_share = 0;             // packets_minimal / packets_delivered_measured (0 if none)
  // DQN-routing: the share of measured packets that arrived with Pdor set
  // (fell back to DOR on the escape VCs on the way); -1 for other algorithms.
  double dqn_pdor_share = -1;
  std::int64_t cycles = 0;  // simulated cycles in all
  double router_cycles_per_second = 0;
  double wall_seconds = 0;
  // Flits per router-to-router link per cycle over the measurement window, for
  // all such links and per link class (each router-to-router class the
  // topology has). Only fabrics that see their links measure them
  // (links_observed); elsewhere link_utilisation is 0 and the map empty.
  bool links_observed = false;
  double link_utilisation = 0;
  std::map<PortClass, double> link_utilisation_by_class;
  // Per class, the busiest link: a hot spot the class mean hides.
  std::map<PortClass, BusiestLink> link_utilisation_max_by_class;
  std::vector<double> link_utilisation_by_port;  // LinkUtilisation::by_port (rlroute sim --links)
  // Per (input class, output class) that heads took in the window: how long
  // they stayed in a router. Where the latency goes, hop by hop.
  ResidenceByClasses router_residence;
  // Heads sent from a router to another in the window, [hops before that
  // hop][VC] (the last row: that many hops or more). Which VCs each hop of
  // the paths took.
  std::vector<std::vector<std::uint64_t>> heads_by_hop_and_vc;
  std::vector<DeliveredPacket> packets;  // every delivered packet (for tests)
  std::vector<SeriesPoint> series;       // SimOptions::series_window
  std::int64_t q_tables_cycle = -1;      // SimOptions::q_dump_cycle: when q_tables was taken
  std::string q_tables;                  // every router's Q-table then (QMirror::dump)
  // What the application model did (Application::report, with its "name"),
  // and its line for the console; null and "" without one.
  nlohmann::ordered_json app;
  std::string app_summary;

  bool ok() const { return failure.empty(); }
  nlohmann::ordered_json to_json() const;
};

// Runs the phases. The fabric must be fresh (it is reset here).
SimResult run_simulation(const Design& design, const RoutingRelation& relation, Fabric& fabric,
                         const SimOptions& options);

LatencySummary summarize(std::vector<double> samples);

// Flits per source node (of `num_nodes`) among the delivered packets whose
// tail was ejected in the measurement window [begin, end).
std::vector<std::int64_t> accepted_by_source(int num_nodes, const std::vector<DeliveredPacket>& packets,
                                             std::int64_t begin, std::int64_t end);
// The same flits per destination node.
std::vector<std::int64_t> ejected_by_destination(int num_nodes, const std::vector<DeliveredPacket>& packets,
                                                 std::int64_t begin, std::int64_t end);

// SimResult::source_fairness: `generated[n]` packets node n generated in the
// measurement window and `accepted[n]` its flits accepted there
// (accepted_by_source).
double source_fairness(const std::vector<std::int64_t>& generated, const std::vector<std::int64_t>& accepted);

// Hop and route statistics of the measured packets among `packets`.
struct PacketStats {
  std::int64_t delivered = 0;  // measured packets
  std::int64_t minimal = 0;    // ... whose route phase at ejection was Minimal
  std::int64_t nonminimal = 0;
  double minimal_share = 0;  // minimal / delivered; 0 when delivered is 0
  std::int64_t pdor = 0;     // ... that arrived with DQN-routing's Pdor flag set
  double avg_hops = 0;
  std::vector<std::int64_t> hop_histogram;  // [h]: packets with h hops; empty when delivered is 0
};
PacketStats measured_packet_stats(const std::vector<DeliveredPacket>& packets);

// Flits per link per cycle over a window of `cycles` cycles, from per-port
// flit counters (Fabric::link_flits()) read at its start and its end. Only
// ports with a link (Topology::neighbor) count.
struct LinkUtilisation {
  double all = 0;                         // every router-to-router link
  std::map<PortClass, double> by_class;  // every class with at least one link
  std::map<PortClass, BusiestLink> busiest_by_class;
  std::vector<double> by_port;  // [router * ports + port]: that link's flits per cycle (0 where no link)
};
LinkUtilisation measure_link_utilisation(const Topology& topo, const std::vector<std::uint64_t>& at_start,
                                         const std::vector<std::uint64_t>& at_end, std::int64_t cycles);

// The window between two readings of NetworkChecker::residence, per class
// pair that some head took in it.
ResidenceByClasses measure_residence(const NetworkChecker::ResidenceTable& at_start,
                                     const NetworkChecker::ResidenceTable& at_end);

// JSON key of a link class: "terminal", "dimension", "local", "global".
std::string link_class_key(PortClass c);

}  // namespace rlroute
