// The verbs of the `rlroute` command. Each file of this folder adds one verb
// to the command line and runs it; the work itself is done by the gen, tb and
// synth libraries.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace rlroute::cli {

// A verb on the command line and what running it does (returns the exit code).
struct Verb {
  CLI::App* command = nullptr;
  std::function<int()> run;
};

Verb add_gen(CLI::App& app);
Verb add_sim(CLI::App& app);
Verb add_synth(CLI::App& app);
Verb add_report(CLI::App& app);         // runs sim/report.py (matplotlib)
Verb add_train(CLI::App& app);          // the trainer itself (the rlroute-train binary)
Verb add_train_forward(CLI::App& app);  // `rlroute train`: runs rlroute-train beside it

// Prints the config's non-fatal findings, one line each, on stderr.
void print_warnings(const std::vector<std::string>& warnings);

}  // namespace rlroute::cli
