#include "rlroute/tb/fabric.hpp"

namespace rlroute {

HarnessFabric::HarnessFabric(const Design& design, const RoutingRelation& relation, const ModelFactory& factory)
    : CheckedFabric(design, relation) {
  const Topology& t = design.topo;
  for (int r = 0; r < t.num_routers(); ++r) {
    routers_.push_back(factory.new_router());
    for (int p = 0; p < design.ports; ++p) {
      if (const std::optional<PortRef> far = t.neighbor(r, p)) {
        links_.push_back(Link{r, p, far->router, far->port, DelayLine<LinkFlit>(t.link_latency(p)),
                              DelayLine<LinkCredit>(t.credit_latency(p))});
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
}

void HarnessFabric::program_dqn(const std::vector<ref::DqnWrite>& writes) {
  for (const ref::DqnWrite& w : writes) {
    for (auto& router : routers_) router->set_dqn_write(&w);
    for (auto& router : routers_) router->tick();
  }
  for (auto& router : routers_) router->set_dqn_write(nullptr);
}

LinkFlit HarnessFabric::ni_flit_out(int node) const {
  return routers_[design_.topo.router_of_node(node)]->flit_out(design_.topo.local_of_node(node));
}

LinkCredit HarnessFabric::ni_credit_out(int node) const {
  return routers_[design_.topo.router_of_node(node)]->credit_out(design_.topo.local_of_node(node));
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

void HarnessFabric::step() {
  const Topology& t = design_.topo;
  checker_.begin_cycle();
  std::vector<LinkFlit> flits_out(routers_.size() * static_cast<size_t>(design_.ports));
  std::vector<LinkCredit> credits_out(flits_out.size());
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int p = 0; p < design_.ports; ++p) {
      const size_t i = static_cast<size_t>(r * design_.ports + p);
      flits_out[i] = routers_[r]->flit_out(p);
      checker_.router_output(r, p, flits_out[i]);
    }
    for (int p = 0; p < design_.ports; ++p) {
      const size_t i = static_cast<size_t>(r * design_.ports + p);
      credits_out[i] = routers_[r]->credit_out(p);
      checker_.router_credit(r, p, credits_out[i]);
    }
  }
  check_ni_inputs();
  for (Link& l : links_) {
    const LinkFlit in = l.flits.push(flits_out[static_cast<size_t>(l.from_router * design_.ports + l.from_port)]);
    routers_[l.to_router]->set_flit_in(l.to_port, in);
    checker_.router_input(l.to_router, l.to_port, in);
    const LinkCredit back = l.credits.push(credits_out[static_cast<size_t>(l.to_router * design_.ports + l.to_port)]);
    routers_[l.from_router]->set_credit_in(l.from_port, back);
  }
  for (int r = 0; r < t.num_routers(); ++r) {
    if (has_dqn_agent()) {
      routers_[r]->settle();
      routers_[r]->set_dqn_answer(answer(r, routers_[r]->dqn_request()));
      reward(r, routers_[r]->dqn_rewards());
    }
  }
  for (auto& router : routers_) router->tick();
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
