// DQN-routing's ports on a Verilated model, the DQN family's extension of the
// model boundary (rlroute/tb/model.hpp): the inference blocks' programming
// port (routing.dqn_agent = "block"), or the agent port through which a
// software agent decides for the routers (routing.dqn_agent = "external";
// rr_dqn_unit) and learns from their rewards (rr_dqn_episode_unit). A model
// of another design has none (RouterModel::dqn() is nullptr).
#pragma once

#include <cstdint>
#include <vector>

#include "rlroute/ref/dqn_inference.hpp"

namespace rlroute {

// A decision a router starts this cycle, and the answer it takes at the next
// clock edge (action -1: none, the packet escapes to DOR).
struct DqnRequest {
  bool valid = false;
  std::vector<std::int32_t> observation;
  std::uint32_t mask = 0;
  unsigned tag = 0;
  int episode = -1;  // the head's pending-episode entry; -1: it opened none
};
// A reward the router reports this cycle: the ack of the decided episode
// `episode` arrived on output port `port`; the packet was `distance` hops
// away when the entry opened and reached its destination `latency` cycles
// later. The reward of Lonardo (2019) is distance / latency.
struct DqnReward {
  int port = 0;
  unsigned episode = 0;
  unsigned distance = 0;
  std::uint32_t latency = 0;
};
struct DqnAnswer {
  unsigned tag = 0;
  int action = -1;
};

// The widths of the ports (gen DqnBlock and DqnAgentPort; 0: no such port).
struct DqnShape {
  int data_bits = 0;  // prog_data_i (DqnBlock::data_bits); 0: no programming port
  int obs_values = 0, activation_bits = 0, actions = 0, tag_bits = 0, action_bits = 0;  // 0: no agent port
  int episode_bits = 0, distance_bits = 0, stamp_bits = 0;
  bool agent() const { return tag_bits > 0; }
};

// Router `router` of the model (a router model: 0). The request and the
// rewards depend on this cycle's inputs (the observation counts the credits
// coming in): the model's settle() after setting them, before reading.
class DqnModelPorts {
 public:
  virtual ~DqnModelPorts() = default;
  // The programming port takes `write` at the next edge (nullptr: none);
  // std::logic_error for a write without the port. One write reaches every
  // router's block.
  virtual void set_write(const ref::DqnWrite* write) = 0;
  // The agent port: this cycle's request, the answer for the next edge
  // (nullptr: none; std::logic_error for an answer without the port), and
  // this cycle's rewards. Without the port: no requests, no rewards.
  virtual DqnRequest request(int router) const = 0;
  virtual void set_answer(int router, const DqnAnswer* answer) = 0;
  virtual std::vector<DqnReward> rewards(int router) const = 0;
};

}  // namespace rlroute
