// Q-adaptive's config keys as the hardware takes them (docs/q_adaptive.md):
// the rates, thresholds and exploration probability as fixed-point codes,
// and the widths of the per-hop time stamp and of the credit word's feedback
// field. The RTL's side of each fact is named beside it.
#pragma once

#include <cstdint>

#include "rlroute/gen/config.hpp"

namespace rlroute {

// Bits of a per-hop time stamp and of a hop's r (rr_pkg::Q_STAMP_W).
inline constexpr int kQStampBits = 16;
// Fraction bits of alpha and beta (rr_q_update RB), of q_thld1 and q_thld2
// (rr_q_decide TB) and of epsilon (rr_q_unit EPS, compared with 16 LFSR bits).
inline constexpr unsigned kQRateBits = 12;
inline constexpr unsigned kQThresholdBits = 10;
inline constexpr unsigned kQEpsilonBits = 16;

struct QCodes {
  unsigned alpha, beta;        // round(x * 2^kQRateBits)
  unsigned thld1, thld2;       // round(x * 2^kQThresholdBits)
  unsigned epsilon;            // round(x * 2^kQEpsilonBits)
};
QCodes q_codes(const Config& cfg);

// A feedback word: the target value r + Q_y for row `row` of the upstream
// router's table, sent with a credit (docs/q_adaptive.md).
struct QFeedback {
  bool valid = false;
  int row = 0;
  std::uint32_t target = 0;
};

// The feedback field of a credit word, LSB first {valid, row, target}. The
// one C++ description of the word; its SV side is rr_pkg::q_feedback_width
// and rr_q_unit's packing, held to it by rr_q_unit's block test.
struct QFeedbackLayout {
  int row_bits = 1;    // rr_pkg::id_width(rows)
  int value_bits = 0;  // routing.q_value_bits

  QFeedbackLayout(int rows, int value_bits);
  int bits() const { return 1 + row_bits + value_bits; }
  std::uint64_t encode(const QFeedback& feedback) const;
  QFeedback decode(std::uint64_t word) const;
};

}  // namespace rlroute
