// Q-adaptive's table layout and initial values; see the header.
#include "rlroute/gen/q_table_layout.hpp"

#include "rlroute/gen/pipeline.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"

namespace rlroute {

QTableLayout::QTableLayout(const Design& design) : design_(design), topo_(design.topo) {}

int QTableLayout::rows(const Topology& topo) { return (topo.num_groups() - 1) * topo.nodes_per_router(); }

int QTableLayout::columns() const { return topo_.num_ports() - topo_.first_local_port(); }

int QTableLayout::column_of_port(int port) const { return port - topo_.first_local_port(); }

int QTableLayout::port_of_column(int column) const { return topo_.first_local_port() + column; }

int QTableLayout::row(int router, int src, int dst) const {
  const int own = topo_.group_of(router);
  const int group = topo_.group_of(topo_.router_of_node(dst));
  if (group == own) return -1;
  const int rank = group < own ? group : group - 1;  // the own group has no rows
  return rank * topo_.nodes_per_router() + topo_.local_of_node(src);
}

int QTableLayout::dst_group_of_row(int router, int row) const {
  const int rank = row / topo_.nodes_per_router();
  return rank < topo_.group_of(router) ? rank : rank + 1;
}

int QTableLayout::minimal_cycles(int router, int group) const {
  const DragonflyRouting paths(design_);
  int cycles = 0;
  while (topo_.group_of(router) != group) {
    const int port = paths.min_port_to_group(router, group);
    cycles += hop_cycles(design_.cfg, topo_.link_latency(port));
    router = topo_.neighbor(router, port)->router;
  }
  return cycles;
}

int QTableLayout::initial_cycles(int router, int dst_group, int column) const {
  const int port = port_of_column(column);
  const int next = topo_.neighbor(router, port)->router;
  if (design_.cfg.q_initial == QInitial::Flat) {
    const int global = hop_cycles(design_.cfg, design_.cfg.global_link_latency);
    const bool direct = topo_.is_global_port(port) && topo_.group_of(next) == dst_group;
    return direct ? global : global + hop_cycles(design_.cfg, design_.cfg.local_link_latency);
  }
  return hop_cycles(design_.cfg, topo_.link_latency(port)) + minimal_cycles(next, dst_group);
}

int QTableLayout::hop_cycles(const Config& cfg, int link_latency) {
  switch (cfg.q_stamp) {
    case QStamp::Crossbar:
      return link_latency + cfg.q_decision_cycles;
    case QStamp::Request:  // the request's cycle is the crossbar's with speculation, the one before without
      return router_cycles(cfg.switch_allocation) - 1 + link_latency + cfg.q_decision_cycles;
    case QStamp::Arrival:
      break;
  }
  return hop_latency(link_latency, cfg.switch_allocation);
}

}  // namespace rlroute
