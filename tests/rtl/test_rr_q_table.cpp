// Block test for rtl/rr_q_table.sv: the table and a C++ model built on the
// bit-exact reference update (rlroute::ref::q_update) take the same
// initialisation and the same feedback stream; every read port's row equals
// the model's every cycle, and the whole table is compared row by row at
// intervals. The stream hits two rows hard (back-to-back updates of one
// entry), one toward 0 and one toward the top of the range, which its
// entries reach.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "Vrr_q_table_r10c3.h"
#include "Vrr_q_table_r128c11.h"
#include "rlroute/ref/q_learning.hpp"
#include "vtb.hpp"

namespace cfg {

template <class M, unsigned ROWS_, unsigned NUM_COLS_, unsigned QW_, unsigned READ_PORTS_>
struct TableCfg {
  using Model = M;
  static constexpr unsigned ROWS = ROWS_, NUM_COLS = NUM_COLS_, QW = QW_, READ_PORTS = READ_PORTS_;
};

// As tests/rtl/CMakeLists.txt builds them (the rates of [Kang 2021]: alpha 51/256, beta 10/256).
struct R10C3 : TableCfg<Vrr_q_table_r10c3, 10, 3, 8, 2> {};        // rows not a power of two, 8-bit values
struct R128C11 : TableCfg<Vrr_q_table_r128c11, 128, 11, 16, 2> {};  // dfly(4,8,4,33): (g-1) x p rows, 11 ports

}  // namespace cfg

namespace {

using rtltest::Bits;
using rtltest::Dut;
using rtltest::Rng;

template <class Cfg>
class QTableTest : public ::testing::Test {
 protected:
  static constexpr unsigned ROWS = Cfg::ROWS, NUM_COLS = Cfg::NUM_COLS, QW = Cfg::QW, READ_PORTS = Cfg::READ_PORTS;
  static constexpr unsigned ROW_W = ROWS > 1 ? 32 - __builtin_clz(ROWS - 1) : 1;
  static constexpr uint32_t kMax = (uint32_t{1} << QW) - 1;

  // The initial value of an entry: any function of row and column will do;
  // this one differs for every entry of the small table.
  static uint32_t initial(unsigned row, unsigned col) { return (row * 37 + col * 11 + 5) & kMax; }

  QTableTest() : table_(ROWS, std::vector<uint32_t>(NUM_COLS)) { dut_.reset(); }

  void drive_init_values() {
    const unsigned row = dut_->init_row_o;
    Bits v;
    for (unsigned c = 0; c < NUM_COLS; ++c) v.set(c * QW, QW, initial(row, c));
    rtltest::put_bits(dut_->init_value_i, v, NUM_COLS * QW);
  }

  // Drives the feedback of one cycle (all columns); nothing if fb is empty.
  void drive_feedback(const std::vector<int>& row, const std::vector<uint32_t>& target) {
    uint64_t valid = 0;
    Bits rows, targets;
    for (unsigned c = 0; c < NUM_COLS; ++c) {
      if (row[c] < 0) continue;
      valid |= uint64_t{1} << c;
      rows.set(c * ROW_W, ROW_W, static_cast<uint64_t>(row[c]));
      targets.set(c * QW, QW, target[c]);
    }
    dut_->fb_valid_i = valid;
    rtltest::put_bits(dut_->fb_row_i, rows, NUM_COLS * ROW_W);
    rtltest::put_bits(dut_->fb_target_i, targets, NUM_COLS * QW);
  }

  // Reads `rows` on the read ports and compares them with the model.
  void read_and_compare(const std::vector<unsigned>& rows) {
    Bits addr;
    for (unsigned r = 0; r < READ_PORTS; ++r) addr.set(r * ROW_W, ROW_W, rows[r]);
    rtltest::put_bits(dut_->rd_row_i, addr, READ_PORTS * ROW_W);
    dut_->eval();
    const Bits data = rtltest::get_bits(dut_->rd_data_o, READ_PORTS * NUM_COLS * QW);
    for (unsigned r = 0; r < READ_PORTS; ++r) {
      for (unsigned c = 0; c < NUM_COLS; ++c) {
        ASSERT_EQ(data.get((r * NUM_COLS + c) * QW, QW), table_[rows[r]][c])
            << "read port " << r << " row " << rows[r] << " column " << c << " cycle " << dut_.cycle();
      }
    }
  }

  // Reads the whole table through the read ports, no feedback meanwhile.
  void compare_whole_table() {
    drive_feedback(std::vector<int>(NUM_COLS, -1), std::vector<uint32_t>(NUM_COLS, 0));
    for (unsigned base = 0; base < ROWS; base += READ_PORTS) {
      std::vector<unsigned> rows(READ_PORTS);
      for (unsigned r = 0; r < READ_PORTS; ++r) rows[r] = (base + r) % ROWS;
      read_and_compare(rows);
      if (this->HasFatalFailure()) return;
      dut_.tick();
    }
  }

  void initialise() {
    for (unsigned i = 0; i < ROWS; ++i) {
      ASSERT_FALSE(dut_->ready_o) << "ready after " << i << " cycles";
      ASSERT_EQ(dut_->init_row_o, i);
      drive_init_values();
      dut_.tick();
    }
    ASSERT_TRUE(dut_->ready_o) << "not ready after " << ROWS << " cycles";
    for (unsigned r = 0; r < ROWS; ++r)
      for (unsigned c = 0; c < NUM_COLS; ++c) table_[r][c] = initial(r, c);
  }

  Dut<typename Cfg::Model> dut_;
  std::vector<std::vector<uint32_t>> table_;  // the model
  rlroute::ref::QFormat format_{.value_bits = QW, .fraction_bits = 4};
  rlroute::ref::QRates rates_{};  // as [Kang 2021]: 8 bits, alpha 51, beta 10
};

using TableCfgs = ::testing::Types<cfg::R10C3, cfg::R128C11>;
TYPED_TEST_SUITE(QTableTest, TableCfgs);

TYPED_TEST(QTableTest, InitialisesEveryRowThenBecomesReady) {
  ASSERT_NO_FATAL_FAILURE(this->initialise());
  this->compare_whole_table();
}

TYPED_TEST(QTableTest, FeedbackBeforeReadyIsDroppedAndCounted) {
  constexpr unsigned NUM_COLS = TestFixture::NUM_COLS;
  std::vector<int> rows(NUM_COLS, 0);
  std::vector<uint32_t> targets(NUM_COLS, 0);
  for (unsigned i = 0; i < TestFixture::ROWS; ++i) {
    this->drive_init_values();
    this->drive_feedback(rows, targets);
    this->dut_.eval();
    ASSERT_EQ(this->dut_->fb_drop_o, (uint64_t{1} << NUM_COLS) - 1) << "cycle " << i;
    this->dut_.tick();
  }
  for (unsigned r = 0; r < TestFixture::ROWS; ++r)
    for (unsigned c = 0; c < NUM_COLS; ++c) this->table_[r][c] = TestFixture::initial(r, c);
  this->dut_.eval();
  EXPECT_EQ(this->dut_->fb_drop_o, 0u);
  this->compare_whole_table();
}

TYPED_TEST(QTableTest, LearnsLikeTheReferenceUnderARandomFeedbackStream) {
  constexpr unsigned ROWS = TestFixture::ROWS, NUM_COLS = TestFixture::NUM_COLS, QW = TestFixture::QW,
                     READ_PORTS = TestFixture::READ_PORTS;
  constexpr uint32_t kMax = TestFixture::kMax;
  ASSERT_NO_FATAL_FAILURE(this->initialise());
  Rng rng(3);
  unsigned updates = 0, at_zero = 0, at_top = 0;
  for (unsigned cycle = 0; cycle < 20000; ++cycle) {
    std::vector<int> rows(NUM_COLS, -1);
    std::vector<uint32_t> targets(NUM_COLS, 0);
    for (unsigned c = 0; c < NUM_COLS; ++c) {
      if (!rng.chance(60)) continue;
      // A quarter of the feedback goes to two hot rows, back to back: row 0
      // always learns 0 (its entries reach the bottom of the range), row 1
      // the top of the range (its entries climb until beta's step rounds to 0).
      if (rng.chance(25)) {
        rows[c] = static_cast<int>(rng.range(0, 1));
        targets[c] = rows[c] == 0 ? 0 : kMax;
        continue;
      }
      rows[c] = static_cast<int>(rng.range(2 % ROWS, ROWS - 1));
      const uint32_t q = this->table_[rows[c]][c];
      switch (rng.range(0, 3)) {
        case 0: targets[c] = 0; break;
        case 1: targets[c] = kMax; break;
        case 2: targets[c] = static_cast<uint32_t>(std::clamp<int64_t>(int64_t{q} + int64_t(rng.range(0, 40)) - 20, 0, kMax)); break;
        default: targets[c] = static_cast<uint32_t>(rng.bits(QW)); break;
      }
    }
    this->drive_feedback(rows, targets);
    std::vector<unsigned> reads(READ_PORTS);
    for (unsigned r = 0; r < READ_PORTS; ++r) {
      reads[r] = static_cast<unsigned>(rng.chance(50) ? rng.range(0, 1) : rng.range(0, ROWS - 1));
    }
    // The reads see the table before this cycle's updates.
    ASSERT_NO_FATAL_FAILURE(this->read_and_compare(reads));
    ASSERT_EQ(this->dut_->fb_drop_o, 0u);
    this->dut_.tick();
    for (unsigned c = 0; c < NUM_COLS; ++c) {
      if (rows[c] < 0) continue;
      uint32_t& q = this->table_[rows[c]][c];
      q = rlroute::ref::q_update(this->format_, this->rates_, q, targets[c]);
      ++updates;
      at_zero += q == 0;
      // beta x (kMax - q) < 1 code: the highest a rising entry gets.
      at_top += uint64_t{kMax - q} * this->rates_.beta < (uint64_t{1} << this->rates_.rate_bits);
    }
    if (cycle % 2000 == 1999) {
      ASSERT_NO_FATAL_FAILURE(this->compare_whole_table());
    }
  }
  ASSERT_NO_FATAL_FAILURE(this->compare_whole_table());
  // The stream did what it was meant to: many updates, entries pinned at both ends of the range.
  EXPECT_GT(updates, 20000u * NUM_COLS / 2);
  EXPECT_GT(at_zero, 100u);
  EXPECT_GT(at_top, 100u);
}

}  // namespace
