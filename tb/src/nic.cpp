#include "rlroute/tb/nic.hpp"

namespace rlroute {

Nic::Nic(int node, const Design& design, const TrafficPattern* pattern, const NicSettings& settings,
         std::uint64_t seed)
    : node_(node), design_(design), pattern_(pattern), settings_(settings),
      rng_(seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(node) + 1),
      credits_(static_cast<size_t>(design.vcs), design.buffer_flits),
      reassembly_(static_cast<size_t>(design.vcs)) {}

void Nic::change_traffic(const TrafficPattern& pattern, double load) {
  pattern_ = &pattern;
  settings_.load = load;
}

int Nic::generate(std::int64_t cycle, bool measured) {
  if (pattern_ == nullptr) return 0;
  const double mean_flits = 0.5 * (settings_.packet_flits_min + settings_.packet_flits_max);
  const double p = settings_.load / mean_flits;
  if (std::uniform_real_distribution<double>(0.0, 1.0)(rng_) >= p) return 0;
  const int dst = pattern_->destination(node_, rng_);
  if (dst < 0) return 0;
  const int length =
      std::uniform_int_distribution<int>(settings_.packet_flits_min, settings_.packet_flits_max)(rng_);
  enqueue(dst, length, cycle, measured);
  return length;
}

void Nic::enqueue(int dst, int length, std::int64_t cycle, bool measured, std::uint64_t cookie) {
  queue_.push_back(Pending{dst, length, cycle, measured, cookie});
}

LinkFlit Nic::inject(std::int64_t cycle) {
  if (!sending_ && !queue_.empty()) {
    const Pending next = queue_.front();  // a copy: pop_front() below frees the original
    // Virtual cut-through at injection too: start only on a VC with room for
    // the whole packet. Round-robin over the VCs the relation allows.
    for (int i = 0; i < design_.vcs; ++i) {
      const int vc = (next_vc_ + i) % design_.vcs;
      if ((settings_.injection_vcs & (1u << vc)) && credits_[vc] >= next.length) {
        sending_ = std::make_unique<Sending>(Sending{next, next_id_, vc, 0, cycle});
        next_id_ = (next_id_ + 1) & 0xffffu;
        next_vc_ = (vc + 1) % design_.vcs;
        queue_.pop_front();
        started_ = Started{next, sending_->id, cycle};
        break;
      }
    }
  }
  if (!sending_) return {};
  Sending& s = *sending_;
  const unsigned src = design_.topo.address_of(node_);
  LinkFlit f;
  f.valid = true;
  f.vc = s.vc;
  f.head = s.next_flit == 0;
  f.tail = s.next_flit == s.packet.length - 1;
  if (f.head) {
    Header h;
    h.dst = design_.topo.address_of(s.packet.dst);
    h.src = src;
    h.length = static_cast<unsigned>(s.packet.length);
    h.packet_id = s.id;
    // DQN-routing: one packet in routing.dqn_ack_ratio asks for an ack
    // (ReqAck and AckRatio of [Lonardo 2019]), the NIC's first included.
    // No ack without a pending-episode table (routing.dqn_episodes = 0).
    if (design_.link.side_band == SideBand::DqnAck && design_.cfg.dqn_ack_ratio > 0) {
      h.req_ack = heads_sent_ % static_cast<std::uint64_t>(design_.cfg.dqn_ack_ratio) == 0;
    }
    ++heads_sent_;
    h.timestamp = static_cast<std::uint64_t>(cycle) & ((std::uint64_t{1} << design_.header.timestamp.width) - 1);
    f.data = f.tail ? single_flit_packet(design_, h) : design_.encode(h);
  } else if (f.tail) {
    std::vector<FlitData> payload;
    for (int i = 0; i < s.packet.length - 2; ++i) payload.push_back(payload_flit(design_, src, s.id, i));
    f.data = footer_flit(design_, payload);
  } else {
    f.data = payload_flit(design_, src, s.id, s.next_flit - 1);
  }
  --credits_[s.vc];
  if (++s.next_flit == s.packet.length) sending_.reset();
  return f;
}

void Nic::credit_from_router(const LinkCredit& credit) {
  if (credit.valid) ++credits_[credit.vc];
}

LinkCredit Nic::eject(const LinkFlit& flit, std::int64_t cycle) {
  const LinkCredit out = pending_credit_;
  pending_credit_ = {};
  if (!flit.valid) return out;
  std::vector<FlitData>& packet = reassembly_[flit.vc];
  if (flit.head && !packet.empty()) {
    // A head while a packet is open on this VC: the open one lost its tail.
    received_.push_back({examine(design_, packet), cycle});
    packet.clear();
  }
  packet.push_back(flit.data);
  if (flit.tail) {
    received_.push_back({examine(design_, packet), cycle});
    packet.clear();
  }
  pending_credit_ = LinkCredit{true, flit.vc};
  return out;
}

void Nic::report_events(Scoreboard& scoreboard) {
  for (const Received& r : received_) scoreboard.delivered(node_, r.arrival, r.cycle);
  received_.clear();
  if (started_) {
    const Pending& p = started_->packet;
    scoreboard.injected(node_, p.dst, started_->id, p.length, p.created, started_->cycle, p.measured, p.cookie);
    started_.reset();
  }
}

std::int64_t Nic::drop_queue() {
  const auto n = static_cast<std::int64_t>(queue_.size());
  queue_.clear();
  return n;
}

}  // namespace rlroute
