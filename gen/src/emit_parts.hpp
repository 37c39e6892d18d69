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

// The pieces of a router top (emit_router.cpp) that every family's route
// units connect to: the per-port slices of a route unit, and the
// head-decision interface of a unit that names the port.
std::vector<sv::Connection> route_unit_ports();
std::vector<sv::Connection> head_decision_ports();
// The head-decision answers where no unit names a port: every answer tied
// off (no decisions at the head of the VC), or all but hd_alt, which a
// combinational unit per port sets (star, UGAL).
std::string plain_head_answers(const Design& d);
// The credit words of a family whose side-band (`width` bits per port: Q
// feedback, DQN acks) rides above the core's {vc, valid}: split into the
// core's words and the side-band `in`, and joined again from `out`.
std::string credit_sideband_wiring(const std::string& in, const std::string& out, const std::string& width);
// The VC allocator's REQ_MAP as a readable localparam.
std::string vc_request_map_localparam(const Design& d, const VcRequestMap& requests);

// rr_route_dor's parameters and connections in a router top (cube/; DQN-routing
// adds its own), and the radix and torus parameters other torus units take.
struct DorRouteUnit {
  std::vector<sv::Param> params, radices;
  sv::Param torus;
  std::vector<sv::Connection> ports;
};
DorRouteUnit dor_route_unit(const Design& d, const std::string& pkg);

// What the dragonfly route units (dragonfly/: rr_route_dfly; q_adaptive/:
// rr_route_q_adaptive) share: the topology and header parameters, and the
// blocks of their path arithmetic and VC levels.
std::vector<sv::Param> dragonfly_topology_params(const Design& d, const std::string& pkg);
std::vector<std::string> dragonfly_path_blocks();

}  // namespace rlroute::emit
