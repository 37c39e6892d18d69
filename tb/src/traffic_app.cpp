// Application patterns of Q-adaptive section 6: 3D stencil and many-to-many
// on a 3D grid of the nodes, and random neighbours.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <numeric>

#include "rlroute/tb/grid3d.hpp"
#include "traffic_patterns.hpp"

namespace rlroute::traffic_detail {

namespace {

using Dims = Grid3dDims;

std::string dims_text(const Dims& d) { return fmt::format("{}x{}x{}", d[0], d[1], d[2]); }

Dims grid_dims(const TrafficSpec& spec, const Topology& t) {
  const int n = t.num_nodes();
  switch (spec.grid.kind) {
    case GridShape::Kind::Default:
      if (t.dragonfly()) return {t.nodes_per_router(), t.group_size(), t.num_groups()};
      return cubic_dims(n);
    case GridShape::Kind::Cubic:
      return cubic_dims(n);
    case GridShape::Kind::Explicit:
      break;
  }
  const Dims d = spec.grid.dims;
  const long product = static_cast<long>(d[0]) * d[1] * d[2];
  if (product != n) {
    traffic_spec_fail(spec.text, fmt::format("grid {} has {} nodes; this network has {}", dims_text(d), product, n));
  }
  return d;
}

// Node n at x = n % X, y = (n / X) % Y, z = n / (X * Y).
class Grid {
 public:
  explicit Grid(const Dims& dims) : dims_(dims) {}
  const Dims& dims() const { return dims_; }
  Dims coords(int node) const { return {node % dims_[0], node / dims_[0] % dims_[1], node / (dims_[0] * dims_[1])}; }
  int node(const Dims& c) const { return (c[2] * dims_[1] + c[1]) * dims_[0] + c[0]; }

 private:
  Dims dims_;
};

// One of the six directions (+-x, +-y, +-z) at random, periodic boundaries;
// directions along an axis of length 1 are skipped (they lead back to src).
class Stencil3d : public TrafficPattern {
 public:
  explicit Stencil3d(const Dims& dims) : grid_(dims) {
    for (int axis = 0; axis < 3; ++axis) {
      if (dims[static_cast<size_t>(axis)] > 1) axes_.push_back(axis);
    }
  }
  int destination(int src, Rng& rng) const override {
    if (axes_.empty()) return -1;
    const int direction = std::uniform_int_distribution<int>(0, 2 * static_cast<int>(axes_.size()) - 1)(rng);
    const auto axis = static_cast<size_t>(axes_[static_cast<size_t>(direction / 2)]);
    const int k = grid_.dims()[axis];
    Dims c = grid_.coords(src);
    c[axis] = (c[axis] + (direction % 2 == 0 ? 1 : k - 1)) % k;
    return grid_.node(c);
  }

 private:
  Grid grid_;
  std::vector<int> axes_;
};

// All-to-all inside communicators: the nodes that differ only in `axis`.
class ManyToMany : public TrafficPattern {
 public:
  ManyToMany(const Dims& dims, int axis) : grid_(dims), axis_(static_cast<size_t>(axis)) {}
  int destination(int src, Rng& rng) const override {
    Dims c = grid_.coords(src);
    c[axis_] = uniform_other(c[axis_], grid_.dims()[axis_], rng);
    return grid_.node(c);
  }

 private:
  Grid grid_;
  size_t axis_;
};

// Each node picks one of its fixed targets uniformly.
class TargetSets : public TrafficPattern {
 public:
  explicit TargetSets(std::vector<std::vector<int>> targets) : targets_(std::move(targets)) {}
  int destination(int src, Rng& rng) const override {
    const auto& mine = targets_[static_cast<size_t>(src)];
    if (mine.empty()) return -1;
    return mine[static_cast<size_t>(std::uniform_int_distribution<int>(0, static_cast<int>(mine.size()) - 1)(rng))];
  }

 private:
  std::vector<std::vector<int>> targets_;
};

// An explicit min/max must fit the network; a default is capped at nodes - 1.
int target_bound(const TrafficSpec& spec, const std::optional<int>& given, int fallback, const char* key, int n) {
  if (given && *given > n - 1) {
    traffic_spec_fail(spec.text, fmt::format("{} must be <= {} (nodes - 1) on this network", key, n - 1));
  }
  return given.value_or(std::min(fallback, n - 1));
}

}  // namespace

std::unique_ptr<TrafficPattern> make_stencil3d(const TrafficSpec& spec, const Topology& t) {
  return std::make_unique<Stencil3d>(grid_dims(spec, t));
}

std::unique_ptr<TrafficPattern> make_many2many(const TrafficSpec& spec, const Topology& t) {
  const Dims dims = grid_dims(spec, t);
  if (dims[static_cast<size_t>(spec.axis)] < 2) {
    traffic_spec_fail(spec.text, fmt::format("axis {} of grid {} has length 1, so every communicator is a single node",
                                             static_cast<char>('x' + spec.axis), dims_text(dims)));
  }
  return std::make_unique<ManyToMany>(dims, spec.axis);
}

std::unique_ptr<TrafficPattern> make_randneighbors(const TrafficSpec& spec, const Topology& t, std::uint64_t seed) {
  const int n = t.num_nodes();
  const int lo = target_bound(spec, spec.min_targets, 6, "min", n);
  const int hi = target_bound(spec, spec.max_targets, 20, "max", n);
  if (lo > hi) traffic_spec_fail(spec.text, fmt::format("min ({}) must be <= max ({})", lo, hi));
  Rng rng(seed ^ 0x7a76e7b0125ull);
  std::vector<std::vector<int>> targets(static_cast<size_t>(n));
  std::vector<int> others;
  for (int src = 0; src < n; ++src) {
    others.clear();
    for (int d = 0; d < n; ++d) {
      if (d != src) others.push_back(d);
    }
    const int count = std::uniform_int_distribution<int>(lo, hi)(rng);
    // Partial Fisher-Yates: the first `count` entries are a uniform sample.
    for (int i = 0; i < count; ++i) {
      const int j = std::uniform_int_distribution<int>(i, static_cast<int>(others.size()) - 1)(rng);
      std::swap(others[static_cast<size_t>(i)], others[static_cast<size_t>(j)]);
    }
    targets[static_cast<size_t>(src)].assign(others.begin(), others.begin() + count);
  }
  return std::make_unique<TargetSets>(std::move(targets));
}

}  // namespace rlroute::traffic_detail
