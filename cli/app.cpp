// rlroute app CONFIG --workload SPEC: run an MPI-like workload on the SystemC
// host layer over the RTL network (the rlroute-app binary, which links
// SystemC; `rlroute app` runs it).
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/files.hpp"
#include "rlroute/host/host_layer.hpp"
#include "rlroute/host/workload.hpp"
#include "rlroute/tb/sim_options.hpp"
#include "rlroute/tb/simulator.hpp"

namespace rlroute::cli {

namespace {

struct AppArgs {
  std::string config;
  std::string workload;
  std::string background;  // a second job, on other nodes
  std::string placement = "linear";
  std::string json;
  std::string messages;  // CSV of every message
  std::optional<std::int64_t> ranks, background_ranks, seed, max_cycles, threads, watchdog;
  bool quiet = false;
};

// The cap on a run's cycles when --max-cycles is not given.
constexpr std::int64_t kDefaultMaxCycles = 10'000'000;

int run_app(const AppArgs& a) {
  const Config cfg = load_config(a.config);
  print_warnings(cfg.warnings);
  check_distinct_files({{"--json", a.json}, {"--messages", a.messages}}, {{"the config", a.config}});
  if (!a.json.empty()) check_output_file(a.json, "--json");
  if (!a.messages.empty()) check_output_file(a.messages, "--messages");
  // Everything the user typed is checked before the model is built.
  const Design design = derive_design(cfg);
  const std::uint64_t seed = static_cast<std::uint64_t>(a.seed.value_or(1));
  const host::Workload workload = host::make_workload(a.workload, seed);
  const int nodes = design.topo.num_nodes();
  const std::int64_t ranks = a.ranks.value_or(workload.exact_ranks > 0 ? workload.exact_ranks : nodes);
  if (workload.exact_ranks > 0 && ranks != workload.exact_ranks) {
    throw std::invalid_argument(
        fmt::format("--ranks {}: workload \"{}\" has {} ranks", ranks, workload.text, workload.exact_ranks));
  }
  if (ranks < workload.min_ranks) {
    throw std::invalid_argument(
        fmt::format("--ranks {}: workload \"{}\" needs at least {}", ranks, workload.text, workload.min_ranks));
  }
  std::vector<host::Job> jobs;
  std::int64_t background_ranks = 0;
  std::optional<host::Workload> background;
  if (!a.background.empty()) {
    background = host::make_workload(a.background, seed + 1);
    background_ranks = a.background_ranks.value_or(background->exact_ranks > 0 ? background->exact_ranks : nodes - ranks);
    if (background_ranks < std::max(1, background->min_ranks) ||
        (background->exact_ranks > 0 && background_ranks != background->exact_ranks)) {
      throw std::invalid_argument(fmt::format("--background-ranks {}: workload \"{}\" needs {} {}", background_ranks,
                                              background->text, background->exact_ranks > 0 ? "exactly" : "at least",
                                              std::max({1, background->min_ranks, background->exact_ranks})));
    }
    if (ranks + background_ranks > nodes) {
      throw std::invalid_argument(fmt::format("--background-ranks {}: with the {} ranks of --workload, more than the {} nodes",
                                              background_ranks, ranks, nodes));
    }
  } else if (a.background_ranks) {
    throw std::invalid_argument("--background-ranks: give --background SPEC as well");
  }
  // One placement over both jobs: the workload's ranks first, the background's on the nodes after them.
  const std::vector<int> placement = host::place_ranks(a.placement, ranks + background_ranks, design.topo, seed);
  jobs.push_back({workload.name, workload.body, {placement.begin(), placement.begin() + ranks}, false});
  if (background) jobs.push_back({background->name, background->body, {placement.begin() + ranks, placement.end()}, true});
  SimOptions o;
  o.pattern = workload.text;
  o.seed = seed;
  o.warmup = 0;
  o.cycles = a.max_cycles.value_or(kDefaultMaxCycles);
  if (o.cycles < 1 || o.cycles > kMaxSimCycles) {
    throw std::invalid_argument(fmt::format("--max-cycles {}: must be 1..{}", o.cycles, kMaxSimCycles));
  }
  o.drain = 0;
  o.threads = static_cast<int>(a.threads.value_or(1));
  if (o.threads < 1 || o.threads > 256) throw std::invalid_argument(fmt::format("--threads {}: must be 1..256", o.threads));
  if (a.watchdog) o.watchdog = *a.watchdog;
  const auto log = [&a](const std::string& line) {
    if (!a.quiet) std::cerr << "rlroute: " << line << "\n";
  };
  const Simulator simulator(cfg, FabricKind::Harness, log);
  auto layer = std::make_shared<host::HostLayer>(simulator.design(), std::move(jobs));
  o.application = layer;
  const SimResult r = simulator.run(o);
  if (!a.quiet) std::cout << r.app_summary << "\n";
  if (!a.json.empty()) write_file_atomically(a.json, simulator.result_json(r, o).dump(2) + "\n", "--json");
  if (!a.messages.empty()) write_file_atomically(a.messages, layer->messages_csv(), "--messages");
  if (!r.ok()) {
    std::cerr << "rlroute: error: " << r.failure << "\n";
    return 2;
  }
  if (!layer->finished()) {
    std::cerr << fmt::format("rlroute: error: {} did not finish in --max-cycles {}\n", workload.name, o.cycles);
    return 2;
  }
  return 0;
}

}  // namespace

Verb add_app(CLI::App& app) {
  auto a = std::make_shared<AppArgs>();
  CLI::App* cmd = app.add_subcommand("app", "Run an MPI-like workload on SystemC ranks and network interfaces over "
                                            "the RTL network");
  cmd->add_option("CONFIG", a->config, "TOML config file")->required();
  cmd->add_option("--workload", a->workload, "the workload: pingpong[:bytes=B,iterations=N,peer=R], "
                                             "allreduce, barrier, broadcast, alltoall, halo3d, many2many, randneighbors[:bytes=B,iterations=N,compute=C,...], "
                                             "random[:bytes=B,interval=C,messages=N], trace:FILE, goal:FILE (docs/host.md)")
      ->required();
  add_integer_option(cmd, "--ranks", a->ranks, "ranks, one per node (default: every node; a trace's own)");
  cmd->add_option("--placement", a->placement,
                  "ranks on nodes: linear (rank r on node r), random (from --seed) or groups (a dragonfly: rank r in "
                  "group r mod g)");
  cmd->add_option("--background", a->background,
                  "a second job sharing the network (a workload spec, as --workload), on other nodes; the run ends "
                  "when --workload's has finished");
  add_integer_option(cmd, "--background-ranks", a->background_ranks,
                     "ranks of --background (default: every node --workload leaves; a trace's own)");
  add_integer_option(cmd, "--seed", a->seed, "seed of the random placement and of what the workload draws (default 1)");
  add_integer_option(cmd, "--max-cycles", a->max_cycles, "cap on the run's cycles (default 10,000,000)");
  add_integer_option(cmd, "--threads", a->threads, "threads that evaluate the routers (1..256); the same results");
  add_integer_option(cmd, "--watchdog", a->watchdog, "cycles without movement that count as deadlock (default 5000)");
  cmd->add_option("--json", a->json, "write the results JSON here (the app object: run time, per rank, messages)");
  cmd->add_option("--messages", a->messages,
                  "write every message as CSV: ranks, tag, bytes, packets, and the cycles of its send, its last "
                  "flit's entry and its arrival");
  cmd->add_flag("--quiet", a->quiet, "print nothing but errors");
  return {cmd, [a] { return run_app(*a); }};
}

}  // namespace rlroute::cli
