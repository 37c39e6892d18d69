// Block test for rtl/rr_head_decision.sv (the core's side of a decision at
// the head of the VC) against a cycle-level C++ reference of its contract as
// docs/architecture.md ("rr_input_port", "rr_head_decision"),
// docs/routing_dragonfly.md ("Decision point") and docs/q_adaptive.md
// ("Two-cycle decisions") state it. The reference follows packets, not
// slots: it keeps the decision of each packet by the packet's identity, so
// "a grant moves every slot up by one" is something it checks, not something
// it copies. Its rules:
//  - each VC shows its first SLOTS routes, oldest in the LSBs, and how many
//    routes it holds (count_i); only the first min(count, SLOTS) are
//    packets, the rest of routes_i is ignored;
//  - a packet owes a presentation while its choice is open and no
//    presentation of it has been accepted (hd_ready_i high);
//  - CYCLES = 0: a VC presents its oldest packet when it may ask (eligible)
//    and owes one; the answer of an accepted presentation counts for the
//    request of the same cycle and is kept until the grant;
//  - CYCLES > 0: a VC presents the first of its packets that owes one, and
//    if none its oldest packet while its choice is open (a renewal), whether
//    it may ask or not; with CYCLES = 2 not while the oldest packet's answer
//    is on its way. The answer (CYCLES = 1: in the cycle of the presentation;
//    CYCLES = 2: in the cycle after) becomes that packet's decision at the
//    end of its cycle, wherever grants moved the packet; if the packet was
//    granted first (with its previous decision) the answer is dropped;
//  - one VC presents per cycle, round-robin from the VC after the last one
//    presented; a VC whose packet owes a presentation goes before a renewal.
//    The turn passes in every cycle with a presentation, accepted or refused
//    (the RTL ties rr_arbiter_rr's advance_i high; the documentation says
//    "round-robin" only);
//  - hd_fresh_o: the presented packet has had no accepted presentation;
//  - req_o: the VC may ask and its oldest packet's choice is not open or is
//    decided (CYCLES = 0: or answered in this cycle); the request's route is
//    the alternative's port and VCs if the decision says so; with
//    ANSWER_PORT the port is the answer's (the route's before a decision)
//    and the VCs the alternative's if hd_alt_i; field_o, the value of the
//    leaving head's header field when it takes the alternative, is the
//    answer's hd_patch_i with ANSWER_PORT, else 1.
// Every cycle the test compares every output the contract defines:
// hd_valid_o and req_o always; hd_fresh_o, hd_port_o, hd_alt_port_o and
// hd_operands_o when something is presented; req_port_o, req_vcs_o and alt_o
// of every VC holding a route; field_o of a VC whose request takes the
// alternative. The inputs are driven as rr_input_port drives them (route
// FIFOs, eligibility that drops while the granted packet's flits leave, VA
// grants of requests only) with a decision unit that refuses presentations
// and answers in the cycle CYCLES says, and random values on every input the
// block must ignore in that cycle.
//
// Not covered: CYCLES = 0 with ANSWER_PORT. No router builds it
// (gen/src/router_core.cpp: a unit that names the port is registered), and
// the RTL does not support it: with CYCLES = 0 the request of the cycle of the
// answer takes hd_alt_i but not hd_choice_i or hd_patch_i (req_port_o is the
// route's port, field_o the slot's old value), while the contract above
// would name the answer's port.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <deque>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "Vrr_head_decision_c0v1s2.h"
#include "Vrr_head_decision_c0v1s2___024root.h"
#include "Vrr_head_decision_c0v3s1.h"
#include "Vrr_head_decision_c0v3s1___024root.h"
#include "Vrr_head_decision_c1v1s1.h"
#include "Vrr_head_decision_c1v1s1___024root.h"
#include "Vrr_head_decision_c1v3s2.h"
#include "Vrr_head_decision_c1v3s2___024root.h"
#include "Vrr_head_decision_c1v3s2_broken.h"
#include "Vrr_head_decision_c1v3s2_broken___024root.h"
#include "Vrr_head_decision_c1v3s2a.h"
#include "Vrr_head_decision_c1v3s2a___024root.h"
#include "Vrr_head_decision_c2v1s1.h"
#include "Vrr_head_decision_c2v1s1___024root.h"
#include "Vrr_head_decision_c2v2s3a.h"
#include "Vrr_head_decision_c2v2s3a___024root.h"
#include "Vrr_head_decision_c2v3s2a.h"
#include "Vrr_head_decision_c2v3s2a___024root.h"
#include "vtb.hpp"

namespace {

// The block's parameters (as built) and the widths the documentation derives
// from them.
struct Shape {
  unsigned P, V, LEN_W, DOW, DEPTH, SLOTS, CYCLES;
  bool ANSWER_PORT;
  unsigned PATCH_W;

  constexpr unsigned pw() const { return P > 1 ? static_cast<unsigned>(std::bit_width(P - 1)) : 1u; }  // a port id
  constexpr unsigned count_bits() const { return static_cast<unsigned>(std::bit_width(DEPTH)); }        // 0..DEPTH
};

}  // namespace

// Parameter sets (one Verilated model each, -G values in CMakeLists.txt).
// The parameters are read back from the model (PUBLIC): their names appear
// here only.
namespace cfg {

template <class M, class R>
struct HdCfg {
  using Model = M;
  static constexpr Shape kShape{R::rr_head_decision__DOT__P,
                                R::rr_head_decision__DOT__V,
                                R::rr_head_decision__DOT__LEN_W,
                                R::rr_head_decision__DOT__DOW,
                                R::rr_head_decision__DOT__DEPTH,
                                R::rr_head_decision__DOT__SLOTS,
                                R::rr_head_decision__DOT__CYCLES,
                                R::rr_head_decision__DOT__ANSWER_PORT != 0,
                                R::rr_head_decision__DOT__PATCH_W};
  // The RTL's own widths of a route and of a count, checked against the
  // documented layout.
  static constexpr unsigned kRtlRouteBits = R::rr_head_decision__DOT__RTW;
  static constexpr unsigned kRtlCountBits = R::rr_head_decision__DOT__ROUTE_CNT_W;
};

// UGAL/PAR with "vc_head" (rr_input_port's P7V3B5H): 3 VCs, one slot.
struct C0V3S1 : HdCfg<Vrr_head_decision_c0v3s1, Vrr_head_decision_c0v3s1___024root> {};
// CYCLES = 0 with a second slot, which no port builds: it must stay inert.
struct C0V1S2 : HdCfg<Vrr_head_decision_c0v1s2, Vrr_head_decision_c0v1s2___024root> {};
// "vc_head_registered" (P7V3B5HR): the second packet decides ahead.
struct C1V3S2 : HdCfg<Vrr_head_decision_c1v3s2, Vrr_head_decision_c1v3s2___024root> {};
// Star-channel on the smallest port: one VC, one route per VC (one slot).
struct C1V1S1 : HdCfg<Vrr_head_decision_c1v1s1, Vrr_head_decision_c1v1s1___024root> {};
// DQN-routing: the answer names the port, a 1-bit field.
struct C1V3S2A : HdCfg<Vrr_head_decision_c1v3s2a, Vrr_head_decision_c1v3s2a___024root> {};
// Q-adaptive with two-cycle decisions (P4V2B6M1HRCL): three slots.
struct C2V2S3A : HdCfg<Vrr_head_decision_c2v2s3a, Vrr_head_decision_c2v2s3a___024root> {};
// The same on a port with two routes per VC (two slots).
struct C2V3S2A : HdCfg<Vrr_head_decision_c2v3s2a, Vrr_head_decision_c2v3s2a___024root> {};
// The answer a cycle late with one VC and one slot, picking the alternative.
struct C2V1S1 : HdCfg<Vrr_head_decision_c2v1s1, Vrr_head_decision_c2v1s1___024root> {};
// C1V3S2 built from a copy of the RTL broken on purpose (CMakeLists.txt): an
// answer stays in its slot when a grant moves the slots up.
struct C1V3S2Broken : HdCfg<Vrr_head_decision_c1v3s2_broken, Vrr_head_decision_c1v3s2_broken___024root> {};

}  // namespace cfg

namespace {

using rtltest::Bits;
using rtltest::bit;
using rtltest::Dut;
using rtltest::Rng;

// A route as rr_input_port stores it with a decision (docs/architecture.md,
// "rr_input_port").
struct Route {
  unsigned port = 0;
  std::uint32_t vcs = 0;
  unsigned len = 0;
  unsigned alt_port = 0;
  std::uint32_t alt_vcs = 0;
  bool open = false;  // the choice between the route and the alternative is open
  unsigned operands = 0;
};

// The route word: {operands, open, alt_vcs, alt_port, len, vcs, port}, as
// rr_input_port writes it into its route FIFO (route_in) and
// rr_head_decision.sv's header states it. The fields are listed here once,
// LSB first, with their widths; every offset follows from the list.
class RouteLayout {
 public:
  enum Field : unsigned { kPort, kVcs, kLen, kAltPort, kAltVcs, kOpen, kOperands, kNumFields };

  explicit constexpr RouteLayout(const Shape &s) : width_{s.pw(), s.V, s.LEN_W, s.pw(), s.V, 1, s.DOW} {}

  constexpr unsigned width(Field f) const { return width_[f]; }
  constexpr unsigned lsb(Field f) const {
    unsigned at = 0;
    for (unsigned i = 0; i < f; ++i) at += width_[i];
    return at;
  }
  constexpr unsigned bits() const { return lsb(kNumFields); }

  // Writes `r` into bits [base, base + bits()) of `word`.
  void put(Bits &word, unsigned base, const Route &r) const {
    const auto set = [&](Field f, std::uint64_t value) { word.set(base + lsb(f), width(f), value); };
    set(kPort, r.port);
    set(kVcs, r.vcs);
    set(kLen, r.len);
    set(kAltPort, r.alt_port);
    set(kAltVcs, r.alt_vcs);
    set(kOpen, r.open);
    set(kOperands, r.operands);
  }

 private:
  std::array<unsigned, kNumFields> width_;
};

// What the decision unit drives: its answer (for CYCLES < 2 to this cycle's
// presentation, for CYCLES = 2 to the last cycle's).
struct Answer {
  bool alt = false;     // take the alternative (ANSWER_PORT: the VCs of the alternative, patch the header)
  unsigned choice = 0;  // ANSWER_PORT: the port
  unsigned patch = 0;   // ANSWER_PORT: the header field's value
};

struct Packet {
  std::uint64_t id = 0;
  Route route;
};
using Fifo = std::deque<Packet>;  // a VC's route FIFO, oldest first

// Ways to get the contract wrong, for the test that shows that the
// comparison notices.
enum class Variant {
  Contract,           // as documented
  RenewalsFirst,      // a packet never presented has no priority over a renewal
  RefusalKeepsTurn,   // a refused presentation keeps its VC's turn
  AnswerStaysInSlot,  // an answer goes to the place its packet had, not to the packet
  NoSameCycleAnswer,  // CYCLES = 0: the request waits for the registered answer
  FreshEveryTime,     // hd_fresh_o on renewals too
  RenewWhileDue,      // CYCLES = 2: the oldest packet renews while its answer is on its way
};

const char *variant_name(Variant v) {
  switch (v) {
    case Variant::Contract:
      return "contract";
    case Variant::RenewalsFirst:
      return "renewals first";
    case Variant::RefusalKeepsTurn:
      return "refusal keeps the turn";
    case Variant::AnswerStaysInSlot:
      return "answer stays in its slot";
    case Variant::NoSameCycleAnswer:
      return "no same-cycle answer";
    case Variant::FreshEveryTime:
      return "fresh every time";
    case Variant::RenewWhileDue:
      return "renewal while the answer is on its way";
  }
  return "?";
}

// The reference.
class Reference {
 public:
  struct Presented {
    bool valid = false;
    unsigned vc = 0;
    unsigned index = 0;  // the packet's place in its VC (0: the oldest)
    bool fresh = false;
  };
  struct Request {  // per VC: its oldest packet's request
    bool holds = false;  // the VC holds a route (the fields below are defined)
    bool req = false, alt = false;
    unsigned port = 0;
    std::uint32_t vcs = 0;
    unsigned field = 0;  // defined if alt
  };
  struct View {
    Presented hd;
    std::vector<Request> vc;
  };
  struct Counts {
    unsigned presented = 0, refused = 0, fresh = 0, renewals = 0, ahead = 0, third = 0;
    unsigned landed = 0, moved = 0, dropped = 0;
    unsigned fresh_over_renewal = 0;  // (cycle, VC) pairs: a fresh presentation went before the VC's renewal
  };

  Reference(const Shape &s, Variant variant) : s_(s), variant_(variant) {}

  void reset() {
    decided_.clear();
    accepted_.clear();
    due_.reset();
    turn_ = 0;
  }

  // What the block shows in a cycle: the VCs' routes, which VCs may ask,
  // whether the decision unit accepts, and what it answers in this cycle.
  View show(const std::vector<Fifo> &fifos, std::uint32_t eligible, bool ready, const Answer &now) const {
    const unsigned V = s_.V;
    View view;
    view.vc.resize(V);
    struct Want {
      bool any = false;
      unsigned index = 0;
      bool fresh = false;
    };
    std::vector<Want> want(V);
    for (unsigned v = 0; v < V; ++v) {
      const Fifo &q = fifos[v];
      const unsigned read = std::min<unsigned>(static_cast<unsigned>(q.size()), s_.SLOTS);
      const auto open = [&](unsigned k) { return k < read && q[k].route.open; };
      const auto owes = [&](unsigned k) { return open(k) && accepted_.count(q[k].id) == 0; };
      if (s_.CYCLES == 0) {
        if (bit(eligible, v) && owes(0)) want[v] = {true, 0, true};
        continue;
      }
      for (unsigned k = 0; k < read && !want[v].any; ++k) {
        if (owes(k)) want[v] = {true, k, true};
      }
      const bool answer_on_its_way =
          due_ && due_->id == (q.empty() ? 0 : q[0].id) && variant_ != Variant::RenewWhileDue;
      if (!want[v].any && open(0) && !answer_on_its_way) want[v] = {true, 0, false};
    }
    bool any_fresh = false;
    for (const Want &w : want) any_fresh = any_fresh || (w.any && w.fresh);
    const bool fresh_first = any_fresh && variant_ != Variant::RenewalsFirst;
    for (unsigned i = 0; i < V; ++i) {
      const unsigned v = (turn_ + i) % V;
      if (want[v].any && (!fresh_first || want[v].fresh)) {
        view.hd = {true, v, want[v].index, want[v].fresh || variant_ == Variant::FreshEveryTime};
        break;
      }
    }
    for (unsigned v = 0; v < V; ++v) {
      const Fifo &q = fifos[v];
      if (q.empty()) continue;
      const Route &r = q.front().route;
      std::optional<Answer> d;
      if (const auto it = decided_.find(q.front().id); it != decided_.end()) d = it->second;
      if (s_.CYCLES == 0 && !d && view.hd.valid && view.hd.vc == v && ready && variant_ != Variant::NoSameCycleAnswer) {
        d = now;
      }
      Request &out = view.vc[v];
      out.holds = true;
      out.req = bit(eligible, v) && (!r.open || d.has_value());
      out.alt = d && d->alt;
      if (s_.ANSWER_PORT) {
        out.port = d ? d->choice : r.port;
        out.field = d ? d->patch : 0;
      } else {
        out.port = out.alt ? r.alt_port : r.port;
        out.field = 1;
      }
      out.vcs = out.alt ? r.alt_vcs : r.vcs;
    }
    return view;
  }

  // The clock edge at the end of the cycle that `show` described: the
  // oldest packet of each VC in `granted` leaves (the FIFOs are as they were
  // in that cycle).
  void clock(const std::vector<Fifo> &fifos, const View &shown, std::uint32_t granted, bool ready, const Answer &now) {
    std::unordered_set<std::uint64_t> left;
    for (unsigned v = 0; v < s_.V; ++v) {
      if (bit(granted, v)) left.insert(fifos[v].front().id);
    }
    std::optional<Due> lands, next_due;
    if (shown.hd.valid) {
      const Presented &hd = shown.hd;
      const Packet &p = fifos[hd.vc][hd.index];
      ++counts_.presented;
      if (ready || variant_ != Variant::RefusalKeepsTurn) turn_ = (hd.vc + 1) % s_.V;
      if (!ready) {
        ++counts_.refused;
      } else {
        accepted_.insert(p.id);
        counts_.fresh += hd.fresh;
        counts_.renewals += !hd.fresh;
        counts_.ahead += hd.index > 0;
        counts_.third += hd.index == 2;
        Due d{p.id, hd.vc, hd.index, bit(granted, hd.vc)};
        if (s_.CYCLES == 2) {
          next_due = d;
        } else {
          lands = d;
        }
      }
      for (unsigned v = 0; v < s_.V; ++v) {
        counts_.fresh_over_renewal += hd.fresh && v != hd.vc && wants_renewal(fifos, v);
      }
    }
    if (s_.CYCLES == 2 && due_) {
      lands = due_;
      lands->moved = lands->moved || bit(granted, lands->vc);
    }
    if (lands) {
      std::optional<std::uint64_t> id = lands->id;
      if (variant_ == Variant::AnswerStaysInSlot) {
        // The packet at the place the presented one had, after this cycle's grant.
        const Fifo &q = fifos[lands->vc];
        const unsigned at = lands->index + (bit(granted, lands->vc) ? 1u : 0u);
        id = at < q.size() ? std::optional<std::uint64_t>(q[at].id) : std::nullopt;
      }
      if (id && left.count(*id) == 0 && packet_present(fifos, *id)) {
        decided_[*id] = now;
        ++counts_.landed;
        counts_.moved += lands->moved;
      } else {
        ++counts_.dropped;
      }
    }
    due_ = next_due;
    for (const std::uint64_t id : left) {
      decided_.erase(id);
      accepted_.erase(id);
    }
  }

  const Counts &counts() const { return counts_; }

 private:
  struct Due {  // an accepted presentation whose answer has not landed
    std::uint64_t id;
    unsigned vc, index;
    bool moved;  // a grant moved its packet up
  };

  static bool packet_present(const std::vector<Fifo> &fifos, std::uint64_t id) {
    for (const Fifo &q : fifos) {
      for (const Packet &p : q) {
        if (p.id == id) return true;
      }
    }
    return false;
  }

  // VC v could only renew (for the coverage count).
  bool wants_renewal(const std::vector<Fifo> &fifos, unsigned v) const {
    const Fifo &q = fifos[v];
    if (s_.CYCLES == 0 || q.empty() || !q[0].route.open || accepted_.count(q[0].id) == 0) return false;
    for (unsigned k = 1; k < std::min<unsigned>(static_cast<unsigned>(q.size()), s_.SLOTS); ++k) {
      if (q[k].route.open && accepted_.count(q[k].id) == 0) return false;
    }
    return !(due_ && due_->id == q[0].id);
  }

  const Shape s_;
  Variant variant_;
  std::unordered_map<std::uint64_t, Answer> decided_;  // each packet's registered decision
  std::unordered_set<std::uint64_t> accepted_;         // packets with an accepted presentation
  std::optional<Due> due_;                             // CYCLES = 2: the answer that arrives this cycle
  unsigned turn_ = 0;                                  // the VC first in line
  Counts counts_;
};

// The inputs of one cycle (the routes and counts are the test's FIFOs).
struct Drive {
  std::uint32_t eligible = 0;  // VCs that may ask (only VCs holding a route)
  bool ready = true;           // hd_ready_i
  Answer answer;
  std::uint32_t grant = 0;  // the VC allocator grants these VCs if they ask
  std::vector<std::optional<Route>> push;  // per VC: a route written at the clock edge
};

// The outputs the block showed (the RTL's, for the directed checks).
struct Shown {
  bool valid = false, fresh = false;
  unsigned port = 0, alt_port = 0, operands = 0;
  std::uint32_t req = 0, alt = 0, granted = 0;
  std::vector<unsigned> req_port, field;
  std::vector<std::uint32_t> req_vcs;
  Reference::Presented hd;  // the reference's presentation (which packet)
};

// Stimulus regimes: rates (percent) of route writes, open choices, accepted
// presentations, grants of a request, and the longest time a granted
// packet's flits keep its VC from asking again.
struct Regime {
  unsigned push, open, ready, grant, busy;
};
constexpr Regime kRegimes[] = {{70, 60, 100, 70, 2}, {90, 90, 50, 30, 4}, {30, 50, 90, 90, 0},
                               {95, 100, 20, 60, 1}, {50, 30, 80, 50, 6}, {100, 100, 100, 100, 0}};

// The test bench: the route FIFOs and the decision unit around the Verilated
// block, the reference beside it.
template <class Cfg>
class Bench {
 public:
  static constexpr Shape S = Cfg::kShape;
  static constexpr RouteLayout kLayout{S};
  static constexpr unsigned V = S.V;
  static constexpr unsigned PW = S.pw();

  explicit Bench(Variant variant = Variant::Contract) : ref_(S, variant) {
    fifos_.resize(V);
    busy_.assign(V, 0);
    reset();
  }

  void reset() {
    dut_.reset();
    ref_.reset();
  }

  // ---- stimulus ----
  Route random_route(unsigned open_percent) {
    Route r;
    r.port = static_cast<unsigned>(rng_.range(0, S.P - 1));
    r.vcs = static_cast<std::uint32_t>(rng_.range(1, rtltest::mask(V)));
    r.len = static_cast<unsigned>(rng_.bits(S.LEN_W));
    r.alt_port = static_cast<unsigned>(rng_.range(0, S.P - 1));
    r.alt_vcs = static_cast<std::uint32_t>(rng_.range(1, rtltest::mask(V)));
    r.open = rng_.chance(open_percent);
    r.operands = static_cast<unsigned>(rng_.bits(S.DOW));
    return r;
  }
  Answer random_answer() {
    return {rng_.chance(50), static_cast<unsigned>(rng_.range(0, S.P - 1)),
            static_cast<unsigned>(rng_.bits(S.PATCH_W))};
  }
  // VCs holding a route and not kept from asking by the flits of a granted packet.
  std::uint32_t may_ask() const {
    std::uint32_t e = 0;
    for (unsigned v = 0; v < V; ++v) e |= static_cast<std::uint32_t>(!fifos_[v].empty() && busy_[v] == 0) << v;
    return e;
  }
  // Inputs on which nothing happens: no VC may ask, nothing written, the
  // unit accepts, and the answer is noise.
  Drive quiet() {
    Drive d;
    d.answer = random_answer();
    d.push.resize(V);
    return d;
  }
  Drive random_drive(const Regime &r) {
    Drive d = quiet();
    d.eligible = may_ask();
    d.ready = rng_.chance(r.ready);
    for (unsigned v = 0; v < V; ++v) {
      if (rng_.chance(r.grant)) d.grant |= 1u << v;
      if (rng_.chance(r.push)) d.push[v] = random_route(r.open);
    }
    return d;
  }

  // ---- one cycle: drive, compare, grant, compare, clock ----
  // Returns the first output in which the RTL and the reference differ.
  std::optional<std::string> cycle(const Drive &d, const Regime &r = kRegimes[0]) {
    for (unsigned v = 0; v < V; ++v) {
      if (bit(d.eligible, v) && fifos_[v].empty()) {
        return at() + ": test bug: VC " + std::to_string(v) + " may ask without a route";
      }
    }
    // Routes: each VC's first SLOTS, anything beyond its count.
    Bits routes;
    for (unsigned v = 0; v < V; ++v) {
      for (unsigned k = 0; k < S.SLOTS; ++k) {
        const unsigned base = (v * S.SLOTS + k) * kLayout.bits();
        if (k < fifos_[v].size()) {
          kLayout.put(routes, base, fifos_[v][k].route);
        } else {
          routes.set(base, kLayout.bits(), rng_.bits(kLayout.bits()));
        }
      }
    }
    Bits counts;
    for (unsigned v = 0; v < V; ++v) counts.set(v * S.count_bits(), S.count_bits(), fifos_[v].size());
    rtltest::put_bits(dut_->routes_i, routes, V * S.SLOTS * kLayout.bits());
    rtltest::put_bits(dut_->count_i, counts, V * S.count_bits());
    rtltest::put(dut_->eligible_i, d.eligible);
    rtltest::put(dut_->hd_ready_i, d.ready);
    rtltest::put(dut_->hd_alt_i, d.answer.alt);
    rtltest::put(dut_->hd_choice_i, d.answer.choice);
    rtltest::put(dut_->hd_patch_i, d.answer.patch);
    rtltest::put(dut_->va_gnt_i, 0u);
    dut_.eval();
    const Reference::View view = ref_.show(fifos_, d.eligible, d.ready, d.answer);
    if (auto m = compare(view, d)) return m;
    // The allocator grants requests only; the outputs must not follow the grants.
    std::uint32_t granted = 0;
    for (unsigned v = 0; v < V; ++v) granted |= static_cast<std::uint32_t>(view.vc[v].req && bit(d.grant, v)) << v;
    rtltest::put(dut_->va_gnt_i, granted);
    dut_.eval();
    if (auto m = compare(view, d)) return *m + " (with this cycle's grants)";
    shown_ = read(view, granted);

    // Properties of the documentation that need no reference: of a
    // packet's accepted presentations only the first is fresh, and a packet
    // with an open choice is granted only after one.
    if (view.hd.valid && d.ready) {
      const Packet &p = fifos_[view.hd.vc][view.hd.index];
      unsigned &n = accepted_[p.id];
      if (shown_.fresh != (n == 0)) {
        return at() + ": hd_fresh_o of VC " + std::to_string(view.hd.vc) + " " + std::to_string(shown_.fresh) +
               " on accepted presentation " + std::to_string(n + 1) + " of its packet";
      }
      ++n;
    }
    for (unsigned v = 0; v < V; ++v) {
      if (!bit(granted, v)) continue;
      const Packet &p = fifos_[v].front();
      if (p.route.open && accepted_[p.id] == 0) {
        return at() + ": VC " + std::to_string(v) + "'s packet granted without an accepted presentation";
      }
      accepted_.erase(p.id);
      ++grants_;
      grants_alt_ += view.vc[v].alt;
      same_cycle_ += view.hd.valid && view.hd.vc == v && d.ready && p.route.open && S.CYCLES == 0;
    }

    dut_.tick();
    ref_.clock(fifos_, view, granted, d.ready, d.answer);
    for (unsigned v = 0; v < V; ++v) {
      if (bit(granted, v)) {
        fifos_[v].pop_front();
        busy_[v] = static_cast<unsigned>(rng_.range(0, r.busy));
      } else if (busy_[v] > 0) {
        --busy_[v];
      }
      if (d.push.size() > v && d.push[v]) {
        if (fifos_[v].size() < S.DEPTH) {
          fifos_[v].push_back({next_id_++, *d.push[v]});
        } else {
          ++full_;
        }
      }
    }
    ++cycle_;
    return std::nullopt;
  }

  // As cycle(), a fatal failure on a difference.
  void step(const Drive &d) {
    const std::optional<std::string> m = cycle(d);
    ASSERT_FALSE(m.has_value()) << *m;
  }

  std::string at() const { return "cycle " + std::to_string(cycle_); }

  std::optional<std::string> compare(const Reference::View &view, const Drive &d) {
    std::ostringstream context;
    context << " (presented: ";
    if (view.hd.valid) {
      context << "VC " << view.hd.vc << " packet " << view.hd.index << (view.hd.fresh ? " fresh" : " renewal");
    } else {
      context << "none";
    }
    context << "; hd_ready_i " << d.ready << ", eligible_i 0x" << std::hex << d.eligible << std::dec << ", counts";
    for (const Fifo &q : fifos_) context << ' ' << q.size();
    context << ')';
    const auto differ = [&](const char *output, int vc, std::uint64_t rtl,
                            std::uint64_t ref) -> std::optional<std::string> {
      if (rtl == ref) return std::nullopt;
      std::ostringstream s;
      s << at() << ": " << output;
      if (vc >= 0) s << " of VC " << vc;
      s << ": RTL " << rtl << ", reference " << ref << context.str();
      return s.str();
    };
    std::optional<std::string> m;
    const int presenting = view.hd.valid ? static_cast<int>(view.hd.vc) : -1;
    if ((m = differ("hd_valid_o", presenting, dut_->hd_valid_o, view.hd.valid))) return m;
    if (view.hd.valid) {
      const Route &r = fifos_[view.hd.vc][view.hd.index].route;
      const int vc = static_cast<int>(view.hd.vc);
      if ((m = differ("hd_fresh_o", vc, dut_->hd_fresh_o, view.hd.fresh))) return m;
      if ((m = differ("hd_port_o", vc, dut_->hd_port_o, r.port))) return m;
      if ((m = differ("hd_alt_port_o", vc, dut_->hd_alt_port_o, r.alt_port))) return m;
      if ((m = differ("hd_operands_o", vc, dut_->hd_operands_o, r.operands))) return m;
    }
    const Bits req_port = rtltest::get_bits(dut_->req_port_o, V * PW);
    const Bits req_vcs = rtltest::get_bits(dut_->req_vcs_o, V * V);
    const Bits field = rtltest::get_bits(dut_->field_o, V * S.PATCH_W);
    for (unsigned v = 0; v < V; ++v) {
      const Reference::Request &q = view.vc[v];
      const int vc = static_cast<int>(v);
      if ((m = differ("req_o", vc, bit(dut_->req_o, v), q.req))) return m;
      if (!q.holds) continue;
      if ((m = differ("alt_o", vc, bit(dut_->alt_o, v), q.alt))) return m;
      if ((m = differ("req_port_o", vc, req_port.get(v * PW, PW), q.port))) return m;
      if ((m = differ("req_vcs_o", vc, req_vcs.get(v * V, V), q.vcs))) return m;
      if (q.alt && (m = differ("field_o", vc, field.get(v * S.PATCH_W, S.PATCH_W), q.field))) return m;
    }
    return std::nullopt;
  }

  Shown read(const Reference::View &view, std::uint32_t granted) {
    Shown s;
    s.valid = dut_->hd_valid_o;
    s.fresh = dut_->hd_fresh_o;
    s.port = dut_->hd_port_o;
    s.alt_port = dut_->hd_alt_port_o;
    s.operands = dut_->hd_operands_o;
    s.req = dut_->req_o;
    s.alt = dut_->alt_o;
    s.granted = granted;
    s.hd = view.hd;
    const Bits req_port = rtltest::get_bits(dut_->req_port_o, V * PW);
    const Bits req_vcs = rtltest::get_bits(dut_->req_vcs_o, V * V);
    const Bits field = rtltest::get_bits(dut_->field_o, V * S.PATCH_W);
    for (unsigned v = 0; v < V; ++v) {
      s.req_port.push_back(static_cast<unsigned>(req_port.get(v * PW, PW)));
      s.req_vcs.push_back(static_cast<std::uint32_t>(req_vcs.get(v * V, V)));
      s.field.push_back(static_cast<unsigned>(field.get(v * S.PATCH_W, S.PATCH_W)));
    }
    return s;
  }

  // Random traffic for `cycles` cycles in changing regimes; the first
  // difference, if any.
  std::optional<std::string> random_run(unsigned cycles) {
    Regime r = kRegimes[0];
    for (unsigned c = 0; c < cycles; ++c) {
      if (c % 200 == 0) r = kRegimes[rng_.range(0, std::size(kRegimes) - 1)];
      if (auto m = cycle(random_drive(r), r)) return m;
    }
    return std::nullopt;
  }

  // A packet on VC v (written at once: the block sees it in the next cycle).
  Route put_packet(unsigned v, const Route &r) {
    fifos_[v].push_back({next_id_++, r});
    return r;
  }
  // A route with an open choice whose fields are all distinct from those of `n`.
  Route open_route(unsigned n) const {
    Route r;
    r.port = n % S.P;
    r.alt_port = (n + 1) % S.P;
    r.vcs = 1u;
    r.alt_vcs = V > 1 ? 2u : 1u;
    r.len = n & rtltest::mask(S.LEN_W);
    r.open = true;
    r.operands = static_cast<unsigned>((n + 3) & rtltest::mask(S.DOW));
    return r;
  }

  Dut<typename Cfg::Model> dut_;
  Reference ref_;
  Rng rng_{0x4EADu + S.P * 7 + V * 3 + S.CYCLES};
  std::vector<Fifo> fifos_;
  std::vector<unsigned> busy_;  // cycles until a VC may ask again
  std::uint64_t next_id_ = 1;
  std::uint64_t cycle_ = 0;
  Shown shown_;
  std::unordered_map<std::uint64_t, unsigned> accepted_;  // accepted presentations per packet
  unsigned grants_ = 0, grants_alt_ = 0, same_cycle_ = 0, full_ = 0;
};

template <class Cfg>
class HeadDecisionTest : public ::testing::Test, public Bench<Cfg> {};

// Test names from the parameters as built: C<CYCLES>V<V>S<SLOTS>, A if the
// answer names the port.
struct CfgName {
  template <class T>
  static std::string GetName(int) {
    constexpr Shape s = T::kShape;
    return "C" + std::to_string(s.CYCLES) + "V" + std::to_string(s.V) + "S" + std::to_string(s.SLOTS) +
           (s.ANSWER_PORT ? "A" : "");
  }
};

using HdCfgs = ::testing::Types<cfg::C0V3S1, cfg::C0V1S2, cfg::C1V3S2, cfg::C1V1S1, cfg::C1V3S2A, cfg::C2V2S3A,
                                cfg::C2V3S2A, cfg::C2V1S1>;
TYPED_TEST_SUITE(HeadDecisionTest, HdCfgs, CfgName);

TYPED_TEST(HeadDecisionTest, ParametersAsBuilt) {
  constexpr Shape S = TestFixture::S;
  // The documented route layout is the RTL's ({operands, open, alt_vcs,
  // alt_port, len, vcs, port}: BRW + PW + V + 1 + DOW bits).
  EXPECT_EQ(TestFixture::kLayout.bits(), TypeParam::kRtlRouteBits);
  EXPECT_EQ(TestFixture::kLayout.lsb(RouteLayout::kAltPort), S.LEN_W + S.V + S.pw()) << "BRW";
  EXPECT_EQ(S.count_bits(), TypeParam::kRtlCountBits);
  // As rr_input_port builds it: one slot in front of the allocator (here also
  // two, which it does not build), up to two registered, three with late answers.
  EXPECT_LE(S.SLOTS, S.DEPTH);
  EXPECT_LE(S.SLOTS, S.CYCLES == 2 ? 3u : 2u);
  EXPECT_TRUE(S.CYCLES != 0 || !S.ANSWER_PORT) << "not supported by the RTL (see the header)";
}

TYPED_TEST(HeadDecisionTest, ResetClearsRandomInitialState) {
  // The registers start from random values (--x-initial unique); after reset
  // no packet has a decision or an answer on its way, and VC 0 is first in
  // line.
  constexpr unsigned V = TestFixture::V;
  for (unsigned v = 0; v < V; ++v) this->put_packet(v, this->open_route(v));
  Drive d = this->quiet();
  d.eligible = static_cast<std::uint32_t>(rtltest::mask(V));
  d.ready = false;
  ASSERT_NO_FATAL_FAILURE(this->step(d));
  EXPECT_TRUE(this->shown_.valid && this->shown_.fresh);
  EXPECT_EQ(this->shown_.port, this->fifos_[0].front().route.port) << "VC 0 first";
  EXPECT_EQ(this->shown_.req, 0u) << "no VC has a decision";
}

// Random traffic against the reference, every output every cycle.
TYPED_TEST(HeadDecisionTest, RandomAgainstReference) {
  constexpr Shape S = TestFixture::S;
  constexpr unsigned kCycles = 20000;
  const std::optional<std::string> m = this->random_run(kCycles);
  ASSERT_FALSE(m.has_value()) << *m;
  const Reference::Counts &c = this->ref_.counts();
  std::cout << "[ info ] " << kCycles << " cycles: " << c.presented << " presentations (" << c.refused << " refused, "
            << c.fresh << " fresh, " << c.renewals << " renewals, " << c.ahead << " ahead, " << c.third
            << " of the third packet), answers " << c.landed << " registered (" << c.moved << " moved up) and "
            << c.dropped << " dropped; fresh before a renewal " << c.fresh_over_renewal << "; " << this->grants_
            << " grants (" << this->grants_alt_ << " alternative, " << this->same_cycle_
            << " in the answer's cycle); FIFO full " << this->full_ << "\n";
  // Coverage of what the contract distinguishes.
  EXPECT_GT(c.presented, kCycles / 4);
  EXPECT_GT(c.refused, 500u);
  EXPECT_GT(c.fresh, 1000u);
  EXPECT_GT(this->grants_, 2000u);
  EXPECT_GT(this->grants_alt_, 500u);
  EXPECT_GT(this->full_, 100u);
  if (S.CYCLES == 0) {
    EXPECT_GT(this->same_cycle_, 500u);
  } else {
    EXPECT_GT(c.renewals, 1000u);
  }
  if (S.CYCLES == 0 || S.SLOTS == 1) {
    EXPECT_EQ(c.ahead, 0u);
  } else {
    EXPECT_GT(c.ahead, 500u);
    EXPECT_GT(c.moved, 100u);
  }
  if (S.SLOTS == 3) {
    EXPECT_GT(c.third, 100u);
  }
  if (S.CYCLES != 0) {
    EXPECT_GT(c.dropped, 100u) << "answers for a packet granted before they registered";
  }
  if (S.CYCLES != 0 && S.V > 1) {
    EXPECT_GT(c.fresh_over_renewal, 200u);
  }
}

// Reset in the middle of traffic, with routes still in the FIFOs: every
// decision is gone and every open packet presents afresh.
TYPED_TEST(HeadDecisionTest, ResetMidTrafficForgetsEveryDecision) {
  for (unsigned round = 0; round < 3; ++round) {
    const std::optional<std::string> m = this->random_run(700);
    ASSERT_FALSE(m.has_value()) << "round " << round << ": " << *m;
    this->reset();
    this->accepted_.clear();
  }
  const std::optional<std::string> m = this->random_run(700);
  ASSERT_FALSE(m.has_value()) << *m;
}

// A refused presentation (hd_ready_i low) presents the same packet again, and
// only its first accepted presentation is fresh; the request waits for the
// decision.
TYPED_TEST(HeadDecisionTest, RefusedPresentationPresentsAgain) {
  constexpr Shape S = TestFixture::S;
  const Route r = this->put_packet(0, this->open_route(5));
  Drive d = this->quiet();
  d.eligible = 1;
  for (unsigned c = 0; c < 3; ++c) {
    d.ready = false;
    ASSERT_NO_FATAL_FAILURE(this->step(d));
    EXPECT_TRUE(this->shown_.valid) << "refusal " << c;
    EXPECT_TRUE(this->shown_.fresh) << "refusal " << c;
    EXPECT_EQ(this->shown_.port, r.port);
    EXPECT_EQ(this->shown_.alt_port, r.alt_port);
    EXPECT_EQ(this->shown_.operands, r.operands);
    EXPECT_EQ(this->shown_.req, 0u) << "no request before a decision";
  }
  // Accepted: the alternative.
  d.ready = true;
  d.answer = {true, 2 % S.P, 1};
  ASSERT_NO_FATAL_FAILURE(this->step(d));
  EXPECT_TRUE(this->shown_.valid && this->shown_.fresh);
  EXPECT_EQ(this->shown_.req, S.CYCLES == 0 ? 1u : 0u) << "CYCLES = 0: the answer counts at once";
  if (S.CYCLES == 2) {
    // The answer comes now; the packet is not presented again meanwhile.
    ASSERT_NO_FATAL_FAILURE(this->step(d));
    EXPECT_FALSE(this->shown_.valid) << "presented while its answer is on its way";
    EXPECT_EQ(this->shown_.req, 0u);
  }
  // From now on it asks with the alternative; renewals are not fresh.
  unsigned presented = 0;
  for (unsigned c = 0; c < 6; ++c) {
    d.answer = {true, 2 % S.P, 1};
    ASSERT_NO_FATAL_FAILURE(this->step(d));
    EXPECT_EQ(this->shown_.req, 1u) << "cycle " << c;
    EXPECT_EQ(this->shown_.alt, 1u) << "cycle " << c;
    EXPECT_EQ(this->shown_.req_vcs[0], r.alt_vcs);
    EXPECT_EQ(this->shown_.req_port[0], S.ANSWER_PORT ? 2 % S.P : r.alt_port);
    EXPECT_EQ(this->shown_.field[0], 1u) << "the answer's patch value, or 1";
    EXPECT_FALSE(this->shown_.valid && this->shown_.fresh) << "fresh twice, cycle " << c;
    presented += this->shown_.valid;
  }
  if (S.CYCLES == 0) {
    EXPECT_EQ(presented, 0u) << "a decided packet is not presented again";
  } else {
    EXPECT_EQ(presented, S.CYCLES == 1 ? 6u : 3u) << "renewals (CYCLES = 2: not while an answer is on its way)";
  }
}

// CYCLES = 0: the answer counts for the request of the same cycle; a packet
// granted in that cycle leaves with it, one not granted keeps it.
template <class Cfg>
class HeadDecisionSameCycleTest : public HeadDecisionTest<Cfg> {};
using SameCycleCfgs = ::testing::Types<cfg::C0V3S1, cfg::C0V1S2>;
TYPED_TEST_SUITE(HeadDecisionSameCycleTest, SameCycleCfgs, CfgName);

TYPED_TEST(HeadDecisionSameCycleTest, AnswerCountsForTheSameCyclesRequest) {
  static_assert(TestFixture::S.CYCLES == 0);
  const Route a = this->put_packet(0, this->open_route(1));
  const Route b = this->put_packet(0, this->open_route(2));
  Drive d = this->quiet();
  d.eligible = 1;
  d.answer.alt = true;
  d.grant = 1;
  ASSERT_NO_FATAL_FAILURE(this->step(d));
  EXPECT_TRUE(this->shown_.valid);
  EXPECT_EQ(this->shown_.granted, 1u) << "asks in the cycle of its answer";
  EXPECT_EQ(this->shown_.alt, 1u);
  EXPECT_EQ(this->shown_.req_port[0], a.alt_port);
  EXPECT_EQ(this->shown_.req_vcs[0], a.alt_vcs);
  // The second packet: refused, then the minimal route without a grant, kept.
  d.ready = false;
  ASSERT_NO_FATAL_FAILURE(this->step(d));
  EXPECT_TRUE(this->shown_.valid && this->shown_.fresh);
  EXPECT_EQ(this->shown_.req, 0u) << "a refused presentation decides nothing";
  d.ready = true;
  d.answer.alt = false;
  d.grant = 0;
  ASSERT_NO_FATAL_FAILURE(this->step(d));
  EXPECT_EQ(this->shown_.req, 1u);
  EXPECT_EQ(this->shown_.alt, 0u);
  EXPECT_EQ(this->shown_.req_port[0], b.port);
  d.answer.alt = true;  // no presentation: ignored
  ASSERT_NO_FATAL_FAILURE(this->step(d));
  EXPECT_FALSE(this->shown_.valid);
  EXPECT_EQ(this->shown_.req, 1u);
  EXPECT_EQ(this->shown_.alt, 0u) << "the kept decision, not this cycle's hd_alt_i";
  EXPECT_EQ(this->shown_.req_vcs[0], b.vcs);
}

// CYCLES > 0 with two or more slots: the packet behind the oldest decides
// ahead, and when the oldest is granted every slot moves up with its
// decision: the second packet asks at once with its own answer, and an
// answer for the packet granted meanwhile is dropped.
template <class Cfg>
class HeadDecisionAheadTest : public HeadDecisionTest<Cfg> {};
using AheadCfgs = ::testing::Types<cfg::C1V3S2, cfg::C1V3S2A, cfg::C2V2S3A, cfg::C2V3S2A>;
TYPED_TEST_SUITE(HeadDecisionAheadTest, AheadCfgs, CfgName);

TYPED_TEST(HeadDecisionAheadTest, GrantMovesTheSlotsUp) {
  constexpr Shape S = TestFixture::S;
  static_assert(S.CYCLES != 0 && S.SLOTS >= 2);
  const Route a = this->put_packet(0, this->open_route(1));
  const Route b = this->put_packet(0, this->open_route(2));
  const Answer for_a{true, 3 % S.P, 1}, for_b{false, 1 % S.P, 0};
  Drive d = this->quiet();
  d.eligible = 1;
  // Cycle 0: A presented (fresh); CYCLES = 1 answers now, CYCLES = 2 in the
  // next cycle (this cycle's answer inputs are noise).
  if (S.CYCLES == 1) d.answer = for_a;
  ASSERT_NO_FATAL_FAILURE(this->step(d));
  ASSERT_TRUE(this->shown_.valid && this->shown_.fresh && this->shown_.port == a.port) << "A presented";
  if (S.CYCLES == 2) {
    // Cycle 1: A's answer arrives; meanwhile B is presented ahead, and A
    // does not ask yet.
    d.answer = for_a;
    ASSERT_NO_FATAL_FAILURE(this->step(d));
    ASSERT_TRUE(this->shown_.valid && this->shown_.fresh && this->shown_.port == b.port) << "B decides ahead";
    EXPECT_EQ(this->shown_.req, 0u) << "no request with an answer on its way";
    // Cycle 2: B's answer arrives as A asks with its decision and is granted;
    // A is renewed meanwhile (that answer comes next cycle and is dropped).
    d.answer = for_b;
    d.grant = 1;
    ASSERT_NO_FATAL_FAILURE(this->step(d));
    EXPECT_TRUE(this->shown_.valid && !this->shown_.fresh && this->shown_.port == a.port) << "A renewed";
  } else {
    // Cycle 1: A asks with its decision and is granted while B, presented
    // ahead, is answered.
    d.answer = for_b;
    d.grant = 1;
    ASSERT_NO_FATAL_FAILURE(this->step(d));
    EXPECT_TRUE(this->shown_.valid && this->shown_.fresh && this->shown_.port == b.port) << "B decides ahead";
  }
  EXPECT_EQ(this->shown_.granted, 1u);
  EXPECT_EQ(this->shown_.alt, 1u);
  EXPECT_EQ(this->shown_.req_port[0], S.ANSWER_PORT ? for_a.choice : a.alt_port);
  EXPECT_EQ(this->shown_.req_vcs[0], a.alt_vcs);
  // B is the oldest now and asks with its own answer at once.
  d.grant = 0;
  d.answer = this->random_answer();
  ASSERT_NO_FATAL_FAILURE(this->step(d));
  EXPECT_EQ(this->shown_.req, 1u) << "B asks with the decision it took ahead";
  EXPECT_EQ(this->shown_.alt, 0u);
  EXPECT_EQ(this->shown_.req_port[0], S.ANSWER_PORT ? for_b.choice : b.port);
  EXPECT_EQ(this->shown_.req_vcs[0], b.vcs);
  EXPECT_TRUE(this->shown_.valid && !this->shown_.fresh && this->shown_.port == b.port) << "B renewed";
  EXPECT_GE(this->ref_.counts().dropped, S.CYCLES == 2 ? 1u : 0u);
}

// CYCLES = 2: while a packet's answer is on its way the VC presents the
// packet behind it, so no packet is fresh twice, and with enough slots the
// VC presents a fresh packet in every cycle.
template <class Cfg>
class HeadDecisionLateTest : public HeadDecisionTest<Cfg> {};
using LateCfgs = ::testing::Types<cfg::C2V2S3A, cfg::C2V3S2A, cfg::C2V1S1>;
TYPED_TEST_SUITE(HeadDecisionLateTest, LateCfgs, CfgName);

TYPED_TEST(HeadDecisionLateTest, NoPacketIsFreshTwice) {
  constexpr Shape S = TestFixture::S;
  static_assert(S.CYCLES == 2);
  std::vector<unsigned> ports;
  for (unsigned k = 0; k < S.SLOTS; ++k) ports.push_back(this->put_packet(0, this->open_route(k)).port);
  Drive d = this->quiet();
  std::vector<unsigned> fresh_ports;
  std::vector<bool> valid;
  for (unsigned c = 0; c < 8; ++c) {
    d.answer = this->random_answer();
    ASSERT_NO_FATAL_FAILURE(this->step(d));
    valid.push_back(this->shown_.valid);
    if (this->shown_.valid && this->shown_.fresh) fresh_ports.push_back(this->shown_.port);
  }
  EXPECT_EQ(fresh_ports, ports) << "each packet fresh once, oldest first, in consecutive cycles";
  for (unsigned c = 0; c < S.SLOTS; ++c) EXPECT_TRUE(valid[c]) << "cycle " << c;
  // Then renewals of the oldest, every other cycle (not while its answer is
  // on its way); no other VC holds a route.
  for (unsigned c = S.SLOTS; c + 1 < valid.size(); ++c) EXPECT_NE(valid[c], valid[c + 1]) << "cycle " << c;
}

// The comparison catches contracts got wrong: each variant of the reference
// against the RTL differs within a few thousand cycles.
TYPED_TEST(HeadDecisionTest, ReferenceVariantsAreCaught) {
  constexpr Shape S = TestFixture::S;
  std::vector<Variant> variants;
  if (S.V > 1) variants.push_back(Variant::RefusalKeepsTurn);  // one VC: no turn to keep
  if (S.V > 1 && S.CYCLES != 0) variants.push_back(Variant::RenewalsFirst);
  if (S.CYCLES != 0 && S.SLOTS > 1) variants.push_back(Variant::AnswerStaysInSlot);
  if (S.CYCLES == 0) variants.push_back(Variant::NoSameCycleAnswer);
  if (S.CYCLES != 0) variants.push_back(Variant::FreshEveryTime);
  if (S.CYCLES == 2) variants.push_back(Variant::RenewWhileDue);
  for (const Variant v : variants) {
    Bench<TypeParam> run(v);
    const std::optional<std::string> m = run.random_run(5000);
    EXPECT_TRUE(m.has_value()) << variant_name(v) << ": not caught";
    if (m) std::cout << "[ info ] " << variant_name(v) << ": " << *m << "\n";
  }
}

// A copy of the RTL broken on purpose (CMakeLists.txt: an answer no longer
// follows its packet when a grant moves the slots up) differs from the
// reference, and the difference names the cycle, the output and the VC.
class HeadDecisionBrokenRtlTest : public HeadDecisionTest<cfg::C1V3S2Broken> {};

TEST_F(HeadDecisionBrokenRtlTest, ComparisonCatchesTheBrokenCopy) {
  const std::optional<std::string> m = random_run(20000);
  ASSERT_TRUE(m.has_value()) << "the broken RTL went unnoticed";
  std::cout << "[ info ] " << *m << "\n";
  EXPECT_EQ(m->rfind("cycle ", 0), 0u) << "names the cycle";
  EXPECT_NE(m->find("_o"), std::string::npos) << "names the output";
}

}  // namespace
