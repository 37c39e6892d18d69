// The module hierarchy of a synthesized netlist and its top-level blocks.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "rlroute/synth/error.hpp"

namespace rlroute::synth {

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

}  // namespace rlroute::synth
