// Which requests a router's VC allocator can ever see: input VC r (input port
// x VCs + VC) asking for output VC o (output port x VCs + VC). The routing
// check's walk over every path of the relation fills it (routing_check.hpp),
// as the union over all routers, since every router of a design is one
// module; the router top passes it to rr_vc_alloc as REQ_MAP, which builds
// only these requests.
#pragma once

#include <vector>

namespace rlroute {

class VcRequestMap {
 public:
  // No requests, for `vcs_per_router` input VCs and as many output VCs.
  explicit VcRequestMap(int vcs_per_router)
      : size_(vcs_per_router), bits_(static_cast<size_t>(vcs_per_router) * static_cast<size_t>(vcs_per_router)) {}
  // Every request: the full allocator.
  static VcRequestMap all(int vcs_per_router) {
    VcRequestMap m(vcs_per_router);
    m.bits_.assign(m.bits_.size(), true);
    return m;
  }

  void allow(int out, int in) { bits_[index(out, in)] = true; }
  bool allows(int out, int in) const { return bits_[index(out, in)]; }
  int size() const { return size_; }
  int requesters(int out) const {
    int n = 0;
    for (int in = 0; in < size_; ++in) n += allows(out, in) ? 1 : 0;
    return n;
  }

 private:
  size_t index(int out, int in) const { return static_cast<size_t>(out) * static_cast<size_t>(size_) + static_cast<size_t>(in); }
  int size_;
  std::vector<bool> bits_;  // [out * size + in]
};

}  // namespace rlroute
