#include "rlroute/host/collectives.hpp"

namespace rlroute::host {

void allreduce(Rank& r, std::int64_t bytes, int tag) {
  const int size = r.size(), me = r.rank();
  int p = 1;
  while (p * 2 <= size) p *= 2;
  const int result_tag = tag + kCollectiveTags - 1;
  if (me >= p) {
    r.send(me - p, bytes, tag);
    r.recv(me - p, bytes, result_tag);
    return;
  }
  if (me + p < size) r.recv(me + p, bytes, tag);
  for (int k = 1, round = 1; k < p; k *= 2, ++round) {
    // Both partners send first: each pair's two messages cross in the network.
    r.send(me ^ k, bytes, tag + round);
    r.recv(me ^ k, bytes, tag + round);
  }
  if (me + p < size) r.send(me + p, bytes, result_tag);
}

void barrier(Rank& r, int tag) {
  const int size = r.size(), me = r.rank();
  for (int k = 1, round = 0; k < size; k *= 2, ++round) {
    r.send((me + k) % size, 0, tag + round);
    r.recv((me - k + size) % size, 0, tag + round);
  }
}

void broadcast(Rank& r, std::int64_t bytes, int root, int tag) {
  const int size = r.size(), relative = (r.rank() - root + size) % size;
  int mask = 1;
  for (; mask < size; mask *= 2) {
    if (relative & mask) {
      r.recv((relative - mask + root) % size, bytes, tag);
      break;
    }
  }
  for (mask /= 2; mask > 0; mask /= 2) {
    if (relative + mask < size) r.send((relative + mask + root) % size, bytes, tag);
  }
}

void alltoall(Rank& r, std::int64_t bytes, int tag) {
  const int size = r.size(), me = r.rank();
  for (int s = 1; s < size; ++s) {
    r.send((me + s) % size, bytes, tag);
    r.recv((me - s + size) % size, bytes, tag);
  }
}

}  // namespace rlroute::host
