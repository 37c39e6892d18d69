// ThreadTeam (tb/include/rlroute/tb/thread_team.hpp): the parts cover the
// range exactly, every index runs once per job on the same thread every time,
// and an exception in a part reaches the caller.
#include "rlroute/tb/thread_team.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace rlroute {
namespace {

TEST(ThreadTeam, PartsCoverTheRangeInOrderWithoutOverlap) {
  for (int threads = 1; threads <= 5; ++threads) {
    for (int n = 0; n <= 13; ++n) {
      int next = 0;
      for (int t = 0; t < threads; ++t) {
        const auto [first, last] = ThreadTeam::part(n, threads, t);
        EXPECT_EQ(first, next) << n << " over " << threads;
        EXPECT_GE(last - first, n / threads);
        EXPECT_LE(last - first, n / threads + 1);
        next = last;
      }
      EXPECT_EQ(next, n);
    }
  }
}

TEST(ThreadTeam, EveryIndexRunsOncePerJobAlwaysOnTheSameThread) {
  for (int threads : {1, 2, 3, 8}) {
    ThreadTeam team(threads);
    ASSERT_EQ(team.size(), threads);
    constexpr int kN = 37;
    std::vector<std::atomic<int>> runs(kN);
    std::vector<std::thread::id> owner(kN);
    team.for_each(kN, [&](int i) { owner[static_cast<size_t>(i)] = std::this_thread::get_id(); });
    int distinct = 0;
    for (int i = 0; i < kN; ++i) distinct += i == 0 || owner[static_cast<size_t>(i)] != owner[static_cast<size_t>(i - 1)];
    EXPECT_EQ(distinct, threads);
    std::atomic<bool> same_thread{true};
    for (int job = 0; job < 2000; ++job) {
      team.for_each(kN, [&](int i) {
        runs[static_cast<size_t>(i)].fetch_add(1, std::memory_order_relaxed);
        if (owner[static_cast<size_t>(i)] != std::this_thread::get_id()) same_thread = false;
      });
    }
    for (int i = 0; i < kN; ++i) EXPECT_EQ(runs[static_cast<size_t>(i)].load(), 2000) << "index " << i;
    EXPECT_TRUE(same_thread) << threads << " threads";
  }
}

TEST(ThreadTeam, AnExceptionInAPartReachesTheCallerAndTheTeamGoesOn) {
  ThreadTeam team(2);
  EXPECT_THROW(team.for_each(10, [](int i) { if (i == 9) throw std::runtime_error("part 2 failed"); }),
               std::runtime_error);
  std::atomic<int> sum{0};
  team.for_each(10, [&](int i) { sum += i; });
  EXPECT_EQ(sum.load(), 45);
}

}  // namespace
}  // namespace rlroute
