// UGAL-LE's contention factors as the test bench sees them: every router's
// counters kept by the bit-exact reference (rlroute::ref::ContentionCounters)
// from the heads the network checker sees arrive on the router's terminal
// and local ports. The words a router has on its inputs in checker cycle c
// are registered at its clock edge c after reset (both fabrics clock once
// per step, after the checker has read the inputs), which is how
// rr_contention counts them. No link carries the factors, so, unlike
// QMirror, the run does not check this copy against the routers' own: the
// block test checks the reference against rr_contention word for word, and a
// network test (DragonflyNetworkTop.ContentionCopy...) checks the copy's mean
// against every router's rr_contention output, read back from the network
// top's waveform, after every clock edge.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/ref/contention.hpp"

namespace rlroute {

class ContentionMirror {
 public:
  explicit ContentionMirror(const Design& design);

  // A head arrived at `router` on `port` in checker cycle `cycle`. Events
  // of different routers may come from different threads at once.
  void head_arrived(int router, int port, const Header& h, std::int64_t cycle);

  // C_j of every destination group j at `router` after clock edge `cycle`.
  std::vector<int> factors(int router, std::int64_t cycle) const;
  // The mean of C_j over every router and every group other than its own.
  double mean_factor(std::int64_t cycle) const;

 private:
  const Design& design_;
  std::vector<ref::ContentionCounters> routers_;
};

// The mirror of a design with contention counters; nullptr for the others.
std::unique_ptr<ContentionMirror> make_contention_mirror(const Design& design);

}  // namespace rlroute
