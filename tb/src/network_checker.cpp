#include "rlroute/tb/network_checker.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace rlroute {

NetworkChecker::NetworkChecker(const Design& design, const RoutingRelation& relation)
    : design_(design), relation_(relation), switch_wait_bound_(static_cast<std::int64_t>(design.vcs) * design.ports + design.cfg.output_buffer_flits),
      early_credits_(static_cast<std::int64_t>(design.ports) * design.cfg.output_buffer_flits) {
  const std::size_t ports = static_cast<std::size_t>(design.topo.num_routers() * design.ports);
  input_vcs_.resize(ports * static_cast<std::size_t>(design.vcs));
  output_vcs_.resize(input_vcs_.size());
  port_flits_.assign(ports, 0);
  heads_in_router_.resize(static_cast<std::size_t>(design.topo.num_routers()));
  router_phase_.resize(static_cast<std::size_t>(design.topo.num_routers()));
  hop_rows_ = std::clamp(relation.hop_bound(), 1, kHopRows);
  for (RouterPhase& r : router_phase_) r.heads_by_hop_vc.assign(static_cast<std::size_t>(hop_rows_ * design.vcs), 0);
  heads_on_link_.resize(ports);
  far_input_.assign(ports, -1);
  for (int r = 0; r < design.topo.num_routers(); ++r) {
    for (int p = 0; p < design.ports; ++p) {
      if (const std::optional<PortRef> far = design.topo.neighbor(r, p)) {
        far_input_[static_cast<std::size_t>(r * design.ports + p)] = far->router * design.ports + far->port;
      }
    }
  }
  side_band_ = make_side_band_check(design);
  contention_ = make_contention_mirror(design);
}

NetworkChecker::InputVc& NetworkChecker::input_vc(int router, int port, int vc) {
  return input_vcs_[static_cast<std::size_t>((router * design_.ports + port) * design_.vcs + vc)];
}

NetworkChecker::OutputVc& NetworkChecker::output_vc(int router, int port, int vc) {
  return output_vcs_[static_cast<std::size_t>((router * design_.ports + port) * design_.vcs + vc)];
}

void NetworkChecker::fail(const std::string& what) {
  if (violation_.empty()) violation_ = what;
}

void NetworkChecker::fail_at(int router, const std::string& what) {
  std::string& first = router_phase_[static_cast<std::size_t>(router)].violation;
  if (first.empty()) first = what;
}

void NetworkChecker::fold_router_phases() {
  for (RouterPhase& r : router_phase_) {
    moved_ = moved_ || r.moved;
    link_flits_ += r.link_flits;
    if (r.longest_done.cycles > longest_done_.cycles) longest_done_ = r.longest_done;
    if (r.longest_body.cycles > longest_body_.cycles) longest_body_ = r.longest_body;
    if (!r.violation.empty()) fail(r.violation);
    r.moved = false;
    r.link_flits = 0;
    r.longest_done = r.longest_body = FrontWait{};
    r.violation.clear();
  }
}

// The input side finds only violations.
void NetworkChecker::end_inputs() {
  for (RouterPhase& r : router_phase_) {
    if (r.violation.empty()) continue;
    fail(r.violation);
    r.violation.clear();
  }
}

std::vector<std::uint64_t> NetworkChecker::heads_by_hop_and_vc() const {
  std::vector<std::uint64_t> sum(static_cast<std::size_t>(hop_rows_ * design_.vcs), 0);
  for (const RouterPhase& r : router_phase_) {
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += r.heads_by_hop_vc[i];
  }
  return sum;
}

NetworkChecker::ResidenceTable NetworkChecker::residence() const {
  ResidenceTable sum{};
  for (const RouterPhase& r : router_phase_) {
    for (std::size_t i = 0; i < sum.size(); ++i) {
      for (std::size_t o = 0; o < sum[i].size(); ++o) {
        sum[i][o].heads += r.residence[i][o].heads;
        sum[i][o].cycles += r.residence[i][o].cycles;
      }
    }
  }
  return sum;
}

void NetworkChecker::begin_cycle() {
  moved_ = false;
  ++cycle_;
  if (side_band_) side_band_->begin_cycle(cycle_);
  // A body flit that never leaves fails here, not only when it finally does.
  if (cycle_ % 256 != 0) return;
  for (std::size_t i = 0; i < input_vcs_.size(); ++i) {
    const InputVc& ivc = input_vcs_[i];
    if (ivc.flits.empty() || ivc.flits.front().flit.head || cycle_ - ivc.front_since <= switch_wait_bound_) continue;
    const auto vcs = static_cast<std::size_t>(design_.vcs), ports = static_cast<std::size_t>(design_.ports);
    fail(starved(static_cast<int>(i / (vcs * ports)), static_cast<int>(i / vcs % ports), static_cast<int>(i % vcs),
                 ivc.flits.front().key, cycle_ - ivc.front_since));
  }
}

std::string NetworkChecker::starved(int router, int port, int vc, unsigned key, std::int64_t wait) const {
  return fmt::format("switch-allocation check: router {} input port {} vc{}: a body flit of packet {:#x} waited {} "
                   "cycles at the front of its VC, its output VC held and its credits reserved; a fair switch "
                   "allocator serves it within {} cycles (VCs x ports, plus the output buffer): a VC is starved",
                   router, port, vc, key, wait, switch_wait_bound_);
}

std::string NetworkChecker::describe_flit(const LinkFlit& f) const {
  std::string data = "0x";
  for (int lsb = (design_.flit_bits - 1) / 64 * 64; lsb >= 0; lsb -= 64) {
    const int width = std::min(64, design_.flit_bits - lsb);
    data += fmt::format("{:0{}x}", f.data.get(lsb, width), (width + 3) / 4);
  }
  return fmt::format("{}{}vc{} data {}", f.head ? "head " : "", f.tail ? "tail " : "", f.vc, data);
}

void NetworkChecker::input_flit(int router, int port, const LinkFlit& flit) {
  InputVc& ivc = input_vc(router, port, flit.vc);
  const int free_slots = design_.buffer_flits - ivc.occupancy;
  if (++ivc.occupancy > design_.buffer_flits) {
    fail_at(router, fmt::format("credit check: router {} input port {} vc{} received a flit with its {}-flit buffer full "
                     "(the sender had no credit for it): {}",
                     router, port, flit.vc, design_.buffer_flits, describe_flit(flit)));
  }
  unsigned key = 0;
  if (flit.head) {
    const Header h = design_.decode(flit.data);
    key = packet_key(h.src, h.packet_id);
    if (ivc.open_packet >= 0) {
      fail_at(router, fmt::format("router {} input port {} vc{}: head of packet {:#x} arrived before the tail of packet {:#x}",
                       router, port, flit.vc, key, ivc.open_packet));
    }
    if (static_cast<int>(h.length) > free_slots && free_slots >= 0) {
      fail_at(router, fmt::format("virtual cut-through check: router {} input port {} vc{}: the head of packet {:#x} ({} flits) "
                       "arrived with {} of {} buffer slots free; the VC was granted with fewer credits than the packet",
                       router, port, flit.vc, key, h.length, free_slots, design_.buffer_flits));
    }
    int hops = 0;  // from a NIC: none yet
    std::int64_t arrived_upstream = cycle_;  // from a NIC: here, now
    if (!design_.topo.is_ni_port(port)) {
      RingQueue<HeadOnLink>& on_link = heads_on_link_[static_cast<std::size_t>(router * design_.ports + port)];
      if (on_link.empty()) {
        fail_at(router, fmt::format("router {} input port {} vc{}: head of packet {:#x} arrived on a link no head was seen to "
                         "leave on",
                         router, port, flit.vc, key));
      } else {
        hops = on_link.front().hops;
        arrived_upstream = on_link.front().arrived;
        on_link.pop_front();
      }
    }
    std::vector<std::pair<unsigned, HeadIn>>& heads = heads_in_router_[static_cast<std::size_t>(router)];
    const HeadIn here{port, flit.vc, route_state_of(design_, h), cycle_, hops};
    auto it = std::find_if(heads.begin(), heads.end(), [key](const auto& e) { return e.first == key; });
    if (it == heads.end()) {
      heads.emplace_back(key, here);
    } else {
      it->second = here;
    }
    if (side_band_) side_band_->head_arrived(router, port, key, h, cycle_, cycle_ - arrived_upstream);
    if (contention_) contention_->head_arrived(router, port, h, cycle_);
    ivc.open_packet = key;
  } else if (ivc.open_packet < 0) {
    fail_at(router, fmt::format("router {} input port {} vc{}: a body flit arrived with no packet open on the VC: {}", router,
                     port, flit.vc, describe_flit(flit)));
  } else {
    key = static_cast<unsigned>(ivc.open_packet);
  }
  if (flit.tail) ivc.open_packet = -1;
  if (ivc.flits.empty()) ivc.front_since = cycle_;
  ivc.flits.push_back({key, flit});
}

void NetworkChecker::credit_word(int router, int port, const LinkCredit& credit) {
  if (side_band_) {
    const std::string wrong = side_band_->word_sent(router, port, credit.feedback, cycle_);
    if (!wrong.empty()) fail_at(router, wrong);
  }
  if (!credit.valid) return;
  InputVc& ivc = input_vc(router, port, credit.vc);
  --ivc.occupancy;
  // With internal speedup a flit leaves the VC buffer into an output buffer
  // and shows on the router's output up to that buffer's depth later; its
  // credit may come back before (early_credits_ allows for it).
  if (++ivc.credited > ivc.taken + early_credits_) {
    fail_at(router, fmt::format("credit check: router {} input port {} vc{} returned credit {} with {} flit(s) taken out of "
                     "the buffer{} (a credit for a flit still in it, or for an empty buffer)",
                     router, port, credit.vc, ivc.credited, ivc.taken,
                     early_credits_ > 0 ? fmt::format(" and up to {} in output buffers", early_credits_) : ""));
  }
}

bool NetworkChecker::take_from_input(int router, int port, const LinkFlit& out, long key, int in_port, int in_vc) {
  RingQueue<BufferedFlit>& buffer = input_vc(router, in_port, in_vc).flits;
  // With internal speedup, flits of earlier packets of this VC may still sit
  // in another port's output buffer: the flit must be the oldest of its own
  // packet (packets still leave whole and in order on each port).
  std::size_t at = 0;
  if (design_.cfg.speedup > 1) {
    while (at < buffer.size() && static_cast<long>(buffer[at].key) != key) ++at;
  }
  if (at == buffer.size() || static_cast<long>(buffer[at].key) != key) {
    fail_at(router, fmt::format("flit identity: router {} sent a flit of packet {:#x} out of port {} ({}) that is not the next "
                     "flit of input port {} vc{} (next: {})",
                     router, key, port, describe_flit(out), in_port, in_vc,
                     buffer.empty() ? std::string("none")
                                    : fmt::format("packet {:#x}, {}", buffer.front().key,
                                                  describe_flit(buffer.front().flit))));
    return false;
  }
  const LinkFlit in = buffer[at].flit;
  const bool was_front = at == 0;
  if (was_front) {
    buffer.pop_front();
  } else {
    buffer.erase(at);
  }
  InputVc& ivc = input_vc(router, in_port, in_vc);
  ++ivc.taken;
  if (was_front) {
    const std::int64_t wait = cycle_ - ivc.front_since;
    RouterPhase& phase = router_phase_[static_cast<std::size_t>(router)];
    if (wait > phase.longest_done.cycles) phase.longest_done = {wait, router, in_port, in_vc};
    if (!in.head && wait > phase.longest_body.cycles) phase.longest_body = {wait, router, in_port, in_vc};
    if (!in.head && wait > switch_wait_bound_) fail_at(router, starved(router, in_port, in_vc, key, wait));
    ivc.front_since = cycle_;
  }
  if (in.head != out.head || in.tail != out.tail || (!in.head && !(in.data == out.data))) {
    fail_at(router, fmt::format("flit identity: router {} altered a flit of packet {:#x} from input port {} to port {}: in {}, out {}",
                     router, key, in_port, port, describe_flit(in), describe_flit(out)));
    return false;
  }
  if (in.head) {
    // Routing may rewrite the route state, the dateline class, the hop
    // count, Q-adaptive's per-hop time stamp and DQN-routing's Pdor flag;
    // nothing else in the flit (a single-flit packet's payload and CRC
    // included).
    FlitData expected = in.data;
    const HeaderLayout& hl = design_.header;
    for (const Field& f : {hl.phase, hl.inter, hl.stamp, hl.vc_class, hl.hops}) {
      expected.set(f.lsb, f.width, out.data.get(f.lsb, f.width));
    }
    if (traits(design_.cfg.algorithm).routes_by_hops()) expected.set(hl.pdor.lsb, hl.pdor.width, out.data.get(hl.pdor.lsb, hl.pdor.width));
    // The fields the side-band check checks.
    if (side_band_) {
      for (const Field& f : side_band_->rewritten_fields()) expected.set(f.lsb, f.width, out.data.get(f.lsb, f.width));
    }
    if (!(expected == out.data)) {
      fail_at(router, fmt::format("flit identity: router {} altered the header of packet {:#x} beyond its route state and hop "
                       "count: in {}, out {}",
                       router, key, describe_flit(in), describe_flit(out)));
      return false;
    }
  }
  return true;
}

void NetworkChecker::output_flit(int router, int port, const LinkFlit& flit) {
  const Topology& t = design_.topo;
  if (!t.is_ni_port(port)) {
    router_phase_[static_cast<std::size_t>(router)].moved = true;
    ++router_phase_[static_cast<std::size_t>(router)].link_flits;
    ++port_flits_[static_cast<std::size_t>(router * design_.ports + port)];
  }
  OutputVc& ovc = output_vc(router, port, flit.vc);
  if (!flit.head) {
    if (ovc.key < 0) {
      fail_at(router, fmt::format("router {} port {} vc{}: body flit with no packet owning the VC: {}", router, port, flit.vc,
                       describe_flit(flit)));
      return;
    }
    take_from_input(router, port, flit, ovc.key, ovc.in_port, ovc.in_vc);
    if (flit.tail) ovc.key = -1;
    return;
  }
  const Header h = design_.decode(flit.data);
  const unsigned key = packet_key(h.src, h.packet_id);
  if (ovc.key >= 0) {
    fail_at(router, fmt::format("router {} port {} vc{}: head of packet {:#x} interleaved into packet {:#x}", router, port,
                     flit.vc, key, ovc.key));
  }
  std::vector<std::pair<unsigned, HeadIn>>& heads = heads_in_router_[static_cast<std::size_t>(router)];
  auto it = std::find_if(heads.begin(), heads.end(), [key](const auto& e) { return e.first == key; });
  if (it == heads.end()) {
    fail_at(router, fmt::format("router {} port {}: head of packet {:#x} left without having entered", router, port, key));
    return;
  }
  const HeadIn in = it->second;
  *it = heads.back();  // the order of the list does not matter
  heads.pop_back();
  ovc = flit.tail ? OutputVc{} : OutputVc{static_cast<long>(key), in.port, in.vc};
  if (!take_from_input(router, port, flit, key, in.port, in.vc)) return;
  check_route(router, port, flit, h, key, in);
  Residence& res = router_phase_[static_cast<std::size_t>(router)]
                       .residence[static_cast<std::size_t>(t.port_class(in.port))][static_cast<std::size_t>(t.port_class(port))];
  ++res.heads;
  res.cycles += static_cast<std::uint64_t>(cycle_ - in.arrived);
  if (side_band_) {
    const std::string wrong = side_band_->head_left(router, port, key, h, cycle_);
    if (!wrong.empty()) fail_at(router, wrong);
  }
}

void NetworkChecker::check_route(int router, int port, const LinkFlit& flit, const Header& h, unsigned key,
                                 const HeadIn& in) {
  const Topology& t = design_.topo;
  const RouteState out_state = route_state_of(design_, h);
  if (in.state.dst < 0 || out_state.dst < 0) {
    fail_at(router, fmt::format("router {}: packet {:#x} has an invalid destination address {:#x}", router, key, h.dst));
    return;
  }
  const std::vector<RouteOption> hops = relation_.next_hops(router, in.port, in.vc, in.state);
  const bool allowed = std::any_of(hops.begin(), hops.end(), [&](const RouteOption& o) {
    return o.out_port == port && (o.vc_mask & (1u << flit.vc)) && o.next == out_state;
  });
  if (!allowed) {
    std::string options;
    for (const RouteOption& o : hops) {
      if (options.size() < 400) {
        options += fmt::format(" port {} vcs {:#b} ({});", o.out_port, o.vc_mask, describe(design_, o.next));
      }
    }
    fail_at(router, fmt::format("route checker: router {} sent packet {:#x} ({}) from input port {} vc{} to port {} vc{} as ({}); "
                     "the {} relation allows:{}",
                     router, key, describe(design_, in.state), in.port, in.vc, port, flit.vc,
                     describe(design_, out_state), relation_.name(), options));
  }
  if (!t.is_ni_port(port)) {
    const int row = std::min(in.hops, hop_rows_ - 1);
    ++router_phase_[static_cast<std::size_t>(router)].heads_by_hop_vc[static_cast<std::size_t>(row * design_.vcs + flit.vc)];
    const int hops = in.hops + 1;
    if (static_cast<int>(h.hops) != (hops & ((1 << design_.header.hops.width) - 1))) {
      fail_at(router, fmt::format("router {}: packet {:#x} header hop count {} but the checker counted {}", router, key,
                                  h.hops, hops));
    }
    // Only this router's outputs feed that input port, so no other thread pushes here.
    heads_on_link_[static_cast<std::size_t>(far_input_[static_cast<std::size_t>(router * design_.ports + port)])]
        .push_back({hops, in.arrived});
  }
}

NetworkChecker::FrontWait NetworkChecker::longest_front_wait() const {
  FrontWait longest = longest_done_;
  for (std::size_t i = 0; i < input_vcs_.size(); ++i) {
    const InputVc& ivc = input_vcs_[i];
    if (ivc.flits.empty() || cycle_ - ivc.front_since <= longest.cycles) continue;
    const int vc = static_cast<int>(i % static_cast<std::size_t>(design_.vcs));
    const int port = static_cast<int>(i / static_cast<std::size_t>(design_.vcs) % static_cast<std::size_t>(design_.ports));
    const int router = static_cast<int>(i / static_cast<std::size_t>(design_.vcs * design_.ports));
    longest = {cycle_ - ivc.front_since, router, port, vc};
  }
  return longest;
}

std::string NetworkChecker::dump_occupied() const {
  const Topology& t = design_.topo;
  std::string s;
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int p = 0; p < design_.ports; ++p) {
      for (int v = 0; v < design_.vcs; ++v) {
        const InputVc& ivc = input_vcs_[static_cast<std::size_t>((r * design_.ports + p) * design_.vcs + v)];
        if (ivc.occupancy == 0 && ivc.flits.empty()) continue;
        s += fmt::format("  router {} ({}) input port {} ({}) vc{}: {} flit(s) in the buffer; packets (src<<16|id):",
                         r, t.router_name(r), p, t.port_name(r, p), v, ivc.occupancy);
        long last = -1;
        for (std::size_t i = 0; i < ivc.flits.size(); ++i) {
          const BufferedFlit& f = ivc.flits[i];
          if (static_cast<long>(f.key) == last) continue;
          last = f.key;
          s += fmt::format(" {:#x}", f.key);
        }
        s += "\n";
      }
    }
  }
  return s.empty() ? "  (no occupied VC)\n" : s;
}

}  // namespace rlroute
