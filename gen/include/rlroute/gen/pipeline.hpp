// Facts of the router pipeline (rtl/rr_router.sv and its blocks) that the
// generator's checks rely on; docs/architecture.md derives the zero-load
// latency from the same pipeline. Change them together with the RTL.
#pragma once

#include "rlroute/gen/config.hpp"

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

// Zero-load cycles of a head in a router before its output register
// (docs/architecture.md, "Pipeline and zero-load latency"): buffer write +
// route compute, then VC allocation, then switch allocation into the output
// register; with speculative switch allocation (router.switch_allocation)
// the last two share a cycle.
constexpr int router_cycles(SwitchAllocation allocation) {
  return allocation == SwitchAllocation::Speculative ? 1 : 2;
}

// Zero-load cycles of one router-to-router hop whose link takes
// `link_latency` cycles: the router's cycles, then the link. An open
// decision with routing.decision = "vc_head_registered" adds one cycle at
// its router.
constexpr int hop_latency(int link_latency, SwitchAllocation allocation) {
  return router_cycles(allocation) + link_latency;
}

// Zero-load cycles a head spends in one router as the network checker times
// it (NetworkChecker::residence: from its sample at the input port to its
// appearance on the output port): the router's cycles plus the output
// register, which hop_latency counts as part of the link.
constexpr int zero_load_residence(SwitchAllocation allocation) { return router_cycles(allocation) + 1; }

// Zero-load network latency of a packet of `packet_flits` flits over `hops`
// router-to-router hops of `link_latency` cycles each: from the source NIC
// presenting the head to the destination NIC taking the tail (the
// destination router's cycles and its output register, then one cycle per
// remaining flit).
constexpr int zero_load_latency(int hops, int link_latency, int packet_flits, SwitchAllocation allocation) {
  return hops * hop_latency(link_latency, allocation) + router_cycles(allocation) + packet_flits;
}

}  // namespace rlroute
