#include "rlroute/sim_options.hpp"

#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

#include "rlroute/traffic.hpp"

namespace rlroute {

namespace {

[[noreturn]] void flag_fail(const std::string& flag, const std::string& value, const std::string& rule) {
  throw std::invalid_argument(fmt::format("{} {}: {}", flag, value, rule));
}

std::int64_t cycles_in(const std::string& flag, std::int64_t value, std::int64_t lo) {
  if (value < lo || value > kMaxSimCycles) {
    flag_fail(flag, std::to_string(value), fmt::format("must be an integer in {}..2^40 cycles", lo));
  }
  return value;
}

void set_packet_sizes(const Design& design, const SimOverrides& o, SimOptions& s) {
  const SimDefaults& sim = design.cfg.sim;
  const int max_flits = design.cfg.max_packet_flits;
  if (o.packet_flits && (o.packet_flits_min || o.packet_flits_max)) {
    flag_fail("--packet-flits", std::to_string(*o.packet_flits),
              "conflicts with --packet-flits-min/max; give a fixed size or a range, not both");
  }
  if (o.packet_flits_min.has_value() != o.packet_flits_max.has_value()) {
    const char* given = o.packet_flits_min ? "--packet-flits-min" : "--packet-flits-max";
    const int value = o.packet_flits_min ? *o.packet_flits_min : *o.packet_flits_max;
    flag_fail(given, std::to_string(value), "must be given together with the other end of the range");
  }
  if (o.packet_flits) {
    s.packet_flits_min = s.packet_flits_max = *o.packet_flits;
  } else if (o.packet_flits_min) {
    s.packet_flits_min = *o.packet_flits_min;
    s.packet_flits_max = *o.packet_flits_max;
  } else if (sim.packet_flits > 0) {
    s.packet_flits_min = s.packet_flits_max = sim.packet_flits;
  } else if (sim.packet_flits_min > 0) {
    s.packet_flits_min = sim.packet_flits_min;
    s.packet_flits_max = sim.packet_flits_max;
  } else {
    s.packet_flits_min = s.packet_flits_max = max_flits;
  }
  // The config's own values were checked by the config parser; only flags can fail here.
  const std::string rule =
      fmt::format("packet sizes must satisfy {} <= min <= max <= router.max_packet_flits = {}", kMinPacketFlits,
                  max_flits);
  if (s.packet_flits_min < kMinPacketFlits || s.packet_flits_min > s.packet_flits_max ||
      s.packet_flits_max > max_flits) {
    if (o.packet_flits) flag_fail("--packet-flits", std::to_string(*o.packet_flits), rule);
    flag_fail("--packet-flits-min/max", fmt::format("{}..{}", s.packet_flits_min, s.packet_flits_max), rule);
  }
}

}  // namespace

SimOptions resolve_sim_options(const Design& design, const SimOverrides& o) {
  const SimDefaults& sim = design.cfg.sim;
  SimOptions s;
  s.pattern = o.pattern.value_or(sim.pattern);
  set_packet_sizes(design, o, s);
  s.cycles = o.cycles ? cycles_in("--cycles", *o.cycles, 1) : sim.cycles;
  s.warmup = o.warmup ? cycles_in("--warmup", *o.warmup, 0) : sim.warmup;
  s.drain = o.drain ? cycles_in("--drain", *o.drain, 0) : sim.drain;
  if (o.seed && *o.seed < 0) flag_fail("--seed", std::to_string(*o.seed), "must be an integer >= 0");
  s.seed = o.seed ? static_cast<std::uint64_t>(*o.seed) : sim.seed;
  if (o.watchdog && (*o.watchdog < 1 || *o.watchdog > kMaxWatchdogCycles)) {
    flag_fail("--watchdog", std::to_string(*o.watchdog), "must be an integer in 1..2^30 cycles");
  }
  if (o.watchdog) s.watchdog = *o.watchdog;
  s.hotspot_fraction = sim.hotspot_fraction;
  s.hotspot_node = sim.hotspot_node;
  // The pattern against the topology (e.g. adv+i needs i < g), before anything runs.
  try {
    make_traffic_pattern(s.pattern, design.topo, s.seed, s.hotspot_fraction, s.hotspot_node);
  } catch (const std::invalid_argument& e) {
    if (o.pattern) flag_fail("--pattern", *o.pattern, e.what());
    throw;
  }
  return s;
}

std::vector<double> parse_loads(const std::string& text, const std::string& flag) {
  std::vector<double> loads;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    std::size_t used = 0;
    double v = 0;
    try {
      v = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() || !(v > 0 && v <= 1.0)) {
      flag_fail(flag, text, "every load must be a number in (0, 1] flits/node/cycle");
    }
    loads.push_back(v);
  }
  if (loads.empty()) flag_fail(flag, text, "give at least one load");
  return loads;
}

}  // namespace rlroute
