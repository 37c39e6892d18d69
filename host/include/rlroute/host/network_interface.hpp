// A node's network interface as the ranks see it: a TLM-2.0 target socket
// taking sends and receives (message_tag.hpp), blocking (b_transport) until
// the send's last flit has entered the network or the receive's message has
// arrived whole. The host layer does the work: it cuts messages into the
// packets the node's NIC injects and counts them back in.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace rlroute::host {

class HostLayer;

class NetworkInterface : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<NetworkInterface> socket;
  NetworkInterface(const sc_core::sc_module_name& name, int node, HostLayer& host);

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  int node_;
  HostLayer& host_;
};

}  // namespace rlroute::host
