// Bit-exact reference of the pending-episode table: ref/include/rlroute/ref/dqn_episodes.hpp.
#include "rlroute/ref/dqn_episodes.hpp"

#include <cstddef>

namespace rlroute::ref {

DqnEpisodeTable::DqnEpisodeTable(int ports, int ni_ports, int entries, int timestamp_bits)
    : ports_(ports),
      ni_ports_(ni_ports),
      ts_mask_(timestamp_bits >= 32 ? ~0u : (1u << timestamp_bits) - 1),
      entries_(static_cast<std::size_t>(entries)),
      reserves_(static_cast<std::size_t>(ports)) {
  // At reset port p holds entry p.
  for (int p = 0; p < ports && p < entries; ++p) reserves_[static_cast<std::size_t>(p)] = {true, static_cast<unsigned>(p)};
}

std::vector<bool> DqnEpisodeTable::open_entries() const {
  std::vector<bool> v;
  for (const Entry& e : entries_) v.push_back(e.valid);
  return v;
}

DqnEpisodeTable::Outputs DqnEpisodeTable::step(const Inputs& in) {
  const std::size_t n = entries_.size(), p_count = static_cast<std::size_t>(ports_);
  Outputs out;
  out.open_ok.assign(p_count, false);
  out.open_index.assign(p_count, 0);
  out.rewards.assign(p_count, {});
  out.ack_out.assign(p_count, {});

  // Opens: each with the entry its port holds.
  std::vector<int> opener(n, -1);
  for (std::size_t p = 0; p < p_count; ++p) {
    out.open_index[p] = reserves_[p].index;
    if (!in.open[p] || !reserves_[p].valid) continue;
    out.open_ok[p] = true;
    opener[reserves_[p].index] = static_cast<int>(p);
  }

  // Reserves: of the ports that hold none, the lowest-numbered gets the
  // lowest free entry nobody holds, the highest-numbered the highest (if
  // they are two ports and two entries); from the clock edge.
  std::vector<bool> unheld(n);
  for (std::size_t e = 0; e < n; ++e) unheld[e] = !entries_[e].valid;
  for (const Reserve& r : reserves_) {
    if (r.valid) unheld[r.index] = false;
  }
  std::vector<std::size_t> free_entries, lacking;
  for (std::size_t e = 0; e < n; ++e) {
    if (unheld[e]) free_entries.push_back(e);
  }
  for (std::size_t p = 0; p < p_count; ++p) {
    if (!reserves_[p].valid) lacking.push_back(p);
  }
  std::vector<Reserve> next_reserves = reserves_;
  for (std::size_t p = 0; p < p_count; ++p) {
    if (reserves_[p].valid && in.open[p]) next_reserves[p].valid = false;
  }
  if (!lacking.empty() && !free_entries.empty()) {
    next_reserves[lacking.front()] = {true, static_cast<unsigned>(free_entries.front())};
    if (lacking.size() > 1 && free_entries.size() > 1) {
      next_reserves[lacking.back()] = {true, static_cast<unsigned>(free_entries.back())};
    }
  }

  // Acks in: rewards of decided entries.
  std::vector<const EpisodeAck*> ack_of(n, nullptr);
  for (std::size_t q = 0; q < p_count; ++q) {
    const EpisodeAck& a = in.ack_in[q];
    EpisodeReward& r = out.rewards[q];
    r.index = a.index;
    if (!a.valid || a.index >= n) continue;
    const Entry& e = entries_[a.index];
    ack_of[a.index] = &a;
    r.valid = !a.cancel && e.decided;
    r.distance = e.distance;
    r.latency = (a.timestamp - e.timestamp) & ts_mask_;
  }

  // Acks out: the caller's word first, else the lowest parked entry of the port.
  std::vector<bool> sent(n);
  for (std::size_t p = 0; p < p_count; ++p) {
    if (in.immediate[p].valid) {
      out.ack_out[p] = in.immediate[p];
      continue;
    }
    for (std::size_t e = 0; e < n; ++e) {
      const Entry& x = entries_[e];
      if (x.parked && x.port == p) {
        sent[e] = true;
        out.ack_out[p] = {true, x.cancel, x.up, x.ack_timestamp};
        break;
      }
    }
  }

  // The clock edge.
  reserves_ = next_reserves;
  for (std::size_t e = 0; e < n; ++e) {
    Entry& x = entries_[e];
    bool decided_now = false;
    for (std::size_t p = 0; p < p_count; ++p) decided_now = decided_now || (in.decide[p] && in.decide_index[p] == e);
    if (opener[e] >= 0) {
      const auto p = static_cast<std::size_t>(opener[e]);
      x = Entry{true, false, false, x.cancel, in.open_up[p], static_cast<unsigned>(p), in.open_dist[p],
                in.now & ts_mask_, x.ack_timestamp};
    } else if (sent[e]) {
      x.valid = x.parked = x.decided = false;
    } else if (ack_of[e] != nullptr) {
      if (static_cast<int>(x.port) < ni_ports_) {
        x.valid = x.decided = false;
      } else {
        x.parked = true;
        x.cancel = ack_of[e]->cancel;
        x.ack_timestamp = ack_of[e]->timestamp & ts_mask_;
      }
    } else if (decided_now) {
      x.decided = true;
    }
  }
  return out;
}

}  // namespace rlroute::ref
