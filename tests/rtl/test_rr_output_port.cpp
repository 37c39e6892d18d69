// Block test for rtl/rr_output_port.sv (per downstream VC a credit counter and
// an allocated flag; the output register that drives the link) against a
// cycle-level C++ model:
//  - credits start at B per VC, -1 per flit sent on the VC, +1 per credit
//    received for it (both in one cycle: unchanged);
//  - busy from the cycle after alloc_i until the cycle after the tail leaves;
//    allocated again while busy (to the holder's next packet, before or as
//    its tail leaves), the VC stays busy across that tail;
//  - a flit sent in cycle t is on flit_o = {data, vc, tail, head, valid} in
//    cycle t+1 (one register); an idle cycle drives an all-zero link word;
//  - on a hop-counting (network) port a head flit's hop field is incremented
//    (modulo 2^HOPS_W, no other bit changes); body flits and NI ports unchanged;
//  - with STAMP_W > 0 a head flit's stamp field is now_i's low STAMP_W bits
//    of the cycle it is sent; body flits keep theirs;
//  - reset (asynchronous, active low) restores B credits, clears busy and the
//    link word.
// The environment plays the router (VC allocation with virtual cut-through:
// an idle VC with credits for the whole packet; one flit per cycle) and the
// downstream router (credits back for flits it received).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "Vrr_output_port_v1b2.h"
#include "Vrr_output_port_v1b2___024root.h"
#include "Vrr_output_port_v2b8.h"
#include "Vrr_output_port_v2b8___024root.h"
#include "Vrr_output_port_v2b8_stamp.h"
#include "Vrr_output_port_v2b8_stamp___024root.h"
#include "Vrr_output_port_v3b5_ni.h"
#include "Vrr_output_port_v3b5_ni___024root.h"
#include "Vrr_output_port_v4b16.h"
#include "Vrr_output_port_v4b16___024root.h"
#include "link_bits.hpp"
#include "rlroute/gen/link_layout.hpp"
#include "rlroute/gen/link_words.hpp"
#include "vtb.hpp"

// Parameter sets (one Verilated model each, -G values in CMakeLists.txt); the
// struct names appear in the CTest test names.
namespace cfg {

struct V2B8 {
  using Model = Vrr_output_port_v2b8;
  using Root = Vrr_output_port_v2b8___024root;
};
struct V2B8Stamp {
  using Model = Vrr_output_port_v2b8_stamp;
  using Root = Vrr_output_port_v2b8_stamp___024root;
};
struct V3B5Ni {
  using Model = Vrr_output_port_v3b5_ni;
  using Root = Vrr_output_port_v3b5_ni___024root;
};
struct V1B2 {
  using Model = Vrr_output_port_v1b2;
  using Root = Vrr_output_port_v1b2___024root;
};
struct V4B16 {
  using Model = Vrr_output_port_v4b16;
  using Root = Vrr_output_port_v4b16___024root;
};

}  // namespace cfg

namespace {

using rtltest::Bits;
using rtltest::Dut;
using rtltest::field;
using rtltest::mask;
using rtltest::Rng;

struct Inputs {
  bool send = false, head = false, tail = false;
  unsigned vc = 0;
  std::uint64_t data = 0;
  std::uint32_t alloc = 0;
  bool credit = false;
  unsigned credit_vc = 0;
};

template <class Cfg>
class OutputPortTest : public ::testing::Test {
 protected:
  using Root = typename Cfg::Root;
  static constexpr unsigned V = Root::rr_output_port__DOT__V;
  static constexpr unsigned B = Root::rr_output_port__DOT__B;
  static constexpr unsigned W = Root::rr_output_port__DOT__W;
  static constexpr bool COUNT_HOP = Root::rr_output_port__DOT__COUNT_HOP != 0;
  static constexpr unsigned HOPS_LSB = Root::rr_output_port__DOT__HOPS_LSB;
  static constexpr unsigned HOPS_W = Root::rr_output_port__DOT__HOPS_W;
  static constexpr unsigned STAMP_LSB = Root::rr_output_port__DOT__STAMP_LSB;
  static constexpr unsigned STAMP_W = Root::rr_output_port__DOT__STAMP_W;
  static constexpr unsigned VCW = V > 1 ? std::bit_width(V - 1) : 1;
  static constexpr unsigned CREDIT_CNT_W = std::bit_width(B);  // counts 0..B
  // The link and credit words (LinkLayout: the harness's, rr_pkg's).
  static constexpr rlroute::LinkLayout kLink{.vc_bits = VCW, .flit_bits = W};
  static constexpr unsigned LW = kLink.link_bits();
  static constexpr unsigned CRW = kLink.credit_bits();
  static constexpr unsigned kMaxLen = std::min(B, 6u);

  OutputPortTest() { reset(); }

  void reset() {
    dut_.reset();
    credits_.assign(V, B);
    busy_.assign(V, false);
    handover_.assign(V, false);
    flit_q_ = Bits{};
    remaining_.assign(V, 0);
    sent_of_packet_.assign(V, 0);
    outstanding_.assign(V, 0);
  }

  // The link word the port should drive one cycle after sending `in`.
  Bits link_word(const Inputs& in) const {
    if (!in.send) return Bits{};
    std::uint64_t data = in.data;
    if (COUNT_HOP && in.head) {
      rtltest::set_field(data, HOPS_LSB, HOPS_W, field(data, HOPS_LSB, HOPS_W) + 1);
    }
    if (STAMP_W > 0 && in.head) rtltest::set_field(data, STAMP_LSB, STAMP_W, now_);
    const rlroute::LinkFlit f{.valid = true, .head = in.head, .tail = in.tail, .vc = static_cast<int>(in.vc),
                              .data = rlroute::FlitData{{data, 0, 0, 0}}};
    return rtltest::flit_word(kLink, f);
  }
  // The flit in a link word.
  static rlroute::LinkFlit flit_of(const Bits& word) { return rtltest::get_flit(word, 0, kLink); }

  // returning: the VC whose credit arrives this cycle (or V): credits_o
  // counts it at once.
  void check_outputs(const std::string& at, unsigned returning = V) {
    const Bits flit = rtltest::get_bits(dut_->flit_o, LW);
    ASSERT_EQ(flit, flit_q_) << at << ": flit_o " << flit.hex(LW) << ", expected " << flit_q_.hex(LW);
    std::uint32_t busy = 0;
    for (unsigned w = 0; w < V; ++w) busy |= static_cast<std::uint32_t>(busy_[w]) << w;
    ASSERT_EQ(dut_->busy_o, busy) << at;
    std::uint32_t handover = 0;
    for (unsigned w = 0; w < V; ++w) handover |= static_cast<std::uint32_t>(handover_[w]) << w;
    ASSERT_EQ(dut_->handover_o, handover) << at << ": handover_o (a successor waits for the tail)";
    for (unsigned w = 0; w < V; ++w) {
      ASSERT_EQ(field(dut_->credits_o, w * CREDIT_CNT_W, CREDIT_CNT_W), credits_[w] + (w == returning ? 1u : 0u)) << at << ", VC " << w;
    }
  }

  // One cycle: drive, compare, clock, update the model.
  void step(const Inputs& in) {
    const std::string at = "cycle " + std::to_string(dut_.cycle());
    // The environment keeps the protocol.
    if (in.send) {
      ASSERT_LT(in.vc, V);
      ASSERT_GT(credits_[in.vc], 0u) << "test bug: flit without a credit";
    }
    if (in.credit) {
      ASSERT_LT(in.credit_vc, V);
      ASSERT_LT(credits_[in.credit_vc], B) << "test bug: credit beyond the buffer";
    }
    dut_->send_i = in.send;
    rtltest::put(dut_->data_i, in.data);
    dut_->head_i = in.head;
    dut_->tail_i = in.tail;
    rtltest::put(dut_->vc_i, in.vc);
    rtltest::put(dut_->alloc_i, in.alloc);
    Bits credit;
    rtltest::put_credit_as_is(credit, 0, kLink,
                              {.valid = in.credit, .vc = static_cast<int>(in.credit_vc), .feedback = 0});
    rtltest::put_bits(dut_->credit_i, credit, CRW);
    now_ = now_ * 1664525u + 1013904223u;  // any cycle count: the port copies it
    dut_->now_i = now_;
    dut_.eval();
    // Outputs are registers and do not follow this cycle's inputs, except
    // credits_o, which counts a returning credit at once.
    ASSERT_NO_FATAL_FAILURE(check_outputs(at, in.credit ? in.credit_vc : V));
    dut_.tick();
    rtltest::put(dut_->credit_i, 0u);
    for (unsigned w = 0; w < V; ++w) {
      const bool consume = in.send && in.vc == w;
      const bool ret = in.credit && in.credit_vc == w;
      credits_[w] = credits_[w] - (consume ? 1 : 0) + (ret ? 1 : 0);
      if ((in.alloc >> w) & 1u) {
        handover_[w] = busy_[w] && !(consume && in.tail);
        busy_[w] = true;
      } else if (consume && in.tail) {
        busy_[w] = handover_[w];
        handover_[w] = false;
      }
    }
    flit_q_ = link_word(in);
  }

  // ---- environment (router and downstream) ----
  // A random flit on VC `vc` (not part of any packet bookkeeping).
  Inputs flit(unsigned vc, bool head, bool tail) {
    Inputs in;
    in.send = true;
    in.vc = vc;
    in.head = head;
    in.tail = tail;
    in.data = rng_.bits(W);
    return in;
  }

  // Allocates idle VCs with credits for a whole packet (virtual cut-through).
  void allocate(Inputs& in, unsigned percent) {
    for (unsigned w = 0; w < V; ++w) {
      if (busy_[w] || remaining_[w] > 0 || !rng_.chance(percent)) continue;
      const unsigned len = rng_.chance(30) ? 2u : static_cast<unsigned>(rng_.range(2, kMaxLen));
      if (credits_[w] < len) continue;
      in.alloc |= 1u << w;
      pending_len_[w] = len;
    }
  }

  // Sends the next flit of an allocated packet (allocated in an earlier cycle).
  void send(Inputs& in, unsigned percent) {
    std::vector<unsigned> ready;
    for (unsigned w = 0; w < V; ++w) {
      if (busy_[w] && remaining_[w] > 0 && credits_[w] > 0) ready.push_back(w);
    }
    if (ready.empty() || !rng_.chance(percent)) return;
    const unsigned w = ready[rng_.range(0, ready.size() - 1)];
    const Inputs f = flit(w, sent_of_packet_[w] == 0, remaining_[w] == 1);
    in.send = true;
    in.vc = f.vc;
    in.head = f.head;
    in.tail = f.tail;
    in.data = f.data;
  }

  // Downstream: a credit for a flit it holds.
  void credit(Inputs& in, unsigned percent) {
    std::vector<unsigned> held;
    for (unsigned w = 0; w < V; ++w) {
      if (outstanding_[w] > 0) held.push_back(w);
    }
    if (held.empty() || !rng_.chance(percent)) return;
    in.credit = true;
    in.credit_vc = held[rng_.range(0, held.size() - 1)];
  }

  // step() plus the environment's bookkeeping.
  void run(const Inputs& in) {
    ASSERT_NO_FATAL_FAILURE(step(in));
    if (in.credit) --outstanding_[in.credit_vc];
    if (in.send) {
      ++outstanding_[in.vc];
      ++sent_of_packet_[in.vc];
      --remaining_[in.vc];
      if (in.tail) sent_of_packet_[in.vc] = 0;
    }
    for (unsigned w = 0; w < V; ++w) {
      if ((in.alloc >> w) & 1u) remaining_[w] = pending_len_[w];
    }
  }

  Dut<typename Cfg::Model> dut_;
  std::uint32_t now_ = 0x5EED;  // now_i, changed every cycle
  Rng rng_{0x0B7u + V * 31 + B};
  std::vector<unsigned> credits_;
  std::vector<bool> busy_;
  std::vector<bool> handover_;  // allocated again while busy: the next tail keeps it busy
  Bits flit_q_;
  std::vector<unsigned> remaining_, sent_of_packet_, outstanding_;
  std::vector<unsigned> pending_len_ = std::vector<unsigned>(V, 0);
};

using OutputPortCfgs = ::testing::Types<cfg::V2B8, cfg::V2B8Stamp, cfg::V3B5Ni, cfg::V1B2, cfg::V4B16>;
TYPED_TEST_SUITE(OutputPortTest, OutputPortCfgs);

TYPED_TEST(OutputPortTest, ParametersAsBuilt) {
  using Root = typename TypeParam::Root;
  EXPECT_EQ(Root::rr_output_port__DOT__VCW, TestFixture::VCW);
  EXPECT_EQ(Root::rr_output_port__DOT__CREDIT_CNT_W, TestFixture::CREDIT_CNT_W);
  EXPECT_EQ(Root::rr_output_port__DOT__LW, TestFixture::LW);
  EXPECT_EQ(Root::rr_output_port__DOT__CRW, TestFixture::CRW);
  EXPECT_LE(TestFixture::HOPS_LSB + TestFixture::HOPS_W, TestFixture::W);
}

// Registers start random (--x-initial unique); asserting reset restores the
// credits and clears busy and the link word at once, for several random starts.
TYPED_TEST(OutputPortTest, ResetClearsRandomInitialState) {
  constexpr unsigned V = TestFixture::V, B = TestFixture::B, CREDIT_CNT_W = TestFixture::CREDIT_CNT_W, LW = TestFixture::LW;
  for (std::uint32_t seed = 1; seed <= 8; ++seed) {
    Dut<typename TypeParam::Model> dut(seed * 104729);
    dut->send_i = 0;
    dut->alloc_i = 0;
    dut->credit_i = 0;
    dut->rst_ni = 0;
    dut.eval();
    EXPECT_EQ(rtltest::get_bits(dut->flit_o, LW), Bits{}) << "seed " << seed;
    EXPECT_EQ(dut->busy_o, 0u) << "seed " << seed;
    for (unsigned w = 0; w < V; ++w) EXPECT_EQ(field(dut->credits_o, w * CREDIT_CNT_W, CREDIT_CNT_W), B) << "seed " << seed;
    dut.reset();
    for (int i = 0; i < 3; ++i) {
      dut.tick();
      EXPECT_EQ(rtltest::get_bits(dut->flit_o, LW), Bits{}) << "seed " << seed;
      EXPECT_EQ(dut->busy_o, 0u) << "seed " << seed;
      for (unsigned w = 0; w < V; ++w) EXPECT_EQ(field(dut->credits_o, w * CREDIT_CNT_W, CREDIT_CNT_W), B) << "seed " << seed;
    }
  }
}

// A flit sent in cycle t is on the link in cycle t+1 only; flits sent back to
// back leave back to back.
TYPED_TEST(OutputPortTest, OutputRegisterLatencyOne) {
  constexpr unsigned V = TestFixture::V, LW = TestFixture::LW;
  Inputs a = this->flit(V - 1, true, false);
  ASSERT_NO_FATAL_FAILURE(this->step(a));  // checks flit_o is still idle while a is sent
  const Bits wa = this->link_word(a);       // after the step: a head's stamp is the cycle it was sent
  this->dut_.eval();
  EXPECT_EQ(rtltest::get_bits(this->dut_->flit_o, LW), wa);
  EXPECT_TRUE(TestFixture::flit_of(wa).valid);
  Inputs b = this->flit(V - 1, false, true);
  ASSERT_NO_FATAL_FAILURE(this->step(b));
  const Bits wb = this->link_word(b);
  EXPECT_EQ(rtltest::get_bits(this->dut_->flit_o, LW), wb);
  ASSERT_NO_FATAL_FAILURE(this->step(Inputs{}));
  EXPECT_EQ(rtltest::get_bits(this->dut_->flit_o, LW), Bits{}) << "an idle cycle drives an all-zero word";
  // The head and tail bits and the VC are carried as sent.
  EXPECT_TRUE(TestFixture::flit_of(wa).head);
  EXPECT_FALSE(TestFixture::flit_of(wa).tail);
  EXPECT_FALSE(TestFixture::flit_of(wb).head);
  EXPECT_TRUE(TestFixture::flit_of(wb).tail);
  EXPECT_EQ(static_cast<unsigned>(TestFixture::flit_of(wb).vc), V - 1);
}

// The time stamp (STAMP_W > 0): a head leaves with now_i's low bits of the
// cycle it was sent in, whatever its field held, every other bit as the hop
// count leaves it; a body or tail flit keeps its field.
TYPED_TEST(OutputPortTest, TimeStampOnHeadFlitsOnly) {
  constexpr unsigned W = TestFixture::W, LSB = TestFixture::STAMP_LSB, SW = TestFixture::STAMP_W,
                     LW = TestFixture::LW;
  if (SW == 0) GTEST_SKIP() << "no time stamp on this port";
  for (int i = 0; i < 8; ++i) {
    for (const bool head : {true, false}) {
      Inputs in = this->flit(0, head, !head);
      rtltest::set_field(in.data, LSB, SW, 0xA5A5u + static_cast<unsigned>(i));
      ASSERT_NO_FATAL_FAILURE(this->step(in));
      const std::uint32_t sent_at = this->now_;
      this->dut_.eval();
      const std::uint64_t out = TestFixture::flit_of(rtltest::get_bits(this->dut_->flit_o, LW)).data.get(0, W);
      EXPECT_EQ(field(out, LSB, SW), head ? (sent_at & mask(SW)) : field(in.data, LSB, SW))
          << (head ? "head " : "tail ") << i;
      Inputs ret;
      ret.credit = true;
      ret.credit_vc = 0;
      ASSERT_NO_FATAL_FAILURE(this->step(ret));
    }
  }
}

// Hop field of head flits: every value, with the neighbouring bits set (the
// increment wraps within the field); body and tail flits untouched; NI ports
// (COUNT_HOP = 0) never change the header.
TYPED_TEST(OutputPortTest, HopCountOnHeadFlitsOnly) {
  constexpr unsigned W = TestFixture::W, LSB = TestFixture::HOPS_LSB, HW = TestFixture::HOPS_W,
                     LW = TestFixture::LW;
  unsigned wraps = 0;
  for (std::uint64_t hops = 0; hops <= mask(HW); ++hops) {
    for (const bool head : {true, false}) {
      Inputs in = this->flit(0, head, !head);
      in.data = mask(W);  // neighbours of the field all ones
      rtltest::set_field(in.data, LSB, HW, hops);
      ASSERT_NO_FATAL_FAILURE(this->step(in));
      this->dut_.eval();
      const std::uint64_t out = TestFixture::flit_of(rtltest::get_bits(this->dut_->flit_o, LW)).data.get(0, W);
      std::uint64_t want = in.data;
      if (head && TestFixture::COUNT_HOP) rtltest::set_field(want, LSB, HW, (hops + 1) & mask(HW));
      if (head && TestFixture::STAMP_W > 0) {
        rtltest::set_field(want, TestFixture::STAMP_LSB, TestFixture::STAMP_W, this->now_);
      }
      EXPECT_EQ(out, want) << (head ? "head" : "tail") << " with hops " << hops;
      wraps += head && TestFixture::COUNT_HOP && field(out, LSB, HW) == 0;
      // The credit spent on VC 0 comes back.
      Inputs ret;
      ret.credit = true;
      ret.credit_vc = 0;
      ASSERT_NO_FATAL_FAILURE(this->step(ret));
    }
  }
  if (TestFixture::COUNT_HOP) {
    EXPECT_EQ(wraps, 1u);
  }
}

// Per-VC credit counting: down to 0 and back, consume and return together
// (the same VC: unchanged; different VCs: one each), the other VCs untouched.
TYPED_TEST(OutputPortTest, CreditCountingPerVc) {
  constexpr unsigned V = TestFixture::V, B = TestFixture::B;
  for (unsigned w = 0; w < V; ++w) {
    for (unsigned i = 0; i < B; ++i) ASSERT_NO_FATAL_FAILURE(this->step(this->flit(w, i == 0, i + 1 == B)));
    ASSERT_NO_FATAL_FAILURE(this->step(Inputs{}));
    EXPECT_EQ(this->credits_[w], 0u);
    // A credit back and a flit out on the same VC: the count holds at every level.
    for (unsigned level = 0; level < B; ++level) {
      Inputs ret;
      ret.credit = true;
      ret.credit_vc = w;
      ASSERT_NO_FATAL_FAILURE(this->step(ret));  // level + 1 credits
      if (level + 1 == B) break;                // nothing left downstream to credit
      Inputs both = this->flit(w, false, false);
      both.credit = true;
      both.credit_vc = w;
      ASSERT_NO_FATAL_FAILURE(this->step(both));
      ASSERT_NO_FATAL_FAILURE(this->step(both));
      ASSERT_NO_FATAL_FAILURE(this->step(Inputs{}));
      EXPECT_EQ(this->credits_[w], level + 1);
    }
    ASSERT_NO_FATAL_FAILURE(this->step(Inputs{}));
    EXPECT_EQ(this->credits_[w], B);
    // A flit out on w while a credit comes back for another VC.
    if (V > 1) {
      const unsigned other = (w + 1) % V;
      ASSERT_NO_FATAL_FAILURE(this->step(this->flit(other, true, true)));
      Inputs cross = this->flit(w, true, true);
      cross.credit = true;
      cross.credit_vc = other;
      ASSERT_NO_FATAL_FAILURE(this->step(cross));
      ASSERT_NO_FATAL_FAILURE(this->step(Inputs{}));
      EXPECT_EQ(this->credits_[w], B - 1);
      EXPECT_EQ(this->credits_[other], B);
      Inputs ret;
      ret.credit = true;
      ret.credit_vc = w;
      ASSERT_NO_FATAL_FAILURE(this->step(ret));
    }
  }
  ASSERT_NO_FATAL_FAILURE(this->step(Inputs{}));
  for (unsigned w = 0; w < V; ++w) EXPECT_EQ(this->credits_[w], B);
}

// A VC is busy from the cycle after its allocation until the cycle after its
// tail leaves; flits and tails on other VCs do not change it.
TYPED_TEST(OutputPortTest, BusyFromAllocUntilTail) {
  constexpr unsigned V = TestFixture::V;
  Inputs alloc;
  alloc.alloc = static_cast<std::uint32_t>(mask(V));  // every VC in one cycle
  ASSERT_NO_FATAL_FAILURE(this->step(alloc));
  ASSERT_NO_FATAL_FAILURE(this->step(Inputs{}));
  EXPECT_EQ(this->dut_->busy_o, mask(V));
  for (unsigned w = 0; w < V; ++w) {
    ASSERT_NO_FATAL_FAILURE(this->step(this->flit(w, true, false)));
    if (TestFixture::B >= 3) {
      ASSERT_NO_FATAL_FAILURE(this->step(this->flit(w, false, false)));
    }
    ASSERT_NO_FATAL_FAILURE(this->step(Inputs{}));
    EXPECT_TRUE((this->dut_->busy_o >> w) & 1u) << "body flits keep the VC";
    ASSERT_NO_FATAL_FAILURE(this->step(this->flit(w, false, true)));
    ASSERT_NO_FATAL_FAILURE(this->step(Inputs{}));
    EXPECT_EQ(this->dut_->busy_o, mask(V) & ~((2u << w) - 1)) << "the tail frees VC " << w << " only";
  }
  // Allocated again at once.
  Inputs again;
  again.alloc = 1;
  ASSERT_NO_FATAL_FAILURE(this->step(again));
  ASSERT_NO_FATAL_FAILURE(this->step(Inputs{}));
  EXPECT_EQ(this->dut_->busy_o, 1u);
}

// A busy VC is allocated again to a successor: before the holder's tail
// leaves (the tail then keeps the VC busy, and handover_o tells the successor
// to wait for it) or in the tail's cycle (nothing to wait for).
TYPED_TEST(OutputPortTest, BusyVcHandedOverToASuccessor) {
  Inputs alloc;
  alloc.alloc = 1;
  Inputs credit_back;  // the downstream router frees a slot (buffers of 2 flits run dry otherwise)
  credit_back.credit = true;
  credit_back.credit_vc = 0;
  ASSERT_NO_FATAL_FAILURE(this->step(alloc));
  ASSERT_NO_FATAL_FAILURE(this->step(this->flit(0, true, false)));
  ASSERT_NO_FATAL_FAILURE(this->step(alloc));  // the next packet, while the tail waits
  EXPECT_EQ(this->dut_->handover_o & 1u, 1u) << "the successor must wait for the first packet's tail";
  ASSERT_NO_FATAL_FAILURE(this->step(credit_back));
  EXPECT_EQ(this->dut_->handover_o & 1u, 1u) << "the tail has not left";
  ASSERT_NO_FATAL_FAILURE(this->step(this->flit(0, false, true)));  // the first packet's tail
  EXPECT_EQ(this->dut_->handover_o & 1u, 0u) << "the tail left: the successor may send";
  ASSERT_NO_FATAL_FAILURE(this->step(credit_back));
  EXPECT_EQ(this->dut_->busy_o & 1u, 1u) << "the tail of the first packet freed the VC of the next";
  ASSERT_NO_FATAL_FAILURE(this->step(this->flit(0, true, false)));
  Inputs tail_and_alloc = this->flit(0, false, true);  // the second tail, and a third packet at once
  tail_and_alloc.alloc = 1;
  ASSERT_NO_FATAL_FAILURE(this->step(tail_and_alloc));
  ASSERT_NO_FATAL_FAILURE(this->step(credit_back));
  EXPECT_EQ(this->dut_->busy_o & 1u, 1u) << "allocated in the cycle of the tail: busy for the third packet";
  EXPECT_EQ(this->dut_->handover_o & 1u, 0u) << "allocated in the cycle of the tail: no tail to wait for";
  ASSERT_NO_FATAL_FAILURE(this->step(this->flit(0, true, true)));
  ASSERT_NO_FATAL_FAILURE(this->step(credit_back));
  EXPECT_EQ(this->dut_->busy_o & 1u, 0u) << "the third packet's tail frees the VC";
}

// Random traffic against the model; the rates change every 120 cycles so that
// credits run out and come back in bursts.
TYPED_TEST(OutputPortTest, RandomTrafficAgainstModel) {
  constexpr unsigned V = TestFixture::V;
  struct Rates {
    unsigned alloc, send, credit;
  };
  static constexpr Rates kRegimes[] = {{60, 90, 90}, {80, 100, 10}, {30, 40, 100}, {100, 100, 60}, {50, 70, 50}};
  unsigned zero_credits = 0, consume_and_return = 0, packets = 0, flits = 0, multi_alloc = 0;
  Rates r = kRegimes[0];
  for (unsigned c = 0; c < 20000; ++c) {
    if (c % 120 == 0) r = kRegimes[this->rng_.range(0, std::size(kRegimes) - 1)];
    Inputs in;
    this->allocate(in, r.alloc);
    this->send(in, r.send);
    this->credit(in, r.credit);
    for (unsigned w = 0; w < V; ++w) zero_credits += this->credits_[w] == 0;
    consume_and_return += in.send && in.credit && in.vc == in.credit_vc;
    packets += in.send && in.tail;
    flits += in.send;
    multi_alloc += rtltest::popcount(in.alloc) > 1;
    ASSERT_NO_FATAL_FAILURE(this->run(in)) << "cycle " << c;
  }
  std::cout << "[ info ] " << flits << " flits, " << packets << " packets; VC without credits " << zero_credits
            << ", flit out and credit back on one VC " << consume_and_return << ", cycles of 2+ allocations "
            << multi_alloc << "\n";
  EXPECT_GT(packets, 1500u);
  EXPECT_GT(zero_credits, 200u);
  EXPECT_GT(consume_and_return, 200u);
  if (V > 1) {
    EXPECT_GT(multi_alloc, 50u);
  }
}

// Reset in the middle of traffic: credits back to B, nothing busy, idle link,
// and the port works from scratch.
TYPED_TEST(OutputPortTest, ResetMidTrafficClearsEverything) {
  constexpr unsigned V = TestFixture::V, B = TestFixture::B, CREDIT_CNT_W = TestFixture::CREDIT_CNT_W, LW = TestFixture::LW;
  for (unsigned round = 0; round < 4; ++round) {
    bool busy = false;
    for (unsigned i = 0; i < 200 || !busy; ++i) {
      ASSERT_LT(i, 2000u) << "never reached a busy state";
      Inputs in;
      this->allocate(in, 70);
      this->send(in, 100);
      this->credit(in, 20);
      ASSERT_NO_FATAL_FAILURE(this->run(in));
      bool low = false, any_busy = false;
      for (unsigned w = 0; w < V; ++w) {
        low |= this->credits_[w] < B;
        any_busy |= this->busy_[w];
      }
      busy = low && any_busy && this->flit_of(this->flit_q_).valid;
    }
    this->dut_->rst_ni = 0;
    this->dut_.eval();
    EXPECT_EQ(rtltest::get_bits(this->dut_->flit_o, LW), Bits{});
    EXPECT_EQ(this->dut_->busy_o, 0u);
    for (unsigned w = 0; w < V; ++w) EXPECT_EQ(field(this->dut_->credits_o, w * CREDIT_CNT_W, CREDIT_CNT_W), B);
    this->reset();
    for (unsigned i = 0; i < 500; ++i) {
      Inputs in;
      this->allocate(in, 50);
      this->send(in, 80);
      this->credit(in, 60);
      ASSERT_NO_FATAL_FAILURE(this->run(in));
    }
  }
}

}  // namespace
