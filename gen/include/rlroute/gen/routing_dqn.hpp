// DQN-routing's relation on torus and mesh ([Lonardo 2019], section 3.2,
// Algorithm 2; docs/dqn.md): the highest VC is the DQN VC, on which a packet
// not flagged Pdor may take any network port the agent proposes (non-minimal,
// U-turns included) while its hop count is below the threshold; the DOR hop on
// the escape VCs below it (DorRouting on those VCs) is always offered and sets
// Pdor, after which the packet follows DOR to its destination (with
// routing.dqn_fallback = "hop" the DOR hop sets Pdor only at the threshold,
// and the packet may take the DQN VC again at the next router; with
// routing.dqn_dor_vcs = "all" the DOR hop may take the DQN VC too). Deadlock-free
// by Duato's theorem (escape sub-relation connected and acyclic), livelock-
// free by the threshold: once its hop count reaches it, DOR only.
#pragma once

#include "rlroute/gen/routing_dor.hpp"

namespace rlroute {

class DqnRouting : public RoutingRelation {
 public:
  DqnRouting(const Design& design, int hop_threshold);
  std::string name() const override { return "dqn"; }
  std::vector<RouteOption> next_hops(int router, int in_port, int in_vc,
                                     const RouteState& state) const override;
  std::uint32_t injection_vcs() const override { return all_vcs_mask(design_.vcs); }
  // hop_threshold DQN hops, then DOR's diameter.
  int hop_bound() const override { return hop_threshold_ + escape_.hop_bound(); }
  std::uint32_t escape_vcs() const override { return escape_.escape_vcs(); }
  RouteState canonical(const RouteState& state) const override;
  int dqn_vc() const { return design_.vcs - 1; }

 private:
  const Design& design_;
  DorRouting escape_;
  int hop_threshold_;
};

}  // namespace rlroute
