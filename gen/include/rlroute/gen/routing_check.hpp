// Checks on a routing relation, run before anything is emitted.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rlroute/gen/routing.hpp"
#include "rlroute/gen/vc_request_map.hpp"

namespace rlroute {

// A channel is a router output port to a neighbour, on one VC.
struct Channel {
  int router;
  int port;
  int vc;
};

// Every packet from every node reaches its destination, on every path the
// relation allows, within the relation's hop bound. Returns a one-line
// description of the first failure.
std::optional<std::string> check_connectivity(const Design& design, const RoutingRelation& relation);

// The channel dependency graph of the escape sub-relation is acyclic (Duato).
// Returns the cycle, first channel repeated at the end, if there is one.
std::optional<std::vector<Channel>> find_escape_cycle(const Design& design,
                                                      const RoutingRelation& relation);

std::string describe_channel(const Design& design, const Channel& channel);

// Runs both checks; a failure is a ConfigError on routing.algorithm
// (connectivity) or router.vcs (dependency cycle). Returns the VC requests
// the walk over every path met (the VC allocator's REQ_MAP).
VcRequestMap check_routing(const Design& design, const RoutingRelation& relation);

}  // namespace rlroute
