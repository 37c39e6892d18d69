// Bit-field access to Verilated ports of any width: narrow ports are C
// integers, ports wider than 64 bits are VlWide arrays of 32-bit words.
#pragma once

#include <cstdint>
#include <type_traits>

#include "rlroute/gen/bits.hpp"
#include "rlroute/gen/link_layout.hpp"
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

template <typename T>
std::uint64_t get_field(const T& port, int lsb, int width) {
  std::uint64_t v = 0;
  for (int i = 0; i < width; ++i) v |= static_cast<std::uint64_t>(get_bit(port, lsb + i)) << i;
  return v;
}

template <typename T>
void set_field(T& port, int lsb, int width, std::uint64_t value) {
  for (int i = 0; i < width; ++i) set_bit(port, lsb + i, (value >> i) & 1u);
}

// Link word (LinkLayout) at bit offset `base`.
template <typename T>
LinkFlit read_flit(const T& port, int base, const LinkLayout& l) {
  LinkFlit f;
  f.valid = get_bit(port, base + LinkLayout::kValid);
  if (!f.valid) return f;
  f.head = get_bit(port, base + LinkLayout::kHead);
  f.tail = get_bit(port, base + LinkLayout::kTail);
  f.vc = static_cast<int>(get_field(port, base + LinkLayout::kVcLsb, l.vc_bits));
  for (int i = 0; i < l.flit_bits; i += 64) {
    const int w = std::min(64, l.flit_bits - i);
    f.data.set(i, w, get_field(port, base + l.data_lsb() + i, w));
  }
  return f;
}

template <typename T>
void write_flit(T& port, int base, const LinkLayout& l, const LinkFlit& f) {
  set_bit(port, base + LinkLayout::kValid, f.valid);
  set_bit(port, base + LinkLayout::kHead, f.valid && f.head);
  set_bit(port, base + LinkLayout::kTail, f.valid && f.tail);
  set_field(port, base + LinkLayout::kVcLsb, l.vc_bits, f.valid ? static_cast<std::uint64_t>(f.vc) : 0);
  for (int i = 0; i < l.flit_bits; i += 64) {
    const int w = std::min(64, l.flit_bits - i);
    set_field(port, base + l.data_lsb() + i, w, f.valid ? f.data.get(i, w) : 0);
  }
}

// Credit word (LinkLayout) at bit offset `base`.
template <typename T>
LinkCredit read_credit(const T& port, int base, const LinkLayout& l) {
  LinkCredit c;
  c.valid = get_bit(port, base + LinkLayout::kCreditValid);
  if (c.valid) c.vc = static_cast<int>(get_field(port, base + LinkLayout::kCreditVcLsb, l.vc_bits));
  if (l.feedback_bits > 0) c.feedback = get_field(port, base + l.feedback_lsb(), l.feedback_bits);
  return c;
}

template <typename T>
void write_credit(T& port, int base, const LinkLayout& l, const LinkCredit& c) {
  set_bit(port, base + LinkLayout::kCreditValid, c.valid);
  set_field(port, base + LinkLayout::kCreditVcLsb, l.vc_bits, c.valid ? static_cast<std::uint64_t>(c.vc) : 0);
  if (l.feedback_bits > 0) set_field(port, base + l.feedback_lsb(), l.feedback_bits, c.feedback);
}

}  // namespace rlroute::adapter
