// Bit-exact reference of Q-adaptive's learning arithmetic ([Kang 2021],
// section 4, Equation 3; docs/q_adaptive.md): the fixed-point format of a
// Q-value, the feedback target r + Q_y, and the hysteretic update of one table
// entry. The RTL update unit (rr_q_update) must agree with q_update() on every
// input; its block test compares the two.
#pragma once

#include <cstdint>

namespace rlroute::ref {

// A Q-value is an unsigned value_bits-wide number of cycles with
// fraction_bits of them after the binary point; 0 .. 2^value_bits - 1 codes.
struct QFormat {
  unsigned value_bits = 16;
  unsigned fraction_bits = 4;

  uint32_t max_code() const { return (value_bits >= 32) ? UINT32_MAX : (uint32_t{1} << value_bits) - 1; }
  // Cycles as a Q-value code, saturated at max_code().
  uint32_t from_cycles(uint64_t cycles) const;
};

// The learning rates as unsigned fractions of 2^rate_bits: alpha applies when
// the estimate falls (delta < 0), beta when it rises ([Kang 2021]: alpha 0.2,
// beta 0.04).
struct QRates {
  unsigned rate_bits = 8;
  uint32_t alpha = 51;  // round(0.2 x 256)
  uint32_t beta = 10;   // round(0.04 x 256)
};

// round(x * 2^bits) for 0 <= x <= 1: how the generator turns a config's
// decimal rate, threshold or probability into the hardware's code.
uint32_t fraction_code(double x, unsigned bits);

// The feedback target x learns from: r cycles from the packet's arrival at x
// to its arrival at y, plus y's best estimate Q_y (a code), saturated.
uint32_t q_target(const QFormat& format, uint64_t r_cycles, uint32_t q_y);

// Equation 3 on codes: delta = target - q_x; q_x + floor(delta * rate /
// 2^rate_bits) with rate = alpha if delta < 0 else beta, saturated to
// [0, max_code()]. Floor (an arithmetic shift) is what the authors' code does
// on integer nanoseconds: it truncates Q + rate x delta, which is never
// negative, toward zero.
uint32_t q_update(const QFormat& format, const QRates& rates, uint32_t q_x, uint32_t target);

}  // namespace rlroute::ref
