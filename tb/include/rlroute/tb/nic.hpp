// Network interface model: Bernoulli packet source with an unbounded queue,
// virtual cut-through injection with credits, and the ejection side that
// reassembles packets per VC, examines them and reports them to the scoreboard (report()).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/tb/model.hpp"
#include "rlroute/tb/scoreboard.hpp"
#include "rlroute/tb/traffic.hpp"

namespace rlroute {

struct NicSettings {
  double load = 0.1;         // offered flits/node/cycle
  int packet_flits_min = 4;  // sizes uniform in [min, max]
  int packet_flits_max = 4;
  std::uint32_t injection_vcs = 1;
};

class Nic {
 public:
  // `pattern` null: the NIC sends only what enqueue() gives it (an
  // application model decides; generate() makes nothing).
  Nic(int node, const Design& design, const TrafficPattern* pattern, const NicSettings& settings,
      std::uint64_t seed);

  // From now on: destinations from `pattern` (which must outlive the NIC or
  // the next change) at `load` flits/node/cycle (SimOptions::phases).
  void change_traffic(const TrafficPattern& pattern, double load);
  // Maybe creates a packet this cycle (Bernoulli trial); returns its length
  // in flits, 0 if none.
  int generate(std::int64_t cycle, bool measured);
  // Adds one packet to the queue now (an application's, tests, single-packet
  // probes); `cookie` comes back on delivery (DeliveredPacket::cookie).
  void enqueue(int dst, int length, std::int64_t cycle, bool measured, std::uint64_t cookie = 0);
  // The flit to drive into the router's NI input this cycle.
  LinkFlit inject(std::int64_t cycle);
  void credit_from_router(const LinkCredit& credit);
  // A flit arriving from the router; returns the credit to send this cycle
  // (for the flit of the previous cycle: the NIC frees a slot after one cycle).
  LinkCredit eject(const LinkFlit& flit, std::int64_t cycle);
  // What the scoreboard must hear of this cycle, in the order it happened:
  // the packets received (eject) and the packet started (inject). The NICs
  // of different routers may run on different threads; their reports go to
  // the one scoreboard afterwards, node by node.
  void report(Scoreboard& scoreboard) {
    if (!received_.empty() || started_) report_events(scoreboard);
  }
  // Drops queued packets that have not started injection; returns how many.
  std::int64_t drop_queue();
  bool idle() const { return queue_.empty() && sending_ == nullptr; }
  // The cookie of the packet whose injection started this cycle, if one did
  // (until report()).
  std::optional<std::uint64_t> started_cookie() const {
    return started_ ? std::optional<std::uint64_t>(started_->packet.cookie) : std::nullopt;
  }
  std::size_t queued() const { return queue_.size(); }

 private:
  struct Pending {
    int dst, length;
    std::int64_t created;
    bool measured;
    std::uint64_t cookie;
  };
  struct Sending {
    Pending packet;
    unsigned id;
    int vc;
    int next_flit = 0;
    std::int64_t head_cycle;
  };
  int node_;
  const Design& design_;
  const TrafficPattern* pattern_;
  NicSettings settings_;
  Rng rng_;
  std::deque<Pending> queue_;
  std::unique_ptr<Sending> sending_;
  std::vector<int> credits_;
  int next_vc_ = 0;
  unsigned next_id_ = 0;
  std::uint64_t heads_sent_ = 0;
  std::vector<std::vector<FlitData>> reassembly_;  // per VC
  LinkCredit pending_credit_;
  void report_events(Scoreboard& scoreboard);
  // Not yet reported (report()).
  struct Received {
    Arrival arrival;
    std::int64_t cycle;
  };
  std::vector<Received> received_;
  struct Started {
    Pending packet;
    unsigned id;
    std::int64_t cycle;
  };
  std::optional<Started> started_;
};

}  // namespace rlroute
