// The reference of Q-adaptive's decision (ref/q_decision.hpp): Figure 4 and
// Equation 2 of [Kang 2021], with the authors' tie and exploration rules.
#include "rlroute/ref/q_decision.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

using namespace rlroute::ref;

TEST(QDecision, ArgminTakesTheLowestColumnOnTies) {
  const std::vector<uint32_t> row{9, 4, 7, 4, 4};
  EXPECT_EQ(q_argmin(row), 1u);
  const std::vector<uint32_t> one{3};
  EXPECT_EQ(q_argmin(one), 0u);
  EXPECT_THROW(q_argmin(std::span<const uint32_t>{}), std::invalid_argument);
}

TEST(QDecision, ThresholdBoundaryOfEquation2) {
  // threshold 51/256 = 0.19921875; the minimal port stays when dV is below it
  EXPECT_TRUE(q_keep_minimal(100, 81, 51, 8));   // dV 0.19
  EXPECT_FALSE(q_keep_minimal(100, 80, 51, 8));  // dV 0.20
  EXPECT_TRUE(q_keep_minimal(256, 206, 51, 8));  // dV 50/256
  EXPECT_FALSE(q_keep_minimal(256, 205, 51, 8)); // dV 51/256: equal is not below
  EXPECT_TRUE(q_keep_minimal(100, 150, 0, 8));   // the other port is worse: dV < 0
  EXPECT_FALSE(q_keep_minimal(100, 100, 0, 8));  // threshold 0 and dV 0
  EXPECT_TRUE(q_keep_minimal(0, 5, 51, 8));      // q_min 0: -inf is below any threshold
  EXPECT_FALSE(q_keep_minimal(0, 0, 51, 8));     // 0 / 0 is not
}

// Against the division of the authors' code, away from the exact boundary
// where a double's rounding may fall on either side.
TEST(QDecision, EqualsTheDivisionAwayFromTheBoundary) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<uint32_t> value(1, 65535), thld(0, 255);
  int compared = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint32_t q_min = value(rng), other = value(rng), t = thld(rng);
    const double dv = (double(q_min) - double(other)) / double(q_min);
    const double threshold = t / 256.0;
    if (std::abs(dv - threshold) < 1e-9) continue;
    ++compared;
    ASSERT_EQ(q_keep_minimal(q_min, other, t, 8), dv < threshold) << q_min << " " << other << " " << t;
  }
  EXPECT_GT(compared, 199000);
}

TEST(QDecision, SourceRouterWeighsTheBestPortAgainstTheMinimalOne) {
  const QThresholds th;  // q_thld1 51/256, q_thld2 90/256
  std::vector<uint32_t> row{300, 200, 500, 170};
  QDecisionInput in{QRole::kSource, row, /*min_port=*/1, 0, false, 0};
  EXPECT_EQ(q_decide(in, th), 1u);  // best 170: dV 0.15 < 0.2, stay minimal
  row[3] = 150;
  EXPECT_EQ(q_decide(in, th), 3u);  // dV 0.25: take the best port
  in.min_port = 3;
  EXPECT_EQ(q_decide(in, th), 3u);  // the minimal port is the best
  row = {150, 200, 500, 150};
  in.min_port = 3;
  EXPECT_EQ(q_decide(in, th), 3u);  // best is column 0 (tie, lowest), dV 0: minimal
}

TEST(QDecision, IntermediateRouterWeighsARandomLocalPort) {
  const QThresholds th;
  const std::vector<uint32_t> row{100, 60, 500, 90, 400};
  // minimal port 4 (Q 400); the argmin (column 1) is not what is compared
  QDecisionInput in{QRole::kIntermediate, row, 4, /*random_local=*/0, false, 0};
  EXPECT_EQ(q_decide(in, th), 0u);  // dV (400-100)/400 = 0.75 >= 0.35
  in.random_local = 2;
  EXPECT_EQ(q_decide(in, th), 4u);  // the random local port is worse
  const std::vector<uint32_t> close{100, 60, 500, 300, 400};
  in.row = close;
  in.random_local = 3;
  EXPECT_EQ(q_decide(in, th), 4u);  // dV 0.25 < 0.35
}

// routing.q_intermediate = "best": the lowest-valued local column other
// than the minimal one stands against it, whatever random_local says.
TEST(QDecision, IntermediateRouterWithTheBestLocalPort) {
  const QThresholds th;
  // columns 0-3 local, 4-5 global; minimal port 2 (Q 400)
  const std::vector<uint32_t> row{300, 250, 400, 260, 10, 20};
  QDecisionInput in{QRole::kIntermediate, row, 2, /*random_local=*/0, false, 0};
  in.local_columns = 4;
  EXPECT_EQ(q_best_in(row, 0, 4, 2), 1u);   // not a global column, however low
  EXPECT_EQ(q_decide(in, th), 1u);          // dV (400-250)/400 = 0.375 >= 0.35
  in.local_columns = 0;
  EXPECT_EQ(q_decide(in, th), 2u);          // the paper: random column 0, dV 0.25
  const std::vector<uint32_t> tie{300, 260, 100, 260, 10, 20};
  EXPECT_EQ(q_best_in(tie, 0, 4, 2), 1u);   // ties: the lowest column; the minimal one is excluded
  EXPECT_EQ(q_best_in(tie, 0, 4, 1), 2u);
  const std::vector<uint32_t> two{50, 400};
  EXPECT_EQ(q_best_in(two, 0, 1, 0), 0u);   // no other local column: the minimal one
  in.row = two;
  in.min_port = 0;
  in.local_columns = 1;
  EXPECT_EQ(q_decide(in, th), 0u);
  EXPECT_THROW(q_best_in(two, 0, 3, 0), std::invalid_argument);
}

// routing.q_queue_weight: each column's entry plus its port's queue, weight
// cycles per flit in the entries' fixed point, is what the decision weighs.
TEST(QDecision, TheLocalQueueWeighsInAtWeightCyclesPerFlit) {
  const QThresholds th;
  // columns 0-2 local, 3 global (minimal); 4 fraction bits: 16 = one cycle
  const std::vector<uint32_t> row{300, 280, 320, 320};
  std::vector<uint32_t> queue{0, 0, 0, 0};
  QDecisionInput in{QRole::kSource, row, 3, 0, false, 0};
  in.queue = queue;
  in.queue_weight = 2;
  in.fraction_bits = 4;
  EXPECT_EQ(q_decide(in, th), 3u);   // no queue: dV (320-280)/320 = 0.125 < 0.2
  queue[3] = 1;                      // one flit: 320 + 32 = 352, dV (352-280)/352 = 0.205 -> the best port
  EXPECT_EQ(q_decide(in, th), 1u);
  in.queue_weight = 0;               // weight 0: the queues are ignored (the paper)
  EXPECT_EQ(q_decide(in, th), 3u);
  in.queue_weight = 2;
  queue[1] = 4;                      // the best port's own queue: 280 + 128 = 408; column 0 (300) is the
  EXPECT_EQ(q_decide(in, th), 3u);   // best now, dV (352-300)/352 = 0.148 < 0.2: the minimal port
  in.role = QRole::kIntermediate;    // against the random local column 2 (320 + 0) with q_thld2
  in.random_local = 2;
  queue[3] = 20;                     // 320 + 640 = 960: dV (960-320)/960 = 0.67 >= 0.35
  EXPECT_EQ(q_decide(in, th), 2u);
  const std::vector<uint32_t> short_queue{1, 2};
  in.queue = short_queue;
  EXPECT_THROW(q_decide(in, th), std::invalid_argument);
}

// routing.q_queue_in = "port": the table's entries alone test whether to
// leave the minimal port, against the port the table rates best; the
// weighed values pick the port taken.
TEST(QDecision, WithTheQueueInThePortOnlyTheTableDecidesWhetherToLeave) {
  const QThresholds th;
  // columns 0-2 local, 3 global (minimal); 4 fraction bits: 16 = one cycle
  std::vector<uint32_t> row{300, 280, 320, 320};
  std::vector<uint32_t> queue{0, 0, 0, 20};
  QDecisionInput in{QRole::kSource, row, 3, 0, false, 0};
  in.queue = queue;
  in.queue_weight = 2;
  in.fraction_bits = 4;
  EXPECT_EQ(q_decide(in, th), 1u);   // the queue in the test: 320 + 640 against 280 -> leave
  in.queue_in_test = false;
  EXPECT_EQ(q_decide(in, th), 3u);   // the table alone: dV (320-280)/320 = 0.125 < 0.2 -> stay
  row[1] = 200;                      // dV (320-200)/320 = 0.375: the table says leave ...
  queue[1] = 10;                     // ... and the values pick column 0 (300 + 0) over 1 (200 + 320)
  EXPECT_EQ(q_decide(in, th), 0u);
  queue[0] = queue[2] = 2;           // values 364, 520, 384, 320: the minimal port is the values' best,
  queue[3] = 0;
  EXPECT_EQ(q_decide(in, th), 3u);   // so it is taken though the table says leave
  in.role = QRole::kIntermediate;    // the random local column 2 (entry 320) against 320: the table stays
  in.random_local = 2;
  queue[3] = 20;
  EXPECT_EQ(q_decide(in, th), 3u);
  in.queue_in_test = true;           // with the queue in the test: 960 against 384 -> leave
  EXPECT_EQ(q_decide(in, th), 2u);
}

// routing.q_source_group = "decide": the next router of the source group weighs its
// best global port other than the minimal one against the minimal one with
// q_thld1, never a local port, and does not explore.
TEST(QDecision, SourceGroupRouterWeighsItsBestOtherGlobalPort) {
  const QThresholds th;  // q_thld1 51/256
  // columns 0-2 local, 3-5 global; minimal port 4 (Q 400)
  std::vector<uint32_t> row{10, 20, 30, 330, 400, 310};
  QDecisionInput in{QRole::kSourceGroup, row, /*min_port=*/4, 0, false, 0};
  in.global_first = 3;
  EXPECT_EQ(q_best_in(row, 3, 6, 4), 5u);
  EXPECT_EQ(q_decide(in, th), 5u);  // not a local column, however low; dV (400-310)/400 = 0.225 >= 0.2
  row[5] = 330;
  EXPECT_EQ(q_decide(in, th), 4u);  // best 330 (column 3, the lower on the tie): dV 0.175 < 0.2
  in.explore = true;
  in.random_port = 0;
  EXPECT_EQ(q_decide(in, th), 4u);  // the epsilon draw is ignored here
  row[3] = 100;
  EXPECT_EQ(q_decide(in, th), 3u);
  in.role = QRole::kIntermediate;   // the same row elsewhere explores
  EXPECT_EQ(q_decide(in, th), 0u);
  const std::vector<uint32_t> one_global{10, 20, 30, 400};
  in = {QRole::kSourceGroup, one_global, 3, 0, false, 0};
  in.global_first = 3;
  EXPECT_EQ(q_decide(in, th), 3u);  // no other global port: the minimal one
  in.global_first = 5;
  EXPECT_THROW(q_decide(in, th), std::invalid_argument);
}

TEST(QDecision, ExplorationOverridesAndMinimalIgnoresTheTable) {
  const QThresholds th;
  const std::vector<uint32_t> row{100, 60, 500};
  EXPECT_EQ(q_decide({QRole::kSource, row, 2, 0, true, 2}, th), 2u);
  EXPECT_EQ(q_decide({QRole::kSource, row, 0, 0, true, 2}, th), 2u);
  EXPECT_EQ(q_decide({QRole::kIntermediate, row, 2, 0, true, 1}, th), 1u);
  EXPECT_EQ(q_decide({QRole::kMinimal, row, 2, 0, true, 1}, th), 2u);
  EXPECT_EQ(q_decide({QRole::kMinimal, row, 2, 1, false, 0}, th), 2u);
  EXPECT_THROW(q_decide({QRole::kSource, row, 3, 0, false, 0}, th), std::invalid_argument);
  EXPECT_THROW(q_decide({QRole::kSource, row, 0, 0, true, 5}, th), std::invalid_argument);
}

}  // namespace
