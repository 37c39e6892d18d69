// rlroute synth CONFIG: the router's cost in cells, area, timing and FPGA resources.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "rlroute/gen/files.hpp"
#include "rlroute/synth/flow.hpp"

namespace rlroute::cli {

namespace {

int run_synth_command(const synth::SynthOptions& options) {
  check_distinct_files({{"--json", options.json}}, {{"the config", options.config}, {"--liberty", options.liberty}});
  if (!options.json.empty()) check_output_file(options.json, "--json");
  const synth::SynthReport report = synth::run_synth(options);
  if (!options.json.empty()) write_file_atomically(options.json, report_json(report).dump(2) + "\n", "--json");
  if (!options.quiet) {
    std::cout << report_markdown(report);
    std::cerr << fmt::format("rlroute: report in {}/synth.md and synth.json, tool logs in {}/logs ({:.1f} s)\n",
                             report.out_dir, report.out_dir, report.seconds);
  }
  return 0;
}

}  // namespace

Verb add_synth(CLI::App& app) {
  auto y = std::make_shared<synth::SynthOptions>();
  CLI::App* syn = app.add_subcommand("synth", "Cost the router with Yosys and OpenSTA: cells, transistors, "
                                              "Liberty area, timing/Fmax, FPGA resources, per block");
  syn->add_option("CONFIG", y->config, "TOML config file")->required();
  syn->add_option("--liberty", y->liberty, "Liberty library for the standard-cell path (default: synth/rlroute45.lib)");
  syn->add_option("--clock-ns", y->clock_ns, "target clock period in ns (default: 2.0)");
  syn->add_option("--json", y->json, "also write the JSON report here");
  syn->add_option("-o,--out", y->out_dir, "output directory: report, RTL, scripts and tool logs "
                                          "(default: out/synth/<config name>)");
  syn->add_option("--paths", y->paths, "synthesis paths to run, comma-separated (default: generic,liberty,fpga)");
  syn->add_option("--block", y->block, "synthesize one block of the router on its own, with the router's "
                                        "parameters: an RTL module name (rr_vc_alloc, rr_q_unit, ...), NAME:K for "
                                        "its K-th specialization");
  syn->add_flag("--quiet", y->quiet, "print nothing but errors");
  return {syn, [y] { return run_synth_command(*y); }};
}

}  // namespace rlroute::cli
