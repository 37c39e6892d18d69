#include "rlroute/host/goal.hpp"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <map>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace rlroute::host {

namespace {

struct GoalOp {
  TraceEvent event;
  int line = 0;
  std::vector<int> before;  // the ops it waits for
};

struct RankOps {
  std::vector<GoalOp> ops;
  std::map<std::string, int> label;  // label -> op
};

// The rank's operations in an order their dependencies allow: of the ops
// ready at each step, sends first, then compute, then receives (a send never
// waits for the peer, so putting it first cannot add a deadlock), each kind
// in the order of the file.
std::vector<TraceEvent> linearize(const RankOps& r, const std::string& where) {
  const int n = static_cast<int>(r.ops.size());
  std::vector<int> waiting(static_cast<std::size_t>(n));
  std::vector<std::vector<int>> after(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    waiting[static_cast<std::size_t>(i)] = static_cast<int>(r.ops[static_cast<std::size_t>(i)].before.size());
    for (const int b : r.ops[static_cast<std::size_t>(i)].before) after[static_cast<std::size_t>(b)].push_back(i);
  }
  const auto priority = [&](int i) {
    switch (r.ops[static_cast<std::size_t>(i)].event.kind) {
      case TraceEvent::Kind::Send: return 0;
      case TraceEvent::Kind::Compute: return 1;
      default: return 2;
    }
  };
  using Ready = std::tuple<int, int>;  // (priority, op)
  std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready;
  for (int i = 0; i < n; ++i) {
    if (waiting[static_cast<std::size_t>(i)] == 0) ready.emplace(priority(i), i);
  }
  std::vector<TraceEvent> out;
  while (!ready.empty()) {
    const int i = std::get<1>(ready.top());
    ready.pop();
    out.push_back(r.ops[static_cast<std::size_t>(i)].event);
    for (const int j : after[static_cast<std::size_t>(i)]) {
      if (--waiting[static_cast<std::size_t>(j)] == 0) ready.emplace(priority(j), j);
    }
  }
  if (static_cast<int>(out.size()) != n) {
    for (int i = 0; i < n; ++i) {
      if (waiting[static_cast<std::size_t>(i)] > 0) {
        throw std::invalid_argument(fmt::format("{}:{}: the operation is in a cycle of dependencies", where,
                                                r.ops[static_cast<std::size_t>(i)].line));
      }
    }
  }
  return out;
}

}  // namespace

Trace read_goal(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("{}: cannot read the GOAL schedule", path));
  std::stringstream text;
  text << in.rdbuf();
  std::string all = text.str();
  // Comments: /* ... */ (kept as newlines, for the line numbers) and // to the end of the line.
  for (std::size_t i = all.find("/*"); i != std::string::npos; i = all.find("/*", i)) {
    const std::size_t end = all.find("*/", i + 2);
    const std::size_t stop = end == std::string::npos ? all.size() : end + 2;
    for (std::size_t k = i; k < stop; ++k) {
      if (all[k] != '\n') all[k] = ' ';
    }
    i = stop;
  }
  Trace t;
  std::vector<RankOps> ranks;
  int rank = -1;
  std::istringstream lines(all);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string where = fmt::format("{}:{}", path, number);
    const auto fail = [&](const std::string& what) { throw std::invalid_argument(where + ": " + what); };
    std::istringstream ws(line.substr(0, line.find("//")));
    std::vector<std::string> w;
    for (std::string x; ws >> x;) w.push_back(x);
    if (w.empty()) continue;
    const auto number_of = [&](const std::string& word, const char* what, std::int64_t max) {
      std::int64_t v = -1;
      const auto [p, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
      if (ec != std::errc() || p != word.data() + word.size() || v < 0 || v >= max) {
        fail(fmt::format("{} \"{}\": must be an integer in 0..{}{}", what, word, max - 1,
                         word == "-1" ? " (wildcards are not replayed)" : ""));
      }
      return v;
    };
    if (w[0] == "num_ranks") {
      if (t.ranks > 0 || w.size() != 2) fail("\"num_ranks N\" once, before the ranks");
      t.ranks = static_cast<int>(number_of(w[1], "num_ranks", std::int64_t{1} << 24));
      if (t.ranks < 1) fail("num_ranks 0: a schedule needs a rank");
      ranks.resize(static_cast<std::size_t>(t.ranks));
      continue;
    }
    if (t.ranks == 0) fail("the schedule must start with \"num_ranks N\"");
    if (w[0] == "rank") {
      if (rank >= 0 || w.size() != 3 || w[2] != "{") fail("\"rank R {\" outside another rank's braces");
      rank = static_cast<int>(number_of(w[1], "rank", t.ranks));
      continue;
    }
    if (rank < 0) fail(fmt::format("\"{}\" outside a rank's braces", w[0]));
    if (w[0] == "}") {
      if (w.size() != 1) fail("\"}\" on a line of its own");
      rank = -1;
      continue;
    }
    RankOps& r = ranks[static_cast<std::size_t>(rank)];
    if (w.size() == 3 && (w[1] == "requires" || w[1] == "irequires")) {
      // Replayed in sequence, "starts after the other starts" waits for it to end too.
      const auto a = r.label.find(w[0]), b = r.label.find(w[2]);
      if (a == r.label.end() || b == r.label.end()) {
        fail(fmt::format("unknown label \"{}\" (a label is defined before it is required)",
                         a == r.label.end() ? w[0] : w[2]));
      }
      r.ops[static_cast<std::size_t>(a->second)].before.push_back(b->second);
      continue;
    }
    std::size_t i = 0;
    std::string label;
    if (w[0].back() == ':') {
      label = w[0].substr(0, w[0].size() - 1);
      if (label.empty() || r.label.count(label)) fail(fmt::format("label \"{}\" again in rank {}", label, rank));
      i = 1;
    }
    if (i >= w.size()) fail("a label without an operation");
    GoalOp op;
    op.line = number;
    const std::string& kind = w[i];
    if (kind == "calc") {
      if (i + 1 >= w.size()) fail("calc without its time");
      op.event = {TraceEvent::Kind::Compute, number_of(w[i + 1], "calc", std::int64_t{1} << 60), 0, 0};
      i += 2;
    } else if (kind == "send" || kind == "recv") {
      const bool send = kind == "send";
      if (i + 3 >= w.size() || w[i + 1].back() != 'b' || w[i + 2] != (send ? "to" : "from")) {
        fail(fmt::format("{} SIZEb {} RANK [tag T]", kind, send ? "to" : "from"));
      }
      op.event.kind = send ? TraceEvent::Kind::Send : TraceEvent::Kind::Recv;
      op.event.amount = number_of(w[i + 1].substr(0, w[i + 1].size() - 1), "size", std::int64_t{1} << 30);
      op.event.peer = static_cast<int>(number_of(w[i + 3], send ? "to" : "from", t.ranks));
      if (op.event.peer == rank) fail(fmt::format("rank {} {}s itself", rank, kind));
      i += 4;
      if (i + 1 < w.size() && w[i] == "tag") {
        op.event.tag = static_cast<int>(number_of(w[i + 1], "tag", std::int64_t{1} << 30));
        i += 2;
      }
    } else {
      fail(fmt::format("unknown operation \"{}\" (calc, send, recv)", kind));
    }
    // cpu and nic pick a core and a NIC of a host with several; a node has one of each here.
    while (i + 1 < w.size() && (w[i] == "cpu" || w[i] == "nic")) i += 2;
    if (i != w.size()) fail(fmt::format("\"{}\" after the operation", w[i]));
    if (!label.empty()) r.label[label] = static_cast<int>(r.ops.size());
    r.ops.push_back(op);
  }
  if (t.ranks == 0) throw std::invalid_argument(fmt::format("{}: no \"num_ranks N\" line", path));
  if (rank >= 0) throw std::invalid_argument(fmt::format("{}: rank {}'s braces are not closed", path, rank));
  t.events.resize(static_cast<std::size_t>(t.ranks));
  for (int r = 0; r < t.ranks; ++r) t.events[static_cast<std::size_t>(r)] = linearize(ranks[static_cast<std::size_t>(r)], path);
  return t;
}

}  // namespace rlroute::host
