// Star-channel routing; the RTL twin is rtl/rr_route_dor.sv with STAR set.
#include "rlroute/gen/routing_star.hpp"

namespace rlroute {

StarRouting::StarRouting(const Design& design) : design_(design), escape_(design, design.vcs - 1) {}

std::vector<RouteOption> StarRouting::next_hops(int router, int in_port, int in_vc,
                                                const RouteState& state) const {
  const Topology& t = design_.topo;
  std::vector<RouteOption> options = escape_.next_hops(router, in_port, in_vc, state);
  const int dst_router = t.router_of_node(state.dst);
  if (router == dst_router) return options;  // ejection
  const std::uint32_t adaptive = 1u << adaptive_vc();
  options.front().vc_mask |= adaptive;
  for (int d = 0; d < t.num_dims(); ++d) {
    const int port = minimal_port(t, router, dst_router, d);
    if (port >= 0 && port != options.front().out_port) options.push_back({port, adaptive, state});
  }
  return options;
}

}  // namespace rlroute
