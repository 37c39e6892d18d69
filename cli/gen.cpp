// rlroute gen CONFIG -o DIR: the SystemVerilog, filelist and manifest of a config.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/dqn_block.hpp"
#include "rlroute/gen/emit.hpp"

namespace rlroute::cli {

namespace {

struct GenArgs {
  std::string config;
  std::string out_dir;
  std::string weights;
};

int run_gen(const GenArgs& a) {
  Config cfg = load_config(a.config);
  print_warnings(cfg.warnings);
  if (!a.weights.empty() && cfg.algorithm != RoutingAlgorithm::Dqn) {
    throw std::invalid_argument(fmt::format("--weights {}: only for routing.algorithm = dqn (this config: {})",
                                            a.weights, to_string(cfg.algorithm)));
  }
  use_dqn_weights(cfg, a.weights);
  const Design design = derive_design(cfg);
  EmittedDesign emitted = emit_design(design);
  // A DQN design with a trained network: its programming image beside the RTL
  // (constant weights: the network is in the package instead).
  if (cfg.algorithm == RoutingAlgorithm::Dqn && !cfg.dqn_weights.empty() && !dqn_block(cfg).constant) {
    std::string source;
    const ref::DqnNetwork network = dqn_network_for(cfg, a.weights, &source);
    add_dqn_program(emitted, cfg, network, source);
  }
  write_design(emitted, a.out_dir);
  std::cout << fmt::format("rlroute: wrote {} files for \"{}\" ({}) to {} (rtl hash {})\n", emitted.files.size(),
                           cfg.name, design.topo.describe(), a.out_dir, emitted.hash);
  return 0;
}

}  // namespace

Verb add_gen(CLI::App& app) {
  auto a = std::make_shared<GenArgs>();
  CLI::App* gen = app.add_subcommand("gen", "Emit the SystemVerilog, filelist and manifest of a config");
  gen->add_option("CONFIG", a->config, "TOML config file")->required();
  gen->add_option("-o,--out", a->out_dir,
                  "output directory (written beside it and moved into place; an existing directory is replaced "
                  "only if rlroute wrote everything in it)")
      ->required();
  gen->add_option("--weights", a->weights,
                  "dqn: the network of this weights file (default: routing.dqn_weights, if set): its programming "
                  "image <name>_dqn_program.memh, or with routing.dqn_weights_mode = \"constant\" the RTL's weights")
      ->type_name("FILE");
  return {gen, [a] { return run_gen(*a); }};
}

}  // namespace rlroute::cli
