// Block test for rtl/rr_q_decide.sv: the decision unit picks the port of the
// bit-exact reference rlroute::ref::q_decide (ref/src/q_decision.cpp) and the
// row minimum and its column of rlroute::ref::q_argmin, for random rows (with
// many ties and zeros), every role, every draw, on the 1,056-node router's 11
// columns with the thresholds of [Kang 2021] and on two small tables; and
// with the best local port at the intermediate router (LOCAL_COLS,
// routing.q_intermediate = "best") on 11 and 4 columns; and with each port's
// local queue weighed in (QUEUE_WEIGHT, routing.q_queue_weight) on 11 columns
// and on 4 with the best local port; and with the decision at the next
// router of the source group (SOURCE_GROUP, routing.q_source_group = "decide") on 11
// columns with the queue and on 5 with the best local port; and with the
// queue in the choice of the port only (QUEUE_IN_TEST = 0,
// routing.q_queue_in = "port") on 11 columns with the source group's
// decision and on 4 with the best local port. The units
// without a queue get random queues too, which they must ignore, and the
// units without SOURCE_GROUP the source_group role, which they must route
// minimally.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include <verilated.h>

#include "Vrr_q_decide_c11.h"
#include "Vrr_q_decide_c4.h"
#include "Vrr_q_decide_c3.h"
#include "Vrr_q_decide_c11b.h"
#include "Vrr_q_decide_c4b.h"
#include "Vrr_q_decide_c11q.h"
#include "Vrr_q_decide_c4bq.h"
#include "Vrr_q_decide_c11sq.h"
#include "Vrr_q_decide_c5sb.h"
#include "Vrr_q_decide_c11sqp.h"
#include "Vrr_q_decide_c4bqp.h"
#include "rlroute/ref/q_decision.hpp"
#include "vtb.hpp"

namespace cfg {

template <class M, unsigned C_, unsigned W_, unsigned TB_, unsigned SRC_, unsigned INT_, unsigned LOCAL_ = 0,
          unsigned QUEUE_WEIGHT_ = 0, unsigned OCC_W_ = 1, unsigned QFB_ = 4, unsigned FIRST_GLOBAL_ = 0,
          bool QUEUE_IN_TEST_ = true>
struct DecCfg {
  using Model = M;
  static constexpr unsigned C = C_, W = W_, TB = TB_, SRC = SRC_, INT = INT_, LOCAL = LOCAL_;
  static constexpr unsigned QUEUE_WEIGHT = QUEUE_WEIGHT_, OCC_W = OCC_W_, QFB = QFB_;
  static constexpr unsigned FIRST_GLOBAL = FIRST_GLOBAL_;  // > 0: SOURCE_GROUP, its first global column
  static constexpr bool QUEUE_IN_TEST = QUEUE_IN_TEST_;
};

// As tests/rtl/CMakeLists.txt builds them.
struct C11 : DecCfg<Vrr_q_decide_c11, 11, 16, 8, 51, 90> {};  // dfly(4,8,4,33): 7 local + 4 global ports
struct C4 : DecCfg<Vrr_q_decide_c4, 4, 8, 8, 51, 90> {};      // dfly(2,4,2,9)-like: 3 local + 1 global
struct C3 : DecCfg<Vrr_q_decide_c3, 3, 6, 4, 16, 0> {};       // q_thld1 = 1 (best port only at 0), q_thld2 = 0 (local port if no worse)
struct C11Best : DecCfg<Vrr_q_decide_c11b, 11, 16, 8, 51, 90, 7> {};  // the best of the 7 local ports
struct C4Best : DecCfg<Vrr_q_decide_c4b, 4, 8, 8, 51, 90, 3> {};      // the best of the 3 local ports
// The queues weighed in: 2 cycles per flit of 9-bit queues (4 fraction bits),
// and 1 cycle per flit of 6-bit queues with the best local port (2 fraction bits).
struct C11Queue : DecCfg<Vrr_q_decide_c11q, 11, 16, 8, 51, 90, 0, 2, 9, 4> {};
struct C4BestQueue : DecCfg<Vrr_q_decide_c4bq, 4, 8, 8, 51, 90, 3, 1, 6, 2> {};
// The decision at the next router of the source group.
struct C11SourceGroupQueue : DecCfg<Vrr_q_decide_c11sq, 11, 16, 8, 51, 90, 0, 1, 9, 4, 7> {};
struct C5SourceGroupBest : DecCfg<Vrr_q_decide_c5sb, 5, 8, 8, 51, 90, 3, 0, 1, 4, 3> {};
// The queue in the choice of the port only.
struct C11SourceGroupQueuePort : DecCfg<Vrr_q_decide_c11sqp, 11, 16, 8, 51, 90, 0, 4, 9, 4, 7, false> {};
struct C4BestQueuePort : DecCfg<Vrr_q_decide_c4bqp, 4, 8, 8, 51, 90, 3, 1, 6, 2, 0, false> {};

}  // namespace cfg

namespace {

using rlroute::ref::QRole;
using rtltest::field;
using rtltest::Rng;
using rtltest::set_field;

template <class Cfg>
class QDecideTest : public ::testing::Test {
 protected:
  static constexpr unsigned C = Cfg::C, W = Cfg::W;


  // Drives one decision and compares every output with the reference;
  // returns the port the RTL chose.
  unsigned check(const std::vector<uint32_t>& row, QRole role, unsigned min_port, unsigned local, bool explore,
                 unsigned rand_port, const std::vector<uint32_t>& queue = {}) {
    const std::vector<uint32_t> q = queue.empty() ? std::vector<uint32_t>(C, 0) : queue;
    rtltest::Bits bits, qbits;
    for (unsigned c = 0; c < C; ++c) bits.set(c * W, W, row[c]);
    rtltest::put_bits(dut_->row_i, bits, C * W);
    for (unsigned c = 0; c < C; ++c) qbits.set(c * Cfg::OCC_W, Cfg::OCC_W, q[c]);
    rtltest::put_bits(dut_->queue_i, qbits, C * Cfg::OCC_W);
    dut_->role_i = static_cast<unsigned>(role);
    dut_->min_i = min_port;
    dut_->local_i = local;
    dut_->explore_i = explore;
    dut_->rand_i = rand_port;
    dut_->eval();
    // A unit without SOURCE_GROUP routes that role minimally.
    const QRole ref_role = role == QRole::kSourceGroup && Cfg::FIRST_GLOBAL == 0 ? QRole::kMinimal : role;
    const rlroute::ref::QDecisionInput in{.role = ref_role, .row = row, .min_port = min_port, .random_local = local,
                                          .explore = explore, .random_port = rand_port,
                                          .local_columns = Cfg::LOCAL, .queue = q,
                                          .queue_weight = Cfg::QUEUE_WEIGHT, .fraction_bits = Cfg::QFB,
                                          .global_first = Cfg::FIRST_GLOBAL,
                                          .queue_in_test = Cfg::QUEUE_IN_TEST};
    const unsigned want = rlroute::ref::q_decide(in, thresholds_);
    const unsigned best = rlroute::ref::q_argmin(row);
    const std::string ctx = describe(row, role, min_port, local, explore, rand_port) + describe_queue(q);
    EXPECT_EQ(static_cast<unsigned>(dut_->port_o), want) << ctx;
    EXPECT_EQ(static_cast<unsigned>(dut_->best_o), best) << ctx;
    EXPECT_EQ(static_cast<uint32_t>(dut_->best_q_o), row[best]) << ctx;
    return dut_->port_o;
  }

  static std::string describe(const std::vector<uint32_t>& row, QRole role, unsigned min_port, unsigned local,
                              bool explore, unsigned rand_port) {
    std::string s = "row";
    for (uint32_t v : row) s += " " + std::to_string(v);
    return s + " role " + std::to_string(static_cast<unsigned>(role)) + " min " + std::to_string(min_port) +
           " local " + std::to_string(local) + " explore " + std::to_string(explore) + " rand " +
           std::to_string(rand_port);
  }

  static std::string describe_queue(const std::vector<uint32_t>& queue) {
    std::string s = " queue";
    for (uint32_t v : queue) s += " " + std::to_string(v);
    return s;
  }

  rlroute::ref::QThresholds thresholds_{.thld_bits = Cfg::TB, .source = Cfg::SRC, .intermediate = Cfg::INT};
  rtltest::CombDut<typename Cfg::Model> dut_;
};

using DecCfgs =
    ::testing::Types<cfg::C11, cfg::C4, cfg::C3, cfg::C11Best, cfg::C4Best, cfg::C11Queue, cfg::C4BestQueue,
                     cfg::C11SourceGroupQueue, cfg::C5SourceGroupBest, cfg::C11SourceGroupQueuePort,
                     cfg::C4BestQueuePort>;
TYPED_TEST_SUITE(QDecideTest, DecCfgs);

TYPED_TEST(QDecideTest, AgreesWithTheReferenceOnRandomRows) {
  constexpr unsigned C = TestFixture::C, W = TestFixture::W;
  Rng rng(5);
  constexpr unsigned OCC_W = TypeParam::OCC_W;
  std::vector<uint32_t> row(C), queue(C);
  for (int i = 0; i < 200000 && !this->HasFailure(); ++i) {
    // Narrow value ranges make ties and zeros common; full ones reach the
    // widest products of the threshold test.
    const unsigned span = (i % 3 == 0) ? 4 : (i % 3 == 1) ? 64 : (1u << W);
    for (uint32_t& v : row) v = static_cast<uint32_t>(rng.range(0, std::min<uint64_t>(span, (1u << W)) - 1));
    const unsigned qspan = (i % 2 == 0) ? 4 : (1u << OCC_W);
    for (uint32_t& v : queue) v = static_cast<uint32_t>(rng.range(0, qspan - 1));
    const auto role = static_cast<QRole>(rng.range(0, 3));
    this->check(row, role, static_cast<unsigned>(rng.range(0, C - 1)), static_cast<unsigned>(rng.range(0, C - 1)),
                rng.chance(10), static_cast<unsigned>(rng.range(0, C - 1)), queue);
  }
}

// The decision is not constant: each outcome of Figure 4 occurs.
TYPED_TEST(QDecideTest, EveryOutcomeOfTheDecisionOccurs) {
  constexpr unsigned C = TestFixture::C;
  std::vector<uint32_t> row(C, 40);
  // Minimal role: the minimal port whatever the row and the draws.
  EXPECT_EQ(this->check(row, QRole::kMinimal, 0, 1, true, 1), 0u);
  // Exploring goes by the random port.
  EXPECT_EQ(this->check(row, QRole::kSource, 0, 1, true, 1), 1u);
  if (TypeParam::SRC == 51) {  // the thresholds of [Kang 2021], 0.2 and 0.35
    row[C - 1] = 10;           // the best port, 75 % below the minimal one: taken
    EXPECT_EQ(this->check(row, QRole::kSource, 0, 1, false, 1), C - 1);
    row[C - 1] = 33;           // 17.5 % below: the minimal port is kept
    EXPECT_EQ(this->check(row, QRole::kSource, 0, 1, false, 1), 0u);
    row[1] = 25;               // the local port 37.5 % below: taken at the intermediate router
    EXPECT_EQ(this->check(row, QRole::kIntermediate, 0, 1, false, 2), 1u);
    row[1] = 27;               // 32.5 % below: not
    EXPECT_EQ(this->check(row, QRole::kIntermediate, 0, 1, false, 2), 0u);
    if (TypeParam::LOCAL > 0) {  // the best local port, not the random one drawn (2)
      row[1] = 25;
      EXPECT_EQ(this->check(row, QRole::kIntermediate, 0, 2, false, 2), 1u);
      row[C - 1] = 1;          // a global column is no candidate
      EXPECT_EQ(this->check(row, QRole::kIntermediate, 0, 2, false, 2), 1u);
    }
  } else {                     // C3: q_thld1 = 1, q_thld2 = 0
    row[C - 1] = 1;            // 97.5 % below is still below 1: the minimal port
    EXPECT_EQ(this->check(row, QRole::kSource, 0, 1, false, 1), 0u);
    row[C - 1] = 0;            // only an estimate of 0 is better by 1
    EXPECT_EQ(this->check(row, QRole::kSource, 0, 1, false, 1), C - 1);
    EXPECT_EQ(this->check(row, QRole::kIntermediate, 0, 1, false, 2), 1u);  // a local port no worse: taken
    row[1] = 41;
    EXPECT_EQ(this->check(row, QRole::kIntermediate, 0, 1, false, 2), 0u);
  }
}

// A long queue at the minimal port turns a decision the table alone keeps
// minimal, at the source and at the intermediate router; the row's minimum
// (the estimate sent upstream) stays the table's.
TYPED_TEST(QDecideTest, AQueueAtTheMinimalPortTurnsTheDecision) {
  if (TypeParam::QUEUE_WEIGHT == 0 || !TypeParam::QUEUE_IN_TEST) GTEST_SKIP() << "no queue in the test";
  constexpr unsigned C = TestFixture::C;
  std::vector<uint32_t> row(C, 40), queue(C, 0);
  row[C - 1] = 36;  // 10 % below the minimal port: the table alone keeps it
  EXPECT_EQ(this->check(row, QRole::kSource, 0, 1, false, 1, queue), 0u);
  EXPECT_EQ(this->check(row, QRole::kIntermediate, 0, 1, false, 1, queue), 0u);
  queue[0] = 30;    // 30 flits at the minimal port
  EXPECT_EQ(this->check(row, QRole::kSource, 0, 1, false, 1, queue), C - 1);
  EXPECT_EQ(this->check(row, QRole::kIntermediate, 0, 1, false, 1, queue), 1u);
  EXPECT_EQ(static_cast<uint32_t>(this->dut_->best_q_o), 36u);  // the table's minimum
  queue[C - 1] = 60;  // the best entry's port is the longer queue now: another port wins at the source
  EXPECT_NE(this->check(row, QRole::kSource, 0, 1, false, 1, queue), C - 1);
}

// The source_group role weighs the best global column other than the
// minimal one, never a local column, with q_thld1, and does not explore; a
// unit without SOURCE_GROUP routes it minimally.
TYPED_TEST(QDecideTest, TheSourceGroupRoleWeighsTheOtherGlobalPorts) {
  constexpr unsigned C = TestFixture::C;
  if (TypeParam::SRC != 51 || C < 5) GTEST_SKIP() << "needs the paper's thresholds and two global columns";
  const unsigned first_global = TypeParam::FIRST_GLOBAL > 0 ? TypeParam::FIRST_GLOBAL : C - 2;
  std::vector<uint32_t> row(C, 40);
  const unsigned min_port = first_global, other = C - 1;
  row[0] = 1;       // a local column, far below: no candidate
  row[other] = 33;  // 17.5 % below the minimal port: kept
  EXPECT_EQ(this->check(row, QRole::kSourceGroup, min_port, 1, false, 1), min_port);
  row[other] = 30;  // 25 % below: taken (with SOURCE_GROUP)
  const unsigned want = TypeParam::FIRST_GLOBAL > 0 ? other : min_port;
  EXPECT_EQ(this->check(row, QRole::kSourceGroup, min_port, 1, false, 1), want);
  EXPECT_EQ(this->check(row, QRole::kSourceGroup, min_port, 1, true, 1), want);  // no exploration
}

// With the queue in the choice of the port only, a long queue at the minimal
// port no longer turns a decision the table keeps minimal; when the table
// says leave, the weighed values pick the port.
TYPED_TEST(QDecideTest, WithTheQueueInThePortOnlyTheTableDecidesWhetherToLeave) {
  if (TypeParam::QUEUE_IN_TEST) GTEST_SKIP() << "the queue is in the test";
  constexpr unsigned C = TestFixture::C;
  std::vector<uint32_t> row(C, 40), queue(C, 0);
  row[C - 1] = 36;  // 10 % below the minimal port: the table keeps it
  queue[0] = 30;    // however long the minimal port's queue
  EXPECT_EQ(this->check(row, QRole::kSource, 0, 1, false, 1, queue), 0u);
  EXPECT_EQ(this->check(row, QRole::kIntermediate, 0, 1, false, 1, queue), 0u);
  row[C - 1] = 10;   // 75 % below: the table leaves ...
  queue[C - 1] = 20; // ... and its best entry's port has the longest queue but the minimal one's: another port
  const unsigned port = this->check(row, QRole::kSource, 0, 1, false, 1, queue);
  EXPECT_NE(port, 0u);
  EXPECT_NE(port, C - 1);
}

}  // namespace
