// One rank of a workload: a SystemC thread running the workload's body, with
// a TLM-2.0 initiator socket to its node's network interface and the
// blocking calls the body uses.
#pragma once

#include <cstdint>
#include <functional>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace rlroute::host {

class HostLayer;

class Rank : public sc_core::sc_module {
 public:
  using Body = std::function<void(Rank&)>;
  tlm_utils::simple_initiator_socket<Rank> socket;
  // `id`: the rank's index over every job's ranks; `rank`: within its job.
  Rank(const sc_core::sc_module_name& name, int id, int rank, HostLayer& host, Body body);

  int rank() const { return rank_; }
  int size() const;  // of its job
  // Returns once the message's last flit has entered the network.
  void send(int to, std::int64_t bytes, int tag);
  // Returns once the oldest unmatched message from `from` with `tag` has
  // arrived whole; a message of another size is the run's failure.
  void recv(int from, std::int64_t bytes, int tag);
  void compute(std::int64_t cycles);

 private:
  void run();
  void transport(tlm::tlm_command command, int peer, std::int64_t bytes, int tag);
  int id_, rank_;
  HostLayer& host_;
  Body body_;
};

}  // namespace rlroute::host
