#include "rlroute/gen/traffic_spec.hpp"

#include "rlroute/gen/printable.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string_view>

namespace rlroute {

namespace {

// Keys each pattern takes, in the order the messages list them.
const std::map<std::string, std::vector<std::string>>& pattern_keys() {
  static const std::map<std::string, std::vector<std::string>> keys = {
      {"mixed", {"share", "with", "level"}},
      {"stencil3d", {"grid"}},
      {"many2many", {"axis", "grid"}},
      {"randneighbors", {"min", "max"}},
      {"dpsnn", {"rate", "neurons", "spike_bytes", "compute"}},
  };
  return keys;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::optional<int> parse_int(std::string_view s) {
  int value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_double(std::string_view s) {
  double value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// "4x3x6" (each >= 1) or "cubic".
GridShape parse_grid(const std::string& text, std::string_view value) {
  if (value == "cubic") return GridShape{GridShape::Kind::Cubic, {}};
  const std::string rule = "grid must be XxYxZ with integers >= 1 (e.g. grid=4x3x6) or grid=cubic";
  GridShape grid{GridShape::Kind::Explicit, {}};
  for (int d = 0; d < 3; ++d) {
    const size_t x = value.find('x');
    if ((d < 2) == (x == std::string_view::npos)) traffic_spec_fail(text, rule);
    const auto dim = parse_int(value.substr(0, x));
    if (!dim || *dim < 1) traffic_spec_fail(text, rule);
    grid.dims[static_cast<size_t>(d)] = *dim;
    value = d < 2 ? value.substr(x + 1) : std::string_view{};
  }
  return grid;
}

// "adv+<i>" (name starts with "adv").
int parse_adv_offset(const std::string& text, std::string_view name) {
  const std::string rule = "write adv+<i> with a group offset i >= 1, e.g. adv+1";
  if (name.size() < 4 || name[3] != '+') traffic_spec_fail(text, rule);
  const auto i = parse_int(name.substr(4));
  if (!i || *i < 1) traffic_spec_fail(text, rule);
  return *i;
}

void apply_parameter(TrafficSpec& spec, const std::string& key, std::string_view value) {
  const std::string& text = spec.text;
  if (key == "share") {
    const auto share = parse_double(value);
    if (!share || *share < 0.0 || *share > 1.0) traffic_spec_fail(text, "share must be in [0, 1]");
    spec.mixed_share = *share;
  } else if (key == "with") {
    if (value != "shift" && value != "randperm") traffic_spec_fail(text, "with must be shift or randperm");
    spec.mixed_with = std::string(value);
  } else if (key == "level") {
    if (value == "router") {
      spec.mixed_level = MixLevel::Router;
    } else if (value == "node") {
      spec.mixed_level = MixLevel::Node;
    } else if (value == "packet") {
      spec.mixed_level = MixLevel::Packet;
    } else {
      traffic_spec_fail(text, "level must be router, node or packet");
    }
  } else if (key == "grid") {
    spec.grid = parse_grid(text, value);
  } else if (key == "axis") {
    if (value != "x" && value != "y" && value != "z") traffic_spec_fail(text, "axis must be x, y or z");
    spec.axis = value[0] - 'x';
  } else if (key == "min" || key == "max") {
    const auto n = parse_int(value);
    if (!n || *n < 1) traffic_spec_fail(text, fmt::format("{} must be an integer >= 1", key));
    (key == "min" ? spec.min_targets : spec.max_targets) = *n;
  } else if (key == "rate") {
    const auto rate = parse_double(value);
    if (!rate || *rate <= 0.0 || *rate > 1000.0) traffic_spec_fail(text, "rate must be in (0, 1000] Hz");
    spec.dpsnn.rate_hz = *rate;
  } else if (key == "neurons") {
    const auto n = parse_int(value);
    if (!n || *n < 1 || *n > 1000000) traffic_spec_fail(text, "neurons must be an integer in 1..1000000");
    spec.dpsnn.neurons = *n;
  } else if (key == "spike_bytes") {
    const auto n = parse_int(value);
    if (!n || *n < 1 || *n > 1024) traffic_spec_fail(text, "spike_bytes must be an integer in 1..1024");
    spec.dpsnn.spike_bytes = *n;
  } else if (key == "compute") {
    const auto n = parse_int(value);
    if (!n || *n < 0 || *n > 100000000) traffic_spec_fail(text, "compute must be an integer in 0..100000000 cycles");
    spec.dpsnn.compute_cycles = *n;
  }
}

void parse_parameters(TrafficSpec& spec, std::string_view params) {
  const auto found = pattern_keys().find(spec.name);
  if (found == pattern_keys().end()) {
    traffic_spec_fail(spec.text, fmt::format("{} takes no parameters", spec.name == "adv" ? "adv+<i>" : spec.name));
  }
  const std::vector<std::string>& valid = found->second;
  std::vector<std::string> seen;
  bool level_given = false;
  while (true) {
    const size_t comma = params.find(',');
    const std::string_view item = params.substr(0, comma);
    const size_t eq = item.find('=');
    const std::string key(trim(item.substr(0, eq)));
    const std::string_view value = eq == std::string_view::npos ? std::string_view{} : trim(item.substr(eq + 1));
    if (eq == std::string_view::npos || key.empty() || value.empty()) {
      traffic_spec_fail(spec.text, fmt::format("expected key=value, not \"{}\"", trim(item)));
    }
    if (std::find(valid.begin(), valid.end(), key) == valid.end()) {
      traffic_spec_fail(spec.text,
                        fmt::format("unknown key \"{}\"; {} takes: {}", key, spec.name, fmt::join(valid, ", ")));
    }
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      traffic_spec_fail(spec.text, fmt::format("key \"{}\" is given twice", key));
    }
    seen.push_back(key);
    level_given = level_given || key == "level";
    apply_parameter(spec, key, value);
    if (comma == std::string_view::npos) break;
    params.remove_prefix(comma + 1);
  }
  // Chaulagain & Yuan's mixed experiments: router-level for shift, node-level for permutation.
  if (spec.name == "mixed" && !level_given) {
    spec.mixed_level = spec.mixed_with == "shift" ? MixLevel::Router : MixLevel::Node;
  }
  if (spec.name == "randneighbors") {
    const int min = spec.min_targets.value_or(6);
    const int max = spec.max_targets.value_or(20);
    if (min > max) traffic_spec_fail(spec.text, fmt::format("min ({}) must be <= max ({})", min, max));
  }
}

}  // namespace

const std::vector<std::string>& traffic_pattern_names() {
  static const std::vector<std::string> names = {
      "uniform", "transpose", "bitcomp", "bitrev",    "tornado",   "neighbor",  "hotspot",
      "randperm", "adv+<i>",  "shift",   "mixed",     "stencil3d", "many2many", "randneighbors", "dpsnn"};
  return names;
}

bool is_application_traffic(const TrafficSpec& spec) { return spec.name == "dpsnn"; }

void traffic_spec_fail(const std::string& text, const std::string& rule) {
  throw std::invalid_argument(fmt::format("traffic pattern \"{}\": {}", printable(text), printable(rule)));
}

TrafficSpec parse_traffic_spec(const std::string& text) {
  const std::string_view all(text);
  const size_t colon = all.find(':');
  const std::string name(trim(all.substr(0, colon)));
  TrafficSpec spec;
  spec.text = text;
  if (name == "adv" || name.starts_with("adv+")) {
    spec.name = "adv";
    spec.adv_offset = parse_adv_offset(text, name);
  } else {
    const auto& names = traffic_pattern_names();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      throw std::invalid_argument(
          fmt::format("unknown traffic pattern \"{}\"; valid: {}", printable(name), fmt::join(names, ", ")));
    }
    spec.name = name;
  }
  if (colon != std::string_view::npos) {
    const std::string_view params = trim(all.substr(colon + 1));
    if (params.empty()) traffic_spec_fail(text, "expected key=value parameters after ':'");
    parse_parameters(spec, params);
  }
  return spec;
}

}  // namespace rlroute
