// The model cache (tb/src/model_build.cpp): what it does with entries that
// are broken (truncated, corrupted, emptied, without a manifest, unloadable),
// with a cache it cannot write, with a lock another process holds, and with
// two loads of the same model at once.
//
// One real Verilator build of a 2x2 torus router goes into a pristine cache
// under the build tree (RLROUTE_TEST_CACHE_DIR) and is reused by every test
// process; each test copies it into its own cache and breaks the copy (a
// library loaded in this process is never modified: that would crash it).
// One test rebuilds with Verilator; the others replace the build by a copy
// of the pristine library (ModelCacheOptions::build) to stay fast. The
// pristine cache also holds the precompiled header and runtime objects that
// every Verilator build shares (tb/src/model_prebuilt.hpp); their tests break
// copies of them.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/emit.hpp"
#include "rlroute/tb/model_build.hpp"
#include "model_prebuilt.hpp"

#ifndef RLROUTE_TEST_CACHE_DIR
#error "RLROUTE_TEST_CACHE_DIR must name a directory under the build tree"
#endif

using namespace rlroute;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

constexpr const char* kToml = "[design]\nname = \"cachetest\"\n[topology]\nkind = \"torus\"\ndims = [2, 2]\n";

// A file descriptor that is closed when the test ends, whatever happens.
struct Fd {
  int fd;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

bool contains(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& l : lines) {
    if (l.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += "  " + l + "\n";
  return s;
}

void resize(const fs::path& p, std::uintmax_t size) { fs::resize_file(p, size); }

void overwrite(const fs::path& p, std::uintmax_t at, const std::string& bytes) {
  std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(at));
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A cache at `root`; the other options as given or at their defaults.
ModelCacheOptions cache_at(const fs::path& root, std::function<void(const fs::path&)> build = {},
                           std::chrono::milliseconds lock_timeout = kModelCacheLockTimeout) {
  ModelCacheOptions o;
  o.root = root;
  o.build = std::move(build);
  o.lock_timeout = lock_timeout;
  return o;
}

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// A model that works: reset and a few clock edges with idle inputs.
void expect_router_runs(const ModelFactory& f) {
  const auto router = f.new_router();
  ASSERT_NE(router, nullptr);
  router->reset();
  for (int i = 0; i < 4; ++i) router->tick();
  EXPECT_FALSE(router->flit_out(0).valid);
}

class ModelCache : public ::testing::Test {
 protected:
  Design design = derive_design(parse_config(kToml, "cachetest.toml"));
  EmittedDesign emitted = emit_design(design);
  fs::path root;                   // this test's cache
  std::vector<std::string> lines;  // what load_model logged
  int builds = 0;                  // fake builds (copies of the pristine library)

  static fs::path base() { return fs::absolute(RLROUTE_TEST_CACHE_DIR); }

  void SetUp() override {
    root = base() / "tests" / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::error_code ec;
    fs::permissions(root, fs::perms::owner_all, fs::perm_options::add, ec);  // left read-only by a failed run
    fs::remove_all(root);
    fs::create_directories(root);
  }

  std::function<void(const std::string&)> log() {
    return [this](const std::string& line) { lines.push_back(line); };
  }

  // The pristine entry, built with Verilator by the first test process that needs it.
  ModelCacheEntry pristine() {
    const fs::path dir = base() / "pristine";
    load_model(design, emitted, ModelKind::Router, {}, cache_at(dir));
    return model_cache_entry(design, emitted, ModelKind::Router, dir);
  }

  ModelCacheEntry entry() { return model_cache_entry(design, emitted, ModelKind::Router, root); }

  // The pristine cache's precompiled header and runtime objects: the newest
  // (a build tree kept from an earlier rlroute may hold one of another format).
  fs::path pristine_prebuilt() {
    pristine();
    fs::path newest;
    fs::file_time_type newest_time{};
    for (const auto& item : fs::directory_iterator(base() / "pristine")) {
      const std::string name = item.path().filename().string();
      if (name.rfind("verilated-router-", 0) != 0 || !item.is_directory() || name.find('.') != std::string::npos) {
        continue;
      }
      std::error_code ec;
      const auto when = fs::last_write_time(item.path() / "manifest.json", ec);
      if (!ec && (newest.empty() || when > newest_time)) {
        newest = item.path();
        newest_time = when;
      }
    }
    if (newest.empty()) ADD_FAILURE() << "the pristine cache has no verilated-router-* directory";
    return newest;
  }

  // A copy of them in this test's cache.
  fs::path seed_prebuilt() {
    const fs::path from = pristine_prebuilt();
    fs::copy(from, root / from.filename(), fs::copy_options::recursive);
    return root / from.filename();
  }

  // A good entry in this test's cache, copied from the pristine one.
  ModelCacheEntry seed() {
    const ModelCacheEntry from = pristine();
    const ModelCacheEntry to = entry();
    fs::copy(from.dir, to.dir, fs::copy_options::recursive);
    EXPECT_EQ(model_cache_problem(to), "");
    return to;
  }

  // Cache options with the fast build: a copy of the pristine library.
  ModelCacheOptions fast(std::chrono::milliseconds lock_timeout = kModelCacheLockTimeout) {
    const fs::path good = pristine().library;
    return cache_at(
        root,
        [this, good](const fs::path& lib) {
          ++builds;
          fs::copy_file(good, lib);
        },
        lock_timeout);
  }

  // Loads (rebuilding as needed) and checks that the model works and that
  // exactly one line said why it was rebuilt.
  void expect_rebuilt_because(const ModelCacheOptions& options, const std::string& reason) {
    const ModelCacheEntry e = entry();
    std::optional<ModelFactory> f;
    ASSERT_NO_THROW(f.emplace(load_model(design, emitted, ModelKind::Router, log(), options))) << joined(lines);
    EXPECT_FALSE(f->was_cached());
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines[0], "model: rebuilding " + e.library.string() + ": " + reason) << joined(lines);
    EXPECT_EQ(model_cache_problem(e), "");
    expect_router_runs(*f);
  }

  bool leftovers() const {
    for (const auto& item : fs::directory_iterator(root)) {
      if (item.path().filename().string().find(".tmp-") != std::string::npos) return true;
    }
    return false;
  }
};

TEST_F(ModelCache, BuildsOnceThenLoadsTheVerifiedLibrary) {
  const auto options = fast();
  const ModelFactory first = load_model(design, emitted, ModelKind::Router, log(), options);
  EXPECT_EQ(builds, 1);
  EXPECT_FALSE(first.was_cached());
  EXPECT_EQ(model_cache_problem(entry()), "");
  EXPECT_TRUE(fs::exists(entry().manifest));
  EXPECT_EQ(first.path(), entry().library);
  EXPECT_FALSE(leftovers());
  lines.clear();
  const ModelFactory second = load_model(design, emitted, ModelKind::Router, log(), options);
  EXPECT_EQ(builds, 1);
  EXPECT_TRUE(second.was_cached());
  EXPECT_EQ(lines, std::vector<std::string>{"model: cached " + entry().library.string()});
  expect_router_runs(second);
}

// A model compiled for build time is an entry of its own, built with Verilator
// at -O0 throughout (no -O2 on any compile line), and it runs.
TEST_F(ModelCache, ModelCompiledForBuildTimeIsItsOwnEntryAtO0) {
  ModelCacheOptions options = cache_at(root);
  options.compile = ModelCompile::ForBuildTime;
  const ModelCacheEntry quick = model_cache_entry(design, emitted, ModelKind::Router, root, ModelCompile::ForBuildTime);
  EXPECT_NE(quick.key, entry().key);
  const ModelFactory f = load_model(design, emitted, ModelKind::Router, log(), options);
  EXPECT_EQ(f.path(), quick.library);
  std::ifstream in(quick.dir / "build.log");
  const std::string build_log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(build_log.find(" -O0 -c -o Vrouter.o "), std::string::npos) << build_log.substr(0, 2000);
  EXPECT_EQ(build_log.find("-O2"), std::string::npos) << build_log.substr(0, 2000);
  expect_router_runs(f);
}

// A network top without a waveform is an entry of its own; the flag leaves
// the traced tops' and the router models' keys as they were.
TEST_F(ModelCache, NetworkTopWithoutAWaveformIsItsOwnEntry) {
  const auto key = [&](ModelKind kind, bool waveform) {
    return model_cache_entry(design, emitted, kind, root, ModelCompile::ForBuildTime, waveform).key;
  };
  EXPECT_NE(key(ModelKind::Network, false), key(ModelKind::Network, true));
  EXPECT_EQ(key(ModelKind::Network, true),
            model_cache_entry(design, emitted, ModelKind::Network, root, ModelCompile::ForBuildTime).key);
  EXPECT_EQ(key(ModelKind::Router, false), key(ModelKind::Router, true));
}

// A truncated library, which would crash the process with SIGBUS when loaded,
// is rebuilt with a real Verilator build.
TEST_F(ModelCache, TruncatedLibraryIsRebuiltWithVerilator) {
  const ModelCacheEntry e = seed();
  const fs::path prebuilt = seed_prebuilt();
  const auto size = fs::file_size(e.library);
  resize(e.library, size / 2);
  expect_rebuilt_because(cache_at(root),
                         fmt::format("Vrouter.so is {} bytes, its manifest.json says {} (truncated or overwritten)",
                                     size / 2, size));
  EXPECT_TRUE(contains(lines, "model: building " + e.library.string() + " with Verilator")) << joined(lines);
  // The estimate from the manifest of the design's last build.
  EXPECT_TRUE(contains(lines, "; the last build of this design took ")) << joined(lines);
  EXPECT_TRUE(fs::exists(e.dir / "build.log"));
  EXPECT_FALSE(leftovers());
  // The build took the shared precompiled header and did not compile the runtime again.
  EXPECT_TRUE(contains(lines, "model: cached precompiled header and runtime objects " + prebuilt.string()))
      << joined(lines);
  std::ifstream in(e.dir / "build.log");
  const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(log.find("-include " + (prebuilt / "rlroute_pch.h").string()), std::string::npos) << log;
  EXPECT_EQ(log.find("-o verilated.o"), std::string::npos) << log;
}

// The pristine cache's first build made the shared files, and the compiler
// takes the precompiled header at both levels (checked when it was built).
TEST_F(ModelCache, FirstBuildPrecompilesVerilatedHForEveryLevelAndKeepsTheRuntime) {
  const fs::path p = pristine_prebuilt();
  std::ifstream in(p / "manifest.json");
  const std::string manifest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(manifest.find("\"precompiled\": true"), std::string::npos) << manifest;
  for (const char* f : {"rlroute_pch.h.gch/SLOW.gch", "rlroute_pch.h.gch/FAST.gch", "verilated.o"}) {
    EXPECT_TRUE(fs::exists(p / f)) << f;
  }
}

// A runtime object that does not match the manifest is rebuilt, with a line
// saying so, and the model builds and runs.
TEST_F(ModelCache, DamagedRuntimeObjectIsRebuilt) {
  const fs::path prebuilt = seed_prebuilt();
  resize(prebuilt / "verilated.o", 100);
  std::optional<ModelFactory> f;
  ASSERT_NO_THROW(f.emplace(load_model(design, emitted, ModelKind::Router, log(), cache_at(root)))) << joined(lines);
  EXPECT_TRUE(contains(lines, "model: rebuilding " + prebuilt.string() + ": its files do not match its manifest"))
      << joined(lines);
  EXPECT_GT(fs::file_size(prebuilt / "verilated.o"), 100u);
  expect_router_runs(*f);
}

// A runtime object damaged in place (its size kept, its code overwritten) is
// caught by its CRC-32 and rebuilt: linked into a model, it would crash every
// run.
TEST_F(ModelCache, RuntimeObjectOverwrittenInPlaceIsRebuilt) {
  const fs::path prebuilt = seed_prebuilt();
  const auto size = fs::file_size(prebuilt / "verilated.o");
  {
    std::fstream f(prebuilt / "verilated.o", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size / 2));
    const std::string junk(4096, '\xcc');
    f.write(junk.data(), static_cast<std::streamsize>(std::min<std::uintmax_t>(junk.size(), size / 2)));
  }
  ASSERT_EQ(fs::file_size(prebuilt / "verilated.o"), size);
  std::optional<ModelFactory> f;
  ASSERT_NO_THROW(f.emplace(load_model(design, emitted, ModelKind::Router, log(), cache_at(root)))) << joined(lines);
  EXPECT_TRUE(contains(lines, "model: rebuilding " + prebuilt.string() + ": its files do not match its manifest"))
      << joined(lines);
  expect_router_runs(*f);
}

// The check that the compiler takes the precompiled header fires when it does
// not: a macro whose value changes from one compile to the next (the clock)
// makes GCC refuse the header it precompiled, and Clang stop. The directory is
// published without it, and models build with the runtime objects alone.
TEST_F(ModelCache, PrecompiledHeaderCheckFiresWhenTheCompilerRefusesIt) {
  const fs::path dir = root / "verilated";
  write_design(emitted, dir / "rtl");
  const std::string verilate =
      fmt::format("cd '{}' && verilator --cc -Wno-fatal --top-module {} --prefix Vrouter -Mdir obj -F rtl/{} "
                  "> verilator.log 2>&1",
                  dir.string(), emitted.router_top, emitted.filelist);
  ASSERT_EQ(std::system(verilate.c_str()), 0) << "see " << (dir / "verilator.log");
  std::vector<std::string> compilers = {"g++"};
  if (std::system("command -v clang++ > /dev/null") == 0) compilers.push_back("clang++");
  for (const std::string& cxx : compilers) {
    SCOPED_TRACE(cxx);
    const model_cache::PrebuiltRequest request{root,
                                               dir / "obj",
                                               "Vrouter",
                                               "CXX=" + cxx + " OPT_SLOW=-O0 OPT_FAST=-O1",
                                               "-fPIC -std=c++20 -DRLROUTE_NOW=$(shell date +%s%N)",
                                               "router",
                                               10min};
    std::vector<std::string> notices;
    const auto p = model_cache::prebuilt_runtime(request, [](const std::string&) {},
                                                 [&](const std::string& line) { notices.push_back(line); });
    ASSERT_TRUE(p.has_value()) << joined(notices);
    EXPECT_FALSE(p->precompiled);
    EXPECT_TRUE(contains(notices, "model: the compiler does not take the precompiled verilated.h at level SLOW"))
        << joined(notices);
    EXPECT_FALSE(fs::exists(p->header.parent_path() / "rlroute_pch.h.gch"));
    ASSERT_FALSE(p->objects.empty());
    for (const fs::path& o : p->objects) EXPECT_TRUE(fs::exists(o)) << o;
  }
}

// RLROUTE_MODEL_CXX picks the models' compiler; the cache keeps one entry per
// compiler, and a name that is not a program is a one-line error naming it.
TEST_F(ModelCache, ModelCompilerComesFromRlrouteModelCxx) {
  struct Restore {  // the variable as it was, whatever the test does
    const char* before = std::getenv("RLROUTE_MODEL_CXX");
    std::string saved = before ? before : "";
    ~Restore() {
      if (before) {
        ::setenv("RLROUTE_MODEL_CXX", saved.c_str(), 1);
      } else {
        ::unsetenv("RLROUTE_MODEL_CXX");
      }
    }
  } restore;
  ::setenv("RLROUTE_MODEL_CXX", "g++", 1);
  const std::string with_gcc = entry().key;
  ::setenv("RLROUTE_MODEL_CXX", "/usr/bin/g++", 1);
  EXPECT_NE(entry().key, with_gcc) << "the key holds the compiler as named";
  ::setenv("RLROUTE_MODEL_CXX", "no-such-compiler++", 1);
  try {
    entry();
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "RLROUTE_MODEL_CXX=no-such-compiler++: not an executable on the PATH (it names the C++ compiler of "
              "the Verilated models, such as g++ or clang++)");
  }
}

// A precompiled header the compiler does not take (here: one built with other
// flags, as a changed compiler would leave it) costs time, not correctness:
// GCC parses verilated.h instead, and the model works.
TEST_F(ModelCache, PrecompiledHeaderTheCompilerRefusesOnlyCostsTime) {
  const fs::path prebuilt = seed_prebuilt();
  // Headers the compiler refuses but the manifest vouches for (their new
  // size and CRC-32 written into it, as a compiler that changed without a
  // new version string would leave them).
  nlohmann::json manifest;
  std::ifstream(prebuilt / "manifest.json") >> manifest;
  for (const char* level : {"SLOW", "FAST"}) {
    const std::string name = std::string("rlroute_pch.h.gch/") + level + ".gch";
    overwrite(prebuilt / name, 0, std::string(16, '\0'));
    manifest["files"][name]["crc32"] = library_checksum(prebuilt / name);
  }
  std::ofstream(prebuilt / "manifest.json") << manifest.dump(2) << "\n";
  std::optional<ModelFactory> f;
  ASSERT_NO_THROW(f.emplace(load_model(design, emitted, ModelKind::Router, log(), cache_at(root)))) << joined(lines);
  EXPECT_TRUE(contains(lines, "model: cached precompiled header and runtime objects")) << joined(lines);
  expect_router_runs(*f);
}

// The SIGSEGV/SIGILL case: same size, other bytes.
TEST_F(ModelCache, CorruptedLibraryIsRebuilt) {
  const ModelCacheEntry e = seed();
  overwrite(e.library, fs::file_size(e.library) / 2, std::string(64, '\xcc'));
  expect_rebuilt_because(fast(), "Vrouter.so does not match the CRC-32 in its manifest.json (corrupted)");
  EXPECT_EQ(builds, 1);
}

TEST_F(ModelCache, EmptyLibraryIsRebuilt) {
  const ModelCacheEntry e = seed();
  const auto size = fs::file_size(e.library);
  resize(e.library, 0);
  expect_rebuilt_because(
      fast(), fmt::format("Vrouter.so is 0 bytes, its manifest.json says {} (truncated or overwritten)", size));
}

TEST_F(ModelCache, MissingLibraryIsRebuilt) {
  fs::remove(seed().library);
  expect_rebuilt_because(fast(), "Vrouter.so is missing");
}

TEST_F(ModelCache, EntryWithoutManifestIsRebuilt) {
  fs::remove(seed().manifest);
  expect_rebuilt_because(fast(),
                         "the entry has no manifest.json (an interrupted build, or files put there by hand)");
}

TEST_F(ModelCache, InvalidManifestIsRebuilt) {
  write_text(seed().manifest, "{\"library\": \"Vrouter.so\", \"size\": ");
  expect_rebuilt_because(fast(), "its manifest.json is not valid (not JSON, or a field is missing)");
}

// A library that matches its manifest but is not a loadable model.
TEST_F(ModelCache, LibraryThatDoesNotLoadIsRebuilt) {
  const ModelCacheEntry e = seed();
  write_text(e.library, "not an ELF file");
  write_text(e.manifest, fmt::format(R"({{"library": "Vrouter.so", "size": 15, "crc32": "{}", "key": "{}"}})",
                                     library_checksum(e.library), e.key));
  ASSERT_EQ(model_cache_problem(e), "");
  std::optional<ModelFactory> f;
  ASSERT_NO_THROW(f.emplace(load_model(design, emitted, ModelKind::Router, log(), fast()))) << joined(lines);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].rfind("model: rebuilding " + e.library.string() + ": it does not load: ", 0), 0u) << lines[0];
  expect_router_runs(*f);
}

// A build that was killed leaves its temporary directory; the next build removes it.
TEST_F(ModelCache, LeftoverOfAKilledBuildIsRemoved) {
  const fs::path stale = root / (entry().dir.filename().string() + ".tmp-99999999");
  fs::create_directories(stale / "rtl");
  load_model(design, emitted, ModelKind::Router, log(), fast());
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_FALSE(leftovers());
}

TEST_F(ModelCache, FailedBuildNamesItsLogAndPublishesNothing) {
  const ModelCacheOptions options = cache_at(root, [](const fs::path& lib) {
    write_text(lib.parent_path() / "build.log", "%Error: something\n");
    throw std::runtime_error("Verilator build of cachetest_router failed");
  });
  const fs::path failed = root / (entry().dir.filename().string() + ".failed");
  try {
    load_model(design, emitted, ModelKind::Router, log(), options);
    FAIL() << "the build did not fail";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "Verilator build of cachetest_router failed; see " + (failed / "build.log").string());
  }
  EXPECT_TRUE(fs::exists(failed / "build.log"));
  EXPECT_FALSE(fs::exists(entry().dir));
  EXPECT_FALSE(leftovers());
}

// Root can write into a chmod 0555 directory, so the unwritable cache is a
// path under a regular file, which nobody can create.
TEST_F(ModelCache, UnwritableCacheIsOneLineNamingTheDirectoryAndRlrouteCache) {
  write_text(root / "a_file", "");
  const fs::path cache = root / "a_file" / "cache";
  try {
    load_model(design, emitted, ModelKind::Router, log(), cache_at(cache));
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "model cache " + cache.string() +
                                         ": cannot create the directory: Not a directory; set RLROUTE_CACHE to a "
                                         "writable directory");
  }
}

TEST_F(ModelCache, ReadOnlyCacheServesVerifiedEntriesAndRefusesToBuild) {
  if (::geteuid() == 0) {
    GTEST_SKIP() << "running as root: chmod does not stop root from writing, and a read-only mount needs "
                    "privileges; UnwritableCacheIsOneLineNamingTheDirectoryAndRlrouteCache covers the error";
  }
  const ModelCacheEntry e = seed();
  fs::permissions(root, fs::perms::owner_read | fs::perms::owner_exec);
  std::optional<ModelFactory> f;
  EXPECT_NO_THROW(f.emplace(load_model(design, emitted, ModelKind::Router, log(), fast())));
  EXPECT_EQ(builds, 0);
  fs::permissions(root, fs::perms::owner_all);
  fs::remove_all(e.dir);
  fs::remove(e.lock);
  fs::permissions(root, fs::perms::owner_read | fs::perms::owner_exec);
  try {
    load_model(design, emitted, ModelKind::Router, log(), fast());
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& ex) {
    EXPECT_EQ(std::string(ex.what()), "model cache " + root.string() + ": cannot create " +
                                          e.lock.filename().string() +
                                          ": Permission denied; set RLROUTE_CACHE to a writable directory");
  }
  fs::permissions(root, fs::perms::owner_all);
}

// Another process holds the entry's lock (flock on another open file is
// exclusive even within one process): the loader says whom it waits for and
// gives up after the (injected) bound.
TEST_F(ModelCache, HeldLockIsReportedAndTimesOut) {
  const ModelCacheEntry e = seed();
  Fd holder(::open(e.lock.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644));
  ASSERT_GE(holder.fd, 0);
  ASSERT_EQ(::flock(holder.fd, LOCK_EX | LOCK_NB), 0);
  const std::string who = "pid 4242 (unit test holder)";
  ASSERT_EQ(::pwrite(holder.fd, who.data(), who.size(), 0), static_cast<ssize_t>(who.size()));

  const auto start = std::chrono::steady_clock::now();
  try {
    load_model(design, emitted, ModelKind::Router, log(), fast(300ms));
    FAIL() << "no timeout";
  } catch (const std::runtime_error& ex) {
    EXPECT_EQ(std::string(ex.what()), "model cache: gave up after 0.3 s waiting for the lock " + e.lock.string() +
                                          ", held by " + who +
                                          "; if that process is stuck, stop it, or set RLROUTE_CACHE to another "
                                          "directory");
  }
  EXPECT_GE(std::chrono::steady_clock::now() - start, 300ms);
  EXPECT_EQ(lines, std::vector<std::string>{"model: waiting for the cache lock " + e.lock.string() + ", held by " +
                                            who + "; giving up after 0.3 s"});
  EXPECT_EQ(builds, 0);
}

TEST_F(ModelCache, LockReleasedWithinTheBoundIsTaken) {
  const ModelCacheEntry e = seed();
  Fd holder(::open(e.lock.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644));
  ASSERT_EQ(::flock(holder.fd, LOCK_EX | LOCK_NB), 0);
  std::thread release([&holder] {
    std::this_thread::sleep_for(200ms);
    ::flock(holder.fd, LOCK_UN);
  });
  std::optional<ModelFactory> f;
  EXPECT_NO_THROW(f.emplace(load_model(design, emitted, ModelKind::Router, log(), fast(10s))));
  release.join();
  ASSERT_EQ(lines.size(), 3u) << joined(lines);
  EXPECT_EQ(lines[0].rfind("model: waiting for the cache lock " + e.lock.string() + ", held by another process", 0), 0u);
  EXPECT_EQ(lines[1].rfind("model: got the cache lock after ", 0), 0u);
  EXPECT_EQ(lines[2], "model: cached " + e.library.string());
}

// Two loads of one model at once (each with its own lock file descriptor, as
// two processes would have): one builds, the other waits and loads that build.
TEST_F(ModelCache, ConcurrentLoadsBuildOnce) {
  const fs::path good = pristine().library;
  std::atomic<int> built{0};
  const ModelCacheOptions options = cache_at(root, [&](const fs::path& lib) {
    ++built;
    std::this_thread::sleep_for(300ms);
    fs::copy_file(good, lib);
  });
  std::optional<ModelFactory> a, b;
  std::thread other([&] { a.emplace(load_model(design, emitted, ModelKind::Router, [](const std::string&) {}, options)); });
  b.emplace(load_model(design, emitted, ModelKind::Router, [](const std::string&) {}, options));
  other.join();
  EXPECT_EQ(built.load(), 1);
  EXPECT_NE(a->was_cached(), b->was_cached());
  expect_router_runs(*a);
  expect_router_runs(*b);
  EXPECT_FALSE(leftovers());
}

// RLROUTE_CACHE="" must not mean the current directory: it counts as unset.
TEST(ModelCacheDir, EmptyVariablesCountAsUnset) {
  struct Env {
    const char* name;
    std::optional<std::string> saved;
    explicit Env(const char* n) : name(n) {
      if (const char* v = std::getenv(n)) saved = v;
    }
    ~Env() {
      if (saved) {
        ::setenv(name, saved->c_str(), 1);
      } else {
        ::unsetenv(name);
      }
    }
  } cache("RLROUTE_CACHE"), xdg("XDG_CACHE_HOME"), home("HOME");
  ::setenv("HOME", "/home/someone", 1);
  ::setenv("XDG_CACHE_HOME", "", 1);
  ::setenv("RLROUTE_CACHE", "", 1);
  EXPECT_EQ(model_cache_dir(), fs::path("/home/someone/.cache/rlroute"));
  ::setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(model_cache_dir(), fs::path("/xdg/rlroute"));
  ::setenv("RLROUTE_CACHE", "/my/cache", 1);
  EXPECT_EQ(model_cache_dir(), fs::path("/my/cache"));
}

}  // namespace
