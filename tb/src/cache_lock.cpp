#include "cache_lock.hpp"

namespace rlroute::model_cache {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string shown(const fs::path& p) {
  std::string out;
  for (const unsigned char c : p.string()) {
    if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string duration_text(std::chrono::milliseconds d) {
  if (d.count() % 60000 == 0) return fmt::format("{} min", d.count() / 60000);
  return fmt::format("{:g} s", static_cast<double>(d.count()) / 1000.0);
}

}  // namespace rlroute::model_cache
