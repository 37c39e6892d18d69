// Generic topology view and the torus/mesh family; the dragonfly family is in
// topology_dragonfly.cpp.
#include "rlroute/gen/topology.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <stdexcept>

namespace rlroute {

int bits_for(int count) {
  int bits = 0;
  while ((1 << bits) < count) ++bits;
  return bits;
}

Topology::Topology(const Config& cfg)
    : kind_(cfg.kind), nodes_per_router_(cfg.nodes_per_router), local_bits_(bits_for(cfg.nodes_per_router)) {
  if (dragonfly()) {
    a_ = cfg.a;
    h_ = cfg.h;
    g_ = cfg.g;
    l_ = a_ * h_ / (g_ - 1);
    arrangement_ = cfg.arrangement;
    local_link_latency_ = cfg.local_link_latency;
    global_link_latency_ = cfg.global_link_latency;
    local_credit_latency_ = cfg.local_credit_latency;
    global_credit_latency_ = cfg.global_credit_latency;
    num_routers_ = a_ * g_;
    num_ports_ = nodes_per_router_ + a_ - 1 + h_;
    group_bits_ = std::max(1, bits_for(g_));
    index_bits_ = std::max(1, bits_for(a_));
    router_id_bits_ = group_bits_ + index_bits_;
    build_dragonfly_links();
  } else {
    radix_ = cfg.dims;
    link_latency_ = cfg.link_latency;
    credit_latency_ = cfg.credit_latency;
    for (int k : radix_) {
      num_routers_ *= k;
      coord_bits_ = std::max(coord_bits_, bits_for(k));
    }
    num_ports_ = nodes_per_router_ + 2 * num_dims();
    router_id_bits_ = num_dims() * coord_bits_;
    build_torus_links();
  }
}

PortClass Topology::port_class(int port) const {
  if (port < nodes_per_router_) return PortClass::Terminal;
  if (!dragonfly()) return PortClass::Dimension;
  return port < first_global_port() ? PortClass::Local : PortClass::Global;
}

std::optional<PortRef> Topology::neighbor(int router, int out_port) const {
  if (router < 0 || router >= num_routers_ || out_port < 0 || out_port >= num_ports_) return std::nullopt;
  return links_[static_cast<size_t>(router * num_ports_ + out_port)];
}

int Topology::link_latency(int port) const {
  if (!dragonfly()) return link_latency_;
  return is_global_port(port) ? global_link_latency_ : local_link_latency_;
}

int Topology::credit_latency(int port) const {
  if (!dragonfly()) return credit_latency_;
  return is_global_port(port) ? global_credit_latency_ : local_credit_latency_;
}

unsigned Topology::router_id(int router) const {
  if (dragonfly()) {
    return (static_cast<unsigned>(group_of(router)) << index_bits_) | static_cast<unsigned>(index_in_group(router));
  }
  // The coordinates digit by digit, without a vector (the harness encodes
  // every packet's addresses with it).
  unsigned id = 0;
  for (int d = 0; d < num_dims(); ++d) {
    id |= static_cast<unsigned>(router % radix_[d]) << (d * coord_bits_);
    router /= radix_[d];
  }
  return id;
}

int Topology::router_of_id(unsigned id) const {
  if (dragonfly()) {
    const int group = static_cast<int>(id >> index_bits_);
    const int index = static_cast<int>(id & ((1u << index_bits_) - 1));
    if (group >= g_ || index >= a_) return -1;
    return router_in_group(group, index);
  }
  // The router index of the coordinates (router_at), without a vector: the
  // harness asks this for every packet it decodes.
  const unsigned mask = (1u << coord_bits_) - 1;
  if ((id >> (num_dims() * coord_bits_)) != 0) return -1;
  int router = 0;
  for (int d = num_dims() - 1; d >= 0; --d) {
    const int c = static_cast<int>((id >> (d * coord_bits_)) & mask);
    if (c >= radix_[d]) return -1;
    router = router * radix_[d] + c;
  }
  return router;
}

unsigned Topology::address_of(int node) const {
  return (router_id(router_of_node(node)) << local_bits_) | static_cast<unsigned>(local_of_node(node));
}

int Topology::node_of_address(unsigned address) const {
  const int local = static_cast<int>(address & ((1u << local_bits_) - 1));
  if (local >= nodes_per_router_) return -1;
  const int router = router_of_id(address >> local_bits_);
  return router < 0 ? -1 : node_at(router, local);
}

int Topology::min_hops(int src_node, int dst_node) const {
  return min_router_hops(router_of_node(src_node), router_of_node(dst_node));
}

int Topology::min_router_hops(int src, int dst) const {
  if (src == dst) return 0;
  if (dragonfly()) {
    const int gs = group_of(src), gd = group_of(dst);
    if (gs == gd) return 1;
    // Best over the l global links from gs to gd: local hop to the link's
    // router (unless it is src), the global hop, local hop to dst (unless the
    // link lands on dst).
    int best = 3;
    for (const PortRef& link : global_links(gs, gd)) {
      const PortRef far = *neighbor(link.router, link.port);
      best = std::min(best, (link.router != src) + 1 + (far.router != dst));
    }
    return best;
  }
  // Coordinate by coordinate, without vectors (asked for every delivered packet).
  int hops = 0;
  for (int d = 0; d < num_dims(); ++d) {
    const int diff = std::abs(src % radix_[d] - dst % radix_[d]);
    hops += torus() ? std::min(diff, radix_[d] - diff) : diff;
    src /= radix_[d];
    dst /= radix_[d];
  }
  return hops;
}

std::string Topology::describe() const {
  if (dragonfly()) {
    return fmt::format("dfly({}, {}, {}, {}) dragonfly, {} routers, {} global link{} per group pair, {} arrangement",
                       nodes_per_router_, a_, h_, g_, num_routers_, l_, l_ == 1 ? "" : "s",
                       to_string(arrangement_));
  }
  return fmt::format("{} {}, {} node{} per router", fmt::join(radix_, "x"), torus() ? "torus" : "mesh", nodes_per_router_,
                     nodes_per_router_ == 1 ? "" : "s");
}

std::string Topology::router_name(int router) const {
  if (dragonfly()) return fmt::format("R{}(g{}.r{})", router, group_of(router), index_in_group(router));
  return fmt::format("R{}({})", router, fmt::join(coords(router), ","));
}

std::string Topology::port_name(int router, int port) const {
  switch (port_class(port)) {
    case PortClass::Terminal:
      return fmt::format("ni{}", port);
    case PortClass::Dimension: {
      static const char axes[] = {'x', 'y', 'z'};
      const int dim = port_dim(port);
      return fmt::format("{}{}", axes[dim], port == plus_port(dim) ? '+' : '-');
    }
    case PortClass::Local:
      return fmt::format("l{}", local_port_target(index_in_group(router), port));
    case PortClass::Global:
      return fmt::format("g{}", port - first_global_port());
  }
  return "?";
}

// ---- torus / mesh ----

std::vector<int> Topology::coords(int router) const {
  std::vector<int> c(radix_.size());
  for (size_t d = 0; d < radix_.size(); ++d) {
    c[d] = router % radix_[d];
    router /= radix_[d];
  }
  return c;
}

int Topology::coord(int router, int dim) const {
  for (int d = 0; d < dim; ++d) router /= radix_[static_cast<size_t>(d)];
  return router % radix_[static_cast<size_t>(dim)];
}

int Topology::router_at(const std::vector<int>& c) const {
  int router = 0;
  for (int d = num_dims() - 1; d >= 0; --d) router = router * radix_[d] + c[d];
  return router;
}

void Topology::build_torus_links() {
  links_.assign(static_cast<size_t>(num_routers_ * num_ports_), std::nullopt);
  for (int r = 0; r < num_routers_; ++r) {
    for (int dim = 0; dim < num_dims(); ++dim) {
      for (const bool plus : {true, false}) {
        std::vector<int> c = coords(r);
        const int k = radix_[dim];
        int next = c[dim] + (plus ? 1 : -1);
        if (next < 0 || next >= k) {
          if (!torus()) continue;
          next = (next + k) % k;
        }
        c[dim] = next;
        links_[static_cast<size_t>(r * num_ports_ + (plus ? plus_port(dim) : minus_port(dim)))] =
            PortRef{router_at(c), plus ? minus_port(dim) : plus_port(dim)};
      }
    }
  }
}

}  // namespace rlroute
