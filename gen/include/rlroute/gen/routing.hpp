// Routing relations: the one C++ statement of each routing algorithm. The
// generator checks it (connectivity, hop bound, acyclic escape channel
// dependency graph) before emitting RTL, and the test bench checks every hop
// the RTL takes against it (DESIGN.md sections 2 and 6).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rlroute/gen/design.hpp"

namespace rlroute {

// Where a packet is on its way (header field `phase`).
enum class RouteMode : std::uint8_t {
  Minimal = 0,           // routed minimally to the destination
  ToIntermediate = 1,    // non-minimal, heading for the intermediate
  FromIntermediate = 2,  // non-minimal, intermediate reached, minimal from here
  SourceDetour = 3,      // Q-adaptive's routing.q_source_group = "detour": sent by the source to
                         // another router of its group, which decides again
};

// The routing state a packet carries in its header.
struct RouteState {
  int dst = 0;     // destination node
  int src = 0;     // source node
  int inter = -1;  // intermediate router (for a group, the group's router 0); -1 when minimal
  RouteMode mode = RouteMode::Minimal;
  // DQN-routing only (AlgorithmTraits::routes_by_hops; 0 and false for the
  // others): router-to-router hops so far, and routed by DOR from here on.
  int hops = 0;
  bool pdor = false;
  bool operator==(const RouteState&) const = default;
};

// The route state of a decoded header; the header fields of a route state.
RouteState route_state_of(const Design& design, const Header& header);
void set_route_state(const Design& design, const RouteState& state, Header& header);
std::string describe(const Design& design, const RouteState& state);

struct RouteOption {
  int out_port = 0;
  std::uint32_t vc_mask = 0;  // output VCs allowed on out_port
  RouteState next;            // the state the packet leaves with (the router rewrites the header)
};

class RoutingRelation {
 public:
  virtual ~RoutingRelation() = default;
  virtual std::string name() const = 0;
  // Allowed next hops of a packet in state `state` whose head sits in
  // `router`, input port `in_port`, input VC `in_vc`.
  virtual std::vector<RouteOption> next_hops(int router, int in_port, int in_vc,
                                             const RouteState& state) const = 0;
  // Output VCs a NIC may inject on. A NIC injects in state {dst, src, -1, Minimal}.
  virtual std::uint32_t injection_vcs() const = 0;
  // Upper bound on router-to-router hops of any packet.
  virtual int hop_bound() const = 0;
  // The VCs of the escape sub-relation (all of them for the deterministic and
  // the oblivious/source-adaptive algorithms).
  virtual std::uint32_t escape_vcs() const = 0;
  // `state` with the parts next_hops() never reads cleared, so that checks can
  // merge packets that the relation cannot tell apart (e.g. the source node
  // for every algorithm but PAR).
  virtual RouteState canonical(const RouteState& state) const = 0;
};

// Throws ConfigError on routing.algorithm for an algorithm without a relation.
std::unique_ptr<RoutingRelation> make_routing_relation(const Design& design);

std::uint32_t all_vcs_mask(int vcs);

}  // namespace rlroute
