// Options of `rlroute synth` and their checks.
#pragma once

#include <string>

#include "rlroute/synth/error.hpp"

namespace rlroute::synth {

struct SynthOptions {
  std::string config;                          // TOML file
  std::string liberty;                         // empty: synth/rlroute45.lib
  std::string clock_ns = "2.0";                // target clock period, text as given
  std::string json;                            // optional: also write the JSON report here
  std::string out_dir;                         // empty: out/synth/<config name>
  std::string paths = "generic,liberty,fpga";  // which flows to run
  std::string block;                           // empty: the whole router; else NAME[:K] (block.hpp)
  bool quiet = false;                          // no progress lines, no table on stdout
};

// Parses --clock-ns: a finite number of nanoseconds > 0, else SynthError.
double parse_clock_ns(const std::string& text);

struct PathSelection {
  bool generic = false;
  bool liberty = false;
  bool fpga = false;
};
// Parses --paths, a comma-separated subset of generic, liberty, fpga.
PathSelection parse_paths(const std::string& text);

}  // namespace rlroute::synth
