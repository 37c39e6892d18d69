// Builds (or finds in the cache) the Verilated model libraries of a design
// and loads them.
//
// The cache (model_cache_dir()) holds one entry per model, named
// "<config name>-<key>" after a hash of everything the library is built from.
// An entry is published whole: it is built in "<entry>.tmp-<pid>" and renamed
// into place after its manifest.json (the library's size and CRC-32) was
// written, last. Before a library is loaded its size and CRC-32 are checked
// against the manifest; an entry that fails the check (no manifest: an
// interrupted build or an older rlroute; a truncated, emptied or corrupted
// library; a library that does not load) is rebuilt, and one line says why.
// Processes that need the same entry serialise on "<entry>.lock" (flock): one
// builds, the others wait, saying whom they wait for, up to
// kModelCacheLockTimeout.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/emit.hpp"
#include "rlroute/tb/model.hpp"

namespace rlroute {

enum class ModelKind { Router, Network };

// What a model's C++ is compiled for. ForRuns optimises the per-cycle code
// (docs/architecture.md, "Test bench"); ForBuildTime compiles everything at
// -O0, which builds a large network top in about 40 % of the time and
// simulates several times slower: for a short cross-check of one.
enum class ModelCompile { ForRuns, ForBuildTime };

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

// Cache root: $RLROUTE_CACHE, else $XDG_CACHE_HOME/rlroute, else
// ~/.cache/rlroute. An empty variable counts as unset (as the XDG spec says
// of its own variables), so RLROUTE_CACHE="" never means the current directory.
std::filesystem::path model_cache_dir();

// How long a process waits for another one that holds an entry's lock (a
// build of the largest network top takes minutes on a loaded machine) before
// it gives up with an error naming the lock and its holder.
inline constexpr std::chrono::minutes kModelCacheLockTimeout{30};

// The files of one cache entry.
struct ModelCacheEntry {
  std::filesystem::path dir;       // <root>/<config name>-<key>
  std::filesystem::path library;   // dir/Vrouter.so or dir/Vnetwork.so
  std::filesystem::path manifest;  // dir/manifest.json, written last
  std::filesystem::path lock;      // <root>/<config name>-<key>.lock
  std::string key;                 // hash of the RTL, adapter sources, kind and flags
};

// Where the model of (design, emitted, kind) lives under `root`.
// `waveform`: see ModelCacheOptions::waveform.
ModelCacheEntry model_cache_entry(const Design& design, const EmittedDesign& emitted, ModelKind kind,
                                  const std::filesystem::path& root, ModelCompile compile = ModelCompile::ForRuns,
                                  bool waveform = true);

// Why the entry's library cannot be loaded as it is ("" when its manifest
// vouches for it): no manifest, a manifest for another library, a library of
// another size or with another CRC-32.
std::string model_cache_problem(const ModelCacheEntry& entry);

// The CRC-32 (zlib) of a cached file (a model library, a runtime object), as
// its manifest.json records it. With the size it tells a truncated or damaged
// file from the one that was built; it is not meant against tampering.
std::string library_checksum(const std::filesystem::path& library);

// For tests: where the cache is, how long to wait for a lock, and what
// replaces the Verilator build (it must create the library at the path given).
struct ModelCacheOptions {
  std::filesystem::path root;  // empty: model_cache_dir()
  std::chrono::milliseconds lock_timeout = kModelCacheLockTimeout;
  std::function<void(const std::filesystem::path& library)> build;  // empty: Verilator
  ModelCompile compile = ModelCompile::ForRuns;
  // A network top that can write a waveform (Verilator's --trace-fst). Without
  // it the model builds in about 70 % of the time, and open_trace
  // throws; a router model never traces.
  bool waveform = true;
};

// Emits nothing to the user's directories: the RTL goes into the cache entry
// named by its hash. A second call with the same RTL reuses the library.
// `log` receives one line per step; when it is empty, only the lines a user
// must see (a broken entry being rebuilt, a wait for another process's lock)
// go to stderr. Throws std::runtime_error with one line when the cache cannot
// be written (naming the directory and RLROUTE_CACHE), when the lock wait
// times out, or when the build fails (naming its log).
ModelFactory load_model(const Design& design, const EmittedDesign& emitted, ModelKind kind,
                        const std::function<void(const std::string&)>& log = {},
                        const ModelCacheOptions& cache = {});

}  // namespace rlroute
