// Workloads: MPI-like motifs that every rank runs, named by a spec such as
// "pingpong:bytes=1024,iterations=8" (docs/host.md lists them and their
// parameters), and the placement of ranks on nodes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rlroute/gen/topology.hpp"
#include "rlroute/host/rank.hpp"

namespace rlroute::host {

struct Workload {
  std::string text;  // the spec as given
  std::string name;
  Rank::Body body;
  int min_ranks = 1;    // the ranks it names
  int exact_ranks = 0;  // a trace's ranks (0: any number from min_ranks)
};

// "trace:FILE" replays a trace (trace.hpp). `seed` seeds what a workload draws (the random workload's gaps and
// destinations). Throws std::invalid_argument "workload \"<text>\": <rule>"
// for an unknown name, an unknown or bad parameter.
Workload make_workload(const std::string& text, std::uint64_t seed = 1);

// The node of each of `ranks` ranks on `topo`'s nodes: "linear" puts rank r
// on node r (a dragonfly's nodes are numbered group by group), "random" on a
// permutation drawn from `seed`, "groups" (a dragonfly) rank r in group
// r mod g, on that group's nodes in order. Throws std::invalid_argument for
// another name, more ranks than nodes, or "groups" on a network without
// groups.
std::vector<int> place_ranks(const std::string& placement, std::int64_t ranks, const Topology& topo,
                             std::uint64_t seed);

}  // namespace rlroute::host
