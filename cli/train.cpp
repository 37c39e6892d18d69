// rlroute train CONFIG -o WEIGHTS: trains DQN-routing's agent in the loop with
// the Verilated network (the agent outside the routers), quantizes it for the
// inference block and writes the weights file that `rlroute gen/sim
// --weights` load (docs/dqn.md, "Training").
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/dqn_weights.hpp"
#include "rlroute/gen/files.hpp"
#include "rlroute/gen/version.hpp"
#include "rlroute/tb/simulator.hpp"
#include "rlroute/tb/sim_options.hpp"
#include "rlroute/train/trainer.hpp"

namespace rlroute::cli {

namespace {

// Default training run, cycles, when neither --cycles nor [sim] cycles says.
constexpr std::int64_t kDefaultTrainCycles = 50000;

struct TrainArgs {
  std::string config;
  std::string output;
  std::string curve;
  std::string json;
  std::string init;
  SimOverrides overrides;
  std::optional<double> load;
  bool post_quantization = false;
  bool quiet = false;
};

// The floating-point network of the weights file `path` (--init), which must
// fit the config's block; WeightsError or std::invalid_argument otherwise.
ref::FloatNetwork read_init_network(const Config& cfg, const std::string& path) {
  ref::FloatNetwork network;
  check_fits(dqn_block(cfg), read_dqn_weights(path, nullptr, &network), path);
  if (network.layers.empty()) {
    throw std::invalid_argument(fmt::format(
        "--init {}: holds no floating-point network (float_layers; rlroute train writes it)", path));
  }
  return network;
}

int run_train(const TrainArgs& a) {
  Config cfg = load_config(a.config);
  print_warnings(cfg.warnings);
  train::check_trainable(cfg);
  check_distinct_files({{"-o", a.output}, {"--curve", a.curve}, {"--json", a.json}},
                       {{"the config", a.config}});
  check_weights_output(a.output);
  if (!a.curve.empty()) check_output_file(a.curve, "--curve");
  if (!a.json.empty()) check_output_file(a.json, "--json");
  ref::FloatNetwork init;
  if (!a.init.empty()) init = read_init_network(cfg, a.init);
  // The network being trained answers on the routers' agent ports; the
  // weights fit the config's block, whichever agent it names.
  cfg.dqn_agent = DqnAgentKind::External;
  cfg.dqn_weights_mode = DqnWeightsMode::Programmable;
  const Design design = derive_design(cfg);
  SimOverrides overrides = a.overrides;
  if (!overrides.cycles) overrides.cycles = kDefaultTrainCycles;
  if (!overrides.warmup) overrides.warmup = 0;
  // Measured packets are waited for only if someone reads the measurement.
  if (!overrides.drain && a.json.empty()) overrides.drain = 0;
  train::TrainOptions o;
  o.sim = resolve_sim_options(design, overrides);
  std::string why;
  if (const auto usable = fewer_threads(o.sim.threads, design.topo.num_routers(), &why)) {
    if (!a.quiet) std::cerr << "rlroute: " << why << "\n";
    o.sim.threads = *usable;
  }
  if (a.load && runs_application(o.sim)) {
    throw std::invalid_argument(
        fmt::format("--load {}: conflicts with the {} pattern, whose rate sets the load", *a.load, o.sim.pattern));
  }
  if (a.load) {
    const std::vector<double> loads = parse_loads(fmt::format("{}", *a.load));
    o.sim.load = loads.front();
  }
  o.seed = static_cast<std::uint64_t>(o.sim.seed);
  o.init = std::move(init);
  o.quantization_aware = !a.post_quantization;
  const auto log = [&a](const std::string& line) {
    if (!a.quiet) std::cerr << "rlroute: " << line << "\n";
  };
  const Simulator simulator(cfg, FabricKind::Harness, log);
  log(fmt::format("training on {} ({}), {} traffic at {} flits/node/cycle for {} cycles", cfg.name,
                  simulator.design().topo.describe(), o.sim.pattern, o.sim.load, o.sim.warmup + o.sim.cycles));
  const train::TrainResult r = train::train_dqn(simulator, o, log);
  if (!r.sim.ok()) {
    std::cerr << "rlroute: the training run failed: " << r.sim.failure << "\n";
    return 2;
  }
  nlohmann::json provenance = {{"tool", std::string("rlroute ") + kVersion},
                               {"config", a.config},
                               {"pattern", o.sim.pattern},
                               {"load", o.sim.load},
                               {"cycles", o.sim.warmup + o.sim.cycles},
                               {"seed", o.sim.seed},
                               {"steps", r.steps},
                               {"rewards", r.rewards},
                               {"updates", r.updates},
                               {"epsilon_final", train::epsilon_at(o, r.steps)},
                               {"quantization", o.quantization_aware ? "aware" : "post-training"},
                               {"quantized_action_agreement", r.quantized.agreement}};
  if (!a.init.empty()) provenance["init"] = a.init;
  if (!r.curve.empty()) provenance["mean_reward_last_window"] = r.curve.back().mean_reward;
  write_dqn_weights(a.output, r.quantized.network, provenance, &r.float_network);
  if (!a.curve.empty()) write_file_atomically(a.curve, train::curve_csv(r.curve), "--curve");
  if (!a.json.empty()) write_file_atomically(a.json, simulator.result_json(r.sim, o.sim).dump(2) + "\n", "--json");
  log(fmt::format("{} decisions, {} rewards, {} gradient steps; quantized to {}-bit weights: the same action as the "
                  "{} network on {:.1f}% of {} calibration observations; wrote {}",
                  r.steps, r.rewards, r.updates, dqn_block(cfg).weight_bits,
                  o.quantization_aware ? "quantization-aware" : "float", 100 * r.quantized.agreement,
                  std::min<std::int64_t>(o.calibration, r.rewards), a.output));
  return 0;
}

}  // namespace

Verb add_train(CLI::App& app) {
  auto a = std::make_shared<TrainArgs>();
  SimOverrides& o = a->overrides;
  CLI::App* train = app.add_subcommand("train", "Train DQN-routing's agent in the loop with the Verilated network and "
                                                "write the quantized weights");
  train->add_option("CONFIG", a->config, "TOML config file (routing.algorithm = \"dqn\")")->required();
  train->add_option("-o,--output", a->output, "the weights file to write (JSON)")->required();
  train->add_option("--curve", a->curve, "write the training curve here (CSV: a row per 1000 decisions)");
  train->add_option("--pattern", o.pattern, "traffic pattern (default: [sim] pattern)");
  train->add_option("--load", a->load, "offered load in flits/node/cycle (default: [sim] load)");
  for (const auto& [flag, into, help] :
       std::vector<std::tuple<std::string, std::optional<std::int64_t>*, std::string>>{
           {"--cycles", &o.cycles, "cycles of the training run after --warmup (default 50000)"},
           {"--warmup", &o.warmup, "cycles of training before the window --json measures (default 0)"},
           {"--packet-flits", &o.packet_flits, "fixed packet size in flits"},
           {"--packet-flits-min", &o.packet_flits_min, "uniform packet sizes: minimum"},
           {"--packet-flits-max", &o.packet_flits_max, "uniform packet sizes: maximum"},
           {"--seed", &o.seed, "traffic, exploration and initial weights seed (>= 0)"}}) {
    train
        ->add_option_function<std::string>(
            flag, [into, flag](const std::string& text) { *into = parse_integer_flag(flag, text); }, help)
        ->type_name("INT");
  }
  train->add_option("--json", a->json,
                    "write the network's results over the run after --warmup here, as rlroute sim --json does: the "
                    "agent learning and exploring while measured, as in the DQN-routing thesis [Lonardo 2019]");
  train->add_option("--init", a->init,
                    "start from the floating-point network of this weights file (an earlier rlroute train's) instead "
                    "of random weights, exploring at epsilon 0.1 from the start: pre-training, or a curriculum")
      ->type_name("FILE");
  train->add_flag("--post-quantization", a->post_quantization,
                  "train in floating point and quantize at the end (default: quantization-aware training, the "
                  "forward pass rounding weights and activations to the block's widths)");
  train->add_flag("--quiet", a->quiet, "print nothing but errors");
  return {train, [a] { return run_train(*a); }};
}

}  // namespace rlroute::cli
