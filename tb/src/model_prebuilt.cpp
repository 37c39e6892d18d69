#include "model_prebuilt.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rlroute/gen/emit.hpp"
#include "rlroute/tb/model_build.hpp"

namespace rlroute::model_cache {

namespace {

// Bumped when the layout of the directory changes.
constexpr const char* kPrebuiltFormat =
    "2: rlroute_pch.h, rlroute_pch.h.gch/{SLOW,FAST}.gch, the runtime objects, manifest.json (size and CRC-32 of "
    "each) written last";

constexpr const char* kHeader = "rlroute_pch.h";
constexpr const char* kLevels[] = {"SLOW", "FAST"};

// Rules read beside the model's own makefile (make -f <prefix>.mk -f this),
// so that they compile with exactly the flags of the model's files.
constexpr const char* kMakefile = R"(# rlroute: the precompiled header and runtime objects that every model build
# shares (tb/src/model_prebuilt.cpp); read beside the model's makefile.
rlroute-describe:
	$(info compile: $(CXX) $(CXXFLAGS) $(CPPFLAGS))
	$(info levels: slow $(OPT_SLOW), fast $(OPT_FAST), runtime $(OPT_GLOBAL))
	$(info runtime: $(VK_GLOBAL_OBJS))
	@$(CXX) --version
rlroute-pch-%:
	$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(OPT_$*) $(RLROUTE_PCH_FLAGS) -x c++-header -o $(RLROUTE_PCH)/rlroute_pch.h.gch/$*.gch $(RLROUTE_PCH)/rlroute_pch.h
rlroute-probe-%:
	$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(OPT_$*) -H -include $(RLROUTE_PCH)/rlroute_pch.h -fsyntax-only -x c++ /dev/null
)";

constexpr const char* kHeaderText =
    "// rlroute: precompiled into rlroute_pch.h.gch/ and force-included into every file of a model build\n"
    "// (tb/src/model_prebuilt.cpp).\n"
    "#include \"verilated.h\"\n"
    "#include \"verilated_dpi.h\"\n";

struct Captured {
  int status = -1;
  std::string out;
};

// Runs `cmd` through /bin/sh and returns its exit status and standard output.
Captured capture(const std::string& cmd) {
  Captured c;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return c;
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) c.out.append(buf, n);
  const int raw = ::pclose(pipe);
  if (const int sig = interrupt_of(raw)) stop_for_interrupt(sig);
  c.status = (raw != -1 && WIFEXITED(raw)) ? WEXITSTATUS(raw) : -1;
  return c;
}

std::string first_line(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? std::string("no output") : line;
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error(fmt::format("cannot write {}", shown(path)));
}

// The make command that runs the rules above in the model's directory; the
// model's -CFLAGS are replaced by the kind's (no design's name in them).
std::string make_command(const PrebuiltRequest& r, const fs::path& pch_dir) {
  return fmt::format("make --no-print-directory -C {} -f {} -f {} {} {} RLROUTE_PCH={}", shell_quote(r.obj.string()),
                     shell_quote(r.prefix + ".mk"), shell_quote((r.obj / "rlroute_prebuilt.mk").string()),
                     shell_quote("VM_USER_CFLAGS=" + r.cflags), r.make_vars, shell_quote(pch_dir.string()));
}

std::vector<std::string> runtime_objects(const std::string& describe) {
  std::vector<std::string> objects;
  std::istringstream lines(describe);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("runtime: ", 0) != 0) continue;
    std::istringstream words(line.substr(9));
    for (std::string w; words >> w;) objects.push_back(w);
  }
  return objects;
}

// The directory as its manifest describes it, if every file is there with
// its size.
std::optional<PrebuiltRuntime> load(const fs::path& dir, const std::string& key) {
  std::error_code ec;
  if (!fs::exists(dir / "manifest.json", ec)) return std::nullopt;
  nlohmann::json m;
  try {
    std::ifstream in(dir / "manifest.json", std::ios::binary);
    m = nlohmann::json::parse(in);
    if (m.at("key").get<std::string>() != key) return std::nullopt;
    PrebuiltRuntime p;
    p.header = dir / kHeader;
    p.precompiled = m.at("precompiled").get<bool>();
    // Every file as it was built: its size and CRC-32 (an object damaged in
    // place would otherwise crash every model linked with it).
    for (const auto& [name, built] : m.at("files").items()) {
      const auto actual = fs::file_size(dir / name, ec);
      if (ec || actual != built.at("size").get<std::uintmax_t>()) return std::nullopt;
      if (library_checksum(dir / name) != built.at("crc32").get<std::string>()) return std::nullopt;
      if (fs::path(name).extension() == ".o") p.objects.push_back(dir / name);
    }
    return p;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Whether -H's list of included files (lines of one or more dots, a space
// and a path) has verilated.h: the compiler parsed it.
bool lists_verilated_h(const std::string& h_output) {
  std::istringstream lines(h_output);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t dots = line.find_first_not_of('.');
    if (dots == 0 || dots == std::string::npos || line[dots] != ' ') continue;
    if (line.size() >= 12 && line.compare(line.size() - 12, 12, "/verilated.h") == 0) return true;
  }
  return false;
}

// Builds the directory in <dir>.tmp-<pid> and renames it into place after
// its manifest.json (`clang`: the compiler is Clang). The caller holds the lock.
void build(const PrebuiltRequest& r, const fs::path& dir, const std::string& key,
           const std::vector<std::string>& objects, bool clang, const Log& notice) {
  const std::string stem = dir.filename().string();
  StagingDir staging(r.root, stem);
  const fs::path tmp = staging.path();
  std::error_code ec;
  fs::create_directory(tmp / (std::string(kHeader) + ".gch"), ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create {}: {}", shown(tmp), ec.message()));

  write_text(tmp / kHeader, kHeaderText);
  const fs::path log = tmp / "build.log";
  const std::string make = make_command(r, tmp);
  const fs::path gch = tmp / (std::string(kHeader) + ".gch");
  const auto fail = [&](const std::string& what) {
    const fs::path failed = r.root / (stem + ".failed");
    fs::remove_all(failed, ec);
    fs::rename(tmp, failed, ec);
    if (!ec) staging.release();
    throw std::runtime_error(fmt::format("{}; see {}", what, shown((ec ? tmp : failed) / "build.log")));
  };

  // Clang's header records the path of rlroute_pch.h, which is in the
  // staging directory until the rename below: it carries the files it was
  // made from instead.
  std::string targets = clang ? " RLROUTE_PCH_FLAGS='-Xclang -fmodules-embed-all-files'" : "";
  for (const char* level : kLevels) targets += fmt::format(" rlroute-pch-{}", level);
  if (run_shell(fmt::format("{}{} > {} 2>&1", make, targets, shell_quote(log.string()))) != 0) {
    fail("the precompiled header did not build");
  }
  for (const auto& item : fs::directory_iterator(gch, ec)) {
    if (item.path().extension() == ".d") fs::remove(item.path(), ec);  // -MMD's dependency files
  }
  // The compiler must take the precompiled header at every level, or it is
  // only a cost (GCC checks each candidate against the file's flags and
  // marks the one it takes with "!" in -H's list; Clang takes a matching one
  // or stops, and lists verilated.h only if it parses it).
  bool precompiled = true;
  for (const char* level : kLevels) {
    const Captured probe = capture(fmt::format("{} rlroute-probe-{} 2>&1", make, level));
    const std::string gcc_took = "! " + (gch / (std::string(level) + ".gch")).string();
    const bool took = clang ? !lists_verilated_h(probe.out) : probe.out.find(gcc_took) != std::string::npos;
    if (probe.status != 0 || !took) {
      precompiled = false;
      notice(fmt::format("model: the compiler does not take the precompiled verilated.h at level {} ({}); models "
                         "build without it",
                         level, first_line(probe.out)));
    }
  }
  if (!precompiled) fs::remove_all(gch, ec);

  std::string object_targets;
  for (const std::string& o : objects) object_targets += " " + shell_quote(o);
  if (!objects.empty() &&
      run_shell(fmt::format("{}{} >> {} 2>&1", make, object_targets, shell_quote(log.string()))) != 0) {
    fail("Verilator's runtime objects did not build");
  }
  nlohmann::ordered_json files = nlohmann::ordered_json::object();
  const auto as_built = [&](const std::string& name) {
    return nlohmann::ordered_json{{"size", fs::file_size(tmp / name)}, {"crc32", library_checksum(tmp / name)}};
  };
  files[kHeader] = as_built(kHeader);
  if (precompiled) {
    for (const char* level : kLevels) {
      const std::string name = fmt::format("{}.gch/{}.gch", kHeader, level);
      files[name] = as_built(name);
    }
  }
  for (const std::string& o : objects) {
    fs::rename(r.obj / o, tmp / o, ec);
    if (ec) fail(fmt::format("cannot move {} out of the model's directory: {}", shown(o), ec.message()));
    files[o] = as_built(o);
  }
  const nlohmann::ordered_json manifest = {{"key", key}, {"precompiled", precompiled}, {"files", files}};
  write_text(tmp / "manifest.json", manifest.dump(2) + "\n");
  if (fs::exists(dir, ec)) fs::remove_all(dir, ec);
  fs::rename(tmp, dir, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot rename {} to {}: {}", shown(tmp), shown(dir), ec.message()));
  staging.release();
}

}  // namespace

std::optional<PrebuiltRuntime> prebuilt_runtime(const PrebuiltRequest& r, const Log& progress, const Log& notice) {
  try {
    write_text(r.obj / "rlroute_prebuilt.mk", kMakefile);
    const Captured describe = capture(make_command(r, "-") + " rlroute-describe 2>&1");
    if (describe.status != 0) {
      throw std::runtime_error(fmt::format("cannot read the model's makefile: {}", first_line(describe.out)));
    }
    const Captured verilator = capture("verilator --version 2>&1");
    const std::string key = content_hash(
        {{"describe", describe.out}, {"verilator", verilator.out}, {"format", kPrebuiltFormat}});
    const std::string stem = fmt::format("verilated-{}-{}", r.kind, key);
    const fs::path dir = r.root / stem;

    EntryLock lock(r.root / (stem + ".lock"));
    if (!lock.opened()) {
      throw std::runtime_error(fmt::format("cannot create {}.lock: {}", stem, std::strerror(lock.open_errno())));
    }
    lock.lock(r.lock_timeout, notice);
    if (auto p = load(dir, key)) {
      progress(fmt::format("model: cached precompiled header and runtime objects {}", shown(dir)));
      return p;
    }
    if (fs::exists(dir)) notice(fmt::format("model: rebuilding {}: its files do not match its manifest", shown(dir)));
    lock.note(fmt::format("pid {} (building {})", ::getpid(), shown(dir)));
    progress(fmt::format("model: building the precompiled header and runtime objects {} (once per compiler, "
                         "Verilator and flags)",
                         shown(dir)));
    build(r, dir, key, runtime_objects(describe.out), version_says_clang(describe.out),
          notice);
    auto p = load(dir, key);
    if (!p) throw std::runtime_error(fmt::format("the freshly built {} does not match its manifest", shown(dir)));
    return p;
  } catch (const std::exception& ex) {
    notice(fmt::format("model: building without the shared precompiled header and runtime objects: {}", ex.what()));
    return std::nullopt;
  }
}

void install_runtime_objects(const PrebuiltRuntime& p, const fs::path& obj) {
  const auto now = fs::file_time_type::clock::now();
  for (const fs::path& o : p.objects) {
    const fs::path to = obj / o.filename();
    fs::copy_file(o, to, fs::copy_options::overwrite_existing);
    fs::last_write_time(to, now);
  }
}

}  // namespace rlroute::model_cache
