#include "rlroute/host/network_interface.hpp"

#include "rlroute/host/host_layer.hpp"
#include "rlroute/host/message_tag.hpp"

namespace rlroute::host {

NetworkInterface::NetworkInterface(const sc_core::sc_module_name& name, int node, HostLayer& host)
    : sc_core::sc_module(name), socket("socket"), node_(node), host_(host) {
  socket.register_b_transport(this, &NetworkInterface::b_transport);
}

void NetworkInterface::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  // The ranks run at the network's clock: a request starts at the cycle it
  // is made, with no annotated delay.
  sc_core::wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  const MessageTag* tag = payload.get_extension<MessageTag>();
  if (tag == nullptr || payload.get_byte_enable_ptr() != nullptr ||
      payload.get_streaming_width() != payload.get_data_length()) {
    payload.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const int peer = static_cast<int>(payload.get_address());
  const std::int64_t bytes = payload.get_data_length();
  bool ok = false;
  switch (payload.get_command()) {
    case tlm::TLM_WRITE_COMMAND:
      ok = host_.send(node_, peer, tag->tag, payload.get_data_ptr(), bytes);
      break;
    case tlm::TLM_READ_COMMAND:
      ok = host_.receive(node_, peer, tag->tag, payload.get_data_ptr(), bytes);
      break;
    default:
      payload.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return;
  }
  payload.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE);
}

}  // namespace rlroute::host
