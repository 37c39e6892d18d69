#include "rlroute/ref/q_learning.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rlroute::ref {

uint32_t QFormat::from_cycles(uint64_t cycles) const {
  const uint64_t limit = max_code();
  if (fraction_bits >= 32 || cycles > (limit >> fraction_bits)) return static_cast<uint32_t>(limit);
  return static_cast<uint32_t>(cycles << fraction_bits);
}

uint32_t fraction_code(double x, unsigned bits) {
  if (!(x >= 0.0 && x <= 1.0) || bits > 16)
    throw std::invalid_argument("fraction_code: x must be in 0..1 and bits at most 16");
  return static_cast<uint32_t>(std::lround(std::ldexp(x, static_cast<int>(bits))));
}

uint32_t q_target(const QFormat& format, uint64_t r_cycles, uint32_t q_y) {
  const uint64_t sum = uint64_t{format.from_cycles(r_cycles)} + q_y;
  return static_cast<uint32_t>(std::min<uint64_t>(sum, format.max_code()));
}

uint32_t q_update(const QFormat& format, const QRates& rates, uint32_t q_x, uint32_t target) {
  const int64_t delta = int64_t{target} - int64_t{q_x};
  const int64_t rate = (delta < 0) ? rates.alpha : rates.beta;
  // >> on a negative int64_t is an arithmetic shift (C++20): floor division.
  const int64_t step = (delta * rate) >> rates.rate_bits;
  const int64_t next = int64_t{q_x} + step;
  return static_cast<uint32_t>(std::clamp<int64_t>(next, 0, format.max_code()));
}

}  // namespace rlroute::ref
