// rlroute gen CONFIG -o DIR: the SystemVerilog, filelist and manifest of a config.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/emit.hpp"

namespace rlroute::cli {

namespace {

struct GenArgs {
  std::string config;
  std::string out_dir;
};

int run_gen(const GenArgs& a) {
  const Config cfg = load_config(a.config);
  print_warnings(cfg.warnings);
  const Design design = derive_design(cfg);
  const EmittedDesign emitted = emit_design(design);
  write_design(emitted, a.out_dir);
  std::cout << fmt::format("rlroute: wrote {} files for \"{}\" ({}) to {} (rtl hash {})\n", emitted.files.size(),
                           cfg.name, design.topo.describe(), a.out_dir, emitted.hash);
  return 0;
}

}  // namespace

void print_warnings(const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings) std::cerr << "rlroute: warning: " << w << "\n";
}

Verb add_gen(CLI::App& app) {
  auto a = std::make_shared<GenArgs>();
  CLI::App* gen = app.add_subcommand("gen", "Emit the SystemVerilog, filelist and manifest of a config");
  gen->add_option("CONFIG", a->config, "TOML config file")->required();
  gen->add_option("-o,--out", a->out_dir,
                  "output directory (written beside it and moved into place; an existing directory is replaced "
                  "only if rlroute wrote everything in it)")
      ->required();
  return {gen, [a] { return run_gen(*a); }};
}

}  // namespace rlroute::cli
