// The collective operations, once each, over every rank of the run: what the
// workloads repeat and what a trace's collective lines replay. Each uses
// the tags from `tag` to `tag + 63` (kCollectiveTags), which no other
// message between the same ranks may use while it runs.
#pragma once

#include <cstdint>

#include "rlroute/host/rank.hpp"

namespace rlroute::host {

inline constexpr int kCollectiveTags = 64;

// Recursive doubling over the largest power of two p <= ranks: ranks p..
// first give their data to rank - p and get the result back at the end; in
// round k rank r exchanges `bytes` with r xor 2^k.
void allreduce(Rank& r, std::int64_t bytes, int tag);
// Dissemination: in round k an empty message to rank + 2^k and one from
// rank - 2^k (modulo the ranks).
void barrier(Rank& r, int tag);
// Binomial tree from `root`: a rank receives from the rank that differs from
// it (relative to the root) in its lowest set bit, then sends to the ranks
// below that bit.
void broadcast(Rank& r, std::int64_t bytes, int root, int tag);
// Pairwise: in step s (1 .. ranks - 1) `bytes` to rank + s and from rank - s.
void alltoall(Rank& r, std::int64_t bytes, int tag);

}  // namespace rlroute::host
