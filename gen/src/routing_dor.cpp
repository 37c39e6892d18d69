// Dimension-order routing; the RTL twin is rtl/rr_route_dor.sv. Keep the two
// in step: the test bench's route checker fails any hop where they differ.
#include "rlroute/gen/routing_dor.hpp"

namespace rlroute {

DorRouting::DorRouting(const Design& design)
    : design_(design), all_vcs_(all_vcs_mask(design.vcs)) {}

std::uint32_t DorRouting::class_vcs(int vc_class) const {
  if (design_.vcs < 2) return all_vcs_;
  std::uint32_t mask = 0;
  for (int v = 0; v < design_.vcs; ++v) {
    if (v % 2 == vc_class) mask |= 1u << v;
  }
  return mask;
}

std::vector<RouteOption> DorRouting::next_hops(int router, int in_port, int in_vc,
                                               const RouteState& state) const {
  const int dst_node = state.dst;
  const Topology& t = design_.topo;
  const std::vector<int> here = t.coords(router);
  const std::vector<int> dest = t.coords(t.router_of_node(dst_node));
  for (int d = 0; d < t.num_dims(); ++d) {
    if (here[d] == dest[d]) continue;
    const int k = t.radix(d);
    if (!t.torus()) {
      return {{dest[d] > here[d] ? t.plus_port(d) : t.minus_port(d), all_vcs_, state}};
    }
    const int forward = ((dest[d] - here[d]) % k + k) % k;
    const bool plus = forward <= k / 2;  // ties go +
    const bool wraps = plus ? here[d] == k - 1 : here[d] == 0;
    const bool continuing = t.port_dim(in_port) == d;
    const int in_class = design_.vcs > 1 ? in_vc % 2 : 0;
    // Class 1 from the wrap hop on (sticky while the packet stays in this
    // dimension); class 0 while the wrap still lies ahead; a packet whose path
    // in this dimension never wraps may use every VC (see docs/routing_dor.md).
    const bool wrap_ahead = plus ? dest[d] < here[d] : dest[d] > here[d];
    std::uint32_t vcs = all_vcs_;
    if (wraps || (continuing && in_class == 1)) {
      vcs = class_vcs(1);
    } else if (wrap_ahead) {
      vcs = class_vcs(0);
    }
    return {{plus ? t.plus_port(d) : t.minus_port(d), vcs, state}};
  }
  return {{t.local_of_node(dst_node), all_vcs_, state}};
}

int DorRouting::hop_bound() const {
  const Topology& t = design_.topo;
  int bound = 0;
  for (int d = 0; d < t.num_dims(); ++d) bound += t.torus() ? t.radix(d) / 2 : t.radix(d) - 1;
  return bound;
}

}  // namespace rlroute
