#include "rlroute/gen/routing_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <utility>

namespace rlroute {

namespace {

// Input-side channel of a head flit: which router, input port and VC.
struct State {
  int router;
  int port;
  int vc;
};

int state_index(const Design& d, const State& s) {
  return (s.router * d.ports + s.port) * d.vcs + s.vc;
}

}  // namespace

std::string describe_channel(const Design& design, const Channel& c) {
  return fmt::format("{}.{}.vc{}", design.topo.router_name(c.router), design.topo.port_name(c.router, c.port), c.vc);
}

namespace {

// Walks every path the relation allows, from every source to every
// destination, one destination at a time (a (channel, route state) already
// expanded for that destination is not expanded again). Records the first
// failure, the dependencies between consecutive network channels (only
// dependencies some packet can really create enter the channel dependency
// graph) and every VC request a router meets on the way.
struct Analysis {
  std::optional<std::string> failure;
  std::vector<std::vector<int>> edges;  // channel state -> next channel states (network channels only)
  VcRequestMap requests;
};

Analysis analyze(const Design& design, const RoutingRelation& relation) {
  const Topology& t = design.topo;
  const int bound = relation.hop_bound();
  const std::uint32_t escape = relation.escape_vcs();
  const int num_states = t.num_routers() * design.ports * design.vcs;
  Analysis a{std::nullopt, {}, VcRequestMap(design.ports * design.vcs)};
  a.edges.resize(static_cast<size_t>(num_states));
  std::optional<std::string>& failure = a.failure;
  // Per destination router: longest hop count from (channel, canonical route
  // state); -1 while the state is on the current path (a loop). Routes differ
  // between the terminals of one destination router only in the ejection
  // port, so the key holds the terminal only for states at that router: the
  // rest of the walk is shared by the router's terminals (their ejection port
  // is then checked on the walks that reach the destination router afresh;
  // tests/unit/test_dragonfly.cpp walks every pair in full).
  std::unordered_map<std::uint64_t, int> hops;
  const std::uint64_t routers = static_cast<std::uint64_t>(t.num_routers()) + 1;
  const std::uint64_t nodes = static_cast<std::uint64_t>(t.num_nodes());
  const std::uint64_t hop_values = static_cast<std::uint64_t>(bound) + 2;  // 0..bound+1: a hop past the bound fails
  auto key_of = [&](int idx, const RouteState& c) {
    std::uint64_t k = (static_cast<std::uint64_t>(idx) * routers + static_cast<std::uint64_t>(c.inter + 1)) * 3 +
                      static_cast<std::uint64_t>(c.mode);
    k = (k * 2 + (c.pdor ? 1 : 0)) * hop_values + static_cast<std::uint64_t>(std::min(c.hops, bound + 1));
    return k * nodes + static_cast<std::uint64_t>(c.src);
  };
  const std::uint64_t terminals = static_cast<std::uint64_t>(t.nodes_per_router()) + 1;

  for (int dst = 0; dst < t.num_nodes() && !failure; ++dst) {
    const int dst_router = t.router_of_node(dst);
    if (t.local_of_node(dst) == 0) hops.clear();

    std::function<int(const State&, const RouteState&)> visit = [&](const State& s, const RouteState& rs) -> int {
      const int idx = state_index(design, s);
      const std::uint64_t at_dst =
          s.router == dst_router ? static_cast<std::uint64_t>(t.local_of_node(dst)) + 1 : 0;
      const std::uint64_t key = key_of(idx, relation.canonical(rs)) * terminals + at_dst;
      if (const auto it = hops.find(key); it != hops.end()) {
        if (it->second < 0) {
          failure = fmt::format("packets ({}) can loop forever through {} port {} vc{}", describe(design, rs),
                                t.router_name(s.router), t.port_name(s.router, s.port), s.vc);
          return 0;
        }
        return it->second;
      }
      hops[key] = -1;
      const std::vector<RouteOption> options = relation.next_hops(s.router, s.port, s.vc, rs);
      int longest = 0;
      if (options.empty()) {
        failure = fmt::format("no route from {} for a packet ({})", t.router_name(s.router), describe(design, rs));
      }
      // Duato: the escape sub-relation must be connected, so every packet,
      // wherever the adaptive VCs took it, is offered an escape VC onward.
      const bool offers_escape = std::any_of(options.begin(), options.end(), [&](const RouteOption& o) {
        return t.is_ni_port(o.out_port) || (o.vc_mask & escape) != 0;
      });
      if (!failure && !offers_escape) {
        failure = fmt::format("no escape VC offered at {} port {} vc{} for a packet ({}): the escape sub-relation "
                              "is not connected",
                              t.router_name(s.router), t.port_name(s.router, s.port), s.vc, describe(design, rs));
      }
      for (const RouteOption& o : options) {
        if (failure) break;
        if (o.vc_mask == 0) {
          failure = fmt::format("no VC allowed from {} for a packet ({})", t.router_name(s.router), describe(design, rs));
          break;
        }
        // An ejection is recorded for every NI port: the walk expands a state
        // away from the destination router once for all its terminals (see
        // above), so for most of them it never meets their ejection itself.
        const bool ejects = t.is_ni_port(o.out_port);
        const int first_port = ejects ? 0 : o.out_port;
        const int last_port = ejects ? t.nodes_per_router() - 1 : o.out_port;
        for (int port = first_port; port <= last_port; ++port) {
          for (int vc = 0; vc < design.vcs; ++vc) {
            if (o.vc_mask & (1u << vc)) a.requests.allow(port * design.vcs + vc, s.port * design.vcs + s.vc);
          }
        }
        if (t.is_ni_port(o.out_port)) {
          if (s.router != dst_router || o.out_port != t.local_of_node(dst)) {
            failure = fmt::format("packet ({}) ejected at {} port {}", describe(design, rs),
                                  t.router_name(s.router), t.port_name(s.router, o.out_port));
          }
          continue;
        }
        const std::optional<PortRef> next = t.neighbor(s.router, o.out_port);
        if (!next) {
          failure = fmt::format("packet ({}) sent out of unconnected port {} of {}", describe(design, rs),
                                t.port_name(s.router, o.out_port), t.router_name(s.router));
          break;
        }
        for (int vc = 0; vc < design.vcs && !failure; ++vc) {
          if (!(o.vc_mask & (1u << vc))) continue;
          const State n{next->router, next->port, vc};
          if (!t.is_ni_port(s.port)) a.edges[static_cast<size_t>(idx)].push_back(state_index(design, n));
          longest = std::max(longest, 1 + visit(n, o.next));
        }
      }
      hops[key] = longest;
      return longest;
    };

    for (int src = 0; src < t.num_nodes() && !failure; ++src) {
      for (int vc = 0; vc < design.vcs && !failure; ++vc) {
        if (!(relation.injection_vcs() & (1u << vc))) continue;
        const int h = visit({t.router_of_node(src), t.local_of_node(src), vc}, RouteState{dst, src, -1, RouteMode::Minimal});
        if (!failure && h > bound) {
          failure = fmt::format("a packet from node {} to node {} can take {} hops, more than the bound {}",
                                src, dst, h, bound);
        }
      }
    }
    // Keep the edge lists small as destinations accumulate.
    for (std::vector<int>& e : a.edges) {
      std::sort(e.begin(), e.end());
      e.erase(std::unique(e.begin(), e.end()), e.end());
    }
  }
  return a;
}

// The network channel a state's input port is fed by: the neighbour's output.
Channel channel_into(const Design& design, int state) {
  const int vc = state % design.vcs;
  const int port = (state / design.vcs) % design.ports;
  const int router = state / design.vcs / design.ports;
  const std::optional<PortRef> from = design.topo.neighbor(router, port);
  return Channel{from->router, from->port, vc};
}

}  // namespace

std::optional<std::string> check_connectivity(const Design& design, const RoutingRelation& relation) {
  return analyze(design, relation).failure;
}

namespace {

std::optional<std::vector<Channel>> escape_cycle(const Design& design, const RoutingRelation& relation,
                                                 const Analysis& a) {
  const std::uint32_t escape = relation.escape_vcs();
  const int num_states = static_cast<int>(a.edges.size());
  auto is_escape = [&](int state) { return (escape >> (state % design.vcs)) & 1u; };

  // Iterative DFS with colours over escape channels; a grey successor closes a cycle.
  enum : char { White, Grey, Black };
  std::vector<char> colour(static_cast<size_t>(num_states), White);
  for (int root = 0; root < num_states; ++root) {
    if (colour[root] != White || !is_escape(root) || a.edges[root].empty()) continue;
    std::vector<std::pair<int, size_t>> stack{{root, 0}};
    colour[root] = Grey;
    while (!stack.empty()) {
      const int s = stack.back().first;
      const std::vector<int>& out = a.edges[s];
      if (stack.back().second == out.size()) {
        colour[s] = Black;
        stack.pop_back();
        continue;
      }
      const int succ = out[stack.back().second++];
      if (!is_escape(succ)) continue;
      if (colour[succ] == Grey) {
        std::vector<Channel> cycle;
        size_t first = 0;
        while (stack[first].first != succ) ++first;
        for (size_t i = first; i < stack.size(); ++i) cycle.push_back(channel_into(design, stack[i].first));
        cycle.push_back(channel_into(design, succ));
        return cycle;
      }
      if (colour[succ] == White) {
        colour[succ] = Grey;
        stack.push_back({succ, 0});
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<Channel>> find_escape_cycle(const Design& design, const RoutingRelation& relation) {
  return escape_cycle(design, relation, analyze(design, relation));
}

VcRequestMap check_routing(const Design& design, const RoutingRelation& relation) {
  Analysis analysis = analyze(design, relation);
  if (const std::optional<std::string>& failure = analysis.failure) {
    config_fail(design.cfg, "routing.algorithm", fmt::format("\"{}\"", relation.name()),
                "routing relation check failed: " + *failure);
  }
  if (std::optional<std::vector<Channel>> cycle = escape_cycle(design, relation, analysis)) {
    std::string path;
    const size_t shown = std::min<size_t>(cycle->size(), 12);
    for (size_t i = 0; i < shown; ++i) path += (i ? " -> " : "") + describe_channel(design, (*cycle)[i]);
    if (shown < cycle->size()) path += fmt::format(" -> ... ({} channels)", cycle->size() - 1);
    config_fail(design.cfg, "router.vcs", std::to_string(design.vcs),
                fmt::format("too few VCs for {} on this {} to be deadlock-free: channel dependency cycle {}",
                            relation.name(), design.topo.describe(), path));
  }
  return std::move(analysis.requests);
}

}  // namespace rlroute
