// Block test for rtl/rr_sw_alloc.sv (separable input-first switch allocator)
// against a C++ model, plus model-independent checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "Vrr_sw_alloc_p4v3.h"
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

template <class M, unsigned P_, unsigned V_>
struct SaCfg {
  using Model = M;
  static constexpr unsigned P = P_, V = V_;
  static constexpr unsigned PW = P > 1 ? clog2(P) : 1;
};

struct P4V3 : SaCfg<Vrr_sw_alloc_p4v3, 4, 3> {};
struct P5V2 : SaCfg<Vrr_sw_alloc_p5v2, 5, 2> {};

}  // namespace cfg

namespace {

using SaCfgs = ::testing::Types<cfg::P4V3, cfg::P5V2>;

using rtltest::bit;
using rtltest::Dut;
using rtltest::field;
using rtltest::Rng;
using rtltest::set_field;

// Inputs of one cycle, per input VC i = port*V + vc.
struct SaIn {
  std::vector<bool> req;
  std::vector<unsigned> out;  // requested output port
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
  static constexpr unsigned P = Cfg::P, V = Cfg::V;

  // Input stage: the VC each input port puts forward (-1 if none).
  std::vector<int> choices(const SaIn& in) const {
    std::vector<int> ch(P, -1);
    for (unsigned p = 0; p < P; ++p) {
      for (unsigned i = 0; i < V; ++i) {
        const unsigned v = (in_ptr_[p] + i) % V;
        if (in.req[p * V + v]) {
          ch[p] = static_cast<int>(v);
          break;
        }
      }
    }
    return ch;
  }
  // Output stage: winning input port per output port (-1 if none).
  std::vector<int> winners(const SaIn& in, const std::vector<int>& ch) const {
    std::vector<int> win(P, -1);
    for (unsigned o = 0; o < P; ++o) {
      for (unsigned i = 0; i < P; ++i) {
        const unsigned p = (out_ptr_[o] + i) % P;
        if (ch[p] >= 0 && in.out[p * V + static_cast<unsigned>(ch[p])] == o) {
          win[o] = static_cast<int>(p);
          break;
        }
      }
    }
    return win;
  }

  SaOut eval(const SaIn& in) const {
    const auto ch = choices(in);
    const auto win = winners(in, ch);
    SaOut out;
    out.out_sel.assign(P, 0);
    for (unsigned o = 0; o < P; ++o) {
      if (win[o] < 0) continue;
      const auto p = static_cast<unsigned>(win[o]);
      out.out_valid |= std::uint64_t{1} << o;
      out.out_sel[o] = p;
      out.gnt |= std::uint64_t{1} << (p * V + static_cast<unsigned>(ch[p]));
    }
    return out;
  }

  void clock(const SaIn& in) {
    const auto ch = choices(in);
    const auto win = winners(in, ch);
    for (unsigned o = 0; o < P; ++o) {
      if (win[o] < 0) continue;
      const auto p = static_cast<unsigned>(win[o]);
      out_ptr_[o] = (p + 1) % P;
      in_ptr_[p] = (static_cast<unsigned>(ch[p]) + 1) % V;  // the input advances only when it won
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

  SwAllocTest() { dut_.reset(); }

  SaOut drive_and_read(const SaIn& in) {
    std::uint64_t req = 0, port = 0;
    for (unsigned i = 0; i < N; ++i) {
      set_field(req, i, 1, in.req[i]);
      set_field(port, i * PW, PW, in.out[i]);
    }
    rtltest::put(dut_->req_i, req);
    rtltest::put(dut_->port_i, port);
    dut_.eval();
    SaOut out;
    out.gnt = dut_->gnt_o;
    out.out_valid = dut_->out_valid_o;
    const std::uint64_t sel = dut_->out_sel_o;
    for (unsigned o = 0; o < P; ++o) out.out_sel.push_back(static_cast<unsigned>(field(sel, o * PW, PW)));
    return out;
  }

  void check_properties(const SaIn& in, const SaOut& out) {
    const auto cyc = dut_.cycle();
    std::vector<int> holder(P, -1);  // input port granted each output
    bool any_req = false;
    for (unsigned p = 0; p < P; ++p) {
      const std::uint64_t g = field(out.gnt, p * V, V);
      EXPECT_LE(rtltest::popcount(g), 1) << "input port " << p << " has two grants, cycle " << cyc;
      for (unsigned v = 0; v < V; ++v) {
        const unsigned i = p * V + v;
        any_req |= in.req[i];
        if (!bit(out.gnt, i)) continue;
        EXPECT_TRUE(in.req[i]) << "grant to non-requesting VC " << i << ", cycle " << cyc;
        const unsigned o = in.out[i];
        EXPECT_EQ(holder[o], -1) << "output " << o << " granted twice, cycle " << cyc;
        holder[o] = static_cast<int>(p);
      }
    }
    for (unsigned o = 0; o < P; ++o) {
      EXPECT_EQ(bit(out.out_valid, o), holder[o] >= 0) << "out_valid_o[" << o << "] inconsistent, cycle " << cyc;
      if (holder[o] >= 0) {
        EXPECT_EQ(out.out_sel[o], static_cast<unsigned>(holder[o])) << "out_sel_o[" << o << "], cycle " << cyc;
      }
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
        EXPECT_EQ(holder[static_cast<unsigned>(only)], static_cast<int>(p))
            << "input " << p << " alone wants output " << only << " but did not get it, cycle " << cyc;
      }
    }
  }

  SaOut step(const SaIn& in) {
    const SaOut out = drive_and_read(in);
    check_properties(in, out);
    const SaOut exp = model_.eval(in);
    EXPECT_EQ(out.gnt, exp.gnt) << "cycle " << dut_.cycle();
    EXPECT_EQ(out.out_valid, exp.out_valid) << "cycle " << dut_.cycle();
    for (unsigned o = 0; o < P; ++o) {
      if (bit(exp.out_valid, o)) {
        EXPECT_EQ(out.out_sel[o], exp.out_sel[o]) << "out_sel " << o;
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

TYPED_TEST(SwAllocTest, IdleNoGrant) {
  constexpr unsigned N = TestFixture::N;
  SaIn in(N);
  for (int c = 0; c < 4; ++c) {
    const SaOut out = this->step(in);
    EXPECT_EQ(out.gnt, 0u);
    EXPECT_EQ(out.out_valid, 0u);
  }
}

TYPED_TEST(SwAllocTest, AllVcsOnOneOutputShareFairly) {
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

TYPED_TEST(SwAllocTest, PermutationGetsFullThroughput) {
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

TYPED_TEST(SwAllocTest, LosingVcKeepsItsTurn) {
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
    // Coverage: two input ports put forward VCs for the same output.
    const std::vector<int> ch = this->model_.choices(in);
    std::vector<unsigned> bidders(P, 0);
    for (unsigned p = 0; p < P; ++p) {
      if (ch[p] >= 0) ++bidders[in.out[p * TestFixture::V + static_cast<unsigned>(ch[p])]];
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
        ASSERT_LT(wait, N) << "VC " << target << " not granted within P*V cycles";
      }
    }
    EXPECT_GE(grants, 200 / N);
  }
}

}  // namespace
