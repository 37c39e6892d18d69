// RingQueue against std::deque: the same random pushes, pops and erases give
// the same contents, across wrap-arounds and growth.
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "rlroute/tb/ring_queue.hpp"

using rlroute::RingQueue;

namespace {

void expect_same(const RingQueue<int>& ring, const std::deque<int>& ref) {
  ASSERT_EQ(ring.size(), ref.size());
  EXPECT_EQ(ring.empty(), ref.empty());
  for (std::size_t i = 0; i < ref.size(); ++i) EXPECT_EQ(ring[i], ref[i]) << "element " << i;
}

}  // namespace

TEST(RingQueue, StartsEmptyAndKeepsOrderAcrossTheWrap) {
  RingQueue<int> ring;
  EXPECT_TRUE(ring.empty());
  // Eight slots at first: fill five, take three, push six more (wraps, then grows).
  for (int i = 0; i < 5; ++i) ring.push_back(i);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(ring.front(), i);
    ring.pop_front();
  }
  for (int i = 5; i < 11; ++i) ring.push_back(i);
  ASSERT_EQ(ring.size(), 8u);
  for (int i = 3; i < 11; ++i) {
    EXPECT_EQ(ring.front(), i);
    ring.pop_front();
  }
  EXPECT_TRUE(ring.empty());
}

TEST(RingQueue, EraseMovesTheLaterElementsUp) {
  RingQueue<int> ring;
  for (int i = 0; i < 6; ++i) ring.push_back(i);
  ring.pop_front();
  ring.erase(2);  // 1 2 [3] 4 5
  expect_same(ring, {1, 2, 4, 5});
  ring.erase(3);  // the last
  expect_same(ring, {1, 2, 4});
  ring.erase(0);
  expect_same(ring, {2, 4});
}

TEST(RingQueue, RandomOperationsMatchADeque) {
  std::mt19937 rng(7);
  RingQueue<int> ring;
  std::deque<int> ref;
  for (int step = 0; step < 20000; ++step) {
    const unsigned op = rng() % 8;
    if (op < 4 || ref.empty()) {
      ring.push_back(step);
      ref.push_back(step);
    } else if (op < 7) {
      ring.pop_front();
      ref.pop_front();
    } else {
      const std::size_t at = rng() % ref.size();
      ring.erase(at);
      ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(at));
    }
    ASSERT_NO_FATAL_FAILURE(expect_same(ring, ref)) << "after step " << step;
  }
}
