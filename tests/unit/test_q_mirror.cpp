// The Q feedback check's bookkeeping (tb/include/rlroute/tb/q_mirror.hpp) on
// dfly(2,4,2,9): which head a feedback word pays for when several fit it.
// Heads of one row whose targets saturate at the value range (r of 4,096
// cycles or more with 16-bit values and 4 fraction bits, as in the learning
// transient of the 1,056-node network) send identical words, so the check
// cannot tell whose word it saw; it must not report the other one as unpaid,
// and it must still report a head that leaves while no word paid for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "configs.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/q_codes.hpp"
#include "rlroute/gen/q_table_layout.hpp"
#include "rlroute/tb/q_mirror.hpp"

using namespace rlroute;

namespace {

class QMirrorTest : public ::testing::Test {
 protected:
  QMirrorTest() : design_(derive_design(test::dragonfly(2, 4, 2, 9, "q_adaptive", 5))), mirror_(design_) {
    const Topology& t = design_.topo;
    port_ = t.first_global_port();  // router 0's first global port, and the router it leads to
    up_ = t.neighbor(router_, port_)->router;
    src_ = up_ * t.nodes_per_router();  // the upstream router's first node
    for (int node = 0; node < t.num_nodes(); ++node) {  // a destination in a third group
      const int group = t.group_of(t.router_of_node(node));
      if (group != t.group_of(router_) && group != t.group_of(up_)) {
        dst_ = node;
        break;
      }
    }
    const QTableLayout layout(design_);
    row_up_ = layout.row(up_, src_, dst_);
  }

  // Head `key` from src_ to dst_, injected at the upstream router in cycle
  // `at_up` and arriving here on port_ in `at_here`.
  void arrive(unsigned key, std::int64_t at_up, std::int64_t at_here) {
    mirror_.head_arrived(router_, port_, key, src_, dst_, at_here - at_up);
  }
  std::uint64_t word(std::uint32_t target) const {
    return word_for(row_up_, target);
  }
  // A feedback word for `row` of a table.
  std::uint64_t word_for(int row, std::uint32_t target) const {
    return QFeedbackLayout(QTableLayout(design_).rows(), design_.cfg.q_value_bits).encode({true, row, target});
  }
  std::uint32_t saturated() const { return (1u << design_.cfg.q_value_bits) - 1u; }
  // r + Q_y for a head with travel time r, Q_y the minimum of its row here in
  // the mirror's table now (expected_target(0) is Q_y itself).
  std::uint32_t expected_target(std::int64_t r) const {
    const QTableLayout layout(design_);
    const int row_here = layout.row(router_, src_, dst_);
    std::uint32_t q_y = ~0u;
    const auto& t = mirror_.table(router_);
    for (int c = 0; c < layout.columns(); ++c) q_y = std::min(q_y, t[static_cast<size_t>(row_here * layout.columns() + c)]);
    return ref::q_target(ref::QFormat{static_cast<unsigned>(design_.cfg.q_value_bits),
                                 static_cast<unsigned>(design_.cfg.q_fraction_bits)},
                         static_cast<std::uint64_t>(r), q_y);
  }

  // Destinations in the group behind router 0's second global port, whose
  // router pays r = 1 for every packet router 0 sends it: lower_q_y() makes
  // router 0's estimate for the row fall.
  void use_destination_behind_second_global_port() {
    const Topology& t = design_.topo;
    down_ = *t.neighbor(router_, t.first_global_port() + 1);
    dst_ = -1;
    for (int node = 0; node < t.num_nodes() && dst_ < 0; ++node) {
      if (t.group_of(t.router_of_node(node)) == t.group_of(down_.router)) dst_ = node;
    }
    row_up_ = QTableLayout(design_).row(up_, src_, dst_);
  }
  // Packets 10..19 go on from router 0 into the destination group from cycle
  // `now`; returns the cycle after.
  std::int64_t lower_q_y(std::int64_t now) {
    const QTableLayout layout(design_);
    for (unsigned k = 10; k < 20; ++k, now += 4) {
      // Injected at the upstream router at now - 2, here at now - 1, there at now.
      mirror_.head_arrived(router_, port_, k, src_, dst_, 1);
      mirror_.head_arrived(down_.router, down_.port, k, src_, dst_, 1);
      const std::uint64_t fb = word_for(layout.row(router_, src_, dst_), 1u << 4);
      EXPECT_EQ(mirror_.feedback_sent(down_.router, down_.port, fb, now + 1), "");
      mirror_.begin_cycle(now + 40);
    }
    return now;
  }
  // A travel time whose target saturates only while Q_y is at its initial value.
  std::int64_t saturates_at_first() const {
    const std::uint32_t q_y0 = expected_target(0);
    return ((std::int64_t{saturated()} - q_y0) >> 4) + 1;
  }

  Design design_;
  QMirror mirror_;
  PortRef down_{};
  const int router_ = 0;
  int port_ = 0, up_ = 0, src_ = 0, dst_ = 0, row_up_ = 0;
};

TEST_F(QMirrorTest, SaturatedHeadsOfOneRowMayPayForEachOther) {
  arrive(1, 0, 5000);    // r = 5000: saturated
  arrive(2, 100, 6000);  // r = 5900: saturated too, the same word
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(saturated()), 6001), "");
  // The word matched head 1 first, but it may have been head 2's: head 2
  // leaves paid, and head 1 owes the next word.
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 2), "");
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(saturated()), 6002), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 1), "");
}

// Heads with the same r are interchangeable whenever their words came:
// three heads, two words, the third head to arrive leaves first (paid by one
// of the words), and then the first (paid by the other).
TEST_F(QMirrorTest, HeadsWithTheSameRMayPayForEachOther) {
  arrive(1, 0, 40);
  arrive(2, 10, 50);
  arrive(3, 20, 60);
  const std::string w1 = mirror_.feedback_sent(router_, port_, word(expected_target(40)), 61);
  const std::string w2 = mirror_.feedback_sent(router_, port_, word(expected_target(40)), 62);
  EXPECT_EQ(w1, "");
  EXPECT_EQ(w2, "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 3), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 1), "");
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(expected_target(40)), 63), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 2), "");
}

// The same with saturated targets of different r.
TEST_F(QMirrorTest, SaturatedHeadsMayPayForEachOtherInAnyOrder) {
  arrive(1, 0, 5000);
  arrive(2, 10, 5100);
  arrive(3, 20, 5300);
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(saturated()), 5301), "");
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(saturated()), 5302), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 3), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 1), "");
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(saturated()), 5303), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 2), "");
}

// Head 1's target saturates only while Q_y is at its initial value; head 2's
// always does. The first word (saturated) is matched to head 1; then Q_y
// falls, and head 1's own word arrives, no longer saturated: the first word
// was head 2's.
TEST_F(QMirrorTest, AWordThatFitsOnlyAPaidHeadPaysForItAndTheEarlierWordForAnother) {
  use_destination_behind_second_global_port();
  const std::int64_t r1 = saturates_at_first();
  arrive(1, 0, r1);
  arrive(2, 0, 5000);
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(saturated()), r1 + 1), "");
  const std::int64_t now = lower_q_y(r1 + 2);
  const std::uint32_t head1 = expected_target(r1);
  ASSERT_LT(head1, saturated()) << "Q_y fell";
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(head1), now + 50), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 1), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 2), "");
}

// A head that has left keeps its place in the matching while its word may
// still be another's. Heads 2 and 3 always saturate, head 1 only at the
// initial Q_y. Word a (initial Q_y) fits all three, word b (after Q_y fell)
// only heads 2 and 3; head 2 leaves with one of them. Head 1 can then leave
// only with word a, and head 3 owes a word again (a third word pays it;
// without one, its leaving is reported). A check that forgets head 2 when it
// leaves with word a reports head 1 falsely.
class QMirrorTwoStepTest : public QMirrorTest, public ::testing::WithParamInterface<bool> {};

TEST_P(QMirrorTwoStepTest, AHeadThatLeftGivesUpItsWordForAnother) {
  const bool third_word = GetParam();
  use_destination_behind_second_global_port();
  const std::int64_t r1 = saturates_at_first();
  arrive(2, 0, 5000);
  arrive(3, 0, 5000);
  arrive(1, 5000 - r1, 5000);
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(saturated()), 5001), "");
  const std::int64_t now = lower_q_y(5002);
  ASSERT_LT(expected_target(r1), saturated()) << "Q_y fell";
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(saturated()), now), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 2), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 1), "");
  if (third_word) {
    EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(saturated()), now + 1), "");
    EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 3), "");
  } else {
    const std::string failure = mirror_.head_left(router_, port_ + 1, 3);
    EXPECT_NE(failure.find("packet 0x3 left router 0 without the feedback it owes"), std::string::npos) << failure;
  }
}

INSTANTIATE_TEST_SUITE_P(ThirdWord, QMirrorTwoStepTest, ::testing::Bool());

// Forgetting a settled part of the graph (head 2 and its word) keeps the
// rest intact: head 3 can still take the word matched to head 1.
TEST_F(QMirrorTest, ForgettingASettledPartKeepsTheRest) {
  arrive(1, 0, 40);
  arrive(3, 0, 40);
  arrive(2, 0, 50);
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(expected_target(40)), 51), "");
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(expected_target(50)), 52), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 2), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 3), "");
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(expected_target(40)), 53), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 1), "");
}

TEST_F(QMirrorTest, AHeadThatLeavesUnpaidIsReported) {
  arrive(1, 0, 5000);
  arrive(2, 100, 6000);
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(saturated()), 6001), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 2), "");
  // One word for two heads: the second to leave is unpaid.
  const std::string failure = mirror_.head_left(router_, port_ + 1, 1);
  EXPECT_NE(failure.find("left router 0 without the feedback it owes its upstream router"), std::string::npos)
      << failure;
}

TEST_F(QMirrorTest, AWordNoHeadFitsIsReported) {
  arrive(1, 0, 5000);
  const std::string failure = mirror_.feedback_sent(router_, port_, word(saturated() - 1), 6001);
  EXPECT_NE(failure.find("which no head it took in on that port owes"), std::string::npos) << failure;
}

}  // namespace
