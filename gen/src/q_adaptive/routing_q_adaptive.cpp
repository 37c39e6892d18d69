// Q-adaptive's routing relation; the rule and its deadlock argument are in
// gen/include/rlroute/gen/routing_q_adaptive.hpp and docs/q_adaptive.md.
#include "rlroute/gen/routing_q_adaptive.hpp"

namespace rlroute {

QAdaptiveRouting::QAdaptiveRouting(const Design& design)
    : design_(design), topo_(design.topo), dragonfly_(design) {}

int QAdaptiveRouting::hop_bound() const { return rlroute::hop_bound(design_.cfg); }

RouteState QAdaptiveRouting::canonical(const RouteState& state) const {
  RouteState c = state;
  c.src = 0;  // no decision reads the source
  return c;
}

RouteOption QAdaptiveRouting::hop(int router, int in_port, int in_vc, int out_port, const RouteState& next,
                                  bool settled) const {
  if (topo_.is_ni_port(out_port)) return {out_port, all_vcs_mask(design_.vcs), next};
  const int level = topo_.is_ni_port(in_port) ? 0 : dragonfly_.level_of(in_vc) + 1;
  std::uint32_t vcs = dragonfly_.level_vcs(level);
  if (settled) {
    // Up to the last level that leaves one for each hop after this one.
    const int groups = std::min(dragonfly_.levels(), design_.vcs);
    const int top = groups - 1 - minimal_hops(topo_.neighbor(router, out_port)->router, topo_.router_of_node(next.dst));
    for (int l = level + 1; l <= top; ++l) vcs |= dragonfly_.level_vcs(l);
  }
  return {out_port, vcs, next};
}

int QAdaptiveRouting::minimal_hops(int router, int dst_router) const {
  int hops = 0;
  for (; router != dst_router; ++hops) {
    router = topo_.neighbor(router, dragonfly_.min_port_to_router(router, dst_router))->router;
  }
  return hops;
}

bool QAdaptiveRouting::decides_no_more(int router, int out_port, const RouteState& next) const {
  const int dst_router = topo_.router_of_node(next.dst);
  PortRef at = *topo_.neighbor(router, out_port);
  RouteState s = next;
  while (at.router != dst_router) {
    if (decision_point(at.router, at.port, s)) return false;
    if (s.mode == RouteMode::ToIntermediate) s.mode = RouteMode::FromIntermediate;
    at = *topo_.neighbor(at.router, dragonfly_.min_port_to_router(at.router, dst_router));
  }
  return true;
}

std::vector<RouteOption> QAdaptiveRouting::minimal(int router, int in_port, int in_vc, const RouteState& s) const {
  const int dst_router = topo_.router_of_node(s.dst);
  const int port =
      router == dst_router ? topo_.local_of_node(s.dst) : dragonfly_.min_port_to_router(router, dst_router);
  return {hop(router, in_port, in_vc, port, s, rising() && router != dst_router && decides_no_more(router, port, s))};
}

bool QAdaptiveRouting::decision_point(int router, int in_port, const RouteState& s) const {
  const int dst_group = topo_.group_of(topo_.router_of_node(s.dst));
  if (topo_.group_of(router) == dst_group) return false;  // (1) in the destination group: minimal
  if (topo_.is_ni_port(in_port)) return s.mode == RouteMode::Minimal;  // (2) the source router
  if (source_group_decides(in_port, s)) return true;                    // (4) below
  // (3) the first router of the intermediate group, without a link to the destination group.
  if (s.mode != RouteMode::ToIntermediate || !topo_.is_global_port(in_port)) return false;
  for (int c = 0; c < topo_.links_per_group_pair(); ++c) {
    if (topo_.global_link(topo_.group_of(router), dst_group, c).router == router) return false;
  }
  return true;
}

// (4) The next router of the source group, reached by a local hop outside the
// destination group: with routing.q_source_group = "decide" the source's
// minimal hop, with "detour" its non-minimal one.
bool QAdaptiveRouting::source_group_decides(int in_port, const RouteState& s) const {
  const QSourceGroup rule = design_.cfg.q_source_group;
  return topo_.is_local_port(in_port) && ((rule == QSourceGroup::Decide && s.mode == RouteMode::Minimal) ||
                                          (rule == QSourceGroup::Detour && s.mode == RouteMode::SourceDetour));
}

bool QAdaptiveRouting::presented_at_head(int router, int in_port, const RouteState& s) const {
  const int dst_group = topo_.group_of(topo_.router_of_node(s.dst));
  return topo_.group_of(router) != dst_group || topo_.is_global_port(in_port);
}

std::vector<RouteOption> QAdaptiveRouting::every_port(int router, int in_port, int in_vc, const RouteState& s) const {
  const int min_port = minimal(router, in_port, in_vc, s).front().out_port;
  const int src_group = topo_.group_of(router);
  const int dst_group = topo_.group_of(topo_.router_of_node(s.dst));
  // At the next router of the source group the candidates are the minimal
  // port and the router's global ports.
  const bool second = source_group_decides(in_port, s);
  const bool detour = design_.cfg.q_source_group == QSourceGroup::Detour;
  const bool open = s.mode == RouteMode::Minimal || s.mode == RouteMode::SourceDetour;  // no detour taken yet
  std::vector<RouteOption> options;
  for (int port = topo_.first_local_port(); port < topo_.num_ports(); ++port) {
    if (second && port != min_port && !topo_.is_global_port(port)) continue;
    const PortRef n = *topo_.neighbor(router, port);
    RouteState next = s;
    if (port == min_port) {
      // The source's minimal port keeps the packet minimal; past the
      // intermediate router or a source detour's decision it is minimal from there.
      if (s.mode == RouteMode::ToIntermediate || s.mode == RouteMode::SourceDetour) {
        next.mode = RouteMode::FromIntermediate;
      }
    } else if (open && topo_.is_global_port(port) && topo_.group_of(n.router) != dst_group &&
               topo_.group_of(n.router) != src_group) {
      next.mode = RouteMode::ToIntermediate;  // into an intermediate group: its first router decides again
    } else if (detour && !second && s.mode == RouteMode::Minimal && topo_.is_local_port(port)) {
      next.mode = RouteMode::SourceDetour;  // the source's local detour: the next router decides again
    } else {
      next.mode = RouteMode::FromIntermediate;
    }
    // The intermediate router's VCs are the hop's whatever the port (the
    // route unit gives one set for every choice there).
    const bool settled =
        rising() && port == min_port && s.mode != RouteMode::ToIntermediate && decides_no_more(router, port, next);
    options.push_back(hop(router, in_port, in_vc, port, next, settled));
  }
  return options;
}

std::vector<RouteOption> QAdaptiveRouting::next_hops(int router, int in_port, int in_vc, const RouteState& s) const {
  // "To intermediate" lasts one global hop: a packet in it arrives by a global port.
  if (s.mode == RouteMode::ToIntermediate && !topo_.is_global_port(in_port)) return {};
  // A source detour lasts one local hop.
  if (s.mode == RouteMode::SourceDetour && !topo_.is_local_port(in_port)) return {};
  if (router == topo_.router_of_node(s.dst)) return minimal(router, in_port, in_vc, s);
  if (decision_point(router, in_port, s)) return every_port(router, in_port, in_vc, s);
  if (s.mode == RouteMode::ToIntermediate) {
    // The intermediate router with a global link to the destination group: minimal from here.
    RouteState next = s;
    next.mode = RouteMode::FromIntermediate;
    return minimal(router, in_port, in_vc, next);
  }
  return minimal(router, in_port, in_vc, s);
}

}  // namespace rlroute
