#include "rlroute/ref/q_decision.hpp"

#include <stdexcept>

namespace rlroute::ref {

unsigned q_argmin(std::span<const uint32_t> row) {
  if (row.empty()) throw std::invalid_argument("q_argmin: empty row");
  unsigned best = 0;
  for (unsigned c = 1; c < row.size(); ++c)
    if (row[c] < row[best]) best = c;
  return best;
}

bool q_keep_minimal(uint32_t q_min, uint32_t q_other, uint32_t thld, unsigned thld_bits) {
  const int64_t lhs = (int64_t{q_min} - int64_t{q_other}) * (int64_t{1} << thld_bits);
  const int64_t rhs = int64_t{thld} * int64_t{q_min};
  return lhs < rhs;
}

unsigned q_best_local(std::span<const uint32_t> row, unsigned local_columns, unsigned except) {
  if (local_columns > row.size()) throw std::invalid_argument("q_best_local: more local columns than the row has");
  unsigned best = except;
  for (unsigned c = 0; c < local_columns; ++c) {
    if (c != except && (best == except || row[c] < row[best])) best = c;
  }
  return best;
}

unsigned q_decide(const QDecisionInput& in, const QThresholds& thresholds) {
  if (in.min_port >= in.row.size() || in.random_local >= in.row.size() || in.random_port >= in.row.size())
    throw std::invalid_argument("q_decide: a port column is outside the row");
  if (in.role == QRole::kMinimal) return in.min_port;
  const bool source = in.role == QRole::kSource;
  const unsigned local =
      in.local_columns > 0 ? q_best_local(in.row, in.local_columns, in.min_port) : in.random_local;
  const unsigned other = source ? q_argmin(in.row) : local;
  const uint32_t thld = source ? thresholds.source : thresholds.intermediate;
  const unsigned chosen =
      (other == in.min_port || q_keep_minimal(in.row[in.min_port], in.row[other], thld, thresholds.thld_bits))
          ? in.min_port
          : other;
  return in.explore ? in.random_port : chosen;
}

}  // namespace rlroute::ref
