// Block test for rtl/rr_crossbar.sv: every output carries the word of the
// input its select names, for random words and every select combination
// (exhaustively for P = 3, randomly for P = 5 and 7, including unused select
// codes P..2^PW-1, which must give an all-zero word).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include <verilated.h>

#include "Vrr_crossbar_p3.h"
#include "Vrr_crossbar_p5.h"
#include "Vrr_crossbar_p7.h"
#include "vtb.hpp"

namespace cfg {

template <class M, unsigned P_, unsigned XW_, unsigned PW_>
struct XbCfg {
  using Model = M;
  static constexpr unsigned P = P_, XW = XW_, PW = PW_;
};

struct P3 : XbCfg<Vrr_crossbar_p3, 3, 7, 2> {};
struct P5 : XbCfg<Vrr_crossbar_p5, 5, 12, 3> {};
struct P7 : XbCfg<Vrr_crossbar_p7, 7, 9, 3> {};

}  // namespace cfg

namespace {

using rtltest::field;
using rtltest::Rng;
using rtltest::set_field;

template <class Cfg>
class CrossbarTest : public ::testing::Test {
 protected:
  static constexpr unsigned P = Cfg::P, XW = Cfg::XW, PW = Cfg::PW;


  // Drives one input vector and one select vector; checks every output.
  void check(std::uint64_t in, std::uint64_t sel) {
    rtltest::put(dut_->in_i, in);
    rtltest::put(dut_->sel_i, sel);
    dut_->eval();
    const std::uint64_t out = dut_->out_o;
    for (unsigned o = 0; o < P; ++o) {
      const std::uint64_t s = field(sel, o * PW, PW);
      const std::uint64_t want = s < P ? field(in, s * XW, XW) : 0;
      ASSERT_EQ(field(out, o * XW, XW), want)
          << "output " << o << " select " << s << " in_i 0x" << std::hex << in << " sel_i 0x" << sel;
    }
  }

  rtltest::CombDut<typename Cfg::Model> dut_;
};

using XbCfgs = ::testing::Types<cfg::P3, cfg::P5, cfg::P7>;
TYPED_TEST_SUITE(CrossbarTest, XbCfgs);

TYPED_TEST(CrossbarTest, EveryOutputCarriesItsSelectedInput) {
  constexpr unsigned P = TypeParam::P, XW = TypeParam::XW, PW = TypeParam::PW;
  Rng rng(7 + P);
  // Random words, then a fixed pattern of distinct words per input.
  for (int round = 0; round < 200; ++round) {
    std::uint64_t in = 0;
    for (unsigned q = 0; q < P; ++q) set_field(in, q * XW, XW, rng.bits(XW));
    std::uint64_t sel = 0;
    for (unsigned o = 0; o < P; ++o) set_field(sel, o * PW, PW, rng.range(0, (1u << PW) - 1));
    this->check(in, sel);
  }
  std::uint64_t in = 0;
  for (unsigned q = 0; q < P; ++q) set_field(in, q * XW, XW, (q + 1) * 0x25u & rtltest::mask(XW));
  if constexpr (P == 3) {
    for (std::uint64_t sel = 0; sel < (1u << (P * PW)); ++sel) this->check(in, sel);
  } else {
    for (int round = 0; round < 2000; ++round) {
      std::uint64_t sel = 0;
      for (unsigned o = 0; o < P; ++o) set_field(sel, o * PW, PW, rng.range(0, (1u << PW) - 1));
      this->check(in, sel);
    }
  }
}

}  // namespace
