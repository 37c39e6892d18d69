// The boundary between the C++ test bench and a Verilated model. A model is a
// shared library built per design (tb/adapter/*.cpp + Verilator output) and
// loaded at run time, so one rlroute binary simulates any design.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rlroute/gen/bits.hpp"
#include "rlroute/gen/link_words.hpp"
#include "rlroute/tb/dqn_model_ports.hpp"

namespace rlroute {

struct ModelShape {
  int ports;      // router model: ports; network model: nodes
  int router_ports;  // ports of one router
  int routers;       // routers in the network
  int vc_bits;
  int flit_bits;
  int id_bits;  // width of id_i, the router identity (router model)
  int feedback_bits;  // LinkLayout::feedback_bits
  DqnShape dqn;       // DQN-routing's ports (all 0: none)
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
  virtual void settle() = 0;  // evaluates the logic with the inputs set so far
  // DQN-routing's ports (router 0), or nullptr for a design without them.
  virtual DqnModelPorts* dqn() = 0;
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
  virtual void settle() = 0;  // evaluates the logic with the inputs set so far
  // DQN-routing's ports of every router, or nullptr for a design without them.
  virtual DqnModelPorts* dqn() = 0;
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
