// Block test for rtl/rr_output_port.sv with internal speedup (S > 1): up to S
// flits per cycle (one per slot, in order; several may be of one VC) enter an
// output buffer of OB flits that drains one flit per cycle onto the link,
// oldest first, in slot order within a cycle; a flit that finds the buffer
// empty goes straight to the output register (same latency as without speedup);
// room_o = min(S, OB - occupancy + 1); credits are consumed as flits enter,
// as many per VC as it has flits in the cycle; a tail among them frees the VC.
// A C++ model of the queue, the credits and the busy flags checks every
// cycle; the environment keeps to room_o and the VC's credits.
// With MULTI_GRANT a single-flit packet does not hold its VC: the port counts
// the single-flit packets allocated (alloc_n_i) and not yet entered
// (singles_o), and a multi-flit holder's successor may be one of them.
// With SPEC (speculative switch allocation) a packet may enter in the cycle
// its VC is allocated; if its tail enters too, the VC is free after it.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <deque>
#include <vector>

#include "Vrr_output_port_v4b8s2.h"
#include "Vrr_output_port_v4b8s2___024root.h"
#include "Vrr_output_port_v4b8s2m.h"
#include "Vrr_output_port_v4b8s2m___024root.h"
#include "Vrr_output_port_v4b8s2m_stamp.h"
#include "Vrr_output_port_v4b8s2m_stamp___024root.h"
#include "Vrr_output_port_v4b8s3.h"
#include "Vrr_output_port_v4b8s3___024root.h"
#include "Vrr_output_port_v4b8s3m.h"
#include "Vrr_output_port_v4b8s3m___024root.h"
#include "Vrr_output_port_v4b8s2sp.h"
#include "Vrr_output_port_v4b8s2sp___024root.h"
#include "Vrr_output_port_v4b8s2msp.h"
#include "Vrr_output_port_v4b8s2msp___024root.h"
#include "link_bits.hpp"
#include "rlroute/gen/link_layout.hpp"
#include "rlroute/gen/link_words.hpp"
#include "vtb.hpp"

namespace cfg {
struct V4B8S2 {
  using Model = Vrr_output_port_v4b8s2;
  using Root = Vrr_output_port_v4b8s2___024root;
};
struct V4B8S3 {
  using Model = Vrr_output_port_v4b8s3;
  using Root = Vrr_output_port_v4b8s3___024root;
};
struct V4B8S2M {
  using Model = Vrr_output_port_v4b8s2m;
  using Root = Vrr_output_port_v4b8s2m___024root;
};
struct V4B8S2MStamp {
  using Model = Vrr_output_port_v4b8s2m_stamp;
  using Root = Vrr_output_port_v4b8s2m_stamp___024root;
};
struct V4B8S3M {
  using Model = Vrr_output_port_v4b8s3m;
  using Root = Vrr_output_port_v4b8s3m___024root;
};
struct V4B8S2Spec {
  using Model = Vrr_output_port_v4b8s2sp;
  using Root = Vrr_output_port_v4b8s2sp___024root;
};
struct V4B8S2MSpec {
  using Model = Vrr_output_port_v4b8s2msp;
  using Root = Vrr_output_port_v4b8s2msp___024root;
};
}  // namespace cfg

namespace {

using rtltest::Bits;
using rtltest::Dut;
using rtltest::field;
using rtltest::mask;
using rtltest::Rng;

struct Slot {
  bool send = false, head = false, tail = false;
  unsigned vc = 0;
  std::uint64_t data = 0;
};

template <class Cfg>
class OutputSpeedupTest : public ::testing::Test {
 protected:
  using Root = typename Cfg::Root;
  static constexpr unsigned V = Root::rr_output_port__DOT__V, B = Root::rr_output_port__DOT__B;
  static constexpr unsigned W = Root::rr_output_port__DOT__W, S = Root::rr_output_port__DOT__S;
  static constexpr unsigned OB = Root::rr_output_port__DOT__OB;
  static constexpr bool COUNT_HOP = Root::rr_output_port__DOT__COUNT_HOP;
  static constexpr bool MULTI = Root::rr_output_port__DOT__MULTI_GRANT;
  static constexpr bool SPEC = Root::rr_output_port__DOT__SPEC;
  static constexpr unsigned HOPS_LSB = Root::rr_output_port__DOT__HOPS_LSB, HOPS_W = Root::rr_output_port__DOT__HOPS_W;
  static constexpr unsigned STAMP_LSB = Root::rr_output_port__DOT__STAMP_LSB;
  static constexpr unsigned STAMP_W = Root::rr_output_port__DOT__STAMP_W;
  static constexpr unsigned VCW = V > 1 ? std::bit_width(V - 1) : 1;
  // The link and credit words (LinkLayout: the harness's, rr_pkg's).
  static constexpr rlroute::LinkLayout kLink{.vc_bits = VCW, .flit_bits = W};
  static constexpr unsigned LW = kLink.link_bits();
  static constexpr unsigned CRW = kLink.credit_bits();

  OutputSpeedupTest() {
    dut_.reset();
    credits_.assign(V, B);
    busy_.assign(V, false);
    handover_.assign(V, false);
    succ_multi_.assign(V, false);
    singles_.assign(V, 0);
  }

  Bits word(const Slot &s) const {
    std::uint64_t data = s.data;
    if (COUNT_HOP && s.head) rtltest::set_field(data, HOPS_LSB, HOPS_W, field(data, HOPS_LSB, HOPS_W) + 1);
    if (STAMP_W > 0 && s.head) rtltest::set_field(data, STAMP_LSB, STAMP_W, now_);  // as it enters
    const rlroute::LinkFlit f{.valid = true, .head = s.head, .tail = s.tail, .vc = static_cast<int>(s.vc),
                              .data = rlroute::FlitData{{data, 0, 0, 0}}};
    return rtltest::flit_word(kLink, f);
  }
  // The flit in a link word.
  static rlroute::LinkFlit flit_of(const Bits &word) { return rtltest::get_flit(word, 0, kLink); }

  unsigned room() const { return std::min<unsigned>(S, OB - static_cast<unsigned>(queue_.size()) + 1); }

  // One cycle: check the registered outputs, drive the slots (and a credit
  // back for one VC, and VC allocations), clock, update the model.
  // alloc_n[w]: single-flit packets among VC w's allocation (MULTI).
  void step(const std::vector<Slot> &slots, int credit_vc = -1, std::uint64_t alloc = 0,
            std::vector<unsigned> alloc_n = {}) {
    const std::string at = "cycle " + std::to_string(dut_.cycle());
    alloc_n.resize(V, 0);
    ASSERT_EQ(rtltest::get_bits(dut_->flit_o, LW), link_q_) << at;
    ASSERT_EQ(dut_->room_o, room()) << at;
    for (unsigned w = 0; w < V; ++w) {
      ASSERT_EQ(rtltest::bit(dut_->busy_o, w), busy_[w]) << at << " busy_o of VC " << w;
      ASSERT_EQ(rtltest::bit(dut_->handover_o, w), handover_[w]) << at << " handover_o of VC " << w;
      ASSERT_EQ(field(dut_->singles_o, w * 4, 4), singles_[w]) << at << " singles_o of VC " << w;
    }
    std::uint64_t alloc_n_bits = 0;
    for (unsigned w = 0; w < V; ++w) rtltest::set_field(alloc_n_bits, w * RW, RW, alloc_n[w]);
    rtltest::put(dut_->alloc_n_i, alloc_n_bits);
    std::uint64_t send = 0, head = 0, tail = 0, vc = 0;
    Bits data;
    unsigned n = 0;
    for (unsigned k = 0; k < S; ++k) {
      const Slot &s = slots[k];
      if (!s.send) continue;
      ++n;
      rtltest::set_field(send, k, 1, 1);
      rtltest::set_field(head, k, 1, s.head);
      rtltest::set_field(tail, k, 1, s.tail);
      rtltest::set_field(vc, k * VCW, VCW, s.vc);
      data.set(k * W, W, s.data);
    }
    ASSERT_LE(n, room()) << "test bug: more flits than room";
    rtltest::put(dut_->send_i, send);
    rtltest::put(dut_->head_i, head);
    rtltest::put(dut_->tail_i, tail);
    rtltest::put(dut_->vc_i, vc);
    rtltest::put_bits(dut_->data_i, data, S * W);
    rtltest::put(dut_->alloc_i, alloc);
    const Bits credit =
        credit_vc >= 0 ? rtltest::credit_word(kLink, {.valid = true, .vc = credit_vc, .feedback = 0}) : Bits{};
    rtltest::put_bits(dut_->credit_i, credit, CRW);
    now_ = now_ * 1664525u + 1013904223u;  // any cycle count: the port copies it
    dut_->now_i = now_;
    dut_.eval();
    // credits_o counts a credit returning this cycle at once.
    for (unsigned w = 0; w < V; ++w) {
      ASSERT_EQ(field(dut_->credits_o, w * 4, 4), credits_[w] + (static_cast<int>(w) == credit_vc ? 1u : 0u))
          << at << " VC " << w;
    }
    dut_.tick();
    rtltest::put(dut_->credit_i, 0u);
    // Model: the oldest flit leaves, this cycle's flits join in slot order.
    // A tail frees the VC its packet holds; with MULTI a single-flit
    // packet's flit (head and tail) holds none and counts down singles_o.
    std::vector<bool> tail_out(V, false);
    std::vector<unsigned> singles_in(V, 0);
    for (unsigned k = 0; k < S; ++k) {
      if (slots[k].send) {
        queue_.push_back(word(slots[k]));
        ASSERT_GT(credits_[slots[k].vc], 0u) << "test bug: flit without credit";
        --credits_[slots[k].vc];
        if (MULTI && slots[k].head && slots[k].tail) {
          ++singles_in[slots[k].vc];
        } else {
          tail_out[slots[k].vc] = tail_out[slots[k].vc] || slots[k].tail;
        }
      }
    }
    for (unsigned w = 0; w < V; ++w) {
      const bool multi_alloc = rtltest::bit(alloc, w) && !(MULTI && alloc_n[w] > 0);
      const bool succ_multi = MULTI ? succ_multi_[w] : true;
      if (rtltest::bit(alloc, w)) {
        const bool keeps = busy_[w] && !tail_out[w];
        // SPEC: the packet allocated a free VC entered whole in this cycle.
        const bool gone = SPEC && !busy_[w] && tail_out[w];
        handover_[w] = keeps;
        busy_[w] = (multi_alloc && !gone) || keeps;
        succ_multi_[w] = multi_alloc;
      } else if (tail_out[w]) {
        busy_[w] = handover_[w] && succ_multi;
        handover_[w] = false;
      }
      if (MULTI) singles_[w] = (singles_[w] + alloc_n[w] - singles_in[w]) & 0xFu;
    }
    if (credit_vc >= 0) ++credits_[static_cast<unsigned>(credit_vc)];
    if (queue_.empty()) {
      link_q_ = Bits{};
    } else {
      link_q_ = queue_.front();
      queue_.pop_front();
    }
  }

  Dut<typename Cfg::Model> dut_;
  std::uint32_t now_ = 0x5EED;  // now_i, changed every cycle
  std::deque<Bits> queue_;  // flits in the output buffer (the register holds link_q_)
  Bits link_q_;
  static constexpr unsigned RW = std::bit_width(S);
  std::vector<unsigned> credits_;
  std::vector<bool> busy_, handover_, succ_multi_;
  std::vector<unsigned> singles_;  // MULTI: single-flit packets allocated, not yet entered
};

using Cfgs = ::testing::Types<cfg::V4B8S2, cfg::V4B8S3, cfg::V4B8S2M, cfg::V4B8S2MStamp, cfg::V4B8S3M, cfg::V4B8S2Spec,
                              cfg::V4B8S2MSpec>;
TYPED_TEST_SUITE(OutputSpeedupTest, Cfgs);

// One flit into an empty port reaches the link in the next cycle, as without
// speedup (the bypass); S flits in one cycle leave on S consecutive cycles.
TYPED_TEST(OutputSpeedupTest, BypassAndOrder) {
  constexpr unsigned S = TestFixture::S;
  std::vector<Slot> idle(S), one(S), burst(S);
  one[S - 1] = {true, true, false, 2, 0x1234};
  ASSERT_NO_FATAL_FAILURE(this->step(one));
  EXPECT_EQ(rtltest::get_bits(this->dut_->flit_o, TestFixture::LW), this->link_q_);
  EXPECT_TRUE(this->flit_of(this->link_q_).valid) << "the flit is on the link one cycle after it entered";
  for (unsigned k = 0; k < S; ++k) burst[k] = {true, false, k == 0, k, 0x100u + k};
  ASSERT_NO_FATAL_FAILURE(this->step(burst));
  for (unsigned i = 0; i < S + 2; ++i) ASSERT_NO_FATAL_FAILURE(this->step(idle));
}

// Random traffic within room_o: the link carries every flit, in order, one per
// cycle; room_o and the credits follow the model.
TYPED_TEST(OutputSpeedupTest, RandomAgainstModel) {
  constexpr unsigned S = TestFixture::S, V = TestFixture::V;
  Rng rng(0xB0F + S);
  unsigned full = 0, multi = 0, in = 0, same_vc = 0, same_vc_tail = 0, singles_alloc = 0, singles_sent = 0;
  for (unsigned c = 0; c < 20000; ++c) {
    const unsigned rate = (c / 500) % 3 == 0 ? 90 : (c / 500) % 3 == 1 ? 40 : 10;
    std::vector<Slot> slots(S);
    unsigned n = 0;
    std::vector<unsigned> used(V, 0);  // flits of each VC this cycle
    std::vector<unsigned> singles_used(V, 0);  // MULTI: single-flit packets of each VC this cycle
    unsigned last = 0;
    for (unsigned k = 0; k < S && n < this->room(); ++k) {
      if (!rng.chance(rate)) continue;
      // Often the VC of the previous slot again (a VC sending several flits).
      const unsigned w = n > 0 && rng.chance(50) ? last : static_cast<unsigned>(rng.range(0, V - 1));
      if (this->credits_[w] <= used[w]) continue;
      ++used[w];
      last = w;
      slots[k] = {true, rng.chance(30), rng.chance(30), w, rng.bits(TestFixture::W)};
      if (TestFixture::MULTI && slots[k].head && slots[k].tail) {
        // A single-flit packet enters only if one was allocated to its VC.
        if (singles_used[w] < this->singles_[w]) ++singles_used[w];
        else slots[k].tail = false;
      }
      ++n;
    }
    // The downstream router returns credits for flits it has.
    int credit = -1;
    const unsigned w = static_cast<unsigned>(rng.range(0, V - 1));
    if (this->credits_[w] - used[w] < TestFixture::B && rng.chance(70)) {
      credit = static_cast<int>(w);
    }
    // Allocations now and then (busy/handover follow the model).
    const std::uint64_t alloc = rng.chance(10) ? rng.bits(V) : 0;
    // MULTI: some allocations are of 1..S single-flit packets (fewer than
    // the credits the VC allocator would check, kept below 15).
    std::vector<unsigned> alloc_n(V, 0);
    for (unsigned x = 0; TestFixture::MULTI && x < V; ++x) {
      if (rtltest::bit(alloc, x) && rng.chance(60) && this->singles_[x] + S < 15) {
        alloc_n[x] = static_cast<unsigned>(rng.range(1, S));
        singles_alloc += alloc_n[x];
      }
    }
    full += this->queue_.size() == TestFixture::OB;
    multi += n > 1;
    in += n;
    for (unsigned x = 0; x < V; ++x) {
      same_vc += used[x] > 1;
      if (used[x] > 1) {
        for (unsigned k = 0; k < S; ++k) same_vc_tail += slots[k].send && slots[k].vc == x && slots[k].tail;
      }
    }
    for (unsigned x = 0; x < V; ++x) singles_sent += singles_used[x];
    ASSERT_NO_FATAL_FAILURE(this->step(slots, credit, alloc, alloc_n)) << "cycle " << c;
  }
  if (TestFixture::MULTI) {
    EXPECT_GT(singles_alloc, 1000u) << "few single-flit allocations";
    EXPECT_GT(singles_sent, 500u) << "few single-flit packets entered";
  }
  EXPECT_GT(full, 200u) << "the output buffer rarely filled";
  EXPECT_GT(multi, 1000u);
  EXPECT_GT(in, 8000u);
  EXPECT_GT(same_vc, 500u) << "few cycles with several flits of one VC";
  EXPECT_GT(same_vc_tail, 100u) << "few cycles with a tail among several flits of one VC";
}

// Two slots of the same VC in one cycle: two credits consumed, the flits
// leave on the link in slot order, and a tail among them frees the VC.
TYPED_TEST(OutputSpeedupTest, SameVcTwoSlots) {
  constexpr unsigned S = TestFixture::S, B = TestFixture::B;
  std::vector<Slot> idle(S);
  ASSERT_NO_FATAL_FAILURE(this->step(idle, -1, 1u << 1));
  EXPECT_TRUE(this->busy_[1]);
  // Head and body of VC 1 together.
  std::vector<Slot> two(S);
  two[0] = {true, true, false, 1, 0xA0};
  two[1] = {true, false, false, 1, 0xA1};
  ASSERT_NO_FATAL_FAILURE(this->step(two));
  this->dut_.eval();
  EXPECT_EQ(field(this->dut_->credits_o, 1 * 4, 4), B - 2) << "two credits in one cycle";
  EXPECT_EQ(this->flit_of(this->link_q_).data.get(0, TestFixture::W) & 0xFF,
            TestFixture::COUNT_HOP ? 0xA0u + 1u : 0xA0u)
      << "slot 0 (the head) leaves first";
  EXPECT_TRUE(this->flit_of(this->link_q_).head) << "the head first";
  // Body and tail of VC 1 together: the VC is free after this cycle.
  two[0] = {true, false, false, 1, 0xA2};
  two[1] = {true, false, true, 1, 0xA3};
  ASSERT_NO_FATAL_FAILURE(this->step(two));
  this->dut_.eval();
  EXPECT_EQ(field(this->dut_->credits_o, 1 * 4, 4), B - 4);
  EXPECT_EQ(this->dut_->busy_o, 0u) << "the tail in slot 1 freed VC 1";
  // The link carries 0xA1, 0xA2, 0xA3 on the next cycles, in that order.
  for (const unsigned d : {0xA1u, 0xA2u, 0xA3u}) {
    EXPECT_EQ(this->flit_of(this->link_q_).data.get(0, TestFixture::W), d);
    EXPECT_EQ(this->flit_of(this->link_q_).tail, d == 0xA3u) << "tail flag";
    ASSERT_NO_FATAL_FAILURE(this->step(idle));
  }
  // The credits come back one per cycle.
  for (int i = 0; i < 4; ++i) ASSERT_NO_FATAL_FAILURE(this->step(idle, 1));
  this->dut_.eval();
  EXPECT_EQ(field(this->dut_->credits_o, 1 * 4, 4), B);
}

// MULTI: two single-flit packets allocated to one VC in one cycle leave
// it free for more (busy stays low, singles_o counts them) and enter together;
// a multi-flit holder's successor may be a single-flit packet: the VC stays
// busy with a hand-over until the holder's tail enters, then is free.
TYPED_TEST(OutputSpeedupTest, SingleFlitPacketsShareAVc) {
  constexpr unsigned S = TestFixture::S, B = TestFixture::B;
  if (!TestFixture::MULTI) GTEST_SKIP() << "without MULTI_GRANT every packet holds its VC";
  std::vector<Slot> idle(S);
  ASSERT_NO_FATAL_FAILURE(this->step(idle, -1, 1u << 1, {0, 2}));
  EXPECT_FALSE(this->busy_[1]) << "single-flit packets hold no VC";
  EXPECT_EQ(this->singles_[1], 2u);
  ASSERT_NO_FATAL_FAILURE(this->step(idle, -1, 1u << 1, {0, 1}));  // a third, a cycle later
  EXPECT_EQ(this->singles_[1], 3u);
  std::vector<Slot> two(S);
  two[0] = {true, true, true, 1, 0xB0};
  two[1] = {true, true, true, 1, 0xB1};
  ASSERT_NO_FATAL_FAILURE(this->step(two));
  this->dut_.eval();
  EXPECT_EQ(field(this->dut_->credits_o, 1 * 4, 4), B - 2);
  EXPECT_EQ(this->singles_[1], 1u);
  std::vector<Slot> one(S);
  one[0] = {true, true, true, 1, 0xB2};
  ASSERT_NO_FATAL_FAILURE(this->step(one));
  EXPECT_EQ(this->singles_[1], 0u);
  // A multi-flit packet holds VC 2; its successor is a single-flit packet.
  ASSERT_NO_FATAL_FAILURE(this->step(idle, -1, 1u << 2));
  EXPECT_TRUE(this->busy_[2]);
  one[0] = {true, true, false, 2, 0xC0};
  ASSERT_NO_FATAL_FAILURE(this->step(one, -1, 1u << 2, {0, 0, 1}));  // head, and the successor allocated
  EXPECT_TRUE(this->busy_[2]);
  EXPECT_TRUE(this->handover_[2]);
  EXPECT_EQ(this->singles_[2], 1u);
  one[0] = {true, false, true, 2, 0xC1};
  ASSERT_NO_FATAL_FAILURE(this->step(one));  // the holder's tail
  EXPECT_FALSE(this->busy_[2]) << "the successor is a single-flit packet: the VC is free of holders";
  EXPECT_FALSE(this->handover_[2]);
  one[0] = {true, true, true, 2, 0xC2};
  ASSERT_NO_FATAL_FAILURE(this->step(one));
  EXPECT_EQ(this->singles_[2], 0u);
  for (unsigned i = 0; i < 8; ++i) ASSERT_NO_FATAL_FAILURE(this->step(idle));
}

}  // namespace

// SPEC: a packet enters in the cycle its free VC is allocated. A two-flit
// packet whose tail enters with its head leaves the VC free; a longer one
// holds it until its tail, as without speculation.
TYPED_TEST(OutputSpeedupTest, SpeculationEntersInTheAllocationCycle) {
  constexpr unsigned S = TestFixture::S;
  if (!TestFixture::SPEC) GTEST_SKIP() << "without SPEC a packet enters after its allocation";
  std::vector<Slot> idle(S), two(S);
  two[0] = {true, true, false, 2, 0xC0};
  two[1] = {true, false, true, 2, 0xC1};
  ASSERT_NO_FATAL_FAILURE(this->step(two, -1, 1u << 2));
  EXPECT_FALSE(this->busy_[2]) << "the whole packet entered with its allocation";
  this->dut_.eval();
  EXPECT_EQ(rtltest::bit(this->dut_->busy_o, 2), false);
  two[0] = {true, true, false, 3, 0xD0};
  two[1] = {true, false, false, 3, 0xD1};
  ASSERT_NO_FATAL_FAILURE(this->step(two, -1, 1u << 3));
  EXPECT_TRUE(this->busy_[3]) << "head and body entered; the tail has not";
  std::vector<Slot> tail(S);
  tail[0] = {true, false, true, 3, 0xD2};
  ASSERT_NO_FATAL_FAILURE(this->step(tail));
  EXPECT_FALSE(this->busy_[3]);
  for (unsigned i = 0; i < 6; ++i) ASSERT_NO_FATAL_FAILURE(this->step(idle));
}
