// Builds (or finds in the cache) the Verilated model libraries of a design
// and loads them.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "rlroute/design.hpp"
#include "rlroute/emit.hpp"
#include "rlroute/model.hpp"

namespace rlroute {

enum class ModelKind { Router, Network };

struct ModelLibrary;  // a dlopen'ed model library

class ModelFactory {
 public:
  ModelFactory(const Design& design, ModelKind kind, std::shared_ptr<ModelLibrary> lib);
  std::unique_ptr<RouterModel> new_router() const;
  std::unique_ptr<NetworkModel> new_network() const;
  const std::filesystem::path& path() const;
  bool was_cached() const;
  double build_seconds() const;

 private:
  ModelShape shape_;
  ModelKind kind_;
  std::shared_ptr<ModelLibrary> lib_;
};

// Cache root: $RLROUTE_CACHE, else $XDG_CACHE_HOME/rlroute, else ~/.cache/rlroute.
std::filesystem::path model_cache_dir();

// Emits nothing to the user's directories: the RTL goes into the cache entry
// named by its hash. A second call with the same RTL reuses the library.
// `log` receives one line per step (may be empty).
ModelFactory load_model(const Design& design, const EmittedDesign& emitted, ModelKind kind,
                        const std::function<void(const std::string&)>& log = {});

}  // namespace rlroute
