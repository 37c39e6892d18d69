// Facts of the router pipeline (rtl/rr_router.sv and its blocks) that the
// generator's checks rely on; docs/architecture.md derives the zero-load
// latency from the same pipeline. Change them together with the RTL.
#pragma once

namespace rlroute {

// Cycles of a link's credit loop spent in the routers' own registers: the
// downstream router registers the credit it returns, and the upstream router
// spends a returning credit in the cycle it arrives (rr_credit_counter counts
// it combinationally), so the credit's own register is the only one. The
// flit's output register is inside the link latency.
inline constexpr int kCreditLoopRegisterCycles = 1;

// Cycles from a flit leaving a VC until its credit can be spent again on the
// same VC: link latency + credit latency + the routers' registers.
constexpr int credit_round_trip(int link_latency, int credit_latency) {
  return link_latency + credit_latency + kCreditLoopRegisterCycles;
}

}  // namespace rlroute
