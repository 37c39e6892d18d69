// Block test for rtl/rr_arbiter_rr.sv against a pointer-based round-robin model.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "Vrr_arbiter_rr_n1.h"
#include "Vrr_arbiter_rr_n2.h"
#include "Vrr_arbiter_rr_n5.h"
#include "vtb.hpp"

// Parameter sets (one Verilated model each); the struct names appear in the
// CTest test names.
namespace cfg {

template <class M, unsigned N>
struct ArbCfg {
  using Model = M;
  static constexpr unsigned kN = N;
};

struct N1 : ArbCfg<Vrr_arbiter_rr_n1, 1> {};
struct N2 : ArbCfg<Vrr_arbiter_rr_n2, 2> {};
struct N5 : ArbCfg<Vrr_arbiter_rr_n5, 5> {};

}  // namespace cfg

namespace {

using ArbCfgs = ::testing::Types<cfg::N1, cfg::N2, cfg::N5>;

using rtltest::bit;
using rtltest::Dut;
using rtltest::popcount;
using rtltest::Rng;

// Reference: the requester with the highest priority is `ptr`; the grant goes
// to the first requester at or after ptr (cyclically). On advance with a
// request, ptr moves to the one after the winner.
class RrModel {
 public:
  explicit RrModel(unsigned n) : n_(n) {}
  std::uint64_t grant(std::uint64_t req) const {
    for (unsigned i = 0; i < n_; ++i) {
      const unsigned r = (ptr_ + i) % n_;
      if (bit(req, r)) return std::uint64_t{1} << r;
    }
    return 0;
  }
  void clock(std::uint64_t req, bool advance) {
    const std::uint64_t g = grant(req);
    if (advance && g != 0) ptr_ = (static_cast<unsigned>(__builtin_ctzll(g)) + 1) % n_;
  }
  void reset() { ptr_ = 0; }

 private:
  unsigned n_;
  unsigned ptr_ = 0;
};

template <class Cfg>
class ArbiterTest : public ::testing::Test {
 protected:
  static constexpr unsigned N = Cfg::kN;
  static constexpr std::uint64_t kAll = rtltest::mask(N);

  ArbiterTest() { dut_.reset(); }

  // Drives req/advance, checks the grant (properties and model), clocks.
  // Returns the grant seen.
  std::uint64_t step(std::uint64_t req, bool advance) {
    rtltest::put(dut_->req_i, req);
    dut_->advance_i = advance;
    dut_.eval();
    const std::uint64_t gnt = dut_->gnt_o;
    EXPECT_LE(popcount(gnt), 1) << "grant not one-hot, cycle " << dut_.cycle();
    EXPECT_EQ(gnt & ~req, 0u) << "grant to a non-requester, cycle " << dut_.cycle();
    EXPECT_EQ(gnt == 0, req == 0) << "grant zero iff no request, cycle " << dut_.cycle();
    EXPECT_EQ(gnt, model_.grant(req)) << "req " << req << " cycle " << dut_.cycle();
    dut_.tick();
    model_.clock(req, advance);
    return gnt;
  }

  Dut<typename Cfg::Model> dut_;
  RrModel model_{N};
};

TYPED_TEST_SUITE(ArbiterTest, ArbCfgs);

TYPED_TEST(ArbiterTest, NoRequestNoGrant) {
  for (int i = 0; i < 5; ++i) EXPECT_EQ(this->step(0, i % 2 == 0), 0u);
}

TYPED_TEST(ArbiterTest, AllRequestAdvanceEveryCycleIsRoundRobin) {
  constexpr unsigned N = TestFixture::N;
  std::vector<std::uint64_t> seq;
  for (unsigned c = 0; c < 10 * N; ++c) seq.push_back(this->step(TestFixture::kAll, true));
  // Starts at requester 0 after reset, then 1, 2, ... wrapping.
  for (unsigned c = 0; c < seq.size(); ++c) {
    EXPECT_EQ(seq[c], std::uint64_t{1} << (c % N)) << "cycle " << c;
  }
  // Every window of N consecutive cycles grants each requester exactly once.
  for (unsigned start = 0; start + N <= seq.size(); ++start) {
    std::uint64_t seen = 0;
    for (unsigned c = start; c < start + N; ++c) seen |= seq[c];
    EXPECT_EQ(seen, TestFixture::kAll) << "window at " << start;
  }
}

TYPED_TEST(ArbiterTest, NoAdvanceHoldsGrant) {
  constexpr unsigned N = TestFixture::N;
  // Move the pointer to the middle, then hold it with advance low.
  for (unsigned i = 0; i < N / 2; ++i) this->step(TestFixture::kAll, true);
  const std::uint64_t held = this->step(TestFixture::kAll, false);
  EXPECT_EQ(held, std::uint64_t{1} << (N / 2));
  for (int i = 0; i < 20; ++i) EXPECT_EQ(this->step(TestFixture::kAll, false), held);
  // A request change without advance does not move the pointer either:
  // dropping and restoring the other requesters gives the same winner.
  for (int i = 0; i < 5; ++i) this->step(held, false);
  EXPECT_EQ(this->step(TestFixture::kAll, false), held);
  // Advancing once moves it to the next requester.
  this->step(TestFixture::kAll, true);
  EXPECT_EQ(this->step(TestFixture::kAll, false), std::uint64_t{1} << ((N / 2 + 1) % N));
}

TYPED_TEST(ArbiterTest, AdvanceWithoutRequestKeepsPointer) {
  constexpr unsigned N = TestFixture::N;
  EXPECT_EQ(this->step(1, true), 1u);  // requester 0 wins, priority moves to 1
  for (int i = 0; i < 4; ++i) this->step(0, true);
  EXPECT_EQ(this->step(TestFixture::kAll, true), std::uint64_t{1} << (1 % N)) << "requester 1 should be next";
}

TYPED_TEST(ArbiterTest, PersistentRequesterWaitsAtMostN) {
  constexpr unsigned N = TestFixture::N;
  Rng rng(0xA4B0 + N);
  for (unsigned target = 0; target < N; ++target) {
    unsigned wait = 0, grants = 0;
    for (unsigned c = 0; c < 400; ++c) {
      const std::uint64_t req = rng.bits(N) | (std::uint64_t{1} << target);
      const std::uint64_t gnt = this->step(req, true);
      if (bit(gnt, target)) {
        ++grants;
        wait = 0;
      } else {
        ++wait;
        ASSERT_LT(wait, N) << "requester " << target << " starved, cycle " << this->dut_.cycle();
      }
    }
    EXPECT_GE(grants, 400 / N);
  }
}

TYPED_TEST(ArbiterTest, RandomAgainstModel) {
  constexpr unsigned N = TestFixture::N;
  Rng rng(0xA4B1 + N);
  for (unsigned c = 0; c < 20000; ++c) {
    const unsigned density = (c / 200) % 4 == 0 ? 10 : (c / 200) % 4 == 1 ? 40 : (c / 200) % 4 == 2 ? 70 : 95;
    std::uint64_t req = 0;
    for (unsigned i = 0; i < N; ++i) req |= std::uint64_t{rng.chance(density)} << i;
    this->step(req, rng.chance(70));
    if (::testing::Test::HasFailure()) return;
  }
}

TYPED_TEST(ArbiterTest, ResetRestoresPriority) {
  for (unsigned i = 0; i < TestFixture::N + 1; ++i) this->step(TestFixture::kAll, true);
  this->dut_.reset();
  this->model_.reset();
  EXPECT_EQ(this->step(TestFixture::kAll, true), 1u);
}

}  // namespace
