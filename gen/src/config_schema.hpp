// The config's schema: its sections and keys, the rule for design names, and
// the spellings of the topology enums (the routing algorithms' spellings are
// their rows in rlroute/gen/algorithm.hpp). The rules on values are in config.cpp.
#pragma once

#include <algorithm>
#include <array>
#include <span>
#include <string_view>
#include <utility>

#include "rlroute/gen/config.hpp"

namespace rlroute::config_detail {

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

constexpr std::array<Spelling<IntraGroup>, 2> kIntraGroups{{
    {IntraGroup::Minimal, "minimal"},
    {IntraGroup::Valiant, "valiant"},
}};

constexpr std::array<Spelling<UgalRule>, 2> kUgalRules{{
    {UgalRule::HopWeighted, "hop_weighted"},
    {UgalRule::DoubleNonminimal, "double_nonminimal"},
}};

constexpr std::array<Spelling<UgalQueue>, 2> kUgalQueues{{
    {UgalQueue::CreditsAndWaiting, "credits_and_waiting"},
    {UgalQueue::Credits, "credits"},
}};

constexpr std::array<Spelling<DecisionPoint>, 3> kDecisionPoints{{
    {DecisionPoint::VcHead, "vc_head"},
    {DecisionPoint::VcHeadRegistered, "vc_head_registered"},
    {DecisionPoint::BufferWrite, "buffer_write"},
}};

constexpr std::array<Spelling<DqnAgentKind>, 2> kDqnAgents{{
    {DqnAgentKind::Block, "block"},
    {DqnAgentKind::External, "external"},
}};

constexpr std::array<Spelling<DqnFallback>, 2> kDqnFallbacks{{
    {DqnFallback::Pdor, "pdor"},
    {DqnFallback::Hop, "hop"},
}};

constexpr std::array<Spelling<BufferRead>, 2> kBufferReads{{
    {BufferRead::Async, "async"},
    {BufferRead::Registered, "registered"},
}};

constexpr std::array<Spelling<SwitchAllocation>, 2> kSwitchAllocations{{
    {SwitchAllocation::AfterVc, "after_vc"},
    {SwitchAllocation::Speculative, "speculative"},
}};


template <typename Enum, std::size_t N>
constexpr const char* spelling_of(const std::array<Spelling<Enum>, N>& table, Enum value) {
  for (const auto& [entry, name] : table) {
    if (entry == value) return name;
  }
  return "?";
}

template <typename Enum, std::size_t N>
constexpr std::array<const char*, N> names_of(const std::array<Spelling<Enum>, N>& table) {
  std::array<const char*, N> names{};
  std::transform(table.begin(), table.end(), names.begin(), [](const auto& s) { return s.second; });
  return names;
}

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
constexpr std::array<std::string_view, 10> kRouterKeys{
    "vcs", "buffer_flits", "flit_bits", "min_packet_flits", "max_packet_flits", "nodes_per_router", "speedup",
    "output_buffer_flits", "buffer_read", "switch_allocation",
};
constexpr std::array<std::string_view, 29> kRoutingKeys{
    "algorithm", "seed",       "ugal_bias",  "contention_window", "contention_threshold",
    "intra_group", "ugal_rule", "ugal_queue", "decision",
    // q_adaptive
    "alpha", "beta", "epsilon", "q_thld1", "q_thld2", "q_value_bits", "q_fraction_bits", "q_read_ports",
    "q_decision_cycles",
    // dqn
    "dqn_hop_threshold", "dqn_hidden", "dqn_weight_bits", "dqn_activation_bits", "dqn_npar", "dqn_ipar",
    "dqn_weights", "dqn_agent", "dqn_fallback", "dqn_episodes", "dqn_ack_ratio",
};
constexpr std::array<std::string_view, 12> kSimKeys{
    "pattern", "load",  "packet_flits", "packet_flits_min", "packet_flits_max", "cycles",
    "warmup",  "drain", "seed",         "hotspot_fraction", "hotspot_node",     "threads",
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

inline const SectionSpec* find_section(std::string_view name) {
  const auto* it =
      std::find_if(kSections.begin(), kSections.end(), [&](const SectionSpec& s) { return s.name == name; });
  return it == kSections.end() ? nullptr : &*it;
}

// Names of modules in rtl/ start with this prefix; a design name must not
// make its modules (NAME_router, NAME_pkg, ...) collide with them.
inline constexpr std::string_view kLibraryModulePrefix = "rr";

}  // namespace rlroute::config_detail
