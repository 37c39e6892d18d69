// Dragonfly routing relations: MIN, VALg, VALn, UGAL-L (g and n), UGAL-LE and
// PAR (docs/routing_dragonfly.md). One relation covers them all: the
// algorithm decides which decision points offer non-minimal options.
//
// VC levels: every hop's VC level is the previous hop's level, plus one when
// the previous hop was global, or when both the previous hop and this one are
// local (injection starts at level 0). Within one level a packet can only go
// local -> global, so the channel dependency graph restricted to a level has
// no cycle, and levels never decrease: deadlock-free with as many VC groups as
// the longest path needs levels (MIN 2, VALg/UGAL-g 3, VALn/UGAL-n/UGAL-LE 4,
// PAR 5).
#pragma once

#include "rlroute/gen/routing.hpp"

namespace rlroute {

// The algorithm's traits as the dragonfly route unit takes them (rtl/rr_route_dfly.sv,
// parameters of the same names in upper case), derived from its row of kAlgorithms.
struct DragonflyRouteTraits {
  bool route_state;         // the header carries phase and intermediate (all but MIN)
  bool always_valiant;      // every packet takes a random intermediate (VALg, VALn)
  bool group_intermediate;  // the intermediate is a group, entered at any of its routers
  bool adaptive;            // compares the minimal and a non-minimal route with a bias
  bool contention;          // UGAL-LE's contention factors in that comparison
  bool redivert;            // may divert again at the next router of the source group (PAR)
  bool operator==(const DragonflyRouteTraits&) const = default;
};

constexpr DragonflyRouteTraits dragonfly_route_traits(const AlgorithmTraits& a) {
  return {.route_state = a.names_intermediate(),
          .always_valiant = a.choice == PathChoice::AlwaysValiant,
          .group_intermediate = a.route_state == RouteStateFields::IntermediateGroup,
          .adaptive = a.biased(),
          .contention = a.contention_counters,
          .redivert = a.choice == PathChoice::AtSourceGroup};
}

class DragonflyRouting : public RoutingRelation {
 public:
  explicit DragonflyRouting(const Design& design);
  std::string name() const override;
  std::vector<RouteOption> next_hops(int router, int in_port, int in_vc,
                                     const RouteState& state) const override;
  std::uint32_t injection_vcs() const override { return level_vcs(0); }
  int hop_bound() const override;
  std::uint32_t escape_vcs() const override { return all_vcs_mask(design_.vcs); }
  RouteState canonical(const RouteState& state) const override;

  // VC levels the algorithm's longest path needs.
  int levels() const;
  // The VCs of a level: the VCs are split into min(levels, vcs) contiguous
  // groups; a level beyond the last group uses the last group (too few VCs:
  // the generator's dependency check then finds the cycle).
  std::uint32_t level_vcs(int level) const;
  int level_of(int vc) const;
  // Level of the hop from (in_port, in_vc) out through out_port.
  int next_level(int in_port, int in_vc, int out_port) const;

  // Minimal output port of `router` towards router `target` / group `group`
  // (not reached yet). Between groups: the router's own global link to the
  // group if it has one (lowest copy), else (towards a router) the local port
  // to the owner of a link that lands on the target, else the local port to
  // the owner of link copy (index in group mod l) of the l links to the group.
  int min_port_to_router(int router, int target) const;
  int min_port_to_group(int router, int group) const;
  // The intermediates a Valiant path may use from a router in group `from` to
  // node `dst`: every group other than `from` and dst's group (as the
  // group's router 0) for the g forms, every router of those groups for the
  // n forms.
  std::vector<int> intermediates(int from_group, int dst) const;
  bool at_intermediate(int router, int inter) const;
  bool intermediate_is_group() const;
  // Whether an adaptive algorithm (UGAL, PAR) chooses between the minimal and
  // a non-minimal route for a packet in state `s` entering `router` through
  // `in_port` (rr_route_dfly's `decide`): at the source router, and for PAR
  // also at the next router of the source group against a legal candidate.
  // With routing.decision = "vc_head_registered" each such hop costs one
  // cycle more at zero load.
  bool decision_open(int router, int in_port, const RouteState& s) const;
  // Whether a packet entering through `in_port` can have an open choice at
  // all (decision_open for some state): the NI ports, and for PAR the local
  // ports. Only these input ports get the decision hardware.
  bool decides_at(int in_port) const;

 private:
  std::vector<RouteOption> minimal(int router, int in_port, int in_vc, const RouteState& s) const;
  std::vector<RouteOption> valiant(int router, int in_port, int in_vc, const RouteState& s) const;
  // The non-minimal option through one intermediate.
  RouteOption via(int router, int in_port, int in_vc, const RouteState& s, int inter) const;
  RouteOption hop(int in_port, int in_vc, int out_port, const RouteState& next) const;

  const Design& design_;
  const Topology& topo_;
  RoutingAlgorithm algorithm_;
};

}  // namespace rlroute
