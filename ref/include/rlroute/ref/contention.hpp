// Bit-exact reference of UGAL-LE's contention counters at one router
// ([Chaulagain 2024], section 4.2.1; rtl/rr_contention.sv;
// docs/routing_dragonfly.md, "UGAL-LE"). Counter F[i][j] adds the length of
// every packet whose head the router sees arrive on a terminal or local port,
// from source router i of its own group to destination group j; it saturates
// at threshold + 1. Windows are tumbling: the clock edge e (1, 2, ... after
// reset) belongs to window e / window, and a flow is active when its count is
// above the threshold in the current window or was at the end of the
// previous one. C_j is the number of routers i with an active flow to j.
#pragma once

#include <cstdint>
#include <vector>

namespace rlroute::ref {

class ContentionCounters {
 public:
  ContentionCounters(int routers_in_group, int groups, int window, int threshold);

  // Clock edge `edge` registers a head from source router `i` of the group to
  // destination group `j` with `length` flits. Edges come in order; the
  // heads of one edge in any order.
  void count(std::int64_t edge, int i, int j, unsigned length);
  // The state after clock edge `edge` (no head counted at it).
  void advance_to(std::int64_t edge);

  bool active(int i, int j) const;
  // Active by the previous window's verdict.
  bool previous(int i, int j) const { return previous_[static_cast<std::size_t>(i * groups_ + j)]; }
  // C_j, as rr_contention's contention_o.
  int factor(int j) const;
  int groups() const { return groups_; }

 private:
  int a_, groups_;
  std::int64_t window_, saturated_;
  std::int64_t current_ = 0;  // window of the last edge seen
  std::vector<std::int64_t> count_;
  std::vector<bool> previous_;
};

}  // namespace rlroute::ref
