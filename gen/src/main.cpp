// rlroute: command-line entry point (gen, sim, synth).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "rlroute/config.hpp"
#include "rlroute/design.hpp"
#include "rlroute/emit.hpp"
#include "rlroute/fabric.hpp"
#include "rlroute/model_build.hpp"
#include "rlroute/routing.hpp"
#include "rlroute/simulation.hpp"
#include "rlroute/synth.hpp"
#include "rlroute/traffic.hpp"
#include "rlroute/version.hpp"

namespace fs = std::filesystem;
using namespace rlroute;

namespace {

struct SimArgs {
  std::string config;
  std::string pattern;
  std::string loads;
  int packet_flits = 0;
  int packet_flits_min = 0;
  int packet_flits_max = 0;
  std::int64_t cycles = -1, warmup = -1, drain = -1;
  std::int64_t seed = -1;
  std::string json;
  std::string trace;
  std::int64_t trace_from = 0, trace_to = -1;
  std::string fabric = "harness";
  std::int64_t watchdog = 5000;
  bool quiet = false;
};

std::vector<double> parse_loads(const std::string& text) {
  std::vector<double> loads;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    std::size_t used = 0;
    double v = 0;
    try {
      v = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || !(v > 0 && v <= 1.0)) {
      throw std::invalid_argument(fmt::format("--load {}: every load must be a number in (0, 1] flits/node/cycle", text));
    }
    loads.push_back(v);
  }
  if (loads.empty()) throw std::invalid_argument("--load: give at least one load");
  return loads;
}

// Non-fatal config findings (e.g. a VC buffer below a link's credit round trip).
void print_warnings(const Config& cfg) {
  for (const std::string& w : cfg.warnings) std::cerr << "rlroute: warning: " << w << "\n";
}

int run_gen(const std::string& config_path, const std::string& out_dir) {
  const Config cfg = load_config(config_path);
  print_warnings(cfg);
  const Design design = derive_design(cfg);
  const EmittedDesign emitted = emit_design(design);
  write_design(emitted, out_dir);
  std::cout << fmt::format("rlroute: wrote {} files for \"{}\" ({}) to {} (rtl hash {})\n", emitted.files.size(),
                           cfg.name, design.topo.describe(), out_dir, emitted.hash);
  return 0;
}

int run_sim(const SimArgs& a) {
  const Config cfg = load_config(a.config);
  print_warnings(cfg);
  const Design design = derive_design(cfg);
  const EmittedDesign emitted = emit_design(design);
  const auto relation = make_routing_relation(design);

  SimOptions o;
  o.pattern = a.pattern.empty() ? cfg.sim.pattern : a.pattern;
  const int fixed = a.packet_flits ? a.packet_flits : cfg.sim.packet_flits;
  if (a.packet_flits_min || a.packet_flits_max) {
    o.packet_flits_min = a.packet_flits_min;
    o.packet_flits_max = a.packet_flits_max;
  } else if (fixed) {
    o.packet_flits_min = o.packet_flits_max = fixed;
  } else if (cfg.sim.packet_flits_min) {
    o.packet_flits_min = cfg.sim.packet_flits_min;
    o.packet_flits_max = cfg.sim.packet_flits_max;
  } else {
    o.packet_flits_min = o.packet_flits_max = cfg.max_packet_flits;
  }
  if (o.packet_flits_min < 2 || o.packet_flits_min > o.packet_flits_max || o.packet_flits_max > cfg.max_packet_flits) {
    throw std::invalid_argument(fmt::format("--packet-flits {}..{}: sizes must satisfy 2 <= min <= max <= "
                                            "router.max_packet_flits = {}",
                                            o.packet_flits_min, o.packet_flits_max, cfg.max_packet_flits));
  }
  o.cycles = a.cycles >= 0 ? a.cycles : cfg.sim.cycles;
  o.warmup = a.warmup >= 0 ? a.warmup : cfg.sim.warmup;
  o.drain = a.drain >= 0 ? a.drain : cfg.sim.drain;
  o.seed = a.seed >= 0 ? static_cast<std::uint64_t>(a.seed) : cfg.sim.seed;
  o.hotspot_fraction = cfg.sim.hotspot_fraction;
  o.hotspot_node = cfg.sim.hotspot_node;
  o.watchdog = a.watchdog;
  if (o.cycles < 1) throw std::invalid_argument(fmt::format("--cycles {}: must be at least 1", o.cycles));
  make_traffic_pattern(o.pattern, design.topo, o.seed, o.hotspot_fraction, o.hotspot_node);  // validate early
  const std::vector<double> loads =
      a.loads.empty() ? std::vector<double>{cfg.sim.load} : parse_loads(a.loads);

  const bool use_network = a.fabric == "network" || !a.trace.empty();
  if (!a.trace.empty()) {
    o.trace_from = a.trace_from;
    o.trace_to = a.trace_to < 0 ? a.trace_from + 1000 : a.trace_to;
    if (o.trace_to < o.trace_from) throw std::invalid_argument("--trace-to must not be before --trace-from");
  }
  auto log = [&a](const std::string& line) {
    if (!a.quiet) std::cerr << "rlroute: " << line << "\n";
  };
  const ModelFactory factory =
      load_model(design, emitted, use_network ? ModelKind::Network : ModelKind::Router, log);
  if (factory.build_seconds() > 0) log(fmt::format("model built in {:.1f} s", factory.build_seconds()));

  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  bool failed = false;
  if (!a.quiet) {
    std::cout << fmt::format("{} ({}), {} traffic, {}-{} flit packets, {} fabric\n", cfg.name,
                             design.topo.describe(), o.pattern, o.packet_flits_min, o.packet_flits_max,
                             use_network ? "network-top" : "harness");
    std::cout << fmt::format("{:>8} {:>9} {:>9} {:>9} {:>8} {:>8} {:>9} {:>6} {:>6} {:>6} {:>12}\n", "offered",
                             "accepted", "lat_avg", "lat_p99", "lat_max", "tot_avg", "delivered", "hops", "min%",
                             "link_u", "rcycles/s");
  }
  for (double load : loads) {
    o.load = load;
    std::unique_ptr<Fabric> fabric;
    if (use_network) {
      auto net = std::make_unique<NetworkTopFabric>(design, factory);
      if (!a.trace.empty()) net->model().open_trace(a.trace);
      fabric = std::move(net);
    } else {
      fabric = std::make_unique<HarnessFabric>(design, *relation, factory);
    }
    const SimResult r = run_simulation(design, *relation, *fabric, o);
    if (!a.quiet) {
      std::cout << fmt::format(
          "{:>8.3f} {:>9.4f} {:>9.2f} {:>9.0f} {:>8.0f} {:>8.2f} {:>9} {:>6.2f} {:>6.1f} {:>6.3f} {:>12.0f}\n",
          r.offered_load, r.accepted_load, r.latency.avg, r.latency.p99, r.latency.max, r.total_latency.avg,
          r.packets_delivered, r.avg_hops, 100 * r.minimal_share, r.link_utilisation, r.router_cycles_per_second);
    }
    nlohmann::ordered_json j = r.to_json();
    j["config"] = cfg.name;
    j["pattern"] = o.pattern;
    j["fabric"] = use_network ? "network" : "harness";
    j["seed"] = o.seed;
    all.push_back(j);
    if (!r.ok()) {
      std::cerr << "rlroute: simulation failed at load " << load << ": " << r.failure << "\n";
      failed = true;
      break;
    }
  }
  if (!a.json.empty()) {
    const fs::path out = a.json;
    const fs::path tmp = out.string() + ".tmp";
    {
      std::ofstream f(tmp);
      f << (all.size() == 1 ? all[0].dump(2) : all.dump(2)) << "\n";
      if (!f) throw std::runtime_error(fmt::format("{}: cannot write results", tmp.string()));
    }
    fs::rename(tmp, out);
  }
  return failed ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rlroute: generator and simulator of APEnet/ExaNet-style interconnect routers"};
  app.set_version_flag("--version", std::string("rlroute ") + kVersion);
  app.require_subcommand(1);

  std::string gen_config, gen_out;
  CLI::App* gen = app.add_subcommand("gen", "Emit the SystemVerilog, filelist and manifest of a config");
  gen->add_option("CONFIG", gen_config, "TOML config file")->required();
  gen->add_option("-o,--out", gen_out, "output directory (replaced atomically)")->required();

  SimArgs s;
  CLI::App* sim = app.add_subcommand("sim", "Build the Verilator model (cached) and simulate the network");
  sim->add_option("CONFIG", s.config, "TOML config file")->required();
  sim->add_option("--pattern", s.pattern, "traffic pattern (default: [sim] pattern)");
  sim->add_option("--load", s.loads, "offered load(s) in flits/node/cycle, comma-separated");
  sim->add_option("--packet-flits", s.packet_flits, "fixed packet size in flits, head and footer included");
  sim->add_option("--packet-flits-min", s.packet_flits_min, "uniform packet sizes: minimum");
  sim->add_option("--packet-flits-max", s.packet_flits_max, "uniform packet sizes: maximum");
  sim->add_option("--cycles", s.cycles, "measurement cycles");
  sim->add_option("--warmup", s.warmup, "warmup cycles");
  sim->add_option("--drain", s.drain, "cap on cycles to wait for measured packets");
  sim->add_option("--seed", s.seed, "traffic seed");
  sim->add_option("--json", s.json, "write results JSON here (an array for several loads)");
  sim->add_option("--trace", s.trace, "dump an FST waveform of the network top to this file");
  sim->add_option("--trace-from", s.trace_from, "first traced cycle");
  sim->add_option("--trace-to", s.trace_to, "last traced cycle (default: trace-from + 1000)");
  sim->add_option("--fabric", s.fabric, "harness (N Verilated routers + C++ links) or network (Verilated network top)")
      ->check(CLI::IsMember({"harness", "network"}));
  sim->add_option("--watchdog", s.watchdog, "cycles without movement that count as deadlock");
  sim->add_flag("--quiet", s.quiet, "print nothing but errors");

  synth::SynthOptions y;
  CLI::App* syn = app.add_subcommand("synth", "Cost the router with Yosys and OpenSTA: cells, transistors, "
                                              "Liberty area, timing/Fmax, FPGA resources, per block");
  syn->add_option("CONFIG", y.config, "TOML config file")->required();
  syn->add_option("--liberty", y.liberty, "Liberty library for the standard-cell path (default: synth/rlroute45.lib)");
  syn->add_option("--clock-ns", y.clock_ns, "target clock period in ns (default: 2.0)");
  syn->add_option("--json", y.json, "also write the JSON report here");
  syn->add_option("-o,--out", y.out_dir, "output directory: report, RTL, scripts and tool logs "
                                         "(default: out/synth/<config name>)");
  syn->add_option("--paths", y.paths, "synthesis paths to run, comma-separated (default: generic,liberty,fpga)");
  syn->add_flag("--quiet", y.quiet, "print nothing but errors");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (*gen) return run_gen(gen_config, gen_out);
    if (*sim) return run_sim(s);
    if (*syn) return synth::synth_command(y);
  } catch (const std::exception& e) {
    std::cerr << "rlroute: error: " << e.what() << "\n";
    return 1;
  }
  return 1;
}
