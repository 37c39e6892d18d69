// Topology model: routers, ports, links and node addresses of a k-ary n-cube
// torus or mesh. Derived once from a validated Config; immutable afterwards.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rlroute/config.hpp"

namespace rlroute {

struct PortRef {
  int router = -1;
  int port = -1;
  bool operator==(const PortRef&) const = default;
};

class Topology {
 public:
  explicit Topology(const Config& cfg);

  bool torus() const { return torus_; }
  int num_dims() const { return static_cast<int>(radix_.size()); }
  int radix(int dim) const { return radix_[dim]; }
  int num_routers() const { return num_routers_; }
  int nodes_per_router() const { return nodes_per_router_; }
  int num_nodes() const { return num_routers_ * nodes_per_router_; }
  int num_ports() const { return nodes_per_router_ + 2 * num_dims(); }
  bool is_ni_port(int port) const { return port < nodes_per_router_; }

  // Ports: NI ports 0..c-1, then per dimension d the + side (c + 2d) and the - side (c + 2d + 1).
  int plus_port(int dim) const { return nodes_per_router_ + 2 * dim; }
  int minus_port(int dim) const { return nodes_per_router_ + 2 * dim + 1; }
  // Dimension of a network port, -1 for an NI port.
  int port_dim(int port) const { return is_ni_port(port) ? -1 : (port - nodes_per_router_) / 2; }

  std::vector<int> coords(int router) const;
  int router_at(const std::vector<int>& coords) const;
  // The input port on the far side of an output port; nullopt for NI ports
  // and for the unconnected edge ports of a mesh.
  std::optional<PortRef> neighbor(int router, int out_port) const;

  int router_of_node(int node) const { return node / nodes_per_router_; }
  int local_of_node(int node) const { return node % nodes_per_router_; }
  int node_at(int router, int local) const { return router * nodes_per_router_ + local; }

  // Hardware address of a node: {coord[n-1], ..., coord[0], local}.
  int coord_bits() const { return coord_bits_; }
  int local_bits() const { return local_bits_; }
  int address_bits() const { return local_bits_ + num_dims() * coord_bits_; }
  unsigned address_of(int node) const;
  int node_of_address(unsigned address) const;

  // Minimal number of router-to-router hops between the routers of two nodes.
  int min_hops(int src_node, int dst_node) const;
  std::string describe() const;  // e.g. "4x4 torus, 1 node per router"

 private:
  bool torus_;
  std::vector<int> radix_;
  int nodes_per_router_;
  int num_routers_;
  int coord_bits_;
  int local_bits_;
};

int bits_for(int count);  // bits to number `count` things (>= 1 for count >= 2, 0 for 1)

}  // namespace rlroute
