#include "rlroute/tb/fabric.hpp"

namespace rlroute {

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
    for (int p = 0; p < design.ports; ++p) {
      if (const std::optional<PortRef> far = t.neighbor(r, p)) {
        links_.push_back(Link{r, p, far->router, far->port, DelayLine<LinkFlit>(t.link_latency(p)),
                              DelayLine<LinkCredit>(t.credit_latency(p))});
        link_flit_in_[slot(far->router, far->port)] = 1;
        link_credit_in_[slot(r, p)] = 1;
      }
    }
  }
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
    for (auto& router : routers_) router->set_dqn_write(&w);
    for (auto& router : routers_) router->tick();
  }
  for (auto& router : routers_) router->set_dqn_write(nullptr);
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

// Checking the routers' outputs, writing their link inputs, evaluating them
// and reading their new outputs touch one router each and run on the team;
// the rest of the checker and the links run here, in router, port and link
// order. The outputs are read right after the clock edge (they are
// registered), so the NICs read theirs from flits_out_ / credits_out_ too.
void HarnessFabric::step() {
  const int routers = design_.topo.num_routers();
  const int ports = design_.ports;
  const auto check_outputs = [&](int r) {
    for (int p = 0; p < ports; ++p) checker_.router_output(r, p, flits_out_[slot(r, p)]);
    for (int p = 0; p < ports; ++p) checker_.router_credit(r, p, credits_out_[slot(r, p)]);
  };
  checker_.begin_cycle();
  if (checker_.parallel_outputs()) {
    team_.for_each(routers, check_outputs);
  } else {
    for (int r = 0; r < routers; ++r) check_outputs(r);
  }
  checker_.end_outputs();
  check_ni_inputs();
  for (Link& l : links_) {
    const LinkFlit in = l.flits.push(flits_out_[slot(l.from_router, l.from_port)]);
    flits_in_[slot(l.to_router, l.to_port)] = in;
    checker_.router_input(l.to_router, l.to_port, in);
    credits_in_[slot(l.from_router, l.from_port)] = l.credits.push(credits_out_[slot(l.to_router, l.to_port)]);
  }
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
      routers_[r]->set_dqn_answer(answer(r, routers_[r]->dqn_request()));
      reward(r, routers_[r]->dqn_rewards());
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
  for (const ref::DqnWrite& w : writes) {
    net_->set_dqn_write(&w);
    net_->tick();
  }
  net_->set_dqn_write(nullptr);
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
  check_ni_inputs();
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int p = 0; p < design_.ports; ++p) {
      if (t.neighbor(r, p)) checker_.router_input(r, p, net_->router_flit_in(r, p));
    }
  }
  if (has_dqn_agent()) {
    net_->settle();
    for (int r = 0; r < t.num_routers(); ++r) {
      net_->set_dqn_answer(r, answer(r, net_->dqn_request(r)));
      reward(r, net_->dqn_rewards(r));
    }
  }
  net_->tick();
}

}  // namespace rlroute
