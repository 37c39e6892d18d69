#include "rlroute/host/workload.hpp"

#include "rlroute/host/collectives.hpp"
#include "rlroute/host/goal.hpp"
#include "rlroute/host/trace.hpp"
#include "rlroute/tb/grid3d.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>

namespace rlroute::host {

namespace {

constexpr const char* kWorkloadNames = "pingpong, allreduce, barrier, broadcast, alltoall, halo3d, many2many, randneighbors, random, trace:FILE, goal:FILE";

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

// `iterations` times: `compute` cycles, then the collective with tags from
// kCollectiveTags times the iteration.
Rank::Body repeated(std::int64_t iterations, std::int64_t compute, const std::function<void(Rank&, int)>& collective) {
  return [=](Rank& r) {
    for (std::int64_t i = 0; i < iterations; ++i) {
      r.compute(compute);
      collective(r, static_cast<int>(i) * kCollectiveTags);
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

// Many-to-many [Kang 2021]: the ranks on halo3d's grid; the ranks that
// differ only in z form a communicator, and each iteration (after `compute`
// cycles) is a pairwise all-to-all inside it.
Rank::Body many2many(std::int64_t bytes, std::int64_t iterations, std::int64_t compute) {
  return [=](Rank& r) {
    const Grid3dDims d = cubic_dims(r.size());
    const int plane = d[0] * d[1], me = r.rank(), z = me / plane, column = me % plane;
    for (std::int64_t i = 0; i < iterations; ++i) {
      r.compute(compute);
      for (int s = 1; s < d[2]; ++s) {
        r.send(column + plane * ((z + s) % d[2]), bytes, static_cast<int>(i));
        r.recv(column + plane * ((z - s + d[2]) % d[2]), bytes, static_cast<int>(i));
      }
    }
  };
}

// Random neighbours [Kang 2021]: from `seed`, each rank draws a count k
// uniform in [lo, hi] (capped at ranks - 1) and k distinct other ranks; each
// iteration (after `compute` cycles) it sends `bytes` to each of its
// targets and receives from each rank that drew it. Every rank draws the
// same table, so each knows its senders.
Rank::Body randneighbors(std::int64_t bytes, std::int64_t iterations, std::int64_t compute, std::int64_t lo,
                         std::int64_t hi, std::uint64_t seed) {
  return [=](Rank& r) {
    const int size = r.size(), me = r.rank();
    std::mt19937_64 rng(seed ^ 0x7a11e1a5c0ffee00ull);
    std::vector<std::vector<int>> targets(static_cast<std::size_t>(size));
    for (int n = 0; n < size; ++n) {
      std::vector<int> others;
      for (int o = 0; o < size; ++o) {
        if (o != n) others.push_back(o);
      }
      std::shuffle(others.begin(), others.end(), rng);
      const auto cap = static_cast<std::int64_t>(others.size());
      const std::int64_t k = std::uniform_int_distribution<std::int64_t>(std::min(lo, cap), std::min(hi, cap))(rng);
      others.resize(static_cast<std::size_t>(k));
      std::sort(others.begin(), others.end());
      targets[static_cast<std::size_t>(n)] = others;
    }
    std::vector<int> senders;
    for (int n = 0; n < size; ++n) {
      const std::vector<int>& t = targets[static_cast<std::size_t>(n)];
      if (std::binary_search(t.begin(), t.end(), me)) senders.push_back(n);
    }
    for (std::int64_t i = 0; i < iterations; ++i) {
      r.compute(compute);
      for (const int t : targets[static_cast<std::size_t>(me)]) r.send(t, bytes, static_cast<int>(i));
      for (const int s : senders) r.recv(s, bytes, static_cast<int>(i));
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
    const std::int64_t bytes = p.at("bytes");
    return {text, name, repeated(p.at("iterations"), p.at("compute"), [=](Rank& r, int tag) { allreduce(r, bytes, tag); }),
            1};
  }
  if (name == "barrier") {
    const auto p = parameters(text, rest, {{"iterations", 1}, {"compute", 0}});
    return {text, name, repeated(p.at("iterations"), p.at("compute"), [](Rank& r, int tag) { barrier(r, tag); }), 1};
  }
  if (name == "broadcast") {
    const auto p = parameters(text, rest, {{"bytes", 8}, {"iterations", 1}, {"compute", 0}, {"root", 0}});
    if (p.at("root") >= (1 << 24)) fail(text, fmt::format("root = {}: must be below 2^24", p.at("root")));
    const int root = static_cast<int>(p.at("root"));
    const std::int64_t bytes = p.at("bytes");
    return {text, name,
            repeated(p.at("iterations"), p.at("compute"), [=](Rank& r, int tag) { broadcast(r, bytes, root, tag); }),
            root + 1};
  }
  if (name == "alltoall") {
    const auto p = parameters(text, rest, {{"bytes", 8}, {"iterations", 1}, {"compute", 0}});
    const std::int64_t bytes = p.at("bytes");
    return {text, name, repeated(p.at("iterations"), p.at("compute"), [=](Rank& r, int tag) { alltoall(r, bytes, tag); }),
            1};
  }
  if (name == "halo3d") {
    const auto p = parameters(text, rest, {{"bytes", 8}, {"iterations", 1}, {"compute", 0}});
    return {text, name, halo3d(p.at("bytes"), p.at("iterations"), p.at("compute")), 1};
  }
  if (name == "many2many") {
    const auto p = parameters(text, rest, {{"bytes", 8}, {"iterations", 1}, {"compute", 0}});
    return {text, name, many2many(p.at("bytes"), p.at("iterations"), p.at("compute")), 1};
  }
  if (name == "randneighbors") {
    const auto p = parameters(text, rest, {{"bytes", 8}, {"iterations", 1}, {"compute", 0}, {"min", 6}, {"max", 20}});
    if (p.at("min") < 1 || p.at("min") > p.at("max")) {
      fail(text, fmt::format("min = {}, max = {}: must be 1 <= min <= max", p.at("min"), p.at("max")));
    }
    return {text, name, randneighbors(p.at("bytes"), p.at("iterations"), p.at("compute"), p.at("min"), p.at("max"), seed),
            1};
  }
  if (name == "trace" || name == "goal") {
    if (rest.empty()) fail(text, fmt::format("give the {}'s file: {}:FILE", name == "trace" ? "trace" : "schedule", name));
    auto trace = std::make_shared<const Trace>(name == "trace" ? read_trace(rest) : read_goal(rest));
    const int ranks = trace->ranks;
    return {text, name, replay(std::move(trace)), ranks, ranks};
  }
  if (name == "random") {
    const auto p = parameters(text, rest, {{"bytes", 8}, {"interval", 100}, {"messages", 100}});
    return {text, name, random_sends(p.at("bytes"), p.at("interval"), p.at("messages"), seed), 1};
  }
  fail(text, fmt::format("unknown workload \"{}\" ({})", name, kWorkloadNames));
}

std::vector<int> place_ranks(const std::string& placement, std::int64_t ranks, const Topology& topo,
                             std::uint64_t seed) {
  const int nodes = topo.num_nodes();
  if (ranks < 1 || ranks > nodes) {
    throw std::invalid_argument(fmt::format("ranks = {}: must be 1..{} (one rank per node)", ranks, nodes));
  }
  std::vector<int> node(static_cast<std::size_t>(nodes));
  std::iota(node.begin(), node.end(), 0);
  if (placement == "random") {
    std::mt19937_64 rng(seed ^ 0x5eedc0de12345678ull);
    std::shuffle(node.begin(), node.end(), rng);
  } else if (placement == "groups") {
    if (!topo.dragonfly()) {
      throw std::invalid_argument(fmt::format("placement = \"groups\": needs a dragonfly (this network: {})",
                                              topo.describe()));
    }
    const int groups = topo.num_groups(), per_group = nodes / groups;
    for (int r = 0; r < nodes; ++r) node[static_cast<std::size_t>(r)] = (r % groups) * per_group + r / groups;
  } else if (placement != "linear") {
    throw std::invalid_argument(fmt::format("placement = \"{}\": must be linear, random or groups", placement));
  }
  node.resize(static_cast<std::size_t>(ranks));
  return node;
}

}  // namespace rlroute::host
