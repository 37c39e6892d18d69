// Every path a routing relation allows between two nodes, for the routing
// tests: each hop takes the lowest VC of the allowed set (the VC-level rules
// make every VC of a level equivalent).
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "rlroute/gen/routing.hpp"

namespace rlroute::test {

struct Hop {
  int router, out_port, vc;
  RouteState next;
};

inline void all_paths(const Design& d, const RoutingRelation& rel, int router, int in_port, int in_vc,
                      const RouteState& s, std::vector<Hop>& path, std::vector<std::vector<Hop>>& out) {
  ASSERT_LE(path.size(), 10u) << "runaway path";
  for (const RouteOption& o : rel.next_hops(router, in_port, in_vc, s)) {
    ASSERT_NE(o.vc_mask, 0u);
    int vc = 0;
    while (!(o.vc_mask & (1u << vc))) ++vc;
    path.push_back({router, o.out_port, vc, o.next});
    if (d.topo.is_ni_port(o.out_port)) {
      out.push_back(path);
    } else {
      const PortRef n = *d.topo.neighbor(router, o.out_port);
      all_paths(d, rel, n.router, n.port, vc, o.next, path, out);
    }
    path.pop_back();
  }
}

}  // namespace rlroute::test
