// The verbs of the `rlroute` command. Each file of this folder adds one verb
// to the command line and runs it; the work itself is done by the gen, tb and
// synth libraries.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <optional>
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
Verb add_app(CLI::App& app);            // the SystemC host layer (the rlroute-app binary)
Verb add_app_forward(CLI::App& app);    // `rlroute app`: runs rlroute-app beside it

// An integer flag, read as text and converted by parse_integer_flag: CLI11
// 2.1 reads 010 as octal and saturates values beyond 64 bits without a word.
CLI::Option* add_integer_option(CLI::App* app, const std::string& flag, std::optional<std::int64_t>& into,
                                const std::string& help);
// Prints the config's non-fatal findings, one line each, on stderr.
void print_warnings(const std::vector<std::string>& warnings);

}  // namespace rlroute::cli
