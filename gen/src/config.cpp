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
#include "rlroute/gen/config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "config_schema.hpp"
#include "config_toml.hpp"
#include "rlroute/gen/files.hpp"
#include "rlroute/gen/pipeline.hpp"
#include "rlroute/gen/topology.hpp"
#include "rlroute/gen/traffic_spec.hpp"

namespace rlroute {
namespace {

using namespace config_detail;

// A config file is a few hundred bytes; anything near this is not one.
constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;

bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_identifier_char(char c) { return is_letter(c) || (c >= '0' && c <= '9') || c == '_'; }

bool is_valid_name(std::string_view name) {
  return !name.empty() && name.size() <= kMaxNameLength && is_letter(name.front()) &&
         std::all_of(name.begin(), name.end(), is_identifier_char);
}

// NAME_router, NAME_pkg, ... would collide with the library's rr_* modules.
bool clashes_with_library(std::string_view name) {
  return name == kLibraryModulePrefix ||
         (name.size() > kLibraryModulePrefix.size() && name.substr(0, kLibraryModulePrefix.size()) ==
                                                           kLibraryModulePrefix &&
          name[kLibraryModulePrefix.size()] == '_');
}

std::string name_from_path(const std::string& path) {
  std::string name = std::filesystem::path(path).stem().string();
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !is_identifier_char(c); }, '_');
  if (name.empty() || !is_letter(name.front()) || clashes_with_library(name)) name = "c_" + name;
  if (name.size() > kMaxNameLength) name.resize(kMaxNameLength);
  return name;
}

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
    const std::vector<std::string_view> sections = config_sections();
    std::vector<std::string> section_names;
    for (const std::string_view s : sections) section_names.push_back(fmt::format("[{}]", s));
    const std::string valid_sections = fmt::format("{}", fmt::join(section_names, ", "));

    for (const auto& [key, node] : root_) {
      const std::string name(key.str());
      const bool known = std::find(sections.begin(), sections.end(), name) != sections.end();
      const toml::table* table = node.as_table();
      const toml::source_position pos = start_of(key, node);
      cfg_.locations[name] = location(cfg_.path, pos);

      if (!known && table != nullptr) {
        problems.push_back({pos, message(cfg_.locations[name], fmt::format("[{}]", key_text(name)), "",
                                         "unknown section; valid sections are: " + valid_sections)});
        continue;
      }
      if (!known) {
        problems.push_back(
            {pos, message(cfg_.locations[name], key_text(name), render(node),
                          "unknown key; keys belong in one of the sections " + valid_sections)});
        continue;
      }
      if (table == nullptr) {
        problems.push_back({pos, message(cfg_.locations[name], key_text(name), render(node),
                                         fmt::format("must be a table (the [{}] section)", name))});
        continue;
      }
      const std::vector<std::string_view> keys = section_keys(name);
      for (const auto& [sub_key, sub_node] : *table) {
        const std::string dotted = fmt::format("{}.{}", name, sub_key.str());
        const toml::source_position sub_pos = start_of(sub_key, sub_node);
        cfg_.locations[dotted] = location(cfg_.path, sub_pos);
        if (std::find(keys.begin(), keys.end(), sub_key.str()) == keys.end()) {
          problems.push_back({sub_pos, message(cfg_.locations[dotted], key_text(dotted), render(sub_node),
                                               fmt::format("unknown key; valid keys in [{}] are: {}", name,
                                                           fmt::join(keys, ", ")))});
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
      if (clashes_with_library(cfg_.name)) {
        f->fail(fmt::format("must not be \"{0}\" or start with \"{0}_\": the modules of rtl/ use that prefix",
                            kLibraryModulePrefix));
      }
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

    reject_other_family("topology");
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
    const int routers = cfg_.a * cfg_.g;
    const int nodes = routers * cfg_.p;
    if (routers > kMaxDragonflyRouters || nodes > kMaxDragonflyNodes) {
      g.fail(fmt::format("dfly({}, {}, {}, {}) has {} routers and {} nodes; the limit is {} routers and {} nodes "
                         "(the routing checks of rlroute gen grow with every node pair)",
                         cfg_.p, cfg_.a, cfg_.h, cfg_.g, routers, nodes, kMaxDragonflyRouters, kMaxDragonflyNodes));
    }
    cfg_.nodes_per_router = cfg_.p;

    reject_other_family("topology");

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

  // A written key of `section` that belongs to the other topology family (the
  // first in the schema's order): a dragonfly key with a torus or mesh, or a
  // torus and mesh key with a dragonfly, which names what to use instead.
  void reject_other_family(std::string_view section) const {
    for (const ConfigKey& key : config_keys()) {
      if (key.section != section || key_applies(key, cfg_.kind)) continue;
      if (const auto f = field(section, key.name)) {
        f->fail(cfg_.kind == TopologyKind::Dragonfly
                    ? fmt::format("not valid for kind = \"dragonfly\"; use {}", key.instead)
                    : std::string("only valid for kind = \"dragonfly\""));
      }
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
    const auto min_flits = field("router", "min_packet_flits");
    if (min_flits) cfg_.min_packet_flits = min_flits->int_in(1, kMaxPacketFlits);
    if (const auto f = field("router", "max_packet_flits")) cfg_.max_packet_flits = f->int_in(1, kMaxPacketFlits);
    if (cfg_.max_packet_flits < cfg_.min_packet_flits) {
      config_fail(cfg_, "router.max_packet_flits", std::to_string(cfg_.max_packet_flits),
                  fmt::format("must be at least router.min_packet_flits = {} (a packet of one flit needs "
                              "router.min_packet_flits = 1)",
                              cfg_.min_packet_flits));
    }
    reject_other_family("router");
    if (const auto f = field("router", "nodes_per_router")) cfg_.nodes_per_router = f->int_in(1, 8);

    // Internal speedup: the switch moves up to `speedup` flits per output port
    // per cycle into an output buffer that drains onto the link.
    if (const auto f = field("router", "speedup")) cfg_.speedup = f->int_in(1, 4);
    const auto out_buf = field("router", "output_buffer_flits");
    if (out_buf) {
      cfg_.output_buffer_flits = out_buf->int_in(0, 256);
      if (cfg_.speedup == 1 && cfg_.output_buffer_flits > 0) {
        out_buf->fail("needs router.speedup >= 2 (without speedup the output register alone drives the link)");
      }
      if (cfg_.speedup > 1 && cfg_.output_buffer_flits < cfg_.speedup) {
        out_buf->fail(fmt::format("must be at least router.speedup = {} flits (a cycle's flits must fit)",
                                  cfg_.speedup));
      }
    } else if (cfg_.speedup > 1) {
      cfg_.output_buffer_flits = 2 * cfg_.speedup;
    }

    if (const auto f = field("router", "buffer_read")) {
      cfg_.buffer_read = kBufferReads[f->one_of(names_of(kBufferReads))].first;
    }
    if (const auto f = field("router", "switch_allocation")) {
      cfg_.switch_allocation = kSwitchAllocations[f->one_of(names_of(kSwitchAllocations))].first;
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
    const int round_trip = credit_round_trip(link_latency, credit_latency);
    if (cfg_.buffer_flits >= round_trip) return;
    cfg_.warnings.push_back(message(
        cfg_.where("router.buffer_flits"), "router.buffer_flits", std::to_string(cfg_.buffer_flits),
        fmt::format("smaller than the credit round trip of {} (topology.{} + topology.{} + {} = {} cycles), "
                    "so one VC cannot keep that link busy",
                    link, link_key, credit_key, kCreditLoopRegisterCycles, round_trip)));
  }

  void parse_routing() {
    // The default algorithm is the first of the topology family: dor or min.
    cfg_.algorithm = algorithms_for(cfg_.kind, false).front()->id;
    if (const auto f = field("routing", "algorithm")) {
      const AlgorithmTraits& algorithm = kAlgorithms[f->one_of(algorithm_names())];
      cfg_.algorithm = algorithm.id;
      if (algorithm.family != family_of(cfg_.kind)) {
        f->fail(fmt::format("is not an algorithm for topology.kind = \"{}\"; {} supports: {}",
                            to_string(cfg_.kind), to_string(cfg_.kind), names(algorithms_for(cfg_.kind, false))));
      }
      if (!algorithm.implemented) {
        f->fail(fmt::format("not implemented yet; implemented: {}", names(algorithms_for(cfg_.kind, true))));
      }
      if (algorithm.nonminimal() && cfg_.g < 3) {
        f->fail(
            fmt::format("needs an intermediate group that is neither the source nor the destination "
                        "group, so topology.g >= 3 (here g = {})",
                        cfg_.g));
      }
    }
    if (cfg_.algorithm == RoutingAlgorithm::Star && cfg_.vcs < 2) {
      config_fail(cfg_, "router.vcs", std::to_string(cfg_.vcs),
                  "routing.algorithm = \"star\" needs the escape VCs of dimension-order routing and the adaptive "
                  "VC above them: at least 2 (3 on a torus, for the two dateline classes)");
    }
    if (cfg_.algorithm == RoutingAlgorithm::Dqn && cfg_.vcs < 2) {
      config_fail(cfg_, "router.vcs", std::to_string(cfg_.vcs),
                  "routing.algorithm = \"dqn\" needs the escape VCs of dimension-order routing and the DQN VC "
                  "above them: at least 2 (3 on a torus, for the two dateline classes)");
    }
    if (const auto f = field("routing", "seed")) cfg_.seed = static_cast<std::uint64_t>(f->int_at_least(0));

    if (const auto f = field("routing", "ugal_bias")) {
      if (!traits(cfg_.algorithm).biased()) {
        f->fail(fmt::format("only valid for routing.algorithm = {}", names(algorithms_where(&AlgorithmTraits::biased), " or ")));
      }
      cfg_.ugal_bias = f->int_in(-1024, 1024);
    }
    if (const auto f = field("routing", "ugal_rule")) {
      if (!traits(cfg_.algorithm).biased()) {
        f->fail(fmt::format("only valid for routing.algorithm = {}", names(algorithms_where(&AlgorithmTraits::biased), " or ")));
      }
      cfg_.ugal_rule = kUgalRules[f->one_of(names_of(kUgalRules))].first;
    }
    if (const auto f = field("routing", "ugal_queue")) {
      if (!traits(cfg_.algorithm).biased()) {
        f->fail(fmt::format("only valid for routing.algorithm = {}", names(algorithms_where(&AlgorithmTraits::biased), " or ")));
      }
      cfg_.ugal_queue = kUgalQueues[f->one_of(names_of(kUgalQueues))].first;
    }
    if (const auto f = field("routing", "decision")) {
      if (!traits(cfg_.algorithm).biased()) {
        f->fail(fmt::format("only valid for routing.algorithm = {}", names(algorithms_where(&AlgorithmTraits::biased), " or ")));
      }
      cfg_.decision = kDecisionPoints[f->one_of(names_of(kDecisionPoints))].first;
    }
    if (const auto f = field("routing", "intra_group")) {
      if (!traits(cfg_.algorithm).draws_intermediate()) {
        f->fail(fmt::format("only valid for routing.algorithm = {}",
                            names(algorithms_where(&AlgorithmTraits::draws_intermediate), " or ")));
      }
      cfg_.intra_group = kIntraGroups[f->one_of(names_of(kIntraGroups))].first;
    }
    const auto window = field("routing", "contention_window");
    const auto threshold = field("routing", "contention_threshold");
    for (const auto& f : {window, threshold}) {
      if (f && !traits(cfg_.algorithm).contention_counters) {
        f->fail(fmt::format("only valid for routing.algorithm = {}",
                            names(algorithms_where([](const AlgorithmTraits& a) { return a.contention_counters; }), " or ")));
      }
    }
    parse_q_adaptive();
    parse_dqn();
    if (window) cfg_.contention_window = window->int_in(1, 65535);
    if (threshold) cfg_.contention_threshold = threshold->int_in(0, 65535);
    // Reported on the threshold even when it was left at its default.
    if (cfg_.contention_threshold >= cfg_.contention_window) {
      config_fail(cfg_, "routing.contention_threshold", std::to_string(cfg_.contention_threshold),
                  fmt::format("must be less than routing.contention_window = {}", cfg_.contention_window));
    }
  }

  // Q-adaptive's keys ([Kang 2021, section 4]; docs/q_adaptive.md).
  void parse_q_adaptive() {
    const bool q = traits(cfg_.algorithm).choice == PathChoice::QTable;
    const auto only_q = [q](const Field& f) {
      if (!q) f.fail("only valid for routing.algorithm = q_adaptive");
    };
    const auto fraction = [&only_q](const Field& f, const char* what) {
      only_q(f);
      const std::string rule = fmt::format("must be a number in 0..1 ({})", what);
      const double x = f.number(rule);
      if (!(x >= 0.0 && x <= 1.0)) f.fail(rule);
      return x;
    };
    if (const auto f = field("routing", "alpha")) cfg_.alpha = fraction(*f, "the learning rate when the estimate falls");
    if (const auto f = field("routing", "beta")) cfg_.beta = fraction(*f, "the learning rate when the estimate rises");
    if (const auto f = field("routing", "epsilon")) cfg_.epsilon = fraction(*f, "the probability of exploring");
    if (const auto f = field("routing", "q_thld1")) cfg_.q_thld1 = fraction(*f, "the source router's threshold");
    if (const auto f = field("routing", "q_thld2")) cfg_.q_thld2 = fraction(*f, "the intermediate router's threshold");
    if (const auto f = field("routing", "q_value_bits")) {
      only_q(*f);
      cfg_.q_value_bits = f->int_in(8, 24);
    }
    if (const auto f = field("routing", "q_fraction_bits")) {
      only_q(*f);
      cfg_.q_fraction_bits = f->int_in(0, 16);
    }
    // A Q-value must hold the zero-load estimates: at least 6 integer bits (63 cycles).
    if (q && cfg_.q_value_bits - cfg_.q_fraction_bits < 6) {
      config_fail(cfg_, "routing.q_fraction_bits", std::to_string(cfg_.q_fraction_bits),
                  fmt::format("leaves {} integer bits of routing.q_value_bits = {}; at least 6 (63 cycles) are needed",
                              cfg_.q_value_bits - cfg_.q_fraction_bits, cfg_.q_value_bits));
    }
    if (const auto f = field("routing", "q_read_ports")) {
      only_q(*f);
      const int ports = cfg_.p + cfg_.a - 1 + cfg_.h;
      cfg_.q_read_ports = static_cast<int>(f->integer(
          0, ports, fmt::format("must be an integer in 0..{} (0: one per input port; the router has {} ports)",
                                ports, ports)));
    }
    if (const auto f = field("routing", "q_decision_cycles")) {
      only_q(*f);
      cfg_.q_decision_cycles = static_cast<int>(
          f->integer(1, 2, "must be 1 or 2 (2: the row read and the decision in separate cycles)"));
    }
    if (const auto f = field("routing", "q_initial")) {
      only_q(*f);
      cfg_.q_initial = kQInitials[f->one_of(names_of(kQInitials))].first;
    }
    if (const auto f = field("routing", "q_intermediate")) {
      only_q(*f);
      cfg_.q_intermediate = kQIntermediates[f->one_of(names_of(kQIntermediates))].first;
    }
    if (const auto f = field("routing", "q_source_group")) {
      only_q(*f);
      cfg_.q_source_group = kQSourceGroups[f->one_of(names_of(kQSourceGroups))].first;
    }
    if (const auto f = field("routing", "q_stamp")) {
      only_q(*f);
      cfg_.q_stamp = kQStamps[f->one_of(names_of(kQStamps))].first;
    }
    if (const auto f = field("routing", "q_queue_weight")) {
      only_q(*f);
      cfg_.q_queue_weight = static_cast<int>(f->integer(0, 8, "must be an integer in 0..8 (cycles per queued flit; 0: "
                                                              "the table alone, as the paper)"));
    }
    if (const auto f = field("routing", "q_queue_in")) {
      only_q(*f);
      cfg_.q_queue_in = kQQueueIns[f->one_of(names_of(kQQueueIns))].first;
      if (cfg_.q_queue_in != QQueueIn::TestAndPort && cfg_.q_queue_weight == 0)
        f->fail("needs routing.q_queue_weight > 0 (without a queue weighed in, the table decides alone)");
    }
    if (const auto f = field("routing", "q_vcs")) {
      only_q(*f);
      cfg_.q_vcs = kQVcs[f->one_of(names_of(kQVcs))].first;
    }
  }

  // DQN-routing's keys ([Lonardo 2019, chapter 3]; docs/dqn.md).
  void parse_dqn() {
    const bool dqn = cfg_.algorithm == RoutingAlgorithm::Dqn;
    const auto only_dqn = [dqn](const Field& f) {
      if (!dqn) f.fail("only valid for routing.algorithm = dqn");
    };
    const int diameter = cube_diameter(cfg_);
    cfg_.dqn_hop_threshold = 2 * diameter;
    if (const auto f = field("routing", "dqn_hop_threshold")) {
      only_dqn(*f);
      // The header's 6-bit hop count must hold the threshold plus DOR's path after it.
      const int most = kMaxHeaderHops - diameter;
      cfg_.dqn_hop_threshold = static_cast<int>(f->integer(
          0, most,
          fmt::format("must be an integer in 0..{} (the header counts up to {} hops, and after the threshold "
                      "a packet may still take DOR's diameter of {})",
                      most, kMaxHeaderHops, diameter)));
    }
    if (const auto f = field("routing", "dqn_hidden")) {
      only_dqn(*f);
      const std::string rule = fmt::format("must be an array of 0..{} layer sizes, each in 1..{}", kMaxDqnHidden,
                                           kMaxDqnLayerSize);
      const std::vector<std::int64_t> sizes = f->integers(rule);
      if (sizes.size() > static_cast<size_t>(kMaxDqnHidden)) f->fail(rule);
      for (const std::int64_t n : sizes) {
        if (n < 1 || n > kMaxDqnLayerSize) f->fail(rule);
      }
      cfg_.dqn_hidden.assign(sizes.begin(), sizes.end());
    }
    const auto bits = [&only_dqn](const Field& f) {
      only_dqn(f);
      return f.int_in(2, 16);
    };
    if (const auto f = field("routing", "dqn_weight_bits")) cfg_.dqn_weight_bits = bits(*f);
    if (const auto f = field("routing", "dqn_activation_bits")) cfg_.dqn_activation_bits = bits(*f);
    const auto lanes = [&only_dqn](const Field& f) {
      only_dqn(f);
      return f.int_in(1, kMaxDqnLayerSize);
    };
    if (const auto f = field("routing", "dqn_block")) {
      only_dqn(*f);
      cfg_.dqn_block = kDqnBlocks[f->one_of(names_of(kDqnBlocks))].first;
    }
    const auto tiled_lanes = [&](const Field& f) {
      only_dqn(f);
      if (cfg_.dqn_block != DqnBlockKind::Tiled) {
        f.fail("only with routing.dqn_block = \"tiled\" (the parallel block multiplies every weight each cycle)");
      }
      return lanes(f);
    };
    if (const auto f = field("routing", "dqn_npar")) cfg_.dqn_npar = tiled_lanes(*f);
    if (const auto f = field("routing", "dqn_ipar")) cfg_.dqn_ipar = tiled_lanes(*f);
    if (dqn && cfg_.dqn_npar * cfg_.dqn_ipar > kMaxDqnMultipliers) {
      config_fail(cfg_, "routing.dqn_ipar", std::to_string(cfg_.dqn_ipar),
                  fmt::format("routing.dqn_npar x routing.dqn_ipar = {} x {} multipliers per layer; at most {}",
                              cfg_.dqn_npar, cfg_.dqn_ipar, kMaxDqnMultipliers));
    }
    if (const auto f = field("routing", "dqn_weights")) {
      only_dqn(*f);
      cfg_.dqn_weights = f->text("must be a string: the path of a weights file (rlroute train -o FILE)");
      if (cfg_.dqn_weights.empty()) f->fail("must name a weights file; leave the key out for a random network");
    }
    if (const auto f = field("routing", "dqn_agent")) {
      only_dqn(*f);
      cfg_.dqn_agent = kDqnAgents[f->one_of(names_of(kDqnAgents))].first;
    }
    if (const auto f = field("routing", "dqn_weights_mode")) {
      only_dqn(*f);
      cfg_.dqn_weights_mode = kDqnWeightsModes[f->one_of(names_of(kDqnWeightsModes))].first;
      if (cfg_.dqn_weights_mode == DqnWeightsMode::Constant && cfg_.dqn_block != DqnBlockKind::Parallel) {
        f->fail("constant weights need routing.dqn_block = \"parallel\" (the tiled block reads a weight memory)");
      }
      if (cfg_.dqn_weights_mode == DqnWeightsMode::Constant && cfg_.dqn_agent != DqnAgentKind::Block) {
        f->fail("constant weights need routing.dqn_agent = \"block\" (with the agent outside there is no block)");
      }
    }
    if (const auto f = field("routing", "dqn_fallback")) {
      only_dqn(*f);
      cfg_.dqn_fallback = kDqnFallbacks[f->one_of(names_of(kDqnFallbacks))].first;
    }
    if (const auto f = field("routing", "dqn_dor_vcs")) {
      only_dqn(*f);
      cfg_.dqn_dor_vcs = kDqnDorVcs[f->one_of(names_of(kDqnDorVcs))].first;
    }
    if (const auto f = field("routing", "dqn_episodes")) {
      only_dqn(*f);
      cfg_.dqn_episodes = f->int_in(0, kMaxDqnEpisodes);
      // Each input port holds a free entry in reserve (rtl/rr_dqn_episodes.sv).
      const int ports = Topology(cfg_).num_ports();
      if (cfg_.dqn_episodes > 0 && cfg_.dqn_episodes < ports) {
        f->fail(fmt::format("must be 0 (no episode table) or at least the router's {} ports: each input port "
                            "holds a free entry for its next head",
                            ports));
      }
    }
    if (const auto f = field("routing", "dqn_ack_ratio")) {
      only_dqn(*f);
      cfg_.dqn_ack_ratio = f->int_in(0, kMaxDqnAckRatio);
    }
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

    // Packet sizes: 0 or router.min_packet_flits..router.max_packet_flits.
    const int min_flits = cfg_.min_packet_flits, max_flits = cfg_.max_packet_flits;
    const auto packet_size = [min_flits, max_flits](const Field& f) {
      const std::string rule = fmt::format(
          "must be 0 or an integer in router.min_packet_flits = {}..router.max_packet_flits = {}", min_flits,
          max_flits);
      const auto flits = static_cast<int>(f.integer(0, max_flits, rule));
      if (flits > 0 && flits < min_flits) f.fail(rule);
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
    if (const auto f = field("sim", "threads")) sim.threads = f->int_in(1, kMaxSimThreads);
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

  // The topology and router sections are valid by now, so the model can count.
  int node_count() const { return Topology(cfg_).num_nodes(); }

  static TopologyFamily family_of(TopologyKind kind) {
    return kind == TopologyKind::Dragonfly ? TopologyFamily::Dragonfly : TopologyFamily::Cube;
  }

  static constexpr std::array<const char*, kAlgorithms.size()> algorithm_names() {
    std::array<const char*, kAlgorithms.size()> names{};
    for (std::size_t i = 0; i < kAlgorithms.size(); ++i) names[i] = kAlgorithms[i].name.data();
    return names;
  }

  template <typename Predicate>
  static std::vector<const AlgorithmTraits*> algorithms_where(Predicate keep) {
    std::vector<const AlgorithmTraits*> rows;
    for (const AlgorithmTraits& a : kAlgorithms) {
      if (std::invoke(keep, a)) rows.push_back(&a);
    }
    return rows;
  }

  // The algorithms of a topology kind (only the implemented ones if asked).
  static std::vector<const AlgorithmTraits*> algorithms_for(TopologyKind kind, bool implemented_only) {
    return algorithms_where([&](const AlgorithmTraits& a) {
      return a.family == family_of(kind) && (a.implemented || !implemented_only);
    });
  }

  // "a, b, c", or "a, b or c" with last = " or ".
  static std::string names(const std::vector<const AlgorithmTraits*>& rows, std::string_view last = ", ") {
    std::string out;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      out += i == 0 ? std::string_view() : i + 1 == rows.size() ? last : std::string_view(", ");
      out += rows[i]->name;
    }
    return out;
  }

  const toml::table& root_;
  Config cfg_;
};

}  // namespace

const char* to_string(TopologyKind kind) { return spelling_of(kTopologyKinds, kind); }
const char* to_string(GlobalArrangement arrangement) { return spelling_of(kArrangements, arrangement); }
const char* to_string(IntraGroup intra_group) { return spelling_of(kIntraGroups, intra_group); }
const char* to_string(BufferRead read) { return spelling_of(kBufferReads, read); }
const char* to_string(SwitchAllocation allocation) { return spelling_of(kSwitchAllocations, allocation); }
const char* to_string(UgalRule rule) { return spelling_of(kUgalRules, rule); }
const char* to_string(UgalQueue queue) { return spelling_of(kUgalQueues, queue); }
const char* to_string(DecisionPoint point) { return spelling_of(kDecisionPoints, point); }
const char* to_string(QInitial initial) { return spelling_of(kQInitials, initial); }
const char* to_string(QIntermediate intermediate) { return spelling_of(kQIntermediates, intermediate); }
const char* to_string(QSourceGroup source_group) { return spelling_of(kQSourceGroups, source_group); }
const char* to_string(QQueueIn queue_in) { return spelling_of(kQQueueIns, queue_in); }
const char* to_string(QVcs vcs) { return spelling_of(kQVcs, vcs); }
const char* to_string(QStamp stamp) { return spelling_of(kQStamps, stamp); }
const char* to_string(DqnAgentKind agent) { return spelling_of(kDqnAgents, agent); }
const char* to_string(DqnFallback fallback) { return spelling_of(kDqnFallbacks, fallback); }
const char* to_string(DqnDorVcs vcs) { return spelling_of(kDqnDorVcs, vcs); }
const char* to_string(DqnBlockKind block) { return spelling_of(kDqnBlocks, block); }
const char* to_string(DqnWeightsMode mode) { return spelling_of(kDqnWeightsModes, mode); }

int cube_diameter(const Config& cfg) {
  int diameter = 0;
  for (const int k : cfg.dims) diameter += cfg.kind == TopologyKind::Torus ? k / 2 : k - 1;
  return diameter;
}

namespace {
int source_group_hops(const Config& cfg) {
  return cfg.algorithm == RoutingAlgorithm::QAdaptive && cfg.q_source_group != QSourceGroup::Minimal ? 1 : 0;
}
}  // namespace

int vc_levels(const Config& cfg) { return traits(cfg.algorithm).vc_levels + source_group_hops(cfg); }
int hop_bound(const Config& cfg) { return traits(cfg.algorithm).hop_bound + source_group_hops(cfg); }

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
  std::string text;
  try {
    text = read_regular_file(path, kMaxConfigBytes, "config file");
  } catch (const std::runtime_error& e) {
    throw ConfigError(e.what());
  }
  return parse_config(text, path);
}

}  // namespace rlroute
