// GOAL schedules (the text format of LogGOPSim and its Schedgen, which
// writes them for collectives, patterns and MPI traces [Hoefler 2010]),
// converted into a trace (trace.hpp): each rank's operations in an order
// their dependencies allow (docs/host.md, "GOAL schedules").
#pragma once

#include <string>

#include "rlroute/host/trace.hpp"

namespace rlroute::host {

// Throws std::invalid_argument "FILE:LINE: <what>" for what the converter
// cannot read or replay (wildcard receives, an unknown label, a cycle of
// dependencies), "FILE: ..." for a missing file.
Trace read_goal(const std::string& path);

}  // namespace rlroute::host
