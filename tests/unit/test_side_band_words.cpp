// The credit word's feedback side-bands, each described once in C++: Q-adaptive's
// feedback word (QFeedbackLayout) and DQN-routing's ack word
// (DqnEpisodeLayout). Their field order is the RTL's (rr_q_unit,
// rr_dqn_episodes), which the block tests hold them to; here: every field
// round-trips, sits where the layout says, and cannot spill into its
// neighbours.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "rlroute/gen/dqn_episodes.hpp"
#include "rlroute/gen/q_codes.hpp"

namespace rlroute {
namespace {

TEST(QFeedbackLayout, WidthIsValidRowAndValue) {
  EXPECT_EQ(QFeedbackLayout(60, 16).bits(), 1 + 6 + 16);
  EXPECT_EQ(QFeedbackLayout(64, 16).bits(), 1 + 6 + 16);
  EXPECT_EQ(QFeedbackLayout(65, 16).bits(), 1 + 7 + 16);
  EXPECT_EQ(QFeedbackLayout(1, 8).bits(), 1 + 1 + 8);  // a row id is at least one bit (rr_pkg::id_width)
}

TEST(QFeedbackLayout, FieldsSitLsbFirstValidRowTarget) {
  const QFeedbackLayout l(60, 16);  // rows of 6 bits
  EXPECT_EQ(l.encode({true, 0, 0}), 1u);
  EXPECT_EQ(l.encode({true, 1, 0}), 1u | 1u << 1);
  EXPECT_EQ(l.encode({true, 0, 1}), 1u | 1u << 7);
  EXPECT_EQ(l.encode({false, 5, 7}), 0u) << "an idle word carries nothing";
}

TEST(QFeedbackLayout, RoundTripsAndMasksEachField) {
  std::mt19937 rng(7);
  for (const auto& [rows, value_bits] : {std::pair{9, 8}, std::pair{60, 16}, std::pair{1000, 20}}) {
    const QFeedbackLayout l(rows, value_bits);
    for (int k = 0; k < 1000; ++k) {
      const QFeedback f{true, static_cast<int>(rng() % static_cast<unsigned>(rows)),
                        static_cast<std::uint32_t>(rng() & ((1u << value_bits) - 1))};
      const std::uint64_t word = l.encode(f);
      ASSERT_LT(word, std::uint64_t{1} << l.bits());
      const QFeedback back = l.decode(word);
      ASSERT_TRUE(back.valid);
      ASSERT_EQ(back.row, f.row);
      ASSERT_EQ(back.target, f.target);
    }
    // Too wide a value stays in its field.
    EXPECT_EQ(l.decode(l.encode({true, 0, ~0u})).row, 0);
    EXPECT_LT(l.encode({true, 0, ~0u}), std::uint64_t{1} << l.bits());
  }
}

TEST(DqnAckLayout, FieldsSitLsbFirstStampIndexCancelValid) {
  DqnEpisodeLayout l;
  l.entries = 16;
  l.index_bits = 4;
  EXPECT_EQ(l.ack_bits(), 2 + 4 + kDqnStampBits);
  EXPECT_EQ(l.encode({false, false, 0, 1}), 1u);
  EXPECT_EQ(l.encode({false, false, 1, 0}), std::uint64_t{1} << kDqnStampBits);
  EXPECT_EQ(l.encode({false, true, 0, 0}), std::uint64_t{1} << (kDqnStampBits + 4));
  EXPECT_EQ(l.encode({true, false, 0, 0}), std::uint64_t{1} << (kDqnStampBits + 5));
  l.entries = 0;
  EXPECT_EQ(l.ack_bits(), 0) << "no table, no ack field";
}

TEST(DqnAckLayout, RoundTripsAndMasksEachField) {
  DqnEpisodeLayout l;
  l.entries = 5;
  l.index_bits = 3;
  std::mt19937 rng(11);
  for (int k = 0; k < 1000; ++k) {
    const ref::EpisodeAck a{(rng() & 1u) != 0, (rng() & 1u) != 0, static_cast<unsigned>(rng() % 5),
                            static_cast<std::uint32_t>(rng() & 0xffffu)};
    const std::uint64_t word = l.encode(a);
    ASSERT_LT(word, std::uint64_t{1} << l.ack_bits());
    ASSERT_EQ(l.decode(word), a);
  }
  EXPECT_EQ(l.decode(l.encode({true, false, 0, 0x1ffffu})).timestamp, 0xffffu) << "a stamp stays in its field";
  EXPECT_EQ(l.decode(l.encode({true, false, 0, 0x1ffffu})).index, 0u);
}

}  // namespace
}  // namespace rlroute
