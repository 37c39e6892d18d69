// rlroute: the command-line entry point. One verb per file of this folder.
#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "rlroute/gen/version.hpp"

namespace {

// An error is one line: a control character (a newline in a path, an escape
// sequence) is shown escaped, never sent to the terminal.
std::string one_line(std::string_view text) {
  std::string out;
  for (const unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

int fail(std::string_view what) {
  std::cerr << "rlroute: error: " << one_line(what) << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rlroute::cli;
  CLI::App app{"rlroute: generator and simulator of APEnet/ExaNet-style interconnect routers"};
  app.set_version_flag("--version", std::string("rlroute ") + rlroute::kVersion);
  app.require_subcommand(1);
  // CLI11's own errors (unknown flag, missing value) in the same one-line form as ours.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return fmt::format("rlroute: error: {} (see --help)\n", one_line(e.what()));
  });
#ifdef RLROUTE_TRAIN_BINARY
  const std::vector<Verb> verbs{add_train(app)};
#else
  const std::vector<Verb> verbs{add_gen(app), add_sim(app), add_synth(app), add_train_forward(app)};
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {  // a flag's value, checked while parsing (parse_integer_flag)
    return fail(e.what());
  }
  try {
    for (const Verb& verb : verbs) {
      if (verb.command->parsed()) return verb.run();
    }
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  return 1;
}
