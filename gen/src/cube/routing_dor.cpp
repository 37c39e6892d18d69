// Dimension-order routing; the RTL twin is rtl/rr_route_dor.sv. Keep the two
// in step: the test bench's route checker fails any hop where they differ.
#include "rlroute/gen/routing_dor.hpp"

namespace rlroute {

DorRouting::DorRouting(const Design& design, int escape_vcs)
    : design_(design),
      num_dor_vcs_(escape_vcs < 0 ? design.vcs : escape_vcs),
      dor_vcs_(all_vcs_mask(num_dor_vcs_)) {}

std::uint32_t DorRouting::class_vcs(int vc_class) const {
  if (num_dor_vcs_ < 2) return dor_vcs_;
  std::uint32_t mask = 0;
  for (int v = 0; v < num_dor_vcs_; ++v) {
    if (v % 2 == vc_class) mask |= 1u << v;
  }
  return mask;
}

int minimal_port(const Topology& t, int here_router, int dest_router, int dim) {
  const int here = t.coord(here_router, dim);
  const int dest = t.coord(dest_router, dim);
  if (here == dest) return -1;
  if (!t.torus()) return dest > here ? t.plus_port(dim) : t.minus_port(dim);
  const int k = t.radix(dim);
  const int forward = ((dest - here) % k + k) % k;
  return forward <= k / 2 ? t.plus_port(dim) : t.minus_port(dim);  // ties go +
}

std::vector<RouteOption> DorRouting::next_hops(int router, int in_port, int in_vc,
                                               const RouteState& state) const {
  const int dst_node = state.dst;
  const Topology& t = design_.topo;
  const int dst_router = t.router_of_node(dst_node);
  for (int d = 0; d < t.num_dims(); ++d) {
    const int port = minimal_port(t, router, dst_router, d);
    if (port < 0) continue;
    if (!t.torus()) return {{port, dor_vcs_, state}};
    const int k = t.radix(d);
    const bool plus = port == t.plus_port(d);
    const int here = t.coord(router, d);
    const int dest = t.coord(dst_router, d);
    const bool wraps = plus ? here == k - 1 : here == 0;
    const bool continuing = t.port_dim(in_port) == d;
    const int in_class = num_dor_vcs_ > 1 && in_vc < num_dor_vcs_ ? in_vc % 2 : 0;
    // Class 1 from the wrap hop on (sticky while the packet stays in this
    // dimension); class 0 while the wrap still lies ahead; a packet whose path
    // in this dimension never wraps may use every VC (see docs/routing_dor.md).
    const bool wrap_ahead = plus ? dest < here : dest > here;
    std::uint32_t vcs = dor_vcs_;
    if (wraps || (continuing && in_class == 1)) {
      vcs = class_vcs(1);
    } else if (wrap_ahead) {
      vcs = class_vcs(0);
    }
    return {{port, vcs, state}};
  }
  return {{t.local_of_node(dst_node), all_vcs_mask(design_.vcs), state}};  // ejection: any VC
}

int DorRouting::hop_bound() const {
  const Topology& t = design_.topo;
  int bound = 0;
  for (int d = 0; d < t.num_dims(); ++d) bound += t.torus() ? t.radix(d) / 2 : t.radix(d) - 1;
  return bound;
}

}  // namespace rlroute
