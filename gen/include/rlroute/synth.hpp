// `rlroute synth`: costs the emitted RTL with Yosys 0.23 and OpenSTA, keeping
// the hierarchy so that every block is reported on its own.
//
//   generic        Yosys `synth`: technology-independent cells, `stat -tech
//                  cmos` transistors, `ltp` logic depth, inferred memories
//   standard cells `dfflibmap` + `abc -liberty` onto a Liberty library
//                  (synth/rlroute45.lib unless --liberty), area in um^2;
//                  OpenSTA: worst slack, critical path, Fmax
//   FPGA           `synth_xilinx -family xcup` (Zynq UltraScale+): LUT, FF,
//                  LUTRAM, BRAM, DSP
//
// The flow (synth_flow.cpp) writes the RTL, the tool scripts (filled from the
// templates in synth/) and every tool log into the output directory, parses
// the tools' outputs (synth_yosys.cpp, synth_sta.cpp), sums them over the
// module hierarchy (synth_hierarchy.cpp, synth_metrics.cpp) and writes a JSON
// and a Markdown report (synth_report.cpp). docs/synthesis.md explains it.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rlroute::synth {

// Every synth error is one line naming the option, file or tool at fault.
class SynthError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------
// Command line (synth_command.cpp)

struct SynthOptions {
  std::string config;                          // TOML file
  std::string liberty;                         // empty: synth/rlroute45.lib
  std::string clock_ns = "2.0";                // target clock period, text as given
  std::string json;                            // optional: also write the JSON report here
  std::string out_dir;                         // empty: out/synth/<config name>
  std::string paths = "generic,liberty,fpga";  // which flows to run
  bool quiet = false;                          // no progress lines, no table on stdout
};

// Runs the command: prints the Markdown table, returns the exit code (0, or 1
// after printing "rlroute: error: <reason>" on stderr).
int synth_command(const SynthOptions& options);

// Parses --clock-ns: a finite number of nanoseconds > 0, else SynthError.
double parse_clock_ns(const std::string& text);

struct PathSelection {
  bool generic = false;
  bool liberty = false;
  bool fpga = false;
};
// Parses --paths, a comma-separated subset of generic, liberty, fpga.
PathSelection parse_paths(const std::string& text);

// ---------------------------------------------------------------------------
// Tools (synth_process.cpp)

struct ProcessResult {
  int exit_code = -1;  // exit status; 128 + signal if killed; 127 if it could not start
  double seconds = 0;  // wall time
};

// Runs argv[0] (searched in PATH) in `cwd` with stdin from /dev/null and
// stdout + stderr into `log` (truncated first).
ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                          const std::filesystem::path& log);

// The program's path if it is an executable found in PATH.
std::optional<std::filesystem::path> find_program(const std::string& name);

// First line of a file that matches `marker` (e.g. "ERROR:"), trimmed; empty if none.
std::string first_line_with(const std::filesystem::path& file, const std::string& marker);

// ---------------------------------------------------------------------------
// Script templates (synth_templates.cpp)

// Directory with the templates and the default Liberty: $RLROUTE_SYNTH_DIR, or
// synth/ next to the rtl/ directory the generator was built from.
std::filesystem::path synth_dir();

// Replaces every {{KEY}} in `text`; throws SynthError for a placeholder
// without a value (a template and the code disagree).
std::string fill_template(const std::string& text, const std::map<std::string, std::string>& values,
                          const std::string& template_name);

// Reads synth/<name> and fills it.
std::string render_template(const std::string& name, const std::map<std::string, std::string>& values);

// ---------------------------------------------------------------------------
// Liberty files (synth_liberty.cpp): enough of the format to check a library
// before any tool runs and to pick its tie and buffer cells.

struct LibertyCell {
  std::string name;
  double area = 0;
  bool has_area = false;
  bool sequential = false;  // has an ff or latch group
  bool dont_use = false;
  std::vector<std::string> inputs;
  std::map<std::string, std::string> outputs;  // pin -> function ("" if none)
};

struct LibertyLibrary {
  std::string name;
  std::filesystem::path path;
  std::map<std::string, LibertyCell> cells;

  // Smallest usable cells: constant 1 / constant 0 drivers (cell, pin) and a
  // buffer (cell, input pin, output pin). Empty when the library has none.
  std::pair<std::string, std::string> tie_high() const;
  std::pair<std::string, std::string> tie_low() const;
  std::string buffer() const;
};

// Reads and checks a Liberty file; `option` names the command-line option in
// errors ("--liberty"). Throws SynthError: missing/unreadable file, syntax
// error (with line), no cells, no flip-flop, no combinational cell.
LibertyLibrary read_liberty(const std::filesystem::path& path, const std::string& option);
LibertyLibrary parse_liberty(const std::string& text, const std::filesystem::path& path, const std::string& option);

// ---------------------------------------------------------------------------
// The module hierarchy of a netlist (synth_hierarchy.cpp)

struct NetlistModule {
  std::string id;                                              // Yosys name ($paramod$...\rr_fifo)
  std::string hdlname;                                         // name in the RTL (rr_fifo)
  std::map<std::string, std::string> parameters;               // decoded values
  std::vector<std::pair<std::string, std::string>> instances;  // instance name, module id
  std::string name;                                            // readable and unique (name_modules)
};

struct Hierarchy {
  std::string top;  // module id
  std::map<std::string, NetlistModule> modules;

  bool has(const std::string& id) const { return modules.count(id) > 0; }
  const NetlistModule& at(const std::string& id) const;
  std::string name_of(const std::string& id) const;  // readable name, or the id if unknown
  // Modules reachable from the top, depth first, each once (top first).
  std::vector<std::string> order() const;
  // How many instances of each module the top contains (top: 1).
  std::map<std::string, long> instance_counts() const;
  // Depth of each module below the top (top: 0), first occurrence.
  std::map<std::string, int> levels() const;
  // Flattened instance path ("i_core.gen_in[0].i_input") -> module id.
  std::map<std::string, std::string> instance_paths() const;
  // Module ids of the instances a flattened cell or pin name lies in, from the
  // top's child down to its owner (empty for the top's own cells): the
  // instance paths that prefix the name.
  std::vector<std::string> owner_chain(const std::string& flat_name,
                                       const std::map<std::string, std::string>& instance_paths) const;
  // Module id of the instance that owns a flattened name (the top for its own cells).
  std::string owner_of(const std::string& flat_name, const std::map<std::string, std::string>& instance_paths) const;

  // The router core: the shallowest module that instantiates at least three
  // different RTL modules (rr_router: input ports, allocators, output
  // ports), or the top if there is none.
  std::string core() const;
  // Whether a module is the core or lies on the way from the top to it.
  bool contains_core(const std::string& id) const;
  // Top-level block of a flattened name: the RTL module name of the first
  // instance on its chain that is off the way to the core (a child of the core
  // or a sibling branch such as a route unit), or "<module> (own logic)" for
  // cells of the core and of the modules above it.
  std::string block_of(const std::string& flat_name, const std::map<std::string, std::string>& instance_paths) const;
};

// The router's top-level blocks: a partition of its logic into the own logic
// of the core and of the modules above it, and every other instance they hold
// (the core's children, sibling branches such as route units), each with its
// submodules. Specializations of one RTL module form one block.
struct BlockPart {
  std::string module;  // module id
  long instances = 0;
  bool subtree = true;  // the module with its submodules, or its own cells only
};
struct TopBlock {
  std::string name;  // RTL module name; "<module> (own logic)" for the core and the modules above it
  std::vector<BlockPart> parts;
};
std::vector<TopBlock> top_blocks(const Hierarchy& hierarchy);

// From the JSON written by Yosys `json -o FILE x:* * %C %u` (every module with
// its ports and its submodule instances). Throws SynthError.
Hierarchy parse_hierarchy(const nlohmann::json& yosys_json, const std::string& top);

// Gives every module a readable unique name: its RTL name, plus the
// parameters that tell apart several specializations of the same module,
// e.g. rr_arbiter_rr(N=5).
void name_modules(Hierarchy& hierarchy);

// Yosys parameter value (binary string, or string) as text: "8", "1'b1" style
// values become decimal when they are plain bit strings.
std::string decode_parameter(const nlohmann::json& value);

// ---------------------------------------------------------------------------
// Yosys outputs (synth_yosys.cpp)

// j[key] if j is an object that has it, else an empty object (a reference
// that lives as long as j, so it can be iterated).
const nlohmann::json& json_member(const nlohmann::json& j, const std::string& key);

struct ModuleStat {
  std::map<std::string, long> cells_by_type;  // leaf cells and submodule instances
  long transistors = 0;                       // `stat -tech cmos`, this module's own cells
  bool transistors_exact = true;              // no "+" for this module's own cells
  double lc = 0;                              // `stat -tech xilinx` estimated logic cells
};

// Parses `stat -json` output (Yosys 0.23 prints the text hierarchy tree into
// the JSON when a top module is set; those lines are dropped). Keys are
// module ids without Yosys's leading backslash.
std::map<std::string, ModuleStat> parse_stat_json(const std::string& text, const std::string& source);

// Parses the `ltp -noff` lines: module id -> longest path length in cells.
std::map<std::string, int> parse_ltp(const std::string& text);

struct InferredMemory {
  std::string module;  // module id
  std::string name;    // memory name in the RTL (mem_q)
  long depth = 0;      // words
  long width = 0;      // bits per word
  int read_ports = 0;
  int async_read_ports = 0;  // read ports without a clock (combinational read)
  int write_ports = 0;
  std::string source;  // file:line of the declaration
};

// Memories ($mem_v2 cells) from `json -o FILE t:$mem_v2` after `memory -nomap`.
std::vector<InferredMemory> parse_memories(const nlohmann::json& yosys_json);

// "mapping memory MODULE.MEMORY via CELL" lines of memory_libmap: (module id,
// memory) -> the RAM cell type chosen ($__XILINX_LUTRAM_SDP_, ...).
std::map<std::pair<std::string, std::string>, std::string> parse_memory_mapping(const std::string& log_text);

// ---------------------------------------------------------------------------
// Per-module metrics (synth_metrics.cpp)

using Metrics = std::map<std::string, double>;

// Own metrics of one module from its leaf cells (submodule instances are
// skipped: `is_module` tells them apart).
Metrics generic_metrics(const ModuleStat& stat, const ModuleStat* cmos, const Hierarchy& hierarchy);
Metrics liberty_metrics(const ModuleStat& stat, const LibertyLibrary& library, const Hierarchy& hierarchy,
                        const std::string& module_id);
Metrics fpga_metrics(const ModuleStat& stat, const Hierarchy& hierarchy);

// Sums own metrics over the hierarchy: total(m) = own(m) + sum over the
// instances of m of total(child).
std::map<std::string, Metrics> total_metrics(const Hierarchy& hierarchy, const std::map<std::string, Metrics>& own);

// ---------------------------------------------------------------------------
// OpenSTA (synth_sta.cpp)

struct PathPoint {
  std::string pin;     // flattened pin name, e.g. i_core.i_sw_alloc._239_/ZN, or a port
  std::string cell;    // library cell, "in"/"out" for ports
  char edge = '^';     // ^ rise, v fall
  double delay = 0;    // ns, increment
  double arrival = 0;  // ns
  std::string module;  // readable name of the module that owns the pin
  std::string block;   // top-level block that owns it (top_blocks)
};

struct EndpointSlack {
  std::string pin;
  double slack = 0;
  std::string module;
  std::string block;
};

struct StaResult {
  double clock_ns = 0;
  double worst_slack_ns = 0;
  double tns_ns = 0;
  double arrival_ns = 0;   // data arrival time of the critical path
  double critical_ns = 0;  // clock period at which the worst slack is zero
  double fmax_mhz = 0;
  std::string startpoint, endpoint;
  std::string start_block, end_block;  // top-level blocks
  std::vector<PathPoint> path;
  std::vector<std::pair<std::string, double>> delay_by_block;   // top-level blocks, largest first
  std::vector<std::pair<std::string, double>> delay_by_module;  // modules (own logic), largest first
  std::vector<EndpointSlack> worst_endpoints;
};

// Parses the OpenSTA log of synth/sta.tcl. Throws SynthError on "Error:"
// lines or a missing path/slack.
StaResult parse_sta_log(const std::string& text, double clock_ns);

// Fills the block of every pin and endpoint and the delay per block.
void attribute_path(StaResult& sta, const Hierarchy& hierarchy);

// ---------------------------------------------------------------------------
// Results and report (synth_report.cpp)

struct PathResult {
  double seconds = 0;                    // wall time of the tools of this path
  Hierarchy hierarchy;                   // as this path's netlist has it
  std::map<std::string, Metrics> own;    // per module id, own cells only
  std::map<std::string, Metrics> total;  // per module id, submodules included
  std::vector<std::string> logs;         // relative to the output directory
};

struct GenericResult : PathResult {
  std::map<std::string, int> depth;  // per module id, flattened
  std::vector<InferredMemory> memories;
};

struct LibertyResult : PathResult {
  std::string library_name;
  std::string library_path;
  double yosys_seconds = 0;
  double sta_seconds = 0;
  StaResult sta;
};

struct FpgaResult : PathResult {
  std::string family = "xcup";
  std::map<std::pair<std::string, std::string>, std::string> memory_mapping;
};

struct SynthReport {
  std::string config_name;
  std::string config_file;
  std::string description;  // topology, e.g. "4x4 torus, 1 node per router"
  std::string router_top;   // module name of the router top
  std::string rtl_hash;
  int ports = 0, vcs = 0, buffer_flits = 0, flit_bits = 0;
  double clock_ns = 0;
  std::string out_dir;
  std::string yosys_version, sta_version;
  std::optional<GenericResult> generic;
  std::optional<LibertyResult> liberty;
  std::optional<FpgaResult> fpga;
  double seconds = 0;

  // The hierarchy used for the block list: the first path that ran.
  const Hierarchy& hierarchy() const;
};

nlohmann::ordered_json report_json(const SynthReport& report);
std::string report_markdown(const SynthReport& report);

// The top-level block (top_blocks) and the single module (own cells x
// instances) with the largest share of the router's area: by um^2 if the
// standard-cell path ran, else generic cells, else LUT + LUTRAM.
std::string area_dominant_block(const SynthReport& report);
std::string area_dominant_module(const SynthReport& report);

// ---------------------------------------------------------------------------
// The flow (synth_flow.cpp)

// Emits the RTL of the config and runs the selected paths. On success the
// output directory holds synth.json, synth.md, design/ (the emitted RTL) and
// logs/; on a tool error it holds only design/ and logs/. Throws SynthError
// (or ConfigError).
SynthReport run_synth(const SynthOptions& options);

}  // namespace rlroute::synth
