// Q-adaptive's tables as the test bench sees them: a copy of every router's
// Q-table kept by the bit-exact reference (rlroute::ref::q_update) from the
// feedback the routers send each other on the credit channel, cycle for
// cycle (docs/q_adaptive.md, "The router"). It is
//   - a check: every feedback word a router sends must be the one a head
//     it took in on that port owes: its row at the upstream router, and the
//     target r + Q_y with r from the cycles the checker saw the head arrive
//     at both routers and Q_y the minimum of the head's row in this copy of
//     the sender's table; and every such head sends one before it leaves.
//     As Q_y is read from the hardware's table, a wrong update, initial
//     value, row or time stamp anywhere shows as a wrong target. Heads of
//     one row send identical words when their r are equal or their targets
//     saturate, so the check cannot always tell whose word it saw: it keeps
//     a matching between words and the heads each word fits (a bipartite
//     graph per input port), and fails only when no matching pays every
//     word and every head that has left (augmenting paths: exact, not
//     greedy; docs/architecture.md, "Q feedback check");
//   - the observability of the tables: their mean value (the time series)
//     and a dump of any router's table.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/q_codes.hpp"
#include "rlroute/gen/q_table_layout.hpp"
#include "rlroute/ref/q_learning.hpp"
#include "rlroute/tb/side_band_check.hpp"

namespace rlroute {

class QMirror final : public SideBandCheck {
 public:
  explicit QMirror(const Design& design);

  // The network checker's side-band events (SideBandCheck), in terms of the
  // calls below.
  void head_arrived(int router, int port, unsigned key, const Header& h, std::int64_t cycle,
                    std::int64_t hop_cycles) override;
  std::string word_sent(int router, int port, std::uint64_t feedback, std::int64_t cycle) override {
    return feedback_sent(router, port, feedback, cycle);
  }
  // With routing.q_stamp = "crossbar" or "request" it also checks the time
  // stamp a head leaves with: a cycle after its arrival and not after its
  // departure.
  std::string head_left(int router, int port, unsigned key, const Header& h, std::int64_t cycle) override;
  bool routers_in_parallel() const override { return true; }

  // The checker's events, in its order within a cycle (network_checker.hpp);
  // each returns a violation or "". The events of different routers may
  // come from different threads at once: they touch only that router's
  // state (begin_cycle() applies the feedback, on one thread).
  void begin_cycle(std::int64_t cycle) override;
  std::string feedback_sent(int router, int port, std::uint64_t feedback, std::int64_t cycle);
  // A head arrived at `router` on `port`, `r` cycles after it arrived at
  // the router it came from (for a NIC port, r is not used).
  void head_arrived(int router, int port, unsigned key, int src, int dst, std::int64_t r, std::uint32_t stamp = 0);
  std::string head_left(int router, int port, unsigned key);

  // Router `router`'s table, rows x columns, as Q-value codes.
  const std::vector<std::uint32_t>& table(int router) const { return tables_[static_cast<size_t>(router)]; }
  // The mean of every entry of every table, in cycles.
  double mean_cycles() const;
  // Each row's estimate through its minimal port (the column with the
  // smallest zero-load value) and its best estimate through any other port,
  // each averaged over every row of every table, in cycles.
  struct PortEstimates {
    double minimal = 0, best_other = 0;
  };
  PortEstimates port_estimates() const;
  // One router's table as text: a row per line, values in cycles.
  std::string dump(int router) const;
  std::int64_t updates() const { return updates_; }

 private:
  // A head that owes its upstream router feedback, in the matching of its
  // input port. It stays after it leaves for as long as a word it fits may
  // still have to move to another head.
  struct Head {
    unsigned key;
    int row_up;          // its row at the upstream router
    std::int64_t r;      // cycles from its arrival there to its arrival here
    std::uint32_t stamp;  // r_at_decision(routing.q_stamp): the stamp it left there with (r: at the word)
    int row_here;        // its row here (-1 in its destination group: Q_y = 0)
    bool here = true;    // it has not left yet
    int word = -1;       // the word matched to it
    std::vector<int> fits;  // the words it fits
  };
  // A feedback word the router sent on this port.
  struct Word {
    int row;
    std::uint32_t target;
    int head = -1;          // the head matched to it (always one)
    std::vector<int> fits;  // the heads here when it was sent whose target it is
  };
  struct Matching {
    std::vector<Head> heads;
    std::vector<Word> words;
    std::vector<char> seen;  // scratch for one augmenting-path search
  };
  struct Update {
    std::int64_t cycle;  // the cycle the word reaches the upstream router's input
    int router, column, row;
    std::uint32_t target;
  };

  std::uint32_t q_y(int router, int row) const;
  // A head's r when a word of `word_cycle` pays it.
  std::int64_t r_of(const Head& head, std::int64_t word_cycle) const;
  // Cycles from `stamp` to the hardware cycle `now`, modulo the stamp's width.
  std::int64_t since_stamp(std::int64_t now, std::uint32_t stamp) const;
  // Augmenting paths: give word `w` a head, moving other words to other
  // heads that fit them; give head `h`, which is leaving, a word, taking it
  // from a head still here or from one that left and can take another.
  static bool match_word(Matching& m, int w);
  static bool match_leaving_head(Matching& m, int h);
  // Forget `h`'s connected part of the graph if every head in it has left:
  // no later word or head can reach it.
  static void forget_if_settled(Matching& m, int h);

  const Design& design_;
  const Topology& topo_;
  QTableLayout layout_;
  ref::QFormat format_;
  ref::QRates rates_;
  int columns_;
  QFeedbackLayout feedback_layout_;
  std::vector<std::vector<std::uint32_t>> tables_;
  std::vector<int> minimal_column_;  // [router * rows + row]
  std::vector<std::vector<Update>> in_flight_;  // per router, the words it sent, in order
  std::vector<std::map<unsigned, std::int64_t>> arrived_;  // per router, its heads' arrival cycles (r_at_decision)
  std::vector<Matching> matchings_;  // [router * ports + input port]
  std::int64_t updates_ = 0;
};

}  // namespace rlroute
