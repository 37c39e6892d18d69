// Q-adaptive's tables as the test bench sees them: a copy of every router's
// Q-table kept by the bit-exact reference (rlroute::ref::q_update) from the
// feedback the routers send each other on the credit channel, cycle for
// cycle (docs/q_adaptive.md, "The router"). It is
//   - a check: every feedback word a router sends must be the one a head it
//     took in on that port owes: its row at the upstream router, and the
//     target r + Q_y with r from the cycles the checker saw the head arrive
//     at both routers and Q_y the minimum of the head's row in this copy of
//     the sender's table; and every such head sends one before it leaves.
//     As Q_y is read from the hardware's table, a wrong update, initial
//     value, row or time stamp anywhere shows as a wrong target;
//   - the observability of the tables: their mean value (the time series)
//     and a dump of any router's table.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/q_table_layout.hpp"
#include "rlroute/ref/q_learning.hpp"

namespace rlroute {

class QMirror {
 public:
  explicit QMirror(const Design& design);

  // The checker's events, in its order within a cycle (network_checker.hpp);
  // each returns a violation or "".
  void begin_cycle(std::int64_t cycle);
  std::string feedback_sent(int router, int port, std::uint64_t feedback, std::int64_t cycle);
  void head_arrived(int router, int port, unsigned key, int src, int dst, std::int64_t cycle);
  std::string head_left(int router, int port, unsigned key);

  // Router `router`'s table, rows x columns, as Q-value codes.
  const std::vector<std::uint32_t>& table(int router) const { return tables_[static_cast<size_t>(router)]; }
  // The mean of every entry of every table, in cycles.
  double mean_cycles() const;
  // One router's table as text: a row per line, values in cycles.
  std::string dump(int router) const;
  std::int64_t updates() const { return updates_; }

 private:
  // A head that owes its upstream router feedback.
  struct Owed {
    unsigned key;
    int row_up;          // its row at the upstream router
    std::int64_t r;      // cycles from its arrival there to its arrival here
    int row_here;        // its row here (-1 in its destination group: Q_y = 0)
    bool fed = false;    // a feedback word has been matched to it
    // That word's target and the Q_y it was checked with. Heads of one row
    // share Q_y, and their words are identical when their r are equal or
    // their targets saturate, so the word may have been another head's: any
    // head of the row whose target with this Q_y is this target.
    std::uint32_t paid_target = 0, paid_q_y = 0;
  };
  struct Update {
    std::int64_t cycle;  // the cycle the word reaches the upstream router's input
    int router, column, row;
    std::uint32_t target;
  };

  std::uint32_t q_y(int router, int row) const;

  const Design& design_;
  const Topology& topo_;
  QTableLayout layout_;
  ref::QFormat format_;
  ref::QRates rates_;
  int columns_;
  int row_bits_;
  std::vector<std::vector<std::uint32_t>> tables_;
  std::vector<Update> in_flight_;
  std::vector<std::vector<Owed>> owed_;  // [router * ports + input port]
  std::unordered_map<unsigned, std::int64_t> arrived_;  // packet key -> cycle it arrived at its current router
  std::int64_t updates_ = 0;
};

}  // namespace rlroute
