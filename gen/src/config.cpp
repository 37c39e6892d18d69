// Parsing and validation of the user-facing TOML configuration.
// The key reference and every error rule are in docs/config.md.
//
// Validation runs in two passes over the parsed TOML tree:
//   1. structure: every section and key is known (first offender in file
//      order is reported) and every written key's location is recorded;
//   2. values: sections in a fixed order (design, topology, router, routing,
//      sim), so checks that depend on other keys (buffer size against packet
//      size and link round trips, routing algorithms against the topology,
//      packet sizes against router.max_packet_flits, the hotspot node against
//      the node count) see already validated values.
// Findings that do not stop the tool are collected in Config::warnings.
#include "rlroute/config.hpp"
#include "rlroute/traffic_spec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace rlroute {
namespace {

// ---------------------------------------------------------------------------
// Spellings and the key schema

template <typename Enum>
using Spelling = std::pair<Enum, const char*>;

constexpr std::array<Spelling<TopologyKind>, 3> kTopologyKinds{{
    {TopologyKind::Torus, "torus"},
    {TopologyKind::Mesh, "mesh"},
    {TopologyKind::Dragonfly, "dragonfly"},
}};

constexpr std::array<Spelling<GlobalArrangement>, 2> kArrangements{{
    {GlobalArrangement::Absolute, "absolute"},
    {GlobalArrangement::Palmtree, "palmtree"},
}};

constexpr std::array<Spelling<RoutingAlgorithm>, 11> kAlgorithms{{
    {RoutingAlgorithm::Dor, "dor"},
    {RoutingAlgorithm::Star, "star"},
    {RoutingAlgorithm::Dqn, "dqn"},
    {RoutingAlgorithm::Min, "min"},
    {RoutingAlgorithm::Valg, "valg"},
    {RoutingAlgorithm::Valn, "valn"},
    {RoutingAlgorithm::UgalG, "ugal_g"},
    {RoutingAlgorithm::UgalN, "ugal_n"},
    {RoutingAlgorithm::UgalLe, "ugal_le"},
    {RoutingAlgorithm::Par, "par"},
    {RoutingAlgorithm::QAdaptive, "q_adaptive"},
}};

// Routing algorithms that have an implementation behind them.
constexpr std::array<RoutingAlgorithm, 8> kImplementedAlgorithms{
    RoutingAlgorithm::Dor,   RoutingAlgorithm::Min,   RoutingAlgorithm::Valg,   RoutingAlgorithm::Valn,
    RoutingAlgorithm::UgalG, RoutingAlgorithm::UgalN, RoutingAlgorithm::UgalLe, RoutingAlgorithm::Par,
};

// Dragonfly algorithms whose non-minimal paths go through an intermediate
// group (neither the source nor the destination group): they need g >= 3.
constexpr std::array<RoutingAlgorithm, 6> kIntermediateGroupAlgorithms{
    RoutingAlgorithm::Valg,  RoutingAlgorithm::Valn,   RoutingAlgorithm::UgalG,
    RoutingAlgorithm::UgalN, RoutingAlgorithm::UgalLe, RoutingAlgorithm::Par,
};
// Algorithms that compare a minimal and a non-minimal candidate with a bias.
constexpr std::array<RoutingAlgorithm, 4> kBiasedAlgorithms{
    RoutingAlgorithm::UgalG,
    RoutingAlgorithm::UgalN,
    RoutingAlgorithm::UgalLe,
    RoutingAlgorithm::Par,
};

// Credit round trip of a link, in cycles: link latency + credit latency + this
// many cycles of the router's own registers in the loop (docs/config.md).
constexpr int kCreditLoopRegisterCycles = 2;

constexpr std::array<std::string_view, 1> kDesignKeys{"name"};
// dims, link_latency, credit_latency: torus and mesh; the rest after them:
// dragonfly dfly(p, a, h, g) (DESIGN.md section 7).
constexpr std::array<std::string_view, 13> kTopologyKeys{
    "kind",
    "dims",
    "link_latency",
    "credit_latency",
    "p",
    "a",
    "h",
    "g",
    "arrangement",
    "local_link_latency",
    "global_link_latency",
    "local_credit_latency",
    "global_credit_latency",
};
constexpr std::array<std::string_view, 9> kDragonflyOnlyKeys{
    "p",
    "a",
    "h",
    "g",
    "arrangement",
    "local_link_latency",
    "global_link_latency",
    "local_credit_latency",
    "global_credit_latency",
};
constexpr std::array<std::string_view, 5> kRouterKeys{
    "vcs", "buffer_flits", "flit_bits", "max_packet_flits", "nodes_per_router",
};
constexpr std::array<std::string_view, 5> kRoutingKeys{
    "algorithm", "seed", "ugal_bias", "contention_window", "contention_threshold",
};
constexpr std::array<std::string_view, 11> kSimKeys{
    "pattern", "load",  "packet_flits", "packet_flits_min", "packet_flits_max", "cycles",
    "warmup",  "drain", "seed",         "hotspot_fraction", "hotspot_node",
};

struct SectionSpec {
  std::string_view name;
  std::span<const std::string_view> keys;
};

constexpr std::array<SectionSpec, 5> kSections{{
    {"design", kDesignKeys},
    {"topology", kTopologyKeys},
    {"router", kRouterKeys},
    {"routing", kRoutingKeys},
    {"sim", kSimKeys},
}};

constexpr std::size_t kMaxNameLength = 41;
constexpr const char* kNameRule =
    "must be a string matching ^[A-Za-z][A-Za-z0-9_]{0,40}$ "
    "(it becomes a SystemVerilog identifier prefix)";

const SectionSpec* find_section(std::string_view name) {
  const auto* it =
      std::find_if(kSections.begin(), kSections.end(), [&](const SectionSpec& s) { return s.name == name; });
  return it == kSections.end() ? nullptr : &*it;
}

template <typename Enum, std::size_t N>
const char* spelling_of(const std::array<Spelling<Enum>, N>& table, Enum value) {
  for (const auto& [entry, name] : table) {
    if (entry == value) return name;
  }
  return "?";
}

// ---------------------------------------------------------------------------
// Rendering values the way a TOML file would spell them

bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_identifier_char(char c) { return is_letter(c) || (c >= '0' && c <= '9') || c == '_'; }

bool is_valid_name(std::string_view name) {
  return !name.empty() && name.size() <= kMaxNameLength && is_letter(name.front()) &&
         std::all_of(name.begin(), name.end(), is_identifier_char);
}

std::string quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += fmt::format("\\u{:04X}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  return out + '"';
}

std::string render_float(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::string text = fmt::format("{}", value);
  // Keep floats recognisable as floats: "2.0", not "2".
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string render(const toml::node& node) {
  return node.visit([](const auto& n) -> std::string {
    using T = std::remove_cvref_t<decltype(n)>;
    if constexpr (toml::is_string<T>) {
      return quote(n.get());
    } else if constexpr (toml::is_integer<T>) {
      return fmt::format("{}", n.get());
    } else if constexpr (toml::is_floating_point<T>) {
      return render_float(n.get());
    } else if constexpr (toml::is_boolean<T>) {
      return n.get() ? "true" : "false";
    } else if constexpr (toml::is_array<T>) {
      std::vector<std::string> items;
      for (const toml::node& item : n) items.push_back(render(item));
      return fmt::format("[{}]", fmt::join(items, ", "));
    } else if constexpr (toml::is_table<T>) {
      std::vector<std::string> items;
      for (const auto& [key, value] : n) items.push_back(fmt::format("{} = {}", key.str(), render(value)));
      return items.empty() ? "{}" : fmt::format("{{ {} }}", fmt::join(items, ", "));
    } else {  // dates and times
      std::ostringstream out;
      out << n;
      return out.str();
    }
  });
}

// ---------------------------------------------------------------------------
// Messages

std::string location(std::string_view path, const toml::source_position& pos) {
  return fmt::format("{}:{}:{}", path, pos.line, pos.column);
}

// Where a key was written: the key itself, or the start of its "[header]"
// when the key names a table.
toml::source_position start_of(const toml::key& key, const toml::node& node) {
  const toml::source_position& node_begin = node.source().begin;
  return node_begin && node_begin < key.source().begin ? node_begin : key.source().begin;
}

std::string message(std::string_view where, std::string_view key, std::string_view value,
                    std::string_view rule) {
  if (value.empty()) return fmt::format("{}: {}: {}", where, key, rule);
  return fmt::format("{}: {} = {}: {}", where, key, value, rule);
}

template <std::size_t N>
std::string quoted_list(const std::array<const char*, N>& names) {
  std::vector<std::string> quoted;
  for (const char* name : names) quoted.push_back(quote(name));
  return fmt::format("{}", fmt::join(quoted, ", "));
}

template <typename Enum, std::size_t N>
std::array<const char*, N> names_of(const std::array<Spelling<Enum>, N>& table) {
  std::array<const char*, N> names{};
  std::transform(table.begin(), table.end(), names.begin(), [](const auto& s) { return s.second; });
  return names;
}

std::string name_from_path(const std::string& path) {
  std::string name = std::filesystem::path(path).stem().string();
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !is_identifier_char(c); }, '_');
  if (name.empty() || !is_letter(name.front())) name = "c_" + name;
  if (name.size() > kMaxNameLength) name.resize(kMaxNameLength);
  return name;
}

// ---------------------------------------------------------------------------
// One written key and the typed reads on it; every failed read throws with
// the key's location, its value and the rule.

class Field {
 public:
  Field(const Config& cfg, std::string key, const toml::node& node)
      : cfg_(cfg), key_(std::move(key)), node_(node) {}

  [[noreturn]] void fail(const std::string& rule) const { config_fail(cfg_, key_, render(node_), rule); }

  std::int64_t integer(std::int64_t lo, std::int64_t hi, const std::string& rule) const {
    const auto* value = node_.as_integer();
    if (value == nullptr || value->get() < lo || value->get() > hi) fail(rule);
    return value->get();
  }

  int int_in(int lo, int hi) const {
    return static_cast<int>(integer(lo, hi, fmt::format("must be an integer in {}..{}", lo, hi)));
  }

  std::int64_t int_at_least(std::int64_t lo) const {
    return integer(lo, std::numeric_limits<std::int64_t>::max(), fmt::format("must be an integer >= {}", lo));
  }

  // An integer or a float; the caller checks the range and fails with `rule`.
  double number(const std::string& rule) const {
    if (const auto* value = node_.as_integer()) return static_cast<double>(value->get());
    if (const auto* value = node_.as_floating_point()) return value->get();
    fail(rule);
  }

  std::string text(const std::string& rule) const {
    const auto* value = node_.as_string();
    if (value == nullptr) fail(rule);
    return value->get();
  }

  // Index of the string value in `names`.
  template <std::size_t N>
  std::size_t one_of(const std::array<const char*, N>& names) const {
    if (const auto* value = node_.as_string()) {
      for (std::size_t i = 0; i < N; ++i) {
        if (value->get() == names[i]) return i;
      }
    }
    fail("must be one of " + quoted_list(names));
  }

  std::vector<std::int64_t> integers(const std::string& rule) const {
    const auto* array = node_.as_array();
    if (array == nullptr) fail(rule);
    std::vector<std::int64_t> values;
    for (const toml::node& item : *array) {
      const auto* value = item.as_integer();
      if (value == nullptr) fail(rule);
      values.push_back(value->get());
    }
    return values;
  }

 private:
  const Config& cfg_;
  std::string key_;
  const toml::node& node_;
};

// ---------------------------------------------------------------------------

class Parser {
 public:
  Parser(const toml::table& root, const std::string& path) : root_(root) { cfg_.path = path; }

  Config parse() {
    check_structure();
    parse_design();
    parse_topology();
    parse_router();
    parse_routing();
    parse_sim();
    return std::move(cfg_);
  }

 private:
  struct Problem {
    toml::source_position pos;
    std::string text;
  };

  // Pass 1: every section and key is known; record where each one is.
  void check_structure() {
    std::vector<Problem> problems;
    std::vector<std::string> section_names;
    for (const SectionSpec& s : kSections) section_names.push_back(fmt::format("[{}]", s.name));
    const std::string valid_sections = fmt::format("{}", fmt::join(section_names, ", "));

    for (const auto& [key, node] : root_) {
      const std::string name(key.str());
      const SectionSpec* section = find_section(name);
      const toml::table* table = node.as_table();
      const toml::source_position pos = start_of(key, node);
      cfg_.locations[name] = location(cfg_.path, pos);

      if (section == nullptr && table != nullptr) {
        problems.push_back({pos, message(cfg_.locations[name], fmt::format("[{}]", name), "",
                                         "unknown section; valid sections are: " + valid_sections)});
        continue;
      }
      if (section == nullptr) {
        problems.push_back(
            {pos, message(cfg_.locations[name], name, render(node),
                          "unknown key; keys belong in one of the sections " + valid_sections)});
        continue;
      }
      if (table == nullptr) {
        problems.push_back({pos, message(cfg_.locations[name], name, render(node),
                                         fmt::format("must be a table (the [{}] section)", name))});
        continue;
      }
      for (const auto& [sub_key, sub_node] : *table) {
        const std::string dotted = fmt::format("{}.{}", name, sub_key.str());
        const toml::source_position sub_pos = start_of(sub_key, sub_node);
        cfg_.locations[dotted] = location(cfg_.path, sub_pos);
        if (std::find(section->keys.begin(), section->keys.end(), sub_key.str()) == section->keys.end()) {
          problems.push_back({sub_pos, message(cfg_.locations[dotted], dotted, render(sub_node),
                                               fmt::format("unknown key; valid keys in [{}] are: {}", name,
                                                           fmt::join(section->keys, ", ")))});
        }
      }
    }
    if (!problems.empty()) {
      const auto first = std::min_element(problems.begin(), problems.end(),
                                          [](const Problem& a, const Problem& b) { return a.pos < b.pos; });
      throw ConfigError(first->text);
    }
  }

  // The written key section.key, if any (pass 1 guarantees sections are tables).
  std::optional<Field> field(std::string_view section, std::string_view key) const {
    const toml::node* node = root_[section][key].node();
    if (node == nullptr) return std::nullopt;
    return Field(cfg_, fmt::format("{}.{}", section, key), *node);
  }

  // A required key is missing: point at its section header, or the file start.
  [[noreturn]] void fail_missing(std::string_view section, std::string_view key,
                                 const std::string& rule) const {
    const auto it = cfg_.locations.find(std::string(section));
    const std::string where = it != cfg_.locations.end() ? it->second : cfg_.path + ":1:1";
    throw ConfigError(message(where, fmt::format("{}.{}", section, key), "", rule));
  }

  void parse_design() {
    if (const auto f = field("design", "name")) {
      cfg_.name = f->text(kNameRule);
      if (!is_valid_name(cfg_.name)) f->fail(kNameRule);
    } else {
      cfg_.name = name_from_path(cfg_.path);
    }
  }

  void parse_topology() {
    const auto kind = field("topology", "kind");
    if (!kind) {
      fail_missing("topology", "kind",
                   "required key is missing; set it to one of " + quoted_list(names_of(kTopologyKinds)));
    }
    cfg_.kind = kTopologyKinds[kind->one_of(names_of(kTopologyKinds))].first;
    if (cfg_.kind == TopologyKind::Dragonfly) {
      parse_dragonfly();
    } else {
      parse_torus_or_mesh();
    }
  }

  void parse_torus_or_mesh() {
    const auto dims = field("topology", "dims");
    if (!dims) {
      fail_missing("topology", "dims",
                   fmt::format("required key is missing for kind = \"{}\"; give one radix per dimension, "
                               "e.g. dims = [4, 4]",
                               to_string(cfg_.kind)));
    }
    const std::vector<std::int64_t> radices = dims->integers("must be an array of integers, e.g. [4, 4]");
    if (radices.empty() || radices.size() > 3) dims->fail("must have 1..3 entries (one radix per dimension)");
    for (const std::int64_t radix : radices) {
      if (radix < 2) {
        dims->fail("every dimension must be at least 2 (a ring or line of 1 router has no links)");
      }
      if (radix > 16) dims->fail("every dimension must be in 2..16");
    }
    cfg_.dims.assign(radices.begin(), radices.end());

    for (const std::string_view key : kDragonflyOnlyKeys) {
      if (const auto f = field("topology", key)) f->fail("only valid for kind = \"dragonfly\"");
    }
    if (const auto f = field("topology", "link_latency")) cfg_.link_latency = f->int_in(1, 64);
    if (const auto f = field("topology", "credit_latency")) cfg_.credit_latency = f->int_in(1, 64);
  }

  // dfly(p, a, h, g): p terminals, a-1 local and h global ports per router,
  // a routers per fully connected group, g groups, l = a*h/(g-1) global links
  // between every pair of groups.
  void parse_dragonfly() {
    cfg_.p = required_dragonfly_key("p", "terminals per router", 2).int_in(1, 16);
    cfg_.a = required_dragonfly_key("a", "routers per group", 4).int_in(2, 32);
    cfg_.h = required_dragonfly_key("h", "global ports per router", 2).int_in(1, 16);
    const Field g = required_dragonfly_key("g", "groups", 9);
    const std::int64_t groups = g.int_at_least(2);
    const int ends = cfg_.a * cfg_.h;  // global link ends of one group
    if (groups > ends + 1) {
      g.fail(fmt::format("at most a*h + 1 = {} groups: every group has a*h = {} global link ends", ends + 1,
                         ends));
    }
    cfg_.g = static_cast<int>(groups);
    if (ends % (cfg_.g - 1) != 0) {
      g.fail(
          fmt::format("the a*h = {} global link ends of a group must split evenly over the g - 1 = {} other "
                      "groups (l = a*h/(g-1) links per group pair)",
                      ends, cfg_.g - 1));
    }
    cfg_.nodes_per_router = cfg_.p;

    // Torus and mesh keys, with what a dragonfly uses instead.
    const std::array<std::pair<std::string_view, std::string_view>, 3> torus_keys{{
        {"dims", "topology.p, topology.a, topology.h and topology.g"},
        {"link_latency", "topology.local_link_latency and topology.global_link_latency"},
        {"credit_latency", "topology.local_credit_latency and topology.global_credit_latency"},
    }};
    for (const auto& [key, instead] : torus_keys) {
      if (const auto f = field("topology", key)) {
        f->fail(fmt::format("not valid for kind = \"dragonfly\"; use {}", instead));
      }
    }

    if (const auto f = field("topology", "arrangement")) {
      cfg_.arrangement = kArrangements[f->one_of(names_of(kArrangements))].first;
    }
    if (const auto f = field("topology", "local_link_latency")) cfg_.local_link_latency = f->int_in(1, 256);
    if (const auto f = field("topology", "global_link_latency")) cfg_.global_link_latency = f->int_in(1, 256);
    if (const auto f = field("topology", "local_credit_latency")) {
      cfg_.local_credit_latency = f->int_in(1, 256);
    }
    if (const auto f = field("topology", "global_credit_latency")) {
      cfg_.global_credit_latency = f->int_in(1, 256);
    }
  }

  // A required dragonfly parameter; `example` is its value in dfly(2, 4, 2, 9).
  Field required_dragonfly_key(std::string_view key, std::string_view meaning, int example) const {
    auto f = field("topology", key);
    if (!f) {
      fail_missing("topology", key,
                   fmt::format("required key is missing for kind = \"dragonfly\"; give {} ({}), e.g. {} = {}",
                               key, meaning, key, example));
    }
    return *f;
  }

  void parse_router() {
    if (const auto f = field("router", "vcs")) cfg_.vcs = f->int_in(1, 16);
    if (const auto f = field("router", "buffer_flits")) cfg_.buffer_flits = f->int_in(1, 256);
    if (const auto f = field("router", "flit_bits")) {
      const std::string rule = "must be an integer in 32..256 and a multiple of 8";
      cfg_.flit_bits = static_cast<int>(f->integer(32, 256, rule));
      if (cfg_.flit_bits % 8 != 0) f->fail(rule);
    }
    if (const auto f = field("router", "max_packet_flits")) cfg_.max_packet_flits = f->int_in(2, 63);
    if (const auto f = field("router", "nodes_per_router")) {
      if (cfg_.kind == TopologyKind::Dragonfly) f->fail("not valid for kind = \"dragonfly\"; use topology.p");
      cfg_.nodes_per_router = f->int_in(1, 8);
    }

    // Virtual cut-through: a head flit may only advance when the downstream VC
    // can take the whole packet, so a VC must hold the largest packet.
    if (cfg_.buffer_flits < cfg_.max_packet_flits) {
      config_fail(cfg_, "router.buffer_flits", std::to_string(cfg_.buffer_flits),
                  fmt::format("virtual cut-through needs a VC buffer of at least "
                              "router.max_packet_flits = {} flits",
                              cfg_.max_packet_flits));
    }

    // A VC can only keep a link busy if its buffer covers the link's credit
    // round trip; below that it stalls for credits (a warning: more VCs or
    // more packets in flight may still fill the link).
    if (cfg_.kind == TopologyKind::Dragonfly) {
      warn_credit_round_trip("a local link", "local_link_latency", cfg_.local_link_latency,
                             "local_credit_latency", cfg_.local_credit_latency);
      warn_credit_round_trip("a global link", "global_link_latency", cfg_.global_link_latency,
                             "global_credit_latency", cfg_.global_credit_latency);
    } else {
      warn_credit_round_trip("a link", "link_latency", cfg_.link_latency, "credit_latency",
                             cfg_.credit_latency);
    }
  }

  void warn_credit_round_trip(std::string_view link, std::string_view link_key, int link_latency,
                              std::string_view credit_key, int credit_latency) {
    const int round_trip = link_latency + credit_latency + kCreditLoopRegisterCycles;
    if (cfg_.buffer_flits >= round_trip) return;
    cfg_.warnings.push_back(message(
        cfg_.where("router.buffer_flits"), "router.buffer_flits", std::to_string(cfg_.buffer_flits),
        fmt::format("smaller than the credit round trip of {} (topology.{} + topology.{} + {} = {} cycles), "
                    "so one VC cannot keep that link busy",
                    link, link_key, credit_key, kCreditLoopRegisterCycles, round_trip)));
  }

  void parse_routing() {
    // The default algorithm is the first of the topology family: dor or min.
    cfg_.algorithm = algorithms_for_kind(cfg_.kind).front();
    if (const auto f = field("routing", "algorithm")) {
      cfg_.algorithm = kAlgorithms[f->one_of(names_of(kAlgorithms))].first;
      if (!supports(cfg_.kind, cfg_.algorithm)) {
        f->fail(fmt::format("is not an algorithm for topology.kind = \"{}\"; {} supports: {}",
                            to_string(cfg_.kind), to_string(cfg_.kind),
                            fmt::join(algorithms_for(cfg_.kind), ", ")));
      }
      if (!contains(kImplementedAlgorithms, cfg_.algorithm)) {
        std::vector<const char*> implemented;
        for (const RoutingAlgorithm a : algorithms_for_kind(cfg_.kind)) {
          if (contains(kImplementedAlgorithms, a)) implemented.push_back(to_string(a));
        }
        f->fail(fmt::format("not implemented yet; implemented: {}", fmt::join(implemented, ", ")));
      }
      if (contains(kIntermediateGroupAlgorithms, cfg_.algorithm) && cfg_.g < 3) {
        f->fail(
            fmt::format("needs an intermediate group that is neither the source nor the destination "
                        "group, so topology.g >= 3 (here g = {})",
                        cfg_.g));
      }
    }
    if (const auto f = field("routing", "seed")) cfg_.seed = static_cast<std::uint64_t>(f->int_at_least(0));

    if (const auto f = field("routing", "ugal_bias")) {
      if (!contains(kBiasedAlgorithms, cfg_.algorithm)) {
        f->fail("only valid for routing.algorithm = ugal_g, ugal_n, ugal_le or par");
      }
      cfg_.ugal_bias = f->int_in(-1024, 1024);
    }
    const auto window = field("routing", "contention_window");
    const auto threshold = field("routing", "contention_threshold");
    for (const auto& f : {window, threshold}) {
      if (f && cfg_.algorithm != RoutingAlgorithm::UgalLe) {
        f->fail("only valid for routing.algorithm = ugal_le");
      }
    }
    if (window) cfg_.contention_window = window->int_in(1, 65535);
    if (threshold) cfg_.contention_threshold = threshold->int_in(0, 65535);
    // Reported on the threshold even when it was left at its default.
    if (cfg_.contention_threshold >= cfg_.contention_window) {
      config_fail(cfg_, "routing.contention_threshold", std::to_string(cfg_.contention_threshold),
                  fmt::format("must be less than routing.contention_window = {}", cfg_.contention_window));
    }
  }

  template <std::size_t N>
  static bool contains(const std::array<RoutingAlgorithm, N>& algorithms, RoutingAlgorithm algorithm) {
    return std::find(algorithms.begin(), algorithms.end(), algorithm) != algorithms.end();
  }

  void parse_sim() {
    SimDefaults& sim = cfg_.sim;
    if (const auto f = field("sim", "pattern")) {
      sim.pattern = f->text("must be a string naming a traffic pattern");
      try {
        parse_traffic_spec(sim.pattern);
      } catch (const std::invalid_argument& e) {
        f->fail(e.what());
      }
    }
    if (const auto f = field("sim", "load")) {
      const std::string rule = "must be a number with 0 < load <= 1 (flits/node/cycle)";
      sim.load = f->number(rule);
      if (!(sim.load > 0.0 && sim.load <= 1.0)) f->fail(rule);
    }

    // Packet sizes: 0 or kMinPacketFlits..router.max_packet_flits.
    const int max_flits = cfg_.max_packet_flits;
    const auto packet_size = [max_flits](const Field& f) {
      const std::string rule =
          fmt::format("must be 0 or an integer in {}..router.max_packet_flits = {}", kMinPacketFlits, max_flits);
      const auto flits = static_cast<int>(f.integer(0, max_flits, rule));
      if (flits > 0 && flits < kMinPacketFlits) f.fail(rule);
      return flits;
    };
    const auto fixed = field("sim", "packet_flits");
    const auto min = field("sim", "packet_flits_min");
    const auto max = field("sim", "packet_flits_max");
    if (fixed) sim.packet_flits = packet_size(*fixed);
    if (min) sim.packet_flits_min = packet_size(*min);
    if (max) sim.packet_flits_max = packet_size(*max);
    if (sim.packet_flits_min > 0 && sim.packet_flits_max == 0) {
      min->fail("must be set together with sim.packet_flits_max (both 0, or both set)");
    }
    if (sim.packet_flits_max > 0 && sim.packet_flits_min == 0) {
      max->fail("must be set together with sim.packet_flits_min (both 0, or both set)");
    }
    if (sim.packet_flits_max < sim.packet_flits_min) {
      max->fail(fmt::format("must be at least sim.packet_flits_min = {}", sim.packet_flits_min));
    }
    if (sim.packet_flits > 0 && sim.packet_flits_min > 0) {
      fixed->fail("conflicts with sim.packet_flits_min/max; give a fixed size or a range, not both");
    }

    const auto phase_cycles = [](const Field& f, std::int64_t lo) {
      return f.integer(lo, kMaxSimCycles, fmt::format("must be an integer in {}..2^40 cycles", lo));
    };
    if (const auto f = field("sim", "cycles")) sim.cycles = phase_cycles(*f, 1);
    if (const auto f = field("sim", "warmup")) sim.warmup = phase_cycles(*f, 0);
    if (const auto f = field("sim", "drain")) sim.drain = phase_cycles(*f, 0);
    if (const auto f = field("sim", "seed")) sim.seed = static_cast<std::uint64_t>(f->int_at_least(0));
    if (const auto f = field("sim", "hotspot_fraction")) {
      const std::string rule = "must be a number in 0..1";
      sim.hotspot_fraction = f->number(rule);
      if (!(sim.hotspot_fraction >= 0.0 && sim.hotspot_fraction <= 1.0)) f->fail(rule);
    }
    if (const auto f = field("sim", "hotspot_node")) {
      const int nodes = node_count();
      sim.hotspot_node = static_cast<int>(f->integer(
          0, nodes - 1,
          fmt::format("must be an integer in 0..{} (the network has {} nodes)", nodes - 1, nodes)));
    }
  }

  int node_count() const {
    int routers = 1;
    if (cfg_.kind == TopologyKind::Dragonfly) {
      routers = cfg_.a * cfg_.g;
    } else {
      for (const int radix : cfg_.dims) routers *= radix;
    }
    return routers * cfg_.nodes_per_router;
  }

  static std::vector<RoutingAlgorithm> algorithms_for_kind(TopologyKind kind) {
    using enum RoutingAlgorithm;
    if (kind == TopologyKind::Dragonfly) return {Min, Valg, Valn, UgalG, UgalN, UgalLe, Par, QAdaptive};
    return {Dor, Star, Dqn};
  }

  static std::vector<const char*> algorithms_for(TopologyKind kind) {
    std::vector<const char*> names;
    for (const RoutingAlgorithm a : algorithms_for_kind(kind)) names.push_back(to_string(a));
    return names;
  }

  static bool supports(TopologyKind kind, RoutingAlgorithm algorithm) {
    const auto algorithms = algorithms_for_kind(kind);
    return std::find(algorithms.begin(), algorithms.end(), algorithm) != algorithms.end();
  }

  const toml::table& root_;
  Config cfg_;
};

}  // namespace

const char* to_string(TopologyKind kind) { return spelling_of(kTopologyKinds, kind); }
const char* to_string(RoutingAlgorithm algorithm) { return spelling_of(kAlgorithms, algorithm); }
const char* to_string(GlobalArrangement arrangement) { return spelling_of(kArrangements, arrangement); }

std::string Config::where(const std::string& dotted_key) const {
  const auto it = locations.find(dotted_key);
  return it != locations.end() ? it->second : path;
}

void config_fail(const Config& cfg, const std::string& dotted_key, const std::string& value,
                 const std::string& rule) {
  throw ConfigError(message(cfg.where(dotted_key), dotted_key, value, rule));
}

Config parse_config(const std::string& toml_text, const std::string& path) {
  toml::table root;
  try {
    root = toml::parse(std::string_view(toml_text), std::string_view(path));
  } catch (const toml::parse_error& error) {
    std::string description(error.description());
    std::replace(description.begin(), description.end(), '\n', ' ');
    throw ConfigError(
        fmt::format("{}: TOML syntax error: {}", location(path, error.source().begin), description));
  }
  return Parser(root, path).parse();
}

Config load_config(const std::string& path) {
  const auto cannot_read = [&path](int error) {
    return ConfigError(fmt::format("{}: cannot read config file: {}", path, std::strerror(error)));
  };
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  const std::unique_ptr<std::FILE, Closer> file(std::fopen(path.c_str(), "rb"));
  if (!file) throw cannot_read(errno);

  std::string text;
  std::array<char, 1 << 16> buffer{};
  std::size_t count = 0;
  while ((count = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0) {
    text.append(buffer.data(), count);
  }
  if (std::ferror(file.get())) throw cannot_read(errno);
  return parse_config(text, path);
}

}  // namespace rlroute
