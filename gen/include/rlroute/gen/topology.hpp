// Topology model: routers, ports, links and node addresses of a k-ary n-cube
// torus or mesh, or of a dragonfly dfly(p, a, h, g). Derived once from a
// validated Config; immutable afterwards.
//
// Generic view (every kind): routers 0..R-1, each with the same number of
// ports; NI ports come first; neighbor() says where an output port leads.
// A router's identity is a packed bit vector (router_id), and a node's
// hardware address is {router_id, local NI index}.
//   torus/mesh: router_id = {coord[n-1], ..., coord[0]}, coord_bits() each
//   dragonfly:  router_id = {group, index in group}
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rlroute/gen/config.hpp"

namespace rlroute {

struct PortRef {
  int router = -1;
  int port = -1;
  bool operator==(const PortRef&) const = default;
};

// What a router port connects to.
enum class PortClass { Terminal, Dimension, Local, Global };
inline constexpr int kPortClasses = 4;  // the PortClass values, for tables indexed by them

class Topology {
 public:
  explicit Topology(const Config& cfg);

  TopologyKind kind() const { return kind_; }
  bool torus() const { return kind_ == TopologyKind::Torus; }
  bool dragonfly() const { return kind_ == TopologyKind::Dragonfly; }

  // ---- every kind ----
  int num_routers() const { return num_routers_; }
  int nodes_per_router() const { return nodes_per_router_; }
  int num_nodes() const { return num_routers_ * nodes_per_router_; }
  int num_ports() const { return num_ports_; }
  bool is_ni_port(int port) const { return port < nodes_per_router_; }
  PortClass port_class(int port) const;
  // The input port on the far side of an output port; nullopt for NI ports
  // and for the unconnected edge ports of a mesh.
  std::optional<PortRef> neighbor(int router, int out_port) const;
  // Link and credit latency of the link behind a router-to-router port.
  int link_latency(int port) const;
  int credit_latency(int port) const;

  int router_of_node(int node) const { return node / nodes_per_router_; }
  int local_of_node(int node) const { return node % nodes_per_router_; }
  int node_at(int router, int local) const { return router * nodes_per_router_ + local; }

  int router_id_bits() const { return router_id_bits_; }
  unsigned router_id(int router) const;
  int router_of_id(unsigned id) const;  // -1 if no such router
  int local_bits() const { return local_bits_; }
  int address_bits() const { return local_bits_ + router_id_bits_; }
  unsigned address_of(int node) const;
  int node_of_address(unsigned address) const;  // -1 if no such node

  // Router-to-router hops of a minimal route between the routers of two nodes.
  // Dragonfly: minimal routing's hops (at most local, global, local through a
  // direct global link); the graph distance can be shorter through a third group.
  int min_hops(int src_node, int dst_node) const;
  int min_router_hops(int src_router, int dst_router) const;
  std::string describe() const;  // e.g. "4x4 torus, 1 node per router"
  // Short name of a router and a port for messages, e.g. "R5(1,1)" / "x+",
  // "R9(g2.r1)" / "l0" (local to index 0) / "g1" (global port 1) / "ni0".
  std::string router_name(int router) const;
  std::string port_name(int router, int port) const;

  // ---- torus / mesh ----
  int num_dims() const { return static_cast<int>(radix_.size()); }
  int radix(int dim) const { return radix_[dim]; }
  // Ports: NI ports 0..c-1, then per dimension d the + side (c + 2d) and the - side (c + 2d + 1).
  int plus_port(int dim) const { return nodes_per_router_ + 2 * dim; }
  int minus_port(int dim) const { return nodes_per_router_ + 2 * dim + 1; }
  // Dimension of a network port, -1 for an NI port.
  int port_dim(int port) const { return is_ni_port(port) ? -1 : (port - nodes_per_router_) / 2; }
  std::vector<int> coords(int router) const;
  // coords(router)[dim], without building the vector (per-hop code).
  int coord(int router, int dim) const;
  int router_at(const std::vector<int>& coords) const;
  int coord_bits() const { return coord_bits_; }

  // ---- dragonfly dfly(p, a, h, g) ----
  // Ports: p NI ports, then a-1 local ports, then h global ports.
  // Router r = group * a + index. Local port j of router index i leads to the
  // router of index (j < i ? j : j + 1) in the same group.
  int group_size() const { return a_; }          // a
  int num_groups() const { return g_; }          // g
  int global_ports() const { return h_; }        // h per router
  int links_per_group_pair() const { return l_; }  // l = a*h / (g-1)
  GlobalArrangement arrangement() const { return arrangement_; }
  int group_of(int router) const { return router / a_; }
  int index_in_group(int router) const { return router % a_; }
  int router_in_group(int group, int index) const { return group * a_ + index; }
  int first_local_port() const { return nodes_per_router_; }
  int first_global_port() const { return nodes_per_router_ + a_ - 1; }
  bool is_local_port(int port) const { return port_class(port) == PortClass::Local; }
  bool is_global_port(int port) const { return port_class(port) == PortClass::Global; }
  // Local port of a router (at index `from`) that leads to index `to` (!= from).
  int local_port_to(int from, int to) const { return first_local_port() + (to < from ? to : to - 1); }
  // Index in the group that local port `port` of the router at index `from` leads to.
  int local_port_target(int from, int port) const;
  // Group reached through global port `port` of `router`.
  int global_port_target(int router, int port) const;
  // Every global link from `group` to `target` (!= group), as (router, port)
  // on the `group` side, in increasing order of the group's global link number
  // index * h + k. There are exactly l of them.
  std::vector<PortRef> global_links(int group, int target) const;
  // The `copy`-th of them (0 <= copy < l), without building the list (the
  // route checker asks for it for every head).
  PortRef global_link(int group, int target, int copy) const;

 private:
  void build_torus_links();
  void build_dragonfly_links();
  int global_link_number_to(int group, int target, int copy) const;

  TopologyKind kind_;
  int nodes_per_router_;
  int num_routers_ = 1;
  int num_ports_ = 0;
  int local_bits_ = 0;
  int router_id_bits_ = 0;
  // torus / mesh
  std::vector<int> radix_;
  int coord_bits_ = 1;
  int link_latency_ = 1;
  int credit_latency_ = 1;
  // dragonfly
  int a_ = 0, h_ = 0, g_ = 0, l_ = 0;
  GlobalArrangement arrangement_ = GlobalArrangement::Absolute;
  int group_bits_ = 0, index_bits_ = 0;
  int local_link_latency_ = 1, global_link_latency_ = 1;
  int local_credit_latency_ = 1, global_credit_latency_ = 1;
  // neighbor table [router * num_ports + port]
  std::vector<std::optional<PortRef>> links_;
};

int bits_for(int count);  // bits to number `count` things (>= 1 for count >= 2, 0 for 1)

}  // namespace rlroute
