#include "rlroute/gen/interrupt.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstring>
#include <stdexcept>

namespace rlroute {

namespace {

// Fixed slots, filled by normal code and read by the handler: no allocation,
// no lock. The handler reads only slots whose path is complete (kReady).
constexpr int kSlots = 64;
enum SlotState : int { kFree, kFilling, kReady };
struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
std::array<Slot, kSlots> g_slots;
static_assert(std::atomic<int>::is_always_lock_free);

// The directory entries of `dir` as the kernel returns them (getdents64 is a
// system call; readdir may allocate).
struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

// Removes `name` in directory `at` and, if it is a directory, everything in
// it; true if it is gone. Async-signal-safe: openat, getdents64, lseek,
// unlinkat and close only; the recursion depth is bounded by `depth`.
bool remove_tree_at(int at, const char* name, int depth) {
  if (::unlinkat(at, name, 0) == 0 || errno == ENOENT) return true;
  if ((errno != EISDIR && errno != EPERM) || depth <= 0) return false;
  const int fd = ::openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  alignas(LinuxDirent64) char buf[4096];
  // A pass over the listing removes what it can; entries removed while
  // reading can shift the rest, so passes repeat while they make progress.
  for (bool progress = true; progress;) {
    progress = false;
    ::lseek(fd, 0, SEEK_SET);
    for (long n; (n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;) {
      for (long off = 0; off < n;) {
        const auto* e = reinterpret_cast<const LinuxDirent64*>(buf + off);
        off += e->d_reclen;
        if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
        if (remove_tree_at(fd, e->d_name, depth - 1)) progress = true;
      }
    }
  }
  ::close(fd);
  return ::unlinkat(at, name, AT_REMOVEDIR) == 0;
}

void remove_registered() {
  for (Slot& s : g_slots) {
    if (s.state.load() == kReady) remove_tree_at(AT_FDCWD, s.path, 32);
  }
}

void on_interrupt(int sig) {
  const int saved = errno;
  remove_registered();
  errno = saved;
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void install_interrupt_cleanup() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  ::sigemptyset(&sa.sa_mask);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaddset(&sa.sa_mask, sig);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
}

RemovedOnInterrupt::RemovedOnInterrupt(const std::filesystem::path& path) {
  const std::string text = std::filesystem::absolute(path).string();
  if (text.size() >= PATH_MAX) throw std::runtime_error("path too long to register for removal: " + text);
  for (int i = 0; i < kSlots; ++i) {
    Slot& s = g_slots[static_cast<std::size_t>(i)];
    int expected = kFree;
    if (!s.state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(s.path, text.c_str(), text.size() + 1);
    s.state.store(kReady);
    slot_ = i;
    return;
  }
  throw std::runtime_error("more than 64 paths registered for removal on an interrupt");
}

void RemovedOnInterrupt::release() {
  if (slot_ < 0) return;
  g_slots[static_cast<std::size_t>(slot_)].state.store(kFree);
  slot_ = -1;
}

int interrupt_of(int wait_status) {
  int sig = 0;
  if (WIFSIGNALED(wait_status)) sig = WTERMSIG(wait_status);
  if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) > 128) sig = WEXITSTATUS(wait_status) - 128;
  return (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) ? sig : 0;
}

void stop_for_interrupt(int signal) {
  remove_registered();
  ::signal(signal, SIG_DFL);
  ::raise(signal);
  ::_exit(128 + signal);
}

}  // namespace rlroute
