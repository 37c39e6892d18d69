// `rlroute synth --block NAME[:K]`: one block of the router synthesized on
// its own, with the parameters the router gives it, so that a router too
// large for one run (dfly(4,8,4,33)'s 15-port routers) can be costed block by
// block. The router is elaborated first (logs/elaborate.ys); its
// specializations of NAME are listed in the order of the router's hierarchy
// (depth first), and K picks one when there are several.
#pragma once

#include <optional>
#include <string>

#include "rlroute/synth/hierarchy.hpp"

namespace rlroute::synth {

struct BlockRequest {
  std::string module;          // RTL module name, e.g. rr_q_unit
  std::optional<int> variant;  // K of NAME:K
};

// Parses --block: an RTL module name, optionally ":K" with K >= 0. Throws SynthError.
BlockRequest parse_block(const std::string& text);

struct BlockChoice {
  std::string module;  // RTL module name; the synthesized top is renamed to it
  std::string id;      // the router's specialization (Yosys: $paramod$<hash>\rr_q_unit)
  std::string name;    // readable name (name_modules), e.g. rr_output_port(HEAD=1)
  int variant = 0;
  int variants = 1;    // specializations of the module in the router
  long instances = 0;  // instances of this specialization in the router
};

// A --block that names no block of this router (found only once the router
// is elaborated): bad input, so the output directory is left untouched.
class BadBlock : public SynthNothingKept {
 public:
  using SynthNothingKept::SynthNothingKept;
};

// Picks the requested specialization from the elaborated router's hierarchy.
// Throws BadBlock naming the choices when the module is unknown, when it
// has several specializations and no K was given, or when K is out of range.
BlockChoice choose_block(const Hierarchy& router, const BlockRequest& request);

// The Yosys lines that make the chosen specialization the design's top,
// under its RTL module name.
std::string block_yosys_lines(const BlockChoice& block);

}  // namespace rlroute::synth
