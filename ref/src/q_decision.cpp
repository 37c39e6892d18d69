#include "rlroute/ref/q_decision.hpp"

#include <stdexcept>
#include <vector>

namespace rlroute::ref {

namespace {

template <typename T>
unsigned argmin(std::span<const T> row) {
  if (row.empty()) throw std::invalid_argument("q_argmin: empty row");
  unsigned best = 0;
  for (unsigned c = 1; c < row.size(); ++c)
    if (row[c] < row[best]) best = c;
  return best;
}

template <typename T>
unsigned best_in(std::span<const T> row, unsigned first, unsigned end, unsigned except) {
  if (end > row.size() || first > end) throw std::invalid_argument("q_best_in: the columns are not inside the row");
  unsigned best = except;
  for (unsigned c = first; c < end; ++c) {
    if (c != except && (best == except || row[c] < row[best])) best = c;
  }
  return best;
}

}  // namespace

unsigned q_argmin(std::span<const uint32_t> row) { return argmin(row); }

bool q_keep_minimal(uint64_t q_min, uint64_t q_other, uint32_t thld, unsigned thld_bits) {
  if (q_min >= (uint64_t{1} << 40) || q_other >= (uint64_t{1} << 40))
    throw std::invalid_argument("q_keep_minimal: a value of 2^40 or more");
  const int64_t lhs = (static_cast<int64_t>(q_min) - static_cast<int64_t>(q_other)) * (int64_t{1} << thld_bits);
  const int64_t rhs = int64_t{thld} * static_cast<int64_t>(q_min);
  return lhs < rhs;
}

unsigned q_best_in(std::span<const uint32_t> row, unsigned first, unsigned end, unsigned except) {
  return best_in(row, first, end, except);
}

unsigned q_decide(const QDecisionInput& in, const QThresholds& thresholds) {
  if (in.min_port >= in.row.size() || in.random_local >= in.row.size() || in.random_port >= in.row.size())
    throw std::invalid_argument("q_decide: a port column is outside the row");
  if (in.queue_weight > 0 && in.queue.size() != in.row.size())
    throw std::invalid_argument("q_decide: the queue has not one value per column");
  if (in.role == QRole::kMinimal) return in.min_port;
  // What the decision compares: the entries, plus the local queues when weighed.
  std::vector<uint64_t> value(in.row.begin(), in.row.end());
  if (in.queue_weight > 0) {
    for (unsigned c = 0; c < value.size(); ++c)
      value[c] += (uint64_t{in.queue[c]} * in.queue_weight) << in.fraction_bits;
  }
  const std::vector<uint64_t> entries(in.row.begin(), in.row.end());
  const bool source = in.role == QRole::kSource, source_group = in.role == QRole::kSourceGroup;
  // The candidate against the minimal port, in an order of the columns.
  const auto candidate = [&](std::span<const uint64_t> v) {
    if (source) return argmin(v);
    if (source_group) return best_in(v, in.global_first, static_cast<unsigned>(v.size()), in.min_port);
    return in.local_columns > 0 ? best_in(v, 0, in.local_columns, in.min_port) : in.random_local;
  };
  const unsigned other = candidate(value);
  // The test weighs the compared values, or the table's entries alone.
  const std::span<const uint64_t> t(in.queue_weight > 0 && !in.queue_in_test ? entries : value);
  const unsigned tested = candidate(t);
  const uint32_t thld = source || source_group ? thresholds.source : thresholds.intermediate;
  const bool keep = tested == in.min_port || q_keep_minimal(t[in.min_port], t[tested], thld, thresholds.thld_bits);
  const unsigned chosen = keep || other == in.min_port ? in.min_port : other;
  return in.explore && !source_group ? in.random_port : chosen;
}

}  // namespace rlroute::ref
