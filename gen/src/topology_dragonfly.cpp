// The dragonfly family of Topology: fully connected groups of a routers, g
// groups, l = a*h/(g-1) global links between every pair of groups.
//
// Global link numbering: group G owns a*h global link ends, numbered
// n = index * h + k (router `index` of the group, its global port k). Link end
// n goes to "other group number" o = n mod (g-1) as copy c = n div (g-1), and
// pairs with the end of the same copy number in the target group:
//   absolute: target(G, o) = o < G ? o : o + 1 (other groups in increasing order)
//   palmtree: target(G, o) = (G - o - 1) mod g (groups counted backwards from G)
// See docs/topology_dragonfly.md.
#include <fmt/format.h>

#include "rlroute/gen/topology.hpp"

namespace rlroute {

namespace {

int mod(int x, int m) { return ((x % m) + m) % m; }

}  // namespace

int Topology::local_port_target(int from, int port) const {
  const int j = port - first_local_port();
  return j < from ? j : j + 1;
}

// Other-group number o of `target` as seen from `group`, then the link end.
int Topology::global_link_number_to(int group, int target, int copy) const {
  const int o = arrangement_ == GlobalArrangement::Absolute ? (target < group ? target : target - 1)
                                                            : mod(group - target - 1, g_);
  return o + copy * (g_ - 1);
}

int Topology::global_port_target(int router, int port) const {
  const int n = index_in_group(router) * h_ + (port - first_global_port());
  const int o = n % (g_ - 1);
  const int group = group_of(router);
  return arrangement_ == GlobalArrangement::Absolute ? (o < group ? o : o + 1) : mod(group - o - 1, g_);
}

PortRef Topology::global_link(int group, int target, int copy) const {
  const int n = global_link_number_to(group, target, copy);
  return {router_in_group(group, n / h_), first_global_port() + n % h_};
}

std::vector<PortRef> Topology::global_links(int group, int target) const {
  std::vector<PortRef> links;
  for (int c = 0; c < l_; ++c) links.push_back(global_link(group, target, c));
  return links;
}

void Topology::build_dragonfly_links() {
  links_.assign(static_cast<size_t>(num_routers_ * num_ports_), std::nullopt);
  for (int r = 0; r < num_routers_; ++r) {
    const int group = group_of(r), index = index_in_group(r);
    for (int to = 0; to < a_; ++to) {
      if (to == index) continue;
      links_[static_cast<size_t>(r * num_ports_ + local_port_to(index, to))] =
          PortRef{router_in_group(group, to), local_port_to(to, index)};
    }
    for (int k = 0; k < h_; ++k) {
      const int n = index * h_ + k;
      const int copy = n / (g_ - 1);
      const int target = global_port_target(r, first_global_port() + k);
      const int far = global_link_number_to(target, group, copy);
      links_[static_cast<size_t>(r * num_ports_ + first_global_port() + k)] =
          PortRef{router_in_group(target, far / h_), first_global_port() + far % h_};
    }
  }
}

}  // namespace rlroute
