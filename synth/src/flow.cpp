// The `rlroute synth` flow: emit the RTL, run the three synthesis paths with
// the scripts from synth/, parse their outputs into a SynthReport.
//
// Everything is written into a sibling work directory (DIR.rlroute-tmp) that
// is renamed over the output directory at the end. On an error the output
// directory receives only design/ and logs/ (the inputs and logs of the run that
// failed), never a report.
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/emit.hpp"
#include "rlroute/gen/files.hpp"
#include "rlroute/synth/block.hpp"
#include "rlroute/synth/flow.hpp"
#include "rlroute/synth/liberty.hpp"
#include "rlroute/synth/process.hpp"
#include "rlroute/synth/templates.hpp"

namespace fs = std::filesystem;

namespace rlroute::synth {

namespace {

constexpr const char* kClockPort = "clk_i";  // DESIGN.md section 8 port names
constexpr const char* kResetPort = "rst_ni";
constexpr const char* kFpgaFamily = "xcup";
constexpr const char* kFpgaFamilyName = "Zynq UltraScale+ (UltraScale+ fabric)";
constexpr double kInputTransitionNs = 0.02;  // SDC: slew at the router's inputs
constexpr double kOutputLoad = 2.0;          // SDC and ABC: load on every output (library units, fF)

// Tool outputs (netlist JSON, logs) stay well below this.
constexpr std::size_t kMaxToolOutputBytes = std::size_t{1} << 30;

std::string read_file(const fs::path& path) {
  try {
    return read_regular_file(path, kMaxToolOutputBytes, "tool output");
  } catch (const std::runtime_error& e) {
    throw SynthError(e.what());
  }
}

nlohmann::json read_json(const fs::path& path) {
  try {
    return nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::exception& e) {
    throw SynthError(fmt::format("{}: cannot parse: {}", path.string(), e.what()));
  }
}

// After an error the output directory keeps only design/ and logs/ (the
// inputs and the logs of the run that failed).
void keep_inputs_and_logs(const OutputDirectory& out) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(out.work(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name != "design" && name != "logs") fs::remove_all(entry.path(), ec);
  }
}

fs::path require_program(const std::string& name, const std::string& package) {
  const auto path = find_program(name);
  if (!path) {
    throw SynthError(
        fmt::format("{} not found in PATH (install the Debian package: apt-get install {}; "
                    "scripts/setup.sh does it)",
                    name, package));
  }
  return *path;
}

std::string fmt_num(double v) { return fmt::format("{:.4f}", v); }

class Flow {
 public:
  Flow(const SynthOptions& options, double clock_ns, const EmittedDesign& emitted, OutputDirectory& out)
      : o_(options), clock_ns_(clock_ns), out_(out) {
    router_ = emitted.router_top;
    top_ = router_;
    std::stringstream filelist(emitted.files.at(emitted.filelist));
    std::string line;
    while (std::getline(filelist, line)) {
      if (line.empty() || line.rfind("//", 0) == 0) continue;
      sources_ += (sources_.empty() ? "" : " ") + ("design/" + line);
    }
    read_ = fmt::format("read_verilog -sv {}\nhierarchy -check -top {}", sources_, router_);
  }

  void log(const std::string& line) const {
    if (!o_.quiet) std::cerr << "rlroute: " << line << "\n";
  }

  // Runs a tool in the work directory with its output in logs/<log_name>;
  // a non-zero exit is an error naming the tool's first error line and log.
  ProcessResult run_tool(const std::string& what, const std::vector<std::string>& argv, const std::string& log_name) {
    const ProcessResult r = run_process(argv, out_.work(), out_.work() / "logs" / log_name);
    if (r.exit_code != 0) {
      std::string reason = first_line_with(out_.work() / "logs" / log_name, "ERROR:");
      if (reason.empty()) reason = first_line_with(out_.work() / "logs" / log_name, "Error:");
      if (reason.empty()) reason = fmt::format("exit code {}", r.exit_code);
      throw SynthError(
          fmt::format("{} failed: {} (log: {})", what, reason, (out_.target() / "logs" / log_name).string()));
    }
    return r;
  }

  // Writes logs/<script_name> from its template and runs Yosys on it.
  ProcessResult run_yosys(const std::string& what, const std::string& script_name,
                          const std::map<std::string, std::string>& values) {
    const std::string stem = fs::path(script_name).stem().string();
    out_.write(fs::path("logs") / script_name, render_template(script_name, values));
    return run_tool(what, {"yosys", "-s", "logs/" + script_name}, stem + ".log");
  }

  std::map<std::string, std::string> common() const {
    return {{"CONFIG", o_.config}, {"SOURCES", sources_}, {"ROUTER", router_}, {"TOP", top_}, {"READ", read_}};
  }

  // --block: elaborates the router, chooses the block's specialization and
  // makes it the top of every path that follows.
  BlockChoice choose(const BlockRequest& request) {
    log(fmt::format("--block {}: yosys elaborates the router ...", request.module));
    run_yosys("yosys (elaborating the router for --block)", "elaborate.ys", common());
    Hierarchy router = parse_hierarchy(read_json(out_.work() / "logs" / "elaborated_hier.json"), router_);
    name_modules(router);
    const BlockChoice block = choose_block(router, request);
    top_ = block.module;
    read_ = "read_rtlil logs/elaborated.il\n" + block_yosys_lines(block);
    log(fmt::format("--block {}: {} (specialization {} of {}, {} instance(s) in the router)", request.module,
                    block.name, block.variant, block.variants, block.instances));
    return block;
  }

  GenericResult generic() {
    GenericResult g;
    log("generic path: yosys synth ...");
    g.seconds += run_yosys("yosys (generic path)", "generic.ys", common()).seconds;
    const fs::path logs = out_.work() / "logs";
    g.hierarchy = parse_hierarchy(read_json(logs / "generic_hier.json"), top_);
    name_modules(g.hierarchy);
    const auto stat = parse_stat_json(read_file(logs / "generic_stat.json"), "logs/generic_stat.json");
    const auto cmos = parse_stat_json(read_file(logs / "generic_cmos.json"), "logs/generic_cmos.json");
    for (const auto& id : g.hierarchy.order()) {
      const auto it = stat.find(id);
      if (it == stat.end()) continue;
      const auto c = cmos.find(id);
      g.own[id] = generic_metrics(it->second, c == cmos.end() ? nullptr : &c->second, g.hierarchy);
    }
    g.total = total_metrics(g.hierarchy, g.own);
    g.memories = parse_memories(read_json(logs / "memories.json"));

    // Logic depth: one flattened copy per module.
    std::string blocks;
    for (const auto& id : g.hierarchy.order()) {
      blocks += fmt::format(
          "\n# {}\ndesign -load synthesized\nhierarchy -top {}\nflatten\ntee -q -a logs/depth.txt ltp -noff\n",
          g.hierarchy.name_of(id), id);
    }
    auto values = common();
    values["PER_MODULE"] = blocks;
    fs::remove(logs / "depth.txt");
    g.seconds += run_yosys("yosys (generic path, logic depth)", "depth.ys", values).seconds;
    g.depth = parse_ltp(read_file(logs / "depth.txt"));
    g.logs = {"logs/generic.log", "logs/depth.log"};
    log(fmt::format("generic path: {:.1f} s", g.seconds));
    return g;
  }

  LibertyResult liberty(const LibertyLibrary& lib) {
    LibertyResult r;
    r.library_name = lib.name;
    r.library_path = fs::absolute(lib.path).lexically_normal().string();
    log(fmt::format("standard-cell path: yosys dfflibmap + abc onto {} ...", lib.path.string()));
    const fs::path logs = out_.work() / "logs";
    auto values = common();
    values["LIBERTY"] = r.library_path;
    values["CLOCK_PS"] = fmt::format("{:.0f}", clock_ns_ * 1000.0);
    // read_liberty refuses a library without a buffer: ABC's &nf needs one.
    const std::string buffer = lib.buffer();
    out_.write("logs/abc.constr",
               render_template("abc.constr", {{"BUFFER", buffer}, {"LOAD", fmt::format("{}", kOutputLoad)}}));
    values["ABC"] = fmt::format("abc -D {} -constr logs/abc.constr -liberty {} -script logs/liberty.abc",
                                values["CLOCK_PS"], r.library_path);
    out_.write("logs/liberty.abc",
               render_template("liberty.abc", {{"CONFIG", values["CONFIG"]}, {"CLOCK_PS", values["CLOCK_PS"]}}));
    const auto hi = lib.tie_high();
    const auto lo = lib.tie_low();
    if (!hi.first.empty() && !lo.first.empty()) {
      values["HILOMAP"] =
          fmt::format("hilomap -singleton -hicell {} {} -locell {} {}", hi.first, hi.second, lo.first, lo.second);
    } else {
      values["HILOMAP"] = "# no tie-high/tie-low cells in the library: constants stay 1'b0/1'b1 in the netlist";
    }
    r.yosys_seconds = run_yosys("yosys (standard-cell path)", "liberty.ys", values).seconds;
    r.hierarchy = parse_hierarchy(read_json(logs / "liberty_hier.json"), top_);
    name_modules(r.hierarchy);
    const auto stat = parse_stat_json(read_file(logs / "liberty_stat.json"), "logs/liberty_stat.json");
    for (const auto& id : r.hierarchy.order()) {
      const auto it = stat.find(id);
      if (it != stat.end()) r.own[id] = liberty_metrics(it->second, lib, r.hierarchy, id);
    }
    r.total = total_metrics(r.hierarchy, r.own);

    log("standard-cell path: OpenSTA ...");
    out_.write("logs/constraints.sdc",
               render_template("constraints.sdc", {{"CONFIG", o_.config},
                                                   {"TOP", top_},
                                                   {"CLOCK_NS", fmt_num(clock_ns_)},
                                                   {"CLOCK_PORT", kClockPort},
                                                   {"RESET_PORT", kResetPort},
                                                   {"INPUT_TRANSITION", fmt::format("{}", kInputTransitionNs)},
                                                   {"OUTPUT_LOAD", fmt::format("{}", kOutputLoad)}}));
    out_.write("logs/sta.tcl",
               render_template("sta.tcl", {{"CONFIG", o_.config}, {"TOP", top_}, {"LIBERTY", r.library_path}}));
    r.sta_seconds = run_tool("OpenSTA", {"sta", "-no_init", "-exit", "logs/sta.tcl"}, "sta.log").seconds;
    try {
      r.sta = parse_sta_log(read_file(logs / "sta.log"), clock_ns_);
    } catch (const SynthError& e) {
      throw SynthError(fmt::format("{} (log: {})", e.what(), (out_.target() / "logs" / "sta.log").string()));
    }
    attribute_path(r.sta, r.hierarchy);
    r.seconds = r.yosys_seconds + r.sta_seconds;
    r.logs = {"logs/liberty.log", "logs/sta.log"};
    log(fmt::format("standard-cell path: {:.1f} s (yosys {:.1f} s, OpenSTA {:.1f} s)", r.seconds, r.yosys_seconds,
                    r.sta_seconds));
    return r;
  }

  FpgaResult fpga() {
    FpgaResult f;
    f.family = kFpgaFamily;
    log(fmt::format("FPGA path: yosys synth_xilinx -family {} ...", kFpgaFamily));
    auto values = common();
    values["FAMILY"] = kFpgaFamily;
    values["FAMILY_NAME"] = kFpgaFamilyName;
    f.seconds = run_yosys("yosys (FPGA path)", "fpga.ys", values).seconds;
    const fs::path logs = out_.work() / "logs";
    f.hierarchy = parse_hierarchy(read_json(logs / "fpga_hier.json"), top_);
    name_modules(f.hierarchy);
    const auto stat = parse_stat_json(read_file(logs / "fpga_stat.json"), "logs/fpga_stat.json");
    for (const auto& id : f.hierarchy.order()) {
      const auto it = stat.find(id);
      if (it != stat.end()) f.own[id] = fpga_metrics(it->second, f.hierarchy);
    }
    f.total = total_metrics(f.hierarchy, f.own);
    f.memory_mapping = parse_memory_mapping(read_file(logs / "fpga.log"));
    f.logs = {"logs/fpga.log"};
    log(fmt::format("FPGA path: {:.1f} s", f.seconds));
    return f;
  }

  std::string version(const std::vector<std::string>& argv, const std::string& log_name) {
    const ProcessResult r = run_process(argv, out_.work(), out_.work() / "logs" / log_name);
    if (r.exit_code != 0) return "";
    std::string text = read_file(out_.work() / "logs" / log_name);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text.substr(0, text.find('\n'));
  }

 private:
  const SynthOptions& o_;
  double clock_ns_;
  OutputDirectory& out_;
  std::string router_;  // the router's top module
  std::string top_;     // the top of the synthesized design: the router, or the block
  std::string sources_;
  std::string read_;  // the scripts' first lines: read and elaborate the router, or load the block
};

}  // namespace

const Hierarchy& SynthReport::hierarchy() const {
  if (generic) return generic->hierarchy;
  if (liberty) return liberty->hierarchy;
  if (fpga) return fpga->hierarchy;
  throw SynthError("no synthesis path ran");
}

SynthReport run_synth(const SynthOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const double clock_ns = parse_clock_ns(o.clock_ns);
  const PathSelection paths = parse_paths(o.paths);
  std::optional<BlockRequest> block;
  if (!o.block.empty()) block = parse_block(o.block);
  const Config cfg = load_config(o.config);
  const Design design = derive_design(cfg);
  const EmittedDesign emitted = emit_design(design);

  // Check the library and the tools before writing anything.
  std::optional<LibertyLibrary> lib;
  if (paths.liberty) {
    const bool own = !o.liberty.empty();
    const fs::path lib_path = own ? fs::path(o.liberty) : synth_dir() / "rlroute45.lib";
    lib = read_liberty(lib_path, own ? "--liberty" : "default library");
    if (fs::absolute(lib_path).string().find_first_of(" \t\"") != std::string::npos) {
      throw SynthError(
          fmt::format("--liberty {}: the Yosys scripts cannot take a path with spaces or quotes", lib_path.string()));
    }
    require_program("sta", "opensta");
  }
  require_program("yosys", "yosys");

  const InterruptGuard interrupts;
  OutputDirectory out(o.out_dir.empty() ? fs::path("out") / "synth" / cfg.name : fs::path(o.out_dir), "-o");
  fs::create_directories(out.work() / "logs");
  SynthReport report;
  report.config_name = cfg.name;
  report.config_file = o.config;
  report.description = design.topo.describe();
  report.router_top = emitted.router_top;
  report.rtl_hash = emitted.hash;
  report.ports = design.ports;
  report.vcs = design.vcs;
  report.buffer_flits = design.buffer_flits;
  report.flit_bits = design.flit_bits;
  report.clock_ns = clock_ns;
  report.out_dir = out.target().string();
  try {
    write_design(emitted, out, "design");
    Flow flow(o, clock_ns, emitted, out);
    if (block) report.block = flow.choose(*block);
    report.yosys_version = flow.version({"yosys", "-V"}, "yosys_version.log");
    if (paths.liberty) report.sta_version = "OpenSTA " + flow.version({"sta", "-version"}, "sta_version.log");
    if (paths.generic) report.generic = flow.generic();
    if (paths.liberty) report.liberty = flow.liberty(*lib);
    if (paths.fpga) report.fpga = flow.fpga();
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out.write("synth.json", report_json(report).dump(2) + "\n");
    out.write("synth.md", report_markdown(report));
    throw_if_interrupted();
  } catch (const SynthNothingKept&) {
    throw;  // a bad --block, an interrupt: the work directory goes with `out`
  } catch (...) {
    keep_inputs_and_logs(out);
    out.commit();
    throw;
  }
  out.commit();
  return report;
}

}  // namespace rlroute::synth
