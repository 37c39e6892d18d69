#include "rlroute/fabric.hpp"

#include <fmt/format.h>

namespace rlroute {

HarnessFabric::HarnessFabric(const Design& design, const RoutingRelation& relation,
                             const ModelFactory& factory)
    : design_(design), relation_(relation) {
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
  input_vcs_.resize(static_cast<size_t>(t.num_routers() * design.ports * design.vcs));
  output_owner_.assign(input_vcs_.size(), -1);
  port_flits_.assign(static_cast<size_t>(t.num_routers() * design.ports), 0);
  heads_in_router_.resize(static_cast<size_t>(t.num_routers()));
}

HarnessFabric::InputVc& HarnessFabric::input_vc(int router, int port, int vc) {
  return input_vcs_[static_cast<size_t>((router * design_.ports + port) * design_.vcs + vc)];
}

void HarnessFabric::reset() {
  const Topology& t = design_.topo;
  for (int r = 0; r < t.num_routers(); ++r) {
    routers_[r]->set_router_id(t.router_id(r));
    routers_[r]->reset();
  }
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
  observe_input(r, p, flit);
}

void HarnessFabric::set_ni_credit_in(int node, const LinkCredit& credit) {
  routers_[design_.topo.router_of_node(node)]->set_credit_in(design_.topo.local_of_node(node), credit);
}

void HarnessFabric::fail(const std::string& what) {
  if (violation_.empty()) violation_ = what;
}

void HarnessFabric::observe_input(int router, int port, const LinkFlit& flit) {
  if (!flit.valid) return;
  InputVc& ivc = input_vc(router, port, flit.vc);
  if (++ivc.occupancy > design_.buffer_flits) {
    fail(fmt::format("credit protocol: router {} input port {} vc{} received a flit with its {}-flit buffer full",
                     router, port, flit.vc, design_.buffer_flits));
  }
  if (flit.head) {
    const Header h = design_.decode(flit.data);
    const unsigned key = packet_key(h.src, h.packet_id);
    ivc.packets.push_back(key);
    heads_in_router_[router][key] = {port, flit.vc, route_state_of(design_, h)};
  }
}

void HarnessFabric::observe_output(int router, int port, const LinkFlit& flit) {
  const Topology& t = design_.topo;
  long& owner = output_owner_[static_cast<size_t>((router * design_.ports + port) * design_.vcs + flit.vc)];
  if (!flit.head) {
    if (owner < 0) fail(fmt::format("router {} port {} vc{}: body flit with no packet owning the VC", router, port, flit.vc));
    if (flit.tail) owner = -1;
    return;
  }
  const Header h = design_.decode(flit.data);
  const unsigned key = packet_key(h.src, h.packet_id);
  if (owner >= 0) {
    fail(fmt::format("router {} port {} vc{}: head of packet {:#x} interleaved into packet {:#x}", router, port,
                     flit.vc, key, owner));
  }
  owner = flit.tail ? -1 : static_cast<long>(key);
  auto it = heads_in_router_[router].find(key);
  if (it == heads_in_router_[router].end()) {
    fail(fmt::format("router {} port {}: head of packet {:#x} left without having entered", router, port, key));
    return;
  }
  const HeadIn in = it->second;
  heads_in_router_[router].erase(it);
  std::deque<unsigned>& queue = input_vc(router, in.port, in.vc).packets;
  if (!queue.empty() && queue.front() == key) queue.pop_front();

  const RouteState out_state = route_state_of(design_, h);
  if (in.state.dst < 0 || out_state.dst < 0) {
    fail(fmt::format("router {}: packet {:#x} has an invalid destination address {:#x}", router, key, h.dst));
    return;
  }
  bool allowed = false;
  std::string options;
  for (const RouteOption& o : relation_.next_hops(router, in.port, in.vc, in.state)) {
    if (o.out_port == port && (o.vc_mask & (1u << flit.vc)) && o.next == out_state) allowed = true;
    if (options.size() < 400) options += fmt::format(" port {} vcs {:#b} ({});", o.out_port, o.vc_mask, describe(design_, o.next));
  }
  if (!allowed) {
    fail(fmt::format("route checker: router {} sent packet {:#x} ({}) from input port {} vc{} to port {} vc{} as ({}); "
                     "the {} relation allows:{}",
                     router, key, describe(design_, in.state), in.port, in.vc, port, flit.vc, describe(design_, out_state),
                     relation_.name(), options));
  }
  if (!t.is_ni_port(port)) {
    const int hops = ++hops_[key];
    if (static_cast<int>(h.hops) != (hops & ((1 << design_.header.hops.width) - 1))) {
      fail(fmt::format("router {}: packet {:#x} header hop count {} but the harness counted {}", router, key,
                       h.hops, hops));
    }
  } else {
    hops_.erase(key);  // ejected: its source may reuse the packet id after 2^16 packets
  }
}

void HarnessFabric::step() {
  const Topology& t = design_.topo;
  moved_ = false;
  std::vector<LinkFlit> flits_out(routers_.size() * static_cast<size_t>(design_.ports));
  std::vector<LinkCredit> credits_out(flits_out.size());
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int p = 0; p < design_.ports; ++p) {
      LinkFlit& f = flits_out[static_cast<size_t>(r * design_.ports + p)];
      f = routers_[r]->flit_out(p);
      if (f.valid) {
        observe_output(r, p, f);
        if (!t.is_ni_port(p)) {
          moved_ = true;
          ++link_flits_;
          ++port_flits_[static_cast<size_t>(r * design_.ports + p)];
        }
      }
      const LinkCredit c = credits_out[static_cast<size_t>(r * design_.ports + p)] = routers_[r]->credit_out(p);
      if (c.valid && --input_vc(r, p, c.vc).occupancy < 0) {
        fail(fmt::format("credit protocol: router {} port {} vc{} returned a credit for an empty buffer", r, p, c.vc));
      }
    }
  }
  for (Link& l : links_) {
    const LinkFlit in = l.flits.push(flits_out[static_cast<size_t>(l.from_router * design_.ports + l.from_port)]);
    routers_[l.to_router]->set_flit_in(l.to_port, in);
    observe_input(l.to_router, l.to_port, in);
    const LinkCredit back = l.credits.push(credits_out[static_cast<size_t>(l.to_router * design_.ports + l.to_port)]);
    routers_[l.from_router]->set_credit_in(l.from_port, back);
  }
  for (auto& router : routers_) router->tick();
}

int HarnessFabric::observed_hops(unsigned src_address, unsigned packet_id) const {
  auto it = hops_.find(packet_key(src_address, packet_id));
  return it == hops_.end() ? 0 : it->second;
}

void HarnessFabric::forget_packet(unsigned src_address, unsigned packet_id) {
  hops_.erase(packet_key(src_address, packet_id));
}

std::string HarnessFabric::dump_occupied() const {
  const Topology& t = design_.topo;
  std::string s;
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int p = 0; p < design_.ports; ++p) {
      for (int v = 0; v < design_.vcs; ++v) {
        const InputVc& ivc = input_vcs_[static_cast<size_t>((r * design_.ports + p) * design_.vcs + v)];
        if (ivc.occupancy == 0) continue;
        s += fmt::format("  router {} ({}) input port {} vc{}: {} flit(s); packets (src<<16|id):", r,
                         fmt::join(t.coords(r), ","), p, v, ivc.occupancy);
        for (unsigned key : ivc.packets) s += fmt::format(" {:#x}", key);
        s += "\n";
      }
    }
  }
  return s.empty() ? "  (no occupied VC)\n" : s;
}

NetworkTopFabric::NetworkTopFabric(const Design&, const ModelFactory& factory) : net_(factory.new_network()) {}

}  // namespace rlroute
