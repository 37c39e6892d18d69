// Traces: per rank, the events it replays in order, from a text file
// (docs/host.md, "Traces", defines the format).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rlroute/host/rank.hpp"

namespace rlroute::host {

struct TraceEvent {
  enum class Kind { Compute, Send, Recv, Barrier, Allreduce, Broadcast, Alltoall };
  Kind kind = Kind::Compute;
  std::int64_t amount = 0;  // cycles (compute) or bytes
  int peer = 0;             // send: to; recv: from; broadcast: the root
  int tag = 0;
};

struct Trace {
  int ranks = 0;
  std::vector<std::vector<TraceEvent>> events;  // [rank]: in replay order
};

// Throws std::invalid_argument "FILE:LINE: <what> (<rule>)" for a line that
// breaks the format, and "FILE: ..." for a missing or unreadable file.
Trace read_trace(const std::string& path);
// The text of a trace in the format read_trace() reads.
std::string write_trace(const Trace& trace);

// Each rank replays its events: point-to-point as given, each collective
// over every rank with tags below 0 (the k-th collective of a rank from
// -64 (k + 1)), which no trace tag can be.
Rank::Body replay(std::shared_ptr<const Trace> trace);

}  // namespace rlroute::host
