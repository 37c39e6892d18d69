// Block test for rtl/rr_dqn_unit.sv (DQN-routing's decisions at the head of
// the VC) against ref::dqn_observation and ref::dqn_infer: a fresh head is
// refused while the network runs and answered when it presents again, with
// the reference's action if that port's DQN VC can take the packet, else
// DOR with Pdor; renewals are answered at once with DOR and Pdor; the heads
// of several ports are decided in the block's pipeline, started one
// interval apart (round-robin); another head at a port waits for that
// port's answer to be taken; on a mesh the ports that leave the network are
// never proposed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <verilated.h>

#include "Vrr_dqn_unit_t4x4.h"
#include "Vrr_dqn_unit_m3x3.h"
#include "Vrr_dqn_unit_t4x4_agent.h"
#include "Vrr_dqn_unit_t4x4_deep.h"
#include "dqn_program.hpp"
#include "rlroute/ref/dqn_inference.hpp"
#include "vtb.hpp"

namespace cfg {
// The 4x4 torus DQN router (5 ports, 3 VCs x 8 flits, 3-bit lengths) with a
// 13 -> 16 -> 4 network, 4 x 4 multipliers; the same router on a 3x3 mesh.
struct T4x4 {
  using Model = Vrr_dqn_unit_t4x4;
  static constexpr bool torus = true;
  static constexpr int k = 4;
};
struct M3x3 {
  using Model = Vrr_dqn_unit_m3x3;
  static constexpr bool torus = false;
  static constexpr int k = 3;
};
// The torus router with the agent outside (AGENT = 1: no inference block).
struct T4x4Agent {
  using Model = Vrr_dqn_unit_t4x4_agent;
  static constexpr bool torus = true;
  static constexpr int k = 4;
};
}  // namespace cfg

namespace {

using rlroute::ref::DqnLayer;
using rlroute::ref::DqnNetwork;
using rtltest::Bits;
using rtltest::Rng;

constexpr unsigned P = 5, V = 3, B = 8, CREDIT_CNT_W = 4, COORD_W = 2, LEN_W = 3, VCW = 2, EW = 5,
                   DOW = VCW + 1 + EW + 2 * COORD_W + LEN_W, PW = 3;
constexpr int NPAR = 4, IPAR = 4, kMaxLen = 4;  // MAX_LEN

template <class Cfg>
class DqnUnitTest : public ::testing::Test {
 protected:
  DqnUnitTest() {
    dut_->hd_valid_i = 0;
    dut_->prog_we_i = 0;
    dut_.reset();
  }

  DqnNetwork random_network(Rng& rng) {
    DqnNetwork n;
    const int sizes[] = {13, 16, 4};
    const unsigned shifts[] = {6, 0};
    for (int l = 0; l < 2; ++l) {
      DqnLayer layer{sizes[l], sizes[l + 1], {}, {}, shifts[l]};
      for (int k = 0; k < layer.inputs * layer.outputs; ++k) layer.weights.push_back(static_cast<int>(rng.range(0, 255)) - 128);
      for (int o = 0; o < layer.outputs; ++o) layer.biases.push_back(static_cast<int>(rng.range(0, 4000)) - 2000);
      n.layers.push_back(layer);
    }
    return n;
  }

  void program(const DqnNetwork& n) { rtltest::program_dqn(dut_, n, NPAR, IPAR, NPAR * IPAR * 8); }

  // The router's VC state.
  struct State {
    std::vector<bool> busy = std::vector<bool>(P * V, false);
    std::vector<unsigned> credits = std::vector<unsigned>(P * V, B);
    std::vector<unsigned> occ = std::vector<unsigned>(P * V, 0);
  };
  void drive(const State& s) {
    Bits busy, credits, occ;
    for (unsigned i = 0; i < P * V; ++i) {
      busy.set(i, 1, s.busy[i]);
      credits.set(i * CREDIT_CNT_W, CREDIT_CNT_W, s.credits[i]);
      occ.set(i * CREDIT_CNT_W, CREDIT_CNT_W, s.occ[i]);
    }
    rtltest::put_bits(dut_->vc_busy_i, busy, P * V);
    rtltest::put_bits(dut_->vc_credits_i, credits, P * V * CREDIT_CNT_W);
    rtltest::put_bits(dut_->in_occ_i, occ, P * V * CREDIT_CNT_W);
  }

  struct Head {
    bool valid = false, fresh = true;
    unsigned dor_port = 1, len = 1, dst[2] = {0, 0}, vc = 0;
    bool entry = false;  // it opened a pending-episode entry
    unsigned entry_idx = 0;
  };
  // Presents the heads (one per port) and settles the answers.
  void present(const std::vector<Head>& heads) {
    std::uint64_t valid = 0, fresh = 0;
    Bits ports, ops;
    for (unsigned p = 0; p < P; ++p) {
      valid |= std::uint64_t{heads[p].valid} << p;
      fresh |= std::uint64_t{heads[p].fresh} << p;
      ports.set(p * PW, PW, heads[p].dor_port);
      ops.set(p * DOW, COORD_W, heads[p].dst[0]);
      ops.set(p * DOW + COORD_W, COORD_W, heads[p].dst[1]);
      ops.set(p * DOW + 2 * COORD_W, LEN_W, heads[p].len);
      ops.set(p * DOW + 2 * COORD_W + LEN_W, EW, heads[p].entry_idx);
      ops.set(p * DOW + 2 * COORD_W + LEN_W + EW, 1, heads[p].entry);
      ops.set(p * DOW + 2 * COORD_W + LEN_W + EW + 1, VCW, heads[p].vc);
    }
    dut_->hd_valid_i = valid;
    dut_->hd_fresh_i = fresh;
    rtltest::put_bits(dut_->hd_port_i, ports, P * PW);
    rtltest::put_bits(dut_->hd_operands_i, ops, P * DOW);
    dut_.eval();
  }
  bool ready(unsigned p) { return (dut_->hd_ready_o >> p) & 1u; }
  unsigned choice(unsigned p) { return static_cast<unsigned>((dut_->hd_choice_o >> (p * PW)) & 7u); }
  bool alt(unsigned p) { return (dut_->hd_alt_o >> p) & 1u; }
  bool patch(unsigned p) { return (dut_->hd_patch_o >> p) & 1u; }
  bool decided(unsigned p) { return (dut_->decide_o >> p) & 1u; }
  unsigned decided_idx(unsigned p) { return static_cast<unsigned>((dut_->decide_idx_o >> (p * EW)) & 31u); }

  // The reference's answer for head h at router `coords` with state s.
  int ref_action(const DqnNetwork& n, const int coords[2], const Head& h, const State& s) {
    rlroute::ref::DqnObservationInputs in;
    in.coords = {coords[0], coords[1]};
    in.dst = {static_cast<int>(h.dst[0]), static_cast<int>(h.dst[1])};
    in.length = static_cast<int>(h.len);
    in.max_length = kMaxLen;
    in.buffer_flits = B;
    for (unsigned q = 1; q < P; ++q) {
      in.local.push_back(static_cast<int>(s.occ[q * V + V - 1]));
      in.downstream.push_back(static_cast<int>(B - s.credits[q * V + V - 1]));
    }
    std::uint32_t mask = 0;
    for (int d = 0; d < 2; ++d) {
      if (Cfg::torus || coords[d] < Cfg::k - 1) mask |= 1u << (2 * d);
      if (Cfg::torus || coords[d] > 0) mask |= 1u << (2 * d + 1);
    }
    return rlroute::ref::dqn_infer(n, rlroute::ref::dqn_observation(in, 8), mask).action;
  }

  void set_coords(const int coords[2]) {
    dut_->coord_i = static_cast<unsigned>(coords[0] | (coords[1] << COORD_W));
  }

  // Presents head h at port p every cycle until it is taken; returns the
  // refusals before that.
  int decide(unsigned p, const Head& h) {
    std::vector<Head> heads(P);
    heads[p] = h;
    heads[p].valid = true;
    int refusals = 0;
    for (;;) {
      present(heads);
      if (ready(p)) return refusals;
      ++refusals;
      dut_.tick();
      if (refusals > 1000) {
        ADD_FAILURE() << "never answered";
        return refusals;
      }
    }
  }

  rtltest::Dut<typename Cfg::Model> dut_;
};

using UnitCfgs = ::testing::Types<cfg::T4x4, cfg::M3x3>;
TYPED_TEST_SUITE(DqnUnitTest, UnitCfgs);

TYPED_TEST(DqnUnitTest, AnswersWithTheReferencesActionWhenItsVcCanTakeThePacket) {
  Rng rng(0xDA7 + TypeParam::k);
  const DqnNetwork n = this->random_network(rng);
  this->program(n);
  const int latency = rlroute::ref::dqn_latency_cycles(n, NPAR, IPAR);
  int agent = 0, escaped = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int coords[2] = {static_cast<int>(rng.range(0, TypeParam::k - 1)), static_cast<int>(rng.range(0, TypeParam::k - 1))};
    this->set_coords(coords);
    typename TestFixture::State s;
    for (unsigned i = 0; i < P * V; ++i) {
      s.busy[i] = rng.chance(25);
      s.credits[i] = static_cast<unsigned>(rng.range(0, B));
      s.occ[i] = static_cast<unsigned>(rng.range(0, B));
    }
    this->drive(s);
    typename TestFixture::Head h;
    h.dor_port = static_cast<unsigned>(rng.range(1, P - 1));
    h.len = static_cast<unsigned>(rng.range(1, 4));
    h.dst[0] = static_cast<unsigned>(rng.range(0, TypeParam::k - 1));
    h.dst[1] = static_cast<unsigned>(rng.range(0, TypeParam::k - 1));
    h.entry = rng.chance(70);
    h.entry_idx = static_cast<unsigned>(rng.range(0, 31));
    const unsigned p = static_cast<unsigned>(rng.range(0, P - 1));
    const int refusals = this->decide(p, h);
    ASSERT_EQ(refusals, latency + 1) << "refused while the network runs, taken in the cycle after its done";
    const int action = this->ref_action(n, coords, h, s);
    ASSERT_GE(action, 0);
    const unsigned port = 1 + static_cast<unsigned>(action);
    const bool free = !s.busy[port * V + V - 1] && s.credits[port * V + V - 1] >= h.len;
    if (free) {
      ++agent;
      EXPECT_EQ(this->choice(p), port) << "trial " << trial;
      EXPECT_FALSE(this->alt(p));
      EXPECT_EQ(this->decided(p), h.entry) << "the agent's port taken marks the head's entry, if it has one";
      if (h.entry) {
        EXPECT_EQ(this->decided_idx(p), h.entry_idx);
      }
    } else {
      EXPECT_FALSE(this->decided(p)) << "an escape to DOR earns no reward";
      ++escaped;
      EXPECT_EQ(this->choice(p), h.dor_port) << "trial " << trial;
      EXPECT_TRUE(this->alt(p));
      EXPECT_TRUE(this->patch(p)) << "Pdor";
    }
    EXPECT_EQ(this->dut_->decide_o & ~(1u << p), 0u) << "no other port decides";
    this->dut_.tick();  // taken: the port's slot is free again
    this->present(std::vector<typename TestFixture::Head>(P));
  }
  EXPECT_GT(agent, 10);
  EXPECT_GT(escaped, 5);
}

TYPED_TEST(DqnUnitTest, RenewalsGetDorAndPdorAtOnceAndTwoPortsAreDecidedOneIntervalApart) {
  Rng rng(0x5E);
  const DqnNetwork n = this->random_network(rng);
  this->program(n);
  const int interval = rlroute::ref::dqn_interval_cycles(n, NPAR, IPAR);
  ASSERT_GT(interval, 1);
  const int coords[2] = {1, 1};
  this->set_coords(coords);
  typename TestFixture::State s;
  this->drive(s);
  std::vector<typename TestFixture::Head> heads(P);
  for (unsigned p : {0u, 2u}) {
    heads[p].valid = true;
    heads[p].dor_port = 3;
    heads[p].len = 2;
    heads[p].dst[0] = p;
  }
  heads[4].valid = true;
  heads[4].fresh = false;  // a renewal
  heads[4].dor_port = 2;
  int taken0 = -1, taken2 = -1;
  for (int cycle = 0; cycle < 400 && (taken0 < 0 || taken2 < 0); ++cycle) {
    this->present(heads);
    ASSERT_TRUE(this->ready(4)) << "a renewal is answered in every cycle";
    EXPECT_EQ(this->choice(4), 2u);
    EXPECT_TRUE(this->alt(4));
    EXPECT_TRUE(this->patch(4));
    if (this->ready(0)) {
      taken0 = cycle;
      heads[0].valid = false;
    }
    if (this->ready(2)) {
      taken2 = cycle;
      heads[2].valid = false;
    }
    this->dut_.tick();
  }
  ASSERT_GE(taken0, 0);
  ASSERT_GE(taken2, 0);
  EXPECT_EQ(std::abs(taken0 - taken2), interval) << "started one interval apart, both in flight at once";
}

// Every port presents a fresh head at once (the busiest a router gets): the
// block starts one every interval (round-robin), each is answered with the
// reference's action once its decision is done, and all five are answered
// within 4 intervals + the latency + 1 cycles, not five latencies.
TYPED_TEST(DqnUnitTest, FivePortsAreDecidedInThePipeline) {
  Rng rng(0xF1F);
  const DqnNetwork n = this->random_network(rng);
  this->program(n);
  const int interval = rlroute::ref::dqn_interval_cycles(n, NPAR, IPAR);
  const int latency = rlroute::ref::dqn_latency_cycles(n, NPAR, IPAR);
  const int coords[2] = {1, 0};
  this->set_coords(coords);
  typename TestFixture::State s;  // every DQN VC free with all its credits
  this->drive(s);
  std::vector<typename TestFixture::Head> heads(P);
  for (unsigned p = 0; p < P; ++p) {
    heads[p].valid = true;
    heads[p].dor_port = 1;
    heads[p].len = 1 + p % 4;
    heads[p].dst[0] = p % static_cast<unsigned>(TypeParam::k);
    heads[p].dst[1] = (p + 1) % static_cast<unsigned>(TypeParam::k);
  }
  std::vector<int> taken(P, -1);
  int last = -1;
  for (int cycle = 0; cycle < 1000 && last < 0; ++cycle) {
    this->present(heads);
    for (unsigned p = 0; p < P; ++p) {
      if (!heads[p].valid || !this->ready(p)) continue;
      taken[p] = cycle;
      const int action = this->ref_action(n, coords, heads[p], s);
      ASSERT_GE(action, 0);
      EXPECT_EQ(this->choice(p), 1u + static_cast<unsigned>(action)) << "port " << p;
      EXPECT_FALSE(this->alt(p)) << "port " << p;
      heads[p].valid = false;
    }
    if (std::all_of(taken.begin(), taken.end(), [](int c) { return c >= 0; })) last = cycle;
    this->dut_.tick();
  }
  ASSERT_GE(last, 0) << "not every port was answered";
  std::vector<int> sorted = taken;
  std::sort(sorted.begin(), sorted.end());
  for (unsigned k = 0; k < P; ++k) EXPECT_EQ(sorted[k], latency + 1 + static_cast<int>(k) * interval) << k;
}

// Each input VC has its own slot: the heads of two VCs of one port are
// decided at once (one interval apart), and each answer waits in its slot
// until its own head presents again, however long that takes.
TYPED_TEST(DqnUnitTest, TwoVcsOfAPortAreDecidedAtOnceAndEachAnswerWaitsForItsHead) {
  Rng rng(0xA1);
  const DqnNetwork n = this->random_network(rng);
  this->program(n);
  const int interval = rlroute::ref::dqn_interval_cycles(n, NPAR, IPAR);
  const int latency = rlroute::ref::dqn_latency_cycles(n, NPAR, IPAR);
  const int coords[2] = {0, 1};
  this->set_coords(coords);
  typename TestFixture::State s;
  this->drive(s);
  typename TestFixture::Head a, b;
  a.valid = b.valid = true;
  a.dst[0] = 1;
  b.dst[0] = 2;
  b.vc = 2;
  std::vector<typename TestFixture::Head> heads(P);
  heads[1] = a;
  this->present(heads);  // a is started
  EXPECT_FALSE(this->ready(1));
  this->dut_.tick();
  heads[1] = b;  // the port presents the other VC's head from now on
  int cycle = 1;
  for (; cycle < 400 && !this->ready(1); ++cycle) {
    this->present(heads);
    if (this->ready(1)) break;
    this->dut_.tick();
  }
  EXPECT_EQ(cycle, interval + latency + 1) << "b started one interval after a, answered after its latency";
  EXPECT_EQ(this->choice(1), 1u + static_cast<unsigned>(this->ref_action(n, coords, b, s)));
  this->dut_.tick();
  heads[1].valid = false;
  for (int k = 0; k < 200; ++k) {
    this->present(heads);
    this->dut_.tick();
  }
  heads[1] = a;
  this->present(heads);
  EXPECT_TRUE(this->ready(1)) << "a presents again and is answered";
  EXPECT_EQ(this->choice(1), 1u + static_cast<unsigned>(this->ref_action(n, coords, a, s)));
}

// Zero weights and biases that rank the actions x- > y+ > y- > x+: at the
// corner (0, 0) of a mesh the x- and y- ports leave the network and are
// never proposed (y+ wins); on the torus x- wins.
TYPED_TEST(DqnUnitTest, NeverProposesAPortOutOfTheNetwork) {
  DqnNetwork n;
  n.layers.push_back({13, 16, std::vector<int32_t>(13 * 16, 0), std::vector<int64_t>(16, 0), 6});
  n.layers.push_back({16, 4, std::vector<int32_t>(16 * 4, 0), {10, 100, 50, 20}, 0});
  this->program(n);
  const int coords[2] = {0, 0};
  this->set_coords(coords);
  typename TestFixture::State s;
  this->drive(s);
  typename TestFixture::Head h;
  h.dst[0] = 2;
  h.dst[1] = 2;
  this->decide(0, h);
  const unsigned want = TypeParam::torus ? 2u : 3u;  // x- is port 2, y+ port 3
  EXPECT_EQ(this->choice(0), want);
  EXPECT_EQ(this->choice(0), 1u + static_cast<unsigned>(this->ref_action(n, coords, h, s)));
  EXPECT_FALSE(this->alt(0));
}

// The agent outside (routing.dqn_agent = "external"): a fresh head's
// decision is a request on the agent port with the reference's observation,
// the mask and the head's slot as tag; an answer in the same cycle is the
// head's decision when it presents next, one given later waits in the slot
// (no second request for that head meanwhile), and "no action" sends the head
// to DOR with Pdor.
class DqnUnitAgentTest : public DqnUnitTest<cfg::T4x4Agent> {
 protected:
  void answer(bool done, unsigned tag = 0, unsigned action = 0, bool valid = true) {
    dut_->agent_done_i = done;
    dut_->agent_tag_i = tag;
    dut_->agent_action_i = action;
    dut_->agent_action_valid_i = valid;
  }
};

TEST_F(DqnUnitAgentTest, RequestsCarryTheObservationAndAnswersLandInTheirSlots) {
  answer(false);
  const int coords[2] = {3, 2};
  set_coords(coords);
  State s;
  s.occ[2 * V + V - 1] = 5;      // flits in port 2's DQN VC buffer
  s.credits[4 * V + V - 1] = 1;  // port 4's DQN VC downstream: 7 flits
  drive(s);
  Head h;
  h.dor_port = 3;
  h.len = 4;
  h.dst[0] = 1;
  h.dst[1] = 0;
  h.vc = 1;
  h.entry = true;
  h.entry_idx = 17;
  std::vector<Head> heads(P);
  heads[2] = h;
  heads[2].valid = true;
  present(heads);
  ASSERT_TRUE(dut_->agent_req_o);
  EXPECT_FALSE(ready(2)) << "refused until its decision is in";
  EXPECT_EQ(dut_->agent_tag_o, 2u * V + 1u) << "the slot of port 2, VC 1";
  EXPECT_EQ(dut_->agent_episode_o, 32u | 17u) << "{opened an entry, entry 17}";
  EXPECT_EQ(dut_->agent_mask_o, 0xfu);
  rlroute::ref::DqnObservationInputs in;
  in.coords = {coords[0], coords[1]};
  in.dst = {1, 0};
  in.length = 4;
  in.max_length = kMaxLen;
  in.buffer_flits = B;
  for (unsigned q = 1; q < P; ++q) {
    in.local.push_back(static_cast<int>(s.occ[q * V + V - 1]));
    in.downstream.push_back(static_cast<int>(B - s.credits[q * V + V - 1]));
  }
  const std::vector<int32_t> want = rlroute::ref::dqn_observation(in, 8);
  const Bits obs = rtltest::get_bits(dut_->agent_obs_o, 13 * 8);
  for (unsigned i = 0; i < 13; ++i) EXPECT_EQ(static_cast<int32_t>(obs.get(i * 8, 8)), want[i]) << "value " << i;
  // Answered in the same cycle: +y (action 2, port 3) when it presents next.
  answer(true, dut_->agent_tag_o, 2);
  dut_.tick();
  answer(false);
  present(heads);
  ASSERT_TRUE(ready(2));
  EXPECT_EQ(choice(2), 3u);
  EXPECT_FALSE(alt(2));
  EXPECT_TRUE(decided(2));
  EXPECT_EQ(decided_idx(2), 17u);
  dut_.tick();

  // A head at port 4: its answer comes 10 cycles later, "no action".
  heads[2].valid = false;
  heads[4] = h;
  heads[4].valid = true;
  heads[4].vc = 2;
  heads[4].entry = false;
  present(heads);
  EXPECT_EQ(dut_->agent_episode_o, 17u) << "no entry opened";
  ASSERT_TRUE(dut_->agent_req_o);
  const unsigned tag = dut_->agent_tag_o;
  EXPECT_EQ(tag, 4u * V + 2u);
  for (int k = 0; k < 10; ++k) {
    dut_.tick();
    present(heads);
    EXPECT_FALSE(dut_->agent_req_o) << "no second request while the head's decision is out";
    EXPECT_FALSE(ready(4));
  }
  answer(true, tag, 0, false);
  dut_.tick();
  answer(false);
  present(heads);
  ASSERT_TRUE(ready(4));
  EXPECT_EQ(choice(4), 3u) << "DOR's port";
  EXPECT_TRUE(alt(4));
  EXPECT_TRUE(patch(4)) << "Pdor";
  EXPECT_FALSE(decided(4)) << "no action: no decision to reward";
}

// The packets of [Lonardo 2019]: 256-flit VC buffers and packets of up to 256
// flits (Vrr_dqn_unit_t4x4_deep, the agent outside). The length and the
// occupancies are halved before they saturate (LEN_SHIFT = OCC_SHIFT = 1),
// so a half-full VC reads 64, not 127; every request's observation is the
// reference's, over random lengths, occupancies and credits from 0 to 256.
TEST(DqnUnitDeepBuffers, TheObservationScalesLengthAndOccupanciesToTheActivationRange) {
  constexpr unsigned kB = 256, kCreditCntW = 9, kLenW = 9, kDow = VCW + 1 + EW + 2 * COORD_W + kLenW;
  constexpr int kLongest = 256;
  ASSERT_EQ(rlroute::ref::dqn_observation_shift(kLongest, 8), 1u);
  ASSERT_EQ(rlroute::ref::dqn_observation_shift(128, 8), 0u);
  rtltest::Dut<Vrr_dqn_unit_t4x4_deep> dut;
  dut->hd_valid_i = 0;
  dut->prog_we_i = 0;
  dut->agent_done_i = 0;
  dut.reset();
  Rng rng(0xDEE9);
  bool saw_half = false, saw_top = false;
  for (int trial = 0; trial < 200; ++trial) {
    const int coords[2] = {static_cast<int>(rng.range(0, 3)), static_cast<int>(rng.range(0, 3))};
    dut->coord_i = static_cast<unsigned>(coords[0] | (coords[1] << COORD_W));
    std::vector<unsigned> credits(P * V), occ(P * V);
    Bits credit_bits, occ_bits;
    for (unsigned i = 0; i < P * V; ++i) {
      credits[i] = static_cast<unsigned>(rng.range(0, kB));
      occ[i] = trial == 0 ? kB / 2 : trial == 1 ? kB : static_cast<unsigned>(rng.range(0, kB));
      credit_bits.set(i * kCreditCntW, kCreditCntW, credits[i]);
      occ_bits.set(i * kCreditCntW, kCreditCntW, occ[i]);
    }
    rtltest::put_bits(dut->vc_busy_i, Bits(0), P * V);
    rtltest::put_bits(dut->vc_credits_i, credit_bits, P * V * kCreditCntW);
    rtltest::put_bits(dut->in_occ_i, occ_bits, P * V * kCreditCntW);
    const unsigned port = static_cast<unsigned>(rng.range(0, P - 1)), vc = static_cast<unsigned>(rng.range(0, V - 1));
    const unsigned len = static_cast<unsigned>(rng.range(1, kLongest)), dst[2] = {static_cast<unsigned>(rng.range(0, 3)),
                                                                                 static_cast<unsigned>(rng.range(0, 3))};
    Bits ops, ports;
    ops.set(port * kDow, COORD_W, dst[0]);
    ops.set(port * kDow + COORD_W, COORD_W, dst[1]);
    ops.set(port * kDow + 2 * COORD_W, kLenW, len);
    ops.set(port * kDow + 2 * COORD_W + kLenW + EW + 1, VCW, vc);
    ports.set(port * PW, PW, 1);
    dut->hd_valid_i = 1u << port;
    dut->hd_fresh_i = 1u << port;
    rtltest::put_bits(dut->hd_port_i, ports, P * PW);
    rtltest::put_bits(dut->hd_operands_i, ops, P * kDow);
    dut.eval();
    ASSERT_TRUE(dut->agent_req_o) << "trial " << trial;
    rlroute::ref::DqnObservationInputs in;
    in.coords = {coords[0], coords[1]};
    in.dst = {static_cast<int>(dst[0]), static_cast<int>(dst[1])};
    in.length = static_cast<int>(len);
    in.max_length = kLongest;
    in.buffer_flits = kB;
    for (unsigned q = 1; q < P; ++q) {
      in.local.push_back(static_cast<int>(occ[q * V + V - 1]));
      in.downstream.push_back(static_cast<int>(kB - credits[q * V + V - 1]));
    }
    const std::vector<int32_t> want = rlroute::ref::dqn_observation(in, 8);
    const Bits obs = rtltest::get_bits(dut->agent_obs_o, 13 * 8);
    for (unsigned i = 0; i < 13; ++i) {
      ASSERT_EQ(static_cast<int32_t>(obs.get(i * 8, 8)), want[i]) << "trial " << trial << ", value " << i;
    }
    saw_half |= trial == 0 && want[5] == 64;
    saw_top |= trial == 1 && want[5] == 127;
    // Answer "no action", and let the head take its answer (DOR).
    dut->agent_done_i = 1;
    dut->agent_tag_i = dut->agent_tag_o;
    dut->agent_action_i = 0;
    dut->agent_action_valid_i = 0;
    dut.tick();
    dut->agent_done_i = 0;
    dut.eval();
    ASSERT_TRUE((dut->hd_ready_o >> port) & 1u) << "trial " << trial;
    dut.tick();
    dut->hd_valid_i = 0;
    dut.tick();
  }
  EXPECT_TRUE(saw_half) << "a half-full buffer (128 flits) reads 64";
  EXPECT_TRUE(saw_top) << "a full one (256 flits) reads 127";
}

}  // namespace
