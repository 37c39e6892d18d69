// What the model cache's builders share (tb/src/model_build.cpp, the model
// itself; tb/src/model_prebuilt.cpp, the precompiled header and runtime
// objects every model build reuses): the lock on an entry, and the text of
// paths and durations in its messages.
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <stdexcept>
#include <string>
#include <memory>
#include <thread>

#include "rlroute/gen/interrupt.hpp"

namespace rlroute::model_cache {

namespace fs = std::filesystem;
using Log = std::function<void(const std::string&)>;

// `s` as one word for /bin/sh.
std::string shell_quote(const std::string& s);

// A path for a one-line message: control characters (a newline in
// $RLROUTE_CACHE, say) are shown escaped, not sent to the terminal.
std::string shown(const fs::path& p);

// Runs `cmd` through /bin/sh (std::system) and returns its wait status. A
// command ended by an interrupt (the terminal's Ctrl-C reaches the whole
// process group) is no build failure: rlroute removes what it was building
// and ends by the same signal.
int run_shell(const std::string& cmd);

// "30 min", "0.2 s".
std::string duration_text(std::chrono::milliseconds d);

// An exclusive flock on <entry>.lock, held while an entry is checked, built
// and loaded. The holder writes who it is into the file so that a waiting
// process can say whom it waits for. O_CLOEXEC: Verilator and the compiler,
// started through system(), must not inherit the lock and keep holding it
// after rlroute itself is gone.
class EntryLock {
 public:
  explicit EntryLock(const fs::path& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    if (fd_ < 0) open_errno_ = errno;
  }
  ~EntryLock() {
    if (fd_ < 0) return;
    if (locked_) note("");  // a stale "building" note must not mislead the next waiter
    ::close(fd_);
  }
  EntryLock(const EntryLock&) = delete;
  EntryLock& operator=(const EntryLock&) = delete;

  bool opened() const { return fd_ >= 0; }
  int open_errno() const { return open_errno_; }

  // True when locked; false when another open file holds the lock.
  bool try_lock() {
    while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      if (errno == EINTR) continue;
      if (errno == EWOULDBLOCK) return false;
      throw std::runtime_error(fmt::format("model cache lock {}: cannot lock: {}", shown(path_), std::strerror(errno)));
    }
    locked_ = true;
    return true;
  }

  // Waits up to `timeout` for the lock, telling `notice` once that it waits
  // and for whom.
  void lock(std::chrono::milliseconds timeout, const Log& notice) {
    if (try_lock()) return;
    const std::string holder = read_holder();
    notice(fmt::format("model: waiting for the cache lock {}, held by {}; giving up after {}", shown(path_), holder,
                       duration_text(timeout)));
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + timeout;
    for (;;) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) {
        throw std::runtime_error(fmt::format(
            "model cache: gave up after {} waiting for the lock {}, held by {}; if that process is stuck, stop it, "
            "or set RLROUTE_CACHE to another directory",
            duration_text(timeout), shown(path_), read_holder()));
      }
      std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(std::chrono::milliseconds(50),
                                                                                 deadline - now));
      if (try_lock()) {
        const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        notice(fmt::format("model: got the cache lock after {:.1f} s", waited));
        return;
      }
    }
  }

  // What the holder is doing, for waiting processes ("pid 123: building X").
  void note(const std::string& what) {
    // Best effort: the note only feeds a message.
    if (::ftruncate(fd_, 0) != 0) return;
    if (!what.empty() && ::pwrite(fd_, what.data(), what.size(), 0) < 0) return;
  }

 private:
  std::string read_holder() const {
    char buf[512];
    const ssize_t n = ::pread(fd_, buf, sizeof buf, 0);
    std::string text = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text.empty() ? std::string("another process") : shown(text);
  }

  fs::path path_;
  int fd_ = -1;
  int open_errno_ = 0;
  bool locked_ = false;
};

// The directory an entry is built in, <root>/<stem>.tmp-<pid>, renamed into
// place when it is complete (an interrupt removes it). Creating it first removes what killed builds of
// the same entry left (the caller holds the entry's lock, so nobody else is
// building it); it is removed on destruction unless released.
class StagingDir {
 public:
  // Throws std::runtime_error("cannot create <name>: <why>").
  StagingDir(const fs::path& root, const std::string& stem);
  ~StagingDir();
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;

  const fs::path& path() const { return dir_; }
  void release() {  // renamed into place, or kept for its log
    dir_.clear();
    unfinished_.reset();
  }

 private:
  fs::path dir_;
  std::unique_ptr<RemovedOnInterrupt> unfinished_;  // an interrupt takes it too
};

}  // namespace rlroute::model_cache
