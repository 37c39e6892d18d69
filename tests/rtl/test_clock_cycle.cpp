// The harness's one-evaluation clock cycle (tb/adapter/clock_cycle.hpp)
// against the two-evaluation cycle it replaces: two FIFO models driven with the
// same random pushes and pops, one each way, show the same outputs every cycle.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "Vrr_fifo_d3.h"
#include "Vrr_fifo_d3___024root.h"
#include "clock_cycle.hpp"

using rlroute::adapter::clock_cycle;
using rlroute::adapter::single_eval_cycle;

namespace {

void two_eval_cycle(Vrr_fifo_d3& top) {
  top.clk_i = 1;
  top.eval();
  top.clk_i = 0;
  top.eval();
}

void reset(Vrr_fifo_d3& top) {
  top.push_i = 0;
  top.pop_i = 0;
  top.clk_i = 0;
  top.rst_ni = 0;
  top.eval();
  two_eval_cycle(top);
  top.rst_ni = 1;
  top.eval();
}

}  // namespace

// Debian's Verilator names the remembered clock as clock_cycle() expects; a
// Verilator that renames it would make every simulation a third slower.
TEST(ClockCycle, TheInstalledVerilatorGetsOneEvaluationPerCycle) {
  EXPECT_TRUE(single_eval_cycle<Vrr_fifo_d3>());
}

TEST(ClockCycle, OneEvaluationGivesTheSameOutputsAsTwo) {
  VerilatedContext ctx_one, ctx_two;
  Vrr_fifo_d3 one(&ctx_one), two(&ctx_two);
  reset(one);
  reset(two);
  std::mt19937 rng(7);
  int pushes = 0, pops = 0;
  for (int cycle = 0; cycle < 4000; ++cycle) {
    const bool push = !two.full_o && rng() % 3 != 0;
    const bool pop = !two.empty_o && rng() % 2 == 0;
    pushes += push;
    pops += pop;
    for (Vrr_fifo_d3* top : {&one, &two}) {
      top->push_i = push;
      top->pop_i = pop;
      top->data_i = static_cast<std::uint16_t>(cycle * 37);
    }
    clock_cycle(one);
    two_eval_cycle(two);
    ASSERT_EQ(one.data_o, two.data_o) << "cycle " << cycle;
    ASSERT_EQ(one.count_o, two.count_o) << "cycle " << cycle;
    ASSERT_EQ(one.empty_o, two.empty_o) << "cycle " << cycle;
    ASSERT_EQ(one.full_o, two.full_o) << "cycle " << cycle;
  }
  EXPECT_GT(pushes, 1000);
  EXPECT_GT(pops, 1000);
}

// Why the remembered clock has to be written: an eval() that never saw the
// clock low finds no rising edge, and the FIFO takes no push.
TEST(ClockCycle, WithoutTheLowClockTheNextEdgeIsMissed) {
  VerilatedContext ctx;
  Vrr_fifo_d3 top(&ctx);
  reset(top);
  top.push_i = 1;
  top.clk_i = 1;
  top.eval();
  ASSERT_EQ(top.count_o, 1u);
  top.eval();  // the clock still high: no edge
  EXPECT_EQ(top.count_o, 1u);
  clock_cycle(top);  // high again as far as the model knows: no edge either
  EXPECT_EQ(top.count_o, 1u);
  clock_cycle(top);  // the previous call left the clock low
  EXPECT_EQ(top.count_o, 2u);
}

// The adapters' reset (reset_sequence): a FIFO filled before it comes out
// empty, in two cycles of the given clock with the reset held, the clock low
// and the reset released; the next clock_cycle() is a rising edge that takes a
// push.
TEST(ClockCycle, ResetSequenceResetsAndLeavesTheClockLow) {
  VerilatedContext ctx;
  Vrr_fifo_d3 top(&ctx);
  reset(top);
  top.push_i = 1;
  top.data_i = 0x5a5a;
  clock_cycle(top);
  clock_cycle(top);
  ASSERT_EQ(top.count_o, 2u);
  top.push_i = 0;
  int cycles = 0;
  rlroute::adapter::reset_sequence(top, [&top, &cycles] {
    EXPECT_EQ(top.rst_ni, 0u) << "a cycle in reset";
    clock_cycle(top);
    ++cycles;
  });
  EXPECT_EQ(cycles, 2);
  EXPECT_EQ(top.clk_i, 0u);
  EXPECT_EQ(top.rst_ni, 1u);
  EXPECT_EQ(top.count_o, 0u);
  EXPECT_TRUE(top.empty_o);
  top.push_i = 1;
  clock_cycle(top);
  EXPECT_EQ(top.count_o, 1u) << "the first edge out of reset was missed";
}
