// Parsers of what Yosys prints: stat, ltp, inferred memories and their mapping.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "rlroute/synth/error.hpp"

namespace rlroute::synth {

// A Yosys name without the leading backslash Yosys writes before public names
// in some outputs.
std::string unescape(const std::string& name);

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

}  // namespace rlroute::synth
