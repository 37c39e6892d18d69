// Internal to the emitter: what one routing-algorithm family contributes to
// a design's emitted RTL. Each folder of gen/src (cube/, dqn/, dragonfly/,
// q_adaptive/) defines one; the algorithm's row of kAlgorithms names it, so
// the shared emitter never asks which algorithm it emits.
#pragma once

#include <string>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing.hpp"
#include "sv_writer.hpp"

namespace rlroute::emit {

// Constants of the design package that only the family has.
struct PackagePart {
  std::vector<sv::Param> params;  // aligned with the shared ones
  std::string text;               // after them (wide constants)
};

// The core's ports a family's units use, and the credit words' side-band;
// the router top declares and connects only these (the others are tied off
// or left open at the core).
struct RouterTopNeeds {
  bool credit_sideband = false;   // above the core's {vc, valid}: feedback, acks
  bool decision = false;          // the head-decision interface (rc_alt_*, rc_decide, rc_operands, hd_*)
  bool output_occupancy = false;  // per output port, the credits in use (occ)
  bool waiting_demand = false;    // the waiting VC requests (wait_*), summed per output port by rr_demand (dem)
  bool vc_state = false;          // the output VCs' allocation and credits
  bool input_occupancy = false;   // the input VCs' flits
  bool arriving_heads = false;    // the heads on the links (rc_valid)
};

struct BackendEmitter {
  // Hand-written blocks beyond the router core's, in compile order.
  std::vector<std::string> (*rtl_blocks)(const Design& d);
  PackagePart (*package_part)(const Design& d);
  // Ports of the router top beyond the core's (`multiple` empty), or of the
  // network top (`multiple` = "ROUTERS": every router's side by side).
  std::vector<sv::Port> (*top_ports)(const Design& d, const std::string& multiple);
  // Router `r`'s connections to those ports in the network top (`r`: the
  // generate loop's index).
  std::vector<sv::Connection> (*network_connections)(const Design& d, const std::string& r);
  // rr_router DOW: the width of a head decision's operands (an SV expression).
  std::string (*decision_operands_width)(const Design& d);
  // The route units and decision units of the router top, after the core.
  std::string (*route_units)(const Design& d, const RoutingRelation& relation);
  RouterTopNeeds (*needs)(const Design& d);
};

const BackendEmitter& cube_backend();
const BackendEmitter& dqn_backend();
const BackendEmitter& dragonfly_backend();
const BackendEmitter& q_adaptive_backend();

// The backend the design's algorithm names (its row of kAlgorithms).
const BackendEmitter& backend_emitter(const Design& d);

// Helpers of several backends.
inline PackagePart no_package_part(const Design&) { return {}; }
inline std::vector<sv::Port> no_top_ports(const Design&, const std::string&) { return {}; }
inline std::vector<sv::Connection> no_network_connections(const Design&, const std::string&) { return {}; }

}  // namespace rlroute::emit
