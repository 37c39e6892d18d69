// The harness's bit-field access to Verilated ports (tb/adapter/port_bits.hpp,
// a word at a time) against the plain bit-at-a-time definition, on narrow
// ports (C integers) and wide ones (VlWide): every field read and written at
// random positions and widths, and no bit outside a written field changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "port_bits.hpp"
#include "verilated.h"

using namespace rlroute::adapter;

namespace {

template <typename T>
std::uint64_t bitwise_get(const T& port, int lsb, int width) {
  std::uint64_t v = 0;
  for (int i = 0; i < width; ++i) v |= static_cast<std::uint64_t>(get_bit(port, lsb + i)) << i;
  return v;
}

template <typename T>
void bitwise_set(T& port, int lsb, int width, std::uint64_t value) {
  for (int i = 0; i < width; ++i) set_bit(port, lsb + i, (value >> i) & 1u);
}

template <typename T>
std::vector<std::uint64_t> words(const T& port, int bits) {
  std::vector<std::uint64_t> w;
  for (int lsb = 0; lsb < bits; lsb += 64) w.push_back(bitwise_get(port, lsb, std::min(64, bits - lsb)));
  return w;
}

// `bits` is the port's width; fields are drawn inside it.
template <typename T>
void check_random_fields(int bits, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  T mine{}, reference{};
  for (int k = 0; k < 20000; ++k) {
    const int width = static_cast<int>(rng() % static_cast<std::uint64_t>(std::min(64, bits) + 1));
    const int lsb = static_cast<int>(rng() % static_cast<std::uint64_t>(bits - width + 1));
    const std::uint64_t value = rng();
    set_field(mine, lsb, width, value);
    bitwise_set(reference, lsb, width, value);
    ASSERT_EQ(words(mine, bits), words(reference, bits)) << "set_field(" << lsb << ", " << width << ")";
    const int rw = static_cast<int>(rng() % static_cast<std::uint64_t>(std::min(64, bits) + 1));
    const int rl = static_cast<int>(rng() % static_cast<std::uint64_t>(bits - rw + 1));
    ASSERT_EQ(get_field(mine, rl, rw), bitwise_get(reference, rl, rw)) << "get_field(" << rl << ", " << rw << ")";
  }
}

}  // namespace

TEST(PortBits, WideFieldsMatchTheBitwiseDefinition) {
  check_random_fields<VlWide<11>>(352, 1);  // a 4x4 torus router's 5 links of 70 bits
  check_random_fields<VlWide<3>>(65, 2);    // just above a QData
}

TEST(PortBits, NarrowFieldsMatchTheBitwiseDefinition) {
  check_random_fields<QData>(64, 3);
  check_random_fields<QData>(40, 4);
  check_random_fields<IData>(32, 5);
  check_random_fields<IData>(17, 6);
  check_random_fields<SData>(16, 7);
  check_random_fields<CData>(8, 8);
  check_random_fields<CData>(1, 9);
}

TEST(PortBits, AFieldAcrossThreeWordsReadsAndWritesWhole) {
  VlWide<4> port{};
  set_field(port, 20, 64, 0xFEDCBA9876543210ull);  // bits 20..83: words 0, 1 and 2
  EXPECT_EQ(get_field(port, 20, 64), 0xFEDCBA9876543210ull);
  EXPECT_EQ(port[0], 0x21000000u);  // value bits 0..11 at 20..31
  EXPECT_EQ(port[1], 0xA9876543u);  // value bits 12..43
  EXPECT_EQ(port[2], 0xFEDCBu);     // value bits 44..63
  EXPECT_EQ(port[3], 0u);
  EXPECT_EQ(get_field(port, 0, 20), 0u);
}
