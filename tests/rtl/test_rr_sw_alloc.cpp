// Block test for rtl/rr_sw_alloc.sv (separable input-first switch allocator,
// with internal speedup S: S lanes per input port, VC v on lane v mod S, up
// to room_i flits per output port per cycle) against a C++ model, plus
// model-independent checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "Vrr_sw_alloc_p4v3.h"
#include "Vrr_sw_alloc_p4v3s2.h"
#include "Vrr_sw_alloc_p5v2.h"
#include "vtb.hpp"

// Parameter sets (one Verilated model each); the struct names appear in the
// CTest test names.
namespace cfg {

constexpr unsigned clog2(unsigned n) {
  unsigned w = 0;
  while ((1u << w) < n) ++w;
  return w;
}

template <class M, unsigned P_, unsigned V_, unsigned S_ = 1>
struct SaCfg {
  using Model = M;
  static constexpr unsigned P = P_, V = V_, S = S_;
  static constexpr unsigned L = P * S;  // input lanes, and output slots
  static constexpr unsigned PW = P > 1 ? clog2(P) : 1;
  static constexpr unsigned LNW = L > 1 ? clog2(L) : 1;
  static constexpr unsigned RW = clog2(S + 1);
};

struct P4V3 : SaCfg<Vrr_sw_alloc_p4v3, 4, 3> {};
struct P5V2 : SaCfg<Vrr_sw_alloc_p5v2, 5, 2> {};
struct P4V3S2 : SaCfg<Vrr_sw_alloc_p4v3s2, 4, 3, 2> {};

}  // namespace cfg

namespace {

using SaCfgs = ::testing::Types<cfg::P4V3, cfg::P5V2, cfg::P4V3S2>;
using NoSpeedupCfgs = ::testing::Types<cfg::P4V3, cfg::P5V2>;

using rtltest::bit;
using rtltest::Dut;
using rtltest::field;
using rtltest::Rng;
using rtltest::set_field;

// Inputs of one cycle, per input VC i = port*V + vc.
struct SaIn {
  std::vector<bool> req;
  std::vector<unsigned> out;   // requested output port
  std::vector<unsigned> room;  // per output port: flits it takes (1..S); empty = S everywhere
  explicit SaIn(unsigned n) : req(n), out(n) {}
};

struct SaOut {
  std::uint64_t gnt = 0;
  std::uint64_t out_valid = 0;
  std::vector<unsigned> out_sel;
};

template <class Cfg>
class SaModel {
 public:
  static constexpr unsigned P = Cfg::P, V = Cfg::V, S = Cfg::S, L = Cfg::L;

  static unsigned room(const SaIn& in, unsigned o) { return in.room.empty() ? S : in.room[o]; }

  // Input stage: the VC each input lane puts forward (-1 if none): lane
  // l = p*S + k serves the VCs v of port p with v mod S = k.
  std::vector<int> choices(const SaIn& in) const {
    std::vector<int> ch(L, -1);
    for (unsigned l = 0; l < L; ++l) {
      const unsigned p = l / S;
      for (unsigned i = 0; i < V; ++i) {
        const unsigned v = (in_ptr_[l] + i) % V;
        if (v % S == l % S && in.req[p * V + v]) {
          ch[l] = static_cast<int>(v);
          break;
        }
      }
    }
    return ch;
  }
  // Output stage: the lanes granted per output port, in slot order: up to
  // room of them, round-robin from the output's pointer.
  std::vector<std::vector<unsigned>> winners(const SaIn& in, const std::vector<int>& ch) const {
    std::vector<std::vector<unsigned>> win(P);
    for (unsigned o = 0; o < P; ++o) {
      for (unsigned i = 0; i < L && win[o].size() < room(in, o); ++i) {
        const unsigned l = (out_ptr_[o] + i) % L;
        if (ch[l] >= 0 && in.out[(l / S) * V + static_cast<unsigned>(ch[l])] == o) win[o].push_back(l);
      }
    }
    return win;
  }

  SaOut eval(const SaIn& in) const {
    const auto ch = choices(in);
    const auto win = winners(in, ch);
    SaOut out;
    out.out_sel.assign(L, 0);
    for (unsigned o = 0; o < P; ++o) {
      for (unsigned k = 0; k < win[o].size(); ++k) {
        const unsigned l = win[o][k];
        out.out_valid |= std::uint64_t{1} << (o * S + k);
        out.out_sel[o * S + k] = l;
        out.gnt |= std::uint64_t{1} << ((l / S) * V + static_cast<unsigned>(ch[l]));
      }
    }
    return out;
  }

  void clock(const SaIn& in) {
    const auto ch = choices(in);
    const auto win = winners(in, ch);
    for (unsigned o = 0; o < P; ++o) {
      if (win[o].empty()) continue;
      out_ptr_[o] = (win[o].back() + 1) % L;
      for (const unsigned l : win[o]) in_ptr_[l] = (static_cast<unsigned>(ch[l]) + 1) % V;  // only winners advance
    }
  }

 private:
  std::vector<unsigned> in_ptr_ = std::vector<unsigned>(L, 0);
  std::vector<unsigned> out_ptr_ = std::vector<unsigned>(P, 0);
};

template <class Cfg>
class SwAllocTest : public ::testing::Test {
 protected:
  static constexpr unsigned P = Cfg::P, V = Cfg::V, PW = Cfg::PW, N = P * V;
  static constexpr unsigned S = Cfg::S, L = Cfg::L, LNW = Cfg::LNW, RW = Cfg::RW;

  SwAllocTest() { dut_.reset(); }

  SaOut drive_and_read(const SaIn& in) {
    std::uint64_t req = 0, port = 0;
    for (unsigned i = 0; i < N; ++i) {
      set_field(req, i, 1, in.req[i]);
      set_field(port, i * PW, PW, in.out[i]);
    }
    std::uint64_t room = 0;
    for (unsigned o = 0; o < P; ++o) set_field(room, o * RW, RW, SaModel<Cfg>::room(in, o));
    rtltest::put(dut_->req_i, req);
    rtltest::put(dut_->port_i, port);
    rtltest::put(dut_->room_i, room);
    dut_.eval();
    SaOut out;
    out.gnt = dut_->gnt_o;
    out.out_valid = dut_->out_valid_o;
    const std::uint64_t sel = dut_->out_sel_o;
    for (unsigned k = 0; k < L; ++k) out.out_sel.push_back(static_cast<unsigned>(field(sel, k * LNW, LNW)));
    return out;
  }

  void check_properties(const SaIn& in, const SaOut& out) {
    const auto cyc = dut_.cycle();
    std::vector<std::vector<unsigned>> lanes_in(P);  // input lanes granted each output
    bool any_req = false;
    for (unsigned p = 0; p < P; ++p) {
      for (unsigned k = 0; k < S; ++k) {
        unsigned lane_grants = 0;
        for (unsigned v = k; v < V; v += S) lane_grants += bit(out.gnt, p * V + v);
        EXPECT_LE(lane_grants, 1u) << "input port " << p << " lane " << k << " has two grants, cycle " << cyc;
      }
      for (unsigned v = 0; v < V; ++v) {
        const unsigned i = p * V + v;
        any_req |= in.req[i];
        if (!bit(out.gnt, i)) continue;
        EXPECT_TRUE(in.req[i]) << "grant to non-requesting VC " << i << ", cycle " << cyc;
        lanes_in[in.out[i]].push_back(p * S + v % S);
      }
    }
    for (unsigned o = 0; o < P; ++o) {
      EXPECT_LE(lanes_in[o].size(), SaModel<Cfg>::room(in, o)) << "output " << o << " over its room, cycle " << cyc;
      std::vector<unsigned> slotted;
      for (unsigned k = 0; k < S; ++k) {
        if (bit(out.out_valid, o * S + k)) slotted.push_back(out.out_sel[o * S + k]);
      }
      std::sort(slotted.begin(), slotted.end());
      std::sort(lanes_in[o].begin(), lanes_in[o].end());
      EXPECT_EQ(slotted, lanes_in[o]) << "output " << o << ": slots do not carry the granted lanes, cycle " << cyc;
    }
    EXPECT_EQ(out.gnt != 0, any_req) << "grant iff some request, cycle " << cyc;
    // Work conservation: an input port whose requests all go to output o,
    // where no other input port requests o, gets o.
    for (unsigned p = 0; p < P; ++p) {
      int only = -1;
      bool single_target = true;
      for (unsigned v = 0; v < V; ++v) {
        const unsigned i = p * V + v;
        if (!in.req[i]) continue;
        if (only < 0) only = static_cast<int>(in.out[i]);
        else single_target &= only == static_cast<int>(in.out[i]);
      }
      if (only < 0 || !single_target) continue;
      bool contested = false;
      for (unsigned q = 0; q < P; ++q) {
        for (unsigned v = 0; v < V && q != p; ++v) contested |= in.req[q * V + v] && in.out[q * V + v] == static_cast<unsigned>(only);
      }
      if (!contested) {
        ++uncontested_;
        bool got = false;
        for (const unsigned l : lanes_in[static_cast<unsigned>(only)]) got |= l / S == p;
        EXPECT_TRUE(got) << "input " << p << " alone wants output " << only << " but did not get it, cycle " << cyc;
      }
    }
  }

  SaOut step(const SaIn& in) {
    const SaOut out = drive_and_read(in);
    check_properties(in, out);
    const SaOut exp = model_.eval(in);
    EXPECT_EQ(out.gnt, exp.gnt) << "cycle " << dut_.cycle();
    EXPECT_EQ(out.out_valid, exp.out_valid) << "cycle " << dut_.cycle();
    for (unsigned k = 0; k < L; ++k) {
      if (bit(exp.out_valid, k)) {
        EXPECT_EQ(out.out_sel[k], exp.out_sel[k]) << "out_sel of slot " << k;
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
    EXPECT_EQ(out.gnt, 0u);
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
    ASSERT_EQ(rtltest::popcount(out.gnt), 1) << "one output, one grant per cycle";
    // Output rotates over input ports, each input port over its VCs.
    const unsigned p = c % P, v = (c / P) % V;
    EXPECT_EQ(out.gnt, std::uint64_t{1} << (p * V + v)) << "cycle " << c;
    const auto i = static_cast<unsigned>(__builtin_ctzll(out.gnt));
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
      EXPECT_EQ(field(out.gnt, p * V, V), std::uint64_t{1} << (c % V)) << "port " << p << " cycle " << c;
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
  EXPECT_EQ(this->step(in).gnt, std::uint64_t{1} << 1);
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
  EXPECT_EQ(out.gnt, std::uint64_t{1} << (1 * V + 0)) << "port 1 should win output 0";
  EXPECT_FALSE(bit(out.out_valid, 1)) << "input-first: port 0's second VC is not considered";
  // Cycle 2: port 1 is gone; port 0 still puts VC 0 forward (kept its turn).
  in.req[1 * V + 0] = false;
  out = this->step(in);
  EXPECT_EQ(out.gnt, std::uint64_t{1} << 0) << "VC 0 of port 0 lost its turn";
  // Cycle 3: now VC 1.
  out = this->step(in);
  EXPECT_EQ(out.gnt, std::uint64_t{1} << 1);
}

TYPED_TEST(SwAllocTest, RandomAgainstModel) {
  constexpr unsigned P = TestFixture::P, N = TestFixture::N;
  Rng rng(0x5A11 + P);
  unsigned conflicts = 0, grants = 0;
  for (unsigned c = 0; c < 10000; ++c) {
    const unsigned phase = (c / 300) % 4;
    const unsigned req_pct = phase == 0 ? 15 : phase == 1 ? 50 : 90;
    SaIn in(N);
    const unsigned hot = static_cast<unsigned>(rng.range(0, P - 1));
    for (unsigned i = 0; i < N; ++i) {
      in.req[i] = rng.chance(req_pct);
      in.out[i] = phase == 3 && rng.chance(50) ? hot : static_cast<unsigned>(rng.range(0, P - 1));
    }
    in.room.resize(P);
    for (unsigned o = 0; o < P; ++o) in.room[o] = static_cast<unsigned>(rng.range(1, TestFixture::S));
    // Coverage: two input ports put forward VCs for the same output.
    const std::vector<int> ch = this->model_.choices(in);
    std::vector<unsigned> bidders(P, 0);
    for (unsigned l = 0; l < TestFixture::L; ++l) {
      if (ch[l] >= 0) ++bidders[in.out[(l / TestFixture::S) * TestFixture::V + static_cast<unsigned>(ch[l])]];
    }
    for (unsigned o = 0; o < P; ++o) conflicts += bidders[o] > 1;
    const SaOut out = this->step(in);
    grants += rtltest::popcount(out.gnt);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(grants, 10000u);
  EXPECT_GT(conflicts, 500u);
  EXPECT_GT(this->uncontested_, 2000u) << "the work-conservation check rarely applied";
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
      for (unsigned i = 0; i < N; ++i) {
        if (i / V == tp) {
          in.req[i] = fixed.req[i];
          in.out[i] = fixed.out[i];
        } else {
          in.req[i] = rng.chance(85);
          in.out[i] = rng.chance(60) ? fixed.out[target] : static_cast<unsigned>(rng.range(0, P - 1));
        }
      }
      const SaOut out = this->step(in);
      if (bit(out.gnt, target)) {
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

// With speedup 2: an input port sends two flits in a cycle from VCs of
// different lanes, and an output takes as many as its room allows.
TEST(SwAllocSpeedupTest, TwoFlitsPerPortAndPerOutputWithinRoom) {
  using Cfg = cfg::P4V3S2;
  rtltest::Dut<Cfg::Model> dut;
  dut.reset();
  const auto drive = [&](std::uint64_t req, std::uint64_t port, std::uint64_t room) {
    rtltest::put(dut->req_i, req);
    rtltest::put(dut->port_i, port);
    rtltest::put(dut->room_i, room);
    dut.eval();
  };
  constexpr unsigned PW = Cfg::PW, V = Cfg::V, RW = Cfg::RW;
  std::uint64_t port = 0, room = 0;
  for (unsigned o = 0; o < Cfg::P; ++o) set_field(room, o * RW, RW, 2);
  // Port 0: VC 0 (lane 0) -> output 1, VC 1 (lane 1) -> output 1: both in one cycle.
  set_field(port, 0 * PW, PW, 1);
  set_field(port, 1 * PW, PW, 1);
  drive(0b011, port, room);
  EXPECT_EQ(dut->gnt_o, 0b011u) << "two lanes, two slots of output 1";
  EXPECT_EQ(field(dut->out_valid_o, 1 * 2, 2), 0b11u);
  // Room 1 at output 1: one of them.
  set_field(room, 1 * RW, RW, 1);
  drive(0b011, port, room);
  EXPECT_EQ(rtltest::popcount(dut->gnt_o), 1);
  EXPECT_EQ(field(dut->out_valid_o, 1 * 2, 2), 0b01u);
  // VCs 0 and 2 share lane 0: never both in one cycle.
  set_field(room, 1 * RW, RW, 2);
  set_field(port, 2 * PW, PW, 2);
  drive(0b101, port, room);
  EXPECT_EQ(rtltest::popcount(dut->gnt_o), 1) << "one lane, one flit";
  // Three input ports on output 3 with room 2: two grants.
  std::uint64_t req = 0;
  port = 0;
  for (const unsigned p : {0u, 1u, 2u}) {
    req |= std::uint64_t{1} << (p * V);
    set_field(port, (p * V) * PW, PW, 3);
  }
  drive(req, port, room);
  EXPECT_EQ(rtltest::popcount(dut->gnt_o), 2);
  EXPECT_EQ(field(dut->out_valid_o, 3 * 2, 2), 0b11u);
}

}  // namespace
