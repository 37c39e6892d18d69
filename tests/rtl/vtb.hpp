// Small helpers shared by the Verilator block tests: a clocked wrapper around a
// Verilated model, bit-field access for packed ports, and a seeded RNG.
#pragma once

#include <cstdint>
#include <memory>
#include <random>

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
  ~Dut() { model_->final(); }
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
