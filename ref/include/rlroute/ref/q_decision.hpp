// Bit-exact reference of Q-adaptive's decision ([Kang 2021], section 4,
// Figure 4 and Equation 2; the authors' code fills the gaps,
// docs/q_adaptive.md). Ports are table columns: 0 .. a-2 the local ports,
// a-1 .. k-p-1 the global ones. The random draws (explore or not, which port)
// come in as inputs: the RTL decision unit takes them from its LFSR, and its
// block test feeds the same draws to this function.
#pragma once

#include <cstdint>
#include <span>

namespace rlroute::ref {

// Column of the smallest value of a row; the lowest column on ties.
unsigned q_argmin(std::span<const uint32_t> row);

// Equation 2 without the division: keep the minimal port when
// dV = (q_min - q_other) / q_min < threshold, threshold = thld / 2^thld_bits,
// tested as (q_min - q_other) * 2^thld_bits < thld * q_min on signed integers.
// With q_min = 0 this is the floating-point answer too (a negative numerator
// is below any threshold; 0 / 0 is not).
bool q_keep_minimal(uint64_t q_min, uint64_t q_other, uint32_t thld, unsigned thld_bits);

// Where the router stands on the packet's path (Figure 4).
// The codes are the RTL's too (rr_pkg::Q_ROLE_*).
enum class QRole {
  kMinimal = 0,       // destination group, or past the decision points: route minimally
  kSource = 1,        // the source router: best port of the row against the minimal one (q_thld1)
  kIntermediate = 2,  // first router of the intermediate group, no global link to the destination
                      // group: a random local port (or the best one) against the minimal one (q_thld2)
  kSourceGroup = 3,   // routing.q_source_group = "decide" or "detour" (beyond the paper): the next router of the
                      // source group, reached by the source's minimal local hop ("decide") or by its local
                      // detour ("detour"): its best global port other than the minimal one against the
                      // minimal one (q_thld1); no exploration
};

struct QThresholds {
  unsigned thld_bits = 8;
  uint32_t source = 51;        // q_thld1 = round(0.2 x 256)
  uint32_t intermediate = 90;  // q_thld2 = round(0.35 x 256)
};

struct QDecisionInput {
  QRole role = QRole::kMinimal;
  std::span<const uint32_t> row;  // the packet's row, one value per column
  unsigned min_port = 0;          // the minimal port's column
  unsigned random_local = 0;      // kIntermediate: the random local column drawn
  bool explore = false;           // the epsilon draw came up (kSource, kIntermediate)
  unsigned random_port = 0;       // the column to explore through
  // kIntermediate with routing.q_intermediate = "best": the local columns,
  // 0 .. local_columns - 1, of which the lowest-valued one other than the
  // minimal port (the lowest column on ties) stands against the minimal
  // port instead of random_local. 0: random_local (the paper).
  unsigned local_columns = 0;
  // routing.q_queue_weight > 0 (beyond the paper): every comparison of the
  // decision weighs a column's entry plus its port's local queue, `queue[c]`
  // flits (the credits in use at the port), at queue_weight cycles per flit
  // in the entries' fixed point (fraction_bits): row[c] + queue[c] x
  // queue_weight x 2^fraction_bits. The estimate sent upstream (the row's
  // minimum) stays the table's. 0: the table alone (the paper).
  std::span<const uint32_t> queue{};
  unsigned queue_weight = 0;
  unsigned fraction_bits = 0;
  // kSourceGroup: the global columns are global_first .. row.size() - 1.
  unsigned global_first = 0;
  // With queue_weight > 0 and queue_in_test false (routing.q_queue_in =
  // "port", beyond the paper): the table's entries alone make the
  // keep-minimal test, against the candidate the entries name (the paper's
  // test); the weighed values only pick the port taken when the minimal one
  // is not kept.
  bool queue_in_test = true;
};

// The lowest-valued of the columns first .. end - 1 other than `except`
// (the lowest column on ties), or `except` if there is none.
unsigned q_best_in(std::span<const uint32_t> row, unsigned first, unsigned end, unsigned except);

// The column the packet leaves by.
unsigned q_decide(const QDecisionInput& in, const QThresholds& thresholds);

}  // namespace rlroute::ref
