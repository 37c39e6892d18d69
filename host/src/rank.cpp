#include "rlroute/host/rank.hpp"

#include <fmt/format.h>

#include <vector>

#include "rlroute/host/host_layer.hpp"
#include "rlroute/host/message_tag.hpp"

namespace rlroute::host {

Rank::Rank(const sc_core::sc_module_name& name, int id, int rank, HostLayer& host, Body body)
    : sc_core::sc_module(name), socket("socket"), id_(id), rank_(rank), host_(host), body_(std::move(body)) {
  SC_HAS_PROCESS(Rank);
  SC_THREAD(run);
}

int Rank::size() const { return host_.job_size(id_); }

void Rank::run() {
  body_(*this);
  host_.rank_done(id_);
}

void Rank::send(int to, std::int64_t bytes, int tag) {
  host_.rank_waits(id_, fmt::format("sends {} bytes to rank {} with tag {}", bytes, to, tag));
  transport(tlm::TLM_WRITE_COMMAND, to, bytes, tag);
}

void Rank::recv(int from, std::int64_t bytes, int tag) {
  host_.rank_waits(id_, fmt::format("receives {} bytes from rank {} with tag {}", bytes, from, tag));
  transport(tlm::TLM_READ_COMMAND, from, bytes, tag);
}

void Rank::compute(std::int64_t cycles) {
  host_.rank_waits(id_, fmt::format("computes for {} cycles", cycles));
  sc_core::wait(host_.period() * static_cast<double>(cycles));
  host_.rank_waits(id_, "");
}

void Rank::transport(tlm::tlm_command command, int peer, std::int64_t bytes, int tag) {
  // The bytes a send carries: its source rank and tag, then a count (the
  // receiver gets them as they were sent).
  std::vector<unsigned char> data(static_cast<std::size_t>(bytes));
  if (command == tlm::TLM_WRITE_COMMAND) {
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(rank_ * 31 + tag * 7 + i);
  }
  tlm::tlm_generic_payload payload;
  MessageTag message_tag(tag);
  payload.set_command(command);
  payload.set_address(static_cast<sc_dt::uint64>(peer));
  payload.set_data_ptr(data.data());
  payload.set_data_length(static_cast<unsigned>(bytes));
  payload.set_streaming_width(static_cast<unsigned>(bytes));
  payload.set_byte_enable_ptr(nullptr);
  payload.set_extension(&message_tag);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(payload, delay);
  payload.clear_extension(&message_tag);
  host_.rank_waits(id_, "");
}

}  // namespace rlroute::host
