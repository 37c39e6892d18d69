#include "rlroute/gen/routing_check.hpp"

#include <fmt/format.h>

#include <algorithm>
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

class PathWalk {
 public:
  PathWalk(const Design& design, const RoutingRelation& relation)
      : design_(design),
        t_(design.topo),
        relation_(relation),
        bound_(relation.hop_bound()),
        escape_(relation.escape_vcs()),
        a_{std::nullopt, {}, VcRequestMap(design.ports * design.vcs)},
        routers_(static_cast<std::uint64_t>(t_.num_routers()) + 1),
        nodes_(static_cast<std::uint64_t>(t_.num_nodes())),
        hop_values_(static_cast<std::uint64_t>(bound_) + 2),  // 0..bound+1: a hop past the bound fails
        terminals_(static_cast<std::uint64_t>(t_.nodes_per_router()) + 1) {
    a_.edges.resize(static_cast<size_t>(t_.num_routers() * design.ports * design.vcs));
  }

  Analysis run() {
    for (int dst = 0; dst < t_.num_nodes() && !a_.failure; ++dst) walk_to(dst);
    return std::move(a_);
  }

 private:
  // Every source's packets to `dst`, on every injection VC.
  void walk_to(int dst) {
    dst_ = dst;
    dst_router_ = t_.router_of_node(dst);
    if (t_.local_of_node(dst) == 0) hops_.clear();
    for (int src = 0; src < t_.num_nodes() && !a_.failure; ++src) {
      for (int vc = 0; vc < design_.vcs && !a_.failure; ++vc) {
        if (!(relation_.injection_vcs() & (1u << vc))) continue;
        const int h = visit({t_.router_of_node(src), t_.local_of_node(src), vc}, RouteState{dst, src, -1, RouteMode::Minimal});
        if (!a_.failure && h > bound_) {
          a_.failure = fmt::format("a packet from node {} to node {} can take {} hops, more than the bound {}", src, dst,
                                   h, bound_);
        }
      }
    }
    // Keep the edge lists small as destinations accumulate.
    for (std::vector<int>& e : a_.edges) {
      std::sort(e.begin(), e.end());
      e.erase(std::unique(e.begin(), e.end()), e.end());
    }
  }

  // The memo key of a (channel, canonical route state): routes differ between
  // the terminals of one destination router only in the ejection port, so the
  // key holds the terminal only for states at that router; the rest of the
  // walk is shared by the router's terminals (their ejection port is then
  // checked on the walks that reach the destination router afresh;
  // tests/unit/test_dragonfly.cpp walks every pair in full).
  std::uint64_t key_of(int idx, const State& s, const RouteState& rs) const {
    const RouteState c = relation_.canonical(rs);
    std::uint64_t k = (static_cast<std::uint64_t>(idx) * routers_ + static_cast<std::uint64_t>(c.inter + 1)) * 3 +
                      static_cast<std::uint64_t>(c.mode);
    k = (k * 2 + (c.pdor ? 1 : 0)) * hop_values_ + static_cast<std::uint64_t>(std::min(c.hops, bound_ + 1));
    k = k * nodes_ + static_cast<std::uint64_t>(c.src);
    const std::uint64_t at_dst = s.router == dst_router_ ? static_cast<std::uint64_t>(t_.local_of_node(dst_)) + 1 : 0;
    return k * terminals_ + at_dst;
  }

  // The longest hop count from state `s` with route state `rs` to the
  // destination; -1 in the memo while the state is on the current path (a loop).
  int visit(const State& s, const RouteState& rs) {
    const int idx = state_index(design_, s);
    const std::uint64_t key = key_of(idx, s, rs);
    if (const auto it = hops_.find(key); it != hops_.end()) {
      if (it->second < 0) {
        a_.failure = fmt::format("packets ({}) can loop forever through {} port {} vc{}", describe(design_, rs),
                                 t_.router_name(s.router), t_.port_name(s.router, s.port), s.vc);
        return 0;
      }
      return it->second;
    }
    hops_[key] = -1;
    const std::vector<RouteOption> options = relation_.next_hops(s.router, s.port, s.vc, rs);
    check_options(s, rs, options);
    int longest = 0;
    for (const RouteOption& o : options) {
      if (a_.failure) break;
      longest = std::max(longest, follow(s, idx, rs, o));
    }
    hops_[key] = longest;
    return longest;
  }

  // A state offers a route, and (Duato) an escape VC onward: the escape
  // sub-relation must be connected, so every packet, wherever the adaptive
  // VCs took it, is offered an escape VC.
  void check_options(const State& s, const RouteState& rs, const std::vector<RouteOption>& options) {
    if (options.empty()) {
      a_.failure = fmt::format("no route from {} for a packet ({})", t_.router_name(s.router), describe(design_, rs));
    }
    const bool offers_escape = std::any_of(options.begin(), options.end(), [&](const RouteOption& o) {
      return t_.is_ni_port(o.out_port) || (o.vc_mask & escape_) != 0;
    });
    if (!a_.failure && !offers_escape) {
      a_.failure = fmt::format("no escape VC offered at {} port {} vc{} for a packet ({}): the escape sub-relation "
                               "is not connected",
                               t_.router_name(s.router), t_.port_name(s.router, s.port), s.vc, describe(design_, rs));
    }
  }

  // One option of state `s`: its VC requests, the ejection or the hops on;
  // returns the longest hop count through it (0 for an ejection or a failure).
  int follow(const State& s, int idx, const RouteState& rs, const RouteOption& o) {
    if (o.vc_mask == 0) {
      a_.failure = fmt::format("no VC allowed from {} for a packet ({})", t_.router_name(s.router), describe(design_, rs));
      return 0;
    }
    record_requests(s, o);
    if (t_.is_ni_port(o.out_port)) {
      if (s.router != dst_router_ || o.out_port != t_.local_of_node(dst_)) {
        a_.failure = fmt::format("packet ({}) ejected at {} port {}", describe(design_, rs), t_.router_name(s.router),
                                 t_.port_name(s.router, o.out_port));
      }
      return 0;
    }
    const std::optional<PortRef> next = t_.neighbor(s.router, o.out_port);
    if (!next) {
      a_.failure = fmt::format("packet ({}) sent out of unconnected port {} of {}", describe(design_, rs),
                               t_.port_name(s.router, o.out_port), t_.router_name(s.router));
      return 0;
    }
    int longest = 0;
    for (int vc = 0; vc < design_.vcs && !a_.failure; ++vc) {
      if (!(o.vc_mask & (1u << vc))) continue;
      const State n{next->router, next->port, vc};
      if (!t_.is_ni_port(s.port)) a_.edges[static_cast<size_t>(idx)].push_back(state_index(design_, n));
      longest = std::max(longest, 1 + visit(n, o.next));
    }
    return longest;
  }

  // An ejection is recorded for every NI port: the walk expands a state away
  // from the destination router once for all its terminals (see key_of), so
  // for most of them it never meets their ejection itself.
  void record_requests(const State& s, const RouteOption& o) {
    const bool ejects = t_.is_ni_port(o.out_port);
    const int first_port = ejects ? 0 : o.out_port;
    const int last_port = ejects ? t_.nodes_per_router() - 1 : o.out_port;
    for (int port = first_port; port <= last_port; ++port) {
      for (int vc = 0; vc < design_.vcs; ++vc) {
        if (o.vc_mask & (1u << vc)) a_.requests.allow(port * design_.vcs + vc, s.port * design_.vcs + s.vc);
      }
    }
  }

  const Design& design_;
  const Topology& t_;
  const RoutingRelation& relation_;
  const int bound_;
  const std::uint32_t escape_;
  Analysis a_;
  std::unordered_map<std::uint64_t, int> hops_;  // per destination router (see key_of)
  const std::uint64_t routers_, nodes_, hop_values_, terminals_;
  int dst_ = 0, dst_router_ = 0;
};

Analysis analyze(const Design& design, const RoutingRelation& relation) { return PathWalk(design, relation).run(); }

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
