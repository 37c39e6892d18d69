#include "rlroute/tb/model_build.hpp"

#include "rlroute/gen/dqn_block.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <zlib.h>

#include "cache_lock.hpp"
#include "model_prebuilt.hpp"


#ifndef RLROUTE_TB_DIR
#define RLROUTE_TB_DIR "tb"
#endif
#ifndef RLROUTE_GEN_INCLUDE_DIR
#define RLROUTE_GEN_INCLUDE_DIR "gen/include"
#endif

namespace rlroute {

namespace fs = std::filesystem;
using Log = std::function<void(const std::string&)>;
using model_cache::EntryLock;
using model_cache::shell_quote;
using model_cache::shown;

struct ModelLibrary {
  void* handle = nullptr;
  fs::path path;
  bool cached = false;
  double build_seconds = 0;
  ~ModelLibrary() {
    if (handle) dlclose(handle);
  }
};

namespace {

// Bumped when the layout of an entry changes, so that an older rlroute and
// this one never share (and never rebuild each other's) entries.
constexpr const char* kCacheFormat = "2: <entry>/manifest.json written last, <entry>.lock beside the entry";

fs::path tb_dir() {
  if (const char* env = std::getenv("RLROUTE_TB_DIR"); env && *env) return env;
  return RLROUTE_TB_DIR;
}

// A file the cache key or a build needs; missing, it is an error (an empty
// text would leave changes to it out of the key).
std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}, which the model build needs", p.string()));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

[[noreturn]] void cache_fail(const fs::path& root, const std::string& reason) {
  throw std::runtime_error(fmt::format("model cache {}: {}; set RLROUTE_CACHE to a writable directory",
                                       shown(root), reason));
}

// Whether `program` names an executable: a path, or a name found on the PATH.
bool is_executable(const std::string& program) {
  const auto runnable = [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
  };
  if (program.find('/') != std::string::npos) return runnable(program);
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (runnable(fs::path(dir.empty() ? "." : dir) / program)) return true;
  }
  return false;
}

// The C++ compiler of the models: RLROUTE_MODEL_CXX if set, else clang++
// when it is on the PATH, else g++ (Verilator's makefile default). Clang's
// code of a router model simulates about a tenth faster than GCC's, and it
// compiles faster (docs/architecture.md, "Test bench").
std::string model_compiler() {
  if (const char* env = std::getenv("RLROUTE_MODEL_CXX"); env && *env) {
    if (!is_executable(env)) {
      throw std::runtime_error(fmt::format("RLROUTE_MODEL_CXX={}: not an executable on the PATH (it names the C++ "
                                           "compiler of the Verilated models, such as g++ or clang++)",
                                           env));
    }
    return env;
  }
  return is_executable("clang++") ? "clang++" : "g++";
}

// Whether `cxx` is Clang (its --version says so); asked once per compiler.
bool is_clang(const std::string& cxx) {
  static std::mutex mutex;
  static std::map<std::string, bool> known;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = known.find(cxx); it != known.end()) return it->second;
  std::string version;
  if (FILE* pipe = ::popen((shell_quote(cxx) + " --version 2>/dev/null").c_str(), "r")) {
    char buf[512];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) version.append(buf, n);
    ::pclose(pipe);
  }
  return known[cxx] = model_cache::version_says_clang(version);
}

// The network top is one large flat model. GCC compiles it several times
// faster at -O1 than at -O2; Clang at -O2 takes about as long as GCC at -O1,
// and its code runs about 1.8x as fast as GCC's -O1 and 2.2x its own -O1
// (docs/architecture.md, "Test bench").
const char* cxx_opt(ModelKind kind, ModelCompile compile) {
  if (compile == ModelCompile::ForBuildTime) return "-O0";
  if (kind == ModelKind::Router) return "-O2";
  return is_clang(model_compiler()) ? "-O2" : "-O1";
}

// Verilator's own -O3 inlines and expands for speed: it doubles the C++ of a
// network top (a dfly(2,4,2,9) top: 355 MB against 160 MB) and adds about a
// quarter to its compile at -O0, which a model compiled for build time does
// not want (docs/architecture.md, "Test bench").
const char* verilator_opt(ModelCompile compile) { return compile == ModelCompile::ForRuns ? "-O3" : ""; }

// Verilator's makefile compiles the per-cycle code with OPT_FAST (-Os by
// default, after our CFLAGS, so it wins) and the code run once at start-up
// (its __Slow files: constructors, initial, settle) with OPT_SLOW. -O0 for
// the cold half and our level for the hot half: a dragonfly router model
// builds in about two thirds of the time and simulates about a third faster
// than with the defaults (docs/architecture.md, "Test bench").
// The compiler also links (Verilator's makefile links with g++ otherwise).
std::string make_vars(ModelKind kind, ModelCompile compile) {
  const std::string cxx = model_compiler();
  return fmt::format("{} {} OPT_SLOW=-O0 OPT_FAST={}", shell_quote("CXX=" + cxx), shell_quote("LINK=" + cxx),
                     cxx_opt(kind, compile));
}

const char* adapter_source(ModelKind kind) {
  return kind == ModelKind::Router ? "router_adapter.cpp" : "network_adapter.cpp";
}

const char* factory_symbol(ModelKind kind) {
  return kind == ModelKind::Router ? "rlroute_new_router" : "rlroute_new_network";
}

// dlopen's the library and checks that it has the factory of its kind; on
// failure returns why (dlerror) and leaves nothing loaded.
std::optional<std::string> open_library(ModelLibrary& lib, ModelKind kind) {
  lib.handle = dlopen(lib.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib.handle) {
    const char* err = dlerror();
    return std::string(err ? err : "dlopen failed");
  }
  if (!dlsym(lib.handle, factory_symbol(kind))) {
    dlclose(lib.handle);
    lib.handle = nullptr;
    return fmt::format("it has no {}", factory_symbol(kind));
  }
  return std::nullopt;
}

// DQN-routing's ports on the tops: none, the inference block's programming
// port, or the agent port (routing.dqn_agent = "external").
enum class DqnPorts { None, Programming, Agent };

struct BuildRequest {
  const ModelCacheEntry& entry;
  const EmittedDesign& emitted;
  ModelKind kind;
  ModelCompile compile;
  fs::path adapter;
  std::string opt;
  fs::path root;  // the cache, for the shared precompiled header and runtime objects
  std::chrono::milliseconds lock_timeout;
  DqnPorts dqn;  // the DQN ports the tops have
  ModelShape shape;
  bool waveform;  // a network top with --trace-fst
};

// How long the last build of the same design's model of the same kind took
// in this cache (its earlier entries, under other keys, keep it in their
// manifests): the estimate a long build shows. Empty if none is known.
std::optional<double> last_build_seconds(const ModelCacheEntry& e) {
  const std::string stem = e.dir.filename().string();
  const std::string design = stem.substr(0, stem.rfind('-') + 1);  // "<name>-"
  std::optional<double> seconds;
  fs::file_time_type newest{};
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(e.dir.parent_path(), ec)) {
    const std::string name = item.path().filename().string();
    if (name.rfind(design, 0) != 0 || name.find('.') != std::string::npos) continue;
    try {
      std::ifstream in(item.path() / "manifest.json");
      const nlohmann::json m = nlohmann::json::parse(in);
      if (m.at("library") != e.library.filename().string() || !m.contains("build_seconds")) continue;
      const auto when = fs::last_write_time(item.path() / "manifest.json");
      if (!seconds || when > newest) {
        seconds = m["build_seconds"].get<double>();
        newest = when;
      }
    } catch (const std::exception&) {
      continue;  // a damaged or older manifest: no estimate from it
    }
  }
  return seconds;
}

// Runs Verilator into `dir` (a fresh build directory), then make with the
// cache's precompiled header and runtime objects (tb/src/model_prebuilt.hpp);
// the library goes to dir/<library name>, the log to dir/build.log.
void verilate(const BuildRequest& r, const fs::path& dir, const Log& progress, const Log& notice) {
  const bool router = r.kind == ModelKind::Router;
  const std::string prefix = r.entry.library.stem().string();
  const fs::path obj = dir / (prefix + "_obj");
  const fs::path lib = dir / r.entry.library.filename();
  const std::string log = shell_quote((dir / "build.log").string());
  const std::string top = router ? r.emitted.router_top : r.emitted.network_top;
  const std::string kind_cflags =
      fmt::format("-fPIC -std=c++20 {} -I{} -I{} -I{}", r.opt, (tb_dir() / "include").string(),
                  fs::path(RLROUTE_GEN_INCLUDE_DIR).string(), fs::path(RLROUTE_REF_INCLUDE_DIR).string());
  // The network adapter reads the routers' ports inside the top by its name;
  // a DQN design's tops have the inference block's programming port.
  // The router adapter is compiled for its design's link layout and port
  // count (constants, so that its per-cycle port access folds to fixed shifts).
  const std::string cflags =
      fmt::format("{} -DRLROUTE_NETWORK_TOP={}{}{} -DRLROUTE_LINK_VC_BITS={} -DRLROUTE_LINK_FLIT_BITS={} "
                  "-DRLROUTE_LINK_FEEDBACK_BITS={} -DRLROUTE_ROUTER_PORTS={}",
                  kind_cflags, r.emitted.network_top, r.dqn == DqnPorts::Programming ? " -DRLROUTE_DQN_PROG" : "",
                  r.dqn == DqnPorts::Agent ? " -DRLROUTE_DQN_AGENT" : "", r.shape.vc_bits, r.shape.flit_bits,
                  r.shape.feedback_bits, r.shape.router_ports);
  const std::string cmd = fmt::format(
      "verilator --cc --exe {} --x-assign fast --x-initial fast -Wno-fatal {} "
      "--top-module {} --prefix {} -Mdir {} -F {} {} -CFLAGS {} -LDFLAGS -shared -o {} > {} 2>&1",
      verilator_opt(r.compile), !router && r.waveform ? "--trace-fst" : "", top, prefix, shell_quote(obj.string()),
      shell_quote((dir / "rtl" / r.emitted.filelist).string()), shell_quote(r.adapter.string()),
      shell_quote(cflags), shell_quote(lib.string()), log);
  const std::optional<double> estimate = last_build_seconds(r.entry);
  progress(fmt::format("model: building {} with Verilator (log {}){}", shown(r.entry.library),
                       shown(r.entry.dir / "build.log"),
                       estimate ? fmt::format("; the last build of this design took {:.1f} min", *estimate / 60)
                                : std::string()));
  if (model_cache::run_shell(cmd) != 0) throw std::runtime_error(fmt::format("Verilator failed on {}", top));

  const auto prebuilt = model_cache::prebuilt_runtime(
      {r.root, obj, prefix, make_vars(r.kind, r.compile), kind_cflags, router ? "router" : "network", r.lock_timeout}, progress,
      notice);
  std::string cxxflags;
  if (prebuilt) {
    model_cache::install_runtime_objects(*prebuilt, obj);
    if (prebuilt->precompiled) cxxflags = shell_quote("CXXFLAGS=-include " + prebuilt->header.string());
  }
  const auto make = [&](const std::string& flags) {
    const std::string cmd = fmt::format("make -C {} -f {} -j 2 {} {} >> {} 2>&1", shell_quote(obj.string()),
                                        shell_quote(prefix + ".mk"), make_vars(r.kind, r.compile), flags, log);
    return model_cache::run_shell(cmd) == 0 && fs::exists(lib);
  };
  bool built = make(cxxflags);
  // A precompiled header the compiler refuses costs time, not the build:
  // GCC then parses verilated.h itself, Clang stops, so build without it.
  if (!built && !cxxflags.empty()) {
    notice(fmt::format("model: {} did not build with the precompiled verilated.h; building it without (log {})",
                       shown(r.entry.library), shown(r.entry.dir / "build.log")));
    built = make("");
  }
  if (!built) {
    throw std::runtime_error(fmt::format("Verilator build of {} failed", top));
  }
  std::error_code ec;
  fs::remove_all(obj, ec);
}

// Builds the entry in <entry>.tmp-<pid>, writes its manifest last and renames
// it into place (over a broken entry), so that no process ever sees a
// half-built entry. The caller holds the entry's lock.
void build_entry(const BuildRequest& r, const ModelCacheOptions& cache, const fs::path& root, const Log& progress,
                 const Log& notice) {
  const ModelCacheEntry& e = r.entry;
  const std::string stem = e.dir.filename().string();
  std::error_code ec;
  std::optional<model_cache::StagingDir> staging;
  try {
    staging.emplace(root, stem);
  } catch (const std::exception& ex) {
    cache_fail(root, ex.what());
  }
  const fs::path tmp = staging->path();

  try {
    write_design(r.emitted, tmp / "rtl");
  } catch (const std::exception& ex) {
    cache_fail(root, fmt::format("cannot write the RTL into {}: {}", shown(tmp), ex.what()));
  }
  const fs::path lib = tmp / e.library.filename();
  const auto started = std::chrono::steady_clock::now();
  try {
    if (cache.build) {
      cache.build(lib);
    } else {
      verilate(r, tmp, progress, notice);
    }
  } catch (const std::exception& ex) {
    // Keep the log where the user can read it; the next build replaces it.
    const fs::path failed = root / (stem + ".failed");
    fs::remove_all(failed, ec);
    fs::rename(tmp, failed, ec);
    if (!ec) staging->release();
    throw std::runtime_error(fmt::format("{}; see {}", ex.what(), shown((ec ? tmp : failed) / "build.log")));
  }

  const auto size = fs::file_size(lib, ec);
  if (ec) throw std::runtime_error(fmt::format("the build wrote no {}", shown(lib)));
  const nlohmann::ordered_json manifest = {
      {"library", e.library.filename().string()}, {"size", size}, {"crc32", library_checksum(lib)}, {"key", e.key},
      {"build_seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()}};
  {
    std::ofstream out(tmp / "manifest.json", std::ios::binary | std::ios::trunc);
    out << manifest.dump(2) << "\n";
    out.close();
    if (!out) cache_fail(root, fmt::format("cannot write {}", shown(tmp / "manifest.json")));
  }
  // A broken entry goes only now; a process that loaded its library keeps its mapping.
  if (fs::exists(e.dir, ec)) {
    fs::remove_all(e.dir, ec);
    if (ec) cache_fail(root, fmt::format("cannot remove the broken entry {}: {}", shown(e.dir), ec.message()));
  }
  fs::rename(tmp, e.dir, ec);
  if (ec) cache_fail(root, fmt::format("cannot rename {} to {}: {}", shown(tmp), shown(e.dir), ec.message()));
  staging->release();
}

}  // namespace

fs::path model_cache_dir() {
  const auto env = [](const char* name) -> std::optional<fs::path> {
    const char* value = std::getenv(name);
    if (!value || !*value) return std::nullopt;  // empty = unset
    return fs::path(value);
  };
  if (auto dir = env("RLROUTE_CACHE")) return *dir;
  if (auto xdg = env("XDG_CACHE_HOME")) return *xdg / "rlroute";
  if (auto home = env("HOME")) return *home / ".cache" / "rlroute";
  return fs::temp_directory_path() / "rlroute-cache";
}

ModelCacheEntry model_cache_entry(const Design& design, const EmittedDesign& emitted, ModelKind kind,
                                  const fs::path& root, ModelCompile compile, bool waveform) {
  const bool router = kind == ModelKind::Router;
  const std::string prefix = router ? "Vrouter" : "Vnetwork";
  // The key covers the RTL as Verilator compiles it (EmittedDesign::hash: not
  // its comments, so a renamed config file reuses the model), the adapter
  // sources, the build flags and the cache format.
  std::map<std::string, std::string> inputs;
  inputs["rtl"] = emitted.hash;
  inputs["adapter.cpp"] = read_all(tb_dir() / "adapter" / adapter_source(kind));
  inputs["port_bits.hpp"] = read_all(tb_dir() / "adapter" / "port_bits.hpp");
  inputs["clock_cycle.hpp"] = read_all(tb_dir() / "adapter" / "clock_cycle.hpp");
  inputs["dqn_ports.hpp"] = read_all(tb_dir() / "adapter" / "dqn_ports.hpp");
  inputs["model.hpp"] = read_all(tb_dir() / "include" / "rlroute" / "tb" / "model.hpp");
  inputs["dqn_model_ports.hpp"] = read_all(tb_dir() / "include" / "rlroute" / "tb" / "dqn_model_ports.hpp");
  inputs["bits.hpp"] = read_all(fs::path(RLROUTE_GEN_INCLUDE_DIR) / "rlroute" / "gen" / "bits.hpp");
  inputs["link_layout.hpp"] = read_all(fs::path(RLROUTE_GEN_INCLUDE_DIR) / "rlroute" / "gen" / "link_layout.hpp");
  inputs["link_words.hpp"] = read_all(fs::path(RLROUTE_GEN_INCLUDE_DIR) / "rlroute" / "gen" / "link_words.hpp");
  inputs["dqn_inference.hpp"] = read_all(fs::path(RLROUTE_REF_INCLUDE_DIR) / "rlroute" / "ref" / "dqn_inference.hpp");
  inputs["kind"] = prefix;
  inputs["opt"] = fmt::format("{} {} {}", verilator_opt(compile), cxx_opt(kind, compile), make_vars(kind, compile));
  inputs["cache_format"] = kCacheFormat;
  if (!router && !waveform) inputs["waveform"] = "none";  // the traced tops keep their keys
  ModelCacheEntry e;
  e.key = content_hash(inputs);
  const std::string stem = design.cfg.name + "-" + e.key;
  e.dir = root / stem;
  e.library = e.dir / (prefix + ".so");
  e.manifest = e.dir / "manifest.json";
  e.lock = root / (stem + ".lock");
  return e;
}

std::string library_checksum(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read", path.string()));
  uLong crc = crc32(0L, Z_NULL, 0);
  std::vector<char> buffer(1 << 16);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(buffer.data()), static_cast<uInt>(in.gcount()));
  }
  return fmt::format("{:08x}", crc);
}

std::string model_cache_problem(const ModelCacheEntry& e) {
  std::error_code ec;
  if (!fs::is_directory(e.dir, ec)) return "the entry does not exist";
  if (!fs::exists(e.manifest, ec)) {
    return "the entry has no manifest.json (an interrupted build, or files put there by hand)";
  }
  nlohmann::json m;
  try {
    m = nlohmann::json::parse(read_all(e.manifest));
    m.at("library").get<std::string>();
    m.at("size").get<std::uintmax_t>();
    m.at("crc32").get<std::string>();
    m.at("key").get<std::string>();
  } catch (const std::exception&) {
    return "its manifest.json is not valid (not JSON, or a field is missing)";
  }
  if (m["library"] != e.library.filename().string() || m["key"] != e.key) {
    return "its manifest.json describes another library";
  }
  const auto expected = m["size"].get<std::uintmax_t>();
  const auto size = fs::file_size(e.library, ec);
  if (ec) return fmt::format("{} is missing", shown(e.library.filename()));
  if (size != expected) {
    return fmt::format("{} is {} bytes, its manifest.json says {} (truncated or overwritten)",
                       shown(e.library.filename()), size, expected);
  }
  try {
    if (library_checksum(e.library) != m["crc32"].get<std::string>()) {
      return fmt::format("{} does not match the CRC-32 in its manifest.json (corrupted)",
                         shown(e.library.filename()));
    }
  } catch (const std::exception& ex) {
    return ex.what();
  }
  return "";
}

namespace {
ModelShape model_shape(const Design& d, ModelKind kind) {
  ModelShape s{};
  s.ports = kind == ModelKind::Router ? d.ports : d.topo.num_nodes();
  s.router_ports = d.ports;
  s.routers = d.topo.num_routers();
  s.vc_bits = d.vc_bits;
  s.flit_bits = d.flit_bits;
  s.id_bits = d.topo.router_id_bits();
  s.feedback_bits = d.link.feedback_bits;
  if (d.cfg.algorithm == RoutingAlgorithm::Dqn) {
    // A block with constant weights has no programming port.
    const DqnBlock block = dqn_block(d.cfg);
    if (d.cfg.dqn_agent == DqnAgentKind::Block && !block.constant) s.dqn.data_bits = block.data_bits();
    if (d.cfg.dqn_agent == DqnAgentKind::External) {
      const DqnAgentPort a = dqn_agent_port(d);
      s.dqn.obs_values = a.obs_values;
      s.dqn.activation_bits = a.activation_bits;
      s.dqn.actions = a.actions;
      s.dqn.tag_bits = a.tag_bits;
      s.dqn.action_bits = a.action_bits;
      s.dqn.episode_bits = a.episode_bits;
      s.dqn.distance_bits = a.distance_bits;
      s.dqn.stamp_bits = a.stamp_bits;
    }
  }
  return s;
}
}  // namespace

ModelFactory::ModelFactory(const Design& d, ModelKind kind, std::shared_ptr<ModelLibrary> lib)
    : shape_(model_shape(d, kind)), kind_(kind), lib_(std::move(lib)) {}

std::unique_ptr<RouterModel> ModelFactory::new_router() const {
  if (kind_ != ModelKind::Router) throw std::logic_error("not a router model library");
  auto fn = reinterpret_cast<RouterModel* (*)(const ModelShape*)>(dlsym(lib_->handle, "rlroute_new_router"));
  if (!fn) throw std::runtime_error(lib_->path.string() + ": rlroute_new_router missing");
  return std::unique_ptr<RouterModel>(fn(&shape_));
}

std::unique_ptr<NetworkModel> ModelFactory::new_network() const {
  if (kind_ != ModelKind::Network) throw std::logic_error("not a network model library");
  auto fn = reinterpret_cast<NetworkModel* (*)(const ModelShape*)>(dlsym(lib_->handle, "rlroute_new_network"));
  if (!fn) throw std::runtime_error(lib_->path.string() + ": rlroute_new_network missing");
  return std::unique_ptr<NetworkModel>(fn(&shape_));
}

const fs::path& ModelFactory::path() const { return lib_->path; }
bool ModelFactory::was_cached() const { return lib_->cached; }
double ModelFactory::build_seconds() const { return lib_->build_seconds; }

ModelFactory load_model(const Design& design, const EmittedDesign& emitted, ModelKind kind, const Log& log,
                        const ModelCacheOptions& cache) {
  const Log progress = [&log](const std::string& line) {
    if (log) log(line);
  };
  // What a user must see even from a caller that passes no log.
  const Log notice = [&log](const std::string& line) {
    if (log) {
      log(line);
    } else {
      std::cerr << "rlroute: " << line << "\n";
    }
  };

  const fs::path root = fs::absolute(cache.root.empty() ? model_cache_dir() : cache.root);
  std::error_code ec;
  fs::create_directories(root, ec);
  if (!fs::is_directory(root)) {
    cache_fail(root, fmt::format("cannot create the directory: {}",
                                 ec ? ec.message() : std::string("a file of that name exists")));
  }
  const ModelCacheEntry e = model_cache_entry(design, emitted, kind, root, cache.compile, cache.waveform);
  auto lib = std::make_shared<ModelLibrary>();
  lib->path = e.library;

  EntryLock lock(e.lock);
  if (!lock.opened()) {
    const int err = lock.open_errno();
    const std::string problem = model_cache_problem(e);
    // A read-only cache still serves the entries it holds, if they check out.
    if ((err == EACCES || err == EROFS || err == EPERM) && problem.empty() && !open_library(*lib, kind)) {
      lib->cached = true;
      progress(fmt::format("model: cached {} (read-only cache, not locked)", shown(e.library)));
      return ModelFactory(design, kind, lib);
    }
    cache_fail(root, fmt::format("cannot create {}: {}", shown(e.lock.filename()), std::strerror(err)));
  }
  lock.lock(cache.lock_timeout, notice);
  lock.note(fmt::format("pid {} (checking {})", ::getpid(), shown(e.library)));

  std::string problem;
  if (fs::exists(e.dir, ec)) {
    problem = model_cache_problem(e);
    if (problem.empty()) {
      const auto failure = open_library(*lib, kind);
      if (!failure) {
        lib->cached = true;
        progress(fmt::format("model: cached {}", shown(e.library)));
        return ModelFactory(design, kind, lib);
      }
      problem = fmt::format("it does not load: {}", *failure);
    }
    notice(fmt::format("model: rebuilding {}: {}", shown(e.library), problem));
  }
  lock.note(fmt::format("pid {} (building {})", ::getpid(), shown(e.library)));
  const auto start = std::chrono::steady_clock::now();
  const BuildRequest request{e,    emitted, kind, cache.compile, tb_dir() / "adapter" / adapter_source(kind),
                             cxx_opt(kind, cache.compile),
                             root, cache.lock_timeout,
                             design.cfg.algorithm != RoutingAlgorithm::Dqn  ? DqnPorts::None
                             : design.cfg.dqn_agent == DqnAgentKind::External ? DqnPorts::Agent
                             : dqn_block(design.cfg).constant               ? DqnPorts::None
                                                                           : DqnPorts::Programming,
                             model_shape(design, kind), cache.waveform};
  build_entry(request, cache, root, progress, notice);
  lib->build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (const auto failure = open_library(*lib, kind)) {
    throw std::runtime_error(fmt::format("cannot load the freshly built {}: {}", shown(e.library), *failure));
  }
  return ModelFactory(design, kind, lib);
}

}  // namespace rlroute
