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

// A job: a workload's ranks on their nodes. A background job shares the
// network with the others and does not hold the run: the run ends when every
// foreground job has finished, wherever the background ones are.
struct Job {
  std::string name;
  Rank::Body body;
  std::vector<int> nodes;  // rank r's node
  bool background = false;
};

class HostLayer : public Application {
 public:
  // Each job's rank r runs its body on node nodes[r], through that node's
  // network interface (nodes without a rank have none: they send nothing).
  // The first job is the one the results describe first. Throws
  // std::invalid_argument if two ranks share a node, a node does not exist,
  // no job is in the foreground, or the router cannot carry messages
  // (packets of 2 flits at most, unless single-flit packets with a payload
  // field).
  HostLayer(const Design& design, std::vector<Job> jobs);
  // One job in the foreground.
  HostLayer(const Design& design, std::vector<int> placement, const Rank::Body& body, std::string name)
      : HostLayer(design, {Job{std::move(name), body, std::move(placement), false}}) {}

  // Application.
  std::vector<AppPacket> tick(std::int64_t cycle, bool network_empty) override;
  void injected(int node, std::uint64_t cookie, std::int64_t cycle) override;
  void delivered(const DeliveredPacket& packet) override;
  bool finished() const override { return foreground_left_ == 0; }
  std::string failure() const override { return failure_; }
  // The first job's figures, with the others' under "jobs".
  nlohmann::ordered_json report() const override;
  std::string summary() const override;
  // Every message, a CSV row each in the order of their sends (docs/host.md).
  std::string messages_csv() const;

  // From the network interfaces, in their ranks' threads: block until the
  // send's last flit has entered the network, or the receive's message (the
  // oldest unmatched one from `peer` of the same job with `tag`) has arrived
  // whole; false if the receive was of another size than the message.
  bool send(int node, int peer, int tag, const unsigned char* data, std::int64_t bytes);
  bool receive(int node, int peer, int tag, unsigned char* data, std::int64_t bytes);
  // From the ranks (`rank` is the rank's index over all jobs: Rank::id()).
  void rank_done(int rank);
  void rank_waits(int rank, std::string what) { ranks_[static_cast<std::size_t>(rank)].waiting = std::move(what); }
  int job_size(int rank) const;
  std::int64_t cycle() const { return cycle_; }
  sc_core::sc_time period() const { return period_; }

 private:
  struct Message {
    int job, src_rank, dst_rank, tag;  // ranks within the job
    std::vector<unsigned char> data;
    int packets, injected = 0, delivered = 0;
    int last_length = 0;
    std::int64_t posted, sent = -1, arrived = -1;  // cycles
    sc_core::sc_event sent_event, arrived_event;
  };
  struct RankState {
    int job, rank, node;  // its job, its rank within the job, its node
    std::string waiting;  // what it waits for ("" when running)
    std::int64_t done = -1;  // the cycle it finished
    std::deque<std::size_t> unmatched;  // messages to it no receive has matched, by id in posting order
    std::unique_ptr<sc_core::sc_event> posted;  // a message to it was sent
  };
  int id_of(int job, int rank) const { return first_[static_cast<std::size_t>(job)] + rank; }
  // The packets that carry a message of `bytes` on this router.
  std::vector<int> packet_lengths(std::int64_t bytes) const;
  Message* match(int dst, int src_rank, int tag);
  void check_progress();
  nlohmann::ordered_json job_report(int job) const;

  const Design& design_;
  std::vector<Job> jobs_;
  std::vector<int> first_;  // per job: the id of its rank 0
  std::vector<int> id_of_node_;  // -1 where no rank is
  const sc_core::sc_time period_{1, sc_core::SC_NS};
  std::vector<RankState> ranks_;  // by id
  std::vector<std::unique_ptr<NetworkInterface>> interfaces_;  // by rank id: its node's
  std::vector<std::unique_ptr<Rank>> rank_modules_;
  std::deque<Message> messages_;  // by id (the packets' cookie); stable for the events
  std::vector<AppPacket> outbox_;
  std::int64_t cycle_ = 0, outstanding_ = 0;  // packets posted and not delivered
  int foreground_left_ = 0;  // foreground ranks not finished
  std::string failure_;
};

}  // namespace rlroute::host
