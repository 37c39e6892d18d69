#include "rlroute/routing_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

namespace rlroute {

namespace {

// Input-side state of a head flit: which router, input port and VC.
struct State {
  int router;
  int port;
  int vc;
};

int state_index(const Design& d, const State& s) {
  return (s.router * d.ports + s.port) * d.vcs + s.vc;
}

std::string port_name(const Topology& t, int port) {
  if (t.is_ni_port(port)) return fmt::format("ni{}", port);
  static const char* axes = "xyz";
  const int dim = t.port_dim(port);
  return fmt::format("{}{}", axes[dim], port == t.plus_port(dim) ? '+' : '-');
}

std::string router_name(const Topology& t, int router) {
  const std::vector<int> c = t.coords(router);
  std::string s = fmt::format("R{}(", router);
  for (size_t i = 0; i < c.size(); ++i) s += fmt::format("{}{}", i ? "," : "", c[i]);
  return s + ")";
}

}  // namespace

std::string describe_channel(const Design& design, const Channel& c) {
  return fmt::format("{}.{}.vc{}", router_name(design.topo, c.router),
                     port_name(design.topo, c.port), c.vc);
}

namespace {

// Walks every path the relation allows, from every source to every
// destination, one destination at a time (states already expanded for that
// destination are not expanded again). Records the first failure and the
// dependencies between consecutive network channels: only dependencies some
// packet can really create enter the channel dependency graph.
struct Analysis {
  std::optional<std::string> failure;
  std::vector<std::vector<int>> edges;  // state -> next states (network channels only)
};

Analysis analyze(const Design& design, const RoutingRelation& relation) {
  const Topology& t = design.topo;
  const int bound = relation.hop_bound();
  const int num_states = t.num_routers() * design.ports * design.vcs;
  Analysis a;
  a.edges.resize(static_cast<size_t>(num_states));
  // For one destination: the longest hop count from each state (-1 = unknown).
  std::vector<int> hops(static_cast<size_t>(num_states));
  std::vector<char> on_path(static_cast<size_t>(num_states));
  std::optional<std::string>& failure = a.failure;

  for (int dst = 0; dst < t.num_nodes() && !failure; ++dst) {
    std::fill(hops.begin(), hops.end(), -1);
    std::fill(on_path.begin(), on_path.end(), 0);
    const int dst_router = t.router_of_node(dst);

    std::function<int(const State&)> visit = [&](const State& s) -> int {
      const int idx = state_index(design, s);
      if (hops[idx] >= 0) return hops[idx];
      if (on_path[idx]) {
        failure = fmt::format("packets to node {} can loop forever through {} port {} vc{}", dst,
                              router_name(t, s.router), port_name(t, s.port), s.vc);
        return 0;
      }
      on_path[idx] = 1;
      const std::vector<RouteOption> options = relation.next_hops(s.router, s.port, s.vc, dst);
      int longest = 0;
      if (options.empty()) {
        failure = fmt::format("no route from {} to node {}", router_name(t, s.router), dst);
      }
      for (const RouteOption& o : options) {
        if (failure) break;
        if (o.vc_mask == 0) {
          failure = fmt::format("no VC allowed from {} towards node {}", router_name(t, s.router), dst);
          break;
        }
        if (t.is_ni_port(o.out_port)) {
          if (s.router != dst_router || o.out_port != t.local_of_node(dst)) {
            failure = fmt::format("packet to node {} ejected at {} port {}", dst,
                                  router_name(t, s.router), port_name(t, o.out_port));
          }
          continue;
        }
        const std::optional<PortRef> next = t.neighbor(s.router, o.out_port);
        if (!next) {
          failure = fmt::format("packet to node {} sent out of unconnected port {} of {}", dst,
                                port_name(t, o.out_port), router_name(t, s.router));
          break;
        }
        for (int vc = 0; vc < design.vcs && !failure; ++vc) {
          if (!(o.vc_mask & (1u << vc))) continue;
          const State n{next->router, next->port, vc};
          if (!t.is_ni_port(s.port)) a.edges[static_cast<size_t>(idx)].push_back(state_index(design, n));
          longest = std::max(longest, 1 + visit(n));
        }
      }
      on_path[idx] = 0;
      hops[idx] = longest;
      return longest;
    };

    for (int src = 0; src < t.num_nodes() && !failure; ++src) {
      for (int vc = 0; vc < design.vcs && !failure; ++vc) {
        if (!(relation.injection_vcs() & (1u << vc))) continue;
        const int h = visit({t.router_of_node(src), t.local_of_node(src), vc});
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

std::optional<std::vector<Channel>> find_escape_cycle(const Design& design,
                                                      const RoutingRelation& relation) {
  const Analysis a = analyze(design, relation);
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

void check_routing(const Design& design, const RoutingRelation& relation) {
  if (std::optional<std::string> failure = check_connectivity(design, relation)) {
    config_fail(design.cfg, "routing.algorithm", fmt::format("\"{}\"", relation.name()),
                "routing relation check failed: " + *failure);
  }
  if (std::optional<std::vector<Channel>> cycle = find_escape_cycle(design, relation)) {
    std::string path;
    const size_t shown = std::min<size_t>(cycle->size(), 12);
    for (size_t i = 0; i < shown; ++i) path += (i ? " -> " : "") + describe_channel(design, (*cycle)[i]);
    if (shown < cycle->size()) path += fmt::format(" -> ... ({} channels)", cycle->size() - 1);
    config_fail(design.cfg, "router.vcs", std::to_string(design.vcs),
                fmt::format("too few VCs for {} on this {} to be deadlock-free: channel dependency cycle {}",
                            relation.name(), design.topo.describe(), path));
  }
}

}  // namespace rlroute
