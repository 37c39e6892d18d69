// Block test for rtl/rr_arbiter_multi.sv (rr_vc_alloc's stage 2 with several
// single-flit grants per output VC) against a pointer-based model. Every
// parameter set is Verilated twice, with the carry-chain reading Verilator
// gets by default and with the OR-prefix reading synthesis gets (PREFIX), so
// the circuit that is synthesized is simulated too.
#include <gtest/gtest.h>

#include <cstdint>

#include "Vrr_arbiter_multi_n55g2.h"
#include "Vrr_arbiter_multi_n55g2p.h"
#include "Vrr_arbiter_multi_n5g2.h"
#include "Vrr_arbiter_multi_n5g2p.h"
#include "Vrr_arbiter_multi_n7g3.h"
#include "Vrr_arbiter_multi_n7g3p.h"
#include "vtb.hpp"

// Parameter sets (one Verilated model each); the struct names appear in the
// CTest test names. P: the prefix reading.
namespace cfg {

template <class M, unsigned N, unsigned G, unsigned CREDIT_CNT_W>
struct MultiCfg {
  using Model = M;
  static constexpr unsigned kN = N, kG = G, kCreditCntW = CREDIT_CNT_W;
};

struct N5G2 : MultiCfg<Vrr_arbiter_multi_n5g2, 5, 2, 4> {};
struct N5G2P : MultiCfg<Vrr_arbiter_multi_n5g2p, 5, 2, 4> {};
struct N7G3 : MultiCfg<Vrr_arbiter_multi_n7g3, 7, 3, 3> {};
struct N7G3P : MultiCfg<Vrr_arbiter_multi_n7g3p, 7, 3, 3> {};
struct N55G2 : MultiCfg<Vrr_arbiter_multi_n55g2, 55, 2, 6> {};
struct N55G2P : MultiCfg<Vrr_arbiter_multi_n55g2p, 55, 2, 6> {};

}  // namespace cfg

namespace {

using Cfgs = ::testing::Types<cfg::N5G2, cfg::N5G2P, cfg::N7G3, cfg::N7G3P, cfg::N55G2, cfg::N55G2P>;

using rtltest::bit;
using rtltest::Dut;
using rtltest::popcount;
using rtltest::Rng;

struct Inputs {
  std::uint64_t req = 0, single = 0;
  bool busy = false;
  unsigned credits = 0, singles = 0;
};

struct Grant {
  std::uint64_t gnt = 0;
  unsigned n = 0;  // single-flit packets among them
};

// Reference: requesters in order from the pointer, cyclically. The first
// takes the VC; if it is single-flit and the VC is not busy, up to G - 1 more
// single-flit requesters follow in the same order, the k-th more only with
// credits for the singles pending, the winner and k more. The pointer moves
// to the one after the last granted.
class MultiModel {
 public:
  MultiModel(unsigned n, unsigned g) : n_(n), g_(g) {}
  Grant grant(const Inputs& in) const {
    Grant out;
    bool more = false;
    unsigned owed = in.singles + 1, granted = 0;
    for (unsigned i = 0; i < n_; ++i) {
      const unsigned r = (ptr_ + i) % n_;
      if (!bit(in.req, r)) continue;
      if (granted == 0) {
        out.gnt |= std::uint64_t{1} << r;
        granted = 1;
        if (bit(in.single, r)) {
          out.n = 1;
          more = !in.busy;
        }
        continue;
      }
      if (!more || granted == g_ || !bit(in.single, r)) continue;
      if (in.credits < owed + 1) break;
      out.gnt |= std::uint64_t{1} << r;
      ++granted;
      ++out.n;
      ++owed;
    }
    return out;
  }
  void clock(const Inputs& in) {
    const Grant g = grant(in);
    if (g.gnt == 0) return;
    // The last granted in round-robin order from the pointer.
    unsigned last = ptr_;
    for (unsigned i = 0; i < n_; ++i) {
      const unsigned r = (ptr_ + i) % n_;
      if (bit(g.gnt, r)) last = r;
    }
    ptr_ = (last + 1) % n_;
  }
  void reset() { ptr_ = 0; }

 private:
  unsigned n_, g_;
  unsigned ptr_ = 0;
};

template <class Cfg>
class MultiTest : public ::testing::Test {
 protected:
  static constexpr unsigned N = Cfg::kN, G = Cfg::kG, CREDIT_CNT_W = Cfg::kCreditCntW;
  static constexpr std::uint64_t kAll = rtltest::mask(N);

  MultiTest() { dut_.reset(); }

  // Drives the inputs, checks the grants (properties and model), clocks.
  Grant step(const Inputs& in) {
    rtltest::put(dut_->req_i, in.req);
    rtltest::put(dut_->single_i, in.single);
    dut_->busy_i = in.busy;
    dut_->credits_i = in.credits;
    dut_->singles_i = in.singles;
    dut_.eval();
    const Grant got{dut_->gnt_o, dut_->n_o};
    const Grant want = model_.grant(in);
    EXPECT_EQ(got.gnt & ~in.req, 0u) << "grant to a non-requester, cycle " << dut_.cycle();
    EXPECT_LE(popcount(got.gnt), static_cast<int>(G)) << "cycle " << dut_.cycle();
    EXPECT_EQ(got.gnt, want.gnt) << "req " << in.req << " single " << in.single << " cycle " << dut_.cycle();
    EXPECT_EQ(got.n, want.n) << "cycle " << dut_.cycle();
    dut_.tick();
    model_.clock(in);
    return got;
  }

  Dut<typename Cfg::Model> dut_;
  MultiModel model_{N, G};
};

TYPED_TEST_SUITE(MultiTest, Cfgs);

TYPED_TEST(MultiTest, NoRequestNoGrant) {
  for (int i = 0; i < 5; ++i) EXPECT_EQ(this->step({}).gnt, 0u);
}

TYPED_TEST(MultiTest, MultiFlitPacketsTakeOneGrantInRoundRobinOrder) {
  constexpr unsigned N = TestFixture::N;
  const Inputs all{TestFixture::kAll, 0, false, (1u << TestFixture::CREDIT_CNT_W) - 1, 0};
  for (unsigned c = 0; c < 3 * N; ++c) {
    const Grant g = this->step(all);
    EXPECT_EQ(g.gnt, std::uint64_t{1} << (c % N)) << "cycle " << c;
    EXPECT_EQ(g.n, 0u);
  }
}

TYPED_TEST(MultiTest, SingleFlitPacketsTakeGGrantsWithCredits) {
  constexpr unsigned N = TestFixture::N, G = TestFixture::G;
  Inputs all{TestFixture::kAll, TestFixture::kAll, false, (1u << TestFixture::CREDIT_CNT_W) - 1, 0};
  // With credits for all: G consecutive requesters per cycle, wrapping.
  unsigned next = 0;
  for (unsigned c = 0; c < 2 * N; ++c) {
    const Grant g = this->step(all);
    std::uint64_t want = 0;
    for (unsigned k = 0; k < std::min(G, N); ++k) want |= std::uint64_t{1} << ((next + k) % N);
    EXPECT_EQ(g.gnt, want) << "cycle " << c;
    EXPECT_EQ(g.n, std::min(G, N));
    next = (next + std::min(G, N)) % N;
  }
  // Credits for the singles pending and the winner only: one grant.
  all.singles = 2;
  all.credits = 3;
  EXPECT_EQ(popcount(this->step(all).gnt), 1);
  // A busy VC (a multi-flit holder) takes one single-flit packet at most.
  all.credits = (1u << TestFixture::CREDIT_CNT_W) - 1;
  all.busy = true;
  EXPECT_EQ(popcount(this->step(all).gnt), 1);
}

TYPED_TEST(MultiTest, AMultiFlitWinnerTakesTheVcAlone) {
  constexpr unsigned N = TestFixture::N;
  // Requester 0 (multi-flit) wins; the single-flit ones after it wait.
  const Inputs in{TestFixture::kAll, TestFixture::kAll & ~std::uint64_t{1}, false,
                  (1u << TestFixture::CREDIT_CNT_W) - 1, 0};
  const Grant g = this->step(in);
  EXPECT_EQ(g.gnt, 1u);
  EXPECT_EQ(g.n, 0u);
  // Next cycle starts at requester 1.
  EXPECT_TRUE(bit(this->step(in).gnt, 1 % N));
}

TYPED_TEST(MultiTest, RandomAgainstModel) {
  constexpr unsigned N = TestFixture::N, CREDIT_CNT_W = TestFixture::CREDIT_CNT_W;
  Rng rng(0xB17 + N * 10 + TestFixture::G);
  for (unsigned c = 0; c < 20000; ++c) {
    const unsigned density = (c / 200) % 4 == 0 ? 5 : (c / 200) % 4 == 1 ? 30 : (c / 200) % 4 == 2 ? 60 : 95;
    Inputs in;
    for (unsigned i = 0; i < N; ++i) {
      in.req |= std::uint64_t{rng.chance(density)} << i;
      in.single |= std::uint64_t{rng.chance(80)} << i;
    }
    in.busy = rng.chance(20);
    in.credits = static_cast<unsigned>(rng.bits(CREDIT_CNT_W));
    in.singles = static_cast<unsigned>(rng.bits(CREDIT_CNT_W));
    this->step(in);
    if (::testing::Test::HasFailure()) return;
  }
}

TYPED_TEST(MultiTest, ResetRestoresPriority) {
  const Inputs all{TestFixture::kAll, 0, false, 0, 0};
  for (unsigned i = 0; i < TestFixture::N + 1; ++i) this->step(all);
  this->dut_.reset();
  this->model_.reset();
  EXPECT_EQ(this->step(all).gnt, 1u);
}

}  // namespace
