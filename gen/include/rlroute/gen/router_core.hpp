// How the shared router core (rtl/rr_router.sv) is built for a design: the
// head-decision seam its routing algorithm needs, and whether the router top
// sums the core's waiting VC requests into a waiting demand (rr_demand).
// Derived once with the design, from the algorithm's row of kAlgorithms and
// the config; the emitter prints it and nothing re-derives it.
#pragma once

#include <string>
#include <vector>

#include "rlroute/gen/algorithm.hpp"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/topology.hpp"

namespace rlroute {

// Decisions at the head of the VC: the route unit computes at buffer write,
// and a decision unit outside the core decides when the packet asks for an
// output VC (rr_input_port).
// rr_router's DECIDE_* parameters state it (rtl/rr_head_decision.sv).
struct HeadDecision {
  bool enabled = false;      // some input port has a decision unit
  bool registered = false;   // through a register, the packet asks a cycle later
  bool names_port = false;   // ANSWER_PORT: the unit names the port (else: minimal or the alternative)
  bool late = false;         // the answer a cycle after the presentation (registered too)
  PatchedField field = PatchedField::None;  // FIELD_LSB/FIELD_W: the field it would set ...
  bool patches = false;                     // ... and sets, when it leaves the minimal route
  std::vector<bool> ports;   // DECIDE_PORTS: the input ports that get a decision unit
  bool every_port = false;   // ports are all of them by the algorithm (not by where a choice opens)
  std::string ports_where;   // else where a choice opens, for the emitted comments
  std::string why;           // what made it so, for the emitted comments
  std::string unit;          // who decides, for the emitted comments

  // The route unit offers an alternative route and the unit picks one of the two.
  bool picks_alternative() const { return enabled && !names_port; }
  // DECIDE_CYCLES: 0 the answer counts for this cycle's request, 1 registered, 2 late.
  int cycles() const { return !registered ? 0 : late ? 2 : 1; }
};

struct RouterCore {
  bool waiting_demand = false;  // the top's rr_demand on the core's wait_*_o: flits waiting for each output port
  // STAMP_*: heads leave with a time stamp (Q-adaptive's routing.q_stamp):
  // Crossbar, the network output ports set it to the cycle the head crosses
  // the crossbar; Request, the input ports to the cycle its packet first
  // asked for an output VC. Arrival: no stamp leaves the core.
  QStamp head_stamp = QStamp::Arrival;
  HeadDecision head;
};

RouterCore derive_router_core(const Config& cfg, const Topology& topo);

// Where a dragonfly UGAL or PAR packet's minimal/non-minimal choice can be
// open: at its source router's NI ports and, for PAR, at the local ports of
// the next router of the source group.
bool choice_opens_at(const AlgorithmTraits& algorithm, const Topology& topo, int in_port);

}  // namespace rlroute
