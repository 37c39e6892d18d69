// `rlroute train` in the rlroute binary: runs rlroute-train, the binary beside
// it that holds the trainer. Only training needs libtorch, whose loading
// (static initialisation, symbol resolution) costs every process about
// half a second (docs/architecture.md, "Map"), so rlroute itself
// does not link it. Every argument goes to rlroute-train unchanged (--help
// included), which parses and checks them.
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

int forward(const std::vector<std::string>& args) {
  const std::filesystem::path self = std::filesystem::canonical("/proc/self/exe");
  const std::string trainer = (self.parent_path() / "rlroute-train").string();
  std::vector<std::string> words{"rlroute", "train"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  execv(trainer.c_str(), argv.data());
  throw std::runtime_error(fmt::format("rlroute train runs {}: {} (it is built with rlroute: the rlroute-train target)",
                                       trainer, std::strerror(errno)));
}

}  // namespace

Verb add_train_forward(CLI::App& app) {
  CLI::App* train = app.add_subcommand("train", "Train DQN-routing's agent in the loop with the Verilated network and "
                                                "write the quantized weights (rlroute train --help for its options)");
  train->prefix_command();
  train->allow_extras();
  train->set_help_flag();  // --help goes to rlroute-train
  return {train, [train] { return forward(train->remaining()); }};
}

}  // namespace rlroute::cli
