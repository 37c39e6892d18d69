// Dimension-order routing on torus (dateline VC classes) and mesh; the RTL
// twin is rtl/rr_route_dor.sv. Star-channel routing (routing_star.hpp) uses
// it as its escape sub-relation, on the VCs below its adaptive one.
#pragma once

#include "rlroute/gen/routing.hpp"

namespace rlroute {

class DorRouting : public RoutingRelation {
 public:
  // DOR on VCs 0..escape_vcs-1 (every VC when escape_vcs < 0); a packet that
  // arrives on a VC above them counts as class 0.
  explicit DorRouting(const Design& design, int escape_vcs = -1);
  std::string name() const override { return "dor"; }
  std::vector<RouteOption> next_hops(int router, int in_port, int in_vc,
                                     const RouteState& state) const override;
  std::uint32_t injection_vcs() const override { return all_vcs_mask(design_.vcs); }
  int hop_bound() const override;
  std::uint32_t escape_vcs() const override { return dor_vcs_; }
  RouteState canonical(const RouteState& state) const override { return {state.dst, 0, -1, RouteMode::Minimal}; }
  // VCs of dateline class `vc_class` (0 or 1) among DOR's VCs.
  std::uint32_t class_vcs(int vc_class) const;

 private:
  const Design& design_;
  int num_dor_vcs_;
  std::uint32_t dor_vcs_;
};

// The output port of the minimal direction in dimension `dim` from router
// `here` towards router `dest` on a torus or mesh (a torus tie, distance
// k/2, goes +); -1 when the coordinates are equal.
int minimal_port(const Topology& topo, int here, int dest, int dim);

}  // namespace rlroute
