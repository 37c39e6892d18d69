// Block test for rtl/rr_star_decide.sv (star-channel's choice at the head of
// the VC) against the rule it implements (docs/routing_star.md): take the
// alternative port exactly when its adaptive VC (V-1) is free, has credits
// for the whole packet, and the port's downstream occupancy is below the
// DOR port's. Directed cases move each condition across its boundary alone
// (busy, credits = len - 1 / len, occupancy equal / one less); random
// states check the rule everywhere else, ports of every code included.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include <verilated.h>

#include "Vrr_star_decide_p5v3.h"
#include "Vrr_star_decide_p7v4.h"
#include "vtb.hpp"

namespace cfg {

template <class M, unsigned P_, unsigned V_, unsigned CREDIT_CNT_W_, unsigned OCC_W_, unsigned LEN_W_, unsigned PW_>
struct StarCfg {
  using Model = M;
  static constexpr unsigned P = P_, V = V_, CREDIT_CNT_W = CREDIT_CNT_W_, OCC_W = OCC_W_, LEN_W = LEN_W_, PW = PW_;
};

// The 4x4 torus star router (5 ports, 3 VCs x 8 flits, 3-bit length field)
// and a 2-D torus router with 2 nodes per router, 4 VCs x 40 flits.
struct P5V3 : StarCfg<Vrr_star_decide_p5v3, 5, 3, 4, 5, 3, 3> {};
struct P7V4 : StarCfg<Vrr_star_decide_p7v4, 7, 4, 6, 8, 4, 3> {};

}  // namespace cfg

namespace {

using rtltest::Bits;
using rtltest::Rng;

template <class Cfg>
class StarDecideTest : public ::testing::Test {
 protected:
  static constexpr unsigned P = Cfg::P, V = Cfg::V, CREDIT_CNT_W = Cfg::CREDIT_CNT_W, OCC_W = Cfg::OCC_W, PW = Cfg::PW;

  StarDecideTest()
      : ctx_(std::make_unique<VerilatedContext>()), dut_(std::make_unique<typename Cfg::Model>(ctx_.get())) {}
  ~StarDecideTest() override { dut_->final(); }

  struct State {
    std::vector<bool> busy = std::vector<bool>(P * V, false);
    std::vector<unsigned> credits = std::vector<unsigned>(P * V, 0);
    std::vector<unsigned> occ = std::vector<unsigned>(P, 0);
  };

  static bool rule(const State& s, unsigned port, unsigned alt, unsigned len) {
    if (alt >= P) return false;  // no such port: nothing free
    const unsigned vc = alt * V + V - 1;
    const unsigned occ_dor = port < P ? s.occ[port] : 0;
    return !s.busy[vc] && s.credits[vc] >= len && s.occ[alt] < occ_dor;
  }

  bool dut(const State& s, unsigned port, unsigned alt, unsigned len) {
    Bits busy, credits, occ;
    for (unsigned i = 0; i < P * V; ++i) {
      busy.set(i, 1, s.busy[i]);
      credits.set(i * CREDIT_CNT_W, CREDIT_CNT_W, s.credits[i]);
    }
    for (unsigned q = 0; q < P; ++q) occ.set(q * OCC_W, OCC_W, s.occ[q]);
    rtltest::put(dut_->port_i, port);
    rtltest::put(dut_->alt_port_i, alt);
    rtltest::put(dut_->len_i, len);
    rtltest::put_bits(dut_->vc_busy_i, busy, P * V);
    rtltest::put_bits(dut_->vc_credits_i, credits, P * V * CREDIT_CNT_W);
    rtltest::put_bits(dut_->occ_i, occ, P * OCC_W);
    dut_->eval();
    return dut_->alt_o != 0;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<typename Cfg::Model> dut_;
};

using StarCfgs = ::testing::Types<cfg::P5V3, cfg::P7V4>;
TYPED_TEST_SUITE(StarDecideTest, StarCfgs);

TYPED_TEST(StarDecideTest, EachConditionAloneTurnsTheChoice) {
  constexpr unsigned P = TypeParam::P, V = TypeParam::V, CREDIT_CNT_W = TypeParam::CREDIT_CNT_W;
  for (unsigned port = 1; port < P; ++port) {
    for (unsigned alt = 1; alt < P; ++alt) {
      if (alt == port) continue;
      for (unsigned len = 1; len <= 4; ++len) {
        typename TestFixture::State s;
        const unsigned vc = alt * V + V - 1;
        s.credits[vc] = len;
        s.occ[port] = 5;
        s.occ[alt] = 4;
        ASSERT_TRUE(this->dut(s, port, alt, len)) << "free, credits for the packet, less occupied";
        s.busy[vc] = true;
        EXPECT_FALSE(this->dut(s, port, alt, len)) << "the adaptive VC is taken";
        s.busy[vc] = false;
        s.busy[vc - 1] = true;  // another VC of the port does not matter
        EXPECT_TRUE(this->dut(s, port, alt, len));
        s.busy[vc - 1] = false;
        s.credits[vc] = len - 1;
        EXPECT_FALSE(this->dut(s, port, alt, len)) << "no room for the whole packet (virtual cut-through)";
        s.credits[vc] = (1u << CREDIT_CNT_W) - 1;
        EXPECT_TRUE(this->dut(s, port, alt, len));
        s.occ[alt] = 5;
        EXPECT_FALSE(this->dut(s, port, alt, len)) << "a tie goes to the DOR hop";
        s.occ[alt] = 6;
        EXPECT_FALSE(this->dut(s, port, alt, len));
        s.occ[alt] = 0;
        EXPECT_TRUE(this->dut(s, port, alt, len));
      }
    }
  }
}

TYPED_TEST(StarDecideTest, RandomStatesFollowTheRule) {
  constexpr unsigned P = TypeParam::P, V = TypeParam::V, CREDIT_CNT_W = TypeParam::CREDIT_CNT_W,
                     OCC_W = TypeParam::OCC_W, PW = TypeParam::PW, LEN_W = TypeParam::LEN_W;
  Rng rng(0x57A + P);
  unsigned alts = 0;
  for (int i = 0; i < 20000; ++i) {
    typename TestFixture::State s;
    for (unsigned k = 0; k < P * V; ++k) {
      s.busy[k] = rng.chance(40);
      s.credits[k] = static_cast<unsigned>(rng.bits(CREDIT_CNT_W));
    }
    for (unsigned q = 0; q < P; ++q) s.occ[q] = static_cast<unsigned>(rng.bits(OCC_W));
    const unsigned port = static_cast<unsigned>(rng.bits(PW)), alt = static_cast<unsigned>(rng.bits(PW));
    const unsigned len = static_cast<unsigned>(rng.range(1, (1u << LEN_W) - 1));
    const bool want = TestFixture::rule(s, port, alt, len);
    alts += want;
    ASSERT_EQ(this->dut(s, port, alt, len), want) << "case " << i << ": port " << port << " alt " << alt << " len " << len;
  }
  EXPECT_GT(alts, 1000u) << "the random states reach both answers";
  EXPECT_LT(alts, 19000u);
}

}  // namespace
