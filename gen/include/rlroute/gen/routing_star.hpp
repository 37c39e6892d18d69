// Star-channel routing on torus and mesh ([Lonardo 2019], section 2.7.2;
// Duato's protocol): the highest VC of every channel is adaptive and minimal (a
// packet may take it in any dimension in which it is not yet at its
// destination, in the minimal direction), the VCs below it are the escape
// sub-network and follow dimension order with dateline classes (DorRouting
// on those VCs). The RTL twin is rtl/rr_route_dor.sv with STAR set, and the
// choice between the two at the head of the VC is rtl/rr_star_decide.sv;
// docs/routing_star.md has the interpretations.
#pragma once

#include "rlroute/gen/routing_dor.hpp"

namespace rlroute {

class StarRouting : public RoutingRelation {
 public:
  explicit StarRouting(const Design& design);
  std::string name() const override { return "star"; }
  // The escape hop (DOR's port, its dateline-class VCs and the adaptive VC),
  // then for every other dimension still to correct its minimal port on the
  // adaptive VC.
  std::vector<RouteOption> next_hops(int router, int in_port, int in_vc,
                                     const RouteState& state) const override;
  std::uint32_t injection_vcs() const override { return all_vcs_mask(design_.vcs); }
  int hop_bound() const override { return escape_.hop_bound(); }
  std::uint32_t escape_vcs() const override { return escape_.escape_vcs(); }
  RouteState canonical(const RouteState& state) const override { return escape_.canonical(state); }
  int adaptive_vc() const { return design_.vcs - 1; }

 private:
  const Design& design_;
  DorRouting escape_;
};

}  // namespace rlroute
