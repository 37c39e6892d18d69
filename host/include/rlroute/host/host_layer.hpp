// The SystemC host layer: ranks (SystemC threads) send and receive messages
// through their nodes' network interfaces (TLM-2.0 sockets), and the layer,
// an Application to run_simulation, turns the messages into the packets the
// NICs inject into the RTL network and counts them back in. One network
// cycle is one clock period of SystemC time: each tick() runs the SystemC
// kernel over the next period, so the ranks and the RTL advance together.
// SystemC allows one elaboration per process: one HostLayer per process.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/host/network_interface.hpp"
#include "rlroute/host/rank.hpp"
#include "rlroute/tb/application.hpp"

namespace rlroute::host {

class HostLayer : public Application {
 public:
  // Rank r runs body(rank) on node placement[r], through that node's network
  // interface (nodes without a rank have none: they send nothing). `name` names the workload in the results. Throws
  // std::invalid_argument if the placement is not one rank per distinct node
  // or the router cannot carry messages (packets under 3 flits).
  HostLayer(const Design& design, std::vector<int> placement, const Rank::Body& body, std::string name);

  // Application.
  std::vector<AppPacket> tick(std::int64_t cycle, bool network_empty) override;
  void injected(int node, std::uint64_t cookie, std::int64_t cycle) override;
  void delivered(const DeliveredPacket& packet) override;
  bool finished() const override { return ranks_done_ == static_cast<int>(ranks_.size()); }
  std::string failure() const override { return failure_; }
  nlohmann::ordered_json report() const override;
  std::string summary() const override;
  // Every message, a CSV row each in the order of their sends (docs/host.md).
  std::string messages_csv() const;

  // From the network interfaces, in their ranks' threads: block until the
  // send's last flit has entered the network, or the receive's message (the
  // oldest unmatched one from `peer` with `tag`) has arrived whole; false if
  // the receive was of another size than the message (which it then drops).
  bool send(int node, int peer, int tag, const unsigned char* data, std::int64_t bytes);
  bool receive(int node, int peer, int tag, unsigned char* data, std::int64_t bytes);
  // From the ranks.
  void rank_done(int rank);
  void rank_waits(int rank, std::string what) { waiting_[static_cast<std::size_t>(rank)] = std::move(what); }
  std::int64_t cycle() const { return cycle_; }
  sc_core::sc_time period() const { return period_; }
  int ranks() const { return static_cast<int>(ranks_.size()); }

 private:
  struct Message {
    int src_rank, dst_rank, tag;
    std::vector<unsigned char> data;
    int packets, injected = 0, delivered = 0;
    int last_length = 0;
    std::int64_t posted, sent = -1, arrived = -1;  // cycles
    bool matched = false;
    sc_core::sc_event sent_event, arrived_event;
  };
  Message* match(int dst_rank, int src_rank, int tag);
  void check_progress();

  const Design& design_;
  std::vector<int> placement_, rank_of_node_;
  std::string name_;
  const sc_core::sc_time period_{1, sc_core::SC_NS};
  std::vector<std::unique_ptr<NetworkInterface>> interfaces_;  // per rank: its node's
  std::vector<std::unique_ptr<Rank>> ranks_;
  std::deque<Message> messages_;  // by id (the packets' cookie); stable for the events
  std::vector<std::deque<std::size_t>> unmatched_;  // per destination rank: ids in posting order
  std::vector<std::unique_ptr<sc_core::sc_event>> posted_;  // per destination rank
  std::vector<AppPacket> outbox_;
  std::vector<std::string> waiting_;  // per rank: what it waits for ("" when running)
  std::vector<std::int64_t> done_cycle_;
  std::int64_t cycle_ = 0, outstanding_ = 0;  // packets posted and not delivered
  int ranks_done_ = 0;
  std::string failure_;
};

}  // namespace rlroute::host
