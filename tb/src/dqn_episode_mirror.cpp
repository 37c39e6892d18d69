#include "rlroute/tb/dqn_episode_mirror.hpp"

#include <fmt/format.h>

namespace rlroute {

DqnEpisodeMirror::DqnEpisodeMirror(const Design& design)
    : design_(design), layout_(dqn_episode_layout(design.cfg)),
      entries_(static_cast<size_t>(design.topo.num_routers() * layout_.entries)),
      arrivals_(static_cast<size_t>(design.topo.num_routers())) {}

void DqnEpisodeMirror::head_arrived(int router, int port, unsigned key, const Header& h, std::int64_t /*cycle*/,
                                    std::int64_t /*hop_cycles*/) {
  arrivals_[static_cast<size_t>(router)][key] = {port, h.req_ack, h.episode, false};
}

std::string DqnEpisodeMirror::head_left(int router, int port, unsigned key, const Header& h, std::int64_t cycle) {
  const Topology& t = design_.topo;
  auto& arrivals = arrivals_[static_cast<size_t>(router)];
  const auto it = arrivals.find(key);
  if (it == arrivals.end()) return "";  // the route checker reports a head that never entered
  const Arrival in = it->second;
  arrivals.erase(it);
  if (h.req_ack && !in.req_ack) {
    return fmt::format("episode check: router {} set ReqAck on packet {:#x}, which arrived without it (cycle {})", router,
                       key, cycle);
  }
  if (!in.req_ack) return "";
  const bool upstream = !t.is_ni_port(in.port);
  const bool opened = h.req_ack && !t.is_ni_port(port);
  if (!opened && upstream && !in.paid) {
    return fmt::format("episode check: packet {:#x} left router {} on port {} {} without the router sending the {} it "
                       "owes upstream on input port {} (entry {} there; cycle {})",
                       key, router, port, t.is_ni_port(port) ? "at its destination" : "with ReqAck cleared (table full)",
                       t.is_ni_port(port) ? "ack" : "cancel", in.port, in.up, cycle);
  }
  if (opened && in.paid) {
    return fmt::format("episode check: router {} cancelled packet {:#x} upstream, then sent it on port {} with an "
                       "entry (cycle {})",
                       router, key, port, cycle);
  }
  if (!opened) return "";
  if (h.episode >= static_cast<unsigned>(layout_.entries)) {
    return fmt::format("episode check: packet {:#x} left router {} naming entry {}, beyond its {} entries (cycle {})",
                       key, router, h.episode, layout_.entries, cycle);
  }
  Entry& e = entry(router, h.episode);
  if (e.state != State::Free) {
    return fmt::format("episode check: router {} opened entry {} for packet {:#x} while it was still {} for packet "
                       "{:#x} (opened at cycle {}; now cycle {})",
                       router, h.episode, key, e.state == State::Open ? "open" : "parked with its ack", e.key, e.opened,
                       cycle);
  }
  e = {State::Open, port, in.port, upstream, in.up, key, cycle};
  ++open_;
  return "";
}

std::string DqnEpisodeMirror::upstream_takes(int router, int port, const ref::EpisodeAck& a, std::int64_t cycle) {
  const Topology& t = design_.topo;
  // The router on the far side of input port `port` and its output port
  // toward us: links are bidirectional, so output port `port` leads there.
  const auto n = t.neighbor(router, port);
  const int up_router = n ? n->router : -1, up_port = n ? n->port : -1;
  if (up_router < 0) return "";
  Entry& e = entry(up_router, a.index);
  if (e.state != State::Open || e.out_port != up_port) {
    return fmt::format("episode check: router {} sent {} for entry {} of router {} (input port {}), which is {} (cycle {})",
                       router, a.cancel ? "a cancel" : "an ack", a.index, up_router, port,
                       e.state == State::Free     ? "not open"
                       : e.state == State::Parked ? fmt::format("already acked (packet {:#x})", e.key)
                                                  : fmt::format("open for packet {:#x} sent on port {}, not {}", e.key,
                                                                e.out_port, up_port),
                       cycle);
  }
  if (e.has_up) {
    e.state = State::Parked;
  } else {
    e.state = State::Free;  // the packet was injected there: the episode ends
    --open_;
  }
  return "";
}

std::string DqnEpisodeMirror::word_sent(int router, int port, std::uint64_t feedback, std::int64_t cycle) {
  const ref::EpisodeAck a = layout_.decode(feedback);
  if (!a.valid) return "";
  const Topology& t = design_.topo;
  if (t.is_ni_port(port)) {
    return fmt::format("episode check: router {} sent an ack word to the node on its port {} (cycle {})", router, port,
                       cycle);
  }
  // A parked ack of this router, forwarded...
  for (int i = 0; i < layout_.entries; ++i) {
    Entry& e = entry(router, static_cast<unsigned>(i));
    if (e.state == State::Parked && e.in_port == port && e.up == a.index) {
      e.state = State::Free;
      --open_;
      return upstream_takes(router, port, a, cycle);
    }
  }
  // ... or the word a head owes at once: its destination's ack, or a full table's cancel.
  for (auto& [key, in] : arrivals_[static_cast<size_t>(router)]) {
    if (in.port == port && in.req_ack && !in.paid && in.up == a.index) {
      in.paid = true;
      return upstream_takes(router, port, a, cycle);
    }
  }
  return fmt::format("episode check: router {} sent {} for entry {} on input port {} that no parked ack or arriving "
                     "head of it owes (cycle {})",
                     router, a.cancel ? "a cancel" : "an ack", a.index, port, cycle);
}

std::string DqnEpisodeMirror::open_entries(int most) const {
  std::string s;
  int shown = 0;
  for (size_t i = 0; i < entries_.size() && shown < most; ++i) {
    const Entry& e = entries_[i];
    if (e.state == State::Free) continue;
    ++shown;
    s += fmt::format("  router {} entry {}: {} for packet {:#x}, opened at cycle {}, sent on port {}, arrived on port {}\n",
                     i / static_cast<size_t>(layout_.entries), i % static_cast<size_t>(layout_.entries),
                     e.state == State::Open ? "open (no ack yet)" : "parked (its ack not sent upstream)", e.key,
                     e.opened, e.out_port, e.in_port);
  }
  return s;
}

std::string DqnEpisodeMirror::owed_failure(std::int64_t waited_cycles) const {
  return fmt::format("episode check: {} pending-episode entries still open {} cycles after the last packet left (acks "
                     "lost):\n{}",
                     open_, waited_cycles, open_entries(20));
}

}  // namespace rlroute
