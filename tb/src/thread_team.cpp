#include "rlroute/tb/thread_team.hpp"

namespace rlroute {

namespace {

// A job on a small network lasts tens of microseconds, shorter than a sleeping
// thread takes to wake, so a waiter spins first; it sleeps (atomic wait, a
// futex) only when the wait is long, so that a team on a busy machine does not
// burn the cores the other threads need.
constexpr int kSpins = 4000;

inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

template <typename T, typename Done>
void wait_until(const std::atomic<T>& value, Done done) {
  for (int i = 0; i < kSpins; ++i) {
    if (done(value.load(std::memory_order_acquire))) return;
    pause();
  }
  for (T seen = value.load(std::memory_order_acquire); !done(seen); seen = value.load(std::memory_order_acquire)) {
    value.wait(seen, std::memory_order_acquire);
  }
}

}  // namespace

ThreadTeam::ThreadTeam(int threads) {
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
}

ThreadTeam::~ThreadTeam() {
  stop_ = true;
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& w : workers_) w.join();
}

std::pair<int, int> ThreadTeam::part(int n, int threads, int t) {
  const auto bound = [&](int k) { return static_cast<int>(static_cast<std::int64_t>(n) * k / threads); };
  return {bound(t), bound(t + 1)};
}

void ThreadTeam::run_part(int t) {
  const auto [first, last] = part(n_, size(), t);
  try {
    for (int i = first; i < last; ++i) (*body_)(i);
  } catch (...) {
    const std::lock_guard<std::mutex> lock(error_mutex_);
    if (!error_) error_ = std::current_exception();
  }
}

void ThreadTeam::work(int t) {
  std::uint64_t seen = 0;
  for (;;) {
    wait_until(generation_, [seen](std::uint64_t g) { return g != seen; });
    seen = generation_.load(std::memory_order_acquire);
    if (stop_) return;
    run_part(t);
    if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) running_.notify_one();
  }
}

void ThreadTeam::for_each(int n, const std::function<void(int)>& body) {
  if (workers_.empty()) {
    for (int i = 0; i < n; ++i) body(i);
    return;
  }
  n_ = n;
  body_ = &body;
  error_ = nullptr;
  running_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  run_part(0);
  wait_until(running_, [](int r) { return r == 0; });
  body_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

}  // namespace rlroute
