// A fabric is the network between the NICs: either the C++ harness of N
// Verilated routers joined by C++ link models, or the Verilated network top.
// Per cycle the simulation reads the NI outputs, sets the NI inputs, then
// calls step() (one clock edge everywhere).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/tb/dqn_agent.hpp"
#include "rlroute/tb/model.hpp"
#include "rlroute/tb/model_build.hpp"
#include "rlroute/tb/network_checker.hpp"
#include "rlroute/tb/thread_team.hpp"
#include "rlroute/gen/routing.hpp"

namespace rlroute {

class Fabric {
 public:
  virtual ~Fabric() = default;
  virtual LinkFlit ni_flit_out(int node) const = 0;
  virtual LinkCredit ni_credit_out(int node) const = 0;
  virtual void set_ni_flit_in(int node, const LinkFlit& flit) = 0;
  virtual void set_ni_credit_in(int node, const LinkCredit& credit) = 0;
  virtual void reset() = 0;
  // DQN-routing: after reset, writes the network into every router's
  // inference block, one write per clock edge, the links idle.
  virtual void program_dqn(const std::vector<ref::DqnWrite>& writes) = 0;
  // DQN-routing with routing.dqn_agent = "external": from now on, every
  // decision a router starts goes to `agent`, whose action the router takes
  // at the next edge (nullptr: none).
  virtual void set_dqn_agent(DqnAgent* agent) = 0;
  virtual void step() = 0;
  // Runs body(r) for every router r, possibly on several threads (the
  // harness's team, each router always on the same thread); body must touch
  // only router r's state, its NICs' and their NI ports (ni_flit_out,
  // set_ni_flit_in, ...). Returns when every router is done.
  virtual void for_each_router(const std::function<void(int)>& body) = 0;
  // Whether any flit crossed a router-to-router link in the last step.
  virtual bool moved_inside() const = 0;
  // First violation the checkers found (NetworkChecker); empty if none.
  virtual std::string violation() const = 0;
  // Human-readable state of every occupied VC, for deadlock reports.
  virtual std::string dump_occupied() const = 0;
  // Link utilisation: flits sent on router-to-router links so far.
  virtual std::uint64_t network_link_flits() const = 0;
  // The same per output port: flits sent so far out of each router port that
  // leads to another router, indexed router * ports + port (NI ports stay 0).
  virtual std::vector<std::uint64_t> link_flits() const = 0;
  // The longest wait of a flit at the front of an input VC so far, of any
  // flit and of body/tail flits (switch allocation only).
  virtual NetworkChecker::FrontWait longest_front_wait() const = 0;
  virtual NetworkChecker::FrontWait longest_switch_wait() const = 0;
  // Q-adaptive: the reference's copy of the routers' tables (else nullptr).
  virtual const QMirror* q_mirror() const = 0;
  // UGAL-LE: the reference's copy of the routers' contention counters (else nullptr).
  virtual const ContentionMirror* contention_mirror() const = 0;
  // Words the design's side-band check still waits for, and the failure if
  // they never come (NetworkChecker::side_band_owed).
  virtual int side_band_owed() const = 0;
  virtual std::string side_band_owed_failure(std::int64_t waited_cycles) const = 0;
  // Heads timed through the routers so far (NetworkChecker::residence).
  virtual NetworkChecker::ResidenceTable residence() const = 0;
  // Heads sent to another router so far, by hops before and VC (NetworkChecker::heads_by_hop_and_vc).
  virtual std::vector<std::uint64_t> heads_by_hop_and_vc() const = 0;
};

// What both fabrics share: the checker that watches every router port.
class CheckedFabric : public Fabric {
 public:
  CheckedFabric(const Design& design, const RoutingRelation& relation)
      : design_(design), checker_(design, relation), ni_inputs_(static_cast<size_t>(design.topo.num_nodes())) {}
  bool moved_inside() const override { return checker_.moved_inside(); }
  std::string violation() const override { return checker_.violation(); }
  std::string dump_occupied() const override { return checker_.dump_occupied(); }
  std::uint64_t network_link_flits() const override { return checker_.network_link_flits(); }
  std::vector<std::uint64_t> link_flits() const override { return checker_.link_flits(); }
  NetworkChecker::FrontWait longest_front_wait() const override { return checker_.longest_front_wait(); }
  NetworkChecker::FrontWait longest_switch_wait() const override { return checker_.longest_switch_wait(); }
  const QMirror* q_mirror() const override { return checker_.q_mirror(); }
  const ContentionMirror* contention_mirror() const override { return checker_.contention_mirror(); }
  int side_band_owed() const override { return checker_.side_band_owed(); }
  std::string side_band_owed_failure(std::int64_t waited_cycles) const override {
    return checker_.side_band_owed_failure(waited_cycles);
  }
  NetworkChecker::ResidenceTable residence() const override { return checker_.residence(); }
  std::vector<std::uint64_t> heads_by_hop_and_vc() const override { return checker_.heads_by_hop_and_vc(); }
  void set_dqn_agent(DqnAgent* agent) override { agent_ = agent; }

 protected:
  // DQN-routing: an agent is on the routers' agent ports (set_dqn_agent).
  bool has_dqn_agent() const { return agent_ != nullptr; }
  // DQN-routing: the agent's answer to a request (nullptr: none this cycle).
  const DqnAnswer* answer(int router, const DqnRequest& request) {
    if (agent_ == nullptr || !request.valid) return nullptr;
    answer_ = {request.tag, agent_->act(router, request.episode, request.observation, request.mask)};
    return &answer_;
  }
  // DQN-routing: this cycle's rewards of a router, to the agent.
  void reward(int router, const std::vector<DqnReward>& rewards) {
    for (const DqnReward& r : rewards) agent_->reward(router, r);
  }
  // The NICs set their flits before the step; the checker sees them after
  // this cycle's credits (which the NICs have already counted).
  void hold_ni_input(int node, const LinkFlit& flit) { ni_inputs_[static_cast<size_t>(node)] = flit; }
  // Router r's NI inputs to the checker, in port order.
  void check_ni_inputs(int router) {
    const Topology& t = design_.topo;
    for (int local = 0; local < t.nodes_per_router(); ++local) {
      LinkFlit& flit = ni_inputs_[static_cast<size_t>(t.node_at(router, local))];
      checker_.router_input(router, local, flit);
      flit = {};
    }
  }

  const Design& design_;
  NetworkChecker checker_;

 private:
  std::vector<LinkFlit> ni_inputs_;  // per node, held by hold_ni_input()
  DqnAgent* agent_ = nullptr;
  DqnAnswer answer_;
};

// Fixed-latency delay line for link words. latency 1 = no extra register.
// A ring of latency - 1 registers, starting empty (default words).
template <typename T>
class DelayLine {
 public:
  explicit DelayLine(int latency) : stages_(static_cast<size_t>(latency - 1)) {}
  T push(const T& value) {
    if (stages_.empty()) return value;
    T out = stages_[oldest_];
    stages_[oldest_] = value;
    if (++oldest_ == stages_.size()) oldest_ = 0;
    return out;
  }

 private:
  std::vector<T> stages_;
  size_t oldest_ = 0;
};

// N Verilated routers joined by C++ link models. With threads > 1 the
// routers' evaluation and port access, their links and (without Q-adaptive's
// or DQN-routing's mirrors) the checker's observations run on a ThreadTeam,
// each router always on the same thread, touching only its own state; what
// is shared (the checker's verdict and counts, the DQN agent) is done on the
// calling thread in router order, so the results do not depend on `threads`.
class HarnessFabric : public CheckedFabric {
 public:
  HarnessFabric(const Design& design, const RoutingRelation& relation, const ModelFactory& factory,
                int threads = 1);
  LinkFlit ni_flit_out(int node) const override;
  LinkCredit ni_credit_out(int node) const override;
  void set_ni_flit_in(int node, const LinkFlit& flit) override;
  void set_ni_credit_in(int node, const LinkCredit& credit) override;
  void reset() override;
  void program_dqn(const std::vector<ref::DqnWrite>& writes) override;
  void step() override;
  void for_each_router(const std::function<void(int)>& body) override { team_.for_each(num_routers(), body); }
  // Router r's model (its statistics ports, for tests).
  const RouterModel& router(int r) const { return *routers_[static_cast<size_t>(r)]; }

 private:
  // A link, moved each cycle by the router it feeds: its flit into that
  // router, its credit back out to the sender.
  struct Link {
    size_t from, to;  // the sender's output port and the receiver's input port (slot())
    int to_port;
    DelayLine<LinkFlit> flits;
    DelayLine<LinkCredit> credits;  // to_router's credit_o -> from_router's credit_i
  };
  size_t slot(int router, int port) const { return static_cast<size_t>(router * design_.ports + port); }
  // Router r's outputs (after a clock edge or reset) into flits_out_ / credits_out_.
  void read_outputs(int r);
  void read_all_outputs();

  int num_routers() const { return design_.topo.num_routers(); }
  // Runs body(r) for every router, on the team if the checker allows it.
  void checked_routers(const std::function<void(int)>& body);

  std::vector<std::unique_ptr<RouterModel>> routers_;
  std::vector<Link> links_;           // in order of the router and port they feed
  std::vector<size_t> first_link_;    // router r's links: links_[first_link_[r] .. first_link_[r + 1])
  // Per router port (slot()): this cycle's outputs (read after the last
  // clock edge), and the link words for its inputs, where a link drives them.
  std::vector<LinkFlit> flits_out_, flits_in_;
  std::vector<LinkCredit> credits_out_, credits_in_;
  std::vector<char> link_flit_in_, link_credit_in_;
  ThreadTeam team_;
};

// The Verilated network top the generator emits; the checker reads the
// routers' ports inside it.
class NetworkTopFabric : public CheckedFabric {
 public:
  NetworkTopFabric(const Design& design, const RoutingRelation& relation, const ModelFactory& factory);
  LinkFlit ni_flit_out(int node) const override { return net_->flit_out(node); }
  LinkCredit ni_credit_out(int node) const override { return net_->credit_out(node); }
  void set_ni_flit_in(int node, const LinkFlit& flit) override;
  void set_ni_credit_in(int node, const LinkCredit& c) override { net_->set_credit_in(node, c); }
  void reset() override { net_->reset(); }
  void program_dqn(const std::vector<ref::DqnWrite>& writes) override;
  void step() override;
  void for_each_router(const std::function<void(int)>& body) override {
    for (int r = 0; r < design_.topo.num_routers(); ++r) body(r);
  }
  NetworkModel& model() { return *net_; }

 private:
  std::unique_ptr<NetworkModel> net_;
};

}  // namespace rlroute
