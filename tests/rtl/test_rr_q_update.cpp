// Block test for rtl/rr_q_update.sv: the update unit gives the value of the
// bit-exact reference rlroute::ref::q_update (ref/src/q_learning.cpp) for
// every (Q_x, target) pair of an 8-bit table, and for random and edge pairs
// of the 16-bit table with the rates of [Kang 2021] and of a format with other
// rates.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include <verilated.h>

#include "Vrr_q_update_w8.h"
#include "Vrr_q_update_w16.h"
#include "Vrr_q_update_w12.h"
#include "rlroute/ref/q_learning.hpp"
#include "vtb.hpp"

namespace cfg {

template <class M, unsigned W_, unsigned RB_, unsigned ALPHA_, unsigned BETA_>
struct UpdCfg {
  using Model = M;
  static constexpr unsigned W = W_, RB = RB_, ALPHA = ALPHA_, BETA = BETA_;
};

// As tests/rtl/CMakeLists.txt builds them.
struct W8 : UpdCfg<Vrr_q_update_w8, 8, 8, 51, 10> {};        // rates of [Kang 2021], small table: exhaustive
struct W16 : UpdCfg<Vrr_q_update_w16, 16, 8, 51, 10> {};     // rates of [Kang 2021], the default format
struct W12 : UpdCfg<Vrr_q_update_w12, 12, 6, 64, 1> {};      // alpha = 1 (the whole step), beta = 1/64

}  // namespace cfg

namespace {

template <class Cfg>
class QUpdateTest : public ::testing::Test {
 protected:
  static constexpr unsigned W = Cfg::W;
  static constexpr uint32_t kMax = (uint32_t{1} << W) - 1;


  // The RTL's next value for (q, target), checked against the reference.
  void check(uint32_t q, uint32_t target) {
    dut_->q_i = q;
    dut_->target_i = target;
    dut_->eval();
    const uint32_t want = rlroute::ref::q_update(format_, rates_, q, target);
    ASSERT_EQ(static_cast<uint32_t>(dut_->q_o), want) << "q_i " << q << " target_i " << target;
  }

  rlroute::ref::QFormat format_{.value_bits = W, .fraction_bits = 4};
  rlroute::ref::QRates rates_{.rate_bits = Cfg::RB, .alpha = Cfg::ALPHA, .beta = Cfg::BETA};
  rtltest::CombDut<typename Cfg::Model> dut_;
};

using UpdCfgs = ::testing::Types<cfg::W8, cfg::W16, cfg::W12>;
TYPED_TEST_SUITE(QUpdateTest, UpdCfgs);

TYPED_TEST(QUpdateTest, AgreesWithTheReferenceOnEveryPairOrARandomMillion) {
  constexpr uint32_t kMax = TestFixture::kMax;
  if (TestFixture::W <= 8) {
    for (uint32_t q = 0; q <= kMax; ++q)
      for (uint32_t t = 0; t <= kMax && !this->HasFatalFailure(); ++t) this->check(q, t);
    return;
  }
  rtltest::Rng rng(11);
  for (int i = 0; i < 1000000 && !this->HasFatalFailure(); ++i) {
    const uint32_t q = static_cast<uint32_t>(rng.bits(TestFixture::W));
    // Half the targets close to q: the small steps where floor and the rates' rounding show.
    const uint32_t t = (i % 2 == 0) ? static_cast<uint32_t>(rng.bits(TestFixture::W))
                                    : static_cast<uint32_t>(std::clamp<int64_t>(int64_t{q} + int64_t(rng.range(0, 64)) - 32, 0, kMax));
    this->check(q, t);
  }
}

TYPED_TEST(QUpdateTest, EdgesOfTheRangeAndEqualValues) {
  constexpr uint32_t kMax = TestFixture::kMax;
  const std::vector<uint32_t> edges = {0, 1, 2, kMax / 2, kMax - 2, kMax - 1, kMax};
  for (uint32_t q : edges)
    for (uint32_t t : edges) this->check(q, t);
  // A fall of one code always moves the estimate (floor), a rise of one does not.
  this->check(100, 99);
  this->check(100, 101);
}

// The update is not the identity: the checks above can fail.
TYPED_TEST(QUpdateTest, AFarTargetMovesTheEstimateTowardIt) {
  constexpr uint32_t kMax = TestFixture::kMax;
  this->dut_->q_i = kMax / 2;
  this->dut_->target_i = 0;
  this->dut_->eval();
  EXPECT_LT(static_cast<uint32_t>(this->dut_->q_o), kMax / 2);
  this->dut_->target_i = kMax;
  this->dut_->eval();
  EXPECT_GT(static_cast<uint32_t>(this->dut_->q_o), kMax / 2);
}

}  // namespace
