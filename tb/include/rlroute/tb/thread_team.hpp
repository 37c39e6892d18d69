// A fixed team of threads that runs one loop over [0, n) split into equal
// contiguous parts, one per thread, the calling thread being one of them
// (`rlroute sim --threads N`: the harness evaluates its routers this way).
//
// The parts are the same for a given n and team size, so each index always
// runs on the same thread. Work done in parallel must touch only its own
// indices' state: that is what keeps a simulation's results identical at any
// thread count.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace rlroute {

class ThreadTeam {
 public:
  // threads >= 1; threads - 1 worker threads are started here.
  explicit ThreadTeam(int threads);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Part `t` of [0, n) for a team of `threads`: [first, last).
  static std::pair<int, int> part(int n, int threads, int t);

  // Runs body(i) for every i in [0, n), each part on its thread, and returns
  // when all are done. The first exception thrown by a body is rethrown here
  // (the other parts still run to their end).
  void for_each(int n, const std::function<void(int)>& body);

 private:
  void work(int t);
  void run_part(int t);

  std::vector<std::thread> workers_;
  // The job: bumped by for_each to start one, read by the workers.
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<int> running_{0};  // workers still in the current job
  bool stop_ = false;
  int n_ = 0;
  const std::function<void(int)>* body_ = nullptr;
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

}  // namespace rlroute
