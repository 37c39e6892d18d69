// Dimension-order routing on torus (dateline VC classes) and mesh; the RTL
// twin is rtl/rr_route_dor.sv.
#pragma once

#include "rlroute/gen/routing.hpp"

namespace rlroute {

class DorRouting : public RoutingRelation {
 public:
  explicit DorRouting(const Design& design);
  std::string name() const override { return "dor"; }
  std::vector<RouteOption> next_hops(int router, int in_port, int in_vc,
                                     const RouteState& state) const override;
  std::uint32_t injection_vcs() const override { return all_vcs_; }
  int hop_bound() const override;
  std::uint32_t escape_vcs() const override { return all_vcs_; }
  RouteState canonical(const RouteState& state) const override { return {state.dst, 0, -1, RouteMode::Minimal}; }
  // VCs of dateline class `vc_class` (0 or 1).
  std::uint32_t class_vcs(int vc_class) const;

 private:
  const Design& design_;
  std::uint32_t all_vcs_;
};

}  // namespace rlroute
