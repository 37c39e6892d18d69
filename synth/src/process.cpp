// Runs the synthesis tools: fork/exec with the output captured in a log file.
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "rlroute/synth/process.hpp"

namespace fs = std::filesystem;

namespace rlroute::synth {

namespace {

// Set by the handler; read by run_process and throw_if_interrupted.
volatile sig_atomic_t g_signal = 0;
volatile sig_atomic_t g_child = 0;  // process group of the running tool, 0 if none

void on_interrupt(int sig) {
  g_signal = sig;
  const pid_t child = g_child;
  if (child > 0) ::kill(-child, SIGTERM);  // async-signal-safe
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_signal = 0;
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  ::sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &old_int_);
  ::sigaction(SIGTERM, &sa, &old_term_);
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &old_int_, nullptr);
  ::sigaction(SIGTERM, &old_term_, nullptr);
}

void throw_if_interrupted() {
  if (const int sig = g_signal) {
    throw SynthInterrupted(fmt::format("interrupted by {} (signal {}): the tool was stopped and the output "
                                       "directory is left as it was",
                                       sig == SIGINT ? "SIGINT" : "SIGTERM", sig));
  }
}

std::optional<fs::path> find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (::access(name.c_str(), X_OK) == 0) return fs::path(name);
    return std::nullopt;
  }
  const char* env = std::getenv("PATH");
  std::stringstream dirs(env ? env : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = (dir.empty() ? fs::path(".") : fs::path(dir)) / name;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

ProcessResult run_process(const std::vector<std::string>& argv, const fs::path& cwd, const fs::path& log) {
  if (argv.empty()) throw SynthError("run_process: empty command");
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  throw_if_interrupted();
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw SynthError(std::string("cannot start ") + argv[0] + ": " + std::strerror(errno));
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec. A process group of its
    // own, so that an interrupt stops the tool and its children (ABC) too.
    ::setpgid(0, 0);
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = ::open("/dev/null", O_RDONLY);
    if (out < 0 || in < 0 || ::chdir(cwd.c_str()) != 0) ::_exit(127);
    ::dup2(in, STDIN_FILENO);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(out, STDERR_FILENO);
    ::close(in);
    ::close(out);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here: whichever runs first
  g_child = pid;
  if (g_signal) ::kill(-pid, SIGTERM);  // an interrupt between the check above and here
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      g_child = 0;
      throw SynthError(std::string("waiting for ") + argv[0] + ": " + std::strerror(errno));
    }
  }
  g_child = 0;
  throw_if_interrupted();
  ProcessResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status))
    r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.exit_code = 128 + WTERMSIG(status);
  return r;
}

std::string first_line_with(const fs::path& file, const std::string& marker) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    const auto at = line.find(marker);
    if (at == std::string::npos) continue;
    line = line.substr(at);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    return line;
  }
  return "";
}

}  // namespace rlroute::synth
