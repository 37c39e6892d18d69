// How a message crosses the TLM-2.0 socket between a rank and its node's
// network interface: a tlm_generic_payload whose command is
// TLM_WRITE_COMMAND to send and TLM_READ_COMMAND to receive, whose address
// is the peer rank (the destination of a send, the source of a receive),
// whose data pointer and length are the message's bytes, and whose
// MessageTag extension is its tag.
#pragma once

#include <tlm>

namespace rlroute::host {

struct MessageTag : tlm::tlm_extension<MessageTag> {
  explicit MessageTag(int tag = 0) : tag(tag) {}
  tlm::tlm_extension_base* clone() const override { return new MessageTag(tag); }
  void copy_from(const tlm::tlm_extension_base& other) override { tag = static_cast<const MessageTag&>(other).tag; }
  int tag;
};

}  // namespace rlroute::host
