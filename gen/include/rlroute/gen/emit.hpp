// SystemVerilog emitter: from a derived Design to a directory of RTL.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/files.hpp"
#include "rlroute/gen/routing.hpp"

namespace rlroute {

// Emitted files, relative path -> content. Byte-identical for the same config.
struct EmittedDesign {
  std::map<std::string, std::string> files;
  std::string router_top;   // module name of the router top
  std::string network_top;  // module name of the network top
  std::string filelist;     // relative path of the .f file
  std::string hash;         // 16 hex digits over the compiled text of the RTL (compiled_text) and its order
};

// Where the hand-written building blocks live (RLROUTE_RTL_DIR overrides).
std::filesystem::path rtl_source_dir();

// Runs the routing checks and emits; throws ConfigError on a failed check.
EmittedDesign emit_design(const Design& design);
// The same with the design's relation already built (make_routing_relation).
EmittedDesign emit_design(const Design& design, const RoutingRelation& relation);

// Emits without the routing checks. Only for tests that need RTL the
// generator refuses (a network that really deadlocks, to show the watchdog
// catches it); no rlroute command calls it.
EmittedDesign emit_design_unchecked(const Design& design, const RoutingRelation& relation);
// Writes all files into `dir` (an OutputDirectory: filled beside it, moved
// into place when everything was written; a directory holding files rlroute
// did not write is refused).
void write_design(const EmittedDesign& emitted, const std::filesystem::path& dir);
// Writes all files under `under` in an output directory that is being filled.
void write_design(const EmittedDesign& emitted, const OutputDirectory& out, const std::filesystem::path& under = {});

std::string content_hash(const std::map<std::string, std::string>& files);

// SystemVerilog as Verilator compiles it: comments (but Verilator's own
// `// verilator ...` and `/* verilator ... */`) and blank lines removed,
// trailing blanks trimmed. EmittedDesign::hash is taken over this text.
std::string compiled_text(const std::string& sv);

}  // namespace rlroute
