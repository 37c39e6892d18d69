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

namespace {

// The link and credit words field by field, a bit at a time (LinkLayout).
template <typename T>
void bitwise_write_flit(T& port, int base, const rlroute::LinkLayout& l, const rlroute::LinkFlit& f) {
  bitwise_set(port, base + rlroute::LinkLayout::kValid, 1, f.valid);
  bitwise_set(port, base + rlroute::LinkLayout::kHead, 1, f.valid && f.head);
  bitwise_set(port, base + rlroute::LinkLayout::kTail, 1, f.valid && f.tail);
  bitwise_set(port, base + rlroute::LinkLayout::kVcLsb, l.vc_bits, f.valid ? static_cast<std::uint64_t>(f.vc) : 0);
  for (int i = 0; i < l.flit_bits; i += 64) {
    const int w = std::min(64, l.flit_bits - i);
    bitwise_set(port, base + l.data_lsb() + i, w, f.valid ? f.data.get(i, w) : 0);
  }
}

template <typename T>
rlroute::LinkFlit bitwise_read_flit(const T& port, int base, const rlroute::LinkLayout& l) {
  rlroute::LinkFlit f;
  f.valid = bitwise_get(port, base + rlroute::LinkLayout::kValid, 1);
  if (!f.valid) return f;
  f.head = bitwise_get(port, base + rlroute::LinkLayout::kHead, 1);
  f.tail = bitwise_get(port, base + rlroute::LinkLayout::kTail, 1);
  f.vc = static_cast<int>(bitwise_get(port, base + rlroute::LinkLayout::kVcLsb, l.vc_bits));
  for (int i = 0; i < l.flit_bits; i += 64) {
    const int w = std::min(64, l.flit_bits - i);
    f.data.set(i, w, bitwise_get(port, base + l.data_lsb() + i, w));
  }
  return f;
}

template <typename T>
void fill_random(T& port, int bits, std::mt19937_64& rng) {
  for (int lsb = 0; lsb < bits; lsb += 64) bitwise_set(port, lsb, std::min(64, bits - lsb), rng());
}

bool same_flit(const rlroute::LinkFlit& a, const rlroute::LinkFlit& b) {
  return a.valid == b.valid && a.head == b.head && a.tail == b.tail && a.vc == b.vc && a.data == b.data;
}

// Every port of a `ports`-port word of layout l: random flits written over
// random contents change exactly the port's link word, as the bitwise
// definition does, and read back as the bitwise reading gives.
template <typename T>
void check_link_words(const rlroute::LinkLayout& l, int ports, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int bits = ports * l.link_bits();
  T mine{}, reference{};
  fill_random(mine, bits, rng);
  reference = mine;
  for (int k = 0; k < 4000; ++k) {
    const int base = static_cast<int>(rng() % static_cast<std::uint64_t>(ports)) * l.link_bits();
    rlroute::LinkFlit f;
    f.valid = rng() % 4 != 0;
    f.head = rng() & 1u;
    f.tail = rng() & 1u;
    f.vc = static_cast<int>(rng() % (1u << l.vc_bits));
    for (auto& w : f.data.words) w = rng();  // bits past flit_bits too: write_flit masks them
    write_flit(mine, base, l, f);
    bitwise_write_flit(reference, base, l, f);
    ASSERT_EQ(words(mine, bits), words(reference, bits)) << "write_flit at " << base;
    const int at = static_cast<int>(rng() % static_cast<std::uint64_t>(ports)) * l.link_bits();
    ASSERT_TRUE(same_flit(read_flit(mine, at, l), bitwise_read_flit(reference, at, l))) << "read_flit at " << at;
    if (k % 16 == 0) {
      fill_random(mine, bits, rng);
      reference = mine;
    }
  }
}

template <typename T>
void check_credit_words(const rlroute::LinkLayout& l, int ports, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int bits = ports * l.credit_bits();
  T mine{}, reference{};
  for (int k = 0; k < 4000; ++k) {
    const int base = static_cast<int>(rng() % static_cast<std::uint64_t>(ports)) * l.credit_bits();
    rlroute::LinkCredit c;
    c.valid = rng() & 1u;
    c.vc = static_cast<int>(rng() % (1u << l.vc_bits));
    c.feedback = rng();  // write_credit keeps feedback_bits of it
    write_credit(mine, base, l, c);
    bitwise_set(reference, base + rlroute::LinkLayout::kCreditValid, 1, c.valid);
    bitwise_set(reference, base + rlroute::LinkLayout::kCreditVcLsb, l.vc_bits,
                c.valid ? static_cast<std::uint64_t>(c.vc) : 0);
    bitwise_set(reference, base + l.feedback_lsb(), l.feedback_bits, c.feedback);
    ASSERT_EQ(words(mine, bits), words(reference, bits)) << "write_credit at " << base;
    const rlroute::LinkCredit back = read_credit(mine, base, l);
    EXPECT_EQ(back.valid, c.valid);
    if (c.valid) {
      EXPECT_EQ(back.vc, c.vc);
    }
    EXPECT_EQ(back.feedback, l.feedback_bits == 0 ? 0 : c.feedback & (l.feedback_bits >= 64 ? ~0ull : (1ull << l.feedback_bits) - 1));
  }
}

}  // namespace

TEST(PortBits, LinkWordsMatchTheFieldByFieldDefinition) {
  check_link_words<VlWide<11>>({1, 64, 0}, 5, 11);    // 4x4 torus: 5 links of 68 bits
  check_link_words<VlWide<11>>({2, 61, 0}, 5, 12);    // a flit width off the word grid
  check_link_words<VlWide<63>>({3, 128, 0}, 15, 13);  // a 15-port dragonfly router, 128-bit flits
  check_link_words<VlWide<34>>({2, 256, 0}, 4, 14);   // the widest flit
}

TEST(PortBits, CreditWordsMatchTheFieldByFieldDefinition) {
  check_credit_words<SData>({1, 64, 0}, 5, 21);    // 5 credit words of 2 bits in a narrow port
  check_credit_words<QData>({3, 64, 0}, 15, 22);   // 15 words of 4 bits
  check_credit_words<VlWide<26>>({3, 128, 51}, 15, 23);  // Q-adaptive's feedback field
  check_credit_words<VlWide<4>>({1, 64, 60}, 2, 24);
}
