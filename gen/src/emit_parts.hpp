// Internal to the emitter: the pieces emit_design() assembles.
#pragma once

#include <string>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing.hpp"
#include "sv_writer.hpp"

namespace rlroute::emit {

// First lines of every generated file: what it is and which config made it.
std::string file_header(const Design& d, const std::string& what);
// The router top: rr_router core, one route-compute unit per input port and,
// for UGAL-LE, the contention counters.
std::string router_top(const Design& d, const RoutingRelation& relation);
// DQN-routing: the inference block's programming port on the router and
// network tops (every router of the network takes the same writes).
std::vector<sv::Port> dqn_programming_ports(const std::string& pkg);
// The network top: every router and every link.
std::string network_top(const Design& d);
// The rr_pkg constant of an algorithm's RTL code, e.g. "rr_pkg::ALGO_UGAL_LE".
std::string algorithm_constant(RoutingAlgorithm algorithm);

}  // namespace rlroute::emit
