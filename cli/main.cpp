// rlroute: the command-line entry point. One verb per file of this folder.
#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "rlroute/gen/interrupt.hpp"
#include "rlroute/gen/printable.hpp"
#include "rlroute/gen/version.hpp"

namespace {

// An error is one line of readable text: a control character (a newline in a
// path, an escape sequence) or a byte that is not UTF-8 is shown escaped, never
// sent to the terminal; a word longer than kLongWord characters (a pasted
// value, a runaway path) is cut in the middle.
constexpr std::size_t kLongWord = 240;

std::string one_line(std::string_view text) {
  const std::string line = rlroute::printable(text);
  std::string out;
  for (std::size_t i = 0; i < line.size();) {
    const std::size_t end = std::min(line.find(' ', i), line.size());
    if (end - i > kLongWord) {
      // Cut at character boundaries (not inside a UTF-8 sequence).
      const auto boundary = [&](std::size_t k) {
        while (k > i && (static_cast<unsigned char>(line[k]) & 0xc0) == 0x80) --k;
        return k;
      };
      const std::size_t head_end = boundary(i + kLongWord / 2), tail_begin = boundary(end - kLongWord / 4);
      out += fmt::format("{}...({} bytes)...{}", line.substr(i, head_end - i), tail_begin - head_end,
                         line.substr(tail_begin, end - tail_begin));
    } else {
      out += line.substr(i, end - i);
    }
    if (end < line.size()) out += ' ';
    i = end + 1;
  }
  return out;
}

// A value given as '' would read as the option left out: every option that
// takes a value must have a non-empty one.
void refuse_empty_values(const CLI::App& command) {
  for (const CLI::Option* option : command.get_options()) {
    if (option->count() == 0 || option->get_type_size() == 0) continue;
    for (const std::string& value : option->results()) {
      if (value.empty()) {
        throw std::invalid_argument(fmt::format("{} \"\": an empty value; give one, or leave the option out",
                                                option->get_name()));
      }
    }
  }
}

int fail(std::string_view what) {
  std::cerr << "rlroute: error: " << one_line(what) << "\n";
  return 1;
}

#ifdef RLROUTE_APP_BINARY
// SystemC's copyright banner, which its main() prints on stdout before
// sc_main, would mix into the results: off before main() runs.
const bool kSystemCBannerOff = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1) == 0;
#endif

}  // namespace

#ifdef RLROUTE_APP_BINARY
// SystemC's library holds main(), which sets its kernel up and calls sc_main
// (declared extern "C" by SystemC's headers).
extern "C" int sc_main(int argc, char** argv) {
#else
int main(int argc, char** argv) {
#endif
  using namespace rlroute::cli;
  rlroute::install_interrupt_cleanup();
  CLI::App app{"rlroute: generator and simulator of APEnet/ExaNet-style interconnect routers"};
  app.set_version_flag("--version", std::string("rlroute ") + rlroute::kVersion);
  app.require_subcommand(1);
  // CLI11's own errors (unknown flag, missing value) in the same one-line form as ours.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return fmt::format("rlroute: error: {} (see --help)\n", one_line(e.what()));
  });
#if defined(RLROUTE_TRAIN_BINARY)
  const std::vector<Verb> verbs{add_train(app)};
#elif defined(RLROUTE_APP_BINARY)
  const std::vector<Verb> verbs{add_app(app)};
#else
  const std::vector<Verb> verbs{add_gen(app), add_sim(app), add_synth(app), add_report(app), add_train_forward(app),
                                add_app_forward(app)};
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
      if (!verb.command->parsed()) continue;
      refuse_empty_values(*verb.command);
      return verb.run();
    }
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  return 1;
}
