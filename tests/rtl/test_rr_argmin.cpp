// Block test for rtl/rr_argmin.sv: the index and value of the minimum against
// the bit-exact reference rlroute::ref::q_argmin (the lowest index on ties),
// and every pairwise order bit, for random values with many ties, on the 11
// columns of a dfly(4,8,4,33) router's Q-table row and on 3 values of 4 bits.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <verilated.h>

#include "Vrr_argmin_n11.h"
#include "Vrr_argmin_n3.h"
#include "rlroute/ref/q_decision.hpp"
#include "vtb.hpp"

namespace cfg {

template <class M, unsigned N_, unsigned W_>
struct ArgminCfg {
  using Model = M;
  static constexpr unsigned N = N_, W = W_;
};

// As tests/rtl/CMakeLists.txt builds them.
struct N11 : ArgminCfg<Vrr_argmin_n11, 11, 16> {};
struct N3 : ArgminCfg<Vrr_argmin_n3, 3, 4> {};

}  // namespace cfg

namespace {

using rtltest::Rng;

template <class Cfg>
class ArgminTest : public ::testing::Test {
 protected:
  static constexpr unsigned N = Cfg::N, W = Cfg::W;

  void check(const std::vector<uint32_t>& values) {
    rtltest::Bits bits;
    for (unsigned c = 0; c < N; ++c) bits.set(c * W, W, values[c]);
    rtltest::put_bits(dut_->value_i, bits, N * W);
    dut_->eval();
    std::string ctx = "values";
    for (uint32_t v : values) ctx += " " + std::to_string(v);
    const unsigned want = rlroute::ref::q_argmin(values);
    EXPECT_EQ(static_cast<unsigned>(dut_->idx_o), want) << ctx;
    EXPECT_EQ(static_cast<uint32_t>(dut_->min_o), values[want]) << ctx;
    const rtltest::Bits below = rtltest::get_bits(dut_->below_o, N * N);
    for (unsigned c = 0; c < N; ++c) {
      for (unsigned d = 0; d < N; ++d) {
        EXPECT_EQ(below.get(c * N + d, 1), values[c] < values[d] ? 1u : 0u) << ctx << " below[" << c << "][" << d << "]";
      }
    }
  }

  rtltest::CombDut<typename Cfg::Model> dut_;
};

using ArgminCfgs = ::testing::Types<cfg::N11, cfg::N3>;
TYPED_TEST_SUITE(ArgminTest, ArgminCfgs);

TYPED_TEST(ArgminTest, AgreesWithTheReferenceOnRandomValues) {
  constexpr unsigned N = TestFixture::N, W = TestFixture::W;
  Rng rng(11);
  std::vector<uint32_t> values(N);
  for (int i = 0; i < 50000 && !this->HasFailure(); ++i) {
    const uint64_t span = (i % 2 == 0) ? 3 : (1ull << W);  // narrow: ties everywhere
    for (uint32_t& v : values) v = static_cast<uint32_t>(rng.range(0, span - 1));
    this->check(values);
  }
}

// Ties go to the lowest index, wherever the tie is; a single lowest value wins
// at every index, the first and the last included.
TYPED_TEST(ArgminTest, TiesGoToTheLowestIndexAndEveryIndexCanWin) {
  constexpr unsigned N = TestFixture::N;
  for (unsigned at = 0; at < N; ++at) {
    std::vector<uint32_t> values(N, 3);
    values[at] = 1;
    this->check(values);
    EXPECT_EQ(static_cast<unsigned>(this->dut_->idx_o), at);
    for (unsigned later = at + 1; later < N; ++later) {
      std::vector<uint32_t> tie(N, 3);
      tie[at] = tie[later] = 0;
      this->check(tie);
      EXPECT_EQ(static_cast<unsigned>(this->dut_->idx_o), at);
    }
  }
}

}  // namespace
