// run_simulation: one run over a fabric, cycle by cycle, through its phases
// (warmup, measurement and drain; flush; the DQN ack settle; idle cycles),
// then its results. The order of every call inside a cycle (the NICs' random
// draws, the fabric's inputs and steps) decides the results.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>

#include "rlroute/gen/dqn_block.hpp"
#include "rlroute/tb/dpsnn_app.hpp"
#include "rlroute/tb/contention_mirror.hpp"
#include "rlroute/tb/nic.hpp"
#include "rlroute/tb/simulation.hpp"
#include "rlroute/tb/traffic.hpp"

namespace rlroute {

namespace {

// What the fabric's counters read at one edge of the measurement window.
struct FabricCounters {
  std::vector<std::uint64_t> links;  // per-port link flits (Fabric::link_flits)
  NetworkChecker::ResidenceTable residence{};
  std::vector<std::uint64_t> heads_by_hop_vc;  // Fabric::heads_by_hop_and_vc
};

class SimulationRun {
 public:
  // Sets up traffic, NICs and DQN-routing's network or agent on a reset fabric.
  SimulationRun(const Design& design, const RoutingRelation& relation, Fabric& fabric, const SimOptions& options);
  SimResult run();

 private:
  // What each node's NIC did in the current cycle (run_nics).
  struct NodeCycle {
    bool received = false;  // a flit came out of the router
    bool sent = false;      // a flit went into it
    int generated = 0;      // flits of the packet generated, if any
  };

  void set_up_traffic(const RoutingRelation& relation);
  void program_dqn();
  void set_up_phases();

  // Phases.
  void warm_up_measure_and_drain();
  void flush();
  void settle_side_band();
  void settle_credits();

  // One cycle and its parts.
  bool one_cycle();
  void start_cycle();
  void run_app(bool measured);
  void tell_app();
  std::int64_t window_cycles() const;
  bool run_nics(bool measured);
  void run_router_nics(int router, bool measured);
  void count_generated(int node, int flits, bool measured);
  bool healthy();

  void close_series_window();
  void take_q_tables();
  FabricCounters read_counters() const {
    return {fabric_.link_flits(), fabric_.residence(), fabric_.heads_by_hop_and_vc()};
  }
  bool empty() const;
  std::int64_t measured_outstanding() const;

  // Results.
  void collect_results();
  void record_speed();
  void record_packet_counts();
  void record_loads();
  void record_latency();
  void record_links();

  const Design& design_;
  const Topology& t_;
  Fabric& fabric_;
  const SimOptions& o_;
  NetworkTopFabric* const network_;  // null on other fabrics
  const std::int64_t measure_end_;
  const std::int64_t drain_end_;

  // An application model (dpsnn, or SimOptions::application) decides what
  // every node sends; otherwise Bernoulli sources at the offered load, with
  // destinations from the pattern.
  std::shared_ptr<Application> app_;
  std::size_t app_heard_ = 0;  // the scoreboard log's packets the application has heard of
  std::shared_ptr<const TrafficPattern> pattern_;
  Scoreboard scoreboard_;
  std::vector<Nic> nics_;
  std::vector<NodeCycle> node_cycle_;
  std::shared_ptr<DqnAgent> dqn_agent_;
  // Traffic phases after the first (which is `pattern_` at the load).
  std::vector<std::shared_ptr<const TrafficPattern>> phase_patterns_;
  std::size_t next_phase_ = 1;

  SimResult result_;
  std::chrono::steady_clock::time_point start_;  // of the first cycle (SimResult::wall_seconds)
  std::int64_t cycle_ = 0, last_move_ = 0, generated_flits_ = 0, accepted_flits_ = 0;
  bool generating_ = true;
  bool ok_ = true;  // no violation or deadlock yet
  std::int64_t measured_generated_ = 0;
  std::vector<std::int64_t> generated_by_node_;
  // The counters at the start and the end of the measurement window (read
  // before the step of cycle warmup and of cycle measure_end_).
  FabricCounters window_start_, window_end_;
  bool window_closed_ = false;

  // The time series (SimOptions::series_window): the current window's ejected
  // flits, its first cycle, and the scoreboard log's first packet in it.
  std::int64_t series_flits_ = 0, series_begin_ = 0;
  std::size_t series_first_ = 0;
};

SimulationRun::SimulationRun(const Design& design, const RoutingRelation& relation, Fabric& fabric,
                             const SimOptions& options)
    : design_(design),
      t_(design.topo),
      fabric_(fabric),
      o_(options),
      network_(dynamic_cast<NetworkTopFabric*>(&fabric)),
      measure_end_(options.warmup + options.cycles),
      drain_end_(measure_end_ + options.drain),
      scoreboard_(design),
      node_cycle_(static_cast<size_t>(design.topo.num_nodes())),
      generated_by_node_(static_cast<size_t>(design.topo.num_nodes()), 0) {
  set_up_traffic(relation);
  fabric_.reset();
  program_dqn();
  result_.offered_load = o_.load;
  start_ = std::chrono::steady_clock::now();
  set_up_phases();
}

void SimulationRun::set_up_traffic(const RoutingRelation& relation) {
  pattern_ = o_.traffic;
  app_ = o_.application;
  if (!pattern_ && !app_) {
    const TrafficSpec spec = parse_traffic_spec(o_.pattern);
    if (is_application_traffic(spec)) app_ = make_dpsnn_app(design_, spec, o_.seed);
    else pattern_ = make_traffic_pattern(spec, t_, o_.seed, o_.hotspot_fraction, o_.hotspot_node);
  }
  const NicSettings settings{o_.load, o_.packet_flits_min, o_.packet_flits_max, relation.injection_vcs()};
  nics_.reserve(static_cast<size_t>(t_.num_nodes()));
  for (int n = 0; n < t_.num_nodes(); ++n) nics_.emplace_back(n, design_, pattern_.get(), settings, o_.seed);
}

// DQN-routing: the network programmed into every router's block, or the
// agent on their agent ports (the fixed-point network in software unless
// the caller brings one).
void SimulationRun::program_dqn() {
  if (design_.cfg.algorithm != RoutingAlgorithm::Dqn) return;
  const DqnBlock block = dqn_block(design_.cfg);
  const bool external = design_.cfg.dqn_agent == DqnAgentKind::External;
  if (o_.dqn_agent && !external) {
    throw std::invalid_argument("a DQN agent was given for a design whose agent is its inference block "
                                "(routing.dqn_agent = \"block\")");
  }
  if (!external || !o_.dqn_agent) {
    const ref::DqnNetwork dqn = o_.dqn_network ? *o_.dqn_network : dqn_network_for(design_.cfg, "");
    check_fits(block, dqn, o_.dqn_source.empty() ? "the DQN network" : o_.dqn_source);
    if (external) {
      dqn_agent_ = std::make_shared<FixedPointAgent>(dqn);
    } else if (block.constant) {
      // The network is in the RTL: the one to run must be that one.
      std::string built;
      if (dqn != dqn_network_for(design_.cfg, "", &built)) {
        throw std::invalid_argument(fmt::format(
            "routing.dqn_weights_mode = \"constant\": the network to run ({}) is not the one built into the RTL ({}); "
            "give it as routing.dqn_weights or --weights",
            o_.dqn_source.empty() ? "the DQN network" : o_.dqn_source, built));
      }
    } else {
      fabric_.program_dqn(block.program(dqn));
    }
  } else {
    dqn_agent_ = o_.dqn_agent;
  }
  fabric_.set_dqn_agent(dqn_agent_.get());
}

void SimulationRun::set_up_phases() {
  for (const TrafficPhase& ph : o_.phases) {
    phase_patterns_.push_back(make_traffic_pattern(ph.pattern, t_, o_.seed, o_.hotspot_fraction, o_.hotspot_node));
  }
}

SimResult SimulationRun::run() {
  warm_up_measure_and_drain();
  flush();
  settle_side_band();
  settle_credits();
  collect_results();
  return std::move(result_);
}

// Warmup and measurement, then drain: keep offering load until every
// packet created in the measurement window is delivered (or the drain cap).
void SimulationRun::warm_up_measure_and_drain() {
  while (ok_ && cycle_ < drain_end_) {
    if (cycle_ >= measure_end_ && measured_outstanding() == 0) break;
    if (app_ && app_->finished() && empty()) break;
    ok_ = one_cycle();
  }
  result_.drained = measured_outstanding() == 0;
}

// Flush: stop generating, drop what never entered the network, and run
// until every injected packet is out (the watchdog catches deadlock).
void SimulationRun::flush() {
  constexpr std::int64_t kFlushCycles = 200000;
  generating_ = false;
  for (Nic& nic : nics_) result_.packets_not_injected += nic.drop_queue();
  const std::int64_t flush_cap = cycle_ + kFlushCycles;
  while (ok_ && cycle_ < flush_cap) {
    if (empty()) break;
    ok_ = one_cycle();
  }
  if (ok_ && scoreboard_.in_flight() > 0) {
    result_.failure = fmt::format(
        "{} packets still in flight {} cycles after injection stopped although flits moved "
        "(livelock or starvation).\noccupied VCs:\n{}packets in flight:\n{}",
        scoreboard_.in_flight(), kFlushCycles, fabric_.dump_occupied(), scoreboard_.describe_in_flight(40));
  }
}

// The side-band's last words travel back on the credit channels (DQN-routing's
// acks: a hop each link's credit latency, one word per link and cycle); once
// the network is empty the side-band check must have them within a bound.
void SimulationRun::settle_side_band() {
  constexpr std::int64_t kSettleCycles = 4096;
  const std::int64_t cap = cycle_ + kSettleCycles;
  while (ok_ && fabric_.side_band_owed() > 0 && cycle_ < cap) ok_ = one_cycle();
  if (ok_ && result_.failure.empty() && fabric_.side_band_owed() > 0) {
    result_.failure = fabric_.side_band_owed_failure(kSettleCycles);
  }
}

// A few idle cycles so that trailing credits settle.
void SimulationRun::settle_credits() {
  for (int i = 0; ok_ && i < 8; ++i) ok_ = one_cycle();
}

// One cycle of the whole system; false on a violation or deadlock.
bool SimulationRun::one_cycle() {
  if (cycle_ == 0 && o_.q_dump_cycle == 0) take_q_tables();  // the initial values, before any feedback
  start_cycle();
  const bool measured = cycle_ >= o_.warmup && cycle_ < measure_end_;
  if (app_ && generating_) run_app(measured);
  bool moved = run_nics(measured);
  if (app_) tell_app();
  fabric_.step();
  moved = moved || fabric_.moved_inside();
  ++cycle_;
  if (o_.series_window > 0 && cycle_ % o_.series_window == 0) close_series_window();
  if (cycle_ == o_.q_dump_cycle) take_q_tables();
  if (moved || scoreboard_.in_flight() == 0) last_move_ = cycle_;
  return healthy();
}

// The edges of the measurement window, the trace window and the traffic phases.
void SimulationRun::start_cycle() {
  if (cycle_ == o_.warmup) window_start_ = read_counters();
  if (cycle_ == measure_end_) {
    window_end_ = read_counters();
    window_closed_ = true;
  }
  if (network_ && o_.trace_from >= 0) network_->model().set_tracing(cycle_ >= o_.trace_from && cycle_ <= o_.trace_to);
  if (next_phase_ < o_.phases.size() && cycle_ == o_.phases[next_phase_].start) {
    for (Nic& nic : nics_) nic.change_traffic(*phase_patterns_[next_phase_], o_.phases[next_phase_].load);
    ++next_phase_;
  }
}

// The application's packets of this cycle, into their sources' queues.
void SimulationRun::run_app(bool measured) {
  for (const AppPacket& p : app_->tick(cycle_, empty())) {
    nics_[static_cast<size_t>(p.src)].enqueue(p.dst, p.length, cycle_, measured, p.cookie);
    count_generated(p.src, p.length, measured);
  }
}

// The application hears of the packets delivered since it last heard.
void SimulationRun::tell_app() {
  const std::vector<DeliveredPacket>& log = scoreboard_.log();
  for (; app_heard_ < log.size(); ++app_heard_) app_->delivered(log[app_heard_]);
}

// The measurement window's length: cut short where an application finished
// inside it.
std::int64_t SimulationRun::window_cycles() const {
  if (!app_ || !app_->finished() || cycle_ >= measure_end_) return o_.cycles;
  return std::max<std::int64_t>(1, cycle_ - o_.warmup);
}

// The NICs of each router (on its thread: they touch only their own state
// and their router's NI ports), then what they did, node by node. True if a
// flit went into or came out of the network.
bool SimulationRun::run_nics(bool measured) {
  fabric_.for_each_router([&](int router) { run_router_nics(router, measured); });
  bool moved = false;
  for (int n = 0; n < t_.num_nodes(); ++n) {
    const NodeCycle& did = node_cycle_[static_cast<size_t>(n)];
    Nic& nic = nics_[static_cast<size_t>(n)];
    if (app_) {
      if (const std::optional<std::uint64_t> cookie = nic.started_cookie()) app_->injected(n, *cookie, cycle_);
    }
    nic.report(scoreboard_);
    if (did.received) {
      if (measured) ++accepted_flits_;
      ++series_flits_;
    }
    moved = moved || did.received || did.sent;
    count_generated(n, did.generated, measured);
  }
  return moved;
}

void SimulationRun::run_router_nics(int router, bool measured) {
  for (int local = 0; local < t_.nodes_per_router(); ++local) {
    const int n = t_.node_at(router, local);
    Nic& nic = nics_[static_cast<size_t>(n)];
    NodeCycle& did = node_cycle_[static_cast<size_t>(n)];
    const LinkFlit out = fabric_.ni_flit_out(n);
    did.received = out.valid;
    fabric_.set_ni_credit_in(n, nic.eject(out, cycle_));
    nic.credit_from_router(fabric_.ni_credit_out(n));
    did.generated = generating_ ? nic.generate(cycle_, measured) : 0;
    const LinkFlit in = nic.inject(cycle_);
    did.sent = in.valid;
    fabric_.set_ni_flit_in(n, in);
  }
}

// A packet of `flits` flits (0: none) generated at `node`, counted if in the
// measurement window.
void SimulationRun::count_generated(int node, int flits, bool measured) {
  if (flits == 0 || !measured) return;
  generated_flits_ += flits;
  ++measured_generated_;
  ++generated_by_node_[static_cast<size_t>(node)];
}

// False, with the failure, on a fabric violation, a scoreboard error or a
// deadlock (nothing moved for o_.watchdog cycles).
bool SimulationRun::healthy() {
  if (!fabric_.violation().empty()) {
    result_.failure = fabric_.violation();
    return false;
  }
  if (!scoreboard_.errors().empty()) {
    result_.failure = scoreboard_.errors().front();
    return false;
  }
  if (app_ && !app_->failure().empty()) {
    result_.failure = app_->failure();
    return false;
  }
  if (cycle_ - last_move_ >= o_.watchdog) {
    result_.deadlock = true;
    result_.failure = fmt::format(
        "deadlock: no flit moved for {} cycles at cycle {} with {} packets in flight.\n"
        "occupied VCs:\n{}packets in flight:\n{}",
        o_.watchdog, cycle_, scoreboard_.in_flight(), fabric_.dump_occupied(), scoreboard_.describe_in_flight(40));
    return false;
  }
  return true;
}

// No packet in the network and none at a source.
bool SimulationRun::empty() const {
  if (scoreboard_.in_flight() > 0) return false;
  return std::all_of(nics_.begin(), nics_.end(), [](const Nic& nic) { return nic.idle(); });
}

// Packets created in the measurement window that have not arrived yet.
std::int64_t SimulationRun::measured_outstanding() const {
  return measured_generated_ - (scoreboard_.measured_injected() - scoreboard_.measured_in_flight());
}

void SimulationRun::close_series_window() {
  SeriesPoint p;
  p.end = cycle_;
  p.begin = series_begin_;
  series_begin_ = cycle_;
  p.offered_load = o_.load;
  for (const TrafficPhase& ph : o_.phases) {
    if (ph.start <= p.begin) p.offered_load = ph.load;
  }
  p.accepted_load = static_cast<double>(series_flits_) /
                    (t_.num_nodes() * static_cast<double>(std::max<std::int64_t>(1, p.end - p.begin)));
  std::vector<double> lat;
  std::int64_t minimal = 0, hops = 0;
  const std::vector<DeliveredPacket>& log = scoreboard_.log();
  for (std::size_t i = series_first_; i < log.size(); ++i) {
    lat.push_back(static_cast<double>(log[i].ejected - log[i].injected));
    minimal += log[i].minimal();
    hops += log[i].hops;
  }
  p.packets = static_cast<std::int64_t>(lat.size());
  const LatencySummary l = summarize(lat);
  p.latency_avg = l.avg;
  p.latency_p99 = l.p99;
  p.minimal_share = p.packets > 0 ? static_cast<double>(minimal) / static_cast<double>(p.packets) : 0.0;
  p.avg_hops = p.packets > 0 ? static_cast<double>(hops) / static_cast<double>(p.packets) : 0.0;
  if (const QMirror* q = fabric_.q_mirror()) {
    p.mean_q = q->mean_cycles();
    const QMirror::PortEstimates e = q->port_estimates();
    p.q_minimal = e.minimal;
    p.q_best_other = e.best_other;
  }
  // The checker's cycle is the number of clock edges so far, as cycle_.
  if (const ContentionMirror* c = fabric_.contention_mirror()) p.contention_mean = c->mean_factor(cycle_);
  result_.series.push_back(p);
  series_flits_ = 0;
  series_first_ = log.size();
}

void SimulationRun::take_q_tables() {
  const QMirror* q = fabric_.q_mirror();
  if (q == nullptr || result_.q_tables_cycle >= 0) return;
  result_.q_tables_cycle = cycle_;
  for (int router = 0; router < t_.num_routers(); ++router) result_.q_tables += q->dump(router);
}

void SimulationRun::collect_results() {
  if (o_.series_window > 0 && cycle_ % o_.series_window != 0) close_series_window();  // the last, shorter window
  if (o_.q_dump_cycle >= 0) take_q_tables();  // at the end, if the run ended before the cycle
  record_speed();
  record_packet_counts();
  record_loads();
  record_latency();
  record_links();
  result_.packets = scoreboard_.log();
  if (result_.failure.empty() && !scoreboard_.errors().empty()) result_.failure = scoreboard_.errors().front();
  if (dqn_agent_) fabric_.set_dqn_agent(nullptr);  // the agent ends with the run
}

void SimulationRun::record_speed() {
  SimResult& r = result_;
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  r.cycles = cycle_;
  r.router_cycles_per_second = r.wall_seconds > 0 ? static_cast<double>(cycle_) * t_.num_routers() / r.wall_seconds : 0;
}

void SimulationRun::record_packet_counts() {
  SimResult& r = result_;
  r.packets_injected = scoreboard_.injected_count();
  r.packets_delivered = scoreboard_.delivered_count();
  r.packets_corrupted = scoreboard_.corrupted_count();
  r.packets_duplicated = scoreboard_.duplicated_count();
  r.packets_misrouted = scoreboard_.misrouted_count();
  r.packets_lost = scoreboard_.in_flight();
  const NetworkChecker::FrontWait wait = fabric_.longest_front_wait();
  r.longest_vc_wait = wait.cycles;
  r.longest_switch_wait = fabric_.longest_switch_wait().cycles;
  if (wait.router >= 0) {
    r.longest_vc_wait_at =
        fmt::format("router {} ({}) input port {} ({}) vc{}", wait.router, t_.router_name(wait.router), wait.port,
                    t_.port_name(wait.router, wait.port), wait.vc);
  }
}

// Generated and accepted load over the measurement window, per source and per destination.
void SimulationRun::record_loads() {
  SimResult& r = result_;
  const auto window = static_cast<double>(window_cycles());
  r.generated_load = static_cast<double>(generated_flits_) / (t_.num_nodes() * window);
  if (app_) {
    r.offered_load = r.generated_load;  // the application's, not a requested load
    for (SeriesPoint& p : r.series) p.offered_load = r.generated_load;
    r.app = app_->report();
    r.app_summary = app_->summary();
  }
  r.accepted_load = static_cast<double>(accepted_flits_) / (t_.num_nodes() * window);
  const std::vector<std::int64_t> accepted_by_node =
      accepted_by_source(t_.num_nodes(), scoreboard_.log(), o_.warmup, measure_end_);
  r.source_fairness = source_fairness(generated_by_node_, accepted_by_node);
  const auto per_cycle = [window](const std::vector<std::int64_t>& flits) {
    std::vector<double> rate;
    for (const std::int64_t f : flits) rate.push_back(static_cast<double>(f) / window);
    return rate;
  };
  r.accepted_by_node = per_cycle(accepted_by_node);
  r.ejected_by_node = per_cycle(ejected_by_destination(t_.num_nodes(), scoreboard_.log(), o_.warmup, measure_end_));
}

// Latency, hops and routes of the measured packets.
void SimulationRun::record_latency() {
  SimResult& r = result_;
  std::vector<double> net, total;
  for (const DeliveredPacket& p : scoreboard_.log()) {
    if (!p.measured) continue;
    net.push_back(static_cast<double>(p.ejected - p.injected));
    total.push_back(static_cast<double>(p.ejected - p.created));
  }
  r.latency = summarize(net);
  r.total_latency = summarize(total);
  const PacketStats ps = measured_packet_stats(scoreboard_.log());
  r.packets_delivered_measured = ps.delivered;
  r.avg_hops = ps.avg_hops;
  r.hop_histogram = ps.hop_histogram;
  r.packets_minimal = ps.minimal;
  r.packets_nonminimal = ps.nonminimal;
  r.minimal_share = ps.minimal_share;
  if (traits(design_.cfg.algorithm).patched == PatchedField::Pdor) {  // DQN-routing's escape to DOR
    r.dqn_pdor_share = ps.delivered > 0 ? static_cast<double>(ps.pdor) / static_cast<double>(ps.delivered) : 0.0;
  }
}

// Link utilisation and router residence over the measurement window; a run
// that failed before the window closed is measured up to where it stopped.
void SimulationRun::record_links() {
  SimResult& r = result_;
  if (!window_closed_) window_end_ = read_counters();
  if (window_start_.links.empty()) window_start_ = window_end_;  // failed during warmup: empty window
  r.router_residence = measure_residence(window_start_.residence, window_end_.residence);
  r.heads_by_hop_and_vc.clear();
  const std::size_t vcs = static_cast<std::size_t>(design_.vcs);
  for (std::size_t i = 0; i < window_end_.heads_by_hop_vc.size(); i += vcs) {
    std::vector<std::uint64_t> row(vcs);
    for (std::size_t v = 0; v < vcs; ++v) row[v] = window_end_.heads_by_hop_vc[i + v] - window_start_.heads_by_hop_vc[i + v];
    r.heads_by_hop_and_vc.push_back(std::move(row));
  }
  const std::int64_t window = std::max<std::int64_t>(0, std::min(cycle_, measure_end_) - o_.warmup);
  r.links_observed = !window_end_.links.empty();
  if (r.links_observed) {
    const LinkUtilisation u = measure_link_utilisation(t_, window_start_.links, window_end_.links, window);
    r.link_utilisation = u.all;
    r.link_utilisation_by_class = u.by_class;
    r.link_utilisation_max_by_class = u.busiest_by_class;
    r.link_utilisation_by_port = u.by_port;
  }
}

}  // namespace

SimResult run_simulation(const Design& design, const RoutingRelation& relation, Fabric& fabric,
                         const SimOptions& options) {
  return SimulationRun(design, relation, fabric, options).run();
}

}  // namespace rlroute
