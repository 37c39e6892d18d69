// `rlroute train` and `rlroute app` in the rlroute binary: each runs the
// binary beside it that holds the verb. Only training needs libtorch, whose
// loading (static initialisation, symbol resolution) costs every process
// about half a second (docs/architecture.md, "Map"), and only the host
// layer needs SystemC, whose library holds main() and calls sc_main(); so
// rlroute itself links neither. Every argument goes to the verb's binary
// unchanged (--help included), which parses and checks them.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"

namespace rlroute::cli {

namespace {

int forward(const std::string& verb, const std::vector<std::string>& args) {
  const std::filesystem::path self = std::filesystem::canonical("/proc/self/exe");
  const std::string binary = (self.parent_path() / ("rlroute-" + verb)).string();
  std::vector<std::string> words{"rlroute", verb};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  execv(binary.c_str(), argv.data());
  throw std::runtime_error(fmt::format("rlroute {} runs {}: {} (it is built with rlroute: the rlroute-{} target)", verb,
                                       binary, std::strerror(errno), verb));
}

// `verb` on the command line, every argument left to its binary.
CLI::App* forwarded(CLI::App& app, const std::string& verb, const std::string& help) {
  CLI::App* command = app.add_subcommand(verb, help);
  command->prefix_command();
  command->allow_extras();
  command->set_help_flag();  // --help goes to the verb's binary
  return command;
}

}  // namespace

Verb add_train_forward(CLI::App& app) {
  CLI::App* train = forwarded(app, "train", "Train DQN-routing's agent in the loop with the Verilated network and "
                                            "write the quantized weights (rlroute train --help for its options)");
  return {train, [train] { return forward("train", train->remaining()); }};
}

Verb add_app_forward(CLI::App& app) {
  CLI::App* run = forwarded(app, "app", "Run an MPI-like workload on SystemC ranks and network interfaces over the "
                                        "RTL network (rlroute app --help for its options)");
  return {run, [run] { return forward("app", run->remaining()); }};
}

}  // namespace rlroute::cli
