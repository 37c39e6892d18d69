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
// The flow (flow.cpp) writes the RTL, the tool scripts (filled from the
// templates in synth/) and every tool log into the output directory, parses
// the tools' outputs (yosys.cpp, sta.cpp), sums them over the
// module hierarchy (hierarchy.cpp, metrics.cpp) and writes a JSON
// and a Markdown report (report.cpp). docs/synthesis.md explains it.
#pragma once

#include "rlroute/synth/options.hpp"
#include "rlroute/synth/report.hpp"

namespace rlroute::synth {

// Emits the RTL of the config and runs the selected paths. On success the
// output directory holds synth.json, synth.md, design/ (the emitted RTL) and
// logs/; on a tool error it holds only design/ and logs/. Throws SynthError
// (or ConfigError).
SynthReport run_synth(const SynthOptions& options);

}  // namespace rlroute::synth
