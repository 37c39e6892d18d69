// Link and credit words of the block tests, in rtltest::Bits: packed and
// unpacked by rlroute/gen/link_words.hpp (LinkLayout), the functions the
// harness's adapters use, so that no block test lays out a word by hand.
#pragma once

#include <algorithm>

#include "rlroute/gen/link_layout.hpp"
#include "rlroute/gen/link_words.hpp"
#include "vtb.hpp"

namespace rtltest {

// Writes the link word of `f` into bits [base, base + l.link_bits()) of `bits`.
inline void put_flit(Bits& bits, unsigned base, const rlroute::LinkLayout& l, const rlroute::LinkFlit& f) {
  const rlroute::LinkWord word = rlroute::pack_flit(l, f);
  const unsigned width = static_cast<unsigned>(l.link_bits());
  for (unsigned i = 0; i < width; i += 64) bits.set(base + i, std::min(64u, width - i), word[i / 64]);
}

// As put_flit, but every field as given whether `f` is valid or not: a word
// whose valid bit is clear that still carries head, tail, VC and data bits,
// which the block must ignore.
inline void put_flit_as_is(Bits& bits, unsigned base, const rlroute::LinkLayout& l, const rlroute::LinkFlit& f) {
  rlroute::LinkFlit valid = f;
  valid.valid = true;
  put_flit(bits, base, l, valid);
  bits.set(base + rlroute::LinkLayout::kValid, 1, f.valid);
}

// The link word of `f` alone.
inline Bits flit_word(const rlroute::LinkLayout& l, const rlroute::LinkFlit& f) {
  Bits b;
  put_flit(b, 0, l, f);
  return b;
}

// The flit in bits [base, base + l.link_bits()) of `bits` (an idle flit if
// the word is not valid).
inline rlroute::LinkFlit get_flit(const Bits& bits, unsigned base, const rlroute::LinkLayout& l) {
  const unsigned width = static_cast<unsigned>(l.link_bits());
  return rlroute::unpack_flit(l, [&bits, base, width](int lsb) {
    const auto at = static_cast<unsigned>(lsb);
    return bits.get(base + at, std::min(64u, width - at));
  });
}

// Writes the credit word of `c` into bits [base, base + l.credit_bits()).
inline void put_credit(Bits& bits, unsigned base, const rlroute::LinkLayout& l, const rlroute::LinkCredit& c) {
  const rlroute::CreditWord word = rlroute::pack_credit(l, c);
  const unsigned width = static_cast<unsigned>(l.credit_bits());
  for (unsigned i = 0; i < width; i += 64) bits.set(base + i, std::min(64u, width - i), word[i / 64]);
}

// As put_credit, but the VC as given whether `c` is valid or not.
inline void put_credit_as_is(Bits& bits, unsigned base, const rlroute::LinkLayout& l, const rlroute::LinkCredit& c) {
  rlroute::LinkCredit valid = c;
  valid.valid = true;
  put_credit(bits, base, l, valid);
  bits.set(base + rlroute::LinkLayout::kCreditValid, 1, c.valid);
}

// The credit word of `c` alone.
inline Bits credit_word(const rlroute::LinkLayout& l, const rlroute::LinkCredit& c) {
  Bits b;
  put_credit(b, 0, l, c);
  return b;
}

// The credit in bits [base, base + l.credit_bits()) of `bits`.
inline rlroute::LinkCredit get_credit(const Bits& bits, unsigned base, const rlroute::LinkLayout& l) {
  const unsigned width = static_cast<unsigned>(l.credit_bits());
  return rlroute::unpack_credit(l, [&bits, base, width](int lsb) {
    const auto at = static_cast<unsigned>(lsb);
    return bits.get(base + at, std::min(64u, width - at));
  });
}

}  // namespace rtltest
