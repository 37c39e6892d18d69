// Block test for rtl/rr_q_unit.sv (Q-adaptive's table, read ports, decision
// units, LFSRs and feedback in both directions) against a cycle-level C++
// model of what its header comment and docs/q_adaptive.md ("The router")
// promise, built on the bit-exact
// references (rlroute::ref::q_update, q_decide, q_argmin, q_target):
//  - reset, then ROWS cycles of initialisation (init_row_o counts the rows,
//    init_value_i is taken), then ready_o; until then no head is accepted and
//    feedback is dropped (fb_drop_o per column);
//  - input port p presents on hd_*; a head that needs its row competes for
//    read port p mod READ_PORTS (round-robin, the pointer moving past every winner,
//    also before ready_o) and is accepted only if it won; a head that needs
//    no row is always accepted (once ready);
//  - the decision of a read port: rlroute::ref::q_decide on the row as the
//    table stood in the cycle of the presentation (before that cycle's
//    updates), the head's role and minimal column, the epsilon draw (16 LFSR
//    bits below EPS) and the random local and exploring columns (8 LFSR bits
//    each, floor(r8 x n / 256)) of two LFSRs per read port, seeded from seed_i
//    and the read port's index; the answer: the port (NUM_NI + column, or the
//    route's port for a head that needs no row), whether a source router
//    leaves non-minimally (hd_alt_o) and the phase it leaves with
//    (hd_patch_o: 1 through a global port that does not lead to the
//    destination group, else 2); with SOURCE_GROUP the next router of the
//    source group decides too and patches likewise, and with DETOUR a
//    source's local column other than the minimal one leaves with 3; in the cycle of the presentation (DECIDE_CYCLES = 1)
//    or in the next one (DECIDE_CYCLES = 2);
//  - the first accepted presentation of a head whose feedback is due sends
//    {row upstream, target = r + Q_y} on fb_o one cycle after the answer,
//    Q_y = its row's minimum (0 for a head that needs no row), saturated;
//    with R_AT_DECISION the operands' r field is a stamp and r = now_i at
//    the answer less it, modulo 2^16;
//  - feedback on fb_i (the credit word of output port NUM_NI + c) updates
//    column c of its row with the hysteretic rule.
// Every output is compared every cycle; the table itself is read back
// through the decisions (rows with ties and values at both ends of the range
// included), and the stimulus is steered so that every branch of the
// decision is taken (coverage counters below).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include "Vrr_q_unit_a.h"
#include "Vrr_q_unit_b.h"
#include "Vrr_q_unit_c.h"
#include "Vrr_q_unit_d.h"
#include "rlroute/gen/q_codes.hpp"
#include "rlroute/ref/q_decision.hpp"
#include "rlroute/ref/q_learning.hpp"
#include "vtb.hpp"

namespace cfg {

template <class M, unsigned P_, unsigned NUM_NI_, unsigned A_, unsigned H_, unsigned NUM_G_, unsigned QW_,
          unsigned QFB_, unsigned RB_, unsigned ALPHA_, unsigned BETA_, unsigned TB_, unsigned THLD_SRC_,
          unsigned THLD_INT_, unsigned EPS_, unsigned READ_PORTS_, unsigned DECIDE_CYCLES_, bool R_AT_DECISION_ = false,
          bool INT_BEST_ = false, bool SOURCE_GROUP_ = false, bool DETOUR_ = false>
struct UnitCfg {
  using Model = M;
  static constexpr unsigned P = P_, NUM_NI = NUM_NI_, A = A_, H = H_, NUM_G = NUM_G_, QW = QW_, QFB = QFB_, RB = RB_,
                            ALPHA = ALPHA_, BETA = BETA_, TB = TB_, THLD_SRC = THLD_SRC_, THLD_INT = THLD_INT_,
                            EPS = EPS_, READ_PORTS = READ_PORTS_, DECIDE_CYCLES = DECIDE_CYCLES_;
  static constexpr bool R_AT_DECISION = R_AT_DECISION_;
  static constexpr bool INT_BEST = INT_BEST_;
  static constexpr bool SOURCE_GROUP = SOURCE_GROUP_, DETOUR = DETOUR_;
};

// As tests/rtl/CMakeLists.txt builds them.
// Dfly2429 (Vrr_q_unit_a): the example's router, dfly(2,4,2,9) (5 network ports, 16 rows), the
// generator's codes for the parameters of [Kang 2021] (kQRateBits 12,
// kQThresholdBits 10) with epsilon 0.1, a read port per input port, one-cycle
// decisions.
struct Dfly2429 : UnitCfg<Vrr_q_unit_a, 7, 2, 4, 2, 9, 16, 4, 12, 819, 164, 10, 205, 358, 6554, 7, 1> {};
// SmallTwoCycle (Vrr_q_unit_b): 1 node, 2 local and 3 global ports, 7 groups (6 rows), 10-bit values
// with 2 fraction bits (saturate at 255 cycles), 8-bit rates and
// thresholds, epsilon 0.25, two read ports for six input ports, two-cycle
// decisions.
struct SmallTwoCycle : UnitCfg<Vrr_q_unit_b, 6, 1, 3, 3, 7, 10, 2, 8, 51, 10, 8, 51, 90, 16384, 2, 2> {};
// Dfly2429Stamp (Vrr_q_unit_c): Dfly2429 taking r at the answer (R_AT_DECISION), and
// weighing the best local port at the intermediate router (INT_BEST).
struct Dfly2429Stamp
    : UnitCfg<Vrr_q_unit_c, 7, 2, 4, 2, 9, 16, 4, 12, 819, 164, 10, 205, 358, 6554, 7, 1, true, true> {};
// Dfly2429Detour (Vrr_q_unit_d): Dfly2429 with the next router of the source
// group deciding the source's local detours (SOURCE_GROUP, DETOUR).
struct Dfly2429Detour
    : UnitCfg<Vrr_q_unit_d, 7, 2, 4, 2, 9, 16, 4, 12, 819, 164, 10, 205, 358, 6554, 7, 1, false, false, true, true> {};

}  // namespace cfg

namespace {

using rlroute::ref::QRole;
using rtltest::Bits;
using rtltest::Dut;
using rtltest::Rng;

constexpr unsigned id_width(unsigned n) { return n > 1 ? 32 - static_cast<unsigned>(__builtin_clz(n - 1)) : 1; }
constexpr std::uint16_t kSeed = 0xBEEF;  // seed_i

// One presentation of an input port, as the route unit prepares it.
struct Head {
  bool valid = false, fresh = false;
  unsigned port = 0;  // the route's (minimal) port
  unsigned min_col = 0, role = 0, row = 0, fb_row = 0, r = 0, to_dst = 0;
  bool read = false, fb_due = false;
};

// What an input port must see: the answer (for an accepted head) and, a cycle
// later, the feedback word.
struct Answer {
  bool due = false;  // an accepted head: the answer is compared
  unsigned choice = 0, patch = 0;
  bool alt = false;
};
// A feedback word, {valid, row, target} (rlroute/gen/q_codes.hpp).
using FeedbackWord = rlroute::QFeedback;

template <class Cfg>
class QUnitTest : public ::testing::Test {
 protected:
  static constexpr unsigned P = Cfg::P, NUM_NI = Cfg::NUM_NI, A = Cfg::A, H = Cfg::H, QW = Cfg::QW,
                            READ_PORTS = Cfg::READ_PORTS, DECIDE_CYCLES = Cfg::DECIDE_CYCLES;
  static constexpr unsigned NUM_COLS = P - NUM_NI, ROWS = (Cfg::NUM_G - 1) * NUM_NI;
  static constexpr unsigned ROW_W = id_width(ROWS), COL_W = id_width(NUM_COLS), PW = id_width(P), STAMP_W = 16;
  static constexpr unsigned DOW = COL_W + 2 + 1 + 2 * ROW_W + 1 + STAMP_W + H;  // rr_pkg::q_operands_width
  static constexpr std::uint32_t kMax = (std::uint32_t{1} << QW) - 1;

  QUnitTest() {
    dut_.reset();
    dut_->seed_i = kSeed;
    table_.assign(ROWS, std::vector<std::uint32_t>(NUM_COLS, 0));
    for (unsigned k = 0; k < READ_PORTS; ++k) {
      eps_seed_.push_back(static_cast<std::uint16_t>(kSeed ^ static_cast<std::uint16_t>(k * 0x3C6Fu)));
      col_seed_.push_back(static_cast<std::uint16_t>(kSeed ^ static_cast<std::uint16_t>(k * 0x3C6Fu + 0x5A5Au)));
    }
    lfsr_eps_.assign(READ_PORTS, 0);
    lfsr_col_.assign(READ_PORTS, 0);
    arb_mask_.assign(READ_PORTS, static_cast<std::uint32_t>(rtltest::mask(P)));
    answers_.assign(DECIDE_CYCLES - 1, std::vector<Answer>(P));
    words_.assign(DECIDE_CYCLES, std::vector<FeedbackWord>(P));
  }

  // The table's initial values: any function of row and column; small
  // enough that every decision branch is reachable, with equal entries.
  static std::uint32_t initial(unsigned row, unsigned col) {
    return static_cast<std::uint32_t>(((8 + (row * 3 + col * 5) % 7) << Cfg::QFB)) & kMax;
  }

  static std::uint16_t lfsr_next(std::uint16_t s) {
    return static_cast<std::uint16_t>((s >> 1) ^ ((s & 1u) ? 0xB400u : 0u));
  }

  // ---- stimulus ----
  Head random_head() {
    Head h;
    h.valid = rng_.chance(75);
    h.fresh = rng_.chance(70);
    h.port = static_cast<unsigned>(rng_.range(0, P - 1));
    h.read = rng_.chance(85);
    h.role = static_cast<unsigned>(rng_.range(0, Cfg::SOURCE_GROUP ? 3 : 2));
    // Two hot rows, where feedback drives entries together (ties) and to
    // the ends of the range.
    h.row = static_cast<unsigned>(rng_.chance(40) ? rng_.range(0, 1) : rng_.range(0, ROWS - 1));
    h.min_col = static_cast<unsigned>(rng_.range(0, NUM_COLS - 1));
    h.fb_due = rng_.chance(80);
    h.r = static_cast<unsigned>(rng_.chance(5) ? rng_.range(0, 0xFFFF) : rng_.range(0, 40));
    h.fb_row = static_cast<unsigned>(rng_.range(0, ROWS - 1));
    h.to_dst = static_cast<unsigned>(rng_.bits(H));
    return h;
  }

  // Feedback for each column (row -1: none).
  void random_feedback(std::vector<int>& rows, std::vector<std::uint32_t>& targets) {
    rows.assign(NUM_COLS, -1);
    targets.assign(NUM_COLS, 0);
    for (unsigned c = 0; c < NUM_COLS; ++c) {
      if (!rng_.chance(40)) continue;
      rows[c] = static_cast<int>(rng_.chance(40) ? rng_.range(0, 1) : rng_.range(0, ROWS - 1));
      const std::uint32_t q = table_[static_cast<unsigned>(rows[c])][c];
      // Row 0 falls to one value in every column (a row of ties), row 1 to 0.
      if (rows[c] <= 1 && rng_.chance(90)) {
        targets[c] = rows[c] == 0 ? 6u << Cfg::QFB : 0;
        continue;
      }
      switch (rng_.range(0, 9)) {
        case 0: targets[c] = 0; break;
        case 1: targets[c] = kMax; break;
        default:
          targets[c] = static_cast<std::uint32_t>(
              std::clamp<std::int64_t>(std::int64_t{q} + static_cast<std::int64_t>(rng_.range(0, 64)) - 32, 0, kMax));
          break;
      }
    }
  }

  // ---- one cycle ----
  // Drives the heads and the feedback, compares every output with the model
  // and clocks.
  void step(const std::vector<Head>& heads, const std::vector<int>& fb_rows,
            const std::vector<std::uint32_t>& fb_targets) {
    const std::string at = "cycle " + std::to_string(dut_.cycle());
    std::uint64_t valid = 0, fresh = 0, ports = 0;
    Bits ops, fb;
    for (unsigned p = 0; p < P; ++p) {
      const Head& h = heads[p];
      valid |= std::uint64_t{h.valid} << p;
      fresh |= std::uint64_t{h.fresh} << p;
      rtltest::set_field(ports, p * PW, PW, h.port);
      // {to_dst, fb_row, r, fb_due, row, read, role, min_col}, min_col at the LSB
      unsigned lsb = p * DOW;
      for (const auto& [value, width] : {std::pair<std::uint64_t, unsigned>{h.min_col, COL_W},
                                         {h.role, 2u},
                                         {h.read, 1u},
                                         {h.row, ROW_W},
                                         {h.fb_due, 1u},
                                         {h.r, STAMP_W},
                                         {h.fb_row, ROW_W},
                                         {h.to_dst, H}}) {
        ops.set(lsb, width, value);
        lsb += width;
      }
    }
    const unsigned FB_W = feedback_.bits();
    for (unsigned c = 0; c < NUM_COLS; ++c) {
      if (fb_rows[c] < 0) continue;
      // the feedback field of the credit word of output port NUM_NI + c
      fb.set((NUM_NI + c) * FB_W, FB_W, feedback_.encode({true, fb_rows[c], fb_targets[c]}));
    }
    // Nodes send no feedback: whatever is on their words must be ignored.
    for (unsigned n = 0; n < NUM_NI; ++n) fb.set(n * FB_W, FB_W, rng_.bits(FB_W));
    rtltest::put(dut_->hd_valid_i, valid);
    rtltest::put(dut_->hd_fresh_i, fresh);
    rtltest::put(dut_->hd_port_i, ports);
    rtltest::put_bits(dut_->hd_operands_i, ops, P * DOW);
    rtltest::put_bits(dut_->fb_i, fb, P * FB_W);
    // any cycle count: r wraps (drawn only where it matters, the others keep their stimulus)
    const std::uint16_t now = Cfg::R_AT_DECISION ? static_cast<std::uint16_t>(rng_.bits(16)) : 0;
    dut_->now_i = now;
    Bits init;
    const unsigned init_row = static_cast<unsigned>(dut_->init_row_o);
    for (unsigned c = 0; c < NUM_COLS; ++c) init.set(c * QW, QW, initial(init_row % ROWS, c));
    rtltest::put_bits(dut_->init_value_i, init, NUM_COLS * QW);
    dut_.eval();

    // Initialisation and readiness.
    const bool ready = init_cycles_ >= ROWS;
    ASSERT_EQ(dut_->ready_o, ready) << at;
    if (!ready) {
      ASSERT_EQ(dut_->init_row_o, init_cycles_) << at;
    }
    std::uint64_t drops = 0;
    for (unsigned c = 0; c < NUM_COLS; ++c) drops |= std::uint64_t{!ready && fb_rows[c] >= 0} << c;
    ASSERT_EQ(dut_->fb_drop_o, drops) << at;

    // Read ports: arbitration and decisions on the table as it stands.
    std::vector<int> winner(READ_PORTS, -1);
    std::vector<unsigned> col(READ_PORTS, 0);
    std::vector<std::uint32_t> best(READ_PORTS, 0);
    for (unsigned k = 0; k < READ_PORTS; ++k) {
      std::uint32_t req = 0;
      for (unsigned p = k; p < P; p += READ_PORTS) req |= std::uint32_t{heads[p].valid && heads[p].read} << p;
      const std::uint32_t masked = req & arb_mask_[k];
      if (req != 0) {
        winner[k] = std::countr_zero(masked != 0 ? masked : req);
        arb_next_[k] = ~((2u << winner[k]) - 1u) & static_cast<std::uint32_t>(rtltest::mask(P));
      } else {
        arb_next_[k] = arb_mask_[k];
      }
      const Head none{};
      const Head& h = winner[k] >= 0 ? heads[static_cast<unsigned>(winner[k])] : none;
      const std::vector<std::uint32_t>& row = table_[ready ? h.row : 0];
      const std::uint16_t rc = lfsr_col_[k];
      rlroute::ref::QDecisionInput in;
      in.role = static_cast<QRole>(h.role);
      in.row = std::span<const std::uint32_t>(row);
      in.min_port = h.min_col;
      in.random_local = ((rc & 0xFFu) * (A - 1)) >> 8;
      in.explore = lfsr_eps_[k] < Cfg::EPS;
      in.random_port = ((rc >> 8) * NUM_COLS) >> 8;
      in.local_columns = Cfg::INT_BEST ? A - 1 : 0;
      in.global_first = A - 1;
      col[k] = rlroute::ref::q_decide(in, thresholds_);
      best[k] = *std::min_element(row.begin(), row.end());
      if (ready && winner[k] >= 0) count_decision(h, in, col[k]);
    }

    // Per input port: accepted?, the answer, the feedback word.
    std::vector<Answer> answer(P);
    std::vector<FeedbackWord> word(P);
    std::uint64_t accepted = 0;
    for (unsigned p = 0; p < P; ++p) {
      const Head& h = heads[p];
      const unsigned k = p % READ_PORTS;
      const bool accept = ready && (!h.read || winner[k] == static_cast<int>(p));
      accepted |= std::uint64_t{accept} << p;
      refused_ += h.valid && ready && !accept;
      const unsigned c = col[k];
      answer[p].due = h.valid && accept;
      answer[p].choice = h.read ? NUM_NI + c : h.port;
      const bool source = h.role == static_cast<unsigned>(QRole::kSource);
      const bool source_group = Cfg::SOURCE_GROUP && h.role == static_cast<unsigned>(QRole::kSourceGroup);
      answer[p].alt = h.read && (source || source_group) && c != h.min_col;
      const bool into_third = c >= A - 1 && ((h.to_dst >> (c - (A - 1))) & 1u) == 0;
      answer[p].patch = into_third ? 1 : (Cfg::DETOUR && source && c < A - 1) ? 3 : 2;
      detours_ += answer[p].due && answer[p].alt && answer[p].patch == 3;
      source_group_alt_ += answer[p].due && answer[p].alt && source_group;
      word[p].valid = h.valid && accept && h.fresh && h.fb_due;
      word[p].row = static_cast<int>(h.fb_row);
      const unsigned r = Cfg::R_AT_DECISION ? static_cast<std::uint16_t>(now - h.r) : h.r;
      word[p].target = rlroute::ref::q_target(format_, r, h.read ? best[k] : 0);
      saturated_ += word[p].valid && word[p].target == kMax;
    }
    ASSERT_EQ(dut_->hd_ready_o, accepted) << at;

    // The answers due this cycle: this cycle's (DECIDE_CYCLES = 1) or last cycle's.
    answers_.push_back(answer);
    const std::vector<Answer>& due = answers_.front();
    for (unsigned p = 0; p < P; ++p) {
      if (!due[p].due) continue;
      const std::string who = at + " input port " + std::to_string(p);
      ASSERT_EQ(rtltest::field(dut_->hd_choice_o, p * PW, PW), due[p].choice) << who;
      ASSERT_EQ(rtltest::field(dut_->hd_alt_o, p, 1), due[p].alt) << who;
      ASSERT_EQ(rtltest::field(dut_->hd_patch_o, p * 2, 2), due[p].patch) << who;
      ++answers_checked_;
    }
    answers_.pop_front();
    // The feedback words of the presentations DECIDE_CYCLES cycles ago.
    const Bits fb_out = rtltest::get_bits(dut_->fb_o, P * FB_W);
    for (unsigned p = 0; p < P; ++p) {
      const FeedbackWord& w = words_.front()[p];
      const FeedbackWord got = feedback_.decode(fb_out.get(p * FB_W, FB_W));
      const std::string who = at + " feedback of input port " + std::to_string(p);
      ASSERT_EQ(got.valid, w.valid) << who;
      if (!w.valid) continue;
      ASSERT_EQ(got.row, w.row) << who;
      ASSERT_EQ(got.target, w.target) << who;
      ++words_checked_;
    }
    words_.pop_front();
    words_.push_back(word);

    dut_.tick();

    // Model update: the table (this cycle's feedback, once ready), the
    // initialisation, the arbiters and the LFSRs.
    if (ready) {
      for (unsigned c = 0; c < NUM_COLS; ++c) {
        if (fb_rows[c] < 0) continue;
        std::uint32_t& q = table_[static_cast<unsigned>(fb_rows[c])][c];
        q = rlroute::ref::q_update(format_, rates_, q, fb_targets[c]);
        at_zero_ += q == 0;
        ++updates_;
      }
    } else {
      for (unsigned c = 0; c < NUM_COLS; ++c) table_[init_cycles_][c] = initial(init_cycles_, c);
      ++init_cycles_;
    }
    arb_mask_ = arb_next_;
    for (unsigned k = 0; k < READ_PORTS; ++k) {
      lfsr_eps_[k] = lfsr_eps_[k] == 0 ? static_cast<std::uint16_t>(eps_seed_[k] | 1u) : lfsr_next(lfsr_eps_[k]);
      lfsr_col_[k] = lfsr_col_[k] == 0 ? static_cast<std::uint16_t>(col_seed_[k] | 1u) : lfsr_next(lfsr_col_[k]);
    }
  }

  // Coverage: which branch of Figure 4 the reference took.
  void count_decision(const Head& h, const rlroute::ref::QDecisionInput& in, unsigned col) {
    const unsigned best = rlroute::ref::q_argmin(in.row);
    const std::uint32_t lo = in.row[best];
    ties_ += std::count(in.row.begin(), in.row.end(), lo) > 1;
    const auto role = static_cast<QRole>(h.role);
    if (role == QRole::kMinimal) return;
    if (in.explore) {
      ++explored_;
      return;
    }
    if (role == QRole::kSource && best != h.min_col) ++(col == h.min_col ? kept_minimal_ : took_best_);
    if (role == QRole::kIntermediate && in.random_local != h.min_col) ++(col == h.min_col ? kept_minimal_ : took_local_);
  }

  // Random traffic for `cycles` cycles (from reset: initialisation included).
  void run(unsigned cycles) {
    std::vector<int> fb_rows;
    std::vector<std::uint32_t> fb_targets;
    for (unsigned i = 0; i < cycles; ++i) {
      std::vector<Head> heads(P);
      for (Head& h : heads) h = random_head();
      random_feedback(fb_rows, fb_targets);
      ASSERT_NO_FATAL_FAILURE(step(heads, fb_rows, fb_targets));
    }
  }

  Dut<typename Cfg::Model> dut_;
  Rng rng_{0x9u + Cfg::P * 31 + Cfg::DECIDE_CYCLES};
  std::vector<std::vector<std::uint32_t>> table_;  // the model's table
  unsigned init_cycles_ = 0;
  std::vector<std::uint16_t> eps_seed_, col_seed_, lfsr_eps_, lfsr_col_;
  std::vector<std::uint32_t> arb_mask_, arb_next_ = std::vector<std::uint32_t>(READ_PORTS);
  std::deque<std::vector<Answer>> answers_;      // answers on their way (DECIDE_CYCLES - 1 cycles)
  const rlroute::QFeedbackLayout feedback_{static_cast<int>(ROWS), static_cast<int>(QW)};  // rr_pkg::q_feedback_width
  std::deque<std::vector<FeedbackWord>> words_;  // feedback words on their way (DECIDE_CYCLES cycles)
  rlroute::ref::QFormat format_{.value_bits = QW, .fraction_bits = Cfg::QFB};
  rlroute::ref::QRates rates_{.rate_bits = Cfg::RB, .alpha = Cfg::ALPHA, .beta = Cfg::BETA};
  rlroute::ref::QThresholds thresholds_{.thld_bits = Cfg::TB, .source = Cfg::THLD_SRC, .intermediate = Cfg::THLD_INT};
  // Coverage.
  unsigned answers_checked_ = 0, words_checked_ = 0, refused_ = 0, saturated_ = 0, updates_ = 0, at_zero_ = 0;
  unsigned ties_ = 0, explored_ = 0, kept_minimal_ = 0, took_best_ = 0, took_local_ = 0;
  unsigned detours_ = 0, source_group_alt_ = 0;  // the source's detours (3), the source group's non-minimal choices
};

using UnitCfgs = ::testing::Types<cfg::Dfly2429, cfg::SmallTwoCycle, cfg::Dfly2429Stamp, cfg::Dfly2429Detour>;
TYPED_TEST_SUITE(QUnitTest, UnitCfgs);

// Before ready_o nothing is accepted and feedback is dropped; then the table
// holds the initial values, which the first decisions read.
TYPED_TEST(QUnitTest, AcceptsNothingUntilTheTableIsInitialised) {
  ASSERT_NO_FATAL_FAILURE(this->run(TestFixture::ROWS + 40));
  EXPECT_EQ(this->init_cycles_, TestFixture::ROWS);
  EXPECT_GT(this->answers_checked_, 40u);
}

// Decisions, answers, feedback words and learning agree with the model every
// cycle under random presentations and feedback.
TYPED_TEST(QUnitTest, DecidesAndLearnsLikeTheReferenceUnderRandomTraffic) {
  ASSERT_NO_FATAL_FAILURE(this->run(20000));
  std::cout << "[ info ] answers " << this->answers_checked_ << ", feedback words " << this->words_checked_
            << " (saturated " << this->saturated_ << "), refused " << this->refused_ << ", updates " << this->updates_
            << " (to 0: " << this->at_zero_ << "), rows with tied minima " << this->ties_ << ", explored "
            << this->explored_ << ", kept minimal " << this->kept_minimal_ << ", took the best "
            << this->took_best_ << ", took the random local " << this->took_local_ << "\n";
  // The stream reached every branch.
  EXPECT_GT(this->answers_checked_, 50000u);
  EXPECT_GT(this->words_checked_, 20000u);
  EXPECT_GT(this->saturated_, 100u);
  EXPECT_GT(this->at_zero_, 100u);
  EXPECT_GT(this->ties_, 1000u);
  EXPECT_GT(this->explored_, 500u);
  EXPECT_GT(this->kept_minimal_, 500u);
  EXPECT_GT(this->took_best_, 500u);
  EXPECT_GT(this->took_local_, 500u);
  if (TypeParam::DETOUR) {
    EXPECT_GT(this->detours_, 500u);
    EXPECT_GT(this->source_group_alt_, 500u);
  }
  if (TestFixture::READ_PORTS < TestFixture::P) {
    EXPECT_GT(this->refused_, 1000u);
  } else {
    EXPECT_EQ(this->refused_, 0u) << "a read port per input port: no head waits";
  }
}

}  // namespace
