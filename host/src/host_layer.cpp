#include "rlroute/host/host_layer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "rlroute/tb/simulation.hpp"

namespace rlroute::host {

HostLayer::HostLayer(const Design& design, std::vector<int> placement, const Rank::Body& body, std::string name)
    : design_(design), placement_(std::move(placement)),
      rank_of_node_(static_cast<std::size_t>(design.topo.num_nodes()), -1), name_(std::move(name)) {
  const int nodes = design.topo.num_nodes();
  if (design.cfg.max_packet_flits < 3) {
    throw std::invalid_argument(fmt::format(
        "messages need router.max_packet_flits >= 3 (a header, payload, a footer); this router: {}",
        design.cfg.max_packet_flits));
  }
  for (std::size_t r = 0; r < placement_.size(); ++r) {
    const int node = placement_[r];
    if (node < 0 || node >= nodes || rank_of_node_[static_cast<std::size_t>(node)] >= 0) {
      throw std::invalid_argument(
          fmt::format("placement: rank {} on node {}: each rank needs a node of its own in 0..{}", r, node, nodes - 1));
    }
    rank_of_node_[static_cast<std::size_t>(node)] = static_cast<int>(r);
  }
  for (std::size_t r = 0; r < placement_.size(); ++r) {
    const int node = placement_[r];
    interfaces_.push_back(std::make_unique<NetworkInterface>(fmt::format("ni{}", node).c_str(), node, *this));
    posted_.push_back(std::make_unique<sc_core::sc_event>());
    ranks_.push_back(std::make_unique<Rank>(fmt::format("rank{}", r).c_str(), static_cast<int>(r), *this, body));
    ranks_.back()->socket.bind(interfaces_.back()->socket);
  }
  unmatched_.resize(placement_.size());
  waiting_.resize(placement_.size());
  done_cycle_.assign(placement_.size(), -1);
}

std::vector<AppPacket> HostLayer::tick(std::int64_t cycle, bool network_empty) {
  (void)network_empty;
  cycle_ = cycle;
  sc_core::sc_start(period_);  // the events of this cycle; the next cycle's wait for the next tick
  check_progress();
  return std::exchange(outbox_, {});
}

// With nothing left to happen in SystemC (no rank computing or woken) and
// nothing in the network or at a source, the ranks still waiting wait forever.
void HostLayer::check_progress() {
  if (!failure_.empty() || finished() || outstanding_ > 0 || sc_core::sc_pending_activity()) return;
  std::string waits;
  int shown = 0;
  for (std::size_t r = 0; r < ranks_.size(); ++r) {
    if (done_cycle_[r] >= 0) continue;
    if (shown++ < 8) waits += fmt::format("; rank {} (node {}) {}", r, placement_[r], waiting_[r]);
  }
  failure_ = fmt::format("{}: deadlock at cycle {}: {} ranks wait for messages nothing in the network can bring{}",
                         name_, cycle_, static_cast<int>(ranks_.size()) - ranks_done_, waits);
}

bool HostLayer::send(int node, int peer, int tag, const unsigned char* data, std::int64_t bytes) {
  const int src_rank = rank_of_node_[static_cast<std::size_t>(node)];
  if (peer < 0 || peer >= ranks()) {
    failure_ = fmt::format("{}: rank {} sends to rank {}; ranks are 0..{}", name_, src_rank, peer, ranks() - 1);
    return false;
  }
  const std::size_t id = messages_.size();
  Message& m = messages_.emplace_back();
  m.src_rank = src_rank;
  m.dst_rank = peer;
  m.tag = tag;
  m.data.assign(data, data + bytes);
  m.posted = cycle_;
  const std::vector<int> lengths = message_packet_lengths(bytes, design_.cfg.flit_bits, design_.cfg.min_packet_flits,
                                                          design_.cfg.max_packet_flits);
  m.packets = static_cast<int>(lengths.size());
  m.last_length = lengths.back();
  for (const int length : lengths) {
    outbox_.push_back(AppPacket{node, placement_[static_cast<std::size_t>(peer)], length, id});
  }
  outstanding_ += m.packets;
  unmatched_[static_cast<std::size_t>(peer)].push_back(id);
  posted_[static_cast<std::size_t>(peer)]->notify(sc_core::SC_ZERO_TIME);
  sc_core::wait(m.sent_event);
  return true;
}

HostLayer::Message* HostLayer::match(int dst_rank, int src_rank, int tag) {
  std::deque<std::size_t>& ids = unmatched_[static_cast<std::size_t>(dst_rank)];
  for (auto it = ids.begin(); it != ids.end(); ++it) {
    Message& m = messages_[*it];
    if (m.src_rank == src_rank && m.tag == tag) {
      ids.erase(it);
      m.matched = true;
      return &m;
    }
  }
  return nullptr;
}

bool HostLayer::receive(int node, int peer, int tag, unsigned char* data, std::int64_t bytes) {
  const int rank = rank_of_node_[static_cast<std::size_t>(node)];
  Message* m = nullptr;
  while ((m = match(rank, peer, tag)) == nullptr) sc_core::wait(*posted_[static_cast<std::size_t>(rank)]);
  if (m->arrived < 0) sc_core::wait(m->arrived_event);
  if (static_cast<std::int64_t>(m->data.size()) != bytes) {
    failure_ = fmt::format("{}: rank {} received {} bytes from rank {} with tag {} into a receive of {} bytes", name_,
                           rank, m->data.size(), peer, tag, bytes);
    return false;
  }
  std::copy(m->data.begin(), m->data.end(), data);
  return true;
}

void HostLayer::injected(int node, std::uint64_t cookie, std::int64_t cycle) {
  (void)node;
  Message& m = messages_[cookie];
  if (++m.injected < m.packets) return;
  // The last packet's flits enter one per cycle: the send is done after them.
  m.sent = cycle + m.last_length;
  m.sent_event.notify(std::max(sc_core::SC_ZERO_TIME, period_ * static_cast<double>(m.sent) - sc_core::sc_time_stamp()));
}

void HostLayer::delivered(const DeliveredPacket& packet) {
  Message& m = messages_[packet.cookie];
  --outstanding_;
  if (++m.delivered < m.packets) return;
  m.arrived = packet.ejected;
  m.arrived_event.notify(sc_core::SC_ZERO_TIME);  // the receive returns at the next cycle
}

void HostLayer::rank_done(int rank) {
  done_cycle_[static_cast<std::size_t>(rank)] = cycle_;
  waiting_[static_cast<std::size_t>(rank)] = "";
  ++ranks_done_;
}

nlohmann::ordered_json HostLayer::report() const {
  std::vector<double> latency;
  std::int64_t bytes = 0;
  for (const Message& m : messages_) {
    bytes += static_cast<std::int64_t>(m.data.size());
    if (m.arrived >= 0) latency.push_back(static_cast<double>(m.arrived + 1 - m.posted));
  }
  const LatencySummary l = summarize(latency);
  const std::int64_t run = finished() ? *std::max_element(done_cycle_.begin(), done_cycle_.end()) : -1;
  return {{"name", name_},
          {"ranks", ranks()},
          {"placement", placement_},
          {"finished", finished()},
          {"run_cycles", run},
          {"rank_cycles", done_cycle_},
          {"messages", messages_.size()},
          {"message_bytes", bytes},
          {"message_latency",
           {{"avg", l.avg}, {"stdev", l.stdev}, {"p50", l.p50}, {"p99", l.p99}, {"max", l.max}, {"count", l.count}}}};
}

std::string HostLayer::messages_csv() const {
  std::string s = "src_rank,dst_rank,tag,bytes,packets,posted,sent,arrived,latency\n";
  for (const Message& m : messages_) {
    // Cycles: -1 where it has not happened; latency as in report().
    s += fmt::format("{},{},{},{},{},{},{},{},{}\n", m.src_rank, m.dst_rank, m.tag, m.data.size(), m.packets, m.posted,
                     m.sent, m.arrived, m.arrived >= 0 ? m.arrived + 1 - m.posted : -1);
  }
  return s;
}

std::string HostLayer::summary() const {
  const nlohmann::ordered_json r = report();
  const std::string done = finished() ? fmt::format("{} ranks done in {} cycles", ranks(), r["run_cycles"].get<std::int64_t>())
                                      : fmt::format("{} of {} ranks done by cycle {}", ranks_done_, ranks(), cycle_);
  return fmt::format("{}: {}; {} messages ({} bytes), latency avg {:.1f} p99 {:.0f} cycles", name_, done,
                     messages_.size(), r["message_bytes"].get<std::int64_t>(), r["message_latency"]["avg"].get<double>(),
                     r["message_latency"]["p99"].get<double>());
}

}  // namespace rlroute::host
