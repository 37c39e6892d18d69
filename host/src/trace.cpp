#include "rlroute/host/trace.hpp"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "rlroute/host/collectives.hpp"

namespace rlroute::host {

namespace {

// A trace's ranks and tags stay below this: tags below 0 are the collectives'.
constexpr std::int64_t kMaxTraceValue = std::int64_t{1} << 30;

struct LineReader {
  std::string where;  // "FILE:LINE"
  std::vector<std::string> words;
  [[noreturn]] void fail(const std::string& what) const { throw std::invalid_argument(where + ": " + what); }
  std::int64_t integer(std::size_t i, const char* name, std::int64_t max) const {
    const std::string& w = words[i];
    std::int64_t v = -1;
    const auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || p != w.data() + w.size() || v < 0 || v >= max) {
      fail(fmt::format("{} \"{}\": must be an integer in 0..{}", name, w, max - 1));
    }
    return v;
  }
};

const char* kFormat = "RANK compute CYCLES | RANK send TO BYTES TAG | RANK recv FROM BYTES TAG | RANK barrier | "
                      "RANK allreduce BYTES | RANK broadcast ROOT BYTES | RANK alltoall BYTES";

}  // namespace

Trace read_trace(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("{}: cannot read the trace", path));
  Trace t;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    LineReader l{fmt::format("{}:{}", path, number), {}};
    std::istringstream words(line.substr(0, line.find('#')));
    for (std::string w; words >> w;) l.words.push_back(w);
    if (l.words.empty()) continue;
    if (t.ranks == 0) {
      if (l.words.size() != 2 || l.words[0] != "ranks") l.fail("the first line must be \"ranks N\"");
      t.ranks = static_cast<int>(l.integer(1, "ranks", kMaxTraceValue));
      if (t.ranks < 1) l.fail("ranks 0: a trace needs a rank");
      t.events.resize(static_cast<std::size_t>(t.ranks));
      continue;
    }
    const std::size_t n = l.words.size();
    if (n < 2) l.fail(fmt::format("\"{}\" is not an event ({})", line, kFormat));
    const int rank = static_cast<int>(l.integer(0, "rank", t.ranks));
    const std::string& op = l.words[1];
    TraceEvent e;
    using K = TraceEvent::Kind;
    const auto need = [&](std::size_t words) {
      if (n != words) l.fail(fmt::format("{} takes {} values after the rank, not {} ({})", op, words - 2, n - 2, kFormat));
    };
    if (op == "compute") {
      need(3);
      e = {K::Compute, l.integer(2, "cycles", kMaxTraceValue * kMaxTraceValue), 0, 0};
    } else if (op == "send" || op == "recv") {
      need(5);
      e = {op == "send" ? K::Send : K::Recv, l.integer(3, "bytes", kMaxTraceValue),
           static_cast<int>(l.integer(2, op == "send" ? "to" : "from", t.ranks)),
           static_cast<int>(l.integer(4, "tag", kMaxTraceValue))};
      if (e.peer == rank) l.fail(fmt::format("rank {} {}s itself", rank, op));
    } else if (op == "barrier") {
      need(2);
      e = {K::Barrier, 0, 0, 0};
    } else if (op == "allreduce" || op == "alltoall") {
      need(3);
      e = {op == "allreduce" ? K::Allreduce : K::Alltoall, l.integer(2, "bytes", kMaxTraceValue), 0, 0};
    } else if (op == "broadcast") {
      need(4);
      e = {K::Broadcast, l.integer(3, "bytes", kMaxTraceValue), static_cast<int>(l.integer(2, "root", t.ranks)), 0};
    } else {
      l.fail(fmt::format("unknown event \"{}\" ({})", op, kFormat));
    }
    t.events[static_cast<std::size_t>(rank)].push_back(e);
  }
  if (t.ranks == 0) throw std::invalid_argument(fmt::format("{}: empty trace (the first line must be \"ranks N\")", path));
  return t;
}

std::string write_trace(const Trace& trace) {
  std::string s = fmt::format("ranks {}\n", trace.ranks);
  for (int r = 0; r < trace.ranks; ++r) {
    for (const TraceEvent& e : trace.events[static_cast<std::size_t>(r)]) {
      using K = TraceEvent::Kind;
      switch (e.kind) {
        case K::Compute: s += fmt::format("{} compute {}\n", r, e.amount); break;
        case K::Send: s += fmt::format("{} send {} {} {}\n", r, e.peer, e.amount, e.tag); break;
        case K::Recv: s += fmt::format("{} recv {} {} {}\n", r, e.peer, e.amount, e.tag); break;
        case K::Barrier: s += fmt::format("{} barrier\n", r); break;
        case K::Allreduce: s += fmt::format("{} allreduce {}\n", r, e.amount); break;
        case K::Broadcast: s += fmt::format("{} broadcast {} {}\n", r, e.peer, e.amount); break;
        case K::Alltoall: s += fmt::format("{} alltoall {}\n", r, e.amount); break;
      }
    }
  }
  return s;
}

Rank::Body replay(std::shared_ptr<const Trace> trace) {
  return [trace](Rank& r) {
    int collectives = 0;
    for (const TraceEvent& e : trace->events[static_cast<std::size_t>(r.rank())]) {
      using K = TraceEvent::Kind;
      const int tag = -kCollectiveTags * (collectives + 1);
      switch (e.kind) {
        case K::Compute: r.compute(e.amount); break;
        case K::Send: r.send(e.peer, e.amount, e.tag); break;
        case K::Recv: r.recv(e.peer, e.amount, e.tag); break;
        case K::Barrier: barrier(r, tag), ++collectives; break;
        case K::Allreduce: allreduce(r, e.amount, tag), ++collectives; break;
        case K::Broadcast: broadcast(r, e.amount, e.peer, tag), ++collectives; break;
        case K::Alltoall: alltoall(r, e.amount, tag), ++collectives; break;
      }
    }
  };
}

}  // namespace rlroute::host
