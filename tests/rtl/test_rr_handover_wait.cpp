// Block test for rtl/rr_handover_wait.sv against a C++ model: input VC r
// waits (wait_o[r]) when the output VC it holds, vc own_vc_i of port
// own_port_i, is handed over (handover_i) and REQ_MAP lets r hold it; an
// own port or VC that does not exist selects nothing. Random held VCs and
// hand-overs (with and without a map), a single hand-over seen by exactly
// its holders, and no hand-over at all.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include <verilated.h>

#include "Vrr_handover_wait_p3v3.h"
#include "Vrr_handover_wait_p5v2m.h"
#include "vtb.hpp"

namespace cfg {

template <class M, unsigned P_, unsigned V_, unsigned PW_, unsigned VCW_>
struct WaitCfg {
  using Model = M;
  static constexpr unsigned P = P_, V = V_, PW = PW_, VCW = VCW_, R = P_ * V_;
  static constexpr bool may(unsigned /*o*/, unsigned /*r*/) { return true; }
};

struct P3V3 : WaitCfg<Vrr_handover_wait_p3v3, 3, 3, 2, 2> {};
// REQ_MAP as tests/rtl/CMakeLists.txt passes it: input VC (p, w) may hold
// output VC (q, x) if q != p and x >= w.
struct P5V2M : WaitCfg<Vrr_handover_wait_p5v2m, 5, 2, 3, 1> {
  static constexpr bool may(unsigned o, unsigned r) { return o / V != r / V && o % V >= r % V; }
};

}  // namespace cfg

namespace {

using rtltest::Bits;
using rtltest::Rng;

template <class Cfg>
class HandoverWaitTest : public ::testing::Test {
 protected:
  static constexpr unsigned P = Cfg::P, V = Cfg::V, R = Cfg::R, PW = Cfg::PW, VCW = Cfg::VCW;

  HandoverWaitTest()
      : ctx_(std::make_unique<VerilatedContext>()), dut_(std::make_unique<typename Cfg::Model>(ctx_.get())) {}
  ~HandoverWaitTest() override { dut_->final(); }

  // Drives the held VCs and hand-overs; returns the RTL's wait_o and checks it against the model.
  std::uint64_t check(const std::vector<unsigned>& own_port, const std::vector<unsigned>& own_vc,
                      std::uint64_t handover) {
    Bits port, vc;
    std::uint64_t want = 0;
    for (unsigned r = 0; r < R; ++r) {
      port.set(r * PW, PW, own_port[r]);
      vc.set(r * VCW, VCW, own_vc[r]);
      const unsigned o = own_port[r] * V + own_vc[r];
      if (own_port[r] < P && own_vc[r] < V && Cfg::may(o, r) && ((handover >> o) & 1u)) want |= std::uint64_t{1} << r;
    }
    rtltest::put_bits(dut_->own_port_i, port, R * PW);
    rtltest::put_bits(dut_->own_vc_i, vc, R * VCW);
    rtltest::put(dut_->handover_i, handover);
    dut_->eval();
    const std::uint64_t got = dut_->wait_o;
    EXPECT_EQ(got, want);
    return got;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<typename Cfg::Model> dut_;
};

using WaitCfgs = ::testing::Types<cfg::P3V3, cfg::P5V2M>;
TYPED_TEST_SUITE(HandoverWaitTest, WaitCfgs);

TYPED_TEST(HandoverWaitTest, RandomHeldVcsAndHandOvers) {
  constexpr unsigned R = TypeParam::R, PW = TypeParam::PW, VCW = TypeParam::VCW;
  Rng rng(0x4A17 + R);
  unsigned waits = 0;
  for (unsigned c = 0; c < 4000; ++c) {
    std::vector<unsigned> port(R), vc(R);
    for (unsigned r = 0; r < R; ++r) {
      port[r] = static_cast<unsigned>(rng.bits(PW));  // codes past the last port too
      vc[r] = static_cast<unsigned>(rng.bits(VCW));
    }
    std::uint64_t handover = 0;
    for (unsigned o = 0; o < R; ++o) handover |= rng.chance(c % 4 == 0 ? 0 : 25) ? std::uint64_t{1} << o : 0;
    waits += rtltest::popcount(this->check(port, vc, handover));
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(waits, 1000u) << "the random inputs rarely made an input VC wait";
}

TYPED_TEST(HandoverWaitTest, OneHandOverIsSeenByItsHoldersOnly) {
  constexpr unsigned P = TypeParam::P, V = TypeParam::V, R = TypeParam::R;
  for (unsigned o = 0; o < R; ++o) {
    // Every input VC holds output VC o; the hand-over of o alone.
    const std::vector<unsigned> port(R, o / V), vc(R, o % V);
    std::uint64_t holders = 0;
    for (unsigned r = 0; r < R; ++r) holders |= TypeParam::may(o, r) ? std::uint64_t{1} << r : 0;
    EXPECT_EQ(this->check(port, vc, std::uint64_t{1} << o), holders) << "output VC " << o;
    // The hand-over of every other output VC: nobody waits.
    EXPECT_EQ(this->check(port, vc, rtltest::mask(R) & ~(std::uint64_t{1} << o)), 0u) << "output VC " << o;
  }
  static_assert(P * V == R);
}

TYPED_TEST(HandoverWaitTest, NoHandOverNoWait) {
  constexpr unsigned R = TypeParam::R;
  std::vector<unsigned> port(R), vc(R);
  for (unsigned r = 0; r < R; ++r) {
    port[r] = r % TypeParam::P;
    vc[r] = r % TypeParam::V;
  }
  EXPECT_EQ(this->check(port, vc, 0), 0u);
}

}  // namespace
