// Block test for rtl/rr_dqn_episode_unit.sv (DQN-routing's episodes at route
// compute: the pending-episode table and what the router does with a head
// that asks for an ack), directed, on the 4x4 torus router (5 ports, one NI)
// with a 5-entry table (the least: one per port): a head passing through
// opens the entry its port holds in reserve (heads of one cycle each their
// own; a port that opened holds the lowest entry nobody holds once one is
// free, in port order), its header leaves with the entry's
// index in the episode field, and the entry's ack reports the torus distance
// and the latency (modulo 2^16) if the agent decided it, then goes upstream
// on the receive port's reverse link with the header's episode; a head at its
// destination is acked upstream in the next cycle, and with the table full
// ReqAck is cleared and a cancel goes upstream in the next cycle (from the NI
// port neither); a head without ReqAck passes unchanged; an injected packet's
// ack ends its episode; those immediate words go before a parked ack.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <verilated.h>

#include "Vrr_dqn_episode_unit_t4x4e5.h"
#include "rlroute/gen/dqn_episodes.hpp"
#include "rlroute/ref/dqn_episodes.hpp"
#include "vtb.hpp"

namespace {

using rtltest::Bits;
using rtltest::Rng;

// As tests/rtl/CMakeLists.txt Verilates the unit.
constexpr unsigned P = 5, NI = 1, W = 64, E = 5, STAMP_W = 16, DIST_W = 3, COORD_W = 2, K = 4;
constexpr unsigned DST_LSB = 5, REQ_ACK_LSB = 17, EPISODE_LSB = 33;
constexpr unsigned EW = 3, PW = 3;  // id_width(E), id_width(P)
constexpr unsigned kAll = (1u << E) - 1;  // every entry open
constexpr std::uint64_t kReqAck = std::uint64_t{1} << REQ_ACK_LSB;
// The header bits the route unit leaves alone here: dst, ReqAck, episode.
constexpr std::uint64_t kFields =
    (rtltest::mask(2 * COORD_W) << DST_LSB) | kReqAck | (rtltest::mask(EW) << EPISODE_LSB);

// An ack word {valid, cancel, index, timestamp}.
using Word = rlroute::ref::EpisodeAck;
// The ack word's layout (rlroute/gen/dqn_episodes.hpp) for this table.
const rlroute::DqnEpisodeLayout kAcks{.entries = E, .index_bits = EW, .stamp_bits = STAMP_W, .distance_bits = DIST_W};
const unsigned ACK_W = static_cast<unsigned>(kAcks.ack_bits());
}  // namespace
namespace rlroute::ref {
std::ostream& operator<<(std::ostream& os, const EpisodeAck& w) {
  return os << "{valid " << w.valid << ", cancel " << w.cancel << ", index " << w.index << ", ts " << w.timestamp
            << "}";
}
}  // namespace rlroute::ref
namespace {

// A head at route compute: the header as it arrived, its route's output port,
// and the header as the route unit rewrote it.
struct Head {
  bool valid = false;
  std::uint64_t hdr = 0;
  unsigned port = 0;
  std::uint64_t route = 0;
};

unsigned torus_distance(const unsigned a[2], const unsigned b[2]) {
  unsigned sum = 0;
  for (int d = 0; d < 2; ++d) {
    const unsigned off = a[d] > b[d] ? a[d] - b[d] : b[d] - a[d];
    sum += std::min(off, K - off);
  }
  return sum;
}

class DqnEpisodeUnitTest : public ::testing::Test {
 protected:
  DqnEpisodeUnitTest() {
    idle();
    settle();
    dut_.reset();
  }

  // Clears this cycle's heads, decisions and ack words (keeps now and coord).
  void idle() {
    for (unsigned p = 0; p < P; ++p) {
      heads_[p] = {};
      decide_[p] = false;
      decide_idx_[p] = 0;
      acks_[p] = {};
    }
  }

  // Drives the inputs and settles the outputs.
  void settle() {
    dut_->now_i = now_;
    dut_->coord_i = coord_[0] | (coord_[1] << COORD_W);
    std::uint64_t valid = 0, decide = 0;
    Bits hdr, port, route, didx, acks;
    for (unsigned p = 0; p < P; ++p) {
      valid |= std::uint64_t{heads_[p].valid} << p;
      hdr.set(p * W, W, heads_[p].hdr);
      port.set(p * PW, PW, heads_[p].port);
      route.set(p * W, W, heads_[p].route);
      decide |= std::uint64_t{decide_[p]} << p;
      didx.set(p * EW, EW, decide_idx_[p]);
      acks.set(p * ACK_W, ACK_W, kAcks.encode(acks_[p]));
    }
    dut_->rc_valid_i = valid;
    rtltest::put_bits(dut_->rc_hdr_i, hdr, P * W);
    rtltest::put_bits(dut_->rc_port_i, port, P * PW);
    rtltest::put_bits(dut_->rc_hdr_route_i, route, P * W);
    dut_->decide_i = decide;
    rtltest::put_bits(dut_->decide_idx_i, didx, P * EW);
    rtltest::put_bits(dut_->ack_i, acks, P * ACK_W);
    dut_.eval();
  }

  // The clock edge; the next cycle starts idle, one timestamp later.
  void tick() {
    dut_.tick();
    now_ = (now_ + 1) & rtltest::mask(STAMP_W);
    idle();
  }

  // A header to `dst` with random other bits.
  std::uint64_t header(bool req_ack, unsigned episode, const unsigned dst[2]) {
    std::uint64_t h = rng_.bits(64);
    rtltest::set_field(h, DST_LSB, COORD_W, dst[0]);
    rtltest::set_field(h, DST_LSB + COORD_W, COORD_W, dst[1]);
    rtltest::set_field(h, REQ_ACK_LSB, 1, req_ack);
    rtltest::set_field(h, EPISODE_LSB, EW, episode);
    return h;
  }
  // The head with that header, routed to `port` (the route unit changes
  // other bits of the header: hop count, VC fields).
  Head head(bool req_ack, unsigned episode, const unsigned dst[2], unsigned port) {
    Head h;
    h.valid = true;
    h.hdr = header(req_ack, episode, dst);
    h.port = port;
    h.route = h.hdr ^ (rng_.bits(64) & ~kFields);
    return h;
  }
  // A destination other than this router.
  void elsewhere(unsigned dst[2]) {
    do {
      dst[0] = static_cast<unsigned>(rng_.range(0, K - 1));
      dst[1] = static_cast<unsigned>(rng_.range(0, K - 1));
    } while (dst[0] == coord_[0] && dst[1] == coord_[1]);
  }
  // A head with ReqAck passing through (routed to a network port).
  Head passing(unsigned episode) {
    unsigned dst[2];
    elsewhere(dst);
    return head(true, episode, dst, static_cast<unsigned>(rng_.range(NI, P - 1)));
  }

  // Outputs.
  bool entry(unsigned p) { return rtltest::bit(dut_->rc_entry_o, p); }
  unsigned entry_idx(unsigned p) {
    return static_cast<unsigned>(rtltest::get_bits(dut_->rc_entry_idx_o, P * EW).get(p * EW, EW));
  }
  std::uint64_t hdr_out(unsigned p) { return rtltest::get_bits(dut_->rc_hdr_o, P * W).get(p * W, W); }
  Word ack_out(unsigned p) {
    const Bits b = rtltest::get_bits(dut_->ack_o, P * ACK_W);
    return kAcks.decode(b.get(p * ACK_W, ACK_W));
  }
  bool rew_valid(unsigned q) { return rtltest::bit(dut_->rew_valid_o, q); }
  unsigned rew_idx(unsigned q) { return static_cast<unsigned>(rtltest::get_bits(dut_->rew_idx_o, P * EW).get(q * EW, EW)); }
  unsigned rew_dist(unsigned q) {
    return static_cast<unsigned>(rtltest::get_bits(dut_->rew_dist_o, P * DIST_W).get(q * DIST_W, DIST_W));
  }
  std::uint32_t rew_latency(unsigned q) {
    return static_cast<std::uint32_t>(rtltest::get_bits(dut_->rew_latency_o, P * STAMP_W).get(q * STAMP_W, STAMP_W));
  }
  unsigned open_entries() { return static_cast<unsigned>(dut_->open_entries_o); }
  unsigned entries_opened() { return static_cast<unsigned>(dut_->rc_entry_o); }
  unsigned rewards() { return static_cast<unsigned>(dut_->rew_valid_o); }

  // No ack word on any input port's reverse link (lanes in `except` aside).
  void expect_no_words(const std::string& at, unsigned except = 0) {
    for (unsigned p = 0; p < P; ++p) {
      if (!rtltest::bit(except, p)) {
        EXPECT_FALSE(ack_out(p).valid) << at << ": a word on port " << p << ": " << ack_out(p);
      }
    }
  }

  // Opens an entry with the head `h` on port p (settles, checks, clocks);
  // the entry's index.
  unsigned open(unsigned p, const Head& h) {
    heads_[p] = h;
    settle();
    EXPECT_TRUE(entry(p)) << "port " << p;
    const unsigned idx = entry_idx(p);
    EXPECT_EQ(hdr_out(p), (h.route & ~(rtltest::mask(EW) << EPISODE_LSB)) | (std::uint64_t{idx} << EPISODE_LSB));
    tick();
    return idx;
  }

  rtltest::Dut<Vrr_dqn_episode_unit_t4x4e5> dut_;
  Rng rng_{0xE915};
  std::uint32_t now_ = 0x1234;
  unsigned coord_[2] = {1, 2};
  Head heads_[P];
  bool decide_[P];
  unsigned decide_idx_[P];
  Word acks_[P];
};

// Every router position, every destination: batches of four heads, one per
// network port in a random order, open four entries one per cycle (each a
// free one, each decided the cycle after); their acks come
// back in a random order on their output ports' lanes with random
// timestamps (now wraps meanwhile): each reports its entry, its distance and
// its latency on that lane only, and goes upstream on its receive port in
// the next cycle (not in the cycle it arrives) with the header's episode.
TEST_F(DqnEpisodeUnitTest, APassingHeadOpensAnEntryWhoseAckIsRewardedAndGoesUpstream) {
  now_ = 0xfff0;
  struct Open {
    unsigned recv, out, up, dist, idx;
    std::uint32_t opened;
  };
  int episodes = 0;
  unsigned distances = 0;  // bit d: distance d seen
  for (unsigned router = 0; router < K * K; ++router) {
    coord_[0] = router % K;
    coord_[1] = router / K;
    std::vector<unsigned> dsts;
    for (unsigned d = 0; d < K * K; ++d) {
      if (d != router) dsts.push_back(d);
    }
    for (std::size_t first = 0; first < dsts.size(); first += P - NI) {
      const std::string batch = "router " + std::to_string(router) + " batch " + std::to_string(first);
      std::vector<Open> opens;
      std::vector<unsigned> ports;
      for (unsigned p = NI; p < P; ++p) ports.push_back(p);
      for (std::size_t j = ports.size(); j > 1; --j) std::swap(ports[j - 1], ports[rng_.range(0, j - 1)]);
      unsigned table = 0;
      for (std::size_t j = first; j < std::min(first + P - NI, dsts.size()); ++j) {
        const unsigned dst[2] = {dsts[j] % K, dsts[j] / K};
        Open o{ports[j - first], static_cast<unsigned>(rng_.range(NI, P - 1)),
               static_cast<unsigned>(rng_.bits(EW)), torus_distance(coord_, dst), 0, now_};
        const Head h = head(true, o.up, dst, o.out);
        heads_[o.recv] = h;
        if (!opens.empty()) {  // the agent decides the previous head
          decide_[opens.back().recv] = true;
          decide_idx_[opens.back().recv] = opens.back().idx;
        }
        settle();
        const std::string at = batch + " open " + std::to_string(j);
        EXPECT_EQ(entries_opened(), 1u << o.recv) << at;
        o.idx = entry_idx(o.recv);
        EXPECT_FALSE(rtltest::bit(open_entries() | table, o.idx)) << at << ": entry " << o.idx << " is not free";
        table |= 1u << o.idx;
        EXPECT_EQ(hdr_out(o.recv), (h.route & ~(rtltest::mask(EW) << EPISODE_LSB)) | (std::uint64_t{o.idx} << EPISODE_LSB))
            << at;
        expect_no_words(at);
        EXPECT_EQ(rewards(), 0u) << at;
        opens.push_back(o);
        distances |= 1u << o.dist;
        tick();
      }
      decide_[opens.back().recv] = true;
      decide_idx_[opens.back().recv] = opens.back().idx;
      settle();
      tick();
      EXPECT_EQ(open_entries(), table) << batch;

      std::vector<std::size_t> order(opens.size());
      for (std::size_t j = 0; j < order.size(); ++j) order[j] = j;
      for (std::size_t j = order.size(); j > 1; --j) std::swap(order[j - 1], order[rng_.range(0, j - 1)]);
      const Open* prev = nullptr;
      Word prev_word;
      for (std::size_t k = 0; k <= order.size(); ++k) {
        const std::string at = batch + " ack " + std::to_string(k);
        const Open* o = k < order.size() ? &opens[order[k]] : nullptr;
        std::uint32_t ts = 0;
        if (o) {
          ts = static_cast<std::uint32_t>(rng_.bits(STAMP_W));
          acks_[o->out] = {true, false, o->idx, ts};
        }
        settle();
        if (o) {
          EXPECT_EQ(rewards(), 1u << o->out) << at;
          EXPECT_EQ(rew_idx(o->out), o->idx) << at;
          EXPECT_EQ(rew_dist(o->out), o->dist) << at;
          EXPECT_EQ(rew_latency(o->out), (ts - o->opened) & rtltest::mask(STAMP_W)) << at;
        } else {
          EXPECT_EQ(rewards(), 0u) << at;
        }
        if (prev) {
          EXPECT_EQ(ack_out(prev->recv), prev_word) << at;
          expect_no_words(at, 1u << prev->recv);
        } else {
          expect_no_words(at);
        }
        tick();
        if (o) {
          prev = o;
          prev_word = {true, false, o->up, ts};
          ++episodes;
        }
      }
      settle();
      expect_no_words(batch + " after");
      EXPECT_EQ(open_entries(), 0u) << batch << ": the entries are free once their acks went upstream";
      tick();  // the last one is held again (by a port that opened) at this edge
    }
  }
  EXPECT_EQ(episodes, 16 * 15);
  EXPECT_EQ(distances, 0b11110u) << "distances 1 to 4";
}

// Heads at their destination (routed to the NI port) on a random set of
// ports at once: no entry, the header as the route unit wrote it, nothing
// upstream in that cycle; in the next each network port's lane carries
// {ack, the header's episode, the arrival's now}, once; the NI port's none.
TEST_F(DqnEpisodeUnitTest, AHeadAtItsDestinationIsAckedUpstreamInTheNextCycle) {
  int words = 0;
  for (int round = 0; round < 200; ++round) {
    const std::string at = "round " + std::to_string(round);
    now_ = static_cast<std::uint32_t>(rng_.bits(STAMP_W));
    const std::uint32_t arrival = now_;
    unsigned ports = static_cast<unsigned>(rng_.range(1, (1u << P) - 1));
    unsigned eps[P] = {};
    for (unsigned p = 0; p < P; ++p) {
      if (!rtltest::bit(ports, p)) continue;
      eps[p] = static_cast<unsigned>(rng_.bits(EW));
      heads_[p] = head(true, eps[p], coord_, static_cast<unsigned>(rng_.range(0, NI - 1)));
    }
    const Head sent[P] = {heads_[0], heads_[1], heads_[2], heads_[3], heads_[4]};
    settle();
    EXPECT_EQ(entries_opened(), 0u) << at;
    for (unsigned p = 0; p < P; ++p) EXPECT_EQ(hdr_out(p), sent[p].route) << at << " port " << p;
    expect_no_words(at + ": in the arrival's cycle");
    tick();
    settle();
    for (unsigned p = 0; p < P; ++p) {
      if (p >= NI && rtltest::bit(ports, p)) {
        EXPECT_EQ(ack_out(p), (Word{true, false, eps[p], arrival})) << at << " port " << p;
        ++words;
      } else {
        EXPECT_FALSE(ack_out(p).valid) << at << " port " << p;
      }
    }
    EXPECT_EQ(open_entries(), 0u) << at;
    tick();
    settle();
    expect_no_words(at + ": two cycles on");
    tick();
  }
  EXPECT_GT(words, 300);
}

// With the five entries open (port p opened entry p, the one it held since
// reset), a head with ReqAck on a network port gets no entry, leaves with
// ReqAck cleared (the episode field as it was) and cancels upstream in the
// next cycle; on the NI port it only loses ReqAck.
TEST_F(DqnEpisodeUnitTest, AFullTableClearsReqAckAndCancelsUpstream) {
  for (unsigned p = 0; p < P; ++p) EXPECT_EQ(open(p, passing(3)), p);
  settle();
  ASSERT_EQ(open_entries(), kAll);
  tick();

  // One network port.
  const Head h = passing(2);
  heads_[3] = h;
  std::uint32_t arrival = now_;
  settle();
  EXPECT_FALSE(entry(3));
  EXPECT_EQ(hdr_out(3), h.route & ~kReqAck);
  expect_no_words("arrival");
  tick();
  settle();
  EXPECT_EQ(ack_out(3), (Word{true, true, 2, arrival}));
  expect_no_words("cancel", 1u << 3);
  tick();

  // The NI port: no upstream.
  const Head injected = passing(1);
  heads_[0] = injected;
  settle();
  EXPECT_EQ(entries_opened(), 0u);
  EXPECT_EQ(hdr_out(0), injected.route & ~kReqAck);
  expect_no_words("injected");
  tick();
  settle();
  expect_no_words("after the injected head");
  tick();

  // All five at once: every network port cancels on its own lane.
  unsigned eps[P];
  Head all[P];
  for (unsigned p = 0; p < P; ++p) {
    eps[p] = static_cast<unsigned>(rng_.bits(EW));
    all[p] = heads_[p] = passing(eps[p]);
  }
  arrival = now_;
  settle();
  EXPECT_EQ(entries_opened(), 0u);
  for (unsigned p = 0; p < P; ++p) EXPECT_EQ(hdr_out(p), all[p].route & ~kReqAck) << "port " << p;
  expect_no_words("five heads");
  tick();
  settle();
  EXPECT_FALSE(ack_out(0).valid);
  for (unsigned p = NI; p < P; ++p) EXPECT_EQ(ack_out(p), (Word{true, true, eps[p], arrival})) << "port " << p;
  EXPECT_EQ(open_entries(), kAll) << "cancels leave the table alone";
  tick();
  settle();
  expect_no_words("two cycles on");
}

// Without ReqAck (or without a head) nothing happens, whatever the route and
// however full the table: no entry, the header unchanged, no word.
TEST_F(DqnEpisodeUnitTest, AHeadWithoutReqAckPassesUnchanged) {
  for (int full = 0; full < 2; ++full) {
    if (full) {
      for (unsigned p = 0; p < P; ++p) open(p, passing(p));
    }
    const unsigned table = full ? kAll : 0u;
    for (int round = 0; round < 50; ++round) {
      const std::string at = (full ? "full, round " : "empty, round ") + std::to_string(round);
      Head sent[P];
      for (unsigned p = 0; p < P; ++p) {
        unsigned dst[2];
        elsewhere(dst);
        // Either a head without ReqAck, or a header with ReqAck that is no head.
        const bool no_head = rng_.chance(30);
        heads_[p] = head(no_head, static_cast<unsigned>(rng_.bits(EW)), rng_.chance(30) ? coord_ : dst,
                         static_cast<unsigned>(rng_.range(0, P - 1)));
        heads_[p].valid = !no_head;
        sent[p] = heads_[p];
      }
      settle();
      EXPECT_EQ(entries_opened(), 0u) << at;
      for (unsigned p = 0; p < P; ++p) EXPECT_EQ(hdr_out(p), sent[p].route) << at << " port " << p;
      expect_no_words(at);
      tick();
      settle();
      expect_no_words(at + ", next cycle");
      EXPECT_EQ(open_entries(), table) << at;
    }
  }
}

// The ack of an entry the agent did not decide (another entry was) reports
// no reward but goes upstream; so does a cancel of a decided entry, as a
// cancel.
TEST_F(DqnEpisodeUnitTest, AnUndecidedEntrysAckAndACancelGoUpstreamWithoutAReward) {
  const unsigned a = open(3, passing(2));
  const unsigned b = open(4, passing(1));
  ASSERT_EQ(a, 3u) << "the entry port 3 holds since reset";
  ASSERT_EQ(b, 4u);
  decide_[3] = true;  // port 3's lane marks entry b
  decide_idx_[3] = b;
  settle();
  tick();

  acks_[1] = {true, false, a, 0x0101};
  settle();
  EXPECT_EQ(rewards(), 0u) << "entry a was not decided";
  expect_no_words("ack of a");
  tick();
  settle();
  EXPECT_EQ(ack_out(3), (Word{true, false, 2, 0x0101}));
  expect_no_words("a upstream", 1u << 3);
  tick();
  settle();
  expect_no_words("after a");
  EXPECT_EQ(open_entries(), 1u << b);

  // The decided entry's ack, as a cancel: no reward either.
  acks_[2] = {true, true, b, 0x0202};
  settle();
  EXPECT_EQ(rewards(), 0u) << "a cancel";
  tick();
  settle();
  EXPECT_EQ(ack_out(4), (Word{true, true, 1, 0x0202}));
  expect_no_words("b upstream", 1u << 4);
  tick();
  settle();
  expect_no_words("after b");
  EXPECT_EQ(open_entries(), 0u);

  // Decided and acked: a reward (the mark is the only difference).
  const unsigned c = open(2, passing(3));
  decide_[0] = true;
  decide_idx_[0] = c;
  settle();
  tick();
  acks_[4] = {true, false, c, 0x0303};
  settle();
  EXPECT_EQ(rewards(), 1u << 4);
  EXPECT_EQ(rew_idx(4), c);
}

// Entries opened by heads injected here (NI port): their acks are rewarded
// and free the entry at once, with no word upstream; the NI port holds the
// entry again from the cycle after, and the next injected head opens it.
TEST_F(DqnEpisodeUnitTest, AnInjectedPacketsAckEndsItsEpisode) {
  for (unsigned round = 0; round < 2 * (P - NI); ++round) {
    const std::string at = "round " + std::to_string(round);
    unsigned dst[2];
    elsewhere(dst);
    const unsigned dist = torus_distance(coord_, dst), lane = NI + round % (P - NI);
    const std::uint32_t opened = now_;
    const unsigned e = open(0, head(true, 3, dst, lane));
    EXPECT_EQ(e, 0u) << at << ": the NI port's entry since reset, and again once free";
    decide_[0] = true;
    decide_idx_[0] = e;
    settle();
    tick();
    settle();
    ASSERT_EQ(open_entries(), 1u << e) << at;
    const std::uint32_t ts = static_cast<std::uint32_t>(rng_.bits(STAMP_W));
    acks_[lane] = {true, false, e, ts};
    settle();
    EXPECT_EQ(rewards(), 1u << lane) << at;
    EXPECT_EQ(rew_idx(lane), e) << at;
    EXPECT_EQ(rew_dist(lane), dist) << at;
    EXPECT_EQ(rew_latency(lane), (ts - opened) & rtltest::mask(STAMP_W)) << at;
    expect_no_words(at);
    tick();
    settle();
    EXPECT_EQ(open_entries(), 0u) << at << ": free in the next cycle";
    expect_no_words(at + ", next cycle");
    // An injected head now finds no entry: the NI port holds one again only
    // from the next cycle.
    heads_[0] = passing(1);
    settle();
    EXPECT_FALSE(entry(0)) << at << ": held again only from the next cycle";
    tick();
  }
}

// Heads on several ports in one cycle each open the entry their port holds;
// a port that opened gets the lowest entry nobody holds once one is free;
// each entry keeps its own head's receive port, episode and distance.
TEST_F(DqnEpisodeUnitTest, HeadsOfOneCycleOpenTheEntriesTheirPortsHold) {
  // Two heads on an empty table: ports 4 and 2 hold entries 4 and 2.
  Head h4 = passing(3), h2 = passing(0);
  heads_[4] = h4;
  heads_[2] = h2;
  settle();
  EXPECT_EQ(entries_opened(), (1u << 2) | (1u << 4));
  EXPECT_EQ(entry_idx(2), 2u);
  EXPECT_EQ(entry_idx(4), 4u);
  EXPECT_EQ(hdr_out(2), (h2.route & ~(rtltest::mask(EW) << EPISODE_LSB)) | (std::uint64_t{2} << EPISODE_LSB));
  EXPECT_EQ(hdr_out(4), (h4.route & ~(rtltest::mask(EW) << EPISODE_LSB)) | (std::uint64_t{4} << EPISODE_LSB));
  tick();
  // A third on port 1; then entry 4 (port 4's) acked and gone upstream:
  // 1 and 2 open, and port 1 (the lowest port without one) holds entry 4.
  EXPECT_EQ(open(1, passing(2)), 1u);
  acks_[3] = {true, false, 4, 0x77};
  settle();
  tick();
  settle();
  EXPECT_EQ(ack_out(4), (Word{true, false, 3, 0x77}));
  tick();
  settle();
  ASSERT_EQ(open_entries(), 0b00110u);
  tick();

  // Four heads with ReqAck at once: ports 1 and 3 open entries 4 and 3, port
  // 4 holds none (the table is full for it), port 2's is at its destination.
  const unsigned dst1[2] = {(coord_[0] + 2) % K, (coord_[1] + 2) % K}, dst3[2] = {(coord_[0] + 3) % K, (coord_[1] + 1) % K};
  const unsigned dst4[2] = {(coord_[0] + 1) % K, coord_[1]};
  heads_[1] = head(true, 1, dst1, 2);
  heads_[2] = head(true, 2, coord_, 0);
  heads_[3] = head(true, 3, dst3, 4);
  heads_[4] = head(true, 0, dst4, 1);
  const Head sent4 = heads_[4];
  const std::uint32_t arrival = now_;
  settle();
  EXPECT_EQ(entries_opened(), (1u << 1) | (1u << 3));
  EXPECT_EQ(entry_idx(1), 4u);
  EXPECT_EQ(entry_idx(3), 3u);
  EXPECT_EQ(hdr_out(4), sent4.route & ~kReqAck);
  decide_[0] = true;  // entries 1 and 2, so that all rewards show
  decide_idx_[0] = 1;
  decide_[2] = true;
  decide_idx_[2] = 2;
  tick();
  decide_[1] = true;
  decide_idx_[1] = 4;
  decide_[3] = true;
  decide_idx_[3] = 3;
  settle();
  EXPECT_EQ(ack_out(2), (Word{true, false, 2, arrival}));
  EXPECT_EQ(ack_out(4), (Word{true, true, 0, arrival}));
  expect_no_words("dest ack and cancel", (1u << 2) | (1u << 4));
  EXPECT_EQ(open_entries(), 0b11110u);
  tick();

  // Both acks in one cycle on two lanes: each its own distance and receive port.
  acks_[2] = {true, false, 3, 0x900};
  acks_[4] = {true, false, 4, 0x500};
  settle();
  EXPECT_EQ(rewards(), (1u << 2) | (1u << 4));
  EXPECT_EQ(rew_idx(2), 3u);
  EXPECT_EQ(rew_dist(2), 2u);  // 1 + 1
  EXPECT_EQ(rew_idx(4), 4u);
  EXPECT_EQ(rew_dist(4), 4u);  // 2 + 2
  tick();
  settle();
  EXPECT_EQ(ack_out(1), (Word{true, false, 1, 0x500}));
  EXPECT_EQ(ack_out(3), (Word{true, false, 3, 0x900}));
  expect_no_words("two acks upstream", (1u << 1) | (1u << 3));
  tick();
  settle();
  EXPECT_EQ(open_entries(), 0b00110u);
}

// A destination's ack or a cancel due on a port in the same cycle as a
// parked ack goes first; the parked one follows when the port is free.
TEST_F(DqnEpisodeUnitTest, TheImmediateWordGoesBeforeAParkedAck) {
  const unsigned a = open(2, passing(1));
  // The ack of a arrives while a head at its destination arrives on port 2,
  // and another the next cycle.
  acks_[3] = {true, false, a, 0x4444};
  heads_[2] = head(true, 2, coord_, 0);
  const std::uint32_t first = now_;
  settle();
  expect_no_words("arrival");
  tick();
  heads_[2] = head(true, 3, coord_, 0);
  const std::uint32_t second = now_;
  settle();
  EXPECT_EQ(ack_out(2), (Word{true, false, 2, first}));
  tick();
  settle();
  EXPECT_EQ(ack_out(2), (Word{true, false, 3, second}));
  EXPECT_EQ(open_entries(), 1u << a) << "a still waits";
  tick();
  settle();
  EXPECT_EQ(ack_out(2), (Word{true, false, 1, 0x4444}));
  tick();
  settle();
  expect_no_words("all sent");
  EXPECT_EQ(open_entries(), 0u);
  tick();

  // The same with a cancel: the table full (each port opened the entry it
  // held), one entry's ack arrives as a head on its receive port finds no
  // entry.
  for (unsigned p = 0; p < P; ++p) EXPECT_EQ(open(p, passing(p)), p);
  acks_[1] = {true, false, 3, 0x5555};  // entry 3, received on port 3
  const Head h = passing(0);
  heads_[3] = h;
  const std::uint32_t arrival = now_;
  settle();
  EXPECT_FALSE(entry(3)) << "a parked entry is not free";
  EXPECT_EQ(hdr_out(3), h.route & ~kReqAck);
  tick();
  settle();
  EXPECT_EQ(ack_out(3), (Word{true, true, 0, arrival}));
  tick();
  settle();
  EXPECT_EQ(ack_out(3), (Word{true, false, 3, 0x5555}));
  tick();
  settle();
  expect_no_words("all sent");
  EXPECT_EQ(open_entries(), 0b10111u);
}

}  // namespace
