// Running the external tools (Yosys, OpenSTA) and reading their logs.
#pragma once

#include <signal.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "rlroute/synth/error.hpp"

namespace rlroute::synth {

struct ProcessResult {
  int exit_code = -1;  // exit status; 128 + signal if killed; 127 if it could not start
  double seconds = 0;  // wall time
};

// While one is alive, SIGINT and SIGTERM do not end rlroute at once: the
// running tool's process group (Yosys with its ABC, OpenSTA) is sent SIGTERM,
// and run_process, or the next throw_if_interrupted, throws SynthInterrupted,
// so that the caller can remove what it was writing. The previous handlers
// come back when it goes.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

// Throws SynthInterrupted if SIGINT or SIGTERM arrived under an InterruptGuard.
void throw_if_interrupted();

// Runs argv[0] (searched in PATH) in `cwd`, in a process group of its own,
// with stdin from /dev/null and stdout + stderr into `log` (truncated first).
ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                          const std::filesystem::path& log);

// The program's path if it is an executable found in PATH.
std::optional<std::filesystem::path> find_program(const std::string& name);

// First line of a file that matches `marker` (e.g. "ERROR:"), trimmed; empty if none.
std::string first_line_with(const std::filesystem::path& file, const std::string& marker);

}  // namespace rlroute::synth
