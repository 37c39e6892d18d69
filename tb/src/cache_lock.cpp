#include "cache_lock.hpp"

#include <cstdlib>

#include "rlroute/gen/printable.hpp"

namespace rlroute::model_cache {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string shown(const fs::path& p) { return printable(p.string()); }

int run_shell(const std::string& cmd) {
  const int status = std::system(cmd.c_str());
  if (const int sig = interrupt_of(status)) stop_for_interrupt(sig);
  return status;
}

std::string duration_text(std::chrono::milliseconds d) {
  if (d.count() % 60000 == 0) return fmt::format("{} min", d.count() / 60000);
  return fmt::format("{:g} s", static_cast<double>(d.count()) / 1000.0);
}

StagingDir::StagingDir(const fs::path& root, const std::string& stem) {
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(root, ec)) {
    if (item.path().filename().string().rfind(stem + ".tmp-", 0) == 0) fs::remove_all(item.path(), ec);
  }
  const fs::path tmp = root / fmt::format("{}.tmp-{}", stem, ::getpid());
  unfinished_ = std::make_unique<RemovedOnInterrupt>(tmp);
  if (!fs::create_directory(tmp, ec)) {
    throw std::runtime_error(
        fmt::format("cannot create {}: {}", shown(tmp.filename()), ec ? ec.message() : std::string("exists")));
  }
  dir_ = tmp;
}

StagingDir::~StagingDir() {
  std::error_code ignored;
  if (!dir_.empty()) fs::remove_all(dir_, ignored);
}

}  // namespace rlroute::model_cache
