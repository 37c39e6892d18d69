// rlroute sim CONFIG: build the Verilated model (cached) and simulate the
// network at one or more offered loads.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/dqn_block.hpp"
#include "rlroute/gen/files.hpp"
#include "rlroute/tb/simulator.hpp"
#include "rlroute/tb/sim_options.hpp"

namespace rlroute::cli {

namespace {

struct SimArgs {
  std::string config;
  std::string loads;
  SimOverrides overrides;
  std::string json;
  std::string trace;
  std::optional<std::int64_t> trace_from, trace_to;
  std::string fabric = "harness";
  std::string series;  // CSV of the time series
  std::string q_dump;  // every router's Q-table
  std::string links;   // CSV of every link's utilisation
  bool quiet = false;
};

// Default window of --series without --series-window.
constexpr std::int64_t kDefaultSeriesWindow = 1000;

// The time series of every load as CSV, a row per window.
std::string series_csv(const std::vector<SimResult>& results) {
  std::string s =
      "offered_load,begin,end,accepted_load,packets,latency_avg,latency_p99,minimal_share,avg_hops,mean_q,q_minimal,"
      "q_best_other,contention_mean\n";
  // Empty where the algorithm has no Q-table or no contention counters.
  auto optional = [](double v) { return v >= 0 ? fmt::format("{:.4f}", v) : std::string(); };
  for (const SimResult& r : results) {
    for (const SeriesPoint& p : r.series) {
      s += fmt::format("{},{},{},{:.6f},{},{:.3f},{:.1f},{:.6f},{:.4f},{},{},{},{}\n", p.offered_load, p.begin, p.end,
                       p.accepted_load, p.packets, p.latency_avg, p.latency_p99, p.minimal_share, p.avg_hops,
                       optional(p.mean_q), optional(p.q_minimal), optional(p.q_best_other),
                       optional(p.contention_mean));
    }
  }
  return s;
}

// Every router-to-router link's flits per cycle in the measurement window,
// a row per link and load.
std::string links_csv(const Topology& t, const std::vector<SimResult>& results) {
  std::string s = "offered_load,router,router_name,port,port_name,class,to_router,utilisation\n";
  for (const SimResult& r : results) {
    if (r.link_utilisation_by_port.empty()) continue;
    for (int router = 0; router < t.num_routers(); ++router) {
      for (int port = 0; port < t.num_ports(); ++port) {
        const auto to = t.neighbor(router, port);
        if (!to) continue;
        // Names are quoted: a torus router's name has commas, R0(0,0).
        s += fmt::format("{},{},\"{}\",{},\"{}\",{},{},{:.6f}\n", r.offered_load, router, t.router_name(router), port,
                         t.port_name(router, port), link_class_key(t.port_class(port)), to->router,
                         r.link_utilisation_by_port[static_cast<size_t>(router * t.num_ports() + port)]);
      }
    }
  }
  return s;
}

// Default length of an FST window when only --trace-from is given.
constexpr std::int64_t kDefaultTraceCycles = 1000;

void print_header(const Simulator& s, const SimOptions& o) {
  const std::string sizes = runs_application(o)
                                ? fmt::format("messages in packets of up to {} flits", s.design().cfg.max_packet_flits)
                                : fmt::format("{}-{} flit packets", o.packet_flits_min, o.packet_flits_max);
  std::cout << fmt::format("{} ({}), {} traffic, {}, {} fabric\n", s.design().cfg.name, s.design().topo.describe(),
                           o.pattern, sizes, s.fabric() == FabricKind::Network ? "network-top" : "harness");
  std::cout << fmt::format("{:>8} {:>9} {:>9} {:>9} {:>8} {:>8} {:>9} {:>6} {:>6} {:>6} {:>12}\n", "offered",
                           "accepted", "lat_avg", "lat_p99", "lat_max", "tot_avg", "delivered", "hops", "min%",
                           "link_u", "rcycles/s");
}

void print_row(const SimResult& r) {
  std::cout << fmt::format(
      "{:>8.3f} {:>9.4f} {:>9.2f} {:>9.0f} {:>8.0f} {:>8.2f} {:>9} {:>6.2f} {:>6.1f} {:>6.3f} {:>12.0f}\n",
      r.offered_load, r.accepted_load, r.latency.avg, r.latency.p99, r.latency.max, r.total_latency.avg,
      r.packets_delivered, r.avg_hops, 100 * r.minimal_share, r.link_utilisation, r.router_cycles_per_second);
}

int run_sim(const SimArgs& a) {
  Config cfg = load_config(a.config);
  print_warnings(cfg.warnings);
  use_dqn_weights(cfg, a.overrides.weights.value_or(""));
  // Everything the user typed is checked before the model is built.
  if (a.overrides.phases && !a.loads.empty()) {
    throw std::invalid_argument(fmt::format("--load {}: conflicts with --phases; the phases set the load", a.loads));
  }
  const std::vector<double> loads = a.loads.empty() ? std::vector<double>{cfg.sim.load} : parse_loads(a.loads);
  check_distinct_files({{"--json", a.json}, {"--series", a.series}, {"--q-dump", a.q_dump}, {"--links", a.links},
                        {"--trace", a.trace}},
                       {{"the config", a.config},
                        {"the weights file", dqn_weights_file(cfg, a.overrides.weights.value_or(""))}});
  if (!a.json.empty()) check_output_file(a.json, "--json");
  if (!a.series.empty()) check_output_file(a.series, "--series");
  if (!a.q_dump.empty()) check_output_file(a.q_dump, "--q-dump");
  if (!a.links.empty()) check_output_file(a.links, "--links");
  if (a.series.empty() && a.overrides.series_window) {
    throw std::invalid_argument("--series-window: give --series FILE as well");
  }
  if (a.q_dump.empty() && a.overrides.q_dump_cycle) throw std::invalid_argument("--q-dump-cycle: give --q-dump FILE as well");
  if (!a.q_dump.empty() && traits(cfg.algorithm).choice != PathChoice::QTable) {
    throw std::invalid_argument(fmt::format("--q-dump {}: only for routing.algorithm = q_adaptive (this config: {})",
                                            a.q_dump, to_string(cfg.algorithm)));
  }
  const bool tracing = !a.trace.empty();
  if (tracing) check_output_file(a.trace, "--trace");
  if (!tracing && (a.trace_from || a.trace_to)) {
    throw std::invalid_argument("--trace-from/--trace-to: give --trace FILE as well");
  }
  const std::int64_t trace_from = a.trace_from.value_or(0);
  const std::int64_t trace_to = a.trace_to.value_or(trace_from + kDefaultTraceCycles);
  if (trace_from < 0) throw std::invalid_argument(fmt::format("--trace-from {}: must be >= 0", trace_from));
  if (trace_to < trace_from) throw std::invalid_argument("--trace-to must not be before --trace-from");

  const auto log = [&a](const std::string& line) {
    if (!a.quiet) std::cerr << "rlroute: " << line << "\n";
  };
  const FabricKind fabric = (a.fabric == "network" || tracing) ? FabricKind::Network : FabricKind::Harness;
  if (fabric == FabricKind::Network && a.overrides.threads && *a.overrides.threads != 1) {
    throw std::invalid_argument(fmt::format(
        "--threads {}: the network fabric (--fabric network, --trace) is one Verilated model on one thread; "
        "threads are for the harness fabric",
        *a.overrides.threads));
  }
  // Checked against the design before the (possibly long) model build.
  const Design design = derive_design(cfg);
  SimOptions o = resolve_sim_options(design, a.overrides);
  if (!a.loads.empty() && runs_application(o)) {
    throw std::invalid_argument(fmt::format(
        "--load {}: conflicts with the {} pattern, whose rate sets the load", a.loads, o.pattern));
  }
  const std::vector<double> run_loads = o.phases.empty() ? loads : std::vector<double>{o.load};
  if (tracing) {
    o.trace_from = trace_from;
    o.trace_to = trace_to;
  }
  std::string why;
  if (fabric == FabricKind::Harness) {
    if (const auto usable = fewer_threads(o.threads, design.topo.num_routers(), &why)) {
      if (!a.quiet) std::cerr << "rlroute: " << why << "\n";
      o.threads = *usable;
    }
  }
  if (!a.series.empty() && o.series_window == 0) o.series_window = kDefaultSeriesWindow;
  if (!a.q_dump.empty() && o.q_dump_cycle < 0) o.q_dump_cycle = kMaxSimCycles;  // the end of the run
  const Simulator simulator(cfg, fabric, log);
  if (simulator.model().build_seconds() > 0) log(fmt::format("model built in {:.1f} s", simulator.model().build_seconds()));

  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  std::vector<SimResult> results;
  bool failed = false;
  if (!o.dqn_source.empty()) log("DQN network: " + o.dqn_source);
  if (!a.quiet) print_header(simulator, o);
  for (const double load : run_loads) {
    o.load = load;
    const SimResult r = simulator.run(o, a.trace);
    if (!a.quiet) print_row(r);
    if (!a.quiet && !r.app_summary.empty()) {
      std::cout << fmt::format("{}; latency stdev {:.2f}\n", r.app_summary, r.latency.stdev);
    }
    all.push_back(simulator.result_json(r, o));
    results.push_back(r);
    if (!r.ok()) {
      std::cerr << "rlroute: simulation failed at load " << load << ": " << r.failure << "\n";
      failed = true;
      break;
    }
  }
  if (!a.json.empty()) write_file_atomically(a.json, (all.size() == 1 ? all[0].dump(2) : all.dump(2)) + "\n", "--json");
  if (!a.series.empty()) write_file_atomically(a.series, series_csv(results), "--series");
  if (!a.links.empty()) write_file_atomically(a.links, links_csv(simulator.design().topo, results), "--links");
  if (!a.q_dump.empty()) {
    std::string dump;
    for (const SimResult& r : results) {
      dump += fmt::format("# offered load {}: every router's table at cycle {}\n{}", r.offered_load, r.q_tables_cycle,
                          r.q_tables);
    }
    write_file_atomically(a.q_dump, dump, "--q-dump");
  }
  return failed ? 2 : 0;
}

}  // namespace

Verb add_sim(CLI::App& app) {
  auto a = std::make_shared<SimArgs>();
  SimOverrides& o = a->overrides;
  CLI::App* sim = app.add_subcommand("sim", "Build the Verilator model (cached) and simulate the network");
  sim->add_option("CONFIG", a->config, "TOML config file")->required();
  sim->add_option("--pattern", o.pattern, "traffic pattern (default: [sim] pattern)");
  sim->add_option("--load", a->loads, "offered load(s) in flits/node/cycle, comma-separated");
  add_integer_option(sim, "--packet-flits", o.packet_flits, "fixed packet size in flits, head and footer included");
  add_integer_option(sim, "--packet-flits-min", o.packet_flits_min, "uniform packet sizes: minimum");
  add_integer_option(sim, "--packet-flits-max", o.packet_flits_max, "uniform packet sizes: maximum");
  add_integer_option(sim, "--cycles", o.cycles, "measurement cycles (1..2^40)");
  add_integer_option(sim, "--warmup", o.warmup, "warmup cycles (0..2^40)");
  add_integer_option(sim, "--drain", o.drain, "cap on cycles to wait for measured packets (0..2^40)");
  add_integer_option(sim, "--seed", o.seed, "traffic seed (>= 0)");
  sim->add_option("--json", a->json, "write results JSON here (an array for several loads)");
  sim->add_option("--trace", a->trace, "dump an FST waveform of the network top to this file");
  add_integer_option(sim, "--trace-from", a->trace_from, "first traced cycle");
  add_integer_option(sim, "--trace-to", a->trace_to, "last traced cycle (default: trace-from + 1000)");
  sim->add_option("--fabric", a->fabric,
                  "harness (N Verilated routers + C++ links) or network (Verilated network top)")
      ->check(CLI::IsMember({"harness", "network"}));
  add_integer_option(sim, "--threads", o.threads,
              "threads that evaluate the routers (harness fabric, 1..256, default [sim] threads = 1); the results "
              "are the same at every count");
  add_integer_option(sim, "--watchdog", o.watchdog, "cycles without movement that count as deadlock (1..2^30, default 5000)");
  sim->add_option("--series", a->series,
                  "write a time series (CSV, a row per window: accepted load, latency, minimal share, hops; "
                  "Q-adaptive's table estimates, UGAL-LE's mean contention factor); the results JSON gets it too");
  add_integer_option(sim, "--series-window", o.series_window, "cycles per window of --series (default 1000)");
  sim->add_option("--links", a->links,
                  "write every router-to-router link's utilisation in the measurement window (CSV, flits per cycle)");
  sim->add_option("--q-dump", a->q_dump, "q_adaptive: write every router's Q-table (cycles) to this file");
  add_integer_option(sim, "--q-dump-cycle", o.q_dump_cycle, "the cycle of --q-dump (default: the end of the run)");
  sim->add_option_function<std::string>(
         "--phases", [&o](const std::string& text) { o.phases = text; },
         "traffic that changes during the run: CYCLE:PATTERN@LOAD,... from cycle 0, e.g. "
         "\"0:uniform@0.4,20000:uniform@0.8\" (instead of --pattern and --load)")
      ->type_name("LIST");
  sim->add_option_function<std::string>(
         "--weights", [&o](const std::string& file) { o.weights = file; },
         "dqn: the trained network to program into the routers (rlroute train -o FILE; default: "
         "routing.dqn_weights, else an untrained random network)")
      ->type_name("FILE");
  sim->add_flag("--float-agent", o.float_agent,
                "dqn with routing.dqn_agent = \"external\": answer on the agent ports with the weights file's "
                "floating-point network (as trained) instead of its quantized one");
  sim->add_flag("--quiet", a->quiet, "print nothing but errors");
  return {sim, [a] { return run_sim(*a); }};
}

}  // namespace rlroute::cli
