#include "rlroute/tb/contention_mirror.hpp"

#include "rlroute/gen/algorithm.hpp"

namespace rlroute {

ContentionMirror::ContentionMirror(const Design& design) : design_(design) {
  const Topology& t = design.topo;
  routers_.assign(static_cast<std::size_t>(t.num_routers()),
                  ref::ContentionCounters(t.group_size(), t.num_groups(), design.cfg.contention_window,
                                          design.cfg.contention_threshold));
}

void ContentionMirror::head_arrived(int router, int port, const Header& h, std::int64_t cycle) {
  const Topology& t = design_.topo;
  if (t.is_global_port(port)) return;
  const int src_node = t.node_of_address(h.src), dst_node = t.node_of_address(h.dst);
  if (src_node < 0 || dst_node < 0) return;  // the route checker reports such a head
  const int src = t.router_of_node(src_node);
  if (t.group_of(src) != t.group_of(router)) return;  // passing through from another group
  const int dst_group = t.group_of(t.router_of_node(dst_node));
  routers_[static_cast<std::size_t>(router)].count(cycle, t.index_in_group(src), dst_group, h.length);
}

std::vector<int> ContentionMirror::factors(int router, std::int64_t cycle) const {
  ref::ContentionCounters c = routers_[static_cast<std::size_t>(router)];
  c.advance_to(cycle);
  std::vector<int> f(static_cast<std::size_t>(c.groups()));
  for (int j = 0; j < c.groups(); ++j) f[static_cast<std::size_t>(j)] = c.factor(j);
  return f;
}

double ContentionMirror::mean_factor(std::int64_t cycle) const {
  const Topology& t = design_.topo;
  double sum = 0;
  std::int64_t n = 0;
  for (int r = 0; r < t.num_routers(); ++r) {
    const std::vector<int> f = factors(r, cycle);
    for (int j = 0; j < t.num_groups(); ++j) {
      if (j == t.group_of(r)) continue;
      sum += f[static_cast<std::size_t>(j)];
      ++n;
    }
  }
  return n == 0 ? 0.0 : sum / static_cast<double>(n);
}

std::unique_ptr<ContentionMirror> make_contention_mirror(const Design& design) {
  if (!traits(design.cfg.algorithm).contention_counters) return nullptr;
  return std::make_unique<ContentionMirror>(design);
}

}  // namespace rlroute
