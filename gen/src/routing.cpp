// What every routing relation shares: the route state in the header, and the
// choice of relation for a config.
#include "rlroute/gen/routing.hpp"

#include <fmt/format.h>

#include "rlroute/gen/routing_dor.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"
#include "rlroute/gen/routing_q_adaptive.hpp"
#include "rlroute/gen/routing_dqn.hpp"
#include "rlroute/gen/routing_star.hpp"

namespace rlroute {

std::uint32_t all_vcs_mask(int vcs) { return vcs >= 32 ? ~0u : ((1u << vcs) - 1); }

RouteState route_state_of(const Design& design, const Header& header) {
  const Topology& t = design.topo;
  RouteState s;
  s.dst = t.node_of_address(header.dst);
  s.src = t.node_of_address(header.src);
  s.mode = static_cast<RouteMode>(header.phase);
  // PAR's minimal packets carry the source's candidate intermediate too
  // (docs/routing_dragonfly.md, PAR).
  const AlgorithmTraits& algorithm = traits(design.cfg.algorithm);
  const bool keeps_candidate = algorithm.choice == PathChoice::AtSourceGroup;
  const bool named = algorithm.names_intermediate() && (s.mode != RouteMode::Minimal || keeps_candidate);
  s.inter = named ? t.router_of_id(header.inter) : -1;
  if (algorithm.routes_by_hops()) {
    s.hops = static_cast<int>(header.hops);
    s.pdor = header.pdor;
  }
  return s;
}

void set_route_state(const Design& design, const RouteState& state, Header& header) {
  const Topology& t = design.topo;
  header.dst = t.address_of(state.dst);
  header.src = t.address_of(state.src);
  header.phase = static_cast<unsigned>(state.mode);
  header.inter = state.inter < 0 ? 0u : t.router_id(state.inter);
  if (traits(design.cfg.algorithm).routes_by_hops()) {
    header.hops = static_cast<unsigned>(state.hops);
    header.pdor = state.pdor;
  }
}

std::string describe(const Design& design, const RouteState& state) {
  static const char* modes[] = {"minimal", "to intermediate", "from intermediate", "source detour"};
  std::string s = fmt::format("node {} -> node {}, {}", state.src, state.dst, modes[static_cast<int>(state.mode)]);
  if (state.inter >= 0) s += fmt::format(" {}", design.topo.router_name(state.inter));
  if (traits(design.cfg.algorithm).routes_by_hops()) s += fmt::format(", {} hops{}", state.hops, state.pdor ? ", Pdor" : "");
  return s;
}

std::unique_ptr<RoutingRelation> make_routing_relation(const Design& design) {
  const AlgorithmTraits& algorithm = traits(design.cfg.algorithm);
  // The config accepts only implemented algorithms of the topology's family.
  if (!algorithm.implemented) {
    config_fail(design.cfg, "routing.algorithm", fmt::format("\"{}\"", algorithm.name), "has no routing relation yet");
  }
  // Each backend's relation; the cube backend's star-channel is DOR with an
  // alternative decided at the head of the VC.
  switch (algorithm.backend) {
    case Backend::Cube:
      if (algorithm.head_decision == HeadDecisionKind::Alternative) return std::make_unique<StarRouting>(design);
      return std::make_unique<DorRouting>(design);
    case Backend::DqnRouting: return std::make_unique<DqnRouting>(design, design.cfg.dqn_hop_threshold);
    case Backend::Dragonfly: return std::make_unique<DragonflyRouting>(design);
    case Backend::QAdaptive: return std::make_unique<QAdaptiveRouting>(design);
  }
  return nullptr;  // unreachable: every Backend has a case
}

}  // namespace rlroute
