// Q-adaptive's fixed-point codes; see the header.
#include "rlroute/gen/q_codes.hpp"

#include <algorithm>

#include "rlroute/gen/topology.hpp"
#include "rlroute/ref/q_learning.hpp"

namespace rlroute {

namespace {
std::uint64_t low_mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }
}  // namespace

QCodes q_codes(const Config& cfg) {
  return {ref::fraction_code(cfg.alpha, kQRateBits),    ref::fraction_code(cfg.beta, kQRateBits),
          ref::fraction_code(cfg.q_thld1, kQThresholdBits), ref::fraction_code(cfg.q_thld2, kQThresholdBits),
          ref::fraction_code(cfg.epsilon, kQEpsilonBits)};
}

QFeedbackLayout::QFeedbackLayout(int rows, int value_bits)
    : row_bits(std::max(1, bits_for(rows))), value_bits(value_bits) {}

std::uint64_t QFeedbackLayout::encode(const QFeedback& f) const {
  if (!f.valid) return 0;
  const std::uint64_t row = static_cast<std::uint64_t>(f.row) & low_mask(row_bits);
  return 1u | (row << 1) | ((std::uint64_t{f.target} & low_mask(value_bits)) << (1 + row_bits));
}

QFeedback QFeedbackLayout::decode(std::uint64_t word) const {
  return {(word & 1u) != 0, static_cast<int>((word >> 1) & low_mask(row_bits)),
          static_cast<std::uint32_t>((word >> (1 + row_bits)) & low_mask(value_bits))};
}

}  // namespace rlroute
