// One clock cycle of a Verilated top with one evaluation instead of two, and
// the reset sequence both adapters start a model with.
//
// Verilator 5 finds a clock edge by comparing clk_i with the value it saw at
// the previous eval() (the root's __Vtrigrprev__TOP__clk_i). A cycle used to
// be eval() at clk_i = 1 (the rising edge: the flops update and the logic
// settles) and eval() at clk_i = 0, whose only effect on state is to remember
// the low clock: every rlroute flop is posedge clk_i (resets negedge rst_ni),
// and with the inputs unchanged the combinational logic it re-evaluates comes
// out the same. That second eval() re-ran every input-dependent combinational
// block, a third of the model's time (docs/architecture.md, "Where the
// simulation's time goes"). Where the model has the member, we write the low clock into it
// instead; a Verilator that names it otherwise gets the two evaluations.
#pragma once

#include <type_traits>

namespace rlroute::adapter {

template <class Root>
concept RemembersClock = requires(Root& root) { root.__Vtrigrprev__TOP__clk_i; };

template <class Top>
using RootOf = std::remove_pointer_t<std::remove_cv_t<decltype(Top::rootp)>>;

// True where clock_cycle() evaluates the model once per cycle.
template <class Top>
constexpr bool single_eval_cycle() {
  return RemembersClock<RootOf<Top>>;
}

// The rising edge, then the clock low again, as if eval() had seen it low.
template <class Top>
void clock_cycle(Top& top) {
  top.clk_i = 1;
  top.eval();
  top.clk_i = 0;
  if constexpr (RemembersClock<RootOf<Top>>) {
    top.rootp->__Vtrigrprev__TOP__clk_i = 0;
  } else {
    top.eval();
  }
}

// The reset both adapters give a Verilated top (router or network), its
// inputs idle: rst_ni asserted with the clock low (every rlroute reset is
// asynchronous, active low), two clock cycles in reset by `cycle` (the
// adapter's own cycle: a traced network top dumps them), rst_ni released with
// the clock low and the logic settled. The next rising edge is the first
// cycle out of reset.
template <class Top, class Cycle>
void reset_sequence(Top& top, const Cycle& cycle) {
  top.clk_i = 0;
  top.rst_ni = 0;
  top.eval();
  cycle();
  cycle();
  top.rst_ni = 1;
  top.eval();
}

}  // namespace rlroute::adapter
