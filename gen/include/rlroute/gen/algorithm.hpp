// The routing algorithms and their traits: one row per algorithm, the one
// home of its name, topology family, VC levels, hop bound, header route state
// and backend. Config validation, the design (header layout), the relation
// factory, the emitter and the tests all read this table; the RTL knows no
// algorithm (its blocks take the traits as parameters).
//
// Adding an algorithm: one row here and its backend, a folder of gen/src
// (cube/, dqn/, dragonfly/, q_adaptive/): its relation (chosen by
// make_routing_relation) and its part of the emitted RTL (gen/src/backend.hpp:
// route units, decision units, side-bands, blocks); the router core it needs
// is derived from the row (rlroute/gen/router_core.hpp).
#pragma once

#include <array>
#include <string_view>

namespace rlroute {

enum class RoutingAlgorithm { Dor, Star, Dqn, Min, Valg, Valn, UgalG, UgalN, UgalLe, Par, QAdaptive };

// The topologies an algorithm routes on: k-ary n-cubes (torus and mesh) or dragonflies.
enum class TopologyFamily { Cube, Dragonfly };

// What a packet carries in its header for the algorithm (fields phase and inter).
enum class RouteStateFields {
  None,                // minimal only: no phase, no intermediate
  IntermediateGroup,   // Valiant through a group (entered at any router of it)
  IntermediateRouter,  // Valiant through a router
  PhaseOnly,           // a phase and no intermediate (Q-adaptive: the table's choices name none)
};

// Where the algorithm chooses between a minimal and a non-minimal path.
enum class PathChoice {
  MinimalOnly,    // DOR, MIN
  AlwaysValiant,  // VALg, VALn: every packet takes a random intermediate
  AtSource,       // UGAL-L g/n, UGAL-LE: at the source router, by queue lengths and a bias
  AtSourceGroup,  // PAR: at the source router and again at the next router of the source group
  QTable,         // Q-adaptive: at the source router and the first router of an intermediate group, by the Q-table
};

// What a decision at the head of the VC does (rr_router's head-decision
// seam: a decision unit outside the core, asked when the packet requests an
// output VC; docs/architecture.md, "The router core").
enum class HeadDecisionKind {
  None,          // decides at buffer write, or nothing to decide
  Alternative,   // picks the route unit's minimal route or its alternative (star)
  Configurable,  // the same, at the point routing.decision names (UGAL, PAR)
  NamesPort,     // the decision unit names the port (Q-adaptive, DQN-routing)
};

// The header field a decision at the head of the VC sets when it leaves the
// minimal route.
enum class PatchedField {
  None,   // star: the adaptive VC needs no mark
  Phase,  // the non-minimal route's phase (UGAL, PAR, Q-adaptive)
  Pdor,   // DQN-routing's escape to DOR (routing.dqn_fallback = "pdor")
};

// The generator backend that emits an algorithm's part of a design: its
// route units, decision units, side-bands and RTL blocks (one folder of
// gen/src each: cube/, dqn/, dragonfly/, q_adaptive/).
enum class Backend { Cube, DqnRouting, Dragonfly, QAdaptive };

struct AlgorithmTraits {
  RoutingAlgorithm id;
  std::string_view name;  // routing.algorithm = "<name>"
  TopologyFamily family;
  bool implemented;
  // VC levels (dragonfly) or VCs on a torus (DOR: its two dateline classes;
  // star: those and the adaptive VC; a mesh needs one VC fewer) the deadlock
  // argument needs: with fewer VCs the generator's dependency check fails
  // (docs/architecture.md, docs/routing_dragonfly.md). 0: not implemented yet.
  int vc_levels;
  // Upper bound on router-to-router hops; 0: derived from the topology (DOR:
  // the sum of the per-dimension distances).
  int hop_bound;
  RouteStateFields route_state;
  PathChoice choice;
  bool contention_counters;  // UGAL-LE: per-port counters of active flows
  HeadDecisionKind head_decision;
  PatchedField patched;
  Backend backend;

  constexpr bool nonminimal() const { return route_state != RouteStateFields::None; }
  // The header names the intermediate (field inter).
  constexpr bool names_intermediate() const {
    return route_state == RouteStateFields::IntermediateGroup || route_state == RouteStateFields::IntermediateRouter;
  }
  // Sends packets through an intermediate drawn by the algorithm (Valiant,
  // UGAL, PAR; not Q-adaptive, whose non-minimal hops are the table's
  // choices): routing.intra_group applies.
  constexpr bool draws_intermediate() const { return nonminimal() && choice != PathChoice::QTable; }
  // Its route state holds the packet's hop count and Pdor flag (DQN-routing:
  // the hop threshold and the escape to DOR; docs/dqn.md).
  constexpr bool routes_by_hops() const { return id == RoutingAlgorithm::Dqn; }
  // Compares a minimal and a non-minimal candidate (takes routing.ugal_bias).
  constexpr bool biased() const { return choice == PathChoice::AtSource || choice == PathChoice::AtSourceGroup; }
};

// clang-format off
inline constexpr std::array<AlgorithmTraits, 11> kAlgorithms{{
//  id                            name          family                      impl  levels hops route state                           path choice                  LE     head decision                      patched               backend
  {RoutingAlgorithm::Dor,       "dor",        TopologyFamily::Cube,      true,  2,    0,   RouteStateFields::None,               PathChoice::MinimalOnly,     false, HeadDecisionKind::None,          PatchedField::None,  Backend::Cube},
  {RoutingAlgorithm::Star,      "star",       TopologyFamily::Cube,      true,  3,    0,   RouteStateFields::None,               PathChoice::MinimalOnly,     false, HeadDecisionKind::Alternative,   PatchedField::None,  Backend::Cube},
  {RoutingAlgorithm::Dqn,       "dqn",        TopologyFamily::Cube,      true,  3,    0,   RouteStateFields::None,               PathChoice::MinimalOnly,     false, HeadDecisionKind::NamesPort,     PatchedField::Pdor,  Backend::DqnRouting},
  {RoutingAlgorithm::Min,       "min",        TopologyFamily::Dragonfly, true,  2,    3,   RouteStateFields::None,               PathChoice::MinimalOnly,     false, HeadDecisionKind::None,          PatchedField::None,  Backend::Dragonfly},
  {RoutingAlgorithm::Valg,      "valg",       TopologyFamily::Dragonfly, true,  3,    5,   RouteStateFields::IntermediateGroup,  PathChoice::AlwaysValiant,   false, HeadDecisionKind::None,          PatchedField::None,  Backend::Dragonfly},
  {RoutingAlgorithm::Valn,      "valn",       TopologyFamily::Dragonfly, true,  4,    6,   RouteStateFields::IntermediateRouter, PathChoice::AlwaysValiant,   false, HeadDecisionKind::None,          PatchedField::None,  Backend::Dragonfly},
  {RoutingAlgorithm::UgalG,     "ugal_g",     TopologyFamily::Dragonfly, true,  3,    5,   RouteStateFields::IntermediateGroup,  PathChoice::AtSource,        false, HeadDecisionKind::Configurable,  PatchedField::Phase, Backend::Dragonfly},
  {RoutingAlgorithm::UgalN,     "ugal_n",     TopologyFamily::Dragonfly, true,  4,    6,   RouteStateFields::IntermediateRouter, PathChoice::AtSource,        false, HeadDecisionKind::Configurable,  PatchedField::Phase, Backend::Dragonfly},
  {RoutingAlgorithm::UgalLe,    "ugal_le",    TopologyFamily::Dragonfly, true,  4,    6,   RouteStateFields::IntermediateRouter, PathChoice::AtSource,        true,  HeadDecisionKind::Configurable,  PatchedField::Phase, Backend::Dragonfly},
  {RoutingAlgorithm::Par,       "par",        TopologyFamily::Dragonfly, true,  5,    7,   RouteStateFields::IntermediateRouter, PathChoice::AtSourceGroup,   false, HeadDecisionKind::Configurable,  PatchedField::Phase, Backend::Dragonfly},
  {RoutingAlgorithm::QAdaptive, "q_adaptive", TopologyFamily::Dragonfly, true,  5,    5,   RouteStateFields::PhaseOnly,          PathChoice::QTable,          false, HeadDecisionKind::NamesPort,     PatchedField::Phase, Backend::QAdaptive},
}};
// clang-format on

constexpr const AlgorithmTraits& traits(RoutingAlgorithm algorithm) {
  for (const AlgorithmTraits& t : kAlgorithms) {
    if (t.id == algorithm) return t;
  }
  return kAlgorithms.front();  // unreachable: every enumerator has a row (static_assert below)
}

constexpr bool every_algorithm_has_its_row() {
  for (std::size_t i = 0; i < kAlgorithms.size(); ++i) {
    if (static_cast<std::size_t>(kAlgorithms[i].id) != i) return false;
  }
  return true;
}
static_assert(every_algorithm_has_its_row(), "kAlgorithms: one row per RoutingAlgorithm, in enum order");

// The row named `name` (routing.algorithm spelling), or nullptr.
const AlgorithmTraits* find_algorithm(std::string_view name);

const char* to_string(RoutingAlgorithm algorithm);

}  // namespace rlroute
