// DQN-routing's relation; the rule and its deadlock argument are in
// gen/include/rlroute/gen/routing_dqn.hpp and docs/dqn.md.
#include "rlroute/gen/routing_dqn.hpp"

namespace rlroute {

DqnRouting::DqnRouting(const Design& design, int hop_threshold)
    : design_(design), escape_(design, design.vcs - 1), hop_threshold_(hop_threshold) {}

RouteState DqnRouting::canonical(const RouteState& state) const {
  RouteState c;
  c.dst = state.dst;
  c.hops = state.hops;
  c.pdor = state.pdor;
  return c;
}

std::vector<RouteOption> DqnRouting::next_hops(int router, int in_port, int in_vc,
                                               const RouteState& state) const {
  const Topology& t = design_.topo;
  RouteState hop = state;
  ++hop.hops;
  if (router == t.router_of_node(state.dst)) return escape_.next_hops(router, in_port, in_vc, state);  // ejection
  // The DOR hop on the escape VCs: the packet is (or becomes) Pdor; with
  // routing.dqn_fallback = "hop" only at the threshold.
  const bool open = !state.pdor && state.hops < hop_threshold_;
  std::vector<RouteOption> options = escape_.next_hops(router, in_port, in_vc, state);
  options.front().next = hop;
  options.front().next.pdor = !open || design_.cfg.dqn_fallback == DqnFallback::Pdor;
  // routing.dqn_dor_vcs = "all": the DOR hop may also take the DQN VC.
  if (design_.cfg.dqn_dor_vcs == DqnDorVcs::All) options.front().vc_mask |= 1u << dqn_vc();
  if (!open) return options;
  // The agent's proposals: any network port, on the DQN VC.
  for (int port = t.nodes_per_router(); port < t.num_ports(); ++port) {
    if (t.neighbor(router, port)) options.push_back({port, 1u << dqn_vc(), hop});
  }
  return options;
}

}  // namespace rlroute
