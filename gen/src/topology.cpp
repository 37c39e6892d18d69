#include "rlroute/topology.hpp"

#include <cstdlib>
#include <fmt/format.h>

namespace rlroute {

int bits_for(int count) {
  int bits = 0;
  while ((1 << bits) < count) ++bits;
  return bits;
}

Topology::Topology(const Config& cfg)
    : torus_(cfg.kind == TopologyKind::Torus),
      radix_(cfg.dims),
      nodes_per_router_(cfg.nodes_per_router),
      num_routers_(1),
      coord_bits_(1),
      local_bits_(bits_for(cfg.nodes_per_router)) {
  for (int k : radix_) {
    num_routers_ *= k;
    coord_bits_ = std::max(coord_bits_, bits_for(k));
  }
}

std::vector<int> Topology::coords(int router) const {
  std::vector<int> c(radix_.size());
  for (size_t d = 0; d < radix_.size(); ++d) {
    c[d] = router % radix_[d];
    router /= radix_[d];
  }
  return c;
}

int Topology::router_at(const std::vector<int>& c) const {
  int router = 0;
  for (int d = num_dims() - 1; d >= 0; --d) router = router * radix_[d] + c[d];
  return router;
}

std::optional<PortRef> Topology::neighbor(int router, int out_port) const {
  const int dim = port_dim(out_port);
  if (dim < 0 || out_port >= num_ports()) return std::nullopt;
  const bool plus = out_port == plus_port(dim);
  std::vector<int> c = coords(router);
  const int k = radix_[dim];
  int next = c[dim] + (plus ? 1 : -1);
  if (next < 0 || next >= k) {
    if (!torus_) return std::nullopt;
    next = (next + k) % k;
  }
  c[dim] = next;
  return PortRef{router_at(c), plus ? minus_port(dim) : plus_port(dim)};
}

unsigned Topology::address_of(int node) const {
  const std::vector<int> c = coords(router_of_node(node));
  unsigned address = static_cast<unsigned>(local_of_node(node));
  for (int d = 0; d < num_dims(); ++d) {
    address |= static_cast<unsigned>(c[d]) << (local_bits_ + d * coord_bits_);
  }
  return address;
}

int Topology::node_of_address(unsigned address) const {
  const unsigned local_mask = (1u << local_bits_) - 1;
  const unsigned coord_mask = (1u << coord_bits_) - 1;
  std::vector<int> c(radix_.size());
  for (int d = 0; d < num_dims(); ++d) {
    c[d] = static_cast<int>((address >> (local_bits_ + d * coord_bits_)) & coord_mask);
    if (c[d] >= radix_[d]) return -1;
  }
  const int local = static_cast<int>(address & local_mask);
  if (local >= nodes_per_router_) return -1;
  return node_at(router_at(c), local);
}

int Topology::min_hops(int src_node, int dst_node) const {
  const std::vector<int> a = coords(router_of_node(src_node));
  const std::vector<int> b = coords(router_of_node(dst_node));
  int hops = 0;
  for (int d = 0; d < num_dims(); ++d) {
    const int diff = std::abs(a[d] - b[d]);
    hops += torus_ ? std::min(diff, radix_[d] - diff) : diff;
  }
  return hops;
}

std::string Topology::describe() const {
  std::string shape;
  for (size_t d = 0; d < radix_.size(); ++d) shape += (d ? "x" : "") + std::to_string(radix_[d]);
  return fmt::format("{} {}, {} node{} per router", shape, torus_ ? "torus" : "mesh",
                     nodes_per_router_, nodes_per_router_ == 1 ? "" : "s");
}

}  // namespace rlroute
