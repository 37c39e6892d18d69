// Block test for rtl/rr_link.sv (link pipeline of the network top: LATENCY-1
// register stages; the sender's output register is the first cycle) against a
// delay-line model:
//  - LATENCY = 1: data_o is data_i (a wire, no register);
//  - LATENCY = L > 1: data_o in cycle t is data_i of cycle t-(L-1), every bit
//    of the word (widths up to 69 bits);
//  - reset (asynchronous, active low) clears every stage: after reset the
//    output is all zero until the first word driven after reset arrives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "Vrr_link_l1_w68.h"
#include "Vrr_link_l1_w68___024root.h"
#include "Vrr_link_l2_w3.h"
#include "Vrr_link_l2_w3___024root.h"
#include "Vrr_link_l2_w69.h"
#include "Vrr_link_l2_w69___024root.h"
#include "Vrr_link_l5_w3.h"
#include "Vrr_link_l5_w3___024root.h"
#include "Vrr_link_l5_w69.h"
#include "Vrr_link_l5_w69___024root.h"
#include "vtb.hpp"

// Parameter sets (one Verilated model each, -G values in CMakeLists.txt); the
// struct names appear in the CTest test names.
namespace cfg {

struct L1W68 {
  using Model = Vrr_link_l1_w68;
  using Root = Vrr_link_l1_w68___024root;
};
struct L2W3 {
  using Model = Vrr_link_l2_w3;
  using Root = Vrr_link_l2_w3___024root;
};
struct L2W69 {
  using Model = Vrr_link_l2_w69;
  using Root = Vrr_link_l2_w69___024root;
};
struct L5W3 {
  using Model = Vrr_link_l5_w3;
  using Root = Vrr_link_l5_w3___024root;
};
struct L5W69 {
  using Model = Vrr_link_l5_w69;
  using Root = Vrr_link_l5_w69___024root;
};

}  // namespace cfg

namespace {

using rtltest::Bits;
using rtltest::Dut;
using rtltest::Rng;

template <class Cfg>
class LinkTest : public ::testing::Test {
 protected:
  using Root = typename Cfg::Root;
  static constexpr unsigned WIDTH = Root::rr_link__DOT__WIDTH;
  static constexpr unsigned LATENCY = Root::rr_link__DOT__LATENCY;
  static constexpr unsigned kStages = LATENCY > 1 ? LATENCY - 1 : 0;

  LinkTest() { reset(); }

  void reset() {
    dut_.reset();
    stages_.assign(kStages, Bits{});  // reset clears every stage
  }

  Bits random_word() {
    Bits b;
    for (unsigned lsb = 0; lsb < WIDTH; lsb += 64) b.set(lsb, std::min(64u, WIDTH - lsb), rng_.bits(64));
    return b;
  }

  Bits output() { return rtltest::get_bits(dut_->data_o, WIDTH); }

  // Drives `in` for one cycle; returns what data_o showed in that cycle
  // (after the inputs settled, before the clock edge).
  Bits step(const Bits& in) {
    rtltest::put_bits(dut_->data_i, in, WIDTH);
    dut_.eval();
    const Bits out = output();
    const Bits want = kStages == 0 ? in : stages_.front();
    EXPECT_EQ(out, want) << "cycle " << dut_.cycle() << ": data_o " << out.hex(WIDTH) << ", expected "
                         << want.hex(WIDTH);
    dut_.tick();
    if (kStages > 0) {
      stages_.pop_front();
      stages_.push_back(in);
    }
    return out;
  }

  Dut<typename Cfg::Model> dut_;
  Rng rng_{0x11Cu + WIDTH * 8 + LATENCY};
  std::deque<Bits> stages_;  // front = the word on data_o
};

using LinkCfgs = ::testing::Types<cfg::L1W68, cfg::L2W3, cfg::L2W69, cfg::L5W3, cfg::L5W69>;
TYPED_TEST_SUITE(LinkTest, LinkCfgs);

// A single word among zeros arrives exactly LATENCY-1 cycles later, once.
TYPED_TEST(LinkTest, LatencyOfOnePulse) {
  constexpr unsigned S = TestFixture::kStages, WIDTH = TestFixture::WIDTH;
  Bits ones;
  for (unsigned i = 0; i < WIDTH; ++i) ones.set(i, 1, 1);
  for (const Bits& word : {ones, this->random_word(), Bits(1)}) {
    for (unsigned i = 0; i < S + 2; ++i) this->step(Bits{});
    std::vector<unsigned> seen;
    for (unsigned t = 0; t < S + 4; ++t) {
      const Bits out = this->step(t == 0 ? word : Bits{});
      if (out == word) seen.push_back(t);
    }
    ASSERT_EQ(seen.size(), 1u) << "word " << word.hex(WIDTH);
    EXPECT_EQ(seen.front(), S) << "latency " << TestFixture::LATENCY;
  }
}

// LATENCY 1 is a wire: data_o follows data_i without a clock edge; a
// pipelined link holds its output while the input changes.
TYPED_TEST(LinkTest, WireOnlyWhenLatencyOne) {
  constexpr unsigned WIDTH = TestFixture::WIDTH;
  if (TestFixture::LATENCY != 1) {
    const Bits before = this->output();
    for (int i = 0; i < 5; ++i) {
      rtltest::put_bits(this->dut_->data_i, this->random_word(), WIDTH);
      this->dut_.eval();
      EXPECT_EQ(this->output(), before);
    }
    return;
  }
  for (int i = 0; i < 50; ++i) {
    const Bits w = this->random_word();
    rtltest::put_bits(this->dut_->data_i, w, WIDTH);
    this->dut_.eval();
    EXPECT_EQ(this->output(), w);
  }
}

// A random word every cycle: the delay line, every bit.
TYPED_TEST(LinkTest, RandomStreamAgainstDelayLine) {
  unsigned nonzero = 0;
  for (unsigned c = 0; c < 5000; ++c) {
    const Bits out = this->step(this->rng_.chance(10) ? Bits{} : this->random_word());
    nonzero += !(out == Bits{});
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(nonzero, 3000u);
}

// Registers start random (--x-initial unique); reset clears every stage at
// once (asynchronous) and the zeros drain out ahead of the new words.
TYPED_TEST(LinkTest, ResetClearsEveryStage) {
  constexpr unsigned S = TestFixture::kStages, WIDTH = TestFixture::WIDTH;
  // From random initial values, several seeds.
  for (std::uint32_t seed = 1; seed <= 8 && S > 0; ++seed) {
    Dut<typename TypeParam::Model> dut(seed * 2654435761u);
    rtltest::put_bits(dut->data_i, Bits{}, WIDTH);
    dut->rst_ni = 0;
    dut.eval();
    EXPECT_EQ(rtltest::get_bits(dut->data_o, WIDTH), Bits{}) << "seed " << seed;
    dut.reset();
    EXPECT_EQ(rtltest::get_bits(dut->data_o, WIDTH), Bits{}) << "seed " << seed;
  }
  // In the middle of a stream: every stage full of data, then reset.
  for (int round = 0; round < 3; ++round) {
    for (unsigned i = 0; i < S + 3; ++i) this->step(this->random_word());
    this->dut_->rst_ni = 0;
    this->dut_.eval();
    if (S > 0) {
      EXPECT_EQ(this->output(), Bits{}) << "asynchronous reset";
    }
    this->reset();
    // The next S cycles show the cleared stages, then the new words.
    for (unsigned i = 0; i < 2 * S + 3; ++i) {
      const Bits out = this->step(this->random_word());
      if (i < S) {
        EXPECT_EQ(out, Bits{}) << "stage " << i << " not cleared";
      }
    }
  }
}

}  // namespace
