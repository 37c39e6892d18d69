// Per-module metrics (cells, area, FPGA resources) and their sums over the hierarchy.
#pragma once

#include <map>
#include <string>

#include "rlroute/synth/hierarchy.hpp"
#include "rlroute/synth/liberty.hpp"
#include "rlroute/synth/yosys.hpp"

namespace rlroute::synth {

using Metrics = std::map<std::string, double>;

// Own metrics of one module from its leaf cells (submodule instances are
// skipped: `is_module` tells them apart).
Metrics generic_metrics(const ModuleStat& stat, const ModuleStat* cmos, const Hierarchy& hierarchy);
Metrics liberty_metrics(const ModuleStat& stat, const LibertyLibrary& library, const Hierarchy& hierarchy,
                        const std::string& module_id);
Metrics fpga_metrics(const ModuleStat& stat, const Hierarchy& hierarchy);

// Sums own metrics over the hierarchy: total(m) = own(m) + sum over the
// instances of m of total(child).
std::map<std::string, Metrics> total_metrics(const Hierarchy& hierarchy, const std::map<std::string, Metrics>& own);

}  // namespace rlroute::synth
