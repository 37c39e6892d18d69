// Block test for rtl/rr_demand.sv (waiting demand per output port, the UGAL
// queue's second term) against a C++ model: dem_o[o] = sum of va_len_i[r]
// over the input VCs r with va_req_i[r] and va_port_i[r] == o. Random
// requests (port codes P..2^PW-1 included, which count for no port), every
// VC requesting the same port with the longest packet (the width's bound),
// and no request at all.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include <verilated.h>

#include "Vrr_demand_p3v3.h"
#include "Vrr_demand_p7v4.h"
#include "vtb.hpp"

namespace cfg {

template <class M, unsigned P_, unsigned V_, unsigned LEN_W_, unsigned PW_, unsigned DW_>
struct DemandCfg {
  using Model = M;
  static constexpr unsigned P = P_, V = V_, LEN_W = LEN_W_, PW = PW_, DW = DW_, R = P_ * V_;
};

// DW = rr_pkg::demand_width(P, V, LEN_W) = $clog2(P*V*(2^LEN_W - 1) + 1).
struct P7V4 : DemandCfg<Vrr_demand_p7v4, 7, 4, 3, 3, 8> {};
struct P3V3 : DemandCfg<Vrr_demand_p3v3, 3, 3, 6, 2, 10> {};

}  // namespace cfg

namespace {

using rtltest::Bits;
using rtltest::Rng;

template <class Cfg>
class DemandTest : public ::testing::Test {
 protected:
  static constexpr unsigned P = Cfg::P, R = Cfg::R, PW = Cfg::PW, LEN_W = Cfg::LEN_W, DW = Cfg::DW;

  DemandTest() : ctx_(std::make_unique<VerilatedContext>()), dut_(std::make_unique<typename Cfg::Model>(ctx_.get())) {}
  ~DemandTest() override { dut_->final(); }

  struct Req {
    bool valid = false;
    unsigned port = 0, len = 0;
  };

  // Drives one request vector and compares every port's demand with the model.
  void check(const std::vector<Req>& reqs) {
    Bits req, port, len;
    std::vector<unsigned> want(P, 0);
    for (unsigned r = 0; r < R; ++r) {
      req.set(r, 1, reqs[r].valid);
      port.set(r * PW, PW, reqs[r].port);
      len.set(r * LEN_W, LEN_W, reqs[r].len);
      if (reqs[r].valid && reqs[r].port < P) want[reqs[r].port] += reqs[r].len;
    }
    rtltest::put_bits(dut_->va_req_i, req, R);
    rtltest::put_bits(dut_->va_port_i, port, R * PW);
    rtltest::put_bits(dut_->va_len_i, len, R * LEN_W);
    dut_->eval();
    const Bits got = rtltest::get_bits(dut_->dem_o, P * DW);
    for (unsigned o = 0; o < P; ++o) {
      ASSERT_LT(want[o], 1u << DW) << "the model's sum does not fit DW";
      ASSERT_EQ(got.get(o * DW, DW), want[o]) << "port " << o;
    }
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<typename Cfg::Model> dut_;
};

using DemandCfgs = ::testing::Types<cfg::P7V4, cfg::P3V3>;
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
  }
}

}  // namespace
