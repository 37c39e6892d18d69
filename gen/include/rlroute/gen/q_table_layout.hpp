// Q-adaptive's table as one router of a dragonfly holds it
// ([Kang 2021, section 4]; docs/q_adaptive.md, "The algorithm"): which row a
// packet reads and updates, which column a port is, and the value every entry
// starts from. The RTL table (rtl/rr_q_table.sv) is this layout; the test bench
// and the Q-table's initialisation follow it.
#pragma once

#include <cstdint>

#include "rlroute/gen/design.hpp"

namespace rlroute {

class QTableLayout {
 public:
  explicit QTableLayout(const Design& design);
  QTableLayout(Design&&) = delete;  // it keeps a reference: the design must outlive it

  // (g - 1) x p rows: a row per destination group other than the router's
  // own, per node of the packet's source router (as the authors' code,
  // `destG_srcN`; the own group's packets are routed minimally and never use
  // the table).
  int rows() const { return rows(topo_); }
  static int rows(const Topology& topo);
  // The router's network ports, in port order: a - 1 local, then h global.
  int columns() const;
  int column_of_port(int port) const;
  int port_of_column(int column) const;

  // The row of a packet from source node `src` to destination node `dst` at
  // `router`; -1 when dst is in the router's own group.
  int row(int router, int src, int dst) const;
  // The destination group of `row` at `router`.
  int dst_group_of_row(int router, int row) const;

  // The zero-load time, in cycles, from a packet's arrival at `router` to its
  // arrival at the first router of `dst_group`, leaving through column
  // `column` and minimally from the router that leads to: hop_cycles() of
  // each link on the way. The entry's initial value: the estimate of an
  // empty network. With routing.q_initial = "flat", the authors' code's
  // values instead: one global hop for the router's own global link to
  // dst_group, one global and one local hop for every other column.
  int initial_cycles(int router, int dst_group, int column) const;

  // A hop's time r in an empty network over a link of `link_latency`
  // cycles, as routing.q_stamp measures it: from the arrival at one router
  // to the arrival at the next, hop_latency() (gen/include/rlroute/gen/
  // pipeline.hpp); from the crossbar of one to the next one's decision, the
  // link latency (the output register and the link's registers after it)
  // and routing.q_decision_cycles (from the route unit to the answer); from
  // the VC request of one, the cycles to its crossbar as well.
  static int hop_cycles(const Config& cfg, int link_latency);

 private:
  // Zero-load cycles from arrival at `router` to the first router of `group`
  // along the minimal path (0 when `router` is in it).
  int minimal_cycles(int router, int group) const;

  const Design& design_;
  const Topology& topo_;
};

}  // namespace rlroute
