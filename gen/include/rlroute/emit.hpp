// SystemVerilog emitter: from a derived Design to a directory of RTL.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "rlroute/design.hpp"

namespace rlroute {

// Emitted files, relative path -> content. Byte-identical for the same config.
struct EmittedDesign {
  std::map<std::string, std::string> files;
  std::string router_top;   // module name of the router top
  std::string network_top;  // module name of the network top
  std::string filelist;     // relative path of the .f file
  std::string hash;         // 16 hex digits over every emitted file
};

// Where the hand-written building blocks live (RLROUTE_RTL_DIR overrides).
std::filesystem::path rtl_source_dir();

// Runs the routing checks and emits; throws ConfigError on a failed check.
EmittedDesign emit_design(const Design& design);

// Writes all files into `dir` atomically: a sibling temporary directory is
// filled and renamed over `dir` only when everything was written.
void write_design(const EmittedDesign& emitted, const std::filesystem::path& dir);

std::string content_hash(const std::map<std::string, std::string>& files);

}  // namespace rlroute
