// Per-module numbers of each synthesis path, from the cell counts Yosys
// reports, and their sums over the module hierarchy.
#include <fmt/format.h>

#include <functional>
#include <set>

#include "rlroute/synth/metrics.hpp"

namespace rlroute::synth {

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

bool is_submodule(const std::string& type, const Hierarchy& h) { return h.has(type); }

// Yosys's internal flip-flop and latch cells.
bool is_generic_flop(const std::string& type) {
  return starts_with(type, "$_DFF") || starts_with(type, "$_SDFF") || starts_with(type, "$_ALDFF") ||
         starts_with(type, "$_DLATCH") || starts_with(type, "$_SR_") || type == "$_FF_";
}

// The cell types `stat -tech cmos` knows a transistor count for (Yosys 0.23,
// kernel/cost.h); any other leaf cell makes its estimate a lower bound.
const std::set<std::string>& cmos_costed_types() {
  static const std::set<std::string> types = {"$_BUF_",    "$_NOT_",   "$_AND_", "$_NAND_", "$_OR_",    "$_NOR_",
                                              "$_ANDNOT_", "$_ORNOT_", "$_XOR_", "$_XNOR_", "$_AOI3_",  "$_OAI3_",
                                              "$_AOI4_",   "$_OAI4_",  "$_MUX_", "$_NMUX_", "$_DFF_P_", "$_DFF_N_"};
  return types;
}

// LUTs that one LUT-RAM primitive occupies (UltraScale+ CLB user guide UG574).
double lutram_luts(const std::string& type) {
  static const std::map<std::string, double> luts = {
      {"RAM16X1S", 1},  {"RAM16X1D", 2},  {"RAM32X1S", 1},  {"RAM32X1D", 2},  {"RAM64X1S", 1},
      {"RAM64X1D", 2},  {"RAM128X1S", 2}, {"RAM128X1D", 4}, {"RAM256X1S", 4}, {"RAM256X1D", 8},
      {"RAM512X1S", 8}, {"RAM32M", 4},    {"RAM64M", 4},    {"RAM32M16", 8},  {"RAM64M8", 8},
      {"RAM16X8S", 8},  {"RAM32X2S", 2},  {"RAM32X4S", 4},  {"RAM32X8S", 8},  {"RAM64X2S", 2}};
  const auto it = luts.find(type);
  return it == luts.end() ? 1 : it->second;
}

}  // namespace

Metrics generic_metrics(const ModuleStat& stat, const ModuleStat* cmos, const Hierarchy& h) {
  Metrics m{{"cells", 0}, {"flops", 0}, {"transistors", 0}, {"transistors_incomplete", 0}};
  for (const auto& [type, n] : stat.cells_by_type) {
    if (is_submodule(type, h)) continue;
    m["cells"] += static_cast<double>(n);
    if (is_generic_flop(type)) m["flops"] += static_cast<double>(n);
  }
  if (cmos) {
    m["transistors"] = static_cast<double>(cmos->transistors);
    for (const auto& [type, n] : cmos->cells_by_type) {
      if (!is_submodule(type, h) && !cmos_costed_types().count(type)) m["transistors_incomplete"] = 1;
    }
  }
  return m;
}

Metrics liberty_metrics(const ModuleStat& stat, const LibertyLibrary& lib, const Hierarchy& h,
                        const std::string& module_id) {
  Metrics m{{"cells", 0}, {"flops", 0}, {"area_um2", 0}};
  std::string unmapped;
  for (const auto& [type, n] : stat.cells_by_type) {
    if (is_submodule(type, h)) continue;
    const auto it = lib.cells.find(type);
    if (it == lib.cells.end()) {
      unmapped += fmt::format("{}{} x{}", unmapped.empty() ? "" : ", ", type, n);
      continue;
    }
    m["cells"] += static_cast<double>(n);
    m["area_um2"] += static_cast<double>(n) * it->second.area;
    if (it->second.sequential) m["flops"] += static_cast<double>(n);
  }
  if (!unmapped.empty()) {
    throw SynthError(fmt::format("standard-cell mapping left cells the library {} does not have in {}: {}",
                                 lib.path.string(), h.name_of(module_id), unmapped));
  }
  return m;
}

Metrics fpga_metrics(const ModuleStat& stat, const Hierarchy& h) {
  Metrics m{{"lut", 0},    {"ff", 0},     {"lutram", 0}, {"lutram_cells", 0}, {"srl", 0},
            {"bram36", 0}, {"bram18", 0}, {"bram", 0},   {"uram", 0},         {"dsp", 0},
            {"carry", 0},  {"muxf", 0},   {"inv", 0},    {"other", 0},        {"lc", stat.lc}};
  for (const auto& [type, count] : stat.cells_by_type) {
    if (is_submodule(type, h)) continue;
    const double n = static_cast<double>(count);
    if (starts_with(type, "LUT"))
      m["lut"] += n;
    else if (type == "FDRE" || type == "FDSE" || type == "FDCE" || type == "FDPE" || type == "LDCE" || type == "LDPE")
      m["ff"] += n;
    else if (starts_with(type, "RAMB18"))
      m["bram18"] += n;
    else if (starts_with(type, "RAMB36"))
      m["bram36"] += n;
    else if (starts_with(type, "RAM")) {
      m["lutram_cells"] += n;
      m["lutram"] += n * lutram_luts(type);
    } else if (starts_with(type, "SRL"))
      m["srl"] += n;
    else if (starts_with(type, "URAM"))
      m["uram"] += n;
    else if (starts_with(type, "DSP"))
      m["dsp"] += n;
    else if (starts_with(type, "CARRY"))
      m["carry"] += n;
    else if (starts_with(type, "MUXF"))
      m["muxf"] += n;
    else if (type == "INV")
      m["inv"] += n;
    else
      m["other"] += n;
  }
  m["bram"] = m["bram36"] + 0.5 * m["bram18"];  // in RAMB36 equivalents
  return m;
}

std::map<std::string, Metrics> total_metrics(const Hierarchy& h, const std::map<std::string, Metrics>& own) {
  std::map<std::string, Metrics> total;
  std::function<const Metrics&(const std::string&)> visit = [&](const std::string& id) -> const Metrics& {
    const auto done = total.find(id);
    if (done != total.end()) return done->second;
    Metrics sum;
    if (const auto it = own.find(id); it != own.end()) sum = it->second;
    if (h.has(id)) {
      for (const auto& [inst, type] : h.at(id).instances) {
        const Metrics child = visit(type);  // copy: `total` may rehash
        for (const auto& [k, v] : child) sum[k] += v;
      }
    }
    return total[id] = sum;
  };
  for (const auto& id : h.order()) visit(id);
  return total;
}

}  // namespace rlroute::synth
