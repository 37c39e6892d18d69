// The options of a simulation: the config's [sim] defaults with the user's
// overrides (command-line flags) on top, checked once, here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/tb/simulation.hpp"

namespace rlroute {

// What the user set explicitly; an unset field takes the config's value.
// The names in error messages are the command-line flags (--cycles, ...).
struct SimOverrides {
  std::optional<std::string> pattern;
  // 64 bits wide like every integer flag, so that a huge value is reported as typed.
  std::optional<std::int64_t> packet_flits;      // fixed size
  std::optional<std::int64_t> packet_flits_min;  // uniform sizes, with packet_flits_max
  std::optional<std::int64_t> packet_flits_max;
  std::optional<std::int64_t> cycles, warmup, drain;
  std::optional<std::int64_t> seed;
  std::optional<std::int64_t> watchdog;
  std::optional<std::int64_t> threads;
  std::optional<std::int64_t> series_window;  // --series-window (--series sets 1000 if not given)
  std::optional<std::int64_t> q_dump_cycle;   // --q-dump-cycle (--q-dump: the end of the run if not given)
  std::optional<std::string> phases;          // --phases "0:uniform@0.4,20000:adv+1@0.8"
  std::optional<std::string> weights;         // --weights FILE (routing.algorithm = dqn)
  bool float_agent = false;                   // --float-agent: the file's floating-point network on the agent ports
};

// Largest --watchdog (cycles without movement that count as deadlock).
inline constexpr std::int64_t kMaxWatchdogCycles = std::int64_t{1} << 30;

// The config's [sim] values with `overrides` applied. Throws
// std::invalid_argument with a one-line "--flag value: rule" message (a
// weights file that does not fit the design: WeightsError).
SimOptions resolve_sim_options(const Design& design, const SimOverrides& overrides);

// The threads a harness run of `routers` routers can use: at most one per
// router and one per CPU (the thread team spins while it waits, so a thread
// without a core of its own slows every cycle of the others). The results do
// not depend on the thread count. Empty if `requested` is usable, else the
// count and, in `why`, a one-line notice.
std::optional<int> fewer_threads(int requested, int routers, std::string* why);

// True when `options` runs an application model (the dpsnn pattern), which
// sets its own load: a --load beside it is an error.
bool runs_application(const SimOptions& options);

// Parses --phases: comma-separated CYCLE:PATTERN@LOAD, the first at cycle 0,
// the cycles rising (a pattern may itself hold ':' and '='). Throws
// std::invalid_argument with a one-line "--phases TEXT: rule" message.
std::vector<TrafficPhase> parse_phases(const std::string& text);

// Reads the value of an integer flag as typed: an optional sign and decimal
// digits, nothing else, within 64 bits (CLI11 2.1 would read 010 as octal,
// 0x20 as hex, and 2^64 as 2^63-1 without a word). Throws
// std::invalid_argument "--flag text: rule", the rule being the flag's range
// where resolve_sim_options checks one.
std::int64_t parse_integer_flag(const std::string& flag, const std::string& text);

// Parses a comma-separated list of offered loads, each in (0, 1] flits per
// node per cycle. Throws std::invalid_argument naming `flag`.
std::vector<double> parse_loads(const std::string& text, const std::string& flag = "--load");

}  // namespace rlroute
