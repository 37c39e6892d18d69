// Small helpers shared by the Verilator block tests: a clocked wrapper around a
// Verilated model, bit-field access for packed ports, and a seeded RNG.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include <verilated.h>

namespace rtltest {

inline constexpr std::uint64_t mask(unsigned width) {
  return width >= 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << width) - 1);
}

// Field [lsb +: width] of a packed port value.
inline std::uint64_t field(std::uint64_t value, unsigned lsb, unsigned width) {
  return (value >> lsb) & mask(width);
}

inline void set_field(std::uint64_t& value, unsigned lsb, unsigned width, std::uint64_t x) {
  value = (value & ~(mask(width) << lsb)) | ((x & mask(width)) << lsb);
}

inline bool bit(std::uint64_t value, unsigned index) { return ((value >> index) & 1u) != 0; }

inline int popcount(std::uint64_t value) { return __builtin_popcountll(value); }

// Assigns a 64-bit value to a Verilated port of any width up to 64 bits.
template <class Sig>
void put(Sig& sig, std::uint64_t value) {
  sig = static_cast<Sig>(value);
}

// A packed value of up to 256 bits, for ports wider than 64 bits (Verilator
// gives those as VlWide<N>, an array of 32-bit words, LSB word first).
class Bits {
 public:
  static constexpr unsigned kMaxBits = 512;  // wider fields throw (std::array::at)

  Bits() = default;
  explicit Bits(std::uint64_t low) { words_[0] = low; }

  // Field [lsb +: width], width <= 64.
  std::uint64_t get(unsigned lsb, unsigned width) const {
    std::uint64_t value = 0;
    for (unsigned i = 0; i < width; ++i) value |= static_cast<std::uint64_t>(test(lsb + i)) << i;
    return value;
  }
  void set(unsigned lsb, unsigned width, std::uint64_t value) {
    for (unsigned i = 0; i < width; ++i) {
      const unsigned b = lsb + i;
      const std::uint64_t m = std::uint64_t{1} << (b % 64);
      if ((value >> i) & 1u) {
        words_.at(b / 64) |= m;
      } else {
        words_.at(b / 64) &= ~m;
      }
    }
  }
  bool test(unsigned index) const { return ((words_.at(index / 64) >> (index % 64)) & 1u) != 0; }
  // The low `width` bits only.
  Bits truncated(unsigned width) const {
    Bits b;
    for (unsigned lsb = 0; lsb < width; lsb += 64) b.set(lsb, std::min(64u, width - lsb), get(lsb, 64));
    return b;
  }
  bool operator==(const Bits&) const = default;

  // Hexadecimal, most significant digit first, `width` bits.
  std::string hex(unsigned width) const {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (unsigned nibble = (width + 3) / 4; nibble-- > 0;) {
      const unsigned lsb = nibble * 4;
      s += digits[get(lsb, std::min(4u, width - lsb))];
    }
    return "0x" + s;
  }

 private:
  std::array<std::uint64_t, kMaxBits / 64> words_{};
};

// Assigns / reads the low `width` bits of a Verilated port of any width.
template <class Sig>
void put_bits(Sig& sig, const Bits& value, unsigned width) {
  sig = static_cast<Sig>(value.get(0, width));
}
template <std::size_t N>
void put_bits(VlWide<N>& sig, const Bits& value, unsigned width) {
  for (std::size_t i = 0; i < N; ++i) {
    const unsigned lsb = static_cast<unsigned>(i) * 32;
    sig.at(i) = lsb < width ? static_cast<EData>(value.get(lsb, std::min(32u, width - lsb))) : 0u;
  }
}
template <class Sig>
Bits get_bits(const Sig& sig, unsigned width) {
  return Bits(static_cast<std::uint64_t>(sig)).truncated(width);
}
template <std::size_t N>
Bits get_bits(const VlWide<N>& sig, unsigned width) {
  Bits b;
  for (std::size_t i = 0; i < N; ++i) b.set(static_cast<unsigned>(i) * 32, 32, sig.at(i));
  return b.truncated(width);
}

// Owns a Verilated model and its context, drives clk_i/rst_ni.
// The model's registers start from random values (the models are Verilated
// with --x-initial unique) so the tests see whether reset covers all state.
template <class Model>
class Dut {
 public:
  explicit Dut(std::uint32_t seed = 1) : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->randReset(2);
    ctx_->randSeed(static_cast<int>(seed));
    model_ = std::make_unique<Model>(ctx_.get(), "dut");
    model_->clk_i = 0;
    model_->rst_ni = 1;
    model_->eval();
  }
  ~Dut() {
    // Verilator 5.006 erases a model's public scopes from the thread's current
    // context, which is the context constructed last: after a test built a
    // second Dut that is a dangling pointer. Make it this model's context.
    Verilated::threadContextp(ctx_.get());
    model_->final();
    model_.reset();
  }
  Dut(const Dut&) = delete;
  Dut& operator=(const Dut&) = delete;

  Model* operator->() { return model_.get(); }

  // Settles combinational logic after inputs changed.
  void eval() { model_->eval(); }

  // Asynchronous active-low reset: assert (negedge), clock once, release.
  void reset() {
    model_->rst_ni = 0;
    model_->eval();
    model_->clk_i = 1;
    model_->eval();
    model_->clk_i = 0;
    model_->eval();
    model_->rst_ni = 1;
    model_->eval();
  }

  // One rising clock edge; the inputs set before the call are sampled.
  void tick() {
    model_->clk_i = 1;
    model_->eval();
    model_->clk_i = 0;
    model_->eval();
    ++cycle_;
  }

  std::uint64_t cycle() const { return cycle_; }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
  std::uint64_t cycle_ = 0;
};

// Owns a Verilated model of a combinational block (no clock, no reset) and its
// context.
template <class Model>
class CombDut {
 public:
  CombDut() : ctx_(std::make_unique<VerilatedContext>()), model_(std::make_unique<Model>(ctx_.get())) {}
  ~CombDut() {
    Verilated::threadContextp(ctx_.get());  // as Dut: this model's context
    model_->final();
  }
  CombDut(const CombDut&) = delete;
  CombDut& operator=(const CombDut&) = delete;

  Model* operator->() { return model_.get(); }
  void eval() { model_->eval(); }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
};

// Deterministic random source (fixed seed per test).
class Rng {
 public:
  explicit Rng(std::uint32_t seed) : gen_(seed) {}
  // Uniform in [lo, hi].
  std::uint64_t range(std::uint64_t lo, std::uint64_t hi) {
    return lo + static_cast<std::uint64_t>(gen_() % (hi - lo + 1));
  }
  std::uint64_t bits(unsigned width) { return gen_() & mask(width); }
  // True with probability percent/100.
  bool chance(unsigned percent) { return gen_() % 100 < percent; }

 private:
  std::mt19937_64 gen_;
};

}  // namespace rtltest
