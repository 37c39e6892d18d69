// The words on a router-to-router link, LSB first: the one C++ description of
// rtl/rr_pkg.sv's LINK_* and CREDIT_* constants. The design model, the
// emitter and the test bench's model adapters (compiled against this header at
// model build time) all read it; link_words.hpp packs and unpacks the words by
// it for the adapters and the block tests.
//   link word:   {data[flit_bits], vc[vc_bits], tail, head, valid}
//   credit word: {feedback[feedback_bits], vc[vc_bits], valid}; the feedback
//                field (a side-band of the credit channel) carries
//                Q-adaptive's feedback word (QFeedbackLayout) or DQN-routing's
//                ack word (DqnEpisodeLayout), else it has 0 bits
#pragma once

namespace rlroute {

// What the credit word's feedback field carries.
enum class SideBand { None, QFeedback, DqnAck };

struct LinkLayout {
  static constexpr int kValid = 0;
  static constexpr int kHead = 1;
  static constexpr int kTail = 2;
  static constexpr int kVcLsb = 3;
  static constexpr int kCreditValid = 0;
  static constexpr int kCreditVcLsb = 1;

  int vc_bits = 1;
  int flit_bits = 64;
  int feedback_bits = 0;
  SideBand side_band = SideBand::None;  // what those bits carry

  constexpr int data_lsb() const { return kVcLsb + vc_bits; }
  constexpr int link_bits() const { return data_lsb() + flit_bits; }
  constexpr int feedback_lsb() const { return kCreditVcLsb + vc_bits; }
  constexpr int credit_bits() const { return feedback_lsb() + feedback_bits; }
};

}  // namespace rlroute
