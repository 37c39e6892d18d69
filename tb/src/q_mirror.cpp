// Q-adaptive's tables kept by the reference; see the header.
#include "rlroute/tb/q_mirror.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "rlroute/gen/q_codes.hpp"

namespace rlroute {

namespace {
// The hardware's cycle counter (rr_router's cycle_o) when the route unit
// takes a head in, less the checker's cycle of that head's arrival.
constexpr std::int64_t kHardwareCycleAtArrival = -1;
}  // namespace

QMirror::QMirror(const Design& design)
    : design_(design),
      topo_(design.topo),
      layout_(design),
      format_{static_cast<unsigned>(design.cfg.q_value_bits), static_cast<unsigned>(design.cfg.q_fraction_bits)},
      rates_{kQRateBits, q_codes(design.cfg).alpha, q_codes(design.cfg).beta},
      columns_(layout_.columns()),
      feedback_layout_(layout_.rows(), design.cfg.q_value_bits),
      tables_(static_cast<size_t>(topo_.num_routers())),
      in_flight_(static_cast<size_t>(topo_.num_routers())),
      arrived_(static_cast<size_t>(topo_.num_routers())),
      matchings_(static_cast<size_t>(topo_.num_routers() * design.ports)) {
  for (int router = 0; router < topo_.num_routers(); ++router) {
    auto& t = tables_[static_cast<size_t>(router)];
    for (int row = 0; row < layout_.rows(); ++row) {
      const int group = layout_.dst_group_of_row(router, row);
      for (int c = 0; c < columns_; ++c) {
        t.push_back(format_.from_cycles(static_cast<std::uint64_t>(layout_.initial_cycles(router, group, c))));
      }
      const auto first = t.end() - columns_;
      minimal_column_.push_back(static_cast<int>(std::min_element(first, t.end()) - first));
    }
  }
}

void QMirror::begin_cycle(std::int64_t cycle) {
  // A word seen in cycle t left the decision unit's register at the edge
  // before; its row was read q_decision_cycles cycles earlier (t - 1, or
  // t - 2 through the stage register), with the table as the edge before
  // that left it: the feedback that reached a router's input up to cycle
  // t - 1 - q_decision_cycles is in.
  const std::int64_t last = cycle - 1 - design_.cfg.q_decision_cycles;
  // The words of one link come from one sender, in its bucket in the order
  // sent, so every table entry takes its updates in that order.
  auto due = [last](const Update& u) { return u.cycle <= last; };
  for (std::vector<Update>& sent : in_flight_) {
    for (const Update& u : sent) {
      if (!due(u)) continue;
      std::uint32_t& q = tables_[static_cast<size_t>(u.router)][static_cast<size_t>(u.row * columns_ + u.column)];
      q = ref::q_update(format_, rates_, q, u.target);
      ++updates_;
    }
    std::erase_if(sent, due);
  }
}

std::uint32_t QMirror::q_y(int router, int row) const {
  if (row < 0) return 0;  // in the destination group
  const auto& t = tables_[static_cast<size_t>(router)];
  const auto first = t.begin() + row * columns_;
  return *std::min_element(first, first + columns_);
}

void QMirror::head_arrived(int router, int port, unsigned key, int src, int dst, std::int64_t r, std::uint32_t stamp) {
  if (topo_.is_ni_port(port)) return;
  const int dst_group = topo_.group_of(topo_.router_of_node(dst));
  const bool outside = topo_.group_of(router) != dst_group;
  if (!outside && !topo_.is_global_port(port)) return;  // no feedback into the destination group's local links
  const int up = topo_.neighbor(router, port)->router;
  matchings_[static_cast<size_t>(router * design_.ports + port)].heads.push_back(
      {key, layout_.row(up, src, dst), r, stamp, outside ? layout_.row(router, src, dst) : -1, true, -1, {}});
}

bool QMirror::match_word(Matching& m, int w) {
  for (const int h : m.words[static_cast<size_t>(w)].fits) {
    if (m.seen[static_cast<size_t>(h)]) continue;
    m.seen[static_cast<size_t>(h)] = 1;
    Head& head = m.heads[static_cast<size_t>(h)];
    // A head without a word is still here: one that left always has one.
    if (head.word < 0 || match_word(m, head.word)) {
      head.word = w;
      m.words[static_cast<size_t>(w)].head = h;
      return true;
    }
  }
  return false;
}

bool QMirror::match_leaving_head(Matching& m, int h) {
  for (const int w : m.heads[static_cast<size_t>(h)].fits) {
    if (m.seen[static_cast<size_t>(w)]) continue;
    m.seen[static_cast<size_t>(w)] = 1;
    const int holder = m.words[static_cast<size_t>(w)].head;
    if (m.heads[static_cast<size_t>(holder)].here) {
      m.heads[static_cast<size_t>(holder)].word = -1;  // it may still be paid by a later word
    } else if (!match_leaving_head(m, holder)) {
      continue;
    }
    m.words[static_cast<size_t>(w)].head = h;
    m.heads[static_cast<size_t>(h)].word = w;
    return true;
  }
  return false;
}

void QMirror::forget_if_settled(Matching& m, int h) {
  std::vector<char> head_in(m.heads.size(), 0), word_in(m.words.size(), 0);
  std::vector<int> todo{h};
  head_in[static_cast<size_t>(h)] = 1;
  while (!todo.empty()) {
    const Head& head = m.heads[static_cast<size_t>(todo.back())];
    todo.pop_back();
    if (head.here) return;
    for (const int w : head.fits) {
      if (word_in[static_cast<size_t>(w)]) continue;
      word_in[static_cast<size_t>(w)] = 1;
      for (const int other : m.words[static_cast<size_t>(w)].fits) {
        if (!head_in[static_cast<size_t>(other)]) {
          head_in[static_cast<size_t>(other)] = 1;
          todo.push_back(other);
        }
      }
    }
  }
  // Drop the part and renumber the rest.
  auto renumber = [](const std::vector<char>& gone) {
    std::vector<int> to(gone.size(), -1);
    int next = 0;
    for (std::size_t i = 0; i < gone.size(); ++i) {
      if (!gone[i]) to[i] = next++;
    }
    return to;
  };
  const std::vector<int> head_to = renumber(head_in), word_to = renumber(word_in);
  auto keep = [](auto& items, const std::vector<char>& gone) {
    std::size_t out = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (gone[i]) continue;
      if (out != i) items[out] = std::move(items[i]);
      ++out;
    }
    items.resize(out);
  };
  keep(m.heads, head_in);
  keep(m.words, word_in);
  for (Head& head : m.heads) {
    if (head.word >= 0) head.word = word_to[static_cast<size_t>(head.word)];
    for (int& w : head.fits) w = word_to[static_cast<size_t>(w)];
  }
  for (Word& word : m.words) {
    word.head = head_to[static_cast<size_t>(word.head)];
    for (int& other : word.fits) other = head_to[static_cast<size_t>(other)];
  }
}

void QMirror::head_arrived(int router, int port, unsigned key, const Header& h, std::int64_t cycle,
                           std::int64_t hop_cycles) {
  if (r_at_decision(design_.cfg.q_stamp)) arrived_[static_cast<size_t>(router)][key] = cycle;
  head_arrived(router, port, key, topo_.node_of_address(h.src), topo_.node_of_address(h.dst), hop_cycles, h.stamp);
}

std::int64_t QMirror::r_of(const Head& head, std::int64_t word_cycle) const {
  if (!r_at_decision(design_.cfg.q_stamp)) return head.r;
  // The answer's hardware cycle (the word leaves its register a cycle later)
  // less the stamp the head left the upstream router with.
  return since_stamp(word_cycle - 1 + kHardwareCycleAtArrival, head.stamp);
}

std::int64_t QMirror::since_stamp(std::int64_t now, std::uint32_t stamp) const {
  const std::uint64_t mask = (std::uint64_t{1} << design_.header.stamp.width) - 1;
  return static_cast<std::int64_t>((static_cast<std::uint64_t>(now) - stamp) & mask);
}

std::string QMirror::feedback_sent(int router, int port, std::uint64_t feedback, std::int64_t cycle) {
  const QFeedback word = feedback_layout_.decode(feedback);
  if (!word.valid) return "";
  const int row = word.row;
  const std::uint32_t target = word.target;
  if (topo_.is_ni_port(port)) {
    return fmt::format("Q feedback check: router {} sent feedback to the node on its port {} (cycle {})", router,
                       port, cycle);
  }
  Matching& m = matchings_[static_cast<size_t>(router * design_.ports + port)];
  const int w = static_cast<int>(m.words.size());
  m.words.push_back({row, target, -1, {}});
  auto target_of = [&](const Head& head) {
    return ref::q_target(format_, static_cast<std::uint64_t>(r_of(head, cycle)) & 0xffffu, q_y(router, head.row_here));
  };
  for (std::size_t h = 0; h < m.heads.size(); ++h) {
    Head& head = m.heads[h];
    if (head.here && head.row_up == row && target_of(head) == target) {
      head.fits.push_back(w);
      m.words.back().fits.push_back(static_cast<int>(h));
    }
  }
  m.seen.assign(m.heads.size(), 0);
  if (!match_word(m, w)) {
    for (const int h : m.words.back().fits) m.heads[static_cast<size_t>(h)].fits.pop_back();
    m.words.pop_back();
    std::string expected;
    for (const Head& head : m.heads) {
      if (!head.here || head.row_up != row) continue;
      expected += fmt::format(" packet {:#x}: {} (r = {}, Q_y = {}{})", head.key, target_of(head), r_of(head, cycle),
                              q_y(router, head.row_here), head.word >= 0 ? ", paid" : "");
    }
    return fmt::format(
        "Q feedback check: router {} port {} sent row {} target {} at cycle {}, which no head it took in on that port "
        "owes (the reference's targets for the heads of that row it holds:{})",
        router, port, row, target, cycle, expected.empty() ? " none" : expected);
  }
  const PortRef up = *topo_.neighbor(router, port);
  in_flight_[static_cast<size_t>(router)].push_back(
      {cycle + topo_.credit_latency(up.port) - 1, up.router, layout_.column_of_port(up.port), row, target});
  return "";
}

std::string QMirror::head_left(int router, int port, unsigned key, const Header& h, std::int64_t cycle) {
  if (r_at_decision(design_.cfg.q_stamp)) {
    auto& arrived = arrived_[static_cast<size_t>(router)];
    const auto it = arrived.find(key);
    if (it != arrived.end() && !topo_.is_ni_port(port)) {
      // In hardware cycles: after the arrival, at the latest the departure.
      const std::int64_t in = it->second + kHardwareCycleAtArrival, out = cycle + kHardwareCycleAtArrival;
      const std::int64_t before_departure = since_stamp(out, h.stamp);
      if (before_departure >= out - in) {
        return fmt::format("Q feedback check: packet {:#x} left router {} on port {} with time stamp {}, not a cycle "
                           "after its arrival ({}) and up to its departure ({}) modulo 2^{} (routing.q_stamp = "
                           "\"{}\")",
                           key, router, port, h.stamp, since_stamp(in, 0), since_stamp(out, 0),
                           design_.header.stamp.width, to_string(design_.cfg.q_stamp));
      }
    }
    if (it != arrived.end()) arrived.erase(it);
  }
  return head_left(router, port, key);
}

std::string QMirror::head_left(int router, int /*port*/, unsigned key) {
  for (int in = 0; in < design_.ports; ++in) {
    Matching& m = matchings_[static_cast<size_t>(router * design_.ports + in)];
    const auto it = std::find_if(m.heads.begin(), m.heads.end(), [key](const Head& h) { return h.here && h.key == key; });
    if (it == m.heads.end()) continue;
    const int h = static_cast<int>(it - m.heads.begin());
    if (it->word < 0) {
      m.seen.assign(m.words.size(), 0);
      if (!match_leaving_head(m, h)) {
        return fmt::format("Q feedback check: packet {:#x} left router {} without the feedback it owes its upstream "
                           "router (row {}, r = {}; {} words of its row fitted it, each needed by another head)",
                           key, router, it->row_up, it->r, it->fits.size());
      }
    }
    m.heads[static_cast<size_t>(h)].here = false;
    forget_if_settled(m, h);
    return "";
  }
  return "";
}

double QMirror::mean_cycles() const {
  double sum = 0;
  std::size_t n = 0;
  for (const auto& t : tables_) {
    for (std::uint32_t q : t) sum += q;
    n += t.size();
  }
  return n == 0 ? 0.0 : sum / static_cast<double>(n) / static_cast<double>(1u << format_.fraction_bits);
}

QMirror::PortEstimates QMirror::port_estimates() const {
  PortEstimates e;
  std::size_t n = 0;
  for (std::size_t router = 0; router < tables_.size(); ++router) {
    const auto& t = tables_[router];
    for (int row = 0; row < layout_.rows(); ++row) {
      const int minimal = minimal_column_[router * static_cast<std::size_t>(layout_.rows()) + static_cast<std::size_t>(row)];
      std::uint32_t other = UINT32_MAX;
      for (int c = 0; c < columns_; ++c) {
        const std::uint32_t q = t[static_cast<std::size_t>(row * columns_ + c)];
        if (c == minimal) {
          e.minimal += q;
        } else {
          other = std::min(other, q);
        }
      }
      if (other != UINT32_MAX) e.best_other += other;
      ++n;
    }
  }
  if (n == 0) return e;
  const double scale = static_cast<double>(n) * static_cast<double>(1u << format_.fraction_bits);
  return {e.minimal / scale, e.best_other / scale};
}

std::string QMirror::dump(int router) const {
  std::string s = fmt::format("# Q-table of router {} ({}): {} rows x {} columns (network ports {}..{}), cycles\n",
                              router, topo_.router_name(router), layout_.rows(), columns_, layout_.port_of_column(0),
                              layout_.port_of_column(columns_ - 1));
  const auto& t = tables_[static_cast<size_t>(router)];
  const double scale = 1.0 / static_cast<double>(1u << format_.fraction_bits);
  for (int row = 0; row < layout_.rows(); ++row) {
    s += fmt::format("row {:3} (group {:2}, node {}):", row, layout_.dst_group_of_row(router, row),
                     row % topo_.nodes_per_router());
    for (int c = 0; c < columns_; ++c) s += fmt::format(" {:8.3f}", t[static_cast<size_t>(row * columns_ + c)] * scale);
    s += "\n";
  }
  return s;
}

}  // namespace rlroute
