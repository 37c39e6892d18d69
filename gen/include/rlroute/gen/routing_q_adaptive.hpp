// Q-adaptive's routing relation ([Kang 2021], section 4, Figure 4; the authors'
// code where the paper is silent: docs/q_adaptive.md): every path the learned
// decisions can take, the epsilon-greedy exploration included, so that the
// generator's deadlock check and the test bench's route checker cover them.
//
// Decision points, each offering every network port of the router (the
// table's best port, the minimal one, a random local one, or any port by
// exploration):
//   - the source router, unless the destination is in its own group;
//   - the first router of an intermediate group (entered by a non-minimal
//     global hop from the source router), unless it has a global link to the
//     destination group (then minimal, as the authors' code);
//   - with routing.q_source_group = "decide" (beyond the paper), the next
//     router of the source group, reached by the source's minimal local
//     hop, offering its global ports (the minimal one kept Minimal, another
//     into a third group ToIntermediate).
// Everywhere else the packet goes minimally. At most 5 router-to-router hops
// (6 with the source group's decision: hop_bound(cfg)).
//
// VCs: a hop's VC level is the number of router-to-router hops before it
// (0 out of the source router), the VCs split into min(levels, vcs) contiguous
// groups as DragonflyRouting::level_vcs does; levels only rise, so the
// escape channel dependency graph is acyclic when every level has its own
// VCs. With routing.q_vcs = "rising" a hop after which the packet decides no
// more may also take any higher level that leaves one level (VC group) for
// each of its remaining hops: every hop still rises, and a packet that rose
// never shares the last group, so the graph stays acyclic.
//
// Route state (the header's phase; no intermediate is named): a packet that
// leaves the source router by its minimal port stays Minimal; one that leaves
// by another port is non-minimal: ToIntermediate when the port is a global
// link into a third group (the router it lands on is the second decision
// point, and the packet arrives there by a global port), FromIntermediate
// (minimal from there) when it leads to a router of the source or the
// destination group. Every hop out of the second decision point is
// FromIntermediate.
#pragma once

#include "rlroute/gen/routing.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"

namespace rlroute {

class QAdaptiveRouting : public RoutingRelation {
 public:
  explicit QAdaptiveRouting(const Design& design);
  std::string name() const override { return "q_adaptive"; }
  std::vector<RouteOption> next_hops(int router, int in_port, int in_vc, const RouteState& state) const override;
  std::uint32_t injection_vcs() const override { return dragonfly_.level_vcs(0); }
  int hop_bound() const override;
  std::uint32_t escape_vcs() const override { return all_vcs_mask(design_.vcs); }
  RouteState canonical(const RouteState& state) const override;

  // Whether the router decides by its Q-table for a packet in state `s`
  // entering through `in_port` (the two decision points above).
  bool decision_point(int router, int in_port, const RouteState& s) const;
  // Whether the head goes to the router's Q unit before it asks for an
  // output VC (rr_route_q_adaptive's decide_o): to decide, to read its row for the
  // Q_y it sends upstream, or to send feedback (Q_y = 0) into the
  // destination group. The registered decision costs such a head one cycle
  // at zero load.
  bool presented_at_head(int router, int in_port, const RouteState& s) const;

 private:
  // The hop's VCs: its level (hops taken), and for a `settled` hop (routing.q_vcs
  // = "rising", no decision after it) the levels above it that leave one for each later hop.
  RouteOption hop(int router, int in_port, int in_vc, int out_port, const RouteState& next, bool settled) const;
  int minimal_hops(int router, int dst_router) const;
  bool rising() const { return design_.cfg.q_vcs == QVcs::Rising; }
  // Whether no decision point lies on the minimal path after the hop out of
  // `router` through `out_port` in state `next`.
  bool decides_no_more(int router, int out_port, const RouteState& next) const;
  std::vector<RouteOption> minimal(int router, int in_port, int in_vc, const RouteState& s) const;
  // Every network port (in the source group's next router: every global
  // port), each with the state the packet leaves with.
  std::vector<RouteOption> every_port(int router, int in_port, int in_vc, const RouteState& s) const;
  // routing.q_source_group = "decide" and the packet is at the next router
  // of its source group (decision point 4).
  bool source_group_decides(int in_port, const RouteState& s) const;

  const Design& design_;
  const Topology& topo_;
  DragonflyRouting dragonfly_;  // minimal ports and VC levels
};

}  // namespace rlroute
