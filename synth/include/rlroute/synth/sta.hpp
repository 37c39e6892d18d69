// OpenSTA: the parsed timing report and the critical path attributed to blocks.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "rlroute/synth/hierarchy.hpp"

namespace rlroute::synth {

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
  // The worst setup slack of any path through a cell of each instance
  // prefix (the flattened cell name before its last '.'; "-" for the top's
  // own cells), ns; empty if the log has no "slack by instance" section.
  std::vector<std::pair<std::string, double>> slack_by_prefix;
  // Attributed by attribute_path: the worst slack of any path through a
  // module (any instance, its submodules included; module id -> ns) and
  // through a top-level block (block name -> ns).
  std::map<std::string, double> worst_slack_by_module;
  std::map<std::string, double> worst_slack_by_block;
};

// The clock period at which a slack measured at clock_ns would be zero, as
// a frequency (MHz).
double fmax_mhz_for_slack(double clock_ns, double slack_ns);

// Parses the OpenSTA log of synth/sta.tcl. Throws SynthError on "Error:"
// lines or a missing path/slack.
StaResult parse_sta_log(const std::string& text, double clock_ns);

// Fills the block of every pin and endpoint, the delay per block, and the
// worst slack per module and per top-level block.
void attribute_path(StaResult& sta, const Hierarchy& hierarchy);

}  // namespace rlroute::synth
