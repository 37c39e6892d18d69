// The results of the synthesis paths and the JSON and Markdown reports.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rlroute/synth/block.hpp"
#include "rlroute/synth/hierarchy.hpp"
#include "rlroute/synth/metrics.hpp"
#include "rlroute/synth/sta.hpp"
#include "rlroute/synth/yosys.hpp"

namespace rlroute::synth {

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
  std::optional<BlockChoice> block;  // --block: the one block synthesized instead of the router
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

}  // namespace rlroute::synth
