#include "rlroute/model_build.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <stdexcept>

#ifndef RLROUTE_TB_DIR
#define RLROUTE_TB_DIR "tb"
#endif
#ifndef RLROUTE_GEN_INCLUDE_DIR
#define RLROUTE_GEN_INCLUDE_DIR "gen/include"
#endif

namespace rlroute {

namespace fs = std::filesystem;

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

fs::path tb_dir() {
  if (const char* env = std::getenv("RLROUTE_TB_DIR")) return env;
  return RLROUTE_TB_DIR;
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Holds an exclusive flock on a file for its lifetime, so that parallel
// builds of the same model (ctest -j) do not trample each other.
class FileLock {
 public:
  explicit FileLock(const fs::path& p) : fd_(::open(p.c_str(), O_CREAT | O_RDWR, 0644)) {
    if (fd_ < 0 || ::flock(fd_, LOCK_EX) != 0) throw std::runtime_error(p.string() + ": cannot lock");
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

fs::path model_cache_dir() {
  if (const char* env = std::getenv("RLROUTE_CACHE")) return env;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME")) return fs::path(xdg) / "rlroute";
  if (const char* home = std::getenv("HOME")) return fs::path(home) / ".cache" / "rlroute";
  return fs::temp_directory_path() / "rlroute-cache";
}

ModelFactory::ModelFactory(const Design& d, ModelKind kind, std::shared_ptr<ModelLibrary> lib)
    : shape_{kind == ModelKind::Router ? d.ports : d.topo.num_nodes(), d.vc_bits, d.flit_bits,
             d.topo.router_id_bits()},
      kind_(kind), lib_(std::move(lib)) {}

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

ModelFactory load_model(const Design& design, const EmittedDesign& emitted, ModelKind kind,
                        const std::function<void(const std::string&)>& log) {
  const bool router = kind == ModelKind::Router;
  const std::string prefix = router ? "Vrouter" : "Vnetwork";
  const fs::path adapter = tb_dir() / "adapter" / (router ? "router_adapter.cpp" : "network_adapter.cpp");
  // The key covers the RTL, the adapter sources and the toolchain identity.
  std::map<std::string, std::string> inputs = emitted.files;
  inputs["adapter.cpp"] = read_all(adapter);
  inputs["port_bits.hpp"] = read_all(tb_dir() / "adapter" / "port_bits.hpp");
  inputs["model.hpp"] = read_all(tb_dir() / "include" / "rlroute" / "model.hpp");
  inputs["bits.hpp"] = read_all(fs::path(RLROUTE_GEN_INCLUDE_DIR) / "rlroute" / "bits.hpp");
  inputs["kind"] = prefix;
  // The network top is one large flat model: -O1 compiles it several times
  // faster and it is only used for small networks and traces.
  const std::string opt = router ? "-O2" : "-O1";
  inputs["opt"] = opt;
  const std::string key = content_hash(inputs);
  const fs::path entry = model_cache_dir() / (design.cfg.name + "-" + key);
  const fs::path lib_path = entry / (prefix + ".so");

  auto lib = std::make_shared<ModelLibrary>();
  lib->path = lib_path;
  fs::create_directories(entry);
  {
    FileLock lock(entry / ".lock");
    if (fs::exists(lib_path)) {
      lib->cached = true;
      if (log) log(fmt::format("model: cached {}", lib_path.string()));
    } else {
      const auto start = std::chrono::steady_clock::now();
      write_design(emitted, entry / "rtl");
      const fs::path obj = entry / (prefix + "_obj");
      const std::string top = router ? emitted.router_top : emitted.network_top;
      const std::string cflags = fmt::format("-fPIC -std=c++20 {} -I{} -I{}", opt,
                                             (tb_dir() / "include").string(),
                                             fs::path(RLROUTE_GEN_INCLUDE_DIR).string());
      std::string cmd = fmt::format(
          "verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast -Wno-fatal {} "
          "--top-module {} --prefix {} -Mdir {} -F {} {} -CFLAGS {} -LDFLAGS -shared -o {} > {} 2>&1",
          router ? "" : "--trace-fst", top, prefix, shell_quote(obj.string()),
          shell_quote((entry / "rtl" / emitted.filelist).string()), shell_quote(adapter.string()),
          shell_quote(cflags), shell_quote(lib_path.string()), shell_quote((entry / "build.log").string()));
      if (log) log(fmt::format("model: building {} with Verilator (log {})", lib_path.string(),
                               (entry / "build.log").string()));
      if (std::system(cmd.c_str()) != 0 || !fs::exists(lib_path)) {
        throw std::runtime_error(fmt::format("Verilator build of {} failed; see {}", top,
                                             (entry / "build.log").string()));
      }
      fs::remove_all(obj);
      lib->build_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  }
  lib->handle = dlopen(lib_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle) throw std::runtime_error(fmt::format("cannot load {}: {}", lib_path.string(), dlerror()));
  return ModelFactory(design, kind, lib);
}

}  // namespace rlroute
