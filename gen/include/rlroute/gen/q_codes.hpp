// Q-adaptive's config keys as the hardware takes them (docs/q_adaptive.md):
// the rates, thresholds and exploration probability as fixed-point codes,
// and the widths of the per-hop time stamp and of the credit word's feedback
// field. The RTL's side of each fact is named beside it.
#pragma once

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

// Bits of the feedback field of a credit word (rr_pkg::q_feedback_width):
// {valid, row, target}.
int q_feedback_bits(int rows, int value_bits);

}  // namespace rlroute
