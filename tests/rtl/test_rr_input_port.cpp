// Block test for rtl/rr_input_port.sv (a FIFO per VC, a route FIFO per VC and
// the WAITING/ACTIVE state of each VC) against a cycle-level C++ model of what
// its header comment and docs/architecture.md ("rr_input_port") promise:
//  - a flit on the link enters its VC's buffer; a head flit is stored as the
//    route unit rewrote it (rc_hdr_i), and its route {length (from the arriving
//    header), allowed VCs, out port} is captured in the same cycle;
//  - WAITING with a routed packet: a VA request with that packet's route; a VA
//    grant makes the VC ACTIVE with the granted output VC;
//  - ACTIVE: a SA request per buffered flit on the captured port, offering
//    the flits of the active packet among the first S of the buffer (sa_cnt_o,
//    up to and including a tail); the allocator grants a prefix of them
//    (sa_gnt_i, a count) and names the VC and flit of each crossbar lane
//    (lane_*_i); each lane carries that flit with the allocated output VC;
//    the tail returns the VC to WAITING;
//  - hand-over: with the tail at the front of an ACTIVE VC, the port says so
//    (va_rel_o, with the output VC the active packet holds), and the next
//    routed packet requests VA; a grant is taken over when the tail leaves (at
//    once if both happen in one cycle), so no cycle is lost between packets;
//  - a packet granted an output VC asks for the switch only in cycles in
//    which that VC's previous holder has no tail left to send (out_pend_i),
//    until it has seen such a cycle once;
//  - one credit for the VC, one cycle after every pop; with S > 1 a VC owes
//    a credit per popped flit and one goes out per cycle, round-robin over
//    the VCs that owe one (this cycle's pops included);
//  - occ_o gives each VC's buffered flits in every cycle;
//  - reset (asynchronous, active low) clears every VC and the credit;
//  - with DECIDE (decisions at the head of the VC): a route may leave the choice
//    open between its route and an alternative; such a packet asks for a VC
//    only in a cycle in which the port presents it on hd_* (one VC per cycle,
//    round-robin over the VCs that may ask and have not decided) or after it
//    decided; the decision unit's answer (hd_alt_i) picks the route of the
//    request and is kept until the grant; with REGISTERED the oldest route of a
//    VC with an open choice is presented whenever its route is at the front
//    (eligible or not, decided or not: round-robin), the answer is registered
//    and renewed until the grant (a VC that owes a first presentation goes
//    before a renewal), and the packet asks with the registered decision
//    only; once the oldest route is settled (decided, or no open
//    choice) and the route behind it has an open choice and no decision, that
//    second route is presented instead, its answer registered apart and taken
//    over by the second packet when the oldest is granted (a grant and a
//    decision ahead in one cycle: the new answer); a head that took the
//    alternative leaves with header field FIELD_LSB..+FIELD_W = kAltFieldValue;
//    the decision unit may refuse a presentation (hd_ready_i low): nothing
//    is decided, and the packet presents again; hd_fresh_o marks a packet
//    presented before any accepted decision;
//  - with ANSWER_PORT (Q-adaptive) the answer names the port (hd_choice_i) and the
//    patch value (hd_patch_i), kept like the alternative until the grant; the
//    request asks for that port with the route's VCs (alt VCs if it patches);
//  - with LATE the answer to a presentation comes in the next cycle and
//    goes to the packet presented (one place up if a grant came in between),
//    or nowhere if that packet was granted in between; while it is on the
//    way it counts as that packet's decision for what the VC presents (ahead,
//    fresh, and no renewal of it), not for its request; the route FIFO is
//    read three deep, so the third route is presented while the second
//    one's answer is on its way;
//  - with STAMP_W (Q-adaptive's routing.q_stamp = "request") a head leaves
//    with header field STAMP_LSB..+STAMP_W set to the cycle (now_i) its
//    packet first asked for an output VC.
// The environment plays the upstream router (credit flow control, virtual
// cut-through: a packet starts only with credits for all of it, packets of at
// least 2 flits), the route unit and the allocators.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <deque>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "Vrr_input_port_p3v1b2.h"
#include "Vrr_input_port_p3v1b2___024root.h"
#include "Vrr_input_port_p4v2b6m1.h"
#include "Vrr_input_port_p4v2b6m1___024root.h"
#include "Vrr_input_port_p4v2b6m1hr.h"
#include "Vrr_input_port_p4v2b6m1hr___024root.h"
#include "Vrr_input_port_p4v2b6m1hrc.h"
#include "Vrr_input_port_p4v2b6m1hrc___024root.h"
#include "Vrr_input_port_p4v2b6m1hrcl.h"
#include "Vrr_input_port_p4v2b6m1hrcl___024root.h"
#include "Vrr_input_port_p5v2b8.h"
#include "Vrr_input_port_p5v2b8___024root.h"
#include "Vrr_input_port_p5v2b8s2.h"
#include "Vrr_input_port_p5v2b8s2___024root.h"
#include "Vrr_input_port_p5v2b8s2r.h"
#include "Vrr_input_port_p5v2b8s2r___024root.h"
#include "Vrr_input_port_p7v3b5.h"
#include "Vrr_input_port_p7v3b5___024root.h"
#include "Vrr_input_port_p7v3b5h.h"
#include "Vrr_input_port_p7v3b5h___024root.h"
#include "Vrr_input_port_p7v3b5hr.h"
#include "Vrr_input_port_p7v3b5hr___024root.h"
#include "Vrr_input_port_p5v2b8sp.h"
#include "Vrr_input_port_p5v2b8sp___024root.h"
#include "Vrr_input_port_p5v2b8s2sp.h"
#include "Vrr_input_port_p5v2b8s2sp___024root.h"
#include "Vrr_input_port_p7v3b5hsp.h"
#include "Vrr_input_port_p7v3b5hsp___024root.h"
#include "Vrr_input_port_p4v2b6m1hrcsp.h"
#include "Vrr_input_port_p4v2b6m1hrcsp___024root.h"
#include "link_bits.hpp"
#include "rlroute/gen/link_layout.hpp"
#include "rlroute/gen/link_words.hpp"
#include "vtb.hpp"

// Parameter sets (one Verilated model each, -G values in CMakeLists.txt); the
// struct names appear in the CTest test names.
namespace cfg {

struct P5V2B8 {
  using Model = Vrr_input_port_p5v2b8;
  using Root = Vrr_input_port_p5v2b8___024root;
};
struct P7V3B5 {
  using Model = Vrr_input_port_p7v3b5;
  using Root = Vrr_input_port_p7v3b5___024root;
};
struct P4V2B6M1 {  // single-flit packets allowed (MIN_LEN = 1)
  using Model = Vrr_input_port_p4v2b6m1;
  using Root = Vrr_input_port_p4v2b6m1___024root;
};
struct P4V2B6M1HR {  // single-flit packets, decisions at the head through a register
  using Model = Vrr_input_port_p4v2b6m1hr;
  using Root = Vrr_input_port_p4v2b6m1hr___024root;
};
struct P7V3B5H {  // decisions at the head of the VC (DECIDE = 1)
  using Model = Vrr_input_port_p7v3b5h;
  using Root = Vrr_input_port_p7v3b5h___024root;
};
struct P7V3B5HR {  // the same, through a register (REGISTERED = 1)
  using Model = Vrr_input_port_p7v3b5hr;
  using Root = Vrr_input_port_p7v3b5hr___024root;
};
struct P4V2B6M1HRC {  // single-flit packets, registered decisions that name the port (ANSWER_PORT = 1), stamped heads
  using Model = Vrr_input_port_p4v2b6m1hrc;
  using Root = Vrr_input_port_p4v2b6m1hrc___024root;
};
struct P4V2B6M1HRCL {  // the same with the answer a cycle after the presentation (LATE = 1)
  using Model = Vrr_input_port_p4v2b6m1hrcl;
  using Root = Vrr_input_port_p4v2b6m1hrcl___024root;
};
struct P3V1B2 {
  using Model = Vrr_input_port_p3v1b2;
  using Root = Vrr_input_port_p3v1b2___024root;
};
struct P5V2B8S2 {  // speedup 2: two crossbar lanes, up to two flits of a VC per
                   // cycle
  using Model = Vrr_input_port_p5v2b8s2;
  using Root = Vrr_input_port_p5v2b8s2___024root;
};
struct P5V2B8S2R {  // the same with the VC buffers read through a register
  using Model = Vrr_input_port_p5v2b8s2r;
  using Root = Vrr_input_port_p5v2b8s2r___024root;
};
// Speculative switch allocation (SPEC): plain, at speedup 2 (stamped heads), with decisions
// in front of the VC allocator, and as Q-adaptive uses it (single-flit
// packets, registered decisions that name the port).
struct P5V2B8Spec {
  using Model = Vrr_input_port_p5v2b8sp;
  using Root = Vrr_input_port_p5v2b8sp___024root;
};
struct P5V2B8S2Spec {
  using Model = Vrr_input_port_p5v2b8s2sp;
  using Root = Vrr_input_port_p5v2b8s2sp___024root;
};
struct P7V3B5HSpec {
  using Model = Vrr_input_port_p7v3b5hsp;
  using Root = Vrr_input_port_p7v3b5hsp___024root;
};
struct P4V2B6M1HRCSpec {
  using Model = Vrr_input_port_p4v2b6m1hrcsp;
  using Root = Vrr_input_port_p4v2b6m1hrcsp___024root;
};

}  // namespace cfg

namespace {

using rtltest::Bits;
using rtltest::Dut;
using rtltest::field;
using rtltest::mask;
using rtltest::Rng;
// One flit on the link (its data in the low W bits of data.words[0]).
using rlroute::LinkFlit;

// One crossbar lane as the switch allocator drives it: flit idx (0 = the
// front) of VC vc.
struct Lane {
  bool valid = false;
  unsigned vc = 0, idx = 0;
};

// The inputs of one cycle.
struct Inputs {
  LinkFlit flit;
  unsigned rc_port = 0;  // route unit's answer (read for a head flit only)
  std::uint32_t rc_vcs = 0;
  std::uint64_t rc_hdr = 0;
  unsigned rc_alt_port = 0;  // DECIDE: the alternative route, the open choice, its operands
  std::uint32_t rc_alt_vcs = 0;
  bool rc_decide = false;
  unsigned rc_operands = 0;
  bool hd_alt = false;  // DECIDE: the decision unit's answer this cycle
  bool hd_ready = true;  // DECIDE: it accepts this cycle's presentation
  unsigned hd_choice = 0;  // ANSWER_PORT: the port it names, and the patch value
  unsigned hd_patch = 0;
  std::uint32_t va_gnt = 0;
  std::vector<unsigned> va_vc;  // per VC
  std::uint32_t sa_gnt = 0;     // per VC a count of FLIT_CNT_W bits (S = 1: one bit per VC)
  std::vector<Lane> lanes;      // per lane; empty: step() assigns the granted flits to lanes
  std::uint32_t out_pend = 0;   // per VC: its output VC's previous tail has not left
};

struct Stored {
  std::uint64_t data = 0;
  bool head = false, tail = false;
  bool operator==(const Stored &) const = default;
};

struct Route {
  unsigned len = 0;
  std::uint32_t vcs = 0;
  unsigned port = 0;
  unsigned alt_port = 0;  // DECIDE only
  std::uint32_t alt_vcs = 0;
  bool decide = false;
  unsigned operands = 0;
};

struct Decision {
  bool decided = false, alt = false;
  unsigned choice = 0, patch = 0;  // ANSWER_PORT: the port and the header field's value
};

struct VcModel {
  std::deque<Stored> flits;
  std::deque<Route> routes;  // routed packets not yet granted a VC
  bool active = false;
  unsigned port = 0, out_vc = 0;
  bool next = false;  // the next packet's VC is allocated, the tail has not left
  bool wait = false;  // granted, and no cycle without the previous holder's tail
                      // seen yet
  unsigned next_port = 0, next_vc = 0;
  // DECIDE: the decisions of the routes read, one slot each: the oldest route
  // (slot 0), with REGISTERED the second one (taken ahead), with LATE also
  // the third.
  std::array<Decision, 3> slots{};
  bool active_alt = false,
       next_alt = false;  // DECIDE: the alternative applies to the head
  unsigned active_patch = 0, next_patch = 0;  // ANSWER_PORT: its header field's value
  bool asked = false;  // STAMP_W: the oldest packet has asked for an output VC, since asked_at
  std::uint64_t asked_at = 0;
  std::uint64_t active_stamp = 0, next_stamp = 0;  // the stamp the head leaves with
};

// What a cycle did (for the directed tests and the coverage counters).
struct Events {
  std::uint32_t va_req = 0, sa_req = 0;
  bool credit = false;
  unsigned credit_vc = 0;
  std::vector<Route> va;          // va_port_o/va_vcs_o/va_len_o per VC, as read
  std::vector<unsigned> sa_port;  // sa_port_o per VC, as read
  Stored xb;                      // the popped flit (S > 1: the last one of the first VC popping)
  Stored xb_first;                // that VC's first popped flit
  unsigned xb_vc = 0;
  unsigned popped = 0;           // flits popped, all VCs
  std::vector<unsigned> sa_cnt;  // sa_cnt_o per VC, as read
};

template <class Cfg>
class InputPortTest : public ::testing::Test {
 protected:
  using Root = typename Cfg::Root;
  static constexpr unsigned P = Root::rr_input_port__DOT__P;
  static constexpr unsigned V = Root::rr_input_port__DOT__V;
  static constexpr unsigned B = Root::rr_input_port__DOT__B;
  static constexpr unsigned W = Root::rr_input_port__DOT__W;
  static constexpr unsigned LEN_LSB = Root::rr_input_port__DOT__LEN_LSB;
  static constexpr unsigned LEN_W = Root::rr_input_port__DOT__LEN_W;
  static constexpr unsigned VCW = V > 1 ? std::bit_width(V - 1) : 1;
  static constexpr unsigned PW = P > 1 ? std::bit_width(P - 1) : 1;
  // The link and credit words (LinkLayout: the harness's, rr_pkg's).
  static constexpr rlroute::LinkLayout kLink{.vc_bits = VCW, .flit_bits = W};
  static constexpr unsigned LW = kLink.link_bits();
  static constexpr unsigned CRW = kLink.credit_bits();
  static constexpr unsigned MIN_LEN = Root::rr_input_port__DOT__MIN_LEN;
  static constexpr unsigned kRoutes = B / MIN_LEN;  // packets of >= MIN_LEN flits
  static constexpr bool DECIDE = Root::rr_input_port__DOT__DECIDE;
  static constexpr unsigned DECIDE_CYCLES = Root::rr_input_port__DOT__DECIDE_CYCLES;
  static constexpr bool REGISTERED = DECIDE_CYCLES != 0;  // the packet asks with a registered answer
  static constexpr bool LATE = DECIDE_CYCLES == 2;        // the answer a cycle after the presentation
  static constexpr unsigned DOW = Root::rr_input_port__DOT__DOW;
  static constexpr unsigned FIELD_LSB = Root::rr_input_port__DOT__FIELD_LSB;
  static constexpr unsigned FIELD_W = Root::rr_input_port__DOT__FIELD_W;
  static constexpr unsigned kAltFieldValue = 1;  // the alternative's field value, unless the answer names it
  static constexpr bool ANSWER_PORT = Root::rr_input_port__DOT__ANSWER_PORT;
  static constexpr bool SPEC = Root::rr_input_port__DOT__SPEC;
  static constexpr unsigned STAMP_LSB = Root::rr_input_port__DOT__STAMP_LSB;
  static constexpr unsigned STAMP_W = Root::rr_input_port__DOT__STAMP_W;
  // DECIDE: routes read per VC, each with a decision slot (the port's RR).
  static constexpr unsigned kSlots = !(REGISTERED && kRoutes >= 2) ? 1 : (LATE && kRoutes >= 3) ? 3 : 2;
  static constexpr unsigned S = Root::rr_input_port__DOT__S;
  static constexpr unsigned FLIT_IDX_W = S > 1 ? std::bit_width(S - 1) : 1;
  static constexpr unsigned FLIT_CNT_W = std::bit_width(S);
  // Longest packet the environment sends: fits the buffer and the length field.
  static constexpr unsigned kMaxLen = std::min({B, static_cast<unsigned>(mask(LEN_W)), 6u});

  InputPortTest() { reset(); }

  void reset() {
    dut_.reset();
    for (VcModel &m : vcs_) m = VcModel{};
    credit_valid_ = false;
    credit_vc_ = 0;
    hd_mask_ = mask(V);
    up_credits_.assign(V, B);
    pending_.assign(V, {});
    owed_.assign(V, 0);
    cr_mask_ = static_cast<std::uint32_t>(mask(V));
    late_pend_.assign(V, false);
    late_slot_.assign(V, 0);
    now_ = 0xFF00;  // the router's cycle counter: a 16-bit stamp wraps early in a test
  }

  // The credit word a model drives (credit_o).
  static rlroute::LinkCredit credit_out(Dut<typename Cfg::Model> &dut) {
    return rtltest::get_credit(rtltest::get_bits(dut->credit_o, CRW), 0, kLink);
  }

  // ---- switch grants (counts of FLIT_CNT_W bits per VC) ----
  static unsigned gnt_of(std::uint32_t sa_gnt, unsigned v) { return static_cast<unsigned>(field(sa_gnt, v * FLIT_CNT_W, FLIT_CNT_W)); }
  static std::uint32_t gnt_one(unsigned v, unsigned n = 1) { return n << (v * FLIT_CNT_W); }
  // The flits VC v offers the switch: those among the first S of its buffer,
  // up to and including a tail.
  unsigned offer(unsigned v) const {
    const auto &f = vcs_[v].flits;
    unsigned n = 0;
    for (unsigned k = 0; k < S && k < f.size(); ++k) {
      n = k + 1;
      if (f[k].tail) break;
    }
    return n;
  }
  // Random switch grants for the requesters `sareq`: S = 1 one of them; S > 1
  // VCs in random order, each a random prefix of its offer in the lanes left.
  std::uint32_t random_sa(std::uint32_t sareq) {
    std::vector<unsigned> sa;
    for (unsigned v = 0; v < V; ++v) {
      if ((sareq >> v) & 1u) sa.push_back(v);
    }
    if (sa.empty()) return 0;
    if (S == 1) return 1u << sa[rng_.range(0, sa.size() - 1)];
    std::uint32_t g = 0;
    unsigned left = S;
    const unsigned first = static_cast<unsigned>(rng_.range(0, sa.size() - 1));
    for (unsigned i = 0; i < sa.size() && left > 0; ++i) {
      const unsigned v = sa[(first + i) % sa.size()];
      if (i > 0 && rng_.chance(40)) continue;
      // Mostly all it offers (as the allocator does without contention).
      const unsigned most = std::min(left, offer(v));
      const unsigned n = rng_.chance(70) ? most : static_cast<unsigned>(rng_.range(1, most));
      g |= gnt_one(v, n);
      left -= n;
    }
    return g;
  }

  // ---- environment helpers ----
  Inputs idle() {
    Inputs in;
    // Anything on the route-unit inputs: the port must read them for heads
    // only.
    in.rc_port = static_cast<unsigned>(rng_.bits(PW));
    in.rc_vcs = static_cast<std::uint32_t>(rng_.bits(V));
    in.rc_hdr = rng_.bits(W);
    in.rc_alt_port = static_cast<unsigned>(rng_.bits(PW));
    in.rc_alt_vcs = static_cast<std::uint32_t>(rng_.bits(V));
    in.rc_decide = rng_.chance(50);
    in.rc_operands = static_cast<unsigned>(rng_.bits(DOW));
    in.hd_alt = rng_.chance(50);
    in.hd_ready = next_ready_;
    in.hd_choice = static_cast<unsigned>(rng_.bits(PW));
    in.hd_patch = static_cast<unsigned>(rng_.bits(FIELD_W));
    in.va_vc.resize(V);
    for (unsigned &x : in.va_vc) x = static_cast<unsigned>(rng_.bits(VCW));
    return in;
  }

  // DECIDE: VC v's next flit (the head of the packet start_packet queued) with
  // an open choice between port 1 and the alternative port 5 (P - 1 if less), operands
  // 3 + v, and the header field of the patch cleared so that the patch shows.
  Inputs head_with_open_choice(unsigned v) {
    Inputs in = idle();
    send_next(in, v);
    in.rc_decide = true;
    in.rc_port = 1;
    in.rc_alt_port = std::min(5u, P - 1);
    in.rc_operands = 3 + v;
    rtltest::set_field(in.rc_hdr, FIELD_LSB, FIELD_W, 0);
    return in;
  }

  // DECIDE: `packets` single-flit packets with open choices, back to back on
  // VC 0, every request granted at once, answers that differ from cycle to
  // cycle (the model checks each request's route and port): the cycles in
  // which VC 0 asked for an output VC.
  std::vector<unsigned> single_flit_asks(unsigned packets, unsigned cycles) {
    unsigned sent = 0;
    std::vector<unsigned> asks;
    for (unsigned c = 0; c < cycles; ++c) {
      Inputs in = idle();
      if (sent < packets && start_packet(0, 1)) {
        in = head_with_open_choice(0);
        ++sent;
      }
      in.hd_alt = c % 3 == 0;
      in.hd_choice = 1 + c % 3;
      in.va_gnt = va_requests();
      in.va_vc = {0, 0};
      in.sa_gnt = sa_requests(0);
      Events ev;
      step(in, &ev);
      if (::testing::Test::HasFatalFailure()) {
        ADD_FAILURE() << "cycle " << c;
        return asks;
      }
      if (ev.va_req & 1u) asks.push_back(c);
    }
    EXPECT_EQ(sent, packets);
    return asks;
  }

  // DECIDE: grants VCs 0 and 1 (output VCs 2 and 0) and returns that cycle's
  // events; then VC 0's head leaves and must carry the patch (VC 0 took the
  // alternative).
  Events grant_both_then_patched_head() {
    Events granted, ev;
    Inputs in = idle();
    in.va_gnt = 3u;
    in.va_vc = {2, 0, 0};
    step(in, &granted);
    in = idle();
    in.sa_gnt = gnt_one(0);
    step(in, &ev);
    EXPECT_TRUE(ev.xb.head);
    EXPECT_EQ(field(ev.xb.data, FIELD_LSB, FIELD_W), kAltFieldValue) << "the alternative's header field";
    return granted;
  }

  // The flits of a packet of `len` flits; the header carries the length.
  std::vector<LinkFlit> packet(unsigned vc, unsigned len) {
    std::vector<LinkFlit> p(len);
    for (unsigned i = 0; i < len; ++i) {
      p[i].valid = true;
      p[i].head = i == 0;
      p[i].tail = i + 1 == len;
      p[i].vc = static_cast<int>(vc);
      p[i].data.words[0] = rng_.bits(W);
    }
    p[0].data.set(LEN_LSB, LEN_W, len);
    return p;
  }

  // Plays the route unit for a head flit on the link: a random port, VC mask
  // and a rewrite of the header that leaves its length field alone.
  void route_unit(Inputs &in) {
    if (!(in.flit.valid && in.flit.head)) return;
    in.rc_port = static_cast<unsigned>(rng_.range(0, P - 1));
    in.rc_vcs = static_cast<std::uint32_t>(rng_.range(1, mask(V)));
    std::uint64_t rewrite = rng_.chance(20) ? 0 : rng_.bits(W);
    rtltest::set_field(rewrite, LEN_LSB, LEN_W, 0);
    in.rc_hdr = in.flit.data.words[0] ^ rewrite;
    in.rc_alt_port = static_cast<unsigned>(rng_.range(0, P - 1));
    in.rc_alt_vcs = static_cast<std::uint32_t>(rng_.range(1, mask(V)));
    in.rc_decide = DECIDE && rng_.chance(60);
    in.rc_operands = static_cast<unsigned>(rng_.bits(DOW));
  }

  // A packet length: short packets often (they fill the route FIFO), else any.
  unsigned random_len() { return rng_.chance(40) ? MIN_LEN : static_cast<unsigned>(rng_.range(MIN_LEN, kMaxLen)); }

  // Sends the next flit of the packet queued for `vc` (upstream credit check).
  void send_next(Inputs &in, unsigned vc) {
    ASSERT_FALSE(pending_[vc].empty());
    ASSERT_GT(up_credits_[vc], 0u) << "test bug: flit without a credit";
    in.flit = pending_[vc].front();
    pending_[vc].pop_front();
    route_unit(in);
  }

  // Queues a packet on `vc` if virtual cut-through allows it (credits for the
  // whole packet, the previous packet completely sent).
  bool start_packet(unsigned vc, unsigned len) {
    if (!pending_[vc].empty() || up_credits_[vc] < len) return false;
    for (const LinkFlit &f : packet(vc, len)) pending_[vc].push_back(f);
    return true;
  }

  // A VC whose oldest route may ask for an output VC.
  bool eligible(unsigned v) const {
    const VcModel &m = vcs_[v];
    const bool tail_at_front = !m.flits.empty() && m.flits.front().tail;
    return !m.routes.empty() && (!m.active || (tail_at_front && !m.next));
  }
  // LATE: an answer on its way for slot k of VC v.
  bool late(unsigned v, unsigned k) const { return late_pend_[v] && late_slot_[v] == k; }
  // DECIDE: slot k of VC v holds a route with an open choice, and that route
  // owes no presentation (no open choice, decided, or its answer on the way).
  bool open(unsigned v, unsigned k) const {
    const VcModel &m = vcs_[v];
    return k < kSlots && m.routes.size() > k && m.routes[k].decide;
  }
  bool settled(unsigned v, unsigned k) const { return !open(v, k) || vcs_[v].slots[k].decided || late(v, k); }
  // The slot VC v presents: the first that owes a presentation (REGISTERED;
  // in front of the allocator only the oldest), else the oldest, which
  // renews its decision; fresh if it owes one.
  unsigned presented_slot(unsigned v) const {
    for (unsigned k = 0; k < kSlots; ++k) {
      if (!settled(v, k)) return k;
    }
    return 0;
  }
  bool fresh(unsigned v) const { return !REGISTERED || !settled(v, presented_slot(v)); }
  // REGISTERED: VC v presents a route behind the oldest one (decides ahead).
  bool ahead(unsigned v) const { return presented_slot(v) > 0; }
  // The route VC v presents to the decision unit.
  const Route &presented(unsigned v) const { return vcs_[v].routes[presented_slot(v)]; }
  // DECIDE: the VCs with an open choice that may ask, and the one presented
  // this cycle (round-robin from the pointer; -1 if none).
  std::uint32_t head_wants() const {
    std::uint32_t r = 0;
    for (unsigned v = 0; v < V; ++v) {
      const VcModel &m = vcs_[v];
      const bool want = REGISTERED ? (open(v, 0) && !late(v, 0)) || !settled(v, presented_slot(v))
                                 : eligible(v) && m.routes.front().decide && !m.slots[0].decided;
      r |= static_cast<std::uint32_t>(want) << v;
    }
    return r;
  }
  // A VC that owes a first presentation goes before a renewal.
  int head_pick() const {
    std::uint32_t wants = head_wants();
    if (wants == 0) return -1;
    std::uint32_t fresh_wants = 0;
    for (unsigned v = 0; v < V; ++v) {
      if (((wants >> v) & 1u) && fresh(v)) fresh_wants |= 1u << v;
    }
    if (fresh_wants != 0) wants = fresh_wants;
    const std::uint32_t masked = wants & hd_mask_;
    return std::countr_zero(masked != 0 ? masked : wants);
  }
  // The port VC v's request asks for: with ANSWER_PORT the one decided (the
  // route's before a decision), else the alternative's if `alt`.
  unsigned request_port(unsigned v, bool alt) const {
    const VcModel &m = vcs_[v];
    const Route &r = m.routes.front();
    if (ANSWER_PORT) return m.slots[0].decided ? m.slots[0].choice : r.port;
    return alt ? r.alt_port : r.port;
  }
  // The route a VC's request asks for: the alternative if decided so.
  bool takes_alt(unsigned v, const Inputs &in) const {
    const VcModel &m = vcs_[v];
    if (REGISTERED) return m.slots[0].decided && m.slots[0].alt;
    return m.slots[0].decided ? m.slots[0].alt : (head_pick() == static_cast<int>(v) && in.hd_alt && in.hd_ready);
  }
  std::uint32_t va_requests() const {
    std::uint32_t r = 0;
    const int pick = head_pick();
    for (unsigned v = 0; v < V; ++v) {
      const bool open = !vcs_[v].routes.empty() && vcs_[v].routes.front().decide && !vcs_[v].slots[0].decided;
      r |= static_cast<std::uint32_t>(eligible(v) &&
                                      (!open || (!REGISTERED && pick == static_cast<int>(v) && next_ready_)))
           << v;
    }
    return r;
  }
  // SPEC: the VCs that ask for the switch speculatively: not ACTIVE, and
  // asking for an output VC.
  std::uint32_t spec_requests() const {
    if (!SPEC) return 0;
    std::uint32_t r = va_requests();
    for (unsigned v = 0; v < V; ++v) {
      if (vcs_[v].active) r &= ~(1u << v);
    }
    return r;
  }
  std::uint32_t sa_requests(std::uint32_t out_pend) const {
    std::uint32_t r = spec_requests();
    for (unsigned v = 0; v < V; ++v) {
      const bool held = vcs_[v].wait && ((out_pend >> v) & 1u);
      r |= static_cast<std::uint32_t>(vcs_[v].active && !vcs_[v].flits.empty() && !held) << v;
    }
    return r;
  }
  // The output port's view: a VC that may still wait for its previous holder's
  // tail sees it pending in `percent` of the cycles.
  std::uint32_t random_pend(unsigned percent) {
    std::uint32_t r = 0;
    for (unsigned v = 0; v < V; ++v) r |= static_cast<std::uint32_t>(rng_.chance(percent)) << v;
    return r;
  }

  // ---- one cycle: drive, compare every output the port promises, clock ----
  void step(const Inputs &in_arg, Events *ev = nullptr) {
    const std::string at = "cycle " + std::to_string(dut_.cycle());
    Inputs in = in_arg;
    // The environment keeps the protocol.
    const std::uint32_t vareq = va_requests(), sareq = sa_requests(in.out_pend), specreq = spec_requests();
    ASSERT_EQ(in.va_gnt & ~vareq, 0u) << "test bug: VA grant without a request";
    unsigned total = 0;
    for (unsigned v = 0; v < V; ++v) {
      const unsigned g = gnt_of(in.sa_gnt, v);
      ASSERT_TRUE(g == 0 || ((sareq >> v) & 1u)) << "test bug: SA grant without a request, VC " << v;
      ASSERT_TRUE(g == 0 || !((specreq >> v) & 1u) || ((in.va_gnt >> v) & 1u))
          << "test bug: SA grant of a speculation without its VA grant, VC " << v;
      ASSERT_LE(g, offer(v)) << "test bug: SA grant beyond the flits offered, VC " << v;
      total += g;
    }
    ASSERT_EQ(in.sa_gnt & ~static_cast<std::uint32_t>(mask(V * FLIT_CNT_W)), 0u) << "test bug";
    ASSERT_LE(total, S) << "test bug: more SA grants than lanes";
    // The lanes: unless given, the granted flits of each VC on the lanes, in a
    // random order for S > 1 (the port must follow lane_*_i whatever they are).
    if (in.lanes.empty()) {
      std::vector<Lane> used;
      for (unsigned v = 0; v < V; ++v) {
        for (unsigned k = 0; k < gnt_of(in.sa_gnt, v); ++k) used.push_back({true, v, k});
      }
      in.lanes.assign(S, Lane{});
      std::vector<unsigned> order(S);
      for (unsigned m = 0; m < S; ++m) order[m] = m;
      if (S > 1) {
        for (unsigned m = S - 1; m > 0; --m) std::swap(order[m], order[rng_.range(0, m)]);
        // Free lanes name anything: the port must ignore them.
        for (Lane &l : in.lanes)
          l = {false, static_cast<unsigned>(rng_.bits(VCW)), static_cast<unsigned>(rng_.bits(FLIT_IDX_W))};
      }
      for (unsigned j = 0; j < used.size(); ++j) in.lanes[order[j]] = used[j];
    }
    ASSERT_EQ(in.lanes.size(), S);
    {
      std::vector<unsigned> on_lanes(V, 0);
      for (const Lane &l : in.lanes) {
        if (!l.valid) continue;
        ASSERT_LT(l.vc, V);
        ASSERT_LT(l.idx, gnt_of(in.sa_gnt, l.vc)) << "test bug: lane with a flit not granted";
        ++on_lanes[l.vc];
      }
      for (unsigned v = 0; v < V; ++v) ASSERT_EQ(on_lanes[v], gnt_of(in.sa_gnt, v)) << "test bug: lanes vs grants";
    }
    if (in.flit.valid) {
      const VcModel &m = vcs_[in.flit.vc];
      ASSERT_LT(static_cast<unsigned>(in.flit.vc), V);
      ASSERT_TRUE(m.flits.size() < B) << "test bug: flit into a full buffer";
      if (in.flit.head) {
        ASSERT_TRUE(m.routes.size() < kRoutes || ((in.va_gnt >> in.flit.vc) & 1u)) << "test bug: route FIFO full";
      }
    }

    // Drive.
    Bits link;
    rtltest::put_flit_as_is(link, 0, kLink, in.flit);
    rtltest::put_bits(dut_->flit_i, link, LW);
    rtltest::put(dut_->rc_out_port_i, in.rc_port);
    rtltest::put(dut_->rc_out_vcs_i, in.rc_vcs);
    rtltest::put(dut_->rc_hdr_i, in.rc_hdr);
    rtltest::put(dut_->rc_alt_port_i, in.rc_alt_port);
    rtltest::put(dut_->rc_alt_vcs_i, in.rc_alt_vcs);
    rtltest::put(dut_->rc_decide_i, in.rc_decide);
    rtltest::put(dut_->rc_operands_i, in.rc_operands);
    rtltest::put(dut_->hd_alt_i, in.hd_alt);
    rtltest::put(dut_->hd_ready_i, in.hd_ready);
    rtltest::put(dut_->hd_choice_i, in.hd_choice);
    rtltest::put(dut_->hd_patch_i, in.hd_patch);
    rtltest::put(dut_->va_gnt_i, in.va_gnt);
    std::uint64_t va_vc = 0;
    for (unsigned v = 0; v < V; ++v) rtltest::set_field(va_vc, v * VCW, VCW, in.va_vc[v]);
    rtltest::put(dut_->va_vc_i, va_vc);
    rtltest::put(dut_->sa_gnt_i, in.sa_gnt);
    std::uint64_t lane_valid = 0, lane_vc = 0, lane_idx = 0;
    for (unsigned m = 0; m < S; ++m) {
      rtltest::set_field(lane_valid, m, 1, in.lanes[m].valid);
      rtltest::set_field(lane_vc, m * VCW, VCW, in.lanes[m].vc);
      rtltest::set_field(lane_idx, m * FLIT_IDX_W, FLIT_IDX_W, in.lanes[m].idx);
    }
    rtltest::put(dut_->lane_valid_i, lane_valid);
    rtltest::put(dut_->lane_vc_i, lane_vc);
    rtltest::put(dut_->lane_idx_i, lane_idx);
    rtltest::put(dut_->out_pend_i, in.out_pend);
    rtltest::put(dut_->now_i, now_ & mask(32));
    const std::uint64_t now = now_ & mask(STAMP_W > 0 ? STAMP_W : 1);
    dut_.eval();

    // Route-compute request: the head flit on the link, combinationally.
    const bool rc = in.flit.valid && in.flit.head;
    ASSERT_EQ(dut_->rc_valid_o, rc) << at;
    if (rc) {
      ASSERT_EQ(dut_->rc_hdr_o, in.flit.data.words[0]) << at;
      ASSERT_EQ(dut_->rc_in_vc_o, in.flit.vc) << at;
    }
    // DECIDE: the open choice presented to the decision unit, and the route
    // each VC's request asks for.
    const int pick = head_pick();
    std::vector<bool> alt_now(V);
    for (unsigned v = 0; v < V; ++v) alt_now[v] = takes_alt(v, in);
    ASSERT_EQ(dut_->hd_valid_o, pick >= 0) << at;
    ASSERT_EQ(dut_->hd_fresh_o, pick >= 0 && fresh(static_cast<unsigned>(pick))) << at;
    if (pick >= 0) {
      const Route &r = presented(static_cast<unsigned>(pick));
      ASSERT_EQ(dut_->hd_port_o, r.port) << at << " VC " << pick;
      ASSERT_EQ(dut_->hd_alt_port_o, r.alt_port) << at << " VC " << pick;
      ASSERT_EQ(dut_->hd_operands_o, r.operands) << at << " VC " << pick;
    }
    // VC allocation requests with the oldest routed packet's route.
    ASSERT_EQ(dut_->va_req_o, vareq) << at;
    for (unsigned v = 0; v < V; ++v) {
      const bool tail_at_front = !vcs_[v].flits.empty() && vcs_[v].flits.front().tail;
      ASSERT_EQ(field(dut_->va_rel_o, v, 1), vcs_[v].active && tail_at_front) << at << " VC " << v;
      if (vcs_[v].active) {
        ASSERT_EQ(field(dut_->va_own_vc_o, v * VCW, VCW), vcs_[v].out_vc) << at << " VC " << v;
      }
    }
    for (unsigned v = 0; v < V; ++v) {
      if (!((vareq >> v) & 1u)) continue;
      const Route &r = vcs_[v].routes.front();
      const bool alt = alt_now[v];
      ASSERT_EQ(field(dut_->va_port_o, v * PW, PW), request_port(v, alt)) << at << " VC " << v;
      ASSERT_EQ(field(dut_->va_vcs_o, v * V, V), alt ? r.alt_vcs : r.vcs) << at << " VC " << v;
      ASSERT_EQ(field(dut_->va_len_o, v * LEN_W, LEN_W), r.len) << at << " VC " << v;
    }
    // The flits in each VC's buffer (occ_o, DQN-routing's observation).
    constexpr unsigned kOccBits = std::bit_width(B);
    for (unsigned v = 0; v < V; ++v) {
      ASSERT_EQ(field(dut_->occ_o, v * kOccBits, kOccBits), vcs_[v].flits.size()) << at << " occ_o of VC " << v;
    }
    // Switch allocation requests on the captured port (a speculation: on
    // the port it asks the VC allocator for).
    ASSERT_EQ(dut_->sa_req_o, sareq) << at;
    ASSERT_EQ(dut_->sa_spec_o, specreq) << at;
    for (unsigned v = 0; v < V; ++v) {
      if ((sareq >> v) & 1u) {
        const unsigned port = ((specreq >> v) & 1u) ? request_port(v, alt_now[v]) : vcs_[v].port;
        ASSERT_EQ(field(dut_->sa_port_o, v * PW, PW), port) << at << " VC " << v;
      }
      if (vcs_[v].active) {
        ASSERT_EQ(field(dut_->va_own_port_o, v * PW, PW), vcs_[v].port) << at << " VC " << v;
      }
    }
    // The flits each VC offers the switch.
    std::vector<unsigned> sa_cnt(V);
    for (unsigned v = 0; v < V; ++v) {
      sa_cnt[v] = static_cast<unsigned>(field(dut_->sa_cnt_o, v * FLIT_CNT_W, FLIT_CNT_W));
      ASSERT_EQ(sa_cnt[v], offer(v)) << at << " sa_cnt_o of VC " << v;
    }
    // The granted flits on the crossbar lanes.
    // A speculation that goes carries this cycle's grant: its output VC and decision.
    const auto speculating = [&](unsigned v) { return ((specreq >> v) & 1u) != 0; };
    const auto asked_at = [&](unsigned v) { return vcs_[v].asked ? vcs_[v].asked_at : now; };
    const auto leaving = [&](unsigned v, unsigned k) {
      Stored f = vcs_[v].flits[k];
      const bool alt = speculating(v) ? alt_now[v] : vcs_[v].active_alt;
      const unsigned patch = speculating(v) ? vcs_[v].slots[0].patch : vcs_[v].active_patch;
      if (f.head && alt) rtltest::set_field(f.data, FIELD_LSB, FIELD_W, ANSWER_PORT ? patch : kAltFieldValue);
      if (STAMP_W > 0 && f.head) {
        rtltest::set_field(f.data, STAMP_LSB, STAMP_W, speculating(v) ? asked_at(v) : vcs_[v].active_stamp);
      }
      return f;
    };
    const auto out_vc = [&](unsigned v) { return speculating(v) ? in.va_vc[v] : vcs_[v].out_vc; };
    const Bits xb_data = rtltest::get_bits(dut_->xb_data_o, S * W);
    for (unsigned m = 0; m < S; ++m) {
      const Lane &l = in.lanes[m];
      if (!l.valid) continue;
      const Stored f = leaving(l.vc, l.idx);
      const std::string lane =
          at + " lane " + std::to_string(m) + " VC " + std::to_string(l.vc) + " flit " + std::to_string(l.idx);
      ASSERT_EQ(xb_data.get(m * W, W), f.data) << lane;
      ASSERT_EQ(field(dut_->xb_head_o, m, 1), f.head) << lane;
      ASSERT_EQ(field(dut_->xb_tail_o, m, 1), f.tail) << lane;
      ASSERT_EQ(field(dut_->xb_vc_o, m * VCW, VCW), out_vc(l.vc)) << lane;
    }
    Stored popped, popped_first;
    unsigned popped_vc = 0, popped_n = 0;
    for (unsigned v = 0; v < V; ++v) {
      const unsigned g = gnt_of(in.sa_gnt, v);
      popped_n += g;
      if (g == 0 || popped_n != g) continue;  // the first VC that pops
      popped_first = leaving(v, 0);
      popped = leaving(v, g - 1);
      popped_vc = out_vc(v);
    }
    // The credit of last cycle's pop.
    const rlroute::LinkCredit credit = credit_out(dut_);
    ASSERT_EQ(credit.valid, credit_valid_) << at;
    if (credit_valid_) {
      ASSERT_EQ(static_cast<unsigned>(credit.vc), credit_vc_) << at;
    }
    if (ev != nullptr) {
      *ev = Events{vareq, sareq, credit_valid_, credit_vc_, {}, {}, popped, popped_first, popped_vc, popped_n, sa_cnt};
      for (unsigned v = 0; v < V; ++v) {
        ev->va.push_back({static_cast<unsigned>(field(dut_->va_len_o, v * LEN_W, LEN_W)),
                          static_cast<std::uint32_t>(field(dut_->va_vcs_o, v * V, V)),
                          static_cast<unsigned>(field(dut_->va_port_o, v * PW, PW))});
        ev->sa_port.push_back(static_cast<unsigned>(field(dut_->sa_port_o, v * PW, PW)));
      }
    }

    // The presentation taken this cycle (and its slot), and the answer that
    // arrives this cycle (LATE: last cycle's presentation's) and its slot.
    std::vector<bool> take_now(V), ans_now(V);
    std::vector<unsigned> take_slot(V), ans_slot(V);
    for (unsigned v = 0; v < V; ++v) {
      take_now[v] = pick == static_cast<int>(v) && in.hd_ready;
      take_slot[v] = presented_slot(v);
      ans_now[v] = LATE ? late_pend_[v] : take_now[v];
      ans_slot[v] = LATE ? late_slot_[v] : take_slot[v];
    }
    dut_.tick();
    ++now_;

    // Model update: pops, grants, decisions, push, credit.
    if (credit_valid_) ++up_credits_[credit_vc_];
    if (pick >= 0) hd_mask_ = ~((2u << pick) - 1u) & static_cast<std::uint32_t>(mask(V));
    for (unsigned v = 0; v < V; ++v) {
      VcModel &m = vcs_[v];
      const unsigned npop = gnt_of(in.sa_gnt, v);
      const bool tail_out = npop > 0 && m.flits[npop - 1].tail;
      const bool granted = (in.va_gnt >> v) & 1u;
      const bool alt = granted && alt_now[v];
      const unsigned req_port = granted ? request_port(v, alt) : 0;
      const unsigned req_patch = m.slots[0].patch;
      const std::uint64_t req_stamp = asked_at(v);
      const bool pend = (in.out_pend >> v) & 1u;
      if (!m.active || (granted && tail_out)) {
        // SPEC: a packet that left whole in its grant's cycle leaves the VC idle.
        const bool stays = granted && (m.active || !tail_out);
        m.active = stays;
        m.wait = stays;
        if (granted) {
          m.port = req_port;
          m.out_vc = in.va_vc[v];
          m.active_alt = alt;
          m.active_patch = req_patch;
          m.active_stamp = req_stamp;
        }
      } else if (granted) {
        if (!pend) m.wait = false;
        m.next = true;
        m.next_port = req_port;
        m.next_vc = in.va_vc[v];
        m.next_alt = alt;
        m.next_patch = req_patch;
        m.next_stamp = req_stamp;
      } else if (tail_out) {
        m.active = m.next;
        m.wait = m.next;
        m.next = false;
        m.port = m.next_port;
        m.out_vc = m.next_vc;
        m.active_alt = m.next_alt;
        m.active_patch = m.next_patch;
        m.active_stamp = m.next_stamp;
      } else if (!pend) {
        m.wait = false;
      }
      if (granted) {
        m.asked = false;
      } else if (((vareq >> v) & 1u) && !m.asked) {
        m.asked = true;
        m.asked_at = now;
      }
      if (granted) {  // every slot takes over the one behind it
        std::shift_left(m.slots.begin(), m.slots.end(), 1);
        m.slots.back() = Decision{};
      }
      // The answer lands in its slot, one up if a grant moved it (nowhere if
      // its packet was granted).
      if (ans_now[v] && (!granted || ans_slot[v] > 0)) {
        m.slots[ans_slot[v] - (granted ? 1 : 0)] = Decision{true, in.hd_alt, in.hd_choice, in.hd_patch};
      }
      if (granted) m.routes.pop_front();
      for (unsigned k = 0; k < npop; ++k) m.flits.pop_front();
      // LATE: this cycle's presentation is answered next cycle, for the
      // packet it was, wherever a grant moved it (none if it was granted).
      late_pend_[v] = LATE && take_now[v] && (take_slot[v] > 0 || !granted);
      late_slot_[v] = late_pend_[v] ? take_slot[v] - (granted ? 1 : 0) : 0;
      late_moved_ += LATE && take_now[v] && take_slot[v] > 0 && granted;
      late_dropped_ += LATE && take_now[v] && take_slot[v] == 0 && granted;
      late_third_ += LATE && take_now[v] && take_slot[v] == 2;
    }
    if (in.flit.valid) {
      VcModel &m = vcs_[in.flit.vc];
      --up_credits_[in.flit.vc];
      m.flits.push_back({in.flit.head ? in.rc_hdr : in.flit.data.words[0], in.flit.head, in.flit.tail});
      if (in.flit.head) {
        m.routes.push_back({static_cast<unsigned>(in.flit.data.get(LEN_LSB, LEN_W)), in.rc_vcs, in.rc_port,
                            in.rc_alt_port, in.rc_alt_vcs, DECIDE && in.rc_decide, in.rc_operands});
      }
    }
    if (S == 1) {
      credit_valid_ = in.sa_gnt != 0;
      credit_vc_ = in.sa_gnt != 0 ? static_cast<unsigned>(std::countr_zero(in.sa_gnt)) : 0;
    } else {
      // One owed credit per cycle, round-robin over the VCs owing one (this
      // cycle's pops included).
      std::uint32_t owing = 0;
      for (unsigned v = 0; v < V; ++v)
        owing |= static_cast<std::uint32_t>(owed_[v] != 0 || gnt_of(in.sa_gnt, v) != 0) << v;
      credit_valid_ = owing != 0;
      credit_vc_ = 0;
      if (owing != 0) {
        const std::uint32_t masked = owing & cr_mask_;
        credit_vc_ = static_cast<unsigned>(std::countr_zero(masked != 0 ? masked : owing));
        cr_mask_ = ~((2u << credit_vc_) - 1u) & static_cast<std::uint32_t>(mask(V));
      }
      for (unsigned v = 0; v < V; ++v) owed_[v] += gnt_of(in.sa_gnt, v) - (credit_valid_ && credit_vc_ == v ? 1u : 0u);
    }
  }

  // Grants VA to every requester and SA to the oldest-numbered requester (or
  // a random one), sends the next pending flit of a VC (or of `only_vc`).
  Inputs eager(int only_vc = -1, std::uint32_t va_block = 0) {
    Inputs in = idle();
    for (unsigned v = 0; v < V; ++v) {
      if (only_vc >= 0 && static_cast<unsigned>(only_vc) != v) continue;
      if (!pending_[v].empty() && up_credits_[v] > 0) {
        send_next(in, v);
        break;
      }
    }
    in.va_gnt = va_requests() & ~va_block;
    for (unsigned v = 0; v < V; ++v) in.va_vc[v] = static_cast<unsigned>(rng_.range(0, V - 1));
    in.out_pend = random_pend(pend_percent_);
    in.sa_gnt = random_sa(sa_requests(in.out_pend));
    return in;
  }

  bool quiet() const {
    for (unsigned v = 0; v < V; ++v) {
      if (!vcs_[v].flits.empty() || !pending_[v].empty() || owed_[v] != 0) return false;
    }
    return !credit_valid_;
  }

  // Delivers everything and checks that every credit came back.
  void drain() {
    for (unsigned i = 0; i < 50 * B * V + 100 && !quiet(); ++i) ASSERT_NO_FATAL_FAILURE(step(eager()));
    ASSERT_TRUE(quiet()) << "traffic did not drain";
    ASSERT_NO_FATAL_FAILURE(step(idle()));
    for (unsigned v = 0; v < V; ++v) EXPECT_EQ(up_credits_[v], B) << "credits lost on VC " << v;
  }


  // Random traffic, grants and hand-over stalls against the model, then a
  // drain that must return every credit.
  void random_traffic() {
    struct Rates {
      unsigned send, va, sa;
    };
    static constexpr Rates kRegimes[] = {{90, 80, 90}, {95, 10, 15}, {10, 90, 95}, {60, 50, 50}, {100, 100, 100}};
    unsigned full = 0, routes_full = 0, push_pop_same_vc = 0, back_to_back = 0, multi_va = 0, head_with_tail_pop = 0;
    unsigned flits = 0, multi_pop = 0, multi_pop_tail = 0, two_vcs_pop = 0, owed_backlog = 0;
    unsigned spec_went = 0, spec_whole = 0;  // SPEC: heads that left in their grant's cycle, and whole packets
    Rates r = kRegimes[0];
    for (unsigned c = 0; c < 20000; ++c) {
      if (c % 150 == 0) r = kRegimes[this->rng_.range(0, std::size(kRegimes) - 1)];
      for (unsigned v = 0; v < V; ++v) {
        if (this->rng_.chance(30)) (void)this->start_packet(v, this->random_len());
      }
      Inputs in = this->idle();
      if (this->rng_.chance(r.send)) {
        std::vector<unsigned> ready;
        for (unsigned v = 0; v < V; ++v) {
          if (!this->pending_[v].empty()) ready.push_back(v);
        }
        if (!ready.empty()) this->send_next(in, ready[this->rng_.range(0, ready.size() - 1)]);
      }
      in.out_pend = this->random_pend(30);
      const std::uint32_t vareq = this->va_requests(), sareq = this->sa_requests(in.out_pend);
      for (unsigned v = 0; v < V; ++v) {
        if (((vareq >> v) & 1u) && this->rng_.chance(r.va)) in.va_gnt |= 1u << v;
        if ((in.va_gnt >> v) & 1u) in.va_vc[v] = static_cast<unsigned>(this->rng_.range(0, V - 1));
      }
      // A speculative request is granted the switch only with its output VC
      // (the router drops the switch grant of a failed speculation).
      const std::uint32_t spec_ok = sareq & ~(this->spec_requests() & ~in.va_gnt);
      if (this->rng_.chance(r.sa)) in.sa_gnt = this->random_sa(spec_ok);
      for (unsigned v = 0; v < V; ++v) {
        const bool went = ((this->spec_requests() >> v) & 1u) && gnt_of(in.sa_gnt, v) != 0;
        spec_went += went;
        spec_whole += went && this->vcs_[v].flits[gnt_of(in.sa_gnt, v) - 1].tail;
      }
      // Coverage.
      for (unsigned v = 0; v < V; ++v) {
        full += this->vcs_[v].flits.size() == B;
        routes_full += this->vcs_[v].routes.size() == std::max(B / MIN_LEN, 1u);
      }
      if (in.flit.valid) {
        const VcModel &m = this->vcs_[in.flit.vc];
        const unsigned pops = gnt_of(in.sa_gnt, in.flit.vc);
        push_pop_same_vc += pops > 0;
        back_to_back += in.flit.head && (m.active || !m.routes.empty());
        head_with_tail_pop += in.flit.head && pops > 0 && m.flits[pops - 1].tail;
        ++flits;
      }
      multi_va += rtltest::popcount(in.va_gnt) > 1;
      // Speedup: two flits of one VC (the second a tail or not), flits of two
      // VCs in one cycle, credits queued.
      unsigned popping = 0;
      for (unsigned v = 0; v < V; ++v) {
        const unsigned g = gnt_of(in.sa_gnt, v);
        popping += g > 0;
        if (g > 1) {
          ++multi_pop;
          multi_pop_tail += this->vcs_[v].flits[g - 1].tail;
        }
        owed_backlog += this->owed_[v] > 1;
      }
      two_vcs_pop += popping > 1;
      ASSERT_NO_FATAL_FAILURE(this->step(in)) << "cycle " << c;
    }
    ASSERT_NO_FATAL_FAILURE(this->drain());
    std::cout << "[ info ] " << flits << " flits; VC full " << full << ", route FIFO full " << routes_full
              << ", push+pop one VC " << push_pop_same_vc << ", head behind a buffered packet " << back_to_back
              << ", head in with a tail out " << head_with_tail_pop << ", cycles of 2+ VA grants " << multi_va << "\n";
    // A 2-flit buffer carries at most 2 flits per credit round trip of 4 cycles,
    // and takes a packet only once the one before it has left.
    EXPECT_GT(flits, B >= 3 ? 8000u : 3000u);
    EXPECT_GT(full, 500u);
    EXPECT_GT(routes_full,
              50u);  // rarer since the next packet is allocated while the tail waits
    if (B >= 3) {
      EXPECT_GT(back_to_back, 500u);
      EXPECT_GT(push_pop_same_vc, 500u);
      EXPECT_GT(head_with_tail_pop, 20u);
    }
    if (V > 1) {
      EXPECT_GT(multi_va, 50u);
    }
    if (SPEC) {
      std::cout << "[ info ] speculations that went " << spec_went << ", whole packets " << spec_whole << "\n";
      EXPECT_GT(spec_went, 1000u);
      if (S > 1 || MIN_LEN == 1) {
        EXPECT_GT(spec_whole, 100u) << "few packets left whole in their grant's cycle";
      }
    }
    if (S > 1) {
      std::cout << "[ info ] 2+ flits of one VC " << multi_pop << " (tail last " << multi_pop_tail << "), 2 VCs "
                << two_vcs_pop << ", credit backlog " << owed_backlog << "\n";
      EXPECT_GT(multi_pop, 1000u);
      EXPECT_GT(multi_pop_tail, 200u);
      EXPECT_GT(two_vcs_pop, 500u);
      EXPECT_GT(owed_backlog, 100u);
    }
  }

  Dut<typename Cfg::Model> dut_;
  Rng rng_{0x1A9u + P * 7 + V};
  std::vector<VcModel> vcs_ = std::vector<VcModel>(V);
  bool credit_valid_ = false;
  unsigned credit_vc_ = 0;
  std::uint32_t hd_mask_ = 0;                  // DECIDE: the decision arbiter's priority mask
  bool next_ready_ = true;                     // DECIDE: idle() lets the decision unit accept
  unsigned pend_percent_ = 0;                  // eager(): cycles in which out_pend_i is set
  std::vector<unsigned> up_credits_;           // the upstream router's credits per VC
  std::vector<std::deque<LinkFlit>> pending_;  // flits queued upstream per VC
  std::vector<unsigned> owed_;                 // S > 1: credits owed per VC
  std::uint32_t cr_mask_ = 0;                  // S > 1: the credit arbiter's priority mask
  std::vector<bool> late_pend_;                 // LATE: an answer due next cycle,
  std::vector<unsigned> late_slot_;             // for this slot
  unsigned late_moved_ = 0, late_dropped_ = 0;  // LATE: answers whose packet moved up, or was granted
  unsigned late_third_ = 0;                     // LATE: presentations of the third route
  std::uint64_t now_ = 0;                       // the cycle counter driven on now_i (STAMP_W)
};

// Every parameter set; those with more than one VC.
template <class Cfg>
class InputPortMultiVcTest : public InputPortTest<Cfg> {};
using InputPortCfgs = ::testing::Types<cfg::P5V2B8, cfg::P7V3B5, cfg::P3V1B2, cfg::P4V2B6M1, cfg::P4V2B6M1HR,
                                       cfg::P7V3B5H, cfg::P7V3B5HR, cfg::P5V2B8S2, cfg::P5V2B8S2R>;
using MultiVcCfgs = ::testing::Types<cfg::P5V2B8, cfg::P7V3B5, cfg::P4V2B6M1, cfg::P4V2B6M1HR, cfg::P7V3B5H,
                                     cfg::P7V3B5HR, cfg::P5V2B8S2, cfg::P5V2B8S2R>;
TYPED_TEST_SUITE(InputPortTest, InputPortCfgs);
TYPED_TEST_SUITE(InputPortMultiVcTest, MultiVcCfgs);

TYPED_TEST(InputPortTest, ParametersAsBuilt) {
  using Root = typename TypeParam::Root;
  // The derived widths of the model are the ones the test packs ports with.
  EXPECT_EQ(Root::rr_input_port__DOT__VCW, TestFixture::VCW);
  EXPECT_EQ(Root::rr_input_port__DOT__PW, TestFixture::PW);
  EXPECT_EQ(Root::rr_input_port__DOT__LW, TestFixture::LW);
  EXPECT_EQ(Root::rr_input_port__DOT__CRW, TestFixture::CRW);
  EXPECT_EQ(Root::rr_input_port__DOT__RD, std::max(TestFixture::B / TestFixture::MIN_LEN, 1u));
  EXPECT_EQ(Root::rr_input_port__DOT__FLIT_IDX_W, TestFixture::FLIT_IDX_W);
  EXPECT_EQ(Root::rr_input_port__DOT__FLIT_CNT_W, TestFixture::FLIT_CNT_W);
  EXPECT_GE(TestFixture::kMaxLen, 2u);
}

// Registers start random (--x-initial unique); asserting reset clears every
// request and the credit at once (asynchronous), for several random starts.
TYPED_TEST(InputPortTest, ResetClearsRandomInitialState) {
  for (std::uint32_t seed = 1; seed <= 8; ++seed) {
    Dut<typename TypeParam::Model> dut(seed * 7919);
    rtltest::put_bits(dut->flit_i, Bits{}, TestFixture::LW);
    dut->va_gnt_i = 0;
    dut->sa_gnt_i = 0;
    dut->lane_valid_i = 0;
    dut->rst_ni = 0;
    dut.eval();
    EXPECT_EQ(dut->va_req_o, 0u) << "seed " << seed;
    EXPECT_EQ(dut->sa_req_o, 0u) << "seed " << seed;
    EXPECT_FALSE(TestFixture::credit_out(dut).valid) << "seed " << seed;
    EXPECT_EQ(dut->rc_valid_o, 0u) << "seed " << seed;
    dut.reset();
    for (int i = 0; i < 3; ++i) {
      dut.tick();
      EXPECT_EQ(dut->va_req_o, 0u) << "seed " << seed;
      EXPECT_EQ(dut->sa_req_o, 0u) << "seed " << seed;
      EXPECT_FALSE(TestFixture::credit_out(dut).valid) << "seed " << seed;
    }
  }
}

// One packet of 3 flits (2 when the buffer is 2 deep), cycle by cycle.
TYPED_TEST(InputPortTest, OnePacketCycleByCycle) {
  constexpr unsigned V = TestFixture::V, P = TestFixture::P;
  const unsigned len = std::min(3u, TestFixture::kMaxLen);
  const unsigned vc = V - 1, out_vc = V > 1 ? 1 : 0;
  ASSERT_TRUE(this->start_packet(vc, len));
  const std::vector<LinkFlit> sent(this->pending_[vc].begin(), this->pending_[vc].end());
  Events ev;

  // Head on the link: route compute, the head stored as rewritten.
  Inputs in = this->idle();
  this->send_next(in, vc);
  in.rc_port = P - 1;
  in.rc_vcs = static_cast<std::uint32_t>(mask(V));
  in.rc_decide = false;  // DECIDE: no open choice (InputPortHeadTest has those)
  in.rc_hdr = ~sent[0].data.words[0] & mask(TestFixture::W);
  rtltest::set_field(in.rc_hdr, TestFixture::LEN_LSB, TestFixture::LEN_W, len);
  const std::uint64_t rewritten = in.rc_hdr;
  ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
  EXPECT_EQ(ev.va_req, 0u) << "no request in the cycle the head arrives";

  // Next cycle: WAITING with a route, VA request; grant it.
  in = this->idle();
  this->send_next(in, vc);
  in.va_gnt = 1u << vc;
  in.va_vc[vc] = out_vc;
  ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
  EXPECT_EQ(ev.va_req, 1u << vc);
  EXPECT_EQ(ev.sa_req, 0u);
  EXPECT_EQ(ev.va[vc].port, P - 1);
  EXPECT_EQ(ev.va[vc].vcs, mask(V));
  EXPECT_EQ(ev.va[vc].len, len);

  // ACTIVE: one flit per SA grant, each credited one cycle later.
  for (unsigned i = 0; i < len; ++i) {
    in = this->idle();
    if (!this->pending_[vc].empty()) this->send_next(in, vc);
    in.sa_gnt = TestFixture::gnt_one(vc);
    ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
    EXPECT_EQ(ev.va_req, 0u) << "ACTIVE VCs do not ask for a VC";
    EXPECT_EQ(ev.sa_req, 1u << vc);
    EXPECT_EQ(ev.sa_port[vc], P - 1);
    EXPECT_EQ(ev.xb.data, i == 0 ? rewritten : sent[i].data.words[0]) << "flit " << i;
    EXPECT_EQ(ev.xb.head, i == 0);
    EXPECT_EQ(ev.xb.tail, i + 1 == len);
    EXPECT_EQ(ev.xb_vc, out_vc);
    EXPECT_EQ(ev.credit, i > 0);
  }
  // The last credit; then nothing.
  ASSERT_NO_FATAL_FAILURE(this->step(this->idle(), &ev));
  EXPECT_TRUE(ev.credit);
  EXPECT_EQ(ev.credit_vc, vc);
  EXPECT_EQ(ev.va_req | ev.sa_req, 0u);
  ASSERT_NO_FATAL_FAILURE(this->step(this->idle(), &ev));
  EXPECT_FALSE(ev.credit);
  EXPECT_EQ(this->up_credits_[vc], TestFixture::B);
}

// A VC filled to its last slot with the largest number of routed packets
// (2-flit packets; an odd buffer ends with a 3-flit one) holds them without
// losing or returning anything, then delivers them in order.
TYPED_TEST(InputPortTest, FullBufferHoldsThenDrainsInOrder) {
  constexpr unsigned V = TestFixture::V, B = TestFixture::B;
  for (unsigned vc = 0; vc < V; ++vc) {
    unsigned sent = 0;
    while (sent < B) {
      const unsigned len = TestFixture::MIN_LEN == 1 ? 1 : B - sent == 3 ? 3 : 2;
      ASSERT_TRUE(this->start_packet(vc, len));
      sent += len;
      while (!this->pending_[vc].empty()) {
        Inputs in = this->idle();
        this->send_next(in, vc);
        Events ev;
        ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
        EXPECT_FALSE(ev.credit);
      }
    }
    ASSERT_EQ(this->vcs_[vc].flits.size(), B);
    ASSERT_EQ(this->vcs_[vc].routes.size(), std::max(B / TestFixture::MIN_LEN, 1u));
    EXPECT_EQ(this->up_credits_[vc], 0u);
    // Stalled: the requests stay, with the first packet's route.
    for (int i = 0; i < 5; ++i) ASSERT_NO_FATAL_FAILURE(this->step(this->idle()));
    EXPECT_EQ(this->dut_->va_req_o, 1u << vc);
    ASSERT_NO_FATAL_FAILURE(this->drain());
  }
}

// Packets back to back on one VC while the VC drains as fast as it can: the
// next packet's route waits (no VA request) while the previous one is ACTIVE
// until its tail is at the front; then it is requested (own, with the output
// VC the active packet holds), and with eager grants the next head leaves in
// the cycle right after the tail: no idle cycle between packets. Flits are
// pushed into the VC in the cycles it pops (buffers of 3 or more flits).
TYPED_TEST(InputPortTest, BackToBackPacketsOnOneVc) {
  constexpr unsigned V = TestFixture::V, B = TestFixture::B;
  const unsigned vc = V / 2;
  unsigned packets = 0, push_pop = 0, tails = 0, queued_while_active = 0, early = 0, seamless = 0;
  bool expect_head = false;
  // (With speedup the VC drains faster than the link fills it, so the next
  // packet is buffered behind an active one less often: run longer.)
  for (unsigned i = 0; i < 400 * TestFixture::S; ++i) {
    const unsigned len = this->random_len();
    if (this->pending_[vc].empty() && this->start_packet(vc, len)) ++packets;
    const VcModel before = this->vcs_[vc];
    Inputs in = this->eager(static_cast<int>(vc));
    Events ev;
    ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
    const bool requests = (ev.va_req >> vc) & 1u;
    const bool tail_at_front = !before.flits.empty() && before.flits.front().tail;
    if (before.active && !before.routes.empty()) {
      ++queued_while_active;
      // Through a register, an open choice asks only once decided.
      const bool undecided = TestFixture::REGISTERED && before.routes.front().decide && !before.slots[0].decided;
      EXPECT_EQ(requests, tail_at_front && !before.next && !undecided)
          << "the next packet asks for its VC exactly while the active tail is "
             "at the front, cycle "
          << i;
      early += requests;
    }
    const bool popped = in.sa_gnt != 0;
    if (expect_head) {
      EXPECT_TRUE(popped && ev.xb_first.head) << "idle cycle between a tail and the next packet's head, cycle " << i;
      seamless += popped && ev.xb_first.head;
    }
    // The next packet was routed before the tail left and is granted eagerly:
    // its head must follow in the next cycle.
    expect_head = popped && ev.xb.tail && (before.next || requests);
    tails += popped && ev.xb.tail;
    push_pop += in.flit.valid && popped;
  }
  ASSERT_NO_FATAL_FAILURE(this->drain());
  EXPECT_GT(packets, 50u);
  EXPECT_GT(tails, 50u);
  if (B >= 3) {  // a 2-flit buffer takes the next packet only once the last one left
    EXPECT_GT(queued_while_active, 20u);
    EXPECT_GT(early, 20u);
    EXPECT_GT(seamless, 20u);
    EXPECT_GT(push_pop, 50u);
  }
}

// A VC that is never granted (its buffer full) does not hold up the others.
TYPED_TEST(InputPortMultiVcTest, BlockedVcDoesNotBlockOthers) {
  constexpr unsigned V = TestFixture::V, B = TestFixture::B;
  const unsigned blocked = 0;
  unsigned delivered_tails = 0;
  for (unsigned i = 0; i < 1200; ++i) {
    for (unsigned v = 0; v < V; ++v) {
      (void)this->start_packet(v, this->random_len());
    }
    // Alternate the VC that may send, the blocked one included.
    Inputs in = this->eager(static_cast<int>(i % V), 1u << blocked);
    Events ev;
    ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
    delivered_tails += in.sa_gnt != 0 && ev.xb.tail;
    ASSERT_EQ(TestFixture::gnt_of(in.sa_gnt, blocked), 0u);
  }
  EXPECT_EQ(this->vcs_[blocked].flits.size() + this->up_credits_[blocked], B);
  EXPECT_GE(this->vcs_[blocked].flits.size(), B - TestFixture::kMaxLen + 1) << "blocked VC not filled";
  EXPECT_GT(delivered_tails, 100u) << "the other VCs stalled";
}

// Random traffic against the model; the rates change every 150 cycles so that
// buffers fill up and run empty.
TYPED_TEST(InputPortTest, RandomTrafficAgainstModel) { this->random_traffic(); }

template <class Cfg>
class InputPortSpecTest : public InputPortTest<Cfg> {};
using SpecCfgs = ::testing::Types<cfg::P5V2B8Spec, cfg::P5V2B8S2Spec, cfg::P7V3B5HSpec, cfg::P4V2B6M1HRCSpec>;
TYPED_TEST_SUITE(InputPortSpecTest, SpecCfgs);

TYPED_TEST(InputPortSpecTest, RandomTrafficAgainstModel) { this->random_traffic(); }

// Reset in the middle of traffic (buffers occupied, VCs ACTIVE, a credit
// pending): everything is cleared at once, and the port works from scratch.
TYPED_TEST(InputPortTest, ResetMidTrafficClearsEverything) {
  constexpr unsigned V = TestFixture::V;
  for (unsigned round = 0; round < 4; ++round) {
    bool busy = false;
    for (unsigned i = 0; i < 300 || !busy; ++i) {
      ASSERT_LT(i, 2000u) << "never reached a busy state";
      for (unsigned v = 0; v < V; ++v) {
        (void)this->start_packet(v, this->random_len());
      }
      Inputs in = this->eager(static_cast<int>(this->rng_.range(0, V - 1)));
      if (this->rng_.chance(50)) in.sa_gnt = 0;  // let buffers fill
      ASSERT_NO_FATAL_FAILURE(this->step(in));
      bool active = false, routed = false;
      for (const VcModel &m : this->vcs_) {
        active |= m.active;
        routed |= !m.routes.empty();
      }
      // (A 2-flit buffer holds no second route while a packet is ACTIVE.)
      busy = this->credit_valid_ && active && (routed || TestFixture::B < 3);
    }
    this->dut_->rst_ni = 0;
    this->dut_.eval();
    EXPECT_EQ(this->dut_->va_req_o, 0u);
    EXPECT_EQ(this->dut_->sa_req_o, 0u);
    EXPECT_FALSE(this->credit_out(this->dut_).valid);
    this->reset();
    ASSERT_NO_FATAL_FAILURE(this->step(this->idle()));
    // From scratch: a full buffer's worth of traffic per VC, and every credit
    // back.
    for (unsigned i = 0; i < 200; ++i) {
      for (unsigned v = 0; v < V; ++v) {
        (void)this->start_packet(v, this->random_len());
      }
      ASSERT_NO_FATAL_FAILURE(this->step(this->eager(static_cast<int>(i % V))));
    }
    ASSERT_NO_FATAL_FAILURE(this->drain());
  }
}

}  // namespace

namespace {

// Speedup 2: a VC offers the flits of its active packet among the first two
// (stopping after the tail, with the next packet's head behind it), sends two
// in one cycle on the lanes the allocator names (here in swapped order), and
// the credits of a two-flit cycle go out one per cycle.
template <class Cfg>
class InputPortSpeedupTest : public InputPortTest<Cfg> {};
using SpeedupCfgs = ::testing::Types<cfg::P5V2B8S2, cfg::P5V2B8S2R>;
TYPED_TEST_SUITE(InputPortSpeedupTest, SpeedupCfgs);

TYPED_TEST(InputPortSpeedupTest, TwoFlitsOfOneVcPerCycle) {
  using T = InputPortTest<TypeParam>;
  const unsigned vc = 1;
  Events ev;
  // A 3-flit packet and a 2-flit one on VC 1; the first is granted VC 0.
  ASSERT_TRUE(this->start_packet(vc, 3));
  for (int i = 0; i < 3; ++i) {
    Inputs in = this->idle();
    this->send_next(in, vc);
    if (i == 1) {
      in.va_gnt = 1u << vc;
      in.va_vc[vc] = 0;
    }
    ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
  }
  ASSERT_TRUE(this->start_packet(vc, 2));
  for (int i = 0; i < 2; ++i) {
    Inputs in = this->idle();
    this->send_next(in, vc);
    ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
    EXPECT_EQ(ev.sa_cnt[vc], 2u) << "head and body of the first packet offered";
    EXPECT_EQ(ev.sa_cnt[0], 0u) << "an empty VC offers nothing";
  }
  // Buffer: H B T | H T. Both lanes carry VC 1: lane 0 its flit 1, lane 1 its
  // flit 0.
  Inputs in = this->idle();
  in.sa_gnt = T::gnt_one(vc, 2);
  in.lanes = {{true, vc, 1}, {true, vc, 0}};
  ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
  EXPECT_EQ(ev.popped, 2u);
  EXPECT_TRUE(ev.xb_first.head);
  EXPECT_FALSE(ev.xb.tail);
  EXPECT_FALSE(ev.credit);
  // T | H T: the tail alone is offered; the next packet asks for its VC (the
  // tail is at the front) and is granted as the tail leaves.
  in = this->idle();
  in.sa_gnt = T::gnt_one(vc, 1);
  in.va_gnt = 1u << vc;
  in.va_vc[vc] = 1;
  ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
  EXPECT_EQ(ev.sa_cnt[vc], 1u) << "the offer stops after the tail";
  EXPECT_EQ(ev.va_req, 1u << vc);
  EXPECT_TRUE(ev.xb.tail);
  EXPECT_TRUE(ev.credit) << "the first of the two credits";
  EXPECT_EQ(ev.credit_vc, vc);
  // H T: both flits of the second packet in one cycle, tail included.
  in = this->idle();
  in.sa_gnt = T::gnt_one(vc, 2);
  ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
  EXPECT_EQ(ev.sa_cnt[vc], 2u);
  EXPECT_TRUE(ev.xb_first.head);
  EXPECT_TRUE(ev.xb.tail);
  EXPECT_EQ(ev.xb_vc, 1u) << "the second packet's output VC";
  EXPECT_TRUE(ev.credit) << "the second credit of the two-flit cycle";
  // Three credits still owed (the tail, then the two of the last cycle): one
  // per cycle.
  for (int i = 0; i < 3; ++i) {
    ASSERT_NO_FATAL_FAILURE(this->step(this->idle(), &ev));
    EXPECT_TRUE(ev.credit) << "owed credit " << i;
    EXPECT_EQ(ev.credit_vc, vc);
    EXPECT_EQ(ev.sa_req, 0u);
  }
  ASSERT_NO_FATAL_FAILURE(this->step(this->idle(), &ev));
  EXPECT_FALSE(ev.credit);
  EXPECT_EQ(this->up_credits_[vc], T::B);
}

// DECIDE: two VCs with open choices that may ask in the same cycle are
// presented one after the other (the second asks for no VC until its turn);
// a decision is kept while the grant is refused, and the head of a packet
// that took the alternative leaves with the patched header field.
class InputPortHeadTest : public InputPortTest<cfg::P7V3B5H> {};

TEST_F(InputPortHeadTest, OneDecisionPerCycleKeptUntilTheGrant) {
  for (unsigned v = 0; v < 2; ++v) ASSERT_TRUE(this->start_packet(v, 2));
  // Both heads arrive (one per cycle), each with an open choice.
  for (unsigned v = 0; v < 2; ++v) {
    Inputs in = this->head_with_open_choice(v);
    in.hd_alt = v == 1;  // VC 0 decides in this cycle: the alternative
    ASSERT_NO_FATAL_FAILURE(this->step(in));
  }
  // VC 0 was presented in the cycle after its head arrived and decided
  // "alternative"; no grant (refused) -- it keeps the decision.
  EXPECT_TRUE(this->vcs_[0].slots[0].decided);
  EXPECT_FALSE(this->vcs_[1].slots[0].decided) << "one decision per cycle";
  // Now VC 1 is presented; VC 0 asks with its kept decision.
  Inputs in = this->idle();
  in.hd_alt = false;
  Events ev;
  ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
  EXPECT_EQ(ev.va_req & 3u, 3u) << "both ask: VC 0 decided, VC 1 deciding now";
  EXPECT_TRUE(this->vcs_[1].slots[0].decided);
  EXPECT_FALSE(this->vcs_[1].slots[0].alt);
  // Grant both; VC 0's head leaves patched iff it took the alternative.
  ASSERT_TRUE(this->vcs_[0].slots[0].alt);
  ASSERT_NO_FATAL_FAILURE(ev = this->grant_both_then_patched_head());
  EXPECT_EQ(ev.va[0].port, 5u) << "VC 0 asks with the alternative it decided";
  EXPECT_EQ(ev.va[1].port, 1u);
  ASSERT_NO_FATAL_FAILURE(this->drain());
}

// REGISTERED: the answer is registered in the cycle the packet is presented;
// the packet asks in the next cycle, with the route it decided, and two open
// choices still decide one per cycle.
class InputPortRegisteredHeadTest : public InputPortTest<cfg::P7V3B5HR> {};

TEST_F(InputPortRegisteredHeadTest, DecisionRegisteredThenAskedInTheNextCycle) {
  for (unsigned v = 0; v < 2; ++v) ASSERT_TRUE(this->start_packet(v, 2));
  Events ev;
  for (unsigned v = 0; v < 2; ++v) {
    Inputs in = this->head_with_open_choice(v);
    in.hd_alt = true;  // VC 0 is presented in the second cycle: the alternative
    ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
    EXPECT_EQ(ev.va_req, 0u) << "cycle " << v << ": no request before a decision is registered";
  }
  EXPECT_TRUE(this->vcs_[0].slots[0].decided);
  EXPECT_FALSE(this->vcs_[1].slots[0].decided) << "one decision per cycle";
  // VC 0 asks with its registered decision; VC 1 is presented and does not ask
  // yet.
  Inputs in = this->idle();
  in.hd_alt = false;
  ASSERT_NO_FATAL_FAILURE(this->step(in, &ev));
  EXPECT_EQ(ev.va_req & 3u, 1u) << "VC 0 decided last cycle asks; VC 1 deciding now waits";
  EXPECT_EQ(ev.va[0].port, 5u) << "VC 0 asks with the alternative it decided";
  // Both ask now; grant both.
  ASSERT_NO_FATAL_FAILURE(ev = this->grant_both_then_patched_head());
  EXPECT_EQ(ev.va_req & 3u, 3u);
  EXPECT_EQ(ev.va[0].port, 5u);
  EXPECT_EQ(ev.va[1].port, 1u) << "VC 1 asks with the minimal route it decided";
  ASSERT_NO_FATAL_FAILURE(this->drain());
}

// REGISTERED with single-flit packets: the packet behind the oldest decides
// ahead, so a VC whose packets all have open choices asks for an output VC
// in every cycle once the first decision is registered (without deciding
// ahead it asked every other cycle: half the link's rate), and each packet
// asks with its own decision.
class InputPortSingleFlitHeadTest : public InputPortTest<cfg::P4V2B6M1HR> {};

TEST_F(InputPortSingleFlitHeadTest, BackToBackOpenChoicesAskEveryCycle) {
  constexpr unsigned kPackets = 12;
  const std::vector<unsigned> asks = this->single_flit_asks(kPackets, kPackets + 8);
  ASSERT_FALSE(HasFailure());
  ASSERT_EQ(asks.size(), kPackets);
  EXPECT_EQ(asks.front(), 2u) << "the first head arrives in cycle 0, decides in 1 and asks in 2";
  for (unsigned i = 1; i < kPackets; ++i) EXPECT_EQ(asks[i], asks[i - 1] + 1) << "request " << i;
  ASSERT_NO_FATAL_FAILURE(this->drain());
}

// LATE (Q-adaptive with routing.q_decision_cycles = 2): the answer comes
// a cycle after the presentation, so the first packet asks a cycle later
// than with LATE = 0; while the oldest packet's answer is on the way the
// VC presents the packet behind it, and while that one's is on the way, the
// third (the route FIFO is read three deep). So a VC of single-flit packets
// with open choices asks for an output VC in every cycle, as with LATE = 0,
// each packet with its own answer (docs/q_adaptive.md, "Two-cycle
// decisions").
class InputPortLateAnswerTest : public InputPortTest<cfg::P4V2B6M1HRCL> {};

TEST_F(InputPortLateAnswerTest, AnswersComeACycleLateAndGoToTheirPacket) {
  constexpr unsigned kPackets = 12;
  const std::vector<unsigned> asks = this->single_flit_asks(kPackets, kPackets + 10);
  ASSERT_FALSE(HasFailure());
  ASSERT_EQ(asks.size(), kPackets);
  EXPECT_EQ(asks.front(), 3u) << "the first head arrives in cycle 0, is presented in 1, answered in 2, asks in 3";
  for (unsigned i = 1; i < kPackets; ++i) EXPECT_EQ(asks[i], asks[i - 1] + 1) << "request " << i;
  ASSERT_NO_FATAL_FAILURE(this->drain());
}

// Both answers of the decision unit are taken, and heads leave with and
// without the patch, under random traffic (the model checks every cycle), in
// front of the VC allocator and through the register.
template <class Cfg>
class InputPortRandomHeadTest : public InputPortTest<Cfg> {};
using HeadCfgs =
    ::testing::Types<cfg::P7V3B5H, cfg::P7V3B5HR, cfg::P4V2B6M1HR, cfg::P4V2B6M1HRC, cfg::P4V2B6M1HRCL>;
TYPED_TEST_SUITE(InputPortRandomHeadTest, HeadCfgs);

TYPED_TEST(InputPortRandomHeadTest, RandomDecisionsCoverBothRoutes) {
  using T = InputPortTest<TypeParam>;
  unsigned alt_heads = 0, plain_heads = 0, waited_decided = 0, decided_ahead = 0, refused = 0;
  unsigned fresh_first = 0, held_renewals = 0;
  for (unsigned c = 0; c < 6000; ++c) {
    for (unsigned v = 0; v < T::V; ++v) (void)this->start_packet(v, this->random_len());
    this->next_ready_ = this->rng_.chance(70);  // the decision unit refuses 30 % of the presentations
    Inputs in = this->eager(static_cast<int>(c % T::V), this->rng_.chance(50) ? 0x7u : 0u);
    refused += this->head_pick() >= 0 && !in.hd_ready;
    for (unsigned v = 0; v < T::V; ++v) waited_decided += this->vcs_[v].slots[0].decided && !((in.va_gnt >> v) & 1u);
    const int pick = this->head_pick();
    decided_ahead += pick >= 0 && this->ahead(static_cast<unsigned>(pick));
    if (T::REGISTERED && pick >= 0) {
      // Round-robin alone would have presented a renewal here.
      const std::uint32_t wants = this->head_wants();
      const std::uint32_t masked = wants & this->hd_mask_;
      const auto rr_pick = static_cast<unsigned>(std::countr_zero(masked != 0 ? masked : wants));
      fresh_first += !this->fresh(rr_pick) && this->fresh(static_cast<unsigned>(pick));
    }
    for (unsigned v = 0; v < T::V; ++v) {
      held_renewals += this->open(v, 0) && this->late(v, 0) && this->settled(v, this->presented_slot(v));
    }
    Events ev;
    ASSERT_NO_FATAL_FAILURE(this->step(in, &ev)) << "cycle " << c;
    if (in.sa_gnt != 0 && ev.xb_first.head) {
      (field(ev.xb.data, T::FIELD_LSB, T::FIELD_W) != 0 ? alt_heads : plain_heads)++;
    }
  }
  this->next_ready_ = true;
  ASSERT_NO_FATAL_FAILURE(this->drain());
  EXPECT_GT(refused, 200u);
  std::cout << "[ info ] heads with the alternative's field " << alt_heads << ", others " << plain_heads
            << ", cycles a decided packet waited " << waited_decided << ", decisions taken ahead " << decided_ahead
            << "\n";
  if (T::REGISTERED) {
    EXPECT_GT(decided_ahead, 40u);  // 61 with 2-flit routes in a 5-flit buffer, 1542 with single-flit packets
    std::cout << "[ info ] packets presented before a renewal that round-robin would have picked " << fresh_first
              << ", renewals held while the answer was on its way " << held_renewals << "\n";
    EXPECT_GT(fresh_first, 20u);
  }
  if (T::LATE) {
    EXPECT_GT(held_renewals, 20u);
    std::cout << "[ info ] late answers whose packet moved up " << this->late_moved_ << ", dropped "
              << this->late_dropped_ << ", third routes presented " << this->late_third_ << "\n";
    EXPECT_GT(this->late_moved_, 20u);
    EXPECT_GT(this->late_dropped_, 20u);
    EXPECT_GT(this->late_third_, 20u);
  }
  EXPECT_GT(alt_heads, 200u);
  EXPECT_GT(plain_heads, 200u);
  EXPECT_GT(waited_decided, 200u);
}

}  // namespace
