// rlroute: the command-line entry point. One verb per file of this folder.
#include <CLI/CLI.hpp>

#include <iostream>
#include <vector>

#include "commands.hpp"
#include "rlroute/version.hpp"

int main(int argc, char** argv) {
  using namespace rlroute::cli;
  CLI::App app{"rlroute: generator and simulator of APEnet/ExaNet-style interconnect routers"};
  app.set_version_flag("--version", std::string("rlroute ") + rlroute::kVersion);
  app.require_subcommand(1);
  const std::vector<Verb> verbs{add_gen(app), add_sim(app), add_synth(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    for (const Verb& verb : verbs) {
      if (verb.command->parsed()) return verb.run();
    }
  } catch (const std::exception& e) {
    std::cerr << "rlroute: error: " << e.what() << "\n";
    return 1;
  }
  return 1;
}
