// Bit-field access to Verilated ports of any width: narrow ports are C
// integers, ports wider than 64 bits are VlWide arrays of 32-bit words.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "rlroute/gen/bits.hpp"
#include "rlroute/gen/link_layout.hpp"
#include "rlroute/gen/link_words.hpp"
#include "rlroute/tb/model.hpp"
#include "verilated.h"

namespace rlroute::adapter {

template <typename T>
bool get_bit(const T& port, int bit) {
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<std::uint64_t>(port) >> bit) & 1u;
  } else {
    return (port[static_cast<size_t>(bit / 32)] >> (bit % 32)) & 1u;
  }
}

template <typename T>
void set_bit(T& port, int bit, bool value) {
  if constexpr (std::is_integral_v<T>) {
    const T mask = static_cast<T>(T{1} << bit);
    port = value ? static_cast<T>(port | mask) : static_cast<T>(port & ~mask);
  } else {
    const std::uint32_t mask = 1u << (bit % 32);
    auto& word = port[static_cast<size_t>(bit / 32)];
    word = value ? (word | mask) : (word & ~mask);
  }
}

inline std::uint64_t low_mask(int width) {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

// The 64 bits of a port from bit `lsb` on (bits past its end read as 0): on a
// wide port two or three word loads and shifts.
template <typename T>
[[gnu::always_inline]] inline std::uint64_t window(const T& port, int lsb) {
  if constexpr (std::is_integral_v<T>) {
    return lsb >= 64 ? 0 : static_cast<std::uint64_t>(port) >> lsb;
  } else {
    constexpr std::size_t kWords = std::extent_v<decltype(T::m_storage)>;
    const auto i = static_cast<std::size_t>(lsb / 32);
    const int shift = lsb % 32;
    std::uint64_t v = port[i];
    if (i + 1 < kWords) v |= std::uint64_t{port[i + 1]} << 32;
    if (shift != 0) {
      v >>= shift;
      if (i + 2 < kWords) v |= std::uint64_t{port[i + 2]} << (64 - shift);
    }
    return v;
  }
}

// Bits [lsb, lsb + width) of a port, width <= 64.
template <typename T>
std::uint64_t get_field(const T& port, int lsb, int width) {
  if (width == 0) return 0;
  return window(port, lsb) & low_mask(width);
}

// Writes bits [lsb, lsb + bits) of a port from `src` (bit 0 of src[0] first;
// src holds at least bits / 64 + 1 words); the port's other bits keep their
// values. The harness writes every link word this way, a whole word at once.
template <typename T>
[[gnu::always_inline]] inline void set_span(T& port, int lsb, int bits, const std::uint64_t* src) {
  if (bits == 0) return;
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t mask = low_mask(bits) << lsb;
    const auto p = static_cast<std::uint64_t>(port);
    port = static_cast<T>((p & ~mask) | ((src[0] << lsb) & mask));
  } else {
    const int first = lsb / 32, last = (lsb + bits - 1) / 32;
    for (int w = first; w <= last; ++w) {
      const int at = w * 32 - lsb;  // the source bit that lands on the word's bit 0 (< 0: the field starts inside)
      std::uint32_t value, mask = ~std::uint32_t{0};
      if (at < 0) {
        value = static_cast<std::uint32_t>(src[0] << -at);
        mask <<= -at;
      } else {
        const auto k = static_cast<std::size_t>(at / 64);
        const int shift = at % 64;
        std::uint64_t v = src[k] >> shift;
        if (shift > 32) v |= src[k + 1] << (64 - shift);
        value = static_cast<std::uint32_t>(v);
      }
      const int end = lsb + bits - w * 32;  // bits of the field in this word and below
      if (end < 32) mask &= (std::uint32_t{1} << end) - 1;
      auto& word = port[static_cast<size_t>(w)];
      word = (word & ~mask) | (value & mask);
    }
  }
}

template <typename T>
void set_field(T& port, int lsb, int width, std::uint64_t value) {
  const std::uint64_t src[2] = {value & low_mask(width), 0};
  set_span(port, lsb, width, src);
}

// Link word (LinkLayout) at bit offset `base`, unpacked and packed by
// rlroute/gen/link_words.hpp.
template <typename T>
[[gnu::always_inline]] inline LinkFlit read_flit(const T& port, int base, const LinkLayout& l) {
  return unpack_flit(l, [&port, base](int lsb) { return window(port, base + lsb); });
}

template <typename T>
[[gnu::always_inline]] inline void write_flit(T& port, int base, const LinkLayout& l, const LinkFlit& f) {
  const LinkWord word = pack_flit(l, f);
  set_span(port, base, l.link_bits(), word.data());
}

// Credit word (LinkLayout) at bit offset `base`.
template <typename T>
[[gnu::always_inline]] inline LinkCredit read_credit(const T& port, int base, const LinkLayout& l) {
  return unpack_credit(l, [&port, base](int lsb) { return window(port, base + lsb); });
}

template <typename T>
[[gnu::always_inline]] inline void write_credit(T& port, int base, const LinkLayout& l, const LinkCredit& c) {
  const CreditWord word = pack_credit(l, c);
  set_span(port, base, l.credit_bits(), word.data());
}

}  // namespace rlroute::adapter
