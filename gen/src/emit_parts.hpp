// Internal to the emitter: the pieces emit_design() assembles.
#pragma once

#include <string>

#include "rlroute/design.hpp"
#include "rlroute/routing.hpp"

namespace rlroute::emit {

// First lines of every generated file: what it is and which config made it.
std::string file_header(const Design& d, const std::string& what);
// The router top: rr_router core, one route-compute unit per input port and,
// for UGAL-LE, the contention counters.
std::string router_top(const Design& d, const RoutingRelation& relation);
// The network top: every router and every link.
std::string network_top(const Design& d);
// Algorithm number of rr_route_dfly's ALGO parameter.
int dragonfly_algo(RoutingAlgorithm algorithm);

}  // namespace rlroute::emit
