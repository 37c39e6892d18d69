// Dragonfly routing relations; the rule of each algorithm and its deadlock
// argument are in docs/routing_dragonfly.md.
#include "rlroute/gen/routing_dragonfly.hpp"

#include <algorithm>

namespace rlroute {

DragonflyRouting::DragonflyRouting(const Design& design)
    : design_(design), topo_(design.topo), algorithm_(design.cfg.algorithm) {}

std::string DragonflyRouting::name() const { return to_string(algorithm_); }

bool DragonflyRouting::intermediate_is_group() const {
  return traits(algorithm_).route_state == RouteStateFields::IntermediateGroup;
}

int DragonflyRouting::levels() const { return vc_levels(design_.cfg); }

int DragonflyRouting::hop_bound() const { return rlroute::hop_bound(design_.cfg); }

std::uint32_t DragonflyRouting::level_vcs(int level) const {
  const int vcs = design_.vcs;
  const int groups = std::min(levels(), vcs);
  const int g = std::min(level, groups - 1);
  std::uint32_t mask = 0;
  for (int v = g * vcs / groups; v < (g + 1) * vcs / groups; ++v) mask |= 1u << v;
  return mask;
}

int DragonflyRouting::level_of(int vc) const {
  const int groups = std::min(levels(), design_.vcs);
  for (int g = 0; g < groups; ++g) {
    if (level_vcs(g) & (1u << vc)) return g;
  }
  return groups - 1;
}

int DragonflyRouting::next_level(int in_port, int in_vc, int out_port) const {
  if (topo_.is_ni_port(in_port)) return 0;
  const int level = level_of(in_vc);
  if (topo_.is_global_port(in_port)) return level + 1;
  return topo_.is_local_port(out_port) ? level + 1 : level;
}

RouteOption DragonflyRouting::hop(int in_port, int in_vc, int out_port, const RouteState& next) const {
  if (topo_.is_ni_port(out_port)) return {out_port, all_vcs_mask(design_.vcs), next};
  return {out_port, level_vcs(next_level(in_port, in_vc, out_port)), next};
}

int DragonflyRouting::min_port_to_group(int router, int group) const {
  const int own = topo_.group_of(router);
  for (int c = 0; c < topo_.links_per_group_pair(); ++c) {
    const PortRef link = topo_.global_link(own, group, c);
    if (link.router == router) return link.port;
  }
  const int index = topo_.index_in_group(router);
  const PortRef gateway = topo_.global_link(own, group, index % topo_.links_per_group_pair());
  return topo_.local_port_to(index, topo_.index_in_group(gateway.router));
}

int DragonflyRouting::min_port_to_router(int router, int target) const {
  const int index = topo_.index_in_group(router);
  const int own = topo_.group_of(router), target_group = topo_.group_of(target);
  if (own == target_group) {
    return topo_.local_port_to(index, topo_.index_in_group(target));
  }
  // Own link first; else a link that lands on the target (one hop less than
  // the default copy); else the default copy (min_port_to_group).
  const int copies = topo_.links_per_group_pair();
  for (int c = 0; c < copies; ++c) {
    const PortRef link = topo_.global_link(own, target_group, c);
    if (link.router == router) return link.port;
  }
  for (int c = 0; c < copies; ++c) {
    const PortRef link = topo_.global_link(own, target_group, c);
    if (topo_.neighbor(link.router, link.port)->router == target) {
      return topo_.local_port_to(index, topo_.index_in_group(link.router));
    }
  }
  return min_port_to_group(router, target_group);
}

std::vector<int> DragonflyRouting::intermediates(int from_group, int dst) const {
  const int dst_group = topo_.group_of(topo_.router_of_node(dst));
  std::vector<int> inter;
  for (int g = 0; g < topo_.num_groups(); ++g) {
    if (g == from_group || g == dst_group) continue;
    if (intermediate_is_group()) {
      inter.push_back(topo_.router_in_group(g, 0));
    } else {
      for (int i = 0; i < topo_.group_size(); ++i) inter.push_back(topo_.router_in_group(g, i));
    }
  }
  return inter;
}

bool DragonflyRouting::at_intermediate(int router, int inter) const {
  return intermediate_is_group() ? topo_.group_of(router) == topo_.group_of(inter) : router == inter;
}

RouteState DragonflyRouting::canonical(const RouteState& state) const {
  RouteState c = state;
  // Only PAR reads the source (its group); keep the group's first node.
  c.src = traits(algorithm_).choice == PathChoice::AtSourceGroup
              ? topo_.node_at(topo_.router_in_group(topo_.group_of(topo_.router_of_node(state.src)), 0), 0)
              : 0;
  return c;
}

std::vector<RouteOption> DragonflyRouting::minimal(int router, int in_port, int in_vc, const RouteState& s) const {
  const int dst_router = topo_.router_of_node(s.dst);
  const int port = router == dst_router ? topo_.local_of_node(s.dst) : min_port_to_router(router, dst_router);
  return {hop(in_port, in_vc, port, s)};
}

RouteOption DragonflyRouting::via(int router, int in_port, int in_vc, const RouteState& s, int inter) const {
  RouteState next = s;
  next.inter = inter;
  next.mode = RouteMode::ToIntermediate;
  const int port = intermediate_is_group() ? min_port_to_group(router, topo_.group_of(inter))
                                           : min_port_to_router(router, inter);
  return hop(in_port, in_vc, port, next);
}

// Non-minimal options from a decision point: one per intermediate.
std::vector<RouteOption> DragonflyRouting::valiant(int router, int in_port, int in_vc, const RouteState& s) const {
  std::vector<RouteOption> options;
  for (const int inter : intermediates(topo_.group_of(router), s.dst)) options.push_back(via(router, in_port, in_vc, s, inter));
  return options;
}

bool DragonflyRouting::decides_at(int in_port) const { return choice_opens_at(traits(algorithm_), topo_, in_port); }

bool DragonflyRouting::decision_open(int router, int in_port, const RouteState& s) const {
  if (!decides_at(in_port) || s.mode != RouteMode::Minimal) return false;
  const int dst_router = topo_.router_of_node(s.dst);
  if (router == dst_router) return false;
  if (design_.cfg.intra_group == IntraGroup::Minimal && topo_.group_of(router) == topo_.group_of(dst_router)) {
    return false;
  }
  if (topo_.is_ni_port(in_port)) return true;
  // PAR, a local port: only in the source group, against a legal candidate.
  if (topo_.group_of(router) != topo_.group_of(topo_.router_of_node(s.src))) return false;
  const std::vector<int> legal = intermediates(topo_.group_of(router), s.dst);
  return std::find(legal.begin(), legal.end(), s.inter) != legal.end();
}

std::vector<RouteOption> DragonflyRouting::next_hops(int router, int in_port, int in_vc,
                                                     const RouteState& s) const {
  const int dst_router = topo_.router_of_node(s.dst);
  switch (s.mode) {
    case RouteMode::Minimal: {
      const PathChoice choice = traits(algorithm_).choice;
      if (router == dst_router || choice == PathChoice::MinimalOnly) return minimal(router, in_port, in_vc, s);
      // Source and destination in one group: minimal unless routing.intra_group = "valiant".
      const bool intra_group_minimal = design_.cfg.intra_group == IntraGroup::Minimal &&
                                       topo_.group_of(router) == topo_.group_of(dst_router);
      if (choice == PathChoice::AlwaysValiant && topo_.is_ni_port(in_port) && !intra_group_minimal) {
        return valiant(router, in_port, in_vc, s);
      }
      if (!decision_open(router, in_port, s)) return minimal(router, in_port, in_vc, s);
      if (topo_.is_local_port(in_port)) {
        // PAR's second decision, at the next router of the source group: minimal
        // or the candidate the source drew and wrote into the header (s.inter).
        std::vector<RouteOption> options = minimal(router, in_port, in_vc, s);
        options.push_back(via(router, in_port, in_vc, s, s.inter));
        return options;
      }
      std::vector<RouteOption> options;
      if (choice == PathChoice::AtSourceGroup) {
        // PAR at the source: the minimal route carries the candidate for the re-evaluation.
        for (const int inter : intermediates(topo_.group_of(router), s.dst)) {
          RouteState next = s;
          next.inter = inter;
          options.push_back(minimal(router, in_port, in_vc, next).front());
        }
      } else {
        options = minimal(router, in_port, in_vc, s);
      }
      const std::vector<RouteOption> v = valiant(router, in_port, in_vc, s);
      options.insert(options.end(), v.begin(), v.end());
      return options;
    }
    case RouteMode::ToIntermediate: {
      if (s.inter < 0 || s.inter >= topo_.num_routers()) return {};
      if (at_intermediate(router, s.inter)) {
        RouteState next = s;
        next.mode = RouteMode::FromIntermediate;
        return minimal(router, in_port, in_vc, next);
      }
      const int port = intermediate_is_group() ? min_port_to_group(router, topo_.group_of(s.inter))
                                               : min_port_to_router(router, s.inter);
      return {hop(in_port, in_vc, port, s)};
    }
    case RouteMode::FromIntermediate:
      return minimal(router, in_port, in_vc, s);
    case RouteMode::SourceDetour:  // Q-adaptive's alone
      return {};
  }
  return {};
}

}  // namespace rlroute
