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
    row_bits_ = q_feedback_bits(layout.rows(), design_.cfg.q_value_bits) - 1 - design_.cfg.q_value_bits;
  }

  // Head `key` from src_ to dst_, injected at the upstream router in cycle
  // `at_up` and arriving here on port_ in `at_here`.
  void arrive(unsigned key, std::int64_t at_up, std::int64_t at_here) {
    mirror_.head_arrived(up_, 0, key, src_, dst_, at_up);
    mirror_.head_arrived(router_, port_, key, src_, dst_, at_here);
  }
  std::uint64_t word(std::uint32_t target) const {
    return (std::uint64_t{target} << (1 + row_bits_)) | (std::uint64_t(row_up_) << 1) | 1u;
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

  Design design_;
  QMirror mirror_;
  const int router_ = 0;
  int port_ = 0, up_ = 0, src_ = 0, dst_ = 0, row_up_ = 0, row_bits_ = 0;
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
// falls (the downstream router in the destination group reports r = 1), and
// head 1's own word arrives, no longer saturated: the first word was head
// 2's.
TEST_F(QMirrorTest, AWordThatFitsOnlyAPaidHeadPaysForItAndTheEarlierWordForAnother) {
  const Topology& t = design_.topo;
  const QTableLayout layout(design_);
  // Router 0's second global port leads into the destination group.
  const int down_port = t.first_global_port() + 1;
  const PortRef down = *t.neighbor(router_, down_port);
  int dst = -1;
  for (int node = 0; node < t.num_nodes() && dst < 0; ++node) {
    if (t.group_of(t.router_of_node(node)) == t.group_of(down.router)) dst = node;
  }
  dst_ = dst;
  row_up_ = layout.row(up_, src_, dst_);
  const std::uint32_t q_y0 = expected_target(0);
  const std::int64_t r1 = ((std::int64_t{saturated()} - q_y0) >> 4) + 1;  // saturates with q_y0 only
  ASSERT_GE((r1 << 4) + q_y0, std::int64_t{saturated()});
  arrive(1, 0, r1);
  arrive(2, 0, 5000);
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(saturated()), r1 + 1), "");
  // Packets 10.. go on from router 0 into the destination group, and its
  // router pays r = 1 for each: router 0's estimate for that row falls.
  std::int64_t now = r1 + 2;
  for (unsigned k = 10; k < 20; ++k, now += 4) {
    mirror_.head_arrived(up_, 0, k, src_, dst_, now - 2);
    mirror_.head_arrived(router_, port_, k, src_, dst_, now - 1);
    mirror_.head_arrived(down.router, down.port, k, src_, dst_, now);
    const std::uint64_t fb = (std::uint64_t{1u << 4} << (1 + row_bits_)) |
                             (std::uint64_t(layout.row(router_, src_, dst_)) << 1) | 1u;
    EXPECT_EQ(mirror_.feedback_sent(down.router, down.port, fb, now + 1), "");
    mirror_.begin_cycle(now + 40);
  }
  const std::uint32_t head1 = expected_target(r1);
  ASSERT_LT(head1, saturated()) << "Q_y fell";
  EXPECT_EQ(mirror_.feedback_sent(router_, port_, word(head1), now + 50), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 1), "");
  EXPECT_EQ(mirror_.head_left(router_, port_ + 1, 2), "");
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
