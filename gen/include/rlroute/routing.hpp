// Routing relations: the one C++ statement of each routing algorithm. The
// generator checks it (connectivity, hop bound, acyclic escape channel
// dependency graph) before emitting RTL, and the test bench checks every hop
// the RTL takes against it (DESIGN.md sections 2 and 6).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rlroute/design.hpp"

namespace rlroute {

struct RouteOption {
  int out_port = 0;
  std::uint32_t vc_mask = 0;  // output VCs allowed on out_port
};

class RoutingRelation {
 public:
  virtual ~RoutingRelation() = default;
  virtual std::string name() const = 0;
  // Allowed next hops of a packet for node `dst_node` whose head sits in
  // `router`, input port `in_port`, input VC `in_vc`.
  virtual std::vector<RouteOption> next_hops(int router, int in_port, int in_vc,
                                             int dst_node) const = 0;
  // Output VCs a NIC may inject on.
  virtual std::uint32_t injection_vcs() const = 0;
  // Upper bound on router-to-router hops of any packet.
  virtual int hop_bound() const = 0;
  // Whether the relation is all escape channels (deterministic algorithms)
  // or which VCs form the escape sub-relation.
  virtual std::uint32_t escape_vcs() const = 0;
};

std::unique_ptr<RoutingRelation> make_routing_relation(const Design& design);

// Dimension-order routing on torus (dateline VC classes) and mesh.
class DorRouting : public RoutingRelation {
 public:
  explicit DorRouting(const Design& design);
  std::string name() const override { return "dor"; }
  std::vector<RouteOption> next_hops(int router, int in_port, int in_vc,
                                     int dst_node) const override;
  std::uint32_t injection_vcs() const override { return all_vcs_; }
  int hop_bound() const override;
  std::uint32_t escape_vcs() const override { return all_vcs_; }
  // VCs of dateline class `vc_class` (0 or 1).
  std::uint32_t class_vcs(int vc_class) const;

 private:
  const Design& design_;
  std::uint32_t all_vcs_;
};

}  // namespace rlroute
