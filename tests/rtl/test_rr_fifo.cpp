// Block test for rtl/rr_fifo.sv against a std::deque reference model, with
// the storage read asynchronously and through a register (REG_READ, block
// RAM): both must behave the same cycle for cycle. With READS = 2 the FIFO
// shows its first two entries and pops up to two per cycle.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>

#include "Vrr_fifo_d1.h"
#include "Vrr_fifo_d1_reg.h"
#include "Vrr_fifo_d3.h"
#include "Vrr_fifo_d3_reg.h"
#include "Vrr_fifo_d5_r2.h"
#include "Vrr_fifo_d5_r2_reg.h"
#include "Vrr_fifo_d8.h"
#include "Vrr_fifo_d8_r2.h"
#include "Vrr_fifo_d8_r2_reg.h"
#include "Vrr_fifo_d8_reg.h"
#include "vtb.hpp"

// Parameter sets (one Verilated model each); the struct names appear in the
// CTest test names.
namespace cfg {

template <class M, unsigned D, unsigned W, unsigned R = 1>
struct FifoCfg {
  using Model = M;
  static constexpr unsigned kDepth = D;
  static constexpr unsigned kWidth = W;
  static constexpr unsigned kReads = R;  // entries shown and popped per cycle
};

struct Depth1 : FifoCfg<Vrr_fifo_d1, 1, 8> {};
struct Depth3 : FifoCfg<Vrr_fifo_d3, 3, 16> {};
struct Depth8 : FifoCfg<Vrr_fifo_d8, 8, 32> {};
struct Depth1RegRead : FifoCfg<Vrr_fifo_d1_reg, 1, 8> {};
struct Depth3RegRead : FifoCfg<Vrr_fifo_d3_reg, 3, 16> {};
struct Depth8RegRead : FifoCfg<Vrr_fifo_d8_reg, 8, 32> {};
struct Depth5Reads2 : FifoCfg<Vrr_fifo_d5_r2, 5, 16, 2> {};
struct Depth8Reads2 : FifoCfg<Vrr_fifo_d8_r2, 8, 32, 2> {};
struct Depth5Reads2RegRead : FifoCfg<Vrr_fifo_d5_r2_reg, 5, 16, 2> {};
struct Depth8Reads2RegRead : FifoCfg<Vrr_fifo_d8_r2_reg, 8, 32, 2> {};

}  // namespace cfg

namespace {

using FifoCfgs =
    ::testing::Types<cfg::Depth1, cfg::Depth3, cfg::Depth8, cfg::Depth1RegRead, cfg::Depth3RegRead, cfg::Depth8RegRead,
                     cfg::Depth5Reads2, cfg::Depth8Reads2, cfg::Depth5Reads2RegRead, cfg::Depth8Reads2RegRead>;

using rtltest::Dut;
using rtltest::Rng;

template <class Cfg>
class FifoTest : public ::testing::Test {
 protected:
  static constexpr unsigned kDepth = Cfg::kDepth, kReads = Cfg::kReads, kWidth = Cfg::kWidth;
  static constexpr std::uint64_t kDataMask = rtltest::mask(kWidth);

  FifoTest() { dut_.reset(); }

  // Checks the outputs against the model (before the clock edge).
  void check_outputs() {
    dut_.eval();
    ASSERT_EQ(dut_->count_o, model_.size()) << "cycle " << dut_.cycle();
    ASSERT_EQ(dut_->empty_o, model_.empty()) << "cycle " << dut_.cycle();
    ASSERT_EQ(dut_->full_o, model_.size() == kDepth) << "cycle " << dut_.cycle();
    // Word k of data_o is the entry k places behind the front, while there is
    // one.
    const std::uint64_t data = dut_->data_o;
    for (unsigned k = 0; k < kReads && k < model_.size(); ++k) {
      ASSERT_EQ(rtltest::field(data, k * kWidth, kWidth), model_[k]) << "word " << k << ", cycle " << dut_.cycle();
    }
  }

  // Drives one cycle: checks outputs, applies push/pop (of `pop` entries,
  // 0..READS), clocks, updates model.
  void step(bool push, std::uint64_t data, unsigned pop) {
    ASSERT_LE(pop, std::min<std::size_t>(kReads, model_.size())) << "test bug: pop beyond count or READS";
    ASSERT_FALSE(push && pop == 0 && model_.size() == kDepth) << "test bug: push when full";
    data &= kDataMask;
    dut_->push_i = push;
    rtltest::put(dut_->data_i, data);
    dut_->pop_i = pop;
    ASSERT_NO_FATAL_FAILURE(check_outputs());
    dut_.tick();
    for (unsigned k = 0; k < pop; ++k) model_.pop_front();
    if (push) model_.push_back(data);
    dut_->push_i = 0;
    dut_->pop_i = 0;
  }

  Dut<typename Cfg::Model> dut_;
  std::deque<std::uint64_t> model_;
  std::uint64_t next_data_ = 1;
};

TYPED_TEST_SUITE(FifoTest, FifoCfgs);

TYPED_TEST(FifoTest, ResetState) {
  this->dut_.eval();
  EXPECT_EQ(this->dut_->count_o, 0u);
  EXPECT_EQ(this->dut_->empty_o, 1u);
  EXPECT_EQ(this->dut_->full_o, 0u);
}

TYPED_TEST(FifoTest, FillAndDrainKeepsOrder) {
  constexpr unsigned D = TestFixture::kDepth;
  // Several rounds so the pointers start at every offset and wrap around.
  for (unsigned round = 0; round < 2 * D + 2; ++round) {
    for (unsigned i = 0; i < D; ++i) ASSERT_NO_FATAL_FAILURE(this->step(true, 0x5A00 + round * 16 + i, false));
    ASSERT_NO_FATAL_FAILURE(this->check_outputs());
    EXPECT_EQ(this->dut_->full_o, 1u);
    // Partial drain then refill moves the read/write pointers apart.
    const unsigned drain = (round % D) + 1;
    for (unsigned i = 0; i < drain; ++i) ASSERT_NO_FATAL_FAILURE(this->step(false, 0, true));
    for (unsigned i = 0; i + 1 < drain; ++i) ASSERT_NO_FATAL_FAILURE(this->step(true, 0xA500 + i, false));
    while (!this->model_.empty()) ASSERT_NO_FATAL_FAILURE(this->step(false, 0, true));
    ASSERT_NO_FATAL_FAILURE(this->check_outputs());
    EXPECT_EQ(this->dut_->empty_o, 1u);
  }
}

TYPED_TEST(FifoTest, PushPopSameCycle) {
  constexpr unsigned D = TestFixture::kDepth;
  // At every occupancy 1..D, push and pop together for a while: the count
  // stays and the data stream stays in order (at D this includes the write
  // into the slot that is being read in the same cycle).
  for (unsigned occ = 1; occ <= D; ++occ) {
    while (this->model_.size() < occ) ASSERT_NO_FATAL_FAILURE(this->step(true, this->next_data_++, false));
    for (unsigned i = 0; i < 2 * D + 3; ++i) {
      ASSERT_NO_FATAL_FAILURE(this->step(true, this->next_data_++, true));
      ASSERT_NO_FATAL_FAILURE(this->check_outputs());
      EXPECT_EQ(this->dut_->count_o, occ);
    }
  }
  while (!this->model_.empty()) ASSERT_NO_FATAL_FAILURE(this->step(false, 0, true));
  ASSERT_NO_FATAL_FAILURE(this->check_outputs());
}

TYPED_TEST(FifoTest, FirstWordFallThrough) {
  // The word pushed into an empty FIFO is on data_o right after the edge.
  ASSERT_NO_FATAL_FAILURE(this->step(true, 0x3C, false));
  this->dut_.eval();
  EXPECT_EQ(this->dut_->empty_o, 0u);
  EXPECT_EQ(rtltest::field(this->dut_->data_o, 0, TestFixture::kWidth), 0x3Cu);
}

TYPED_TEST(FifoTest, RandomAgainstModel) {
  constexpr unsigned D = TestFixture::kDepth;
  Rng rng(0xF1F0 + D);
  unsigned full_cycles = 0, empty_cycles = 0, both_cycles = 0, both_full = 0, wraps = 0;
  for (unsigned c = 0; c < 20000; ++c) {
    // The push bias changes every 97 cycles so the FIFO visits empty and full.
    const unsigned bias = (c / 97) % 3 == 0 ? 25 : (c / 97) % 3 == 1 ? 50 : 80;
    const bool full = this->model_.size() == D;
    const bool pop = !this->model_.empty() && rng.chance(100 - bias);
    const bool push = (!full || pop) && rng.chance(bias);
    full_cycles += full;
    empty_cycles += this->model_.empty();
    both_cycles += push && pop;
    both_full += push && pop && full;
    if (push) wraps += (this->next_data_ % D) == 0;
    ASSERT_NO_FATAL_FAILURE(this->step(push, rng.bits(TypeParam::kWidth), pop));
    if (push) ++this->next_data_;
  }
  ASSERT_NO_FATAL_FAILURE(this->check_outputs());
  // The stimulus reached the interesting states.
  EXPECT_GT(full_cycles, 100u);
  EXPECT_GT(empty_cycles, 100u);
  EXPECT_GT(both_cycles, 100u);
  EXPECT_GT(both_full, 10u);
  EXPECT_GT(wraps, 100u);
}

// Pops of 0..min(READS, count) entries per cycle with random pushes; every
// shown word is checked every cycle. With READS = 1 this is the plain stream.
TYPED_TEST(FifoTest, RandomMultiPopAgainstModel) {
  constexpr unsigned D = TestFixture::kDepth, R = TestFixture::kReads;
  Rng rng(0xF2F0 + D * 3 + R);
  unsigned full_cycles = 0, empty_cycles = 0, pop_all = 0, pop_all_push = 0, pop_all_full_push = 0, shown_all = 0;
  for (unsigned c = 0; c < 20000; ++c) {
    const unsigned bias = (c / 89) % 3 == 0 ? 30 : (c / 89) % 3 == 1 ? 60 : 90;
    const unsigned size = static_cast<unsigned>(this->model_.size());
    const bool full = size == D;
    const unsigned max_pop = std::min(R, size);
    const unsigned pop = rng.chance(100 - bias / 2) ? static_cast<unsigned>(rng.range(0, max_pop)) : 0;
    const bool push = (!full || pop > 0) && rng.chance(bias);
    full_cycles += full;
    empty_cycles += size == 0;
    shown_all += size >= R;
    if (R > 1 && pop == R) {
      ++pop_all;
      pop_all_push += push;
      pop_all_full_push += push && full;
    }
    ASSERT_NO_FATAL_FAILURE(this->step(push, rng.bits(TypeParam::kWidth), pop));
  }
  ASSERT_NO_FATAL_FAILURE(this->check_outputs());
  EXPECT_GT(full_cycles, 100u);
  EXPECT_GT(empty_cycles, 100u);
  EXPECT_GT(shown_all, 1000u);
  if (R > 1) {
    EXPECT_GT(pop_all, 1000u) << "few cycles popped READS entries";
    EXPECT_GT(pop_all_push, 300u) << "few cycles popped READS entries and pushed";
    EXPECT_GT(pop_all_full_push, 20u) << "few cycles popped READS entries of a full FIFO and pushed";
  }
}

// READS = 2: two entries leave together and the entries behind them, and one
// pushed in the same cycle, are shown in the next cycle.
template <class Cfg>
class FifoReads2Test : public FifoTest<Cfg> {};
using Reads2Cfgs =
    ::testing::Types<cfg::Depth5Reads2, cfg::Depth8Reads2, cfg::Depth5Reads2RegRead, cfg::Depth8Reads2RegRead>;
TYPED_TEST_SUITE(FifoReads2Test, Reads2Cfgs);

TYPED_TEST(FifoReads2Test, PopTwoShowsTheNextTwo) {
  constexpr unsigned D = TestFixture::kDepth;
  for (unsigned round = 0; round < 2 * D; ++round) {
    while (this->model_.size() < D) ASSERT_NO_FATAL_FAILURE(this->step(true, this->next_data_++, 0));
    // Full: pop 2 and push 1 at once, down to 2 entries.
    while (this->model_.size() > 2) ASSERT_NO_FATAL_FAILURE(this->step(true, this->next_data_++, 2));
    // Two left: pop both and push one: it is the front in the next cycle.
    ASSERT_NO_FATAL_FAILURE(this->step(true, this->next_data_++, 2));
    ASSERT_NO_FATAL_FAILURE(this->check_outputs());
    EXPECT_EQ(this->dut_->count_o, 1u);
    EXPECT_EQ(rtltest::field(this->dut_->data_o, 0, TestFixture::kWidth), this->model_.front());
    // Shift the pointers by one for the next round.
    ASSERT_NO_FATAL_FAILURE(this->step(false, 0, 1));
  }
}

TYPED_TEST(FifoTest, ResetEmptiesFifo) {
  constexpr unsigned D = TestFixture::kDepth;
  for (unsigned i = 0; i < D; ++i) ASSERT_NO_FATAL_FAILURE(this->step(true, 0x10 + i, false));
  ASSERT_NO_FATAL_FAILURE(this->step(false, 0, true));
  this->dut_.reset();
  this->model_.clear();
  ASSERT_NO_FATAL_FAILURE(this->check_outputs());
  // After reset the FIFO works from scratch.
  for (unsigned i = 0; i < D; ++i) ASSERT_NO_FATAL_FAILURE(this->step(true, 0x20 + i, false));
  for (unsigned i = 0; i < D; ++i) ASSERT_NO_FATAL_FAILURE(this->step(false, 0, true));
  ASSERT_NO_FATAL_FAILURE(this->check_outputs());
}

}  // namespace
