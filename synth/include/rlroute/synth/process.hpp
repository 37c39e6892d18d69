// Running the external tools (Yosys, OpenSTA) and reading their logs.
#pragma once

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

// Runs argv[0] (searched in PATH) in `cwd` with stdin from /dev/null and
// stdout + stderr into `log` (truncated first).
ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                          const std::filesystem::path& log);

// The program's path if it is an executable found in PATH.
std::optional<std::filesystem::path> find_program(const std::string& name);

// First line of a file that matches `marker` (e.g. "ERROR:"), trimmed; empty if none.
std::string first_line_with(const std::filesystem::path& file, const std::string& marker);

}  // namespace rlroute::synth
