#include "rlroute/host/host_layer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "rlroute/tb/simulation.hpp"

namespace rlroute::host {

HostLayer::HostLayer(const Design& design, std::vector<Job> jobs)
    : design_(design), jobs_(std::move(jobs)), id_of_node_(static_cast<std::size_t>(design.topo.num_nodes()), -1) {
  const int nodes = design.topo.num_nodes();
  const bool single_flit = design.cfg.max_packet_flits == 1 && design.header.payload.width > 0;
  if (design.cfg.max_packet_flits < 3 && !single_flit) {
    throw std::invalid_argument(fmt::format(
        "messages need router.max_packet_flits >= 3 (a header, payload, a footer) or single-flit packets with a "
        "payload field; this router: max_packet_flits = {}",
        design.cfg.max_packet_flits));
  }
  if (std::none_of(jobs_.begin(), jobs_.end(), [](const Job& j) { return !j.background; })) {
    throw std::invalid_argument("no job in the foreground: the run would have no end");
  }
  for (std::size_t j = 0; j < jobs_.size(); ++j) {
    first_.push_back(static_cast<int>(ranks_.size()));
    const Job& job = jobs_[j];
    for (std::size_t r = 0; r < job.nodes.size(); ++r) {
      const int node = job.nodes[r];
      if (node < 0 || node >= nodes || id_of_node_[static_cast<std::size_t>(node)] >= 0) {
        throw std::invalid_argument(fmt::format(
            "placement: {} rank {} on node {}: each rank needs a node of its own in 0..{}", job.name, r, node, nodes - 1));
      }
      const int id = static_cast<int>(ranks_.size());
      id_of_node_[static_cast<std::size_t>(node)] = id;
      ranks_.push_back(RankState{static_cast<int>(j), static_cast<int>(r), node, "", -1, {},
                                 std::make_unique<sc_core::sc_event>()});
      interfaces_.push_back(std::make_unique<NetworkInterface>(fmt::format("ni{}", node).c_str(), node, *this));
      rank_modules_.push_back(std::make_unique<Rank>(fmt::format("{}_rank{}", job.name, r).c_str(), id,
                                                     static_cast<int>(r), *this, job.body));
      rank_modules_.back()->socket.bind(interfaces_.back()->socket);
      if (!job.background) ++foreground_left_;
    }
  }
}

std::vector<int> HostLayer::packet_lengths(std::int64_t bytes) const {
  if (design_.cfg.max_packet_flits == 1) {
    // Single-flit packets: each carries its share of the bytes in the header's payload field.
    const std::int64_t bits = design_.header.payload.width;
    return std::vector<int>(static_cast<std::size_t>(std::max<std::int64_t>(1, (bytes * 8 + bits - 1) / bits)), 1);
  }
  return message_packet_lengths(bytes, design_.cfg.flit_bits, design_.cfg.min_packet_flits,
                                design_.cfg.max_packet_flits);
}

int HostLayer::job_size(int rank) const {
  return static_cast<int>(jobs_[static_cast<std::size_t>(ranks_[static_cast<std::size_t>(rank)].job)].nodes.size());
}

std::vector<AppPacket> HostLayer::tick(std::int64_t cycle, bool network_empty) {
  (void)network_empty;
  cycle_ = cycle;
  // Once the foreground has finished, SystemC stops (the background ranks
  // with it) while the network drains what is already in it.
  if (finished()) return {};
  sc_core::sc_start(period_);  // the events of this cycle; the next cycle's wait for the next tick
  check_progress();
  return std::exchange(outbox_, {});
}

// With nothing left to happen in SystemC (no rank computing or woken) and
// nothing in the network or at a source, the ranks still waiting wait forever.
void HostLayer::check_progress() {
  if (!failure_.empty() || finished() || outstanding_ > 0 || sc_core::sc_pending_activity()) return;
  std::string waits;
  int waiting = 0;
  for (const RankState& r : ranks_) {
    if (r.done >= 0) continue;
    if (waiting++ < 8) {
      waits += fmt::format("; {}rank {} (node {}) {}",
                           jobs_.size() > 1 ? jobs_[static_cast<std::size_t>(r.job)].name + " " : "", r.rank, r.node,
                           r.waiting);
    }
  }
  failure_ = fmt::format("{}: deadlock at cycle {}: {} ranks wait for messages nothing in the network can bring{}",
                         jobs_.front().name, cycle_, waiting, waits);
}

bool HostLayer::send(int node, int peer, int tag, const unsigned char* data, std::int64_t bytes) {
  const RankState& me = ranks_[static_cast<std::size_t>(id_of_node_[static_cast<std::size_t>(node)])];
  const Job& job = jobs_[static_cast<std::size_t>(me.job)];
  const int size = static_cast<int>(job.nodes.size());
  if (peer < 0 || peer >= size) {
    failure_ = fmt::format("{}: rank {} sends to rank {}; ranks are 0..{}", job.name, me.rank, peer, size - 1);
    return false;
  }
  const std::size_t id = messages_.size();
  Message& m = messages_.emplace_back();
  m.job = me.job;
  m.src_rank = me.rank;
  m.dst_rank = peer;
  m.tag = tag;
  m.data.assign(data, data + bytes);
  m.posted = cycle_;
  const std::vector<int> lengths = packet_lengths(bytes);
  m.packets = static_cast<int>(lengths.size());
  m.last_length = lengths.back();
  for (const int length : lengths) outbox_.push_back(AppPacket{node, job.nodes[static_cast<std::size_t>(peer)], length, id});
  outstanding_ += m.packets;
  RankState& to = ranks_[static_cast<std::size_t>(id_of(me.job, peer))];
  to.unmatched.push_back(id);
  to.posted->notify(sc_core::SC_ZERO_TIME);
  sc_core::wait(m.sent_event);
  return true;
}

HostLayer::Message* HostLayer::match(int dst, int src_rank, int tag) {
  std::deque<std::size_t>& ids = ranks_[static_cast<std::size_t>(dst)].unmatched;
  for (auto it = ids.begin(); it != ids.end(); ++it) {
    Message& m = messages_[*it];
    if (m.src_rank == src_rank && m.tag == tag) {
      ids.erase(it);
      return &m;
    }
  }
  return nullptr;
}

bool HostLayer::receive(int node, int peer, int tag, unsigned char* data, std::int64_t bytes) {
  const int id = id_of_node_[static_cast<std::size_t>(node)];
  const RankState& me = ranks_[static_cast<std::size_t>(id)];
  Message* m = nullptr;
  while ((m = match(id, peer, tag)) == nullptr) sc_core::wait(*me.posted);
  if (m->arrived < 0) sc_core::wait(m->arrived_event);
  if (static_cast<std::int64_t>(m->data.size()) != bytes) {
    failure_ = fmt::format("{}: rank {} received {} bytes from rank {} with tag {} into a receive of {} bytes",
                           jobs_[static_cast<std::size_t>(me.job)].name, me.rank, m->data.size(), peer, tag, bytes);
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
  RankState& r = ranks_[static_cast<std::size_t>(rank)];
  r.done = cycle_;
  r.waiting = "";
  if (!jobs_[static_cast<std::size_t>(r.job)].background) --foreground_left_;
}

nlohmann::ordered_json HostLayer::job_report(int job) const {
  std::vector<double> latency;
  std::int64_t bytes = 0, messages = 0;
  for (const Message& m : messages_) {
    if (m.job != job) continue;
    ++messages;
    bytes += static_cast<std::int64_t>(m.data.size());
    if (m.arrived >= 0) latency.push_back(static_cast<double>(m.arrived + 1 - m.posted));
  }
  std::vector<std::int64_t> done;
  for (const RankState& r : ranks_) {
    if (r.job == job) done.push_back(r.done);
  }
  const bool finished = std::all_of(done.begin(), done.end(), [](std::int64_t c) { return c >= 0; });
  const LatencySummary l = summarize(latency);
  const Job& j = jobs_[static_cast<std::size_t>(job)];
  return {{"name", j.name},
          {"background", j.background},
          {"ranks", j.nodes.size()},
          {"placement", j.nodes},
          {"finished", finished},
          {"run_cycles", finished ? *std::max_element(done.begin(), done.end()) : -1},
          {"rank_cycles", done},
          {"messages", messages},
          {"message_bytes", bytes},
          {"message_latency",
           {{"avg", l.avg}, {"stdev", l.stdev}, {"p50", l.p50}, {"p99", l.p99}, {"max", l.max}, {"count", l.count}}}};
}

nlohmann::ordered_json HostLayer::report() const {
  nlohmann::ordered_json r = job_report(0);
  if (jobs_.size() > 1) {
    r["jobs"] = nlohmann::ordered_json::array();
    for (int j = 1; j < static_cast<int>(jobs_.size()); ++j) r["jobs"].push_back(job_report(j));
  }
  return r;
}

std::string HostLayer::messages_csv() const {
  std::string s = "job,src_rank,dst_rank,tag,bytes,packets,posted,sent,arrived,latency\n";
  for (const Message& m : messages_) {
    // Cycles: -1 where it has not happened; latency as in report().
    s += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", jobs_[static_cast<std::size_t>(m.job)].name, m.src_rank,
                     m.dst_rank, m.tag, m.data.size(), m.packets, m.posted, m.sent, m.arrived,
                     m.arrived >= 0 ? m.arrived + 1 - m.posted : -1);
  }
  return s;
}

std::string HostLayer::summary() const {
  std::string s;
  for (int j = 0; j < static_cast<int>(jobs_.size()); ++j) {
    const nlohmann::ordered_json r = job_report(j);
    const int ranks = r["ranks"].get<int>();
    int done = 0;
    for (const auto& c : r["rank_cycles"]) done += c.get<std::int64_t>() >= 0;
    const std::string state = r["finished"].get<bool>()
                                  ? fmt::format("{} ranks done in {} cycles", ranks, r["run_cycles"].get<std::int64_t>())
                                  : fmt::format("{} of {} ranks done by cycle {}", done, ranks, cycle_);
    s += fmt::format("{}{}{}: {}; {} messages ({} bytes), latency avg {:.1f} p99 {:.0f} cycles", j > 0 ? "\n" : "",
                     r["name"].get<std::string>(), r["background"].get<bool>() ? " (background)" : "", state,
                     r["messages"].get<std::int64_t>(), r["message_bytes"].get<std::int64_t>(),
                     r["message_latency"]["avg"].get<double>(), r["message_latency"]["p99"].get<double>());
  }
  return s;
}

}  // namespace rlroute::host
