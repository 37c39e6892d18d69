// Block test for rtl/rr_demand.sv (waiting demand per output port, the UGAL
// queue's second term) against a C++ model: dem_o[o] = sum of wait_len_i[r]
// over the input VCs r with wait_req_i[r] and wait_port_i[r] == o; with
// REGISTERED, the sums of the cycle before (zero after reset), and a change of
// the requests does not reach dem_o before the clock edge. Random requests
// (port codes P..2^PW-1 included, which count for no port), every VC
// requesting the same port with the longest packet (the width's bound), and
// no request at all.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <verilated.h>

#include "Vrr_demand_p3v3.h"
#include "Vrr_demand_p3v3_reg.h"
#include "Vrr_demand_p7v4.h"
#include "Vrr_demand_p7v4_reg.h"
#include "vtb.hpp"

namespace cfg {

template <class M, unsigned P_, unsigned V_, unsigned LEN_W_, unsigned PW_, unsigned DEMAND_W_, bool REGISTERED_>
struct DemandCfg {
  using Model = M;
  static constexpr unsigned P = P_, V = V_, LEN_W = LEN_W_, PW = PW_, DEMAND_W = DEMAND_W_, R = P_ * V_;
  static constexpr bool REGISTERED = REGISTERED_;
};

// DEMAND_W = rr_pkg::demand_width(P, V, LEN_W) = $clog2(P*V*(2^LEN_W - 1) + 1).
struct P7V4 : DemandCfg<Vrr_demand_p7v4, 7, 4, 3, 3, 8, false> {};
struct P3V3 : DemandCfg<Vrr_demand_p3v3, 3, 3, 6, 2, 10, false> {};
struct P7V4Reg : DemandCfg<Vrr_demand_p7v4_reg, 7, 4, 3, 3, 8, true> {};
struct P3V3Reg : DemandCfg<Vrr_demand_p3v3_reg, 3, 3, 6, 2, 10, true> {};

}  // namespace cfg

namespace {

using rtltest::Bits;
using rtltest::Rng;

template <class Cfg>
class DemandTest : public ::testing::Test {
 protected:
  static constexpr unsigned P = Cfg::P, R = Cfg::R, PW = Cfg::PW, LEN_W = Cfg::LEN_W, DEMAND_W = Cfg::DEMAND_W;

  DemandTest() : dut_(0xDE3A) {
    dut_.reset();
    if (Cfg::REGISTERED) expect_demand(std::vector<unsigned>(P, 0), "after reset");
  }

  struct Req {
    bool valid = false;
    unsigned port = 0, len = 0;
  };

  void expect_demand(const std::vector<unsigned>& want, const char* when) {
    const Bits got = rtltest::get_bits(dut_->dem_o, P * DEMAND_W);
    for (unsigned o = 0; o < P; ++o) {
      ASSERT_LT(want[o], 1u << DEMAND_W) << "the model's sum does not fit DEMAND_W";
      ASSERT_EQ(got.get(o * DEMAND_W, DEMAND_W), want[o]) << "port " << o << ", " << when;
    }
  }

  // Drives one request vector and compares every port's demand with the
  // model: at once, or (REGISTERED) the last vector's until the clock edge
  // and this one's after it.
  void check(const std::vector<Req>& reqs) {
    Bits req, port, len;
    std::vector<unsigned> want(P, 0);
    for (unsigned r = 0; r < R; ++r) {
      req.set(r, 1, reqs[r].valid);
      port.set(r * PW, PW, reqs[r].port);
      len.set(r * LEN_W, LEN_W, reqs[r].len);
      if (reqs[r].valid && reqs[r].port < P) want[reqs[r].port] += reqs[r].len;
    }
    rtltest::put_bits(dut_->wait_req_i, req, R);
    rtltest::put_bits(dut_->wait_port_i, port, R * PW);
    rtltest::put_bits(dut_->wait_len_i, len, R * LEN_W);
    dut_.eval();
    if (Cfg::REGISTERED) {
      expect_demand(last_, "before the clock edge");
      if (::testing::Test::HasFatalFailure()) return;
      dut_.tick();
      last_ = want;
    }
    expect_demand(want, Cfg::REGISTERED ? "after the clock edge" : "combinational");
  }

  rtltest::Dut<typename Cfg::Model> dut_;
  std::vector<unsigned> last_ = std::vector<unsigned>(P, 0);  // REGISTERED: the sums dem_o holds
};

using DemandCfgs = ::testing::Types<cfg::P7V4, cfg::P3V3, cfg::P7V4Reg, cfg::P3V3Reg>;
TYPED_TEST_SUITE(DemandTest, DemandCfgs);

TYPED_TEST(DemandTest, SumsTheWaitingPacketsPerPort) {
  constexpr unsigned P = TypeParam::P, R = TypeParam::R, PW = TypeParam::PW, LEN_W = TypeParam::LEN_W;
  using Req = typename TestFixture::Req;
  Rng rng(0xDE3A + P);
  std::vector<Req> reqs(R);
  this->check(reqs);  // nothing waits
  for (int round = 0; round < 3000; ++round) {
    const unsigned pct = static_cast<unsigned>(rng.range(0, 100));
    const unsigned hot = static_cast<unsigned>(rng.range(0, P - 1));
    for (Req& q : reqs) {
      q.valid = rng.chance(pct);
      q.port = rng.chance(40) ? hot : static_cast<unsigned>(rng.bits(PW));
      q.len = static_cast<unsigned>(rng.bits(LEN_W));
    }
    this->check(reqs);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // Every VC waits for one port with the longest packet: the largest sum.
  for (unsigned o = 0; o < P; ++o) {
    for (Req& q : reqs) q = Req{true, o, (1u << LEN_W) - 1};
    this->check(reqs);
    if (::testing::Test::HasFatalFailure()) return;
  }
  this->check(std::vector<Req>(R));  // and none again: the register empties
}

}  // namespace
