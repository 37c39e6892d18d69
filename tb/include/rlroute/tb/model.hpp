// The boundary between the C++ test bench and a Verilated model. A model is a
// shared library built per design (tb/adapter/*.cpp + Verilator output) and
// loaded at run time, so one rlroute binary simulates any design.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rlroute/gen/bits.hpp"
#include "rlroute/gen/link_words.hpp"
#include "rlroute/ref/dqn_inference.hpp"

namespace rlroute {

// DQN-routing's agent port (routing.dqn_agent = "external"; rr_dqn_unit): a
// decision a router starts this cycle, and the answer it takes at the next
// clock edge (action -1: none, the packet escapes to DOR).
struct DqnRequest {
  bool valid = false;
  std::vector<std::int32_t> observation;
  std::uint32_t mask = 0;
  unsigned tag = 0;
  int episode = -1;  // the head's pending-episode entry; -1: it opened none
};
// A reward the router reports this cycle (rr_dqn_episode_unit): the ack of
// the decided episode `episode` arrived on output port `port`; the packet
// was `distance` hops away when the entry opened and reached its
// destination `latency` cycles later. 002's reward is distance / latency.
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

struct ModelShape {
  int ports;      // router model: ports; network model: nodes
  int router_ports;  // ports of one router
  int routers;       // routers in the network
  int vc_bits;
  int flit_bits;
  int id_bits;  // width of id_i, the router identity (router model)
  int feedback_bits;  // LinkLayout::feedback_bits
  int dqn_data_bits;  // DQN-routing: width of prog_data_i (DqnBlock::data_bits); 0: no programming port
  // DQN-routing's agent port (gen DqnAgentPort; all 0: none).
  int dqn_obs_values, dqn_activation_bits, dqn_actions, dqn_tag_bits, dqn_action_bits;
  int dqn_episode_bits, dqn_distance_bits, dqn_stamp_bits;
};

// One Verilated router top. Outputs are registered: reading them never
// depends on inputs set in the same cycle.
class RouterModel {
 public:
  virtual ~RouterModel() = default;
  virtual void set_router_id(std::uint64_t id) = 0;  // Topology::router_id
  virtual void set_flit_in(int port, const LinkFlit& flit) = 0;
  virtual void set_credit_in(int port, const LinkCredit& credit) = 0;
  virtual LinkFlit flit_out(int port) const = 0;
  virtual LinkCredit credit_out(int port) const = 0;
  // The harness's per-cycle path, one call per router instead of one per
  // port and word: every port's outputs into flits[p] and credits[p]; and
  // the inputs of the ports marked in drive_flit[p] / drive_credit[p] (the
  // others keep what they had).
  virtual void read_outputs(LinkFlit* flits, LinkCredit* credits) const = 0;
  virtual void write_inputs(const LinkFlit* flits, const LinkCredit* credits, const char* drive_flit,
                            const char* drive_credit) = 0;
  virtual std::uint32_t stat_flits(int port) const = 0;
  virtual std::uint32_t stat_stall(int port) const = 0;
  virtual std::uint32_t cycle() const = 0;
  virtual void reset() = 0;  // reset asserted for two cycles, inputs idle
  virtual void tick() = 0;   // one rising clock edge
  // DQN-routing: the inference block's programming port (rr_dqn_infer) takes
  // `write` at the next edge; nullptr: no write. A model without the port
  // throws std::logic_error for a write.
  virtual void set_dqn_write(const ref::DqnWrite* write) = 0;
  // DQN-routing's agent port: this cycle's request, and the answer for the
  // next edge (nullptr: none). A model without the port has no requests and
  // throws std::logic_error for an answer. The request depends on this
  // cycle's inputs (the observation counts the credits coming in): settle()
  // after setting them, before reading it.
  virtual void settle() = 0;  // evaluates the logic with the inputs set so far
  virtual DqnRequest dqn_request() const = 0;
  virtual void set_dqn_answer(const DqnAnswer* answer) = 0;
  // This cycle's rewards (after settle(): they depend on the credit inputs).
  virtual std::vector<DqnReward> dqn_rewards() const = 0;
};

// The Verilated network top: every router and link; NI ports per node.
class NetworkModel {
 public:
  virtual ~NetworkModel() = default;
  virtual void set_flit_in(int node, const LinkFlit& flit) = 0;
  virtual void set_credit_in(int node, const LinkCredit& credit) = 0;
  virtual LinkFlit flit_out(int node) const = 0;
  virtual LinkCredit credit_out(int node) const = 0;
  virtual void reset() = 0;
  virtual void tick() = 0;
  // DQN-routing: the same write for every router's inference block (RouterModel::set_dqn_write).
  virtual void set_dqn_write(const ref::DqnWrite* write) = 0;
  // DQN-routing: router `router`'s agent port (RouterModel::dqn_request;
  // settle() once after setting the NI inputs, before reading them).
  virtual void settle() = 0;
  virtual DqnRequest dqn_request(int router) const = 0;
  virtual void set_dqn_answer(int router, const DqnAnswer* answer) = 0;
  virtual std::vector<DqnReward> dqn_rewards(int router) const = 0;
  // The ports of the routers inside, for the checkers: what router `router`
  // sends out of `port` and the credit it returns there (registered outputs),
  // and the flit arriving at a router-to-router input (a link's output).
  virtual LinkFlit router_flit_out(int router, int port) const = 0;
  virtual LinkCredit router_credit_out(int router, int port) const = 0;
  virtual LinkFlit router_flit_in(int router, int port) const = 0;
  // FST waveform of the whole network; only cycles with tracing on are dumped.
  virtual void open_trace(const std::string& path) = 0;
  virtual void set_tracing(bool on) = 0;
  virtual void close_trace() = 0;
};

}  // namespace rlroute

// Entry points of the model libraries.
extern "C" {
rlroute::RouterModel* rlroute_new_router(const rlroute::ModelShape* shape);
rlroute::NetworkModel* rlroute_new_network(const rlroute::ModelShape* shape);
}
