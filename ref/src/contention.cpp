#include "rlroute/ref/contention.hpp"

#include <algorithm>
#include <stdexcept>

namespace rlroute::ref {

ContentionCounters::ContentionCounters(int routers_in_group, int groups, int window, int threshold)
    : a_(routers_in_group), groups_(groups), window_(window), saturated_(threshold + 1),
      count_(static_cast<std::size_t>(routers_in_group * groups), 0),
      previous_(static_cast<std::size_t>(routers_in_group * groups), false) {
  if (routers_in_group < 1 || groups < 1 || window < 1 || threshold < 0) {
    throw std::invalid_argument("ContentionCounters: sizes and window must be positive, the threshold not negative");
  }
}

void ContentionCounters::advance_to(std::int64_t edge) {
  const std::int64_t w = edge / window_;
  if (w <= current_) return;
  // The window that just ended keeps its verdict; one with no edge seen
  // counted nothing.
  for (std::size_t k = 0; k < count_.size(); ++k) previous_[k] = w == current_ + 1 && count_[k] == saturated_;
  std::fill(count_.begin(), count_.end(), 0);
  current_ = w;
}

void ContentionCounters::count(std::int64_t edge, int i, int j, unsigned length) {
  advance_to(edge);
  std::int64_t& c = count_[static_cast<std::size_t>(i * groups_ + j)];
  c = std::min(c + static_cast<std::int64_t>(length), saturated_);
}

bool ContentionCounters::active(int i, int j) const {
  const auto k = static_cast<std::size_t>(i * groups_ + j);
  return previous_[k] || count_[k] == saturated_;
}

int ContentionCounters::factor(int j) const {
  int c = 0;
  for (int i = 0; i < a_; ++i) c += active(i, j);
  return c;
}

}  // namespace rlroute::ref
