// Internal to the emitter: the pieces emit_design() assembles.
#pragma once

#include <string>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing.hpp"
#include "rlroute/gen/vc_request_map.hpp"
#include "sv_writer.hpp"

namespace rlroute::emit {

// First lines of every generated file: what it is and which config made it.
std::string file_header(const Design& d, const std::string& what);
// The router top: rr_router core, one route-compute unit per input port and,
// for UGAL-LE, the contention counters; `requests` is the VC allocator's
// REQ_MAP.
std::string router_top(const Design& d, const RoutingRelation& relation, const VcRequestMap& requests);
// DQN-routing: the inference block's programming port on the router and
// network tops (every router of the network takes the same writes).
std::vector<sv::Port> dqn_programming_ports(const std::string& pkg);
// DQN-routing's agent port: direction, name, width; the requests and answers
// of rr_dqn_unit (agent_*), and the rewards of rr_dqn_episode_unit
// (agent_rew_*, `reward`).
struct DqnPortSignal {
  std::string direction, name, width, comment;
  bool reward = false;
};
std::vector<DqnPortSignal> dqn_agent_signals(const std::string& pkg);
// The DQN ports of a top: the programming port (routing.dqn_agent = "block")
// or the agent port ("external"), each `multiple` times as wide (the network
// top: "ROUTERS"; the router top: "").
std::vector<sv::Port> dqn_top_ports(const Design& d, const std::string& multiple);
// The network top: every router and every link.
std::string network_top(const Design& d);
// The rr_pkg constant of an algorithm's RTL code, e.g. "rr_pkg::ALGO_UGAL_LE".
std::string algorithm_constant(RoutingAlgorithm algorithm);

}  // namespace rlroute::emit
