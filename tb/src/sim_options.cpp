#include "rlroute/tb/sim_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "rlroute/gen/dqn_block.hpp"
#include "rlroute/gen/printable.hpp"
#include "rlroute/tb/dpsnn_app.hpp"
#include "rlroute/tb/traffic.hpp"

namespace rlroute {

namespace {

[[noreturn]] void flag_fail(const std::string& flag, const std::string& value, const std::string& rule) {
  throw std::invalid_argument(fmt::format("{} {}: {}", flag, printable(value), printable(rule)));
}

// The integer flags with a fixed range: one place for the range and for how
// errors state it (a value beyond 64 bits gets the same message).
struct IntegerRange {
  const char* flag;
  std::int64_t lo, hi;
  const char* rule;
};
constexpr IntegerRange kIntegerRanges[] = {
    {"--cycles", 1, kMaxSimCycles, "must be an integer in 1..2^40 cycles"},
    {"--warmup", 0, kMaxSimCycles, "must be an integer in 0..2^40 cycles"},
    {"--drain", 0, kMaxSimCycles, "must be an integer in 0..2^40 cycles"},
    {"--seed", 0, std::numeric_limits<std::int64_t>::max(), "must be an integer >= 0"},
    {"--watchdog", 1, kMaxWatchdogCycles, "must be an integer in 1..2^30 cycles"},
    {"--threads", 1, kMaxSimThreads, "must be an integer in 1..256"},
    {"--series-window", 1, kMaxSimCycles, "must be an integer in 1..2^40 cycles"},
    {"--q-dump-cycle", 0, kMaxSimCycles, "must be an integer in 0..2^40 cycles"},
};

const IntegerRange* range_of(const std::string& flag) {
  for (const IntegerRange& r : kIntegerRanges) {
    if (flag == r.flag) return &r;
  }
  return nullptr;
}

std::int64_t checked(const std::string& flag, std::int64_t value) {
  const IntegerRange* r = range_of(flag);
  if (value < r->lo || value > r->hi) flag_fail(flag, std::to_string(value), r->rule);
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
    const std::int64_t value = o.packet_flits_min ? *o.packet_flits_min : *o.packet_flits_max;
    flag_fail(given, std::to_string(value), "must be given together with the other end of the range");
  }
  // Flags are 64-bit; they are narrowed to int only once within the range checked below.
  std::int64_t lo = 0, hi = 0;
  if (o.packet_flits) {
    lo = hi = *o.packet_flits;
  } else if (o.packet_flits_min) {
    lo = *o.packet_flits_min;
    hi = *o.packet_flits_max;
  }
  if (o.packet_flits || o.packet_flits_min) {
    const int min_flits = design.cfg.min_packet_flits;
    if (lo < min_flits || lo > hi || hi > max_flits) {
      const std::string rule = fmt::format(
          "packet sizes must satisfy router.min_packet_flits = {} <= min <= max <= router.max_packet_flits = {}",
          min_flits, max_flits);
      if (o.packet_flits) flag_fail("--packet-flits", std::to_string(*o.packet_flits), rule);
      flag_fail("--packet-flits-min/max", fmt::format("{}..{}", lo, hi), rule);
    }
    s.packet_flits_min = static_cast<int>(lo);
    s.packet_flits_max = static_cast<int>(hi);
  } else if (sim.packet_flits > 0) {  // the config's values, which the config parser checked
    s.packet_flits_min = s.packet_flits_max = sim.packet_flits;
  } else if (sim.packet_flits_min > 0) {
    s.packet_flits_min = sim.packet_flits_min;
    s.packet_flits_max = sim.packet_flits_max;
  } else {
    s.packet_flits_min = s.packet_flits_max = max_flits;
  }
}

}  // namespace

SimOptions resolve_sim_options(const Design& design, const SimOverrides& o) {
  const SimDefaults& sim = design.cfg.sim;
  SimOptions s;
  s.pattern = o.pattern.value_or(sim.pattern);
  set_packet_sizes(design, o, s);
  s.cycles = o.cycles ? checked("--cycles", *o.cycles) : sim.cycles;
  s.warmup = o.warmup ? checked("--warmup", *o.warmup) : sim.warmup;
  s.drain = o.drain ? checked("--drain", *o.drain) : sim.drain;
  s.seed = o.seed ? static_cast<std::uint64_t>(checked("--seed", *o.seed)) : sim.seed;
  if (o.watchdog) s.watchdog = checked("--watchdog", *o.watchdog);
  s.threads = o.threads ? static_cast<int>(checked("--threads", *o.threads)) : sim.threads;
  if (o.series_window) s.series_window = checked("--series-window", *o.series_window);
  if (o.q_dump_cycle) {
    if (traits(design.cfg.algorithm).choice != PathChoice::QTable) {
      flag_fail("--q-dump-cycle", std::to_string(*o.q_dump_cycle),
                fmt::format("only for routing.algorithm = q_adaptive (this config: {})", to_string(design.cfg.algorithm)));
    }
    s.q_dump_cycle = checked("--q-dump-cycle", *o.q_dump_cycle);
  }
  if (o.weights && design.cfg.algorithm != RoutingAlgorithm::Dqn) {
    flag_fail("--weights", *o.weights,
              fmt::format("only for routing.algorithm = dqn (this config: {})", to_string(design.cfg.algorithm)));
  }
  if (o.float_agent && design.cfg.algorithm != RoutingAlgorithm::Dqn) {
    throw std::invalid_argument(
        fmt::format("--float-agent: only for routing.algorithm = dqn (this config: {})", to_string(design.cfg.algorithm)));
  }
  if (o.float_agent && design.cfg.dqn_agent != DqnAgentKind::External) {
    throw std::invalid_argument(
        "--float-agent: only for routing.dqn_agent = \"external\" (the inference block runs the quantized network)");
  }
  if (design.cfg.algorithm == RoutingAlgorithm::Dqn) {
    ref::FloatNetwork float_network;
    s.dqn_network = std::make_shared<const ref::DqnNetwork>(
        dqn_network_for(design.cfg, o.weights.value_or(""), &s.dqn_source, &float_network));
    if (o.float_agent) {
      if (float_network.layers.empty()) {
        throw std::invalid_argument(fmt::format(
            "--float-agent: {} holds no floating-point network (float_layers; rlroute train writes it)", s.dqn_source));
      }
      s.dqn_agent = std::make_shared<FloatAgent>(std::move(float_network));
      s.dqn_source += ", its floating-point network";
    }
  }
  s.hotspot_fraction = sim.hotspot_fraction;
  s.hotspot_node = sim.hotspot_node;
  if (o.phases) {
    if (o.pattern) flag_fail("--phases", *o.phases, "conflicts with --pattern; the phases name their patterns");
    s.phases = parse_phases(*o.phases);
    s.pattern = s.phases.front().pattern;
    s.load = s.phases.front().load;
    // The measurement ends at warmup + cycles: a phase from then on changes nothing measured.
    if (const TrafficPhase& last = s.phases.back(); last.start >= s.warmup + s.cycles) {
      flag_fail("--phases", *o.phases,
                fmt::format("the phase at cycle {} starts after the measurement ends (cycle {} = warmup {} + cycles {})",
                            last.start, s.warmup + s.cycles, s.warmup, s.cycles));
    }
    for (const TrafficPhase& ph : s.phases) {
      try {
        make_traffic_pattern(ph.pattern, design.topo, s.seed, s.hotspot_fraction, s.hotspot_node);
      } catch (const std::invalid_argument& e) {
        flag_fail("--phases", *o.phases, fmt::format("phase at cycle {}: {}", ph.start, e.what()));
      }
    }
  }
  // The pattern against the topology (e.g. adv+i needs i < g), before anything runs.
  try {
    const TrafficSpec spec = parse_traffic_spec(s.pattern);
    if (is_application_traffic(spec)) make_dpsnn_app(design, spec, s.seed);
    else make_traffic_pattern(spec, design.topo, s.seed, s.hotspot_fraction, s.hotspot_node);
  } catch (const std::invalid_argument& e) {
    if (o.pattern) flag_fail("--pattern", *o.pattern, e.what());
    // From the config: say where.
    const auto at = design.cfg.locations.find("sim.pattern");
    throw std::invalid_argument(fmt::format("{}: sim.pattern = \"{}\": {}",
                                            at != design.cfg.locations.end() ? at->second : design.cfg.path,
                                            printable(s.pattern), e.what()));
  }
  if (runs_application(s)) {
    // The application sizes its packets from its messages.
    const char* rule = "conflicts with the dpsnn pattern, which cuts its messages into packets of up to "
                       "router.max_packet_flits";
    if (o.packet_flits) flag_fail("--packet-flits", std::to_string(*o.packet_flits), rule);
    if (o.packet_flits_min) flag_fail("--packet-flits-min", std::to_string(*o.packet_flits_min), rule);
  }
  return s;
}

std::optional<int> fewer_threads(int requested, int routers, std::string* why) {
  const int cpus = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int usable = std::min({requested, routers, cpus});
  if (usable >= requested) return std::nullopt;
  if (why) {
    *why = fmt::format("--threads {}: running {} (one thread per router at most, {} routers; one per CPU at most, {} "
                       "CPUs); the results do not depend on it",
                       requested, usable, routers, cpus);
  }
  return usable;
}

bool runs_application(const SimOptions& options) {
  return options.phases.empty() && !options.traffic && is_application_traffic(parse_traffic_spec(options.pattern));
}

std::vector<TrafficPhase> parse_phases(const std::string& text) {
  const std::string rule = "must be CYCLE:PATTERN@LOAD[,CYCLE:PATTERN@LOAD...], the first at cycle 0";
  // Split at the commas that start a new CYCLE: (a pattern may hold commas).
  std::vector<std::string> items;
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',') continue;
    const std::size_t colon = text.find(':', i + 1);
    // A pattern's own commas are followed by key=value; a phase's by CYCLE:.
    const bool next_is_phase = i == text.size() ||
        (colon != std::string::npos && colon > i + 1 &&
         text.substr(i + 1, colon - i - 1).find_first_of("=@") == std::string::npos);
    if (!next_is_phase) continue;
    items.push_back(text.substr(begin, i - begin));
    begin = i + 1;
  }
  if (!text.empty() && text.back() == ',') flag_fail("--phases", text, rule + "; it ends with a comma");
  std::vector<TrafficPhase> phases;
  for (const std::string& item : items) {
    const std::size_t colon = item.find(':');
    const std::size_t at = item.rfind('@');
    if (colon == std::string::npos || at == std::string::npos || at < colon + 2) flag_fail("--phases", text, rule);
    TrafficPhase ph;
    const std::string cycle = item.substr(0, colon);
    const auto [p, ec] = std::from_chars(cycle.data(), cycle.data() + cycle.size(), ph.start, 10);
    if (ec != std::errc() || p != cycle.data() + cycle.size() || cycle.empty() ||
        cycle.find_first_not_of("0123456789") != std::string::npos) {
      flag_fail("--phases", text,
                fmt::format("phase {}: the cycle \"{}\" must be a decimal integer >= 0", phases.size() + 1, cycle));
    }
    ph.pattern = item.substr(colon + 1, at - colon - 1);
    ph.load = parse_loads(item.substr(at + 1), "--phases").front();
    if (phases.empty() ? ph.start != 0 : ph.start <= phases.back().start) {
      flag_fail("--phases", text, "the first phase starts at cycle 0 and each later one after the one before");
    }
    if (ph.start > kMaxSimCycles) flag_fail("--phases", text, "a phase starts at most at cycle 2^40");
    phases.push_back(ph);
  }
  if (phases.empty()) flag_fail("--phases", text, rule);
  return phases;
}

std::int64_t parse_integer_flag(const std::string& flag, const std::string& text) {
  const IntegerRange* range = range_of(flag);
  const std::string rule = range ? range->rule : "must be a decimal integer";
  if (text.empty()) flag_fail(flag, "\"\"", rule);
  // from_chars: an optional '-', decimal digits only, and out_of_range rather than saturation.
  const char* begin = text.data() + (text.size() > 1 && text[0] == '+' && text[1] != '-' ? 1 : 0);
  const char* end = text.data() + text.size();
  std::int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, value, 10);
  if (ec != std::errc() || ptr != end) flag_fail(flag, text, rule);
  return value;
}

std::vector<double> parse_loads(const std::string& text, const std::string& flag) {
  std::vector<double> loads;
  if (text.empty()) flag_fail(flag, "\"\"", "give at least one load");
  // Every item between commas, the empty ones too ("0.3," has an empty last one).
  std::vector<std::string> items{""};
  for (const char c : text) {
    if (c == ',') items.emplace_back();
    else items.back() += c;
  }
  for (const std::string& item : items) {
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
