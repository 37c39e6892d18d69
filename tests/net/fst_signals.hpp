// Reads signals back from an FST waveform (the network top's `--trace`),
// through the FST reader Verilator ships (include/gtkwave/fstapi.h): a
// test's view of the hardware's own state where no port carries it.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "fstapi.h"
}

namespace rlroute::test {

class FstSignals {
 public:
  // Every variable whose full dotted name (scopes, then the name) contains
  // one of `wanted`, with all its value changes.
  FstSignals(const std::string& path, const std::vector<std::string>& wanted) {
    void* ctx = fstReaderOpen(path.c_str());
    if (ctx == nullptr) throw std::runtime_error(path + ": not an FST file");
    std::vector<std::string> scope;
    while (fstHier* h = fstReaderIterateHier(ctx)) {
      if (h->htyp == FST_HT_SCOPE) {
        scope.emplace_back(h->u.scope.name);
      } else if (h->htyp == FST_HT_UPSCOPE) {
        scope.pop_back();
      } else if (h->htyp == FST_HT_VAR) {
        std::string full;
        for (const std::string& s : scope) full += s + ".";
        full += h->u.var.name;
        for (const std::string& w : wanted) {
          if (full.find(w) == std::string::npos || names_.count(h->u.var.handle)) continue;
          names_[h->u.var.handle] = full;
          fstReaderSetFacProcessMask(ctx, h->u.var.handle);
        }
      }
    }
    fstReaderIterBlocks(ctx, &FstSignals::change, this, nullptr);
    fstReaderClose(ctx);
  }

  // The names found, and one's changes: (time, bits as '0'/'1', MSB first).
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [handle, name] : names_) out.push_back(name);
    return out;
  }
  const std::vector<std::pair<std::uint64_t, std::string>>& changes(const std::string& name) const {
    return changes_.at(name);
  }
  // The value in effect at `time` (the last change at or before it).
  std::string at(const std::string& name, std::uint64_t time) const {
    std::string v;
    for (const auto& [t, bits] : changes_.at(name)) {
      if (t > time) break;
      v = bits;
    }
    return v;
  }

 private:
  static void change(void* self, std::uint64_t time, fstHandle handle, const unsigned char* value) {
    auto* s = static_cast<FstSignals*>(self);
    s->changes_[s->names_.at(handle)].emplace_back(time, reinterpret_cast<const char*>(value));
  }

  std::map<fstHandle, std::string> names_;
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::string>>> changes_;
};

}  // namespace rlroute::test
