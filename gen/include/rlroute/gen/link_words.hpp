// The values of the two words LinkLayout lays out, and their packing: a flit
// {valid, head, tail, vc, data} to and from a link word, a credit {valid, vc,
// feedback} to and from a credit word, LSB first. Every C++ reader and writer
// of these words goes through the four functions below: the simulation
// models' adapters (tb/adapter/port_bits.hpp, compiled at model build time)
// and the block tests (tests/rtl/link_bits.hpp). C++ only, header only.
#pragma once

#include <array>
#include <cstdint>

#include "rlroute/gen/bits.hpp"
#include "rlroute/gen/link_layout.hpp"

namespace rlroute {

struct LinkFlit {
  bool valid = false;
  bool head = false;
  bool tail = false;
  int vc = 0;
  FlitData data;
};

struct LinkCredit {
  bool valid = false;
  int vc = 0;
  // Q-adaptive's feedback field (LinkLayout::feedback_bits wide, raw bits;
  // rr_pkg::q_feedback_width): it travels with the credit word but is
  // independent of `valid`.
  std::uint64_t feedback = 0;
};

// A link word in 64-bit words, bit 0 of words[0] first: the widest one
// (kMaxFlitBits of data after fewer than 64 bits of control) and one spare
// word, so that a reader of 64 bits from any bit of the word stays inside.
using LinkWord = std::array<std::uint64_t, kMaxFlitBits / 64 + 2>;
// A credit word likewise: fewer than 64 bits of control, a feedback field of
// at most 64 bits, one spare word.
using CreditWord = std::array<std::uint64_t, 3>;

namespace link_words {
[[gnu::always_inline]] inline constexpr std::uint64_t low_mask(int width) {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}
}  // namespace link_words

// The link word of `f`; an idle flit (not valid) is the all-zero word.
[[gnu::always_inline]] inline LinkWord pack_flit(const LinkLayout& l, const LinkFlit& f) {
  using link_words::low_mask;
  LinkWord word{};
  if (!f.valid) return word;
  word[0] = (std::uint64_t{1} << LinkLayout::kValid) | (std::uint64_t{f.head} << LinkLayout::kHead) |
            (std::uint64_t{f.tail} << LinkLayout::kTail) |
            ((static_cast<std::uint64_t>(f.vc) & low_mask(l.vc_bits)) << LinkLayout::kVcLsb);
  const int d = l.data_lsb();  // 4 or more, less than 64
  for (int i = 0; i < l.flit_bits; i += 64) {
    const std::uint64_t data = f.data.words[static_cast<std::size_t>(i / 64)] & low_mask(l.flit_bits - i);
    word[static_cast<std::size_t>(i / 64)] |= data << d;
    word[static_cast<std::size_t>(i / 64 + 1)] |= data >> (64 - d);
  }
  return word;
}

// The flit of a link word that `window(lsb)` reads: window(lsb) gives the 64
// bits of the word from its bit `lsb` on (what lies past the word's end does
// not matter). A word whose valid bit is clear reads as the idle flit
// LinkFlit{}: its other bits carry nothing.
template <class Window>
[[gnu::always_inline]] inline LinkFlit unpack_flit(const LinkLayout& l, const Window& window) {
  using link_words::low_mask;
  LinkFlit f;
  const std::uint64_t first = window(0);  // valid, head, tail, vc, the data's first bits
  if (!((first >> LinkLayout::kValid) & 1u)) return f;
  f.valid = true;
  f.head = (first >> LinkLayout::kHead) & 1u;
  f.tail = (first >> LinkLayout::kTail) & 1u;
  f.vc = static_cast<int>((first >> LinkLayout::kVcLsb) & low_mask(l.vc_bits));
  for (int i = 0; i < l.flit_bits; i += 64) {
    f.data.words[static_cast<std::size_t>(i / 64)] = window(l.data_lsb() + i) & low_mask(l.flit_bits - i);
  }
  return f;
}

// The credit word of `c`. The feedback field is written whatever `valid` is.
[[gnu::always_inline]] inline CreditWord pack_credit(const LinkLayout& l, const LinkCredit& c) {
  using link_words::low_mask;
  CreditWord word{};
  if (c.valid) {
    word[0] = (std::uint64_t{1} << LinkLayout::kCreditValid) |
              ((static_cast<std::uint64_t>(c.vc) & low_mask(l.vc_bits)) << LinkLayout::kCreditVcLsb);
  }
  if (l.feedback_bits > 0) {
    const int fb = l.feedback_lsb();  // 2 or more, less than 64
    const std::uint64_t feedback = c.feedback & low_mask(l.feedback_bits);
    word[0] |= feedback << fb;
    word[1] = feedback >> (64 - fb);
  }
  return word;
}

// The credit of a credit word that `window(lsb)` reads (as unpack_flit): the
// VC is read only when the valid bit is set, the feedback field always.
template <class Window>
[[gnu::always_inline]] inline LinkCredit unpack_credit(const LinkLayout& l, const Window& window) {
  using link_words::low_mask;
  LinkCredit c;
  const std::uint64_t first = window(0);
  c.valid = (first >> LinkLayout::kCreditValid) & 1u;
  if (c.valid) c.vc = static_cast<int>((first >> LinkLayout::kCreditVcLsb) & low_mask(l.vc_bits));
  if (l.feedback_bits > 0) c.feedback = window(l.feedback_lsb()) & low_mask(l.feedback_bits);
  return c;
}

}  // namespace rlroute
