// `rlroute synth` on the command line: option checks, the run, the output.
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include "rlroute/synth.hpp"

namespace fs = std::filesystem;

namespace rlroute::synth {

double parse_clock_ns(const std::string& text) {
  double v = 0;
  std::size_t used = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  // 10 ps (100 GHz) to 1 us (1 MHz): outside that no process is meant, and ABC's
  // target (whole picoseconds) would round to 0 below 0.5 ps.
  if (text.empty() || used != text.size() || !std::isfinite(v) || !(v >= 0.01 && v <= 1000.0)) {
    throw SynthError(fmt::format(
        "--clock-ns {}: the clock period must be a positive number of nanoseconds from 0.01 to 1000", text));
  }
  return v;
}

PathSelection parse_paths(const std::string& text) {
  PathSelection p;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item == "generic")
      p.generic = true;
    else if (item == "liberty")
      p.liberty = true;
    else if (item == "fpga")
      p.fpga = true;
    else
      throw SynthError(fmt::format("--paths {}: unknown path \"{}\" (use generic, liberty, fpga)", text, item));
  }
  if (!p.generic && !p.liberty && !p.fpga) throw SynthError(fmt::format("--paths {}: name at least one path", text));
  return p;
}

int synth_command(const SynthOptions& options) {
  try {
    const SynthReport report = run_synth(options);
    if (!options.json.empty()) {
      const fs::path out = options.json;
      const fs::path tmp = out.string() + ".tmp";
      {
        std::ofstream f(tmp);
        f << report_json(report).dump(2) << "\n";
        if (!f) throw SynthError(fmt::format("--json {}: cannot write", out.string()));
      }
      fs::rename(tmp, out);
    }
    if (!options.quiet) {
      std::cout << report_markdown(report);
      std::cerr << fmt::format("rlroute: report in {}/synth.md and synth.json, tool logs in {}/logs ({:.1f} s)\n",
                               report.out_dir, report.out_dir, report.seconds);
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "rlroute: error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace rlroute::synth
