// Q-adaptive's fixed-point codes; see the header.
#include "rlroute/gen/q_codes.hpp"

#include <algorithm>

#include "rlroute/gen/topology.hpp"
#include "rlroute/ref/q_learning.hpp"

namespace rlroute {

QCodes q_codes(const Config& cfg) {
  return {ref::fraction_code(cfg.alpha, kQRateBits),    ref::fraction_code(cfg.beta, kQRateBits),
          ref::fraction_code(cfg.q_thld1, kQThresholdBits), ref::fraction_code(cfg.q_thld2, kQThresholdBits),
          ref::fraction_code(cfg.epsilon, kQEpsilonBits)};
}

int q_feedback_bits(int rows, int value_bits) { return 1 + std::max(1, bits_for(rows)) + value_bits; }

}  // namespace rlroute
