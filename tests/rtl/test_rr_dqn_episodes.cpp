// Block test for rtl/rr_dqn_episodes.sv (DQN-routing's pending-episode
// table) against the bit-exact reference ref::DqnEpisodeTable: random opens,
// decisions, ack words and the caller's words, within the protocol (an ack
// names an open entry that waits for it, at most once per cycle), drive both
// for thousands of cycles; every output must be identical in every cycle:
// which entries the opens get (and when the table is full), the rewards,
// and the ack words each input port sends upstream. Two tables: a small one
// that fills up with 8-bit timestamps that wrap, and a router with two NI
// ports and 32 entries.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <verilated.h>

#include "Vrr_dqn_episodes_p5e8.h"
#include "Vrr_dqn_episodes_p7e32.h"
#include "rlroute/ref/dqn_episodes.hpp"
#include "rlroute/gen/dqn_episodes.hpp"
#include "vtb.hpp"

namespace cfg {
struct P5E8 {
  using Model = Vrr_dqn_episodes_p5e8;
  static constexpr unsigned P = 5, NI = 1, E = 8, STAMP_W = 8, DIST_W = 6;
};
struct P7E32 {
  using Model = Vrr_dqn_episodes_p7e32;
  static constexpr unsigned P = 7, NI = 2, E = 32, STAMP_W = 16, DIST_W = 6;
};
}  // namespace cfg

namespace {

using rlroute::ref::DqnEpisodeTable;
using rlroute::ref::EpisodeAck;
using rtltest::Bits;
using rtltest::Rng;

unsigned id_width(unsigned n) {
  unsigned w = 1;
  while ((1u << w) < n) ++w;
  return w;
}

template <class Cfg>
class DqnEpisodesTest : public ::testing::Test {
 protected:
  static constexpr unsigned P = Cfg::P, E = Cfg::E, STAMP_W = Cfg::STAMP_W, DIST_W = Cfg::DIST_W;
  const unsigned EW = id_width(E);
  const rlroute::DqnEpisodeLayout acks_{.entries = static_cast<int>(E), .index_bits = static_cast<int>(EW),
                                        .stamp_bits = static_cast<int>(STAMP_W), .distance_bits = static_cast<int>(DIST_W)};
  const unsigned ACK_W = static_cast<unsigned>(acks_.ack_bits());

  DqnEpisodesTest()
      : table_(static_cast<int>(P), static_cast<int>(Cfg::NI), static_cast<int>(E), static_cast<int>(STAMP_W)) {
    drive(idle());
    dut_.reset();
  }

  DqnEpisodeTable::Inputs idle() const {
    DqnEpisodeTable::Inputs in;
    in.open.assign(P, false);
    in.open_up.assign(P, 0);
    in.open_dist.assign(P, 0);
    in.decide.assign(P, false);
    in.decide_index.assign(P, 0);
    in.ack_in.assign(P, {});
    in.immediate.assign(P, {});
    return in;
  }

  // Port p's ack word, by the layout of rlroute/gen/dqn_episodes.hpp.
  void put_word(Bits& bits, unsigned p, const EpisodeAck& a) const { bits.set(p * ACK_W, ACK_W, acks_.encode(a)); }
  EpisodeAck get_word(const Bits& bits, unsigned p) const { return acks_.decode(bits.get(p * ACK_W, ACK_W)); }

  void drive(const DqnEpisodeTable::Inputs& in) {
    dut_->now_i = in.now;
    std::uint64_t open = 0, decide = 0;
    Bits up, dist, didx, acks, imm;
    for (unsigned p = 0; p < P; ++p) {
      open |= std::uint64_t{in.open[p]} << p;
      decide |= std::uint64_t{in.decide[p]} << p;
      up.set(p * EW, EW, in.open_up[p]);
      dist.set(p * DIST_W, DIST_W, in.open_dist[p]);
      didx.set(p * EW, EW, in.decide_index[p]);
      put_word(acks, p, in.ack_in[p]);
      put_word(imm, p, in.immediate[p]);
    }
    dut_->open_i = open;
    dut_->decide_i = decide;
    rtltest::put_bits(dut_->open_up_i, up, P * EW);
    rtltest::put_bits(dut_->open_dist_i, dist, P * DIST_W);
    rtltest::put_bits(dut_->decide_idx_i, didx, P * EW);
    rtltest::put_bits(dut_->ack_i, acks, P * ACK_W);
    rtltest::put_bits(dut_->imm_i, imm, P * ACK_W);
  }

  // One cycle of random traffic within the protocol.
  DqnEpisodeTable::Inputs random_inputs(Rng& rng, std::uint32_t now) {
    DqnEpisodeTable::Inputs in = idle();
    in.now = now;
    const std::vector<bool> open = table_.open_entries();
    std::vector<unsigned> waiting;  // open entries whose ack has not come
    for (unsigned e = 0; e < E; ++e) {
      if (open[e] && !table_.parked(e)) waiting.push_back(e);
    }
    std::vector<bool> used(E, false);
    for (unsigned p = 0; p < P; ++p) {
      in.open[p] = rng.chance(35);
      in.open_up[p] = static_cast<unsigned>(rng.bits(EW));
      in.open_dist[p] = static_cast<unsigned>(rng.bits(DIST_W));
      if (rng.chance(15)) in.immediate[p] = {true, rng.chance(50), static_cast<unsigned>(rng.bits(EW)),
                                            static_cast<std::uint32_t>(rng.bits(STAMP_W))};
    }
    for (unsigned q = 0; q < P && !waiting.empty(); ++q) {
      const unsigned e = waiting[rng.range(0, waiting.size() - 1)];
      if (used[e]) continue;
      if (rng.chance(30)) {
        used[e] = true;
        in.ack_in[q] = {true, rng.chance(20), e, static_cast<std::uint32_t>(rng.bits(STAMP_W))};
      } else if (rng.chance(25) && !table_.decided(e)) {
        used[e] = true;
        in.decide[q] = true;
        in.decide_index[q] = e;
      }
    }
    return in;
  }

  rlroute::ref::DqnEpisodeTable table_;
  rtltest::Dut<typename Cfg::Model> dut_;
};

using EpisodeCfgs = ::testing::Types<cfg::P5E8, cfg::P7E32>;
TYPED_TEST_SUITE(DqnEpisodesTest, EpisodeCfgs);

TYPED_TEST(DqnEpisodesTest, MatchesTheReferenceEveryCycle) {
  constexpr unsigned P = TestFixture::P;
  const unsigned EW = this->EW, STAMP_W = TestFixture::STAMP_W, DIST_W = TestFixture::DIST_W;
  Rng rng(0xE915 + P);
  int full = 0, rewards = 0, sent = 0, cancels = 0;
  for (std::uint32_t cycle = 0; cycle < 20000; ++cycle) {
    const auto in = this->random_inputs(rng, cycle);
    this->drive(in);
    this->dut_.eval();
    const auto want = this->table_.step(in);
    const Bits open_idx = rtltest::get_bits(this->dut_->open_idx_o, P * EW);
    const Bits rew_idx = rtltest::get_bits(this->dut_->rew_idx_o, P * EW);
    const Bits rew_dist = rtltest::get_bits(this->dut_->rew_dist_o, P * DIST_W);
    const Bits rew_lat = rtltest::get_bits(this->dut_->rew_latency_o, P * STAMP_W);
    const Bits acks = rtltest::get_bits(this->dut_->ack_o, P * this->ACK_W);
    for (unsigned p = 0; p < P; ++p) {
      const std::string at = "cycle " + std::to_string(cycle) + " port " + std::to_string(p);
      if (in.open[p]) {
        ASSERT_EQ(((this->dut_->open_ok_o >> p) & 1u) != 0, static_cast<bool>(want.open_ok[p])) << at;
        if (want.open_ok[p]) {
          ASSERT_EQ(open_idx.get(p * EW, EW), want.open_index[p]) << at;
        } else {
          ++full;
        }
      }
      const bool rv = ((this->dut_->rew_valid_o >> p) & 1u) != 0;
      ASSERT_EQ(rv, want.rewards[p].valid) << at;
      if (rv) {
        ++rewards;
        ASSERT_EQ(rew_idx.get(p * EW, EW), want.rewards[p].index) << at;
        ASSERT_EQ(rew_dist.get(p * DIST_W, DIST_W), want.rewards[p].distance) << at;
        ASSERT_EQ(rew_lat.get(p * STAMP_W, STAMP_W), want.rewards[p].latency) << at;
      }
      const EpisodeAck got = this->get_word(acks, p);
      ASSERT_EQ(got.valid, want.ack_out[p].valid) << at;
      if (got.valid) {
        ASSERT_EQ(got, want.ack_out[p]) << at;
        ++sent;
        cancels += got.cancel;
      }
    }
    this->dut_.tick();
  }
  EXPECT_GT(full, 0) << "the table never filled up";
  EXPECT_GT(rewards, 100);
  EXPECT_GT(sent, 1000);
  EXPECT_GT(cancels, 100);
}

}  // namespace
