// The contention counters' reference (rlroute/ref/contention.hpp) where the
// block test does not take it: windows that pass with no edge seen (the
// test bench's mirror advances only when a head arrives or a factor is read).
#include <gtest/gtest.h>

#include "rlroute/ref/contention.hpp"

namespace {

using rlroute::ref::ContentionCounters;

// 2 routers per group, 3 groups, windows of 10 edges, active above 4 flits.
ContentionCounters counters() { return ContentionCounters(2, 3, 10, 4); }

TEST(ContentionCounters, ActiveAboveTheThresholdInFlits) {
  ContentionCounters c = counters();
  c.count(3, 1, 2, 4);
  EXPECT_EQ(c.factor(2), 0) << "4 flits are not above 4";
  c.count(5, 1, 2, 1);
  EXPECT_EQ(c.factor(2), 1);
  EXPECT_TRUE(c.active(1, 2));
  EXPECT_FALSE(c.active(0, 2));
  c.count(6, 0, 2, 7);
  EXPECT_EQ(c.factor(2), 2);
  EXPECT_EQ(c.factor(1), 0);
}

TEST(ContentionCounters, TheVerdictIsKeptForOneWindow) {
  ContentionCounters c = counters();
  c.count(9, 0, 1, 5);  // window 0 (edges 1..9)
  c.advance_to(10);     // window 1 begins at edge 10
  EXPECT_TRUE(c.previous(0, 1));
  EXPECT_EQ(c.factor(1), 1);
  c.advance_to(19);
  EXPECT_EQ(c.factor(1), 1);
  c.advance_to(20);  // window 2: window 1 counted nothing
  EXPECT_EQ(c.factor(1), 0);
}

TEST(ContentionCounters, SkippedWindowsClearTheVerdict) {
  ContentionCounters c = counters();
  c.count(5, 0, 1, 5);
  c.count(25, 1, 0, 1);  // two windows later: window 1 saw nothing
  EXPECT_FALSE(c.previous(0, 1));
  EXPECT_EQ(c.factor(1), 0);
  c.count(31, 0, 0, 9);  // the next window: window 2 counted 1 flit for (1, 0)
  EXPECT_FALSE(c.previous(1, 0));
  EXPECT_EQ(c.factor(0), 1);
}

TEST(ContentionCounters, BadSizesAreRefused) {
  EXPECT_THROW(ContentionCounters(0, 3, 10, 4), std::invalid_argument);
  EXPECT_THROW(ContentionCounters(2, 3, 0, 4), std::invalid_argument);
  EXPECT_THROW(ContentionCounters(2, 3, 10, -1), std::invalid_argument);
}

}  // namespace
