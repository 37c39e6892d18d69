// The options of a simulation: the config's [sim] defaults with the user's
// overrides (command-line flags) on top, checked once, here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rlroute/design.hpp"
#include "rlroute/simulation.hpp"

namespace rlroute {

// What the user set explicitly; an unset field takes the config's value.
// The names in error messages are the command-line flags (--cycles, ...).
struct SimOverrides {
  std::optional<std::string> pattern;
  std::optional<int> packet_flits;      // fixed size
  std::optional<int> packet_flits_min;  // uniform sizes, with packet_flits_max
  std::optional<int> packet_flits_max;
  std::optional<std::int64_t> cycles, warmup, drain;
  std::optional<std::int64_t> seed;
  std::optional<std::int64_t> watchdog;
};

// Largest --watchdog (cycles without movement that count as deadlock).
inline constexpr std::int64_t kMaxWatchdogCycles = std::int64_t{1} << 30;

// The config's [sim] values with `overrides` applied. Throws
// std::invalid_argument with a one-line "--flag value: rule" message.
SimOptions resolve_sim_options(const Design& design, const SimOverrides& overrides);

// Parses a comma-separated list of offered loads, each in (0, 1] flits per
// node per cycle. Throws std::invalid_argument naming `flag`.
std::vector<double> parse_loads(const std::string& text, const std::string& flag = "--load");

}  // namespace rlroute
