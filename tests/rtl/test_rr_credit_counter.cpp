// Block test for rtl/rr_credit_counter.sv against an integer model.
#include <gtest/gtest.h>

#include <cstdint>

#include "Vrr_credit_counter_d1.h"
#include "Vrr_credit_counter_d7.h"
#include "Vrr_credit_counter_d8.h"
#include "vtb.hpp"

// Parameter sets (one Verilated model each); the struct names appear in the
// CTest test names.
namespace cfg {

// DEPTH 7 fills its 3-bit counter exactly; DEPTH 8 needs a 4th bit.
template <class M, unsigned D>
struct CreditCfg {
  using Model = M;
  static constexpr unsigned kDepth = D;
};

struct Depth1 : CreditCfg<Vrr_credit_counter_d1, 1> {};
struct Depth7 : CreditCfg<Vrr_credit_counter_d7, 7> {};
struct Depth8 : CreditCfg<Vrr_credit_counter_d8, 8> {};

}  // namespace cfg

namespace {

using CreditCfgs = ::testing::Types<cfg::Depth1, cfg::Depth7, cfg::Depth8>;

using rtltest::Dut;
using rtltest::Rng;

template <class Cfg>
class CreditCounterTest : public ::testing::Test {
 protected:
  static constexpr unsigned kDepth = Cfg::kDepth;

  CreditCounterTest() { dut_.reset(); }

  void step(bool consume, bool ret) {
    ASSERT_FALSE(consume && credits_ == 0) << "test bug: consume without credit";
    ASSERT_FALSE(ret && credits_ == kDepth) << "test bug: return beyond depth";
    dut_->consume_i = consume;
    dut_->return_i = ret;
    dut_.eval();
    ASSERT_EQ(dut_->credits_o, credits_) << "cycle " << dut_.cycle();
    dut_.tick();
    credits_ = credits_ - (consume ? 1 : 0) + (ret ? 1 : 0);
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

TYPED_TEST(CreditCounterTest, RandomAgainstModel) {
  constexpr unsigned D = TestFixture::kDepth;
  Rng rng(0xC0DE + D);
  unsigned at_zero = 0, at_full = 0, both = 0;
  for (unsigned c = 0; c < 20000; ++c) {
    const unsigned bias = (c / 50) % 2 == 0 ? 30 : 70;  // drifts towards full, then empty
    const bool consume = this->credits_ > 0 && rng.chance(bias);
    const bool ret = this->credits_ < D && rng.chance(100 - bias);
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

TYPED_TEST(CreditCounterTest, ResetRestoresDepth) {
  constexpr unsigned D = TestFixture::kDepth;
  for (unsigned i = 0; i < D; ++i) ASSERT_NO_FATAL_FAILURE(this->step(true, false));
  this->dut_.reset();
  this->credits_ = D;
  this->dut_.eval();
  EXPECT_EQ(this->dut_->credits_o, D);
}

}  // namespace
