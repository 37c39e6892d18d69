#include "rlroute/tb/simulation.hpp"

#include "rlroute/gen/dqn_block.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <cmath>

#include "rlroute/tb/dpsnn_app.hpp"
#include "rlroute/tb/nic.hpp"
#include "rlroute/tb/traffic.hpp"

namespace rlroute {

std::vector<std::int64_t> accepted_by_source(int num_nodes, const std::vector<DeliveredPacket>& packets,
                                             std::int64_t begin, std::int64_t end) {
  std::vector<std::int64_t> accepted(static_cast<size_t>(num_nodes), 0);
  for (const DeliveredPacket& p : packets) {
    if (p.ejected >= begin && p.ejected < end) accepted.at(static_cast<size_t>(p.src)) += p.length;
  }
  return accepted;
}

double source_fairness(const std::vector<std::int64_t>& generated, const std::vector<std::int64_t>& accepted) {
  std::int64_t sources = 0, total = 0, least = -1;
  for (size_t n = 0; n < generated.size(); ++n) {
    if (generated[n] == 0) continue;
    ++sources;
    total += accepted[n];
    least = least < 0 ? accepted[n] : std::min(least, accepted[n]);
  }
  if (sources == 0 || total == 0) return 0;
  return static_cast<double>(least) * static_cast<double>(sources) / static_cast<double>(total);
}

LatencySummary summarize(std::vector<double> v) {
  LatencySummary s;
  s.count = static_cast<std::int64_t>(v.size());
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  s.avg = sum / static_cast<double>(v.size());
  double squares = 0;
  for (double x : v) squares += (x - s.avg) * (x - s.avg);
  s.stdev = std::sqrt(squares / static_cast<double>(v.size()));
  // Nearest-rank percentiles.
  auto rank = [&v](double q) {
    const auto idx = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
    return v[std::min(idx, v.size() - 1)];
  };
  s.p50 = rank(0.50);
  s.p95 = rank(0.95);
  s.p99 = rank(0.99);
  s.max = v.back();
  return s;
}

PacketStats measured_packet_stats(const std::vector<DeliveredPacket>& packets) {
  PacketStats s;
  std::int64_t hops = 0;
  for (const DeliveredPacket& p : packets) {
    if (!p.measured) continue;
    ++s.delivered;
    s.pdor += p.pdor;
    if (p.minimal()) {
      ++s.minimal;
    } else {
      ++s.nonminimal;
    }
    hops += p.hops;
    const auto h = static_cast<size_t>(p.hops);
    if (h >= s.hop_histogram.size()) s.hop_histogram.resize(h + 1);
    ++s.hop_histogram[h];
  }
  if (s.delivered > 0) {
    s.minimal_share = static_cast<double>(s.minimal) / static_cast<double>(s.delivered);
    s.avg_hops = static_cast<double>(hops) / static_cast<double>(s.delivered);
  }
  return s;
}

LinkUtilisation measure_link_utilisation(const Topology& t, const std::vector<std::uint64_t>& at_start,
                                         const std::vector<std::uint64_t>& at_end, std::int64_t cycles) {
  struct Count {
    std::uint64_t flits = 0;
    std::int64_t links = 0;
  };
  Count all;
  std::map<PortClass, Count> by_class;
  const int ports = t.num_ports();
  const bool counted = !at_end.empty() && at_start.size() == at_end.size();
  LinkUtilisation u;
  u.by_port.assign(static_cast<size_t>(t.num_routers() * ports), 0.0);
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int p = 0; p < ports; ++p) {
      if (!t.neighbor(r, p)) continue;
      const auto i = static_cast<size_t>(r * ports + p);
      const std::uint64_t flits = counted && i < at_end.size() ? at_end[i] - at_start[i] : 0;
      if (cycles > 0) u.by_port[i] = static_cast<double>(flits) / static_cast<double>(cycles);
      for (Count* c : {&all, &by_class[t.port_class(p)]}) {
        c->flits += flits;
        ++c->links;
      }
      BusiestLink& b = u.busiest_by_class[t.port_class(p)];
      if (b.router < 0 || u.by_port[i] > b.utilisation) b = BusiestLink{u.by_port[i], r, p, {}};
    }
  }
  auto per_link_cycle = [cycles](const Count& c) {
    if (c.links == 0 || cycles <= 0) return 0.0;
    return static_cast<double>(c.flits) / (static_cast<double>(c.links) * static_cast<double>(cycles));
  };
  u.all = per_link_cycle(all);
  for (const auto& [cls, c] : by_class) u.by_class[cls] = per_link_cycle(c);
  for (auto& [cls, b] : u.busiest_by_class) {
    b.at = fmt::format("router {} ({}) port {} ({})", b.router, t.router_name(b.router), b.port,
                       t.port_name(b.router, b.port));
  }
  return u;
}

ResidenceByClasses measure_residence(const NetworkChecker::ResidenceTable& at_start,
                                     const NetworkChecker::ResidenceTable& at_end) {
  ResidenceByClasses out;
  for (std::size_t i = 0; i < at_end.size(); ++i) {
    for (std::size_t o = 0; o < at_end[i].size(); ++o) {
      const std::uint64_t heads = at_end[i][o].heads - at_start[i][o].heads;
      if (heads == 0) continue;
      const std::uint64_t cycles = at_end[i][o].cycles - at_start[i][o].cycles;
      out[{static_cast<PortClass>(i), static_cast<PortClass>(o)}] =
          RouterResidence{heads, static_cast<double>(cycles) / static_cast<double>(heads)};
    }
  }
  return out;
}

std::string link_class_key(PortClass c) {
  switch (c) {
    case PortClass::Terminal:
      return "terminal";
    case PortClass::Dimension:
      return "dimension";
    case PortClass::Local:
      return "local";
    case PortClass::Global:
      return "global";
  }
  return "unknown";
}

nlohmann::ordered_json SimResult::to_json() const {
  auto lat = [](const LatencySummary& l) {
    return nlohmann::ordered_json{{"avg", l.avg},   {"stdev", l.stdev}, {"p50", l.p50},
                                  {"p95", l.p95}, {"p99", l.p99},     {"max", l.max}};
  };
  nlohmann::ordered_json j;
  j["offered_load"] = offered_load;
  j["generated_load"] = generated_load;
  j["accepted_load"] = accepted_load;
  j["source_fairness"] = source_fairness;
  j["accepted_by_node"] = accepted_by_node;
  j["packets_injected"] = packets_injected;
  j["packets_delivered"] = packets_delivered;
  j["packets_delivered_measured"] = packets_delivered_measured;
  j["packets_lost"] = packets_lost;
  j["packets_corrupted"] = packets_corrupted;
  j["packets_duplicated"] = packets_duplicated;
  j["packets_misrouted"] = packets_misrouted;
  j["packets_not_injected"] = packets_not_injected;
  j["longest_vc_wait"] = longest_vc_wait;
  j["longest_vc_wait_at"] = longest_vc_wait_at;
  j["longest_switch_wait"] = longest_switch_wait;
  j["deadlock"] = deadlock;
  j["drained"] = drained;
  j["latency"] = lat(latency);
  j["total_latency"] = lat(total_latency);
  j["measured_packets"] = latency.count;
  j["avg_hops"] = avg_hops;
  j["hop_histogram"] = hop_histogram;
  j["minimal_share"] = minimal_share;
  j["packets_minimal"] = packets_minimal;
  j["packets_nonminimal"] = packets_nonminimal;
  if (dqn_pdor_share >= 0) j["dqn_pdor_share"] = dqn_pdor_share;
  j["link_utilisation"] = link_utilisation;
  if (links_observed) {  // absent where the fabric cannot see its links (network top)
    nlohmann::ordered_json by_class = nlohmann::ordered_json::object();
    for (const auto& [cls, u] : link_utilisation_by_class) by_class[link_class_key(cls)] = u;
    j["link_utilisation_by_class"] = by_class;
    nlohmann::ordered_json busiest = nlohmann::ordered_json::object();
    for (const auto& [cls, b] : link_utilisation_max_by_class) {
      busiest[link_class_key(cls)] = {{"utilisation", b.utilisation}, {"at", b.at}};
    }
    j["link_utilisation_max_by_class"] = busiest;
  }
  nlohmann::ordered_json residence = nlohmann::ordered_json::object();
  for (const auto& [classes, res] : router_residence) {
    residence[link_class_key(classes.first) + "->" + link_class_key(classes.second)] = {{"heads", res.heads},
                                                                                         {"avg", res.avg}};
  }
  j["router_residence"] = residence;
  j["cycles"] = cycles;
  j["router_cycles_per_second"] = router_cycles_per_second;
  j["wall_seconds"] = wall_seconds;
  if (!series.empty()) {
    nlohmann::ordered_json s = nlohmann::ordered_json::array();
    for (const SeriesPoint& p : series) {
      nlohmann::ordered_json w{{"begin", p.begin},
                               {"end", p.end},
                               {"accepted_load", p.accepted_load},
                               {"packets", p.packets},
                               {"latency_avg", p.latency_avg},
                               {"latency_p99", p.latency_p99},
                               {"minimal_share", p.minimal_share},
                               {"avg_hops", p.avg_hops}};
      if (p.mean_q >= 0) w["mean_q"] = p.mean_q;
      s.push_back(w);
    }
    j["series"] = s;
  }
  if (!app.name.empty()) {
    j["app"] = {{"name", app.name},
                {"steps_completed", app.steps_completed},
                {"mean_step_cycles", app.mean_step_cycles},
                {"mean_spikes_per_step", app.mean_spikes}};
  }
  j["failure"] = failure;
  return j;
}

SimResult run_simulation(const Design& design, const RoutingRelation& relation, Fabric& fabric,
                         const SimOptions& o) {
  const Topology& t = design.topo;
  // An application model (dpsnn) decides what every node sends; otherwise
  // Bernoulli sources at the offered load, with destinations from the pattern.
  std::unique_ptr<DpsnnApp> app;
  std::shared_ptr<const TrafficPattern> pattern = o.traffic;
  if (!pattern) {
    const TrafficSpec spec = parse_traffic_spec(o.pattern);
    if (is_application_traffic(spec)) app = make_dpsnn_app(design, spec, o.seed);
    else pattern = make_traffic_pattern(spec, t, o.seed, o.hotspot_fraction, o.hotspot_node);
  }
  Scoreboard scoreboard(design);
  NicSettings settings{o.load, o.packet_flits_min, o.packet_flits_max, relation.injection_vcs()};
  std::vector<Nic> nics;
  nics.reserve(static_cast<size_t>(t.num_nodes()));
  for (int n = 0; n < t.num_nodes(); ++n) nics.emplace_back(n, design, pattern.get(), settings, o.seed);
  // What each node's NIC did in the current cycle (the NIC phase of one_cycle).
  struct NodeCycle {
    bool received = false;  // a flit came out of the router
    bool sent = false;      // a flit went into it
    int generated = 0;      // flits of the packet generated, if any
  };
  std::vector<NodeCycle> node_cycle(static_cast<size_t>(t.num_nodes()));

  auto* network = dynamic_cast<NetworkTopFabric*>(&fabric);
  fabric.reset();
  // DQN-routing: the network programmed into every router's block, or the
  // agent on their agent ports (the fixed-point network in software unless
  // the caller brings one).
  std::shared_ptr<DqnAgent> dqn_agent;
  if (design.cfg.algorithm == RoutingAlgorithm::Dqn) {
    const DqnBlock block = dqn_block(design.cfg);
    const bool external = design.cfg.dqn_agent == DqnAgentKind::External;
    if (o.dqn_agent && !external) {
      throw std::invalid_argument("a DQN agent was given for a design whose agent is its inference block "
                                  "(routing.dqn_agent = \"block\")");
    }
    if (!external || !o.dqn_agent) {
      const ref::DqnNetwork dqn = o.dqn_network ? *o.dqn_network : dqn_network_for(design.cfg, "");
      check_fits(block, dqn, o.dqn_source.empty() ? "the DQN network" : o.dqn_source);
      if (external) dqn_agent = std::make_shared<FixedPointAgent>(dqn);
      else fabric.program_dqn(ref::dqn_program(dqn, block.npar, block.ipar));
    } else {
      dqn_agent = o.dqn_agent;
    }
    fabric.set_dqn_agent(dqn_agent.get());
  }
  SimResult r;
  r.offered_load = o.load;
  const auto start = std::chrono::steady_clock::now();
  const std::int64_t measure_end = o.warmup + o.cycles;
  std::int64_t cycle = 0, last_move = 0, generated_flits = 0, accepted_flits = 0;
  std::int64_t drain_end = measure_end + o.drain;
  bool generating = true;
  std::int64_t measured_generated = 0;
  std::vector<std::int64_t> generated_by_node(static_cast<size_t>(t.num_nodes()), 0);
  // Per-port link flit counters at the start and the end of the measurement
  // window (read before the step of cycle warmup and of cycle measure_end).
  std::vector<std::uint64_t> links_at_start, links_at_end;
  NetworkChecker::ResidenceTable residence_at_start{}, residence_at_end{};
  bool window_closed = false;

  // Traffic phases after the first (which is `pattern` at `load`).
  std::vector<std::shared_ptr<const TrafficPattern>> phase_patterns;
  for (const TrafficPhase& ph : o.phases) {
    phase_patterns.push_back(make_traffic_pattern(ph.pattern, t, o.seed, o.hotspot_fraction, o.hotspot_node));
  }
  std::size_t next_phase = 1;

  // The time series: each window's ejected flits, and the scoreboard log's
  // first packet of the window.
  std::int64_t window_flits = 0, window_begin = 0;
  std::size_t window_first = 0;
  auto close_window = [&]() {
    SeriesPoint p;
    p.end = cycle;
    p.begin = window_begin;
    window_begin = cycle;
    p.accepted_load = static_cast<double>(window_flits) /
                      (t.num_nodes() * static_cast<double>(std::max<std::int64_t>(1, p.end - p.begin)));
    std::vector<double> lat;
    std::int64_t minimal = 0, hops = 0;
    const std::vector<DeliveredPacket>& log = scoreboard.log();
    for (std::size_t i = window_first; i < log.size(); ++i) {
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
    if (const QMirror* q = fabric.q_mirror()) p.mean_q = q->mean_cycles();
    r.series.push_back(p);
    window_flits = 0;
    window_first = log.size();
  };
  auto take_q_tables = [&]() {
    const QMirror* q = fabric.q_mirror();
    if (q == nullptr || r.q_tables_cycle >= 0) return;
    r.q_tables_cycle = cycle;
    for (int router = 0; router < t.num_routers(); ++router) r.q_tables += q->dump(router);
  };

  // One cycle of the whole system; returns false on a violation or deadlock.
  auto one_cycle = [&]() {
    if (cycle == o.warmup) {
      links_at_start = fabric.link_flits();
      residence_at_start = fabric.residence();
    }
    if (cycle == measure_end) {
      links_at_end = fabric.link_flits();
      residence_at_end = fabric.residence();
      window_closed = true;
    }
    if (network && o.trace_from >= 0) network->model().set_tracing(cycle >= o.trace_from && cycle <= o.trace_to);
    if (next_phase < o.phases.size() && cycle == o.phases[next_phase].start) {
      for (Nic& nic : nics) nic.change_traffic(*phase_patterns[next_phase], o.phases[next_phase].load);
      ++next_phase;
    }
    const bool measured_cycle = cycle >= o.warmup && cycle < measure_end;
    auto count_generated = [&](int node, int flits) {
      if (flits == 0 || !measured_cycle) return;
      generated_flits += flits;
      ++measured_generated;
      ++generated_by_node[static_cast<size_t>(node)];
    };
    if (app && generating) {
      bool empty = scoreboard.in_flight() == 0;
      for (int n = 0; empty && n < t.num_nodes(); ++n) empty = nics[static_cast<size_t>(n)].idle();
      for (const AppPacket& p : app->tick(cycle, empty)) {
        nics[static_cast<size_t>(p.src)].enqueue(p.dst, p.length, cycle, measured_cycle);
        count_generated(p.src, p.length);
      }
    }
    // The NICs of each router (on its thread: they touch only their own
    // state and their router's NI ports), then what they did, node by node.
    fabric.for_each_router([&](int router) {
      for (int local = 0; local < t.nodes_per_router(); ++local) {
        const int n = t.node_at(router, local);
        Nic& nic = nics[static_cast<size_t>(n)];
        NodeCycle& did = node_cycle[static_cast<size_t>(n)];
        const LinkFlit out = fabric.ni_flit_out(n);
        did.received = out.valid;
        fabric.set_ni_credit_in(n, nic.eject(out, cycle));
        nic.credit_from_router(fabric.ni_credit_out(n));
        did.generated = generating ? nic.generate(cycle, measured_cycle) : 0;
        const LinkFlit in = nic.inject(cycle);
        did.sent = in.valid;
        fabric.set_ni_flit_in(n, in);
      }
    });
    bool moved = false;
    for (int n = 0; n < t.num_nodes(); ++n) {
      const NodeCycle& did = node_cycle[static_cast<size_t>(n)];
      nics[static_cast<size_t>(n)].report(scoreboard);
      if (did.received) {
        if (measured_cycle) ++accepted_flits;
        ++window_flits;
      }
      moved = moved || did.received || did.sent;
      count_generated(n, did.generated);
    }
    fabric.step();
    moved = moved || fabric.moved_inside();
    ++cycle;
    if (o.series_window > 0 && cycle % o.series_window == 0) close_window();
    if (cycle == o.q_dump_cycle) take_q_tables();
    if (moved || scoreboard.in_flight() == 0) last_move = cycle;
    if (!fabric.violation().empty()) {
      r.failure = fabric.violation();
      return false;
    }
    if (!scoreboard.errors().empty()) {
      r.failure = scoreboard.errors().front();
      return false;
    }
    if (cycle - last_move >= o.watchdog) {
      r.deadlock = true;
      r.failure = fmt::format(
          "deadlock: no flit moved for {} cycles at cycle {} with {} packets in flight.\n"
          "occupied VCs:\n{}packets in flight:\n{}",
          o.watchdog, cycle, scoreboard.in_flight(), fabric.dump_occupied(), scoreboard.describe_in_flight(40));
      return false;
    }
    return true;
  };

  bool ok = true;
  // Warmup and measurement, then drain: keep offering load until every
  // packet created in the measurement window is delivered (or the drain cap).
  auto measured_outstanding = [&]() {
    return measured_generated - (scoreboard.measured_injected() - scoreboard.measured_in_flight());
  };
  while (ok && cycle < drain_end) {
    if (cycle >= measure_end && measured_outstanding() == 0) break;
    ok = one_cycle();
  }
  r.drained = measured_outstanding() == 0;
  // Flush: stop generating, drop what never entered the network, and run
  // until every injected packet is out (the watchdog catches deadlock).
  generating = false;
  for (Nic& nic : nics) r.packets_not_injected += nic.drop_queue();
  const std::int64_t flush_cap = cycle + 200000;
  while (ok && cycle < flush_cap) {
    bool busy = scoreboard.in_flight() > 0;
    for (const Nic& nic : nics) busy = busy || !nic.idle();
    if (!busy) break;
    ok = one_cycle();
  }
  if (ok && scoreboard.in_flight() > 0) {
    r.failure = fmt::format("{} packets still in flight {} cycles after injection stopped although flits moved "
                            "(livelock or starvation).\noccupied VCs:\n{}packets in flight:\n{}",
                            scoreboard.in_flight(), 200000, fabric.dump_occupied(), scoreboard.describe_in_flight(40));
  }
  // DQN-routing: the last packets' acks travel back on the credit channels
  // (a hop each link's credit latency, one word per link and cycle); once the
  // network is empty every pending-episode entry must close within a bound.
  constexpr std::int64_t kAckSettleCycles = 4096;
  const std::int64_t ack_cap = cycle + kAckSettleCycles;
  while (ok && fabric.open_episodes() > 0 && cycle < ack_cap) ok = one_cycle();
  if (ok && r.failure.empty() && fabric.open_episodes() > 0) {
    r.failure = fmt::format("episode check: {} pending-episode entries still open {} cycles after the last packet "
                            "left (acks lost):\n{}",
                            fabric.open_episodes(), kAckSettleCycles, fabric.describe_open_episodes(20));
  }
  // A few idle cycles so that trailing credits settle.
  for (int i = 0; ok && i < 8; ++i) ok = one_cycle();

  if (o.series_window > 0 && cycle % o.series_window != 0) close_window();  // the last, shorter window
  if (o.q_dump_cycle >= 0) take_q_tables();  // at the end, if the run ended before the cycle
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.cycles = cycle;
  r.router_cycles_per_second =
      r.wall_seconds > 0 ? static_cast<double>(cycle) * t.num_routers() / r.wall_seconds : 0;
  r.packets_injected = scoreboard.injected_count();
  r.packets_delivered = scoreboard.delivered_count();
  r.packets_corrupted = scoreboard.corrupted_count();
  r.packets_duplicated = scoreboard.duplicated_count();
  r.packets_misrouted = scoreboard.misrouted_count();
  r.packets_lost = scoreboard.in_flight();
  const NetworkChecker::FrontWait wait = fabric.longest_front_wait();
  r.longest_vc_wait = wait.cycles;
  r.longest_switch_wait = fabric.longest_switch_wait().cycles;
  if (wait.router >= 0) {
    r.longest_vc_wait_at = fmt::format("router {} ({}) input port {} ({}) vc{}", wait.router, t.router_name(wait.router),
                                       wait.port, t.port_name(wait.router, wait.port), wait.vc);
  }
  r.generated_load = static_cast<double>(generated_flits) / (t.num_nodes() * static_cast<double>(o.cycles));
  if (app) {
    r.offered_load = r.generated_load;  // the application's, not a requested load
    r.app.name = "dpsnn";
    r.app.steps_completed = app->steps_completed();
    r.app.mean_step_cycles = app->mean_step_cycles();
    r.app.mean_spikes = app->mean_spikes();
  }
  r.accepted_load = static_cast<double>(accepted_flits) / (t.num_nodes() * static_cast<double>(o.cycles));
  const std::vector<std::int64_t> accepted_by_node =
      accepted_by_source(t.num_nodes(), scoreboard.log(), o.warmup, measure_end);
  r.source_fairness = source_fairness(generated_by_node, accepted_by_node);
  for (const std::int64_t flits : accepted_by_node) {
    r.accepted_by_node.push_back(static_cast<double>(flits) / static_cast<double>(o.cycles));
  }

  std::vector<double> net, total;
  for (const DeliveredPacket& p : scoreboard.log()) {
    if (!p.measured) continue;
    net.push_back(static_cast<double>(p.ejected - p.injected));
    total.push_back(static_cast<double>(p.ejected - p.created));
  }
  r.latency = summarize(net);
  r.total_latency = summarize(total);
  const PacketStats ps = measured_packet_stats(scoreboard.log());
  r.packets_delivered_measured = ps.delivered;
  r.avg_hops = ps.avg_hops;
  r.hop_histogram = ps.hop_histogram;
  r.packets_minimal = ps.minimal;
  r.packets_nonminimal = ps.nonminimal;
  r.minimal_share = ps.minimal_share;
  if (design.cfg.algorithm == RoutingAlgorithm::Dqn) {
    r.dqn_pdor_share = ps.delivered > 0 ? static_cast<double>(ps.pdor) / static_cast<double>(ps.delivered) : 0.0;
  }

  // Link utilisation over the measurement window; a run that failed before
  // the window closed is measured up to where it stopped.
  if (!window_closed) {
    links_at_end = fabric.link_flits();
    residence_at_end = fabric.residence();
  }
  if (links_at_start.empty()) residence_at_start = residence_at_end;  // failed during warmup: empty window
  r.router_residence = measure_residence(residence_at_start, residence_at_end);
  if (links_at_start.empty()) links_at_start = links_at_end;  // failed during warmup: empty window
  const std::int64_t window = std::max<std::int64_t>(0, std::min(cycle, measure_end) - o.warmup);
  r.links_observed = !links_at_end.empty();
  if (r.links_observed) {
    const LinkUtilisation u = measure_link_utilisation(t, links_at_start, links_at_end, window);
    r.link_utilisation = u.all;
    r.link_utilisation_by_class = u.by_class;
    r.link_utilisation_max_by_class = u.busiest_by_class;
    r.link_utilisation_by_port = u.by_port;
  }
  r.packets = scoreboard.log();
  if (r.failure.empty() && !scoreboard.errors().empty()) r.failure = scoreboard.errors().front();
  if (dqn_agent) fabric.set_dqn_agent(nullptr);  // the agent ends with the run
  return r;
}

}  // namespace rlroute
