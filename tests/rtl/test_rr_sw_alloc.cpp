// Block test for rtl/rr_sw_alloc.sv (separable input-first switch allocator
// with internal speedup S: S lanes per input port filled by the VCs in
// round-robin order, each with up to cnt_i of its flits, and up to room_i
// lanes granted per output port, round-robin over the input ports; with SPEC,
// speculative requests only where no other request competes, and dropped
// unless ok_i)
// against a C++ model, plus model-independent checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "Vrr_sw_alloc_p3v4s3.h"
#include "Vrr_sw_alloc_p4v3.h"
#include "Vrr_sw_alloc_p4v3s2.h"
#include "Vrr_sw_alloc_p5v2.h"
#include "Vrr_sw_alloc_p4v3s2sp.h"
#include "Vrr_sw_alloc_p5v2sp.h"
#include "vtb.hpp"

// Parameter sets (one Verilated model each); the struct names appear in the
// CTest test names.
namespace cfg {

constexpr unsigned clog2(unsigned n) {
  unsigned w = 0;
  while ((1u << w) < n) ++w;
  return w;
}

template <class M, unsigned P_, unsigned V_, unsigned S_ = 1, bool SPEC_ = false>
struct SaCfg {
  using Model = M;
  static constexpr unsigned P = P_, V = V_, S = S_;
  static constexpr bool SPEC = SPEC_;
  static constexpr unsigned L = P * S;  // input lanes, and output slots
  static constexpr unsigned PW = P > 1 ? clog2(P) : 1;
  static constexpr unsigned VCW = V > 1 ? clog2(V) : 1;
  static constexpr unsigned LNW = L > 1 ? clog2(L) : 1;
  static constexpr unsigned IW = S > 1 ? clog2(S) : 1;
  static constexpr unsigned RW = clog2(S + 1);
};

struct P4V3 : SaCfg<Vrr_sw_alloc_p4v3, 4, 3> {};
struct P5V2 : SaCfg<Vrr_sw_alloc_p5v2, 5, 2> {};
struct P4V3S2 : SaCfg<Vrr_sw_alloc_p4v3s2, 4, 3, 2> {};
struct P3V4S3 : SaCfg<Vrr_sw_alloc_p3v4s3, 3, 4, 3> {};
struct P5V2Spec : SaCfg<Vrr_sw_alloc_p5v2sp, 5, 2, 1, true> {};
struct P4V3S2Spec : SaCfg<Vrr_sw_alloc_p4v3s2sp, 4, 3, 2, true> {};

}  // namespace cfg

namespace {

// The SPEC models run every test without speculative requests too: with none
// they must allocate as the plain allocator does.
using SaCfgs = ::testing::Types<cfg::P4V3, cfg::P5V2, cfg::P4V3S2, cfg::P3V4S3, cfg::P5V2Spec, cfg::P4V3S2Spec>;
using NoSpeedupCfgs = ::testing::Types<cfg::P4V3, cfg::P5V2, cfg::P5V2Spec>;
using SpecCfgs = ::testing::Types<cfg::P5V2Spec, cfg::P4V3S2Spec>;

using rtltest::bit;
using rtltest::Dut;
using rtltest::field;
using rtltest::Rng;
using rtltest::set_field;

// Inputs of one cycle, per input VC i = port*V + vc.
struct SaIn {
  std::vector<bool> req;
  std::vector<unsigned> out;   // requested output port
  std::vector<unsigned> cnt;   // flits the VC can send (1..S); empty = 1 everywhere
  std::vector<unsigned> room;  // per output port: flits it takes (1..S); empty = S everywhere
  std::vector<bool> spec;      // SPEC: the request is speculative; empty = none is
  std::vector<bool> ok;        // SPEC: the speculation won its output VC; empty = every one did
  explicit SaIn(unsigned n) : req(n), out(n) {}

  bool speculative(unsigned i) const { return !spec.empty() && spec[i] && req[i]; }
  // A speculative request whose grant would be dropped.
  bool failed(unsigned i) const { return speculative(i) && !ok.empty() && !ok[i]; }
  bool any_failed() const {
    for (unsigned i = 0; i < req.size(); ++i) {
      if (failed(i)) return true;
    }
    return false;
  }
};

struct SaOut {
  std::vector<unsigned> gnt;  // per input VC: flits granted
  std::uint64_t lane_valid = 0;
  std::vector<unsigned> lane_vc, lane_idx;  // per input lane
  std::uint64_t out_valid = 0;
  std::vector<unsigned> out_sel;  // per output slot

  // The VCs granted anything, one bit per input VC.
  std::uint64_t gnt_bits() const {
    std::uint64_t b = 0;
    for (unsigned i = 0; i < gnt.size(); ++i) b |= std::uint64_t{gnt[i] != 0} << i;
    return b;
  }
  unsigned grants() const {
    unsigned n = 0;
    for (const unsigned g : gnt) n += g;
    return n;
  }
};

// Stage 1 of one input port: lane m carries flit idx[m] of VC vc[m] (vc < 0: no
// flit).
struct Lanes {
  std::vector<int> vc;
  std::vector<unsigned> idx;
  int primary = -1;
};

template <class Cfg>
class SaModel {
 public:
  static constexpr unsigned P = Cfg::P, V = Cfg::V, S = Cfg::S, L = Cfg::L;

  static unsigned room(const SaIn &in, unsigned o) { return in.room.empty() ? S : in.room[o]; }
  static unsigned cnt(const SaIn &in, unsigned i) { return in.cnt.empty() ? 1 : in.cnt[i]; }

  // Stage 1: per input port, the requesting VCs in round-robin order from the
  // port's pointer fill the lanes from lane 0, each with its flits 0..cnt-1;
  // only the non-speculative VCs if there are any, else the speculative ones.
  std::vector<Lanes> lanes(const SaIn &in) const {
    std::vector<Lanes> ls(P);
    for (unsigned p = 0; p < P; ++p) {
      Lanes &l = ls[p];
      l.vc.assign(S, -1);
      l.idx.assign(S, 0);
      bool any_plain = false;
      for (unsigned v = 0; v < V; ++v) any_plain |= in.req[p * V + v] && !in.speculative(p * V + v);
      unsigned at = 0;
      for (unsigned i = 0; i < V; ++i) {
        const unsigned v = (in_ptr_[p] + i) % V;
        if (!in.req[p * V + v] || (any_plain && in.speculative(p * V + v))) continue;
        if (l.primary < 0) l.primary = static_cast<int>(v);
        for (unsigned k = 0; k < cnt(in, p * V + v) && at < S; ++k, ++at) {
          l.vc[at] = static_cast<int>(v);
          l.idx[at] = k;
        }
      }
    }
    return ls;
  }
  static bool lane_speculative(const SaIn &in, const std::vector<Lanes> &ls, unsigned lane) {
    const int v = ls[lane / S].vc[lane % S];
    return v >= 0 && in.speculative((lane / S) * V + static_cast<unsigned>(v));
  }
  // The output port a lane asks for (-1: none).
  static int lane_out(const SaIn &in, const std::vector<Lanes> &ls, unsigned lane) {
    const int v = ls[lane / S].vc[lane % S];
    return v < 0 ? -1 : static_cast<int>(in.out[(lane / S) * V + static_cast<unsigned>(v)]);
  }
  // Stage 2: the lanes granted per output port, in slot order: up to room of
  // them, in lane order from the first lane of the output's pointer port;
  // only non-speculative lanes if any asks for the output, else the
  // speculative ones. A failed speculation's lanes are granted here (they
  // move the pointers) and dropped by eval.
  std::vector<std::vector<unsigned>> winners(const SaIn &in, const std::vector<Lanes> &ls) const {
    std::vector<std::vector<unsigned>> win(P);
    for (unsigned o = 0; o < P; ++o) {
      bool any_plain = false;
      for (unsigned lane = 0; lane < L; ++lane) {
        any_plain |= lane_out(in, ls, lane) == static_cast<int>(o) && !lane_speculative(in, ls, lane);
      }
      for (unsigned i = 0; i < L && win[o].size() < room(in, o); ++i) {
        const unsigned lane = (out_ptr_[o] * S + i) % L;
        if (lane_out(in, ls, lane) == static_cast<int>(o) && !(any_plain && lane_speculative(in, ls, lane))) {
          win[o].push_back(lane);
        }
      }
    }
    return win;
  }

  SaOut eval(const SaIn &in) const {
    const auto ls = lanes(in);
    const auto win = winners(in, ls);
    SaOut out;
    out.gnt.assign(P * V, 0);
    out.lane_vc.assign(L, 0);
    out.lane_idx.assign(L, 0);
    out.out_sel.assign(L, 0);
    for (unsigned o = 0; o < P; ++o) {
      for (unsigned k = 0; k < win[o].size(); ++k) {
        const unsigned lane = win[o][k];
        const unsigned p = lane / S, m = lane % S;
        const auto v = static_cast<unsigned>(ls[p].vc[m]);
        if (in.failed(p * V + v)) continue;  // its slot stays empty
        out.out_valid |= std::uint64_t{1} << (o * S + k);
        out.out_sel[o * S + k] = lane;
        out.lane_valid |= std::uint64_t{1} << lane;
        out.lane_vc[lane] = v;
        out.lane_idx[lane] = ls[p].idx[m];
        ++out.gnt[p * V + v];
      }
    }
    return out;
  }

  void clock(const SaIn &in) {
    const auto ls = lanes(in);
    const auto win = winners(in, ls);
    for (unsigned o = 0; o < P; ++o) {
      if (win[o].empty()) continue;
      out_ptr_[o] = (win[o].back() / S + 1) % P;  // past the port of the last lane granted
      for (const unsigned lane : win[o]) {
        // The input port's pointer passes its primary only if lane 0 (the
        // primary's first flit) won.
        if (lane % S == 0) in_ptr_[lane / S] = (static_cast<unsigned>(ls[lane / S].primary) + 1) % V;
      }
    }
  }

 private:
  std::vector<unsigned> in_ptr_ = std::vector<unsigned>(P, 0);
  std::vector<unsigned> out_ptr_ = std::vector<unsigned>(P, 0);
};

template <class Cfg>
class SwAllocTest : public ::testing::Test {
 protected:
  static constexpr unsigned P = Cfg::P, V = Cfg::V, PW = Cfg::PW, N = P * V;
  static constexpr unsigned S = Cfg::S, L = Cfg::L, LNW = Cfg::LNW, RW = Cfg::RW, VCW = Cfg::VCW, IW = Cfg::IW;

  SwAllocTest() { dut_.reset(); }

  SaOut drive_and_read(const SaIn &in) {
    std::uint64_t req = 0, port = 0, cnt = 0;
    for (unsigned i = 0; i < N; ++i) {
      set_field(req, i, 1, in.req[i]);
      set_field(port, i * PW, PW, in.out[i]);
      set_field(cnt, i * RW, RW, SaModel<Cfg>::cnt(in, i));
    }
    std::uint64_t room = 0;
    for (unsigned o = 0; o < P; ++o) set_field(room, o * RW, RW, SaModel<Cfg>::room(in, o));
    rtltest::put(dut_->req_i, req);
    rtltest::put(dut_->port_i, port);
    rtltest::put(dut_->cnt_i, cnt);
    rtltest::put(dut_->room_i, room);
    if constexpr (Cfg::SPEC) {
      std::uint64_t spec = 0, ok = 0;
      for (unsigned i = 0; i < N; ++i) {
        set_field(spec, i, 1, !in.spec.empty() && in.spec[i]);
        set_field(ok, i, 1, in.ok.empty() || in.ok[i]);
      }
      rtltest::put(dut_->spec_i, spec);
      rtltest::put(dut_->ok_i, ok);
    }
    dut_.eval();
    SaOut out;
    const std::uint64_t gnt = dut_->gnt_o;
    for (unsigned i = 0; i < N; ++i) out.gnt.push_back(static_cast<unsigned>(field(gnt, i * RW, RW)));
    out.lane_valid = dut_->lane_valid_o;
    const std::uint64_t lvc = dut_->lane_vc_o, lidx = dut_->lane_idx_o;
    for (unsigned l = 0; l < L; ++l) {
      out.lane_vc.push_back(static_cast<unsigned>(field(lvc, l * VCW, VCW)));
      out.lane_idx.push_back(S > 1 ? static_cast<unsigned>(field(lidx, l * IW, IW)) : 0);
    }
    out.out_valid = dut_->out_valid_o;
    const std::uint64_t sel = dut_->out_sel_o;
    for (unsigned k = 0; k < L; ++k) out.out_sel.push_back(static_cast<unsigned>(field(sel, k * LNW, LNW)));
    return out;
  }

  // Checks that do not depend on the arbitration order.
  void check_properties(const SaIn &in, const SaOut &out) {
    const auto cyc = dut_.cycle();
    bool any_req = false;
    std::vector<unsigned> lane_uses(L, 0);  // output slots carrying each lane
    for (unsigned o = 0; o < P; ++o) {
      unsigned slots = 0;
      std::vector<int> last_idx(N, -1);  // per input VC: flit index in the previous slot of o
      for (unsigned k = 0; k < S; ++k) {
        const bool valid = bit(out.out_valid, o * S + k);
        if (k > 0 && valid && !in.any_failed()) {  // a failed speculation leaves its slot empty
          EXPECT_TRUE(bit(out.out_valid, o * S + k - 1))
              << "output " << o << " slot " << k << " after a free slot, cycle " << cyc;
        }
        if (!valid) continue;
        ++slots;
        const unsigned lane = out.out_sel[o * S + k];
        ASSERT_LT(lane, L) << "cycle " << cyc;
        ++lane_uses[lane];
        EXPECT_TRUE(bit(out.lane_valid, lane))
            << "output " << o << " slot " << k << " carries lane " << lane << " that is not granted, cycle " << cyc;
        const unsigned i = (lane / S) * V + out.lane_vc[lane];
        EXPECT_TRUE(in.req[i]) << "lane " << lane << " carries non-requesting VC " << i << ", cycle " << cyc;
        EXPECT_EQ(in.out[i], o) << "lane " << lane << " of VC " << i << " granted the wrong output, cycle " << cyc;
        EXPECT_GT(static_cast<int>(out.lane_idx[lane]), last_idx[i])
            << "output " << o << ": flits of VC " << i << " out of order, cycle " << cyc;
        last_idx[i] = static_cast<int>(out.lane_idx[lane]);
      }
      EXPECT_LE(slots, SaModel<Cfg>::room(in, o)) << "output " << o << " over its room, cycle " << cyc;
    }
    for (unsigned l = 0; l < L; ++l) {
      EXPECT_EQ(lane_uses[l], bit(out.lane_valid, l) ? 1u : 0u)
          << "lane " << l << " in the wrong number of slots, cycle " << cyc;
    }
    for (unsigned p = 0; p < P; ++p) {
      for (unsigned v = 0; v < V; ++v) {
        const unsigned i = p * V + v;
        any_req |= in.req[i];
        if (out.gnt[i] == 0) continue;
        EXPECT_TRUE(in.req[i]) << "grant to non-requesting VC " << i << ", cycle " << cyc;
        EXPECT_FALSE(in.failed(i)) << "grant to VC " << i << " whose speculation failed, cycle " << cyc;
        EXPECT_LE(out.gnt[i], SaModel<Cfg>::cnt(in, i))
            << "VC " << i << " granted more flits than it has, cycle " << cyc;
      }
      // A VC's granted lanes carry exactly its flits 0..gnt-1, each once.
      for (unsigned v = 0; v < V; ++v) {
        std::vector<unsigned> idx;
        for (unsigned m = 0; m < S; ++m) {
          const unsigned l = p * S + m;
          if (bit(out.lane_valid, l) && out.lane_vc[l] == v) idx.push_back(out.lane_idx[l]);
        }
        std::sort(idx.begin(), idx.end());
        std::vector<unsigned> prefix(out.gnt[p * V + v]);
        for (unsigned k = 0; k < prefix.size(); ++k) prefix[k] = k;
        EXPECT_EQ(idx, prefix) << "VC " << v << " of port " << p << ": lanes are not its flits 0..gnt-1, cycle " << cyc;
      }
    }
    if (in.any_failed()) return;  // a dropped grant may leave requests without one
    EXPECT_EQ(out.grants() != 0, any_req) << "grant iff some request, cycle " << cyc;
    // Work conservation: an input port whose requests all go to output o,
    // where no other input port requests o, gets o.
    for (unsigned p = 0; p < P; ++p) {
      int only = -1;
      bool single_target = true;
      for (unsigned v = 0; v < V; ++v) {
        const unsigned i = p * V + v;
        if (!in.req[i]) continue;
        if (only < 0)
          only = static_cast<int>(in.out[i]);
        else
          single_target &= only == static_cast<int>(in.out[i]);
      }
      if (only < 0 || !single_target) continue;
      bool contested = false;
      for (unsigned q = 0; q < P; ++q) {
        for (unsigned v = 0; v < V && q != p; ++v)
          contested |= in.req[q * V + v] && in.out[q * V + v] == static_cast<unsigned>(only);
      }
      if (!contested) {
        ++uncontested_;
        // It gets as many flits as the room allows (up to its lanes' worth);
        // speculative VCs only offer if no other VC of the port requests.
        bool any_plain = false;
        for (unsigned v = 0; v < V; ++v) any_plain |= in.req[p * V + v] && !in.speculative(p * V + v);
        unsigned offered = 0, got = 0;
        for (unsigned v = 0; v < V; ++v) {
          const bool offers = in.req[p * V + v] && !(any_plain && in.speculative(p * V + v));
          offered += offers ? SaModel<Cfg>::cnt(in, p * V + v) : 0;
          got += out.gnt[p * V + v];
        }
        const unsigned expect = std::min({offered, S, SaModel<Cfg>::room(in, static_cast<unsigned>(only))});
        EXPECT_EQ(got, expect) << "input " << p << " alone wants output " << only << ", cycle " << cyc;
      }
    }
  }

  SaOut step(const SaIn &in) {
    const SaOut out = drive_and_read(in);
    check_properties(in, out);
    const SaOut exp = model_.eval(in);
    const auto cyc = dut_.cycle();
    EXPECT_EQ(out.gnt, exp.gnt) << "gnt_o, cycle " << cyc;
    EXPECT_EQ(out.lane_valid, exp.lane_valid) << "lane_valid_o, cycle " << cyc;
    for (unsigned l = 0; l < L; ++l) {
      if (bit(exp.lane_valid, l)) {
        EXPECT_EQ(out.lane_vc[l], exp.lane_vc[l]) << "lane_vc_o of lane " << l << ", cycle " << cyc;
        EXPECT_EQ(out.lane_idx[l], exp.lane_idx[l]) << "lane_idx_o of lane " << l << ", cycle " << cyc;
      }
    }
    EXPECT_EQ(out.out_valid, exp.out_valid) << "out_valid_o, cycle " << cyc;
    for (unsigned k = 0; k < L; ++k) {
      if (bit(exp.out_valid, k)) {
        EXPECT_EQ(out.out_sel[k], exp.out_sel[k]) << "out_sel of slot " << k << ", cycle " << cyc;
      }
    }
    dut_.tick();
    model_.clock(in);
    return out;
  }

  Dut<typename Cfg::Model> dut_;
  SaModel<Cfg> model_;
  unsigned uncontested_ = 0;
};

TYPED_TEST_SUITE(SwAllocTest, SaCfgs);
template <class Cfg>
class SwAllocNoSpeedupTest : public SwAllocTest<Cfg> {};
TYPED_TEST_SUITE(SwAllocNoSpeedupTest, NoSpeedupCfgs);

TYPED_TEST(SwAllocTest, IdleNoGrant) {
  constexpr unsigned N = TestFixture::N;
  SaIn in(N);
  for (int c = 0; c < 4; ++c) {
    const SaOut out = this->step(in);
    EXPECT_EQ(out.grants(), 0u);
    EXPECT_EQ(out.lane_valid, 0u);
    EXPECT_EQ(out.out_valid, 0u);
  }
}

TYPED_TEST(SwAllocNoSpeedupTest, AllVcsOnOneOutputShareFairly) {
  constexpr unsigned P = TestFixture::P, V = TestFixture::V, N = TestFixture::N;
  SaIn in(N);
  for (unsigned i = 0; i < N; ++i) {
    in.req[i] = true;
    in.out[i] = P - 1;
  }
  std::vector<int> last(N, -1);
  std::vector<unsigned> count(N, 0);
  for (unsigned c = 0; c < 6 * N; ++c) {
    const SaOut out = this->step(in);
    ASSERT_EQ(rtltest::popcount(out.gnt_bits()), 1) << "one output, one grant per cycle";
    // Output rotates over input ports, each input port over its VCs.
    const unsigned p = c % P, v = (c / P) % V;
    EXPECT_EQ(out.gnt_bits(), std::uint64_t{1} << (p * V + v)) << "cycle " << c;
    const auto i = static_cast<unsigned>(__builtin_ctzll(out.gnt_bits()));
    if (last[i] >= 0) {
      EXPECT_EQ(c - static_cast<unsigned>(last[i]), N) << "VC " << i << " waited the wrong time";
    }
    last[i] = static_cast<int>(c);
    ++count[i];
  }
  for (unsigned i = 0; i < N; ++i) EXPECT_EQ(count[i], 6u) << "VC " << i;
}

TYPED_TEST(SwAllocNoSpeedupTest, PermutationGetsFullThroughput) {
  constexpr unsigned P = TestFixture::P, V = TestFixture::V, N = TestFixture::N;
  SaIn in(N);
  for (unsigned i = 0; i < N; ++i) {
    in.req[i] = true;
    in.out[i] = (i / V + 1) % P;  // input port p -> output p+1: no output conflicts
  }
  for (unsigned c = 0; c < 4 * V; ++c) {
    const SaOut out = this->step(in);
    EXPECT_EQ(out.out_valid, rtltest::mask(P)) << "cycle " << c;
    for (unsigned p = 0; p < P; ++p) {
      EXPECT_EQ(field(out.gnt_bits(), p * V, V), std::uint64_t{1} << (c % V)) << "port " << p << " cycle " << c;
    }
  }
}

TYPED_TEST(SwAllocNoSpeedupTest, LosingVcKeepsItsTurn) {
  constexpr unsigned V = TestFixture::V, N = TestFixture::N;
  // Cycle 0: port 0 VC 1 alone on output 0: wins, so output 0 now prefers
  // port 1 and port 0's input arbiter wraps to VC 0.
  SaIn in(N);
  in.req[0 * V + 1] = true;
  in.out[0 * V + 1] = 0;
  EXPECT_EQ(this->step(in).gnt_bits(), std::uint64_t{1} << 1);
  // Cycle 1: port 0 puts VC 0 (-> output 0) forward; port 1 also wants output 0
  // and has priority. Port 0's VC 1 (-> output 1, free) is not tried.
  in = SaIn(N);
  in.req[0 * V + 0] = true;
  in.out[0 * V + 0] = 0;
  in.req[0 * V + 1] = true;
  in.out[0 * V + 1] = 1;
  in.req[1 * V + 0] = true;
  in.out[1 * V + 0] = 0;
  SaOut out = this->step(in);
  EXPECT_EQ(out.gnt_bits(), std::uint64_t{1} << (1 * V + 0)) << "port 1 should win output 0";
  EXPECT_FALSE(bit(out.out_valid, 1)) << "input-first: port 0's second VC is not considered";
  // Cycle 2: port 1 is gone; port 0 still puts VC 0 forward (kept its turn).
  in.req[1 * V + 0] = false;
  out = this->step(in);
  EXPECT_EQ(out.gnt_bits(), std::uint64_t{1} << 0) << "VC 0 of port 0 lost its turn";
  // Cycle 3: now VC 1.
  out = this->step(in);
  EXPECT_EQ(out.gnt_bits(), std::uint64_t{1} << 1);
}

TYPED_TEST(SwAllocTest, RandomAgainstModel) {
  constexpr unsigned P = TestFixture::P, V = TestFixture::V, S = TestFixture::S, L = TestFixture::L;
  constexpr unsigned N = TestFixture::N;
  Rng rng(0x5A11 + P * 7 + S);
  unsigned conflicts = 0, grants = 0, multi_flit = 0, shared_port = 0, prefix_cut = 0, wrapped = 0;
  for (unsigned c = 0; c < 10000; ++c) {
    const unsigned phase = (c / 300) % 4;
    const unsigned req_pct = phase == 0 ? 15 : phase == 1 ? 50 : 90;
    SaIn in(N);
    const unsigned hot = static_cast<unsigned>(rng.range(0, P - 1));
    in.cnt.resize(N);
    for (unsigned i = 0; i < N; ++i) {
      in.req[i] = rng.chance(req_pct);
      in.out[i] = phase == 3 && rng.chance(50) ? hot : static_cast<unsigned>(rng.range(0, P - 1));
      // A VC often has all S flits ready; the count of a VC without a request
      // is don't-care (random).
      in.cnt[i] = rng.chance(50) ? S : static_cast<unsigned>(rng.range(1, S));
    }
    in.room.resize(P);
    for (unsigned o = 0; o < P; ++o) in.room[o] = static_cast<unsigned>(rng.range(1, S));
    // Coverage: two input ports put forward lanes for the same output; a
    // granted output's lanes cut to a prefix by its room; lane filling wraps
    // from the last VCs of a port to the first.
    const auto ls = this->model_.lanes(in);
    for (unsigned o = 0; o < P; ++o) {
      std::vector<bool> ports(P, false);
      unsigned lanes = 0;
      for (unsigned l = 0; l < L; ++l) {
        if (SaModel<TypeParam>::lane_out(in, ls, l) != static_cast<int>(o)) continue;
        ports[l / S] = true;
        ++lanes;
      }
      conflicts += std::count(ports.begin(), ports.end(), true) > 1;
      prefix_cut += lanes > in.room[o];
    }
    for (unsigned p = 0; p < P; ++p) {
      for (unsigned m = 1; m < S; ++m) wrapped += ls[p].vc[m] >= 0 && ls[p].vc[m] < ls[p].vc[m - 1];
    }
    const SaOut out = this->step(in);
    grants += out.grants();
    for (unsigned i = 0; i < N; ++i) multi_flit += out.gnt[i] > 1;
    for (unsigned p = 0; p < P; ++p) {
      unsigned vcs = 0;
      for (unsigned v = 0; v < V; ++v) vcs += out.gnt[p * V + v] != 0;
      shared_port += vcs > 1;
    }
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(grants, 10000u);
  EXPECT_GT(conflicts, 500u);
  EXPECT_GT(this->uncontested_, 1000u) << "the work-conservation check rarely applied";
  if (S > 1) {
    EXPECT_GT(multi_flit, 500u) << "few VCs sent several flits in a cycle";
    EXPECT_GT(shared_port, 500u) << "few input ports sent flits of two VCs in a cycle";
    EXPECT_GT(prefix_cut, 500u) << "few outputs cut a port's lanes to a prefix";
    EXPECT_GT(wrapped, 200u) << "lane filling rarely wrapped around the VCs";
  }
}

TYPED_TEST(SwAllocTest, PersistentRequesterNotStarved) {
  constexpr unsigned P = TestFixture::P, V = TestFixture::V, N = TestFixture::N;
  Rng rng(0x57A5 + P);
  for (unsigned target = 0; target < N; ++target) {
    const unsigned tp = target / V;
    // The VCs of the target's input port request persistently (fixed outputs);
    // the other input ports request at random.
    SaIn fixed(N);
    for (unsigned v = 0; v < V; ++v) {
      fixed.req[tp * V + v] = rng.chance(60);
      fixed.out[tp * V + v] = static_cast<unsigned>(rng.range(0, P - 1));
    }
    fixed.req[target] = true;
    unsigned wait = 0, grants = 0;
    for (unsigned c = 0; c < 200; ++c) {
      SaIn in(N);
      in.cnt.resize(N);
      for (unsigned i = 0; i < N; ++i) {
        in.cnt[i] = static_cast<unsigned>(rng.range(1, TestFixture::S));
        if (i / V == tp) {
          in.req[i] = fixed.req[i];
          in.out[i] = fixed.out[i];
        } else {
          in.req[i] = rng.chance(85);
          in.out[i] = rng.chance(60) ? fixed.out[target] : static_cast<unsigned>(rng.range(0, P - 1));
        }
      }
      const SaOut out = this->step(in);
      if (out.gnt[target] != 0) {
        ++grants;
        wait = 0;
      } else {
        ++wait;
        ASSERT_LT(wait, N) << "VC " << target << " not granted within P*V cycles";  // room is S here
      }
    }
    EXPECT_GE(grants, 200 / N);
  }
}

// With speedup 2: one VC with two flits ready takes both lanes of its port
// and both slots of its output in one cycle, in flit order; with room 1 it
// gets only its first flit.
TEST(SwAllocSpeedupTest, OneVcTwoFlitsBothLanesAndSlots) {
  using Cfg = cfg::P4V3S2;
  constexpr unsigned N = Cfg::P * Cfg::V, V = Cfg::V;
  rtltest::Dut<Cfg::Model> dut;
  dut.reset();
  const auto drive = [&](const SaIn &in) {
    std::uint64_t req = 0, port = 0, cnt = 0, room = 0;
    for (unsigned i = 0; i < N; ++i) {
      set_field(req, i, 1, in.req[i]);
      set_field(port, i * Cfg::PW, Cfg::PW, in.out[i]);
      set_field(cnt, i * Cfg::RW, Cfg::RW, SaModel<Cfg>::cnt(in, i));
    }
    for (unsigned o = 0; o < Cfg::P; ++o) set_field(room, o * Cfg::RW, Cfg::RW, SaModel<Cfg>::room(in, o));
    rtltest::put(dut->req_i, req);
    rtltest::put(dut->port_i, port);
    rtltest::put(dut->cnt_i, cnt);
    rtltest::put(dut->room_i, room);
    dut.eval();
  };
  const auto gnt = [&](unsigned i) { return field(dut->gnt_o, i * Cfg::RW, Cfg::RW); };
  const auto lane_vc = [&](unsigned l) { return field(dut->lane_vc_o, l * Cfg::VCW, Cfg::VCW); };
  const auto lane_idx = [&](unsigned l) { return field(dut->lane_idx_o, l * Cfg::IW, Cfg::IW); };
  const auto sel = [&](unsigned slot) { return field(dut->out_sel_o, slot * Cfg::LNW, Cfg::LNW); };
  // Port 1, VC 2 -> output 3, with 2 flits ready (the pointers are at reset:
  // nothing is clocked in this test).
  SaIn in(N);
  in.cnt.assign(N, 1);
  in.room.assign(Cfg::P, 2);
  in.req[1 * V + 2] = true;
  in.out[1 * V + 2] = 3;
  in.cnt[1 * V + 2] = 2;
  drive(in);
  EXPECT_EQ(gnt(1 * V + 2), 2u) << "both flits granted";
  EXPECT_EQ(dut->lane_valid_o, 0b1100u) << "both lanes of port 1";
  EXPECT_EQ(lane_vc(2), 2u);
  EXPECT_EQ(lane_idx(2), 0u) << "lane 0 carries flit 0";
  EXPECT_EQ(lane_vc(3), 2u);
  EXPECT_EQ(lane_idx(3), 1u) << "lane 1 carries flit 1";
  EXPECT_EQ(field(dut->out_valid_o, 3 * 2, 2), 0b11u) << "both slots of output 3";
  EXPECT_EQ(sel(3 * 2 + 0), 2u) << "slot 0 = flit 0 (lane 2)";
  EXPECT_EQ(sel(3 * 2 + 1), 3u) << "slot 1 = flit 1 (lane 3)";
  EXPECT_EQ(field(dut->out_valid_o, 0, 6), 0u) << "no other output";
  // Room 1 at output 3: only flit 0.
  in.room[3] = 1;
  drive(in);
  EXPECT_EQ(gnt(1 * V + 2), 1u) << "a prefix: flit 0 only";
  EXPECT_EQ(dut->lane_valid_o, 0b0100u);
  EXPECT_EQ(lane_idx(2), 0u);
  EXPECT_EQ(field(dut->out_valid_o, 3 * 2, 2), 0b01u);
  EXPECT_EQ(sel(3 * 2 + 0), 2u);
  // VC 0 (output 0, one flit) is the primary (pointer at VC 0) and takes
  // lane 0; VC 2 fills lane 1 with its flit 0 although it has two.
  in.room[3] = 2;
  in.req[1 * V + 0] = true;
  in.out[1 * V + 0] = 0;
  in.cnt[1 * V + 0] = 1;
  drive(in);
  EXPECT_EQ(gnt(1 * V + 0), 1u);
  EXPECT_EQ(gnt(1 * V + 2), 1u) << "VC 2 fills the remaining lane with its flit 0";
  EXPECT_EQ(dut->lane_valid_o, 0b1100u);
  EXPECT_EQ(lane_vc(2), 0u);
  EXPECT_EQ(lane_idx(2), 0u);
  EXPECT_EQ(lane_vc(3), 2u);
  EXPECT_EQ(lane_idx(3), 0u);
  EXPECT_EQ(field(dut->out_valid_o, 0, 2), 0b01u);
  EXPECT_EQ(sel(0), 2u) << "output 0 slot 0 carries lane 2";
  EXPECT_EQ(field(dut->out_valid_o, 3 * 2, 2), 0b01u);
  EXPECT_EQ(sel(3 * 2), 3u) << "output 3 slot 0 carries lane 3";
  // VC 0 with two flits: it takes both lanes, VC 2 gets none.
  in.cnt[1 * V + 0] = 2;
  drive(in);
  EXPECT_EQ(gnt(1 * V + 0), 2u);
  EXPECT_EQ(gnt(1 * V + 2), 0u);
  EXPECT_EQ(field(dut->out_valid_o, 0, 2), 0b11u);
  EXPECT_EQ(field(dut->out_valid_o, 3 * 2, 2), 0b00u);
  // Three input ports on output 3 with room 2, one flit each: two grants,
  // ports in round-robin order (the pointer starts at port 0).
  in = SaIn(N);
  in.cnt.assign(N, 1);
  in.room.assign(Cfg::P, 2);
  for (const unsigned p : {0u, 1u, 2u}) {
    in.req[p * V] = true;
    in.out[p * V] = 3;
  }
  drive(in);
  EXPECT_EQ(gnt(0 * V), 1u);
  EXPECT_EQ(gnt(1 * V), 1u);
  EXPECT_EQ(gnt(2 * V), 0u);
  EXPECT_EQ(field(dut->out_valid_o, 3 * 2, 2), 0b11u);
  EXPECT_EQ(sel(3 * 2 + 0), 0u);
  EXPECT_EQ(sel(3 * 2 + 1), 2u);
}

}  // namespace

// Speculative switch allocation (SPEC): random requests, a random share of
// them speculative and a random share of those failed, against the model.
template <class Cfg>
class SwAllocSpecTest : public SwAllocTest<Cfg> {};
TYPED_TEST_SUITE(SwAllocSpecTest, SpecCfgs);

TYPED_TEST(SwAllocSpecTest, RandomSpeculationAgainstModel) {
  constexpr unsigned P = TestFixture::P, V = TestFixture::V, S = TestFixture::S, N = TestFixture::N;
  Rng rng(0x5BEC + P * 7 + S);
  unsigned spec_won = 0, spec_dropped = 0, spec_behind = 0;
  for (unsigned c = 0; c < 10000; ++c) {
    SaIn in(N);
    in.cnt.resize(N);
    in.spec.resize(N);
    in.ok.resize(N);
    in.room.resize(P);
    for (unsigned i = 0; i < N; ++i) {
      in.req[i] = rng.chance(c % 2000 < 1000 ? 40 : 80);
      in.out[i] = static_cast<unsigned>(rng.range(0, P - 1));
      in.cnt[i] = static_cast<unsigned>(rng.range(1, S));
      in.spec[i] = rng.chance(40);
      in.ok[i] = rng.chance(60);
    }
    for (unsigned o = 0; o < P; ++o) in.room[o] = static_cast<unsigned>(rng.range(1, S));
    const SaOut out = this->step(in);
    for (unsigned i = 0; i < N; ++i) {
      if (!in.speculative(i)) continue;
      spec_won += out.gnt[i] != 0;
      // A speculation that lost while a non-speculative request of the same
      // output was granted: ranked behind it.
      for (unsigned j = 0; j < N && out.gnt[i] == 0 && !in.failed(i); ++j) {
        if (j / V != i / V && in.req[j] && !in.speculative(j) && in.out[j] == in.out[i] && out.gnt[j] != 0) {
          ++spec_behind;
          break;
        }
      }
    }
    for (unsigned k = 0; k < P * S; ++k) {
      // A slot before a valid one left empty: a dropped speculation.
      if (k % S + 1 < S && !bit(out.out_valid, k) && bit(out.out_valid, k + 1)) ++spec_dropped;
    }
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(spec_won, 2000u);
  EXPECT_GT(spec_behind, 500u);
  if (S > 1) {
    EXPECT_GT(spec_dropped, 40u) << "few dropped speculations left a hole before a granted slot";
  }
}

// A speculative request never takes an output from a request that holds its
// output VC, whichever input port the output's pointer favours, nor a lane
// of its own input port; a failed speculation is granted nothing and leaves
// its slot empty, and the pointers move as if it had gone.
TYPED_TEST(SwAllocSpecTest, SpeculationRanksBelowAndFailedOnesAreDropped) {
  constexpr unsigned V = TestFixture::V, N = TestFixture::N, S = TestFixture::S;
  // Output 0's pointer is at port 0 (reset): port 0's speculation would win
  // it in the plain order, but port 1 holds its VC.
  SaIn in(N);
  in.cnt.assign(N, S);
  in.spec.assign(N, false);
  in.req[0 * V + 0] = true;
  in.spec[0 * V + 0] = true;
  in.out[0 * V + 0] = 0;
  in.req[1 * V + 0] = true;
  in.out[1 * V + 0] = 0;
  SaOut out = this->step(in);
  EXPECT_EQ(out.gnt[0 * V + 0], 0u);
  EXPECT_EQ(out.gnt[1 * V + 0], S) << "the non-speculative request takes every slot";
  // In one input port: VC 0 (the pointer's) speculative, VC 1 not, to other
  // outputs: the speculative VC takes no lane, not even one left over.
  in = SaIn(N);
  in.cnt.assign(N, 1);
  in.spec.assign(N, false);
  in.req[2 * V + 0] = true;
  in.spec[2 * V + 0] = true;
  in.out[2 * V + 0] = 0;
  in.req[2 * V + 1] = true;
  in.out[2 * V + 1] = 1;
  out = this->step(in);
  EXPECT_EQ(out.gnt[2 * V + 1], 1u) << "the non-speculative VC takes the first lane";
  EXPECT_EQ(out.gnt[2 * V + 0], 0u) << "a speculation beside a request that holds its VC";
  // A failed speculation alone: nothing granted, no slot valid.
  in = SaIn(N);
  in.spec.assign(N, false);
  in.ok.assign(N, true);
  in.req[0 * V + 0] = in.spec[0 * V + 0] = true;
  in.ok[0 * V + 0] = false;
  in.out[0 * V + 0] = 1;
  out = this->step(in);
  EXPECT_EQ(out.grants(), 0u);
  EXPECT_EQ(out.out_valid, 0u);
  EXPECT_EQ(out.lane_valid, 0u);
  // Output 1's pointer moved past port 0: port 0 and port 1 both ask
  // (non-speculatively) and port 1 wins.
  in = SaIn(N);
  in.room.assign(TestFixture::P, 1);
  in.req[0 * V + 0] = in.req[1 * V + 0] = true;
  in.out[0 * V + 0] = in.out[1 * V + 0] = 1;
  out = this->step(in);
  EXPECT_NE(out.gnt[1 * V + 0], 0u) << "the failed speculation moved output 1's pointer";
  EXPECT_EQ(out.gnt[0 * V + 0], 0u);
}
