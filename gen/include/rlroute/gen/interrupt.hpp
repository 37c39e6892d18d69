// What an interrupt leaves behind: nothing rlroute was writing. main()
// installs handlers for SIGINT, SIGTERM and SIGHUP that remove every path
// registered with RemovedOnInterrupt (a file or a directory tree, with
// async-signal-safe system calls only) and then end the process by the same
// signal, so that the shell sees the interrupt. (Synthesis replaces the
// handlers while a tool runs: synth/process.hpp's InterruptGuard.)
#pragma once

#include <filesystem>

namespace rlroute {

void install_interrupt_cleanup();

// Registers `path` for removal on an interrupt while the object lives (or
// until release()). Registering does not remove anything otherwise.
class RemovedOnInterrupt {
 public:
  explicit RemovedOnInterrupt(const std::filesystem::path& path);
  ~RemovedOnInterrupt() { release(); }
  RemovedOnInterrupt(const RemovedOnInterrupt&) = delete;
  RemovedOnInterrupt& operator=(const RemovedOnInterrupt&) = delete;

  void release();

 private:
  int slot_ = -1;
};

// The signal that ended a command run through std::system (or pclose), if it
// was an interrupt (SIGINT, SIGTERM, SIGHUP), else 0. A shell reports a child
// killed by a signal as the exit status 128 + the signal.
int interrupt_of(int wait_status);

// Removes the registered paths and ends rlroute by `signal`, as if it had
// come to rlroute itself (a child interrupted by the terminal's Ctrl-C: its
// failure is not a build failure).
[[noreturn]] void stop_for_interrupt(int signal);

}  // namespace rlroute
