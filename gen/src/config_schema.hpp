// The config's schema: its sections and keys (the table is in
// config_schema.cpp), the rule for design names, and the spellings of the
// enums (the routing algorithms' spellings are their rows in
// rlroute/gen/algorithm.hpp). The rules on values are in config.cpp.
#pragma once

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

constexpr std::array<Spelling<QIntermediate>, 2> kQIntermediates{{
    {QIntermediate::Random, "random"},
    {QIntermediate::Best, "best"},
}};

constexpr std::array<Spelling<QSourceGroup>, 3> kQSourceGroups{{
    {QSourceGroup::Minimal, "minimal"},
    {QSourceGroup::Decide, "decide"},
    {QSourceGroup::Detour, "detour"},
}};

constexpr std::array<Spelling<QQueueIn>, 2> kQQueueIns{{
    {QQueueIn::TestAndPort, "test_and_port"},
    {QQueueIn::Port, "port"},
}};

constexpr std::array<Spelling<QVcs>, 2> kQVcs{{
    {QVcs::PerHop, "per_hop"},
    {QVcs::Rising, "rising"},
}};

constexpr std::array<Spelling<QInitial>, 2> kQInitials{{
    {QInitial::ZeroLoad, "zero_load"},
    {QInitial::Flat, "flat"},
}};

constexpr std::array<Spelling<QStamp>, 3> kQStamps{{
    {QStamp::Arrival, "arrival"},
    {QStamp::Crossbar, "crossbar"},
    {QStamp::Request, "request"},
}};

constexpr std::array<Spelling<DqnAgentKind>, 2> kDqnAgents{{
    {DqnAgentKind::Block, "block"},
    {DqnAgentKind::External, "external"},
}};

constexpr std::array<Spelling<DqnFallback>, 2> kDqnFallbacks{{
    {DqnFallback::Pdor, "pdor"},
    {DqnFallback::Hop, "hop"},
}};

constexpr std::array<Spelling<DqnDorVcs>, 2> kDqnDorVcs{{
    {DqnDorVcs::Escape, "escape"},
    {DqnDorVcs::All, "all"},
}};

constexpr std::array<Spelling<DqnBlockKind>, 2> kDqnBlocks{{
    {DqnBlockKind::Tiled, "tiled"},
    {DqnBlockKind::Parallel, "parallel"},
}};

constexpr std::array<Spelling<DqnWeightsMode>, 2> kDqnWeightsModes{{
    {DqnWeightsMode::Programmable, "programmable"},
    {DqnWeightsMode::Constant, "constant"},
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

// Which topology family's configs may set a key; a key of the other family is
// an error (one that names what to use instead, for a torus or mesh key).
enum class KeyFamily { Any, TorusMesh, Dragonfly };

// A key's default as docs/config.md shows it: the value a default-constructed
// Config holds (its member initialisers are the default's one home), or a
// rule in words ("required", "twice the diameter").
struct KeyDefault {
  constexpr KeyDefault(const char* rule) : rule(rule) {}
  constexpr KeyDefault(std::string (*value)(const Config&)) : value(value) {}
  std::string text(const Config& cfg) const { return value != nullptr ? value(cfg) : std::string(rule); }

  std::string_view rule;
  std::string (*value)(const Config&) = nullptr;  // the value in cfg, as the doc writes it
};

// One config key: the schema that the unknown-key and other-family checks and
// docs/config.md's key tables (config_key_tables_markdown) come from. The
// rules on values are in config.cpp.
struct ConfigKey {
  std::string_view section;
  std::string_view name;
  KeyFamily family;
  std::string_view type;  // type, default, range and meaning as docs/config.md shows them
  KeyDefault default_value;
  std::string_view range;
  std::string_view meaning;  // kInRowAbove: documented in one row with the key above
  std::string_view instead = {};  // torus and mesh keys: what a dragonfly config uses instead
};

inline constexpr std::string_view kInRowAbove{};

// Every key, section by section in the order the checks run (design,
// topology, router, routing, sim); the keys of a section in the order the
// unknown-key error lists them.
std::span<const ConfigKey> config_keys();
// The sections, in that order.
std::vector<std::string_view> config_sections();
// The keys of a section, in that order (none for an unknown section).
std::vector<std::string_view> section_keys(std::string_view section);

inline bool key_applies(const ConfigKey& key, TopologyKind kind) {
  return key.family == KeyFamily::Any || (key.family == KeyFamily::Dragonfly) == (kind == TopologyKind::Dragonfly);
}

constexpr std::size_t kMaxNameLength = 41;
constexpr const char* kNameRule =
    "must be a string matching ^[A-Za-z][A-Za-z0-9_]{0,40}$ "
    "(it becomes a SystemVerilog identifier prefix)";

// Names of modules in rtl/ start with this prefix; a design name must not
// make its modules (NAME_router, NAME_pkg, ...) collide with them.
inline constexpr std::string_view kLibraryModulePrefix = "rr";

}  // namespace rlroute::config_detail
