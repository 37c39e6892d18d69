// FlitData's fields (gen/include/rlroute/gen/bits.hpp, a word at a time)
// against the plain bit-at-a-time definition: every field read and written at
// random positions and widths up to 64 bits, and no bit outside a written
// field changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "rlroute/gen/bits.hpp"

using namespace rlroute;

namespace {

bool bit(const FlitData& f, int i) { return (f.words[static_cast<size_t>(i / 64)] >> (i % 64)) & 1u; }

std::uint64_t bitwise_get(const FlitData& f, int lsb, int width) {
  std::uint64_t v = 0;
  for (int i = 0; i < width; ++i) v |= static_cast<std::uint64_t>(bit(f, lsb + i)) << i;
  return v;
}

void bitwise_set(FlitData& f, int lsb, int width, std::uint64_t value) {
  for (int i = 0; i < width; ++i) {
    auto& word = f.words[static_cast<size_t>((lsb + i) / 64)];
    const std::uint64_t m = std::uint64_t{1} << ((lsb + i) % 64);
    word = ((value >> i) & 1u) ? (word | m) : (word & ~m);
  }
}

}  // namespace

TEST(FlitData, FieldsMatchTheBitwiseDefinition) {
  std::mt19937_64 rng(11);
  FlitData mine, reference;
  for (int k = 0; k < 100000; ++k) {
    const int width = static_cast<int>(rng() % 65);
    const int lsb = static_cast<int>(rng() % static_cast<std::uint64_t>(kMaxFlitBits - width + 1));
    const std::uint64_t value = rng();
    mine.set(lsb, width, value);
    bitwise_set(reference, lsb, width, value);
    ASSERT_EQ(mine, reference) << "set(" << lsb << ", " << width << ")";
    const int rw = static_cast<int>(rng() % 65);
    const int rl = static_cast<int>(rng() % static_cast<std::uint64_t>(kMaxFlitBits - rw + 1));
    ASSERT_EQ(mine.get(rl, rw), bitwise_get(reference, rl, rw)) << "get(" << rl << ", " << rw << ")";
  }
}

TEST(FlitData, AFieldAcrossTwoWords) {
  FlitData f;
  f.set(60, 8, 0xFF);
  EXPECT_EQ(f.words[0], 0xFull << 60);
  EXPECT_EQ(f.words[1], 0xFu);
  EXPECT_EQ(f.get(60, 8), 0xFFu);
  EXPECT_EQ(f.get(56, 8), 0xF0u);
  f.set(192, 64, ~std::uint64_t{0});  // the last word whole
  EXPECT_EQ(f.words[3], ~std::uint64_t{0});
  EXPECT_EQ(f.get(192, 64), ~std::uint64_t{0});
  EXPECT_EQ(f.get(100, 0), 0u);
}
