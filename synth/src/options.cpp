// Options of `rlroute synth`: their checks.
#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "rlroute/synth/options.hpp"

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

}  // namespace rlroute::synth
