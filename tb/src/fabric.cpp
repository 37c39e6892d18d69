#include "rlroute/tb/fabric.hpp"

#include <stdexcept>

namespace rlroute {

namespace {
// A model's DQN ports, which a caller that programs or asks them needs.
DqnModelPorts& dqn_ports(DqnModelPorts* ports) {
  if (ports == nullptr) throw std::logic_error("this model has no DQN ports");
  return *ports;
}
}  // namespace

HarnessFabric::HarnessFabric(const Design& design, const RoutingRelation& relation, const ModelFactory& factory,
                             int threads)
    : CheckedFabric(design, relation), team_(threads) {
  const Topology& t = design.topo;
  const size_t slots = static_cast<size_t>(t.num_routers() * design.ports);
  flits_out_.resize(slots);
  flits_in_.resize(slots);
  credits_out_.resize(slots);
  credits_in_.resize(slots);
  link_flit_in_.assign(slots, 0);
  link_credit_in_.assign(slots, 0);
  for (int r = 0; r < t.num_routers(); ++r) {
    routers_.push_back(factory.new_router());
    first_link_.push_back(links_.size());
    // The links feeding router r, by its input port (links are symmetric:
    // input port p of r is fed by the output port its neighbour on p has
    // towards r).
    for (int p = 0; p < design.ports; ++p) {
      if (const std::optional<PortRef> far = t.neighbor(r, p)) {
        links_.push_back(Link{slot(far->router, far->port), slot(r, p), p, DelayLine<LinkFlit>(t.link_latency(far->port)),
                              DelayLine<LinkCredit>(t.credit_latency(far->port))});
        link_flit_in_[slot(r, p)] = 1;
        link_credit_in_[slot(far->router, far->port)] = 1;
      }
    }
  }
  first_link_.push_back(links_.size());
}

void HarnessFabric::reset() {
  const Topology& t = design_.topo;
  for (int r = 0; r < t.num_routers(); ++r) {
    routers_[r]->set_router_id(t.router_id(r));
    routers_[r]->reset();
  }
  read_all_outputs();
}

void HarnessFabric::read_outputs(int r) {
  routers_[r]->read_outputs(&flits_out_[slot(r, 0)], &credits_out_[slot(r, 0)]);
}

void HarnessFabric::read_all_outputs() {
  for (int r = 0; r < design_.topo.num_routers(); ++r) read_outputs(r);
}

void HarnessFabric::program_dqn(const std::vector<ref::DqnWrite>& writes) {
  for (const ref::DqnWrite& w : writes) {
    for (auto& router : routers_) dqn_ports(router->dqn()).set_write(&w);
    for (auto& router : routers_) router->tick();
  }
  for (auto& router : routers_) dqn_ports(router->dqn()).set_write(nullptr);
  read_all_outputs();
}

LinkFlit HarnessFabric::ni_flit_out(int node) const {
  return flits_out_[slot(design_.topo.router_of_node(node), design_.topo.local_of_node(node))];
}

LinkCredit HarnessFabric::ni_credit_out(int node) const {
  return credits_out_[slot(design_.topo.router_of_node(node), design_.topo.local_of_node(node))];
}

void HarnessFabric::set_ni_flit_in(int node, const LinkFlit& flit) {
  const int r = design_.topo.router_of_node(node);
  const int p = design_.topo.local_of_node(node);
  routers_[r]->set_flit_in(p, flit);
  hold_ni_input(node, flit);
}

void HarnessFabric::set_ni_credit_in(int node, const LinkCredit& credit) {
  routers_[design_.topo.router_of_node(node)]->set_credit_in(design_.topo.local_of_node(node), credit);
}

void HarnessFabric::checked_routers(const std::function<void(int)>& body) {
  if (checker_.routers_in_parallel()) {
    team_.for_each(num_routers(), body);
  } else {
    for (int r = 0; r < num_routers(); ++r) body(r);
  }
}

// Per router, each phase on the team (where the checker allows): check its
// outputs; move its links (flits in, credits out) and check its inputs;
// write its inputs, evaluate it and read its new outputs (registered, so
// read right after the clock edge; the NICs read theirs from flits_out_ /
// credits_out_ too). The checker folds each phase's findings in router
// order (end_outputs, end_inputs).
void HarnessFabric::step() {
  const int routers = num_routers();
  const int ports = design_.ports;
  checker_.begin_cycle();
  checked_routers([&](int r) {
    for (int p = 0; p < ports; ++p) checker_.router_output(r, p, flits_out_[slot(r, p)]);
    for (int p = 0; p < ports; ++p) checker_.router_credit(r, p, credits_out_[slot(r, p)]);
  });
  checker_.end_outputs();
  // A link's words are written only by the router it feeds; the outputs it
  // reads are not written until the next phase.
  checked_routers([&](int r) {
    check_ni_inputs(r);
    Link* const end = links_.data() + first_link_[static_cast<size_t>(r) + 1];
    for (Link* l = links_.data() + first_link_[static_cast<size_t>(r)]; l != end; ++l) {
      const LinkFlit in = l->flits.push(flits_out_[l->from]);
      flits_in_[l->to] = in;
      checker_.router_input(r, l->to_port, in);
      credits_in_[l->from] = l->credits.push(credits_out_[l->to]);
    }
  });
  checker_.end_inputs();
  // A DQN agent answers between the routers' settling and their clock edge,
  // here, router by router.
  const bool agent = has_dqn_agent();
  team_.for_each(routers, [&](int r) {
    RouterModel& router = *routers_[r];
    const size_t at = slot(r, 0);
    router.write_inputs(&flits_in_[at], &credits_in_[at], &link_flit_in_[at], &link_credit_in_[at]);
    if (agent) {
      router.settle();
    } else {
      router.tick();
      read_outputs(r);
    }
  });
  if (agent) {
    for (int r = 0; r < routers; ++r) {
      DqnModelPorts& ports = dqn_ports(routers_[r]->dqn());
      ports.set_answer(0, answer(r, ports.request(0)));
      reward(r, ports.rewards(0));
    }
    team_.for_each(routers, [&](int r) {
      routers_[r]->tick();
      read_outputs(r);
    });
  }
}

NetworkTopFabric::NetworkTopFabric(const Design& design, const RoutingRelation& relation, const ModelFactory& factory)
    : CheckedFabric(design, relation), net_(factory.new_network()) {}

void NetworkTopFabric::program_dqn(const std::vector<ref::DqnWrite>& writes) {
  DqnModelPorts& ports = dqn_ports(net_->dqn());
  for (const ref::DqnWrite& w : writes) {
    ports.set_write(&w);
    net_->tick();
  }
  ports.set_write(nullptr);
}

void NetworkTopFabric::set_ni_flit_in(int node, const LinkFlit& flit) {
  net_->set_flit_in(node, flit);
  hold_ni_input(node, flit);
}

// The same observations as the harness, read from inside the network top:
// router outputs are registered, and a router-to-router input is a link's
// output (a wire from the far router's output, or the link's last register),
// so after the last clock edge both hold this cycle's values; the NI inputs
// are the ones the NICs set.
void NetworkTopFabric::step() {
  const Topology& t = design_.topo;
  checker_.begin_cycle();
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int p = 0; p < design_.ports; ++p) checker_.router_output(r, p, net_->router_flit_out(r, p));
    for (int p = 0; p < design_.ports; ++p) checker_.router_credit(r, p, net_->router_credit_out(r, p));
  }
  checker_.end_outputs();
  for (int r = 0; r < t.num_routers(); ++r) {
    check_ni_inputs(r);
    for (int p = 0; p < design_.ports; ++p) {
      if (t.neighbor(r, p)) checker_.router_input(r, p, net_->router_flit_in(r, p));
    }
  }
  checker_.end_inputs();
  if (has_dqn_agent()) {
    net_->settle();
    DqnModelPorts& ports = dqn_ports(net_->dqn());
    for (int r = 0; r < t.num_routers(); ++r) {
      ports.set_answer(r, answer(r, ports.request(r)));
      reward(r, ports.rewards(r));
    }
  }
  net_->tick();
}

}  // namespace rlroute
