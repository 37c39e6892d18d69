// The reference of Q-adaptive's learning arithmetic (ref/q_learning.hpp)
// against the authors' floating-point rule and its fixed-point edges.
#include "rlroute/ref/q_learning.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

namespace {

using namespace rlroute::ref;

TEST(QLearning, FractionCodesOfThePapersParameters) {
  EXPECT_EQ(fraction_code(0.2, 8), 51u);    // alpha
  EXPECT_EQ(fraction_code(0.04, 8), 10u);   // beta
  EXPECT_EQ(fraction_code(0.35, 8), 90u);   // q_thld2
  EXPECT_EQ(fraction_code(0.001, 16), 66u); // epsilon
  EXPECT_EQ(fraction_code(1.0, 8), 256u);
  EXPECT_THROW(fraction_code(1.5, 8), std::invalid_argument);
  EXPECT_THROW(fraction_code(-0.1, 8), std::invalid_argument);
}

TEST(QLearning, CyclesBecomeCodesAndSaturate) {
  const QFormat f{16, 4};
  EXPECT_EQ(f.max_code(), 65535u);
  EXPECT_EQ(f.from_cycles(10), 160u);
  EXPECT_EQ(f.from_cycles(4095), 65520u);
  EXPECT_EQ(f.from_cycles(4096), 65535u);
  EXPECT_EQ(f.from_cycles(uint64_t{1} << 40), 65535u);
  EXPECT_EQ(q_target(f, 10, 100), 260u);
  EXPECT_EQ(q_target(f, 4000, 2000), 65535u);
}

TEST(QLearning, FallingEstimatesUseAlphaRisingOnesBeta) {
  const QFormat f{16, 0};
  const QRates r{8, 51, 10};
  EXPECT_EQ(q_update(f, r, 1000, 0), 800u);     // 1000 + floor(-1000 * 51 / 256) = 1000 - 200
  EXPECT_EQ(q_update(f, r, 1000, 2000), 1039u); // 1000 + floor(1000 * 10 / 256)
  EXPECT_EQ(q_update(f, r, 1000, 1000), 1000u);
  EXPECT_EQ(q_update(f, r, 1000, 999), 999u);   // floor(-51 / 256) = -1: a fall always moves
}

// The authors' code: Q = int64(Q + rate * delta) on integer nanoseconds, the
// rate a double. With a dyadic rate (code / 256) the double is exact, so the
// reference must equal it on every input (fraction_bits = 0).
TEST(QLearning, EqualsTheAuthorsRuleOnIntegerValues) {
  const QFormat f{20, 0};
  const QRates r{8, 51, 10};
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> value(0, f.max_code());
  for (int i = 0; i < 200000; ++i) {
    const uint32_t q = value(rng), target = value(rng);
    const double delta = double(target) - double(q);
    const double rate = (delta < 0 ? r.alpha : r.beta) / 256.0;
    const auto expected = static_cast<uint32_t>(static_cast<int64_t>(double(q) + rate * delta));
    ASSERT_EQ(q_update(f, r, q, target), expected) << "q " << q << " target " << target;
  }
}

// What the fraction bits buy: a rise of beta x delta below one unit is lost.
TEST(QLearning, FractionBitsKeepSmallRises) {
  const QRates r{8, 51, 10};
  EXPECT_EQ(q_update(QFormat{16, 0}, r, 100, 110), 100u);  // 10 cycles * 0.039: lost
  EXPECT_EQ(q_update(QFormat{16, 4}, r, 1600, 1760), 1606u);  // the same cycles, 6/16 of a cycle kept
}

// Floor makes a rising estimate stop short: it settles where beta x delta is
// below one code (delta < 256 / 10), and a falling one reaches its target.
TEST(QLearning, RepeatedUpdatesSettleNextToTheTarget) {
  const QFormat f{16, 4};
  const QRates r{8, 51, 10};
  uint32_t rising = 0, falling = 60000;
  for (int i = 0; i < 2000; ++i) {
    rising = q_update(f, r, rising, 1000);
    falling = q_update(f, r, falling, 1000);
  }
  EXPECT_GE(rising, 1000u - 25u);
  EXPECT_LE(rising, 1000u);
  EXPECT_EQ(falling, 1000u);
}

TEST(QLearning, NeverLeavesTheValueRange) {
  const QFormat f{10, 2};
  const QRates r{8, 256, 256};  // rate 1: the update lands on the target
  EXPECT_EQ(q_update(f, r, 0, f.max_code()), f.max_code());
  EXPECT_EQ(q_update(f, r, f.max_code(), 0), 0u);
  std::mt19937 rng(3);
  std::uniform_int_distribution<uint32_t> value(0, f.max_code());
  const QRates paper{8, 51, 10};
  for (int i = 0; i < 20000; ++i) ASSERT_LE(q_update(f, paper, value(rng), value(rng)), f.max_code());
}

}  // namespace
