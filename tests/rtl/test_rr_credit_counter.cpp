// Block test for rtl/rr_credit_counter.sv against an integer model; with
// MAXC = 2 up to two credits are consumed per cycle (an output port with
// speedup 2). A credit returning in a cycle is visible (and can be spent) in
// that cycle.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "Vrr_credit_counter_d1.h"
#include "Vrr_credit_counter_d7.h"
#include "Vrr_credit_counter_d8.h"
#include "Vrr_credit_counter_d8m2.h"
#include "vtb.hpp"

// Parameter sets (one Verilated model each); the struct names appear in the
// CTest test names.
namespace cfg {

// DEPTH 7 fills its 3-bit counter exactly; DEPTH 8 needs a 4th bit.
template <class M, unsigned D, unsigned C = 1>
struct CreditCfg {
  using Model = M;
  static constexpr unsigned kDepth = D;
  static constexpr unsigned kMaxConsume = C;  // MAXC
};

struct Depth1 : CreditCfg<Vrr_credit_counter_d1, 1> {};
struct Depth7 : CreditCfg<Vrr_credit_counter_d7, 7> {};
struct Depth8 : CreditCfg<Vrr_credit_counter_d8, 8> {};
struct Depth8Consume2 : CreditCfg<Vrr_credit_counter_d8m2, 8, 2> {};

}  // namespace cfg

namespace {

using CreditCfgs = ::testing::Types<cfg::Depth1, cfg::Depth7, cfg::Depth8, cfg::Depth8Consume2>;

using rtltest::Dut;
using rtltest::Rng;

template <class Cfg>
class CreditCounterTest : public ::testing::Test {
 protected:
  static constexpr unsigned kDepth = Cfg::kDepth, kMaxConsume = Cfg::kMaxConsume;

  CreditCounterTest() {
    dut_->consume_i = 0;
    dut_->return_i = 0;  // credits_o shows a returning credit at once
    dut_.reset();
  }

  // consume: credits consumed this cycle (0..MAXC), the returning one included.
  void step(unsigned consume, bool ret) {
    ASSERT_LE(consume, kMaxConsume) << "test bug: consume beyond MAXC";
    ASSERT_LE(consume, credits_ + (ret ? 1 : 0)) << "test bug: consume without credit";
    ASSERT_FALSE(ret && credits_ == kDepth) << "test bug: return beyond depth";
    dut_->consume_i = consume;
    dut_->return_i = ret;
    dut_.eval();
    ASSERT_EQ(dut_->credits_o, credits_ + (ret ? 1 : 0)) << "cycle " << dut_.cycle();
    dut_.tick();
    credits_ = credits_ - consume + (ret ? 1 : 0);
    dut_->consume_i = 0;
    dut_->return_i = 0;
    dut_.eval();
    ASSERT_EQ(dut_->credits_o, credits_) << "after cycle " << dut_.cycle();
  }

  Dut<typename Cfg::Model> dut_;
  unsigned credits_ = kDepth;
};

TYPED_TEST_SUITE(CreditCounterTest, CreditCfgs);

TYPED_TEST(CreditCounterTest, StartsFull) {
  this->dut_.eval();
  EXPECT_EQ(this->dut_->credits_o, TestFixture::kDepth);
  // Idle cycles keep it.
  for (int i = 0; i < 3; ++i) ASSERT_NO_FATAL_FAILURE(this->step(false, false));
}

TYPED_TEST(CreditCounterTest, DrainAndRefill) {
  constexpr unsigned D = TestFixture::kDepth;
  for (unsigned i = 0; i < D; ++i) ASSERT_NO_FATAL_FAILURE(this->step(true, false));
  EXPECT_EQ(this->dut_->credits_o, 0u);
  for (unsigned i = 0; i < D; ++i) ASSERT_NO_FATAL_FAILURE(this->step(false, true));
  EXPECT_EQ(this->dut_->credits_o, D);
}

TYPED_TEST(CreditCounterTest, ConsumeAndReturnSameCycleKeepsCount) {
  constexpr unsigned D = TestFixture::kDepth;
  // At every level 1..D (a credit is available to consume).
  for (unsigned level = D; level >= 1; --level) {
    while (this->credits_ > level) ASSERT_NO_FATAL_FAILURE(this->step(true, false));
    if (level < D) {
      // At a level below D a credit can also be outstanding.
      for (int i = 0; i < 3; ++i) {
        ASSERT_NO_FATAL_FAILURE(this->step(true, true));
        EXPECT_EQ(this->dut_->credits_o, level);
      }
    }
  }
  // Refill, then consume one so a credit is outstanding and consume+return is
  // legal just below D (with DEPTH 1 the two can never be legal together).
  while (this->credits_ < D) ASSERT_NO_FATAL_FAILURE(this->step(false, true));
  EXPECT_EQ(this->dut_->credits_o, D);
  if (D > 1) {
    ASSERT_NO_FATAL_FAILURE(this->step(true, false));
    for (int i = 0; i < 3; ++i) ASSERT_NO_FATAL_FAILURE(this->step(true, true));
    EXPECT_EQ(this->dut_->credits_o, D - 1);
  }
}

TYPED_TEST(CreditCounterTest, ReturnedCreditIsSpentInTheSameCycle) {
  constexpr unsigned D = TestFixture::kDepth;
  for (unsigned i = 0; i < D; ++i) ASSERT_NO_FATAL_FAILURE(this->step(true, false));
  EXPECT_EQ(this->dut_->credits_o, 0u);
  // Empty: each returning credit shows at once and is spent at once.
  for (int i = 0; i < 3; ++i) {
    this->dut_->return_i = 1;
    this->dut_.eval();
    EXPECT_EQ(this->dut_->credits_o, 1u);
    ASSERT_NO_FATAL_FAILURE(this->step(true, true));
    EXPECT_EQ(this->dut_->credits_o, 0u);
  }
}

TYPED_TEST(CreditCounterTest, RandomAgainstModel) {
  constexpr unsigned D = TestFixture::kDepth;
  Rng rng(0xC0DE + D);
  unsigned at_zero = 0, at_full = 0, both = 0;
  for (unsigned c = 0; c < 20000; ++c) {
    const unsigned bias = (c / 50) % 2 == 0 ? 30 : 70;  // drifts towards full, then empty
    const bool ret = this->credits_ < D && rng.chance(100 - bias);
    const bool consume = this->credits_ + ret > 0 && rng.chance(bias);
    at_zero += this->credits_ == 0;
    at_full += this->credits_ == D;
    both += consume && ret;
    ASSERT_NO_FATAL_FAILURE(this->step(consume, ret));
  }
  EXPECT_GT(at_zero, 50u);
  EXPECT_GT(at_full, 50u);
  if (D > 1) {
    EXPECT_GT(both, 50u);
  }
}

// MAXC = 2: two credits in one cycle, alone and together with a return.
template <class Cfg>
class CreditCounterConsume2Test : public CreditCounterTest<Cfg> {};
using Consume2Cfgs = ::testing::Types<cfg::Depth8Consume2>;
TYPED_TEST_SUITE(CreditCounterConsume2Test, Consume2Cfgs);

TYPED_TEST(CreditCounterConsume2Test, ConsumeTwoPerCycle) {
  constexpr unsigned D = TestFixture::kDepth;
  ASSERT_NO_FATAL_FAILURE(this->step(2, false));
  EXPECT_EQ(this->dut_->credits_o, D - 2);
  // Two out and one back: one fewer, at every level down to 1.
  while (this->credits_ >= 2) {
    ASSERT_NO_FATAL_FAILURE(this->step(2, true));
    ASSERT_NO_FATAL_FAILURE(this->step(0, false));
  }
  EXPECT_EQ(this->dut_->credits_o, 1u);
  ASSERT_NO_FATAL_FAILURE(this->step(1, true));
  EXPECT_EQ(this->dut_->credits_o, 1u);
  ASSERT_NO_FATAL_FAILURE(this->step(1, false));
  EXPECT_EQ(this->dut_->credits_o, 0u);
  // Refill, then drain two at a time to exactly 0 (D even).
  while (this->credits_ < D) ASSERT_NO_FATAL_FAILURE(this->step(0, true));
  while (this->credits_ >= 2) ASSERT_NO_FATAL_FAILURE(this->step(2, false));
  EXPECT_EQ(this->dut_->credits_o, D % 2);
  // At 2 (with one outstanding): consume 2 and return 1 leaves 1.
  while (this->credits_ < 2) ASSERT_NO_FATAL_FAILURE(this->step(0, true));
  ASSERT_NO_FATAL_FAILURE(this->step(2, true));
  EXPECT_EQ(this->dut_->credits_o, 1u);
}

TYPED_TEST(CreditCounterTest, RandomMultiConsumeAgainstModel) {
  constexpr unsigned D = TestFixture::kDepth, C = TestFixture::kMaxConsume;
  Rng rng(0xC1DE + D * 5 + C);
  unsigned at_zero = 0, at_full = 0, max_with_ret = 0, max_alone = 0;
  for (unsigned c = 0; c < 20000; ++c) {
    const unsigned bias = (c / 50) % 2 == 0 ? 30 : 70;
    const bool ret = this->credits_ < D && rng.chance(100 - bias);
    const unsigned consume =
        rng.chance(bias) ? static_cast<unsigned>(rng.range(0, std::min(C, this->credits_ + (ret ? 1u : 0u)))) : 0;
    at_zero += this->credits_ == 0;
    at_full += this->credits_ == D;
    max_with_ret += consume == C && ret;
    max_alone += consume == C && !ret;
    ASSERT_NO_FATAL_FAILURE(this->step(consume, ret));
  }
  EXPECT_GT(at_zero, 50u);
  EXPECT_GT(at_full, 50u);
  EXPECT_GT(max_alone, 200u);
  if (D > C) {
    EXPECT_GT(max_with_ret, 200u);
  }
}

TYPED_TEST(CreditCounterTest, ResetRestoresDepth) {
  constexpr unsigned D = TestFixture::kDepth;
  for (unsigned i = 0; i < D; ++i) ASSERT_NO_FATAL_FAILURE(this->step(true, false));
  this->dut_.reset();
  this->credits_ = D;
  this->dut_.eval();
  EXPECT_EQ(this->dut_->credits_o, D);
}

}  // namespace
