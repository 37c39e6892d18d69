// Bit-field access to Verilated ports of any width: narrow ports are C
// integers, ports wider than 64 bits are VlWide arrays of 32-bit words.
#pragma once

#include <cstdint>
#include <type_traits>

#include "rlroute/bits.hpp"
#include "rlroute/model.hpp"
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

// Link word {data, vc, tail, head, valid} at bit offset `base`.
template <typename T>
LinkFlit read_flit(const T& port, int base, int vc_bits, int flit_bits) {
  LinkFlit f;
  f.valid = get_bit(port, base);
  if (!f.valid) return f;
  f.head = get_bit(port, base + 1);
  f.tail = get_bit(port, base + 2);
  f.vc = static_cast<int>(get_field(port, base + 3, vc_bits));
  const int data_lsb = base + 3 + vc_bits;
  for (int i = 0; i < flit_bits; i += 64) {
    const int w = std::min(64, flit_bits - i);
    f.data.set(i, w, get_field(port, data_lsb + i, w));
  }
  return f;
}

template <typename T>
void write_flit(T& port, int base, int vc_bits, int flit_bits, const LinkFlit& f) {
  set_bit(port, base, f.valid);
  set_bit(port, base + 1, f.valid && f.head);
  set_bit(port, base + 2, f.valid && f.tail);
  set_field(port, base + 3, vc_bits, f.valid ? static_cast<std::uint64_t>(f.vc) : 0);
  const int data_lsb = base + 3 + vc_bits;
  for (int i = 0; i < flit_bits; i += 64) {
    const int w = std::min(64, flit_bits - i);
    set_field(port, data_lsb + i, w, f.valid ? f.data.get(i, w) : 0);
  }
}

template <typename T>
LinkCredit read_credit(const T& port, int base, int vc_bits) {
  LinkCredit c;
  c.valid = get_bit(port, base);
  if (c.valid) c.vc = static_cast<int>(get_field(port, base + 1, vc_bits));
  return c;
}

template <typename T>
void write_credit(T& port, int base, int vc_bits, const LinkCredit& c) {
  set_bit(port, base, c.valid);
  set_field(port, base + 1, vc_bits, c.valid ? static_cast<std::uint64_t>(c.vc) : 0);
}

}  // namespace rlroute::adapter
