// rlroute report RESULTS... -o FILE: one self-contained HTML page of run
// JSONs, sweep CSVs and series CSVs. The page is drawn by sim/report.py
// (matplotlib); this verb checks the paths as every verb does, runs the script
// and writes its page atomically.
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "rlroute/gen/files.hpp"
#include "rlroute/gen/interrupt.hpp"

namespace rlroute::cli {

namespace {

constexpr const char* kPython = "/usr/bin/python3";  // Debian's, with python3-matplotlib
constexpr const char* kScript = RLROUTE_SOURCE_DIR "/sim/report.py";
constexpr std::size_t kMaxResultBytes = std::size_t{1} << 30;

struct ReportArgs {
  std::vector<std::string> results;
  std::string out;
};

// Runs argv with its standard output into the returned string; its standard
// error goes to ours. Empty when it failed: the script has said why, in one
// line.
std::optional<std::string> run_capturing(const std::vector<std::string>& words) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(fmt::format("report: cannot make a pipe: {}", std::strerror(errno)));
  std::vector<char*> argv;
  for (const std::string& w : words) argv.push_back(const_cast<char*>(w.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(fmt::format("report: cannot start {}: {}", kPython, std::strerror(errno)));
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string out;
  char buf[1 << 16];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (const int sig = interrupt_of(status)) stop_for_interrupt(sig);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    throw std::runtime_error(fmt::format("report: cannot run {} {} (python3 and python3-matplotlib: scripts/setup.sh)",
                                         kPython, kScript));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

int run_report(const ReportArgs& a) {
  std::vector<NamedPath> inputs;
  for (const std::string& r : a.results) {
    read_regular_file(r, kMaxResultBytes, "a result file");  // exists, is a file, not too large
    inputs.push_back({"a RESULTS file", r});
  }
  check_distinct_files({{"-o", a.out}}, inputs);
  check_output_file(a.out, "-o");
  std::string command = "rlroute report";
  for (const std::string& r : a.results) command += " " + r;
  command += " -o " + a.out;
  std::vector<std::string> words{kPython, kScript, "--command", command, "--"};
  words.insert(words.end(), a.results.begin(), a.results.end());
  const std::optional<std::string> page = run_capturing(words);
  if (!page) return 1;
  write_file_atomically(a.out, *page, "-o");
  std::cerr << fmt::format("rlroute: wrote {} ({} KiB) from {} result file(s)\n", a.out, (page->size() + 1023) / 1024,
                           a.results.size());
  return 0;
}

}  // namespace

Verb add_report(CLI::App& app) {
  auto a = std::make_shared<ReportArgs>();
  CLI::App* report = app.add_subcommand(
      "report", "Write one self-contained HTML page of results: load curves, link utilisation on the topology, "
                "series over time, configs and provenance");
  report->add_option("RESULTS", a->results, "run JSONs (sim --json), sweep CSVs (sim/sweep.py), series CSVs "
                                            "(sim --series)")
      ->required();
  report->add_option("-o,--out", a->out, "the HTML file to write")->required();
  return {report, [a] { return run_report(*a); }};
}

}  // namespace rlroute::cli
