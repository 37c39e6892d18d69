#include "rlroute/host/workload.hpp"

#include "rlroute/tb/grid3d.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>
#include <random>
#include <stdexcept>

namespace rlroute::host {

namespace {

constexpr const char* kWorkloadNames = "pingpong, allreduce, barrier, broadcast, alltoall, halo3d, random";

[[noreturn]] void fail(const std::string& text, const std::string& rule) {
  throw std::invalid_argument(fmt::format("workload \"{}\": {}", text, rule));
}

// "name:key=value,key=value" into the name and the values, each key one of
// `defaults` (whose values are kept where the spec is silent), each value a
// non-negative integer.
std::map<std::string, std::int64_t> parameters(const std::string& text, const std::string& rest,
                                               std::map<std::string, std::int64_t> defaults) {
  std::size_t i = 0;
  while (i < rest.size()) {
    const std::size_t end = std::min(rest.find(',', i), rest.size());
    const std::string item = rest.substr(i, end - i);
    const std::size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    if (eq == std::string::npos || !defaults.count(key)) {
      std::string keys;
      for (const auto& [k, v] : defaults) keys += (keys.empty() ? "" : ", ") + k;
      fail(text, fmt::format("\"{}\" is not key=value with a key of {}", item, keys));
    }
    const std::string value = item.substr(eq + 1);
    std::int64_t v = -1;
    const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || p != value.data() + value.size() || v < 0) {
      fail(text, fmt::format("{} = \"{}\": must be a non-negative integer", key, value));
    }
    defaults[key] = v;
    i = end + 1;
  }
  return defaults;
}

// Ranks 0 and `peer` exchange a message of `bytes` back and forth
// `iterations` times; the other ranks do nothing.
Rank::Body pingpong(std::int64_t bytes, std::int64_t iterations, int peer) {
  return [=](Rank& r) {
    if (r.rank() != 0 && r.rank() != peer) return;
    for (std::int64_t i = 0; i < iterations; ++i) {
      const int tag = static_cast<int>(i);
      if (r.rank() == 0) {
        r.send(peer, bytes, tag);
        r.recv(peer, bytes, tag);
      } else {
        r.recv(0, bytes, tag);
        r.send(0, bytes, tag);
      }
    }
  };
}

// Allreduce by recursive doubling over the largest power of two p <= size:
// ranks p.. first give their data to rank - p and get the result back at
// the end; in round k rank r exchanges `bytes` with r xor 2^k. `compute`
// cycles before each of `iterations` allreduces.
Rank::Body allreduce(std::int64_t bytes, std::int64_t iterations, std::int64_t compute) {
  return [=](Rank& r) {
    const int size = r.size(), me = r.rank();
    int p = 1;
    while (p * 2 <= size) p *= 2;
    for (std::int64_t i = 0; i < iterations; ++i) {
      r.compute(compute);
      const int tag = static_cast<int>(i) * 64;
      if (me >= p) {
        r.send(me - p, bytes, tag);
        r.recv(me - p, bytes, tag + 63);
        continue;
      }
      if (me + p < size) r.recv(me + p, bytes, tag);
      for (int k = 1, round = 1; k < p; k *= 2, ++round) {
        const int partner = me ^ k;
        // The lower rank sends first: each pair's two messages cross in the network.
        r.send(partner, bytes, tag + round);
        r.recv(partner, bytes, tag + round);
      }
      if (me + p < size) r.send(me + p, bytes, tag + 63);
    }
  };
}

// Dissemination barrier: in round k each rank sends an empty message to
// rank + 2^k and receives one from rank - 2^k (modulo the ranks).
Rank::Body barrier(std::int64_t iterations, std::int64_t compute) {
  return [=](Rank& r) {
    const int size = r.size(), me = r.rank();
    for (std::int64_t i = 0; i < iterations; ++i) {
      r.compute(compute);
      for (int k = 1, round = 0; k < size; k *= 2, ++round) {
        const int tag = static_cast<int>(i) * 64 + round;
        r.send((me + k) % size, 0, tag);
        r.recv((me - k + size) % size, 0, tag);
      }
    }
  };
}

// Binomial-tree broadcast of `bytes` from `root`: a rank receives from the
// rank that differs from it (relative to the root) in its lowest set bit,
// then sends to the ranks below that bit.
Rank::Body broadcast(std::int64_t bytes, std::int64_t iterations, std::int64_t compute, int root) {
  return [=](Rank& r) {
    const int size = r.size(), relative = (r.rank() - root + size) % size;
    for (std::int64_t i = 0; i < iterations; ++i) {
      r.compute(compute);
      const int tag = static_cast<int>(i);
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
  };
}

// Pairwise all-to-all: in step s each rank sends `bytes` to rank + s and
// receives from rank - s.
Rank::Body alltoall(std::int64_t bytes, std::int64_t iterations, std::int64_t compute) {
  return [=](Rank& r) {
    const int size = r.size(), me = r.rank();
    for (std::int64_t i = 0; i < iterations; ++i) {
      r.compute(compute);
      for (int s = 1; s < size; ++s) {
        r.send((me + s) % size, bytes, static_cast<int>(i));
        r.recv((me - s + size) % size, bytes, static_cast<int>(i));
      }
    }
  };
}

// Halo exchange on the most cubic 3D grid of the ranks (rank r at x = r % X,
// y = (r / X) % Y, z = r / (X Y)), periodic: each iteration `compute`
// cycles, then `bytes` to each of the six neighbours and from each (none
// with itself; twice with a rank that is both neighbours of a dimension of 2).
Rank::Body halo3d(std::int64_t bytes, std::int64_t iterations, std::int64_t compute) {
  return [=](Rank& r) {
    const Grid3dDims d = cubic_dims(r.size());
    const int me = r.rank();
    const int at[3] = {me % d[0], (me / d[0]) % d[1], me / (d[0] * d[1])};
    // Direction 2k + 0 is +k, 2k + 1 is -k.
    int neighbour[6];
    for (int k = 0; k < 3; ++k) {
      for (int sign = 0; sign < 2; ++sign) {
        int c[3] = {at[0], at[1], at[2]};
        c[k] = (c[k] + (sign == 0 ? 1 : d[k] - 1)) % d[k];
        neighbour[2 * k + sign] = c[0] + d[0] * (c[1] + d[1] * c[2]);
      }
    }
    for (std::int64_t i = 0; i < iterations; ++i) {
      r.compute(compute);
      const int tag = static_cast<int>(i) * 8;
      for (int dir = 0; dir < 6; ++dir) {
        if (neighbour[dir] != me) r.send(neighbour[dir], bytes, tag + dir);
      }
      for (int dir = 0; dir < 6; ++dir) {
        const int from = neighbour[dir ^ 1];  // what went in direction dir comes from the opposite side
        if (from != me) r.recv(from, bytes, tag + dir);
      }
    }
  };
}

// Each rank `messages` times: computes for a geometric number of cycles of
// mean `interval`, then sends `bytes` to a rank drawn uniformly from the
// others; nobody receives (the messages arrive and stay unmatched). Traffic
// like rlroute sim's uniform random, for comparing the two.
Rank::Body random_sends(std::int64_t bytes, std::int64_t interval, std::int64_t messages, std::uint64_t seed) {
  return [=](Rank& r) {
    if (r.size() < 2) return;
    std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(r.rank()) + 1);
    std::geometric_distribution<std::int64_t> gap(1.0 / static_cast<double>(interval + 1));
    std::uniform_int_distribution<int> other(1, r.size() - 1);
    for (std::int64_t i = 0; i < messages; ++i) {
      r.compute(gap(rng));
      r.send((r.rank() + other(rng)) % r.size(), bytes, 0);
    }
  };
}

}  // namespace

Workload make_workload(const std::string& text, std::uint64_t seed) {
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (name == "pingpong") {
    const auto p = parameters(text, rest, {{"bytes", 8}, {"iterations", 1}, {"peer", 1}});
    if (p.at("peer") == 0) fail(text, "peer = 0: rank 0 cannot ping itself");
    if (p.at("peer") >= (1 << 24)) fail(text, fmt::format("peer = {}: must be below 2^24", p.at("peer")));
    const int peer = static_cast<int>(p.at("peer"));
    return {text, name, pingpong(p.at("bytes"), p.at("iterations"), peer), peer + 1};
  }
  if (name == "allreduce") {
    const auto p = parameters(text, rest, {{"bytes", 8}, {"iterations", 1}, {"compute", 0}});
    return {text, name, allreduce(p.at("bytes"), p.at("iterations"), p.at("compute")), 1};
  }
  if (name == "barrier") {
    const auto p = parameters(text, rest, {{"iterations", 1}, {"compute", 0}});
    return {text, name, barrier(p.at("iterations"), p.at("compute")), 1};
  }
  if (name == "broadcast") {
    const auto p = parameters(text, rest, {{"bytes", 8}, {"iterations", 1}, {"compute", 0}, {"root", 0}});
    if (p.at("root") >= (1 << 24)) fail(text, fmt::format("root = {}: must be below 2^24", p.at("root")));
    const int root = static_cast<int>(p.at("root"));
    return {text, name, broadcast(p.at("bytes"), p.at("iterations"), p.at("compute"), root), root + 1};
  }
  if (name == "alltoall") {
    const auto p = parameters(text, rest, {{"bytes", 8}, {"iterations", 1}, {"compute", 0}});
    return {text, name, alltoall(p.at("bytes"), p.at("iterations"), p.at("compute")), 1};
  }
  if (name == "halo3d") {
    const auto p = parameters(text, rest, {{"bytes", 8}, {"iterations", 1}, {"compute", 0}});
    return {text, name, halo3d(p.at("bytes"), p.at("iterations"), p.at("compute")), 1};
  }
  if (name == "random") {
    const auto p = parameters(text, rest, {{"bytes", 8}, {"interval", 100}, {"messages", 100}});
    return {text, name, random_sends(p.at("bytes"), p.at("interval"), p.at("messages"), seed), 1};
  }
  fail(text, fmt::format("unknown workload \"{}\" ({})", name, kWorkloadNames));
}

std::vector<int> place_ranks(const std::string& placement, std::int64_t ranks, int nodes, std::uint64_t seed) {
  if (ranks < 1 || ranks > nodes) {
    throw std::invalid_argument(fmt::format("ranks = {}: must be 1..{} (one rank per node)", ranks, nodes));
  }
  std::vector<int> node(static_cast<std::size_t>(nodes));
  std::iota(node.begin(), node.end(), 0);
  if (placement == "random") {
    std::mt19937_64 rng(seed ^ 0x5eedc0de12345678ull);
    std::shuffle(node.begin(), node.end(), rng);
  } else if (placement != "linear") {
    throw std::invalid_argument(fmt::format("placement = \"{}\": must be linear or random", placement));
  }
  node.resize(static_cast<std::size_t>(ranks));
  return node;
}

}  // namespace rlroute::host
