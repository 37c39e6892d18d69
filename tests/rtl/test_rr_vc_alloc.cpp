// Block test for rtl/rr_vc_alloc.sv (separable input-first VC allocator for
// virtual cut-through, round-robin over a port's VCs in stage 1, hand-over of
// a releasing output VC to one successor; with G > 1 up to G single-flit
// packets per output VC and cycle; with SPEC, gnt_free_o: the grants of
// output VCs no packet holds; REQ_MAP: only the requests the routing
// relation can make) against a C++ model, plus model-independent checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "Vrr_vc_alloc_p3v2.h"
#include "Vrr_vc_alloc_p4v2g2.h"
#include "Vrr_vc_alloc_p5v3.h"
#include "Vrr_vc_alloc_p3v3g3.h"
#include "Vrr_vc_alloc_p4v2g2m.h"
#include "Vrr_vc_alloc_p5v2m.h"
#include "vtb.hpp"

// Parameter sets (one Verilated model each); the struct names appear in the
// CTest test names.
namespace cfg {

constexpr unsigned clog2(unsigned n) {
  unsigned w = 0;
  while ((1u << w) < n) ++w;
  return w;
}

template <class M, unsigned P_, unsigned V_, unsigned LEN_W_, unsigned CREDIT_CNT_W_, unsigned G_ = 1,
          bool SPEC_ = false>
struct VaCfg {
  using Model = M;
  static constexpr unsigned P = P_, V = V_, LEN_W = LEN_W_, CREDIT_CNT_W = CREDIT_CNT_W_, G = G_;
  static constexpr bool SPEC = SPEC_;  // gnt_free_o built
  static constexpr unsigned R = P * V;
  static constexpr unsigned PW = P > 1 ? clog2(P) : 1;
  static constexpr unsigned VCW = V > 1 ? clog2(V) : 1;
  static constexpr unsigned GW = clog2(G + 1);
  // REQ_MAP: input VC r can request output VC o (all of them by default).
  static constexpr bool kMapped = false;
  static constexpr bool may(unsigned /*o*/, unsigned /*r*/) { return true; }
};

// The REQ_MAP of the *M models (tests/rtl/CMakeLists.txt passes it as a
// literal; RandomAgainstModel fails if the two differ): output VC 0 has no
// possible requester, output VC 1 one (input VC 2); else input VC (p, w) may
// request output VC (q, x) if q != p (no U-turn) and x >= w (VC level never
// falls).
template <class Base>
struct Mapped : Base {
  static constexpr bool kMapped = true;
  static constexpr bool may(unsigned o, unsigned r) {
    if (o == 0) return false;
    if (o == 1) return r == 2;
    return o / Base::V != r / Base::V && o % Base::V >= r % Base::V;
  }
};

struct P3V2 : VaCfg<Vrr_vc_alloc_p3v2, 3, 2, 3, 4> {};
struct P5V3 : VaCfg<Vrr_vc_alloc_p5v3, 5, 3, 3, 4, 1, true> {};
// Up to 2 and 3 single-flit packets per output VC and cycle.
struct P4V2G2 : VaCfg<Vrr_vc_alloc_p4v2g2, 4, 2, 3, 4, 2, true> {};
struct P3V3G3 : VaCfg<Vrr_vc_alloc_p3v3g3, 3, 3, 3, 4, 3> {};
// With a REQ_MAP.
struct P4V2G2M : Mapped<VaCfg<Vrr_vc_alloc_p4v2g2m, 4, 2, 3, 4, 2, true>> {};
struct P5V2M : Mapped<VaCfg<Vrr_vc_alloc_p5v2m, 5, 2, 3, 4, 1, true>> {};

}  // namespace cfg

namespace {

using VaCfgs = ::testing::Types<cfg::P3V2, cfg::P5V3, cfg::P4V2G2, cfg::P3V3G3, cfg::P4V2G2M, cfg::P5V2M>;

using rtltest::bit;
using rtltest::Dut;
using rtltest::field;
using rtltest::Rng;
using rtltest::set_field;

// Inputs of one cycle. Indices: input VC r (0..R-1); output VC o = port*V + vc.
struct VaIn {
  std::vector<bool> req;
  std::vector<unsigned> port, vcs, len;  // per input VC (vcs: mask of allowed VCs)
  std::vector<bool> rel;                 // per input VC: its tail is at the front of its buffer,
  std::vector<unsigned> own_port, own_vc;  // and it holds output VC own_port*V + own_vc
  std::vector<bool> busy;                // per output VC
  std::vector<bool> handover;            // per output VC: allocated to a successor already
  std::vector<unsigned> credits;         // per output VC
  std::vector<unsigned> singles;         // per output VC: single-flit packets allocated, not sent (G > 1)
  explicit VaIn(unsigned r)
      : req(r), port(r), vcs(r), len(r), rel(r), own_port(r), own_vc(r), busy(r), handover(r), credits(r), singles(r) {}
};

struct VaOut {
  std::uint64_t gnt = 0;
  std::vector<unsigned> gnt_vc;  // valid where gnt is set
  std::uint64_t gnt_free = 0;    // granted an output VC no packet holds (speculation may stand)
  std::uint64_t alloc = 0;
  std::vector<unsigned> alloc_n;  // per output VC: single-flit packets allocated (G > 1)
};

template <class Cfg>
class VaModel {
 public:
  static constexpr unsigned R = Cfg::R, V = Cfg::V, P = Cfg::P, G = Cfg::G;

  // A single-flit packet may share its output VC with others (G > 1).
  static bool single(const VaIn& in, unsigned r) { return G > 1 && in.len[r] == 1; }

  // Output VC o is busy, but some input VC holds it with its tail at the
  // front and it has no successor yet: any requester may take it over.
  static bool releasing(const VaIn& in, unsigned o) {
    if (!in.busy[o] || in.handover[o]) return false;
    for (unsigned s = 0; s < R; ++s) {
      if (Cfg::may(o, s) && in.rel[s] && in.own_port[s] * V + in.own_vc[s] == o) return true;
    }
    return false;
  }
  // A busy VC (releasing) needs one credit more: its holder's tail; and one
  // per single-flit packet allocated to it and not sent. A multi-flit packet
  // needs a VC without single-flit holders too.
  static bool eligible(const VaIn& in, unsigned r, unsigned w) {
    const unsigned o = in.port[r] * V + w;
    const unsigned singles = G > 1 ? in.singles[o] : 0;
    const bool free = single(in, r) ? !in.busy[o] : !in.busy[o] && singles == 0;
    return in.req[r] && bit(in.vcs[r], w) && Cfg::may(o, r) && (free || releasing(in, o)) &&
           in.credits[o] >= in.len[r] + in.busy[o] + singles;
  }
  // Stage 1: the output VC input r bids for, or -1: the first eligible VC at
  // or after the port's pointer, else the first eligible one.
  int pick(const VaIn& in, unsigned r) const {
    const unsigned q = in.port[r];
    for (unsigned w = ptr_vc_[q]; w < V; ++w) {
      if (eligible(in, r, w)) return static_cast<int>(q * V + w);
    }
    for (unsigned w = 0; w < V; ++w) {
      if (eligible(in, r, w)) return static_cast<int>(q * V + w);
    }
    return -1;
  }

  // Stage 2: per output VC, round-robin over its bidders; with G > 1, after
  // a single-flit winner on a VC no multi-flit packet holds, up to G - 1 more
  // single-flit bidders in round-robin order, each with credits for all.
  // wins[o] = the winners in that order (the first is the round-robin one).
  std::vector<std::vector<unsigned>> winners(const VaIn& in) const {
    std::vector<std::vector<unsigned>> wins(R);
    std::vector<int> picks(R);
    for (unsigned r = 0; r < R; ++r) picks[r] = pick(in, r);
    for (unsigned o = 0; o < R; ++o) {
      for (unsigned i = 0; i < R; ++i) {
        const unsigned r = (ptr_[o] + i) % R;
        if (picks[r] != static_cast<int>(o)) continue;
        if (wins[o].empty()) {
          wins[o].push_back(r);
          if (!single(in, r) || in.busy[o]) break;
        } else if (wins[o].size() < G && single(in, r) && in.credits[o] >= in.singles[o] + wins[o].size() + 1) {
          wins[o].push_back(r);
        }
      }
    }
    return wins;
  }

  VaOut eval(const VaIn& in) const {
    VaOut out;
    out.gnt_vc.assign(R, 0);
    out.alloc_n.assign(R, 0);
    const std::vector<std::vector<unsigned>> wins = winners(in);
    for (unsigned o = 0; o < R; ++o) {
      if (wins[o].empty()) continue;
      out.alloc |= std::uint64_t{1} << o;
      for (const unsigned r : wins[o]) {
        out.gnt |= std::uint64_t{1} << r;
        out.gnt_vc[r] = o % V;
      }
      if (single(in, wins[o].front())) out.alloc_n[o] = static_cast<unsigned>(wins[o].size());
    }
    return out;
  }

  void clock(const VaIn& in) {
    const std::vector<std::vector<unsigned>> wins = winners(in);
    std::vector<int> win(R, -1);  // any winner, for the stage-1 pointers
    for (unsigned o = 0; o < R; ++o) {
      if (wins[o].empty()) continue;
      win[o] = static_cast<int>(wins[o].front());
      ptr_[o] = (wins[o].back() + 1) % R;  // past the last one granted
    }
    // A port's pointer moves past the first VC at or after it that was
    // allocated (else past the lowest allocated one); after the last VC it
    // wraps to VC 0.
    for (unsigned q = 0; q < P; ++q) {
      int winner = -1;
      for (unsigned w = ptr_vc_[q]; w < V && winner < 0; ++w) {
        if (win[q * V + w] >= 0) winner = static_cast<int>(w);
      }
      for (unsigned w = 0; w < V && winner < 0; ++w) {
        if (win[q * V + w] >= 0) winner = static_cast<int>(w);
      }
      if (winner >= 0) ptr_vc_[q] = static_cast<unsigned>(winner) + 1 == V ? 0 : static_cast<unsigned>(winner) + 1;
    }
  }

  void reset() {
    ptr_.assign(R, 0);
    ptr_vc_.assign(P, 0);
  }

 private:
  std::vector<unsigned> ptr_ = std::vector<unsigned>(R, 0);     // stage 2, per output VC
  std::vector<unsigned> ptr_vc_ = std::vector<unsigned>(P, 0);  // stage 1, per output port
};

template <class Cfg>
class VcAllocTest : public ::testing::Test {
 protected:
  static constexpr unsigned P = Cfg::P, V = Cfg::V, R = Cfg::R, PW = Cfg::PW, VCW = Cfg::VCW;
  static constexpr unsigned LEN_W = Cfg::LEN_W, CREDIT_CNT_W = Cfg::CREDIT_CNT_W, G = Cfg::G;

  VcAllocTest() { dut_.reset(); }

  VaIn idle() const {
    VaIn in(R);
    for (unsigned o = 0; o < R; ++o) in.credits[o] = rtltest::mask(CREDIT_CNT_W);
    return in;
  }

  void drive(const VaIn& in) {
    std::uint64_t req = 0, port = 0, vcs = 0, len = 0, busy = 0, handover = 0, credits = 0, rel = 0, own_port = 0,
                  own_vc = 0, singles = 0;
    for (unsigned r = 0; r < R; ++r) {
      set_field(req, r, 1, in.req[r]);
      set_field(port, r * PW, PW, in.port[r]);
      set_field(vcs, r * V, V, in.vcs[r]);
      set_field(len, r * LEN_W, LEN_W, in.len[r]);
      set_field(rel, r, 1, in.rel[r]);
      set_field(own_port, r * PW, PW, in.own_port[r]);
      set_field(own_vc, r * VCW, VCW, in.own_vc[r]);
    }
    for (unsigned o = 0; o < R; ++o) {
      set_field(busy, o, 1, in.busy[o]);
      set_field(handover, o, 1, in.handover[o]);
      set_field(credits, o * CREDIT_CNT_W, CREDIT_CNT_W, in.credits[o]);
      set_field(singles, o * CREDIT_CNT_W, CREDIT_CNT_W, in.singles[o]);
    }
    rtltest::put(dut_->req_i, req);
    rtltest::put(dut_->port_i, port);
    rtltest::put(dut_->vcs_i, vcs);
    rtltest::put(dut_->len_i, len);
    rtltest::put(dut_->rel_i, rel);
    rtltest::put(dut_->own_port_i, own_port);
    rtltest::put(dut_->own_vc_i, own_vc);
    rtltest::put(dut_->busy_i, busy);
    rtltest::put(dut_->handover_i, handover);
    rtltest::put(dut_->credits_i, credits);
    rtltest::put(dut_->singles_i, singles);
    dut_.eval();
  }

  VaOut read() {
    VaOut out;
    out.gnt = dut_->gnt_o;
    out.alloc = dut_->alloc_o;
    out.gnt_free = dut_->gnt_free_o;
    const std::uint64_t gv = dut_->gnt_vc_o;
    for (unsigned r = 0; r < R; ++r) out.gnt_vc.push_back(static_cast<unsigned>(field(gv, r * VCW, VCW)));
    const std::uint64_t an = dut_->alloc_n_o;
    for (unsigned o = 0; o < R; ++o) out.alloc_n.push_back(static_cast<unsigned>(field(an, o * Cfg::GW, Cfg::GW)));
    return out;
  }

  // Model-independent checks of one cycle's outputs.
  void check_properties(const VaIn& in, const VaOut& out) {
    const auto cyc = dut_.cycle();
    std::uint64_t granted_ovcs = 0;
    std::vector<unsigned> grants_of(R, 0), multi_of(R, 0);  // per output VC
    bool any_eligible = false;
    EXPECT_EQ(out.gnt_free & ~out.gnt, 0u) << "gnt_free_o without a grant, cycle " << cyc;
    for (unsigned r = 0; r < R; ++r) {
      for (unsigned w = 0; w < V; ++w) any_eligible |= VaModel<Cfg>::eligible(in, r, w);
      if (!bit(out.gnt, r)) continue;
      const unsigned w = out.gnt_vc[r];
      ASSERT_LT(w, V) << "input " << r << " granted a VC that does not exist, cycle " << cyc;
      const unsigned o = in.port[r] * V + w;
      EXPECT_EQ(bit(out.gnt_free, r), Cfg::SPEC && !in.busy[o])
          << "gnt_free_o of input " << r << ": output VC " << o << " busy " << in.busy[o] << ", cycle " << cyc;
      EXPECT_TRUE(in.req[r]) << "grant to non-requesting input " << r << ", cycle " << cyc;
      EXPECT_TRUE(bit(in.vcs[r], w)) << "input " << r << " granted VC " << w << " outside its mask, cycle " << cyc;
      EXPECT_TRUE(Cfg::may(o, r)) << "input " << r << " granted output VC " << o << " outside REQ_MAP, cycle " << cyc;
      EXPECT_TRUE(!in.busy[o] || VaModel<Cfg>::releasing(in, o))
          << "input " << r << " granted busy output VC " << o << " that is not releasing, cycle " << cyc;
      EXPECT_TRUE(VaModel<Cfg>::single(in, r) || in.busy[o] || Cfg::G == 1 || in.singles[o] == 0)
          << "input " << r << " granted output VC " << o << " for a multi-flit packet while " << in.singles[o]
          << " single-flit packets still hold it, cycle " << cyc;
      EXPECT_GE(in.credits[o], in.len[r] + in.busy[o] + (Cfg::G > 1 ? in.singles[o] : 0))
          << "input " << r << " granted output VC " << o
          << " without credits for the packet (and the tail and single-flit packets still to leave on it), cycle "
          << cyc;
      ++grants_of[o];
      multi_of[o] += !VaModel<Cfg>::single(in, r);
      granted_ovcs |= std::uint64_t{1} << o;
    }
    for (unsigned o = 0; o < R; ++o) {
      if (grants_of[o] <= 1) continue;
      EXPECT_LE(grants_of[o], Cfg::G) << "output VC " << o << " granted more than G times, cycle " << cyc;
      EXPECT_EQ(multi_of[o], 0u) << "output VC " << o << " granted twice, to a multi-flit packet, cycle " << cyc;
      EXPECT_FALSE(in.busy[o]) << "busy output VC " << o << " handed over to several packets, cycle " << cyc;
      EXPECT_GE(in.credits[o], in.singles[o] + grants_of[o])
          << "output VC " << o << " granted to " << grants_of[o] << " packets without a credit each, cycle " << cyc;
      EXPECT_EQ(out.alloc_n[o], grants_of[o]) << "alloc_n_o of output VC " << o << ", cycle " << cyc;
    }
    EXPECT_EQ(out.alloc, granted_ovcs) << "alloc_o does not match the grants, cycle " << cyc;
    if (!any_eligible) {
      EXPECT_EQ(out.gnt, 0u) << "grant with nothing eligible, cycle " << cyc;
      EXPECT_EQ(out.alloc, 0u) << "allocation with nothing eligible, cycle " << cyc;
    } else {
      EXPECT_NE(out.gnt, 0u) << "no grant although an input is eligible, cycle " << cyc;
    }
    // Every output VC that some input bids for is allocated.
    for (unsigned r = 0; r < R; ++r) {
      const int o = model_.pick(in, r);
      if (o >= 0) {
        EXPECT_TRUE(bit(out.alloc, static_cast<unsigned>(o))) << "output VC " << o << " idle, cycle " << cyc;
      }
    }
  }

  // One full cycle: drive, check against properties and the model, clock.
  VaOut step(const VaIn& in) {
    drive(in);
    const VaOut out = read();
    check_properties(in, out);
    const VaOut exp = model_.eval(in);
    EXPECT_EQ(out.gnt, exp.gnt) << "cycle " << dut_.cycle();
    EXPECT_EQ(out.alloc, exp.alloc) << "cycle " << dut_.cycle();
    EXPECT_EQ(out.alloc_n, exp.alloc_n) << "cycle " << dut_.cycle();
    for (unsigned r = 0; r < R; ++r) {
      if (bit(exp.gnt, r)) {
        EXPECT_EQ(out.gnt_vc[r], exp.gnt_vc[r]) << "gnt_vc of input " << r;
      }
    }
    dut_.tick();
    model_.clock(in);
    return out;
  }

  VaIn random_in(Rng& rng, unsigned req_pct, unsigned busy_pct, int hot_port) {
    VaIn in(R);
    for (unsigned r = 0; r < R; ++r) {
      in.req[r] = rng.chance(req_pct);
      in.port[r] = hot_port >= 0 && rng.chance(60) ? static_cast<unsigned>(hot_port) : static_cast<unsigned>(rng.range(0, P - 1));
      in.vcs[r] = rng.chance(5) ? 0u : static_cast<unsigned>(rng.range(1, rtltest::mask(V)));
      if (Cfg::kMapped && rng.chance(85)) {
        // Mostly requests the map allows, so that grants and contention happen.
        std::vector<unsigned> ports;
        for (unsigned q = 0; q < P; ++q) {
          for (unsigned w = 0; w < V; ++w) {
            if (Cfg::may(q * V + w, r) && (ports.empty() || ports.back() != q)) ports.push_back(q);
          }
        }
        if (!ports.empty()) {
          in.port[r] = ports[rng.range(0, ports.size() - 1)];
          unsigned allowed = 0;
          for (unsigned w = 0; w < V; ++w) allowed |= Cfg::may(in.port[r] * V + w, r) ? 1u << w : 0u;
          in.vcs[r] &= allowed;
          if (in.vcs[r] == 0) in.vcs[r] = allowed;
        }
      }
      in.len[r] = static_cast<unsigned>(rng.range(1, rtltest::mask(LEN_W)));
      in.rel[r] = rng.chance(30);
      // Often the port it requests, so that hand-overs happen.
      in.own_port[r] = rng.chance(70) ? in.port[r] : static_cast<unsigned>(rng.range(0, P - 1));
      in.own_vc[r] = static_cast<unsigned>(rng.range(0, V - 1));
    }
    for (unsigned o = 0; o < R; ++o) {
      in.busy[o] = rng.chance(busy_pct);
      in.handover[o] = in.busy[o] && rng.chance(30);
      in.credits[o] = static_cast<unsigned>(rng.chance(50) ? rng.range(0, rtltest::mask(LEN_W) + 1)
                                                           : rng.range(0, rtltest::mask(CREDIT_CNT_W)));
    }
    if (Cfg::G > 1) {
      // Single-flit packets, often several on one output VC; some output VCs
      // hold single-flit packets already (then not busy, or a successor).
      for (unsigned r = 0; r < R; ++r) {
        if (rng.chance(50)) in.len[r] = 1;
      }
      for (unsigned o = 0; o < R; ++o) {
        if ((!in.busy[o] || in.handover[o]) && rng.chance(30)) in.singles[o] = static_cast<unsigned>(rng.range(1, 4));
      }
    }
    return in;
  }

  Dut<typename Cfg::Model> dut_;
  VaModel<Cfg> model_;
};

TYPED_TEST_SUITE(VcAllocTest, VaCfgs);

TYPED_TEST(VcAllocTest, CreditsMustCoverWholePacket) {
  constexpr unsigned V = TestFixture::V;
  VaIn in = this->idle();
  in.req[0] = true;
  in.port[0] = 1;
  in.vcs[0] = 1;  // VC 0 only
  in.len[0] = 3;
  in.credits[1 * V + 0] = 2;
  EXPECT_EQ(this->step(in).gnt, 0u) << "granted with credits 2 < len 3";
  in.credits[1 * V + 0] = 3;
  VaOut out = this->step(in);
  EXPECT_EQ(out.gnt, 1u) << "not granted with credits == len";
  EXPECT_EQ(out.gnt_vc[0], 0u);
  EXPECT_EQ(out.alloc, std::uint64_t{1} << (1 * V + 0));
  in.len[0] = static_cast<unsigned>(rtltest::mask(TestFixture::LEN_W));  // longest packet
  in.credits[1 * V + 0] = in.len[0] - 1;
  EXPECT_EQ(this->step(in).gnt, 0u) << "granted one credit short of the longest packet";
  in.credits[1 * V + 0] = static_cast<unsigned>(rtltest::mask(TestFixture::CREDIT_CNT_W));
  EXPECT_EQ(this->step(in).gnt, 1u) << "not granted with full credits";
  in.busy[1 * V + 0] = true;
  EXPECT_EQ(this->step(in).gnt, 0u) << "granted a busy VC";
}

TYPED_TEST(VcAllocTest, SuccessivePacketsOnAPortRotateOverItsVcs) {
  constexpr unsigned V = TestFixture::V;
  VaIn in = this->idle();
  in.req[2] = true;
  in.port[2] = 2;
  in.len[2] = 2;
  in.vcs[2] = static_cast<unsigned>(rtltest::mask(V));
  for (unsigned c = 0; c < 2 * V + 1; ++c) {
    const VaOut out = this->step(in);
    ASSERT_EQ(out.gnt, 4u);
    EXPECT_EQ(out.gnt_vc[2], c % V) << "grant " << c << " of a port should take its next VC";
  }
  // The pointer is at VC 1 now (V + 1 grants, or 2V + 1): a busy VC 1 is skipped.
  in.busy[2 * V + 1] = true;
  VaOut out = this->step(in);
  ASSERT_EQ(out.gnt, 4u);
  EXPECT_EQ(out.gnt_vc[2], V > 2 ? 2u : 0u) << "VC 1 is busy";
}

TYPED_TEST(VcAllocTest, RespectsMaskBusyAndCredits) {
  constexpr unsigned V = TestFixture::V;
  VaIn in = this->idle();
  in.req[2] = true;
  in.port[2] = 2;
  in.len[2] = 2;
  in.vcs[2] = 1u;  // VC 0 only
  in.busy[2 * V + 0] = true;
  EXPECT_EQ(this->step(in).gnt, 0u) << "the only allowed VC is busy";
  in.busy[2 * V + 0] = false;
  in.credits[2 * V + 0] = 1;  // too few for len 2
  EXPECT_EQ(this->step(in).gnt, 0u) << "the only allowed VC lacks credits";
  in.credits[2 * V + 0] = 15;
  in.vcs[2] = 1u << (V - 1);  // only the highest VC is allowed
  VaOut out = this->step(in);
  ASSERT_EQ(out.gnt, 4u);
  EXPECT_EQ(out.gnt_vc[2], V - 1) << "the routing mask allows only VC " << V - 1;
  EXPECT_EQ(out.alloc, std::uint64_t{1} << (2 * V + V - 1));
  in.vcs[2] = 0;
  EXPECT_EQ(this->step(in).gnt, 0u) << "empty routing mask";
}

// Output VC (1, 0) is busy: input VC 3 holds it. Once 3's tail is at the
// front (rel), the VC goes to one successor, the holder's own next packet or
// any other requester, round-robin, and only with a credit to spare for the
// tail still to leave; never while it has a successor already or while its
// holder's tail is not at the front.
TYPED_TEST(VcAllocTest, AReleasingVcGoesToOneSuccessorWithACreditForTheTail) {
  if (TypeParam::kMapped) GTEST_SKIP() << "its requests assume every input VC may ask for every output VC";
  constexpr unsigned V = TestFixture::V;
  VaIn in = this->idle();
  for (const unsigned r : {0u, 3u}) {
    in.req[r] = true;
    in.port[r] = 1;
    in.vcs[r] = 1u;  // VC 0 only
    in.len[r] = 2;
  }
  const unsigned o = 1 * V + 0;
  in.busy[o] = true;
  in.rel[0] = true;  // input VC 0's tail is at the front, but it holds a VC of port 0
  in.own_port[0] = 0;
  in.own_vc[0] = 0;
  in.own_port[3] = 1;  // input VC 3 holds output VC (1, 0); its tail is not at the front yet
  in.own_vc[3] = 0;
  EXPECT_EQ(this->step(in).gnt, 0u) << "the holder's tail is not at the front: the VC is busy";
  in.rel[3] = true;
  in.credits[o] = 2;
  EXPECT_EQ(this->step(in).gnt, 0u) << "2 credits: 1 for the tail still to leave leaves 1 < 2";
  in.credits[o] = 3;
  VaOut first = this->step(in);
  ASSERT_EQ(rtltest::popcount(first.gnt), 1u) << "one successor";
  EXPECT_EQ(first.alloc, std::uint64_t{1} << o);
  VaOut second = this->step(in);
  ASSERT_EQ(rtltest::popcount(second.gnt), 1u);
  EXPECT_NE(second.gnt, first.gnt) << "the holder's next packet and a waiting input VC take turns";
  in.handover[o] = true;
  EXPECT_EQ(this->step(in).gnt, 0u) << "a VC with a successor is not handed over again";
  in.handover[o] = false;
  in.own_vc[3] = V - 1;  // it holds another VC of the port: VC 0 is not releasing
  if (V > 1) {
    EXPECT_EQ(this->step(in).gnt, 0u);
  }
  in.own_vc[3] = 0;
  in.own_port[3] = 2;  // it holds VC 0 of another port
  EXPECT_EQ(this->step(in).gnt, 0u);
}

TYPED_TEST(VcAllocTest, AllInputsOnOneOutputVcRotate) {
  if (TypeParam::kMapped) GTEST_SKIP() << "its requests assume every input VC may ask for every output VC";
  constexpr unsigned R = TestFixture::R;
  VaIn in = this->idle();
  for (unsigned r = 0; r < R; ++r) {
    in.req[r] = true;
    in.port[r] = 0;
    in.vcs[r] = 1;
    in.len[r] = 2;  // one grant per cycle (single-flit packets may share it, G > 1)
  }
  for (unsigned c = 0; c < 3 * R; ++c) {
    const VaOut out = this->step(in);
    EXPECT_EQ(out.gnt, std::uint64_t{1} << (c % R)) << "cycle " << c;
    EXPECT_EQ(out.alloc, 1u);
  }
}

TYPED_TEST(VcAllocTest, NothingEligibleNoGrant) {
  constexpr unsigned R = TestFixture::R, V = TestFixture::V;
  Rng rng(0x7A11);
  unsigned tested = 0;
  for (unsigned c = 0; c < 500; ++c) {
    VaIn in = this->random_in(rng, 80, 0, -1);
    // Every VC an input may use is either busy or short of credits.
    for (unsigned r = 0; r < R; ++r) {
      in.rel[r] = false;  // no busy VC is releasing
      in.len[r] = static_cast<unsigned>(rng.range(2, rtltest::mask(TestFixture::LEN_W)));
      for (unsigned w = 0; w < V; ++w) {
        const unsigned o = in.port[r] * V + w;
        if (rng.chance(50)) in.busy[o] = true;
        else if (in.credits[o] >= in.len[r]) in.credits[o] = static_cast<unsigned>(rng.range(0, in.len[r] - 1));
      }
    }
    // A second input on the same port may have changed credits again; recheck.
    bool any = false;
    for (unsigned r = 0; r < R; ++r) any |= this->model_.pick(in, r) >= 0;
    if (any) continue;
    ++tested;
    const VaOut out = this->step(in);
    EXPECT_EQ(out.gnt, 0u);
    EXPECT_EQ(out.alloc, 0u);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_EQ(tested, 500u);
}

TYPED_TEST(VcAllocTest, RandomAgainstModel) {
  constexpr unsigned R = TestFixture::R;
  Rng rng(0x5EED0 + TestFixture::P);
  unsigned contended = 0, granted = 0, blocked = 0, multi = 0;
  for (unsigned c = 0; c < 8000; ++c) {
    const unsigned phase = (c / 250) % 4;
    const unsigned req_pct = phase == 0 ? 20 : phase == 1 ? 60 : 90;
    const int hot = phase == 3 ? static_cast<int>(rng.range(0, TestFixture::P - 1)) : -1;
    const VaIn in = this->random_in(rng, req_pct, phase == 2 ? 60 : 20, hot);
    // Coverage: two inputs bidding for one output VC; an input with a request but nothing eligible.
    std::vector<unsigned> bids(R, 0);
    for (unsigned r = 0; r < R; ++r) {
      const int o = this->model_.pick(in, r);
      if (o >= 0) ++bids[static_cast<unsigned>(o)];
      else if (in.req[r]) ++blocked;
    }
    for (unsigned o = 0; o < R; ++o) contended += bids[o] > 1;
    const VaOut out = this->step(in);
    granted += rtltest::popcount(out.gnt);
    multi += rtltest::popcount(out.gnt) > 1;
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(contended, 500u);
  EXPECT_GT(granted, 2000u);
  EXPECT_GT(blocked, 500u);
  EXPECT_GT(multi, 500u);
}

TYPED_TEST(VcAllocTest, PersistentEligibleRequesterNotStarved) {
  if (TypeParam::kMapped) GTEST_SKIP() << "its requests assume every input VC may ask for every output VC";
  constexpr unsigned P = TestFixture::P, V = TestFixture::V, R = TestFixture::R;
  Rng rng(0x57A4 + P);
  for (unsigned target = 0; target < R; target += 1 + (R > 6)) {
    const unsigned tport = static_cast<unsigned>(rng.range(0, P - 1));
    const unsigned tmask = static_cast<unsigned>(rng.range(1, rtltest::mask(V)));
    const unsigned tlen = static_cast<unsigned>(rng.range(1, rtltest::mask(TestFixture::LEN_W)));
    // Fixed state of the output VCs the target may use; at least one is eligible.
    std::vector<bool> fbusy(V);
    std::vector<unsigned> fcred(V);
    bool ok = false;
    for (unsigned w = 0; w < V; ++w) {
      fbusy[w] = rng.chance(30);
      fcred[w] = static_cast<unsigned>(rng.range(0, rtltest::mask(TestFixture::CREDIT_CNT_W)));
      ok |= bit(tmask, w) && !fbusy[w] && fcred[w] >= tlen;
    }
    if (!ok) {
      const unsigned w = static_cast<unsigned>(__builtin_ctz(tmask));
      fbusy[w] = false;
      fcred[w] = tlen;
    }
    unsigned wait = 0, grants = 0;
    for (unsigned c = 0; c < 300; ++c) {
      VaIn in = this->random_in(rng, 90, 20, static_cast<int>(tport));
      in.req[target] = true;
      in.port[target] = tport;
      in.vcs[target] = tmask;
      in.len[target] = tlen;
      for (unsigned w = 0; w < V; ++w) {
        in.busy[tport * V + w] = fbusy[w];
        in.credits[tport * V + w] = fcred[w];
        in.singles[tport * V + w] = 0;
      }
      const VaOut out = this->step(in);
      if (bit(out.gnt, target)) {
        ++grants;
        wait = 0;
      } else {
        ++wait;
        // It may bid for a different VC of its port each cycle (the port's
        // stage-1 pointer moves), and wins at each within R bids.
        ASSERT_LT(wait, R * V) << "input VC " << target << " not granted within P*V*V cycles";
      }
    }
    EXPECT_GE(grants, 300 / (R * V));
  }
}

// G > 1: single-flit packets bidding for one free output VC get up to G
// grants per cycle, in round-robin order, one credit each (counting those
// allocated before and not sent); a multi-flit bidder waits until no
// single-flit packet holds the VC; a busy (releasing) VC goes to one.
TYPED_TEST(VcAllocTest, SingleFlitPacketsShareAnOutputVc) {
  if (TypeParam::kMapped) GTEST_SKIP() << "its requests assume every input VC may ask for every output VC";
  constexpr unsigned R = TestFixture::R, G = TestFixture::G;
  if (G == 1) GTEST_SKIP() << "one grant per output VC";
  VaIn in = this->idle();
  for (unsigned r = 0; r < R; ++r) {
    in.req[r] = true;
    in.port[r] = 0;
    in.vcs[r] = 1;
    in.len[r] = 1;
  }
  // All R bid for output VC 0: G per cycle, rotating.
  std::uint64_t seen = 0;
  for (unsigned c = 0; c < 2 * R; ++c) {
    const VaOut out = this->step(in);
    ASSERT_EQ(rtltest::popcount(out.gnt), G) << "cycle " << c;
    EXPECT_EQ(out.alloc_n[0], G);
    seen |= out.gnt;
  }
  EXPECT_EQ(seen, rtltest::mask(R)) << "every input VC was granted";
  in.credits[0] = 1;
  EXPECT_EQ(rtltest::popcount(this->step(in).gnt), 1u) << "one credit: one packet";
  in.credits[0] = 5;
  in.singles[0] = 4;
  EXPECT_EQ(rtltest::popcount(this->step(in).gnt), 1u) << "4 singles owe 4 of the 5 credits";
  in.singles[0] = 5;
  EXPECT_EQ(this->step(in).gnt, 0u) << "no credit left";
  in.singles[0] = 1;
  in.credits[0] = 15;
  EXPECT_EQ(rtltest::popcount(this->step(in).gnt), G) << "single-flit holders do not block single-flit packets";
  // A multi-flit bidder alone: blocked while single-flit packets hold the VC.
  VaIn m = this->idle();
  m.req[1] = true;
  m.port[1] = 0;
  m.vcs[1] = 1;
  m.len[1] = 3;
  m.singles[0] = 1;
  EXPECT_EQ(this->step(m).gnt, 0u) << "a multi-flit packet may not interleave with a pending single-flit packet";
  m.singles[0] = 0;
  VaOut out = this->step(m);
  EXPECT_EQ(out.gnt, 2u);
  EXPECT_EQ(out.alloc_n[0], 0u) << "a multi-flit allocation";
  // A busy VC whose holder (input VC 0) is releasing: one successor only.
  in.singles[0] = 0;
  in.busy[0] = true;
  in.rel[0] = true;
  in.own_port[0] = 0;
  in.own_vc[0] = 0;
  out = this->step(in);
  EXPECT_EQ(rtltest::popcount(out.gnt), 1u) << "a releasing VC goes to one successor";
  EXPECT_EQ(out.alloc_n[0], 1u);
}

}  // namespace

// REQ_MAP: a request the map does not allow is never granted, whatever else
// happens; one the map allows is, when it is alone.
TYPED_TEST(VcAllocTest, OnlyRequestsInTheMapAreGranted) {
  constexpr unsigned P = TestFixture::P, V = TestFixture::V, R = TestFixture::R;
  if (!TypeParam::kMapped) GTEST_SKIP() << "every request is in the map";
  unsigned outside = 0, inside = 0;
  for (unsigned r = 0; r < R; ++r) {
    for (unsigned q = 0; q < P; ++q) {
      for (unsigned w = 0; w < V; ++w) {
        VaIn in = this->idle();
        in.req[r] = true;
        in.port[r] = q;
        in.vcs[r] = 1u << w;
        in.len[r] = 2;
        const bool may = TypeParam::may(q * V + w, r);
        const VaOut out = this->step(in);
        EXPECT_EQ(bit(out.gnt, r), may) << "input VC " << r << " asking for output VC " << q * V + w;
        (may ? inside : outside) += 1;
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
  EXPECT_GT(outside, 0u);
  EXPECT_GT(inside, 0u);
  // Output VC 1's only possible requester is input VC 2: the others asking
  // with it do not take it from 2, and alone they get nothing.
  VaIn in = this->idle();
  for (unsigned r = 0; r < R; ++r) {
    in.req[r] = true;
    in.port[r] = 0;
    in.vcs[r] = 2;
    in.len[r] = 2;
  }
  EXPECT_EQ(this->step(in).gnt, std::uint64_t{1} << 2);
  in.req[2] = false;
  EXPECT_EQ(this->step(in).gnt, 0u);
}
