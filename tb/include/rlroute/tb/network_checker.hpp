// The checks every fabric runs inside the network, cycle by cycle, from the
// words on the routers' ports (docs/verification.md):
//   - route checker: every head leaves a router by a port and VC the routing
//     relation allows for the input port, VC and route state it arrived with
//     (the relation the generator proved deadlock-free), with the next route
//     state the relation gives, and its header hop count matches the hops seen;
//   - flit identity: every flit that leaves a router is the next flit of the
//     input VC its packet's head came from (with internal speedup, the next
//     flit of its own packet there: output buffers of different ports may
//     hold earlier packets of that VC) (body flits are tied to their head;
//     nothing is dropped, duplicated, reordered, interleaved or altered inside
//     a router, except the header fields routing rewrites);
//   - credit check: no flit arrives at an input VC whose buffer is full, and no
//     credit returns for a flit that has not left the buffer (with internal
//     speedup, for a flit neither on the router's output nor possibly in its
//     output buffers);
//   - virtual cut-through check: a head arrives only where its whole packet
//     fits (the upstream router, or the NIC, granted the VC with at least as
//     many credits as the packet has flits);
//   - switch-allocation bound: a body or tail flit (its packet holds its
//     output VC and, by virtual cut-through, every credit it needs, so it
//     asks for the switch every cycle) leaves within V x P cycles of reaching
//     the front of its input VC (plus the output buffer's depth with internal
//     speedup, since the checker sees it leave the router, not the VC). Round-robin input and output arbiters that
//     keep a loser's turn serve it within that bound (each of the other V-1
//     VCs of its port wins within P cycles, then it does); a starving
//     switch allocator breaks it;
//   - the side-band check of the design's credit side-band, if it has one
//     (rlroute/tb/side_band_check.hpp: Q-adaptive's feedback check,
//     DQN-routing's episode check; what it still owes at the end of a run:
//     side_band_owed()).
// It also keeps UGAL-LE's contention factors from the heads it sees arrive
// (rlroute/tb/contention_mirror.hpp).
// The first violation is kept, with enough state to find it. It also times
// every head through every router (residence()).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/tb/model.hpp"
#include "rlroute/tb/contention_mirror.hpp"
#include "rlroute/tb/q_mirror.hpp"
#include "rlroute/tb/side_band_check.hpp"
#include "rlroute/tb/ring_queue.hpp"
#include "rlroute/gen/routing.hpp"

namespace rlroute {

// Identifies a packet while it is in the network: (source address << 16 | packet id).
inline unsigned packet_key(unsigned src_address, unsigned packet_id) {
  return (src_address << 16) | (packet_id & 0xffffu);
}

class NetworkChecker {
 public:
  NetworkChecker(const Design& design, const RoutingRelation& relation);

  // One cycle's observations, in this order: begin_cycle(); per router its
  // output flits and then its credits; end_outputs(); then per router the
  // flits arriving at its inputs (sampled at the coming edge): from its NICs,
  // then from its links; end_inputs(). Different routers' observations may
  // run on different threads (routers_in_parallel()): each touches only its
  // router's state (and the hop counts its outputs push towards a
  // neighbour's input, which that neighbour reads only after end_outputs()),
  // and end_outputs() / end_inputs() fold what they found into the
  // network's (counts, waits, the first violation) in router order, so the
  // verdict is the same as in one thread.
  // (Idle words return here, inline: most ports are idle most cycles, and
  // the mirrors read every credit word, its feedback field included.)
  void begin_cycle();
  void router_output(int router, int port, const LinkFlit& flit) {
    if (flit.valid) output_flit(router, port, flit);
  }
  void router_credit(int router, int port, const LinkCredit& credit) {
    if (credit.valid || side_band_) credit_word(router, port, credit);
  }
  void end_outputs() { fold_router_phases(); }
  void router_input(int router, int port, const LinkFlit& flit) {
    if (flit.valid) input_flit(router, port, flit);
  }
  void end_inputs();
  // Whether different routers may be observed at once (as the side-band
  // check allows).
  bool routers_in_parallel() const { return !side_band_ || side_band_->routers_in_parallel(); }

  const std::string& violation() const { return violation_; }
  // Whether a flit left a router for another router this cycle.
  bool moved_inside() const { return moved_; }
  // Every occupied input VC with its flits and packets, for deadlock reports.
  std::string dump_occupied() const;
  // Flits sent so far out of each router port that leads to another router,
  // indexed router * ports + port (NI ports stay 0), and their sum.
  const std::vector<std::uint64_t>& link_flits() const { return port_flits_; }
  std::uint64_t network_link_flits() const { return link_flits_; }
  // The longest time (cycles) a flit has waited at the front of an input VC
  // so far, the flits still waiting included, and where.
  struct FrontWait {
    std::int64_t cycles = 0;
    int router = -1, port = -1, vc = -1;
  };
  FrontWait longest_front_wait() const;
  // The same for body and tail flits only (the switch-allocation wait).
  FrontWait longest_switch_wait() const { return longest_body_; }
  // Q-adaptive: the reference's copy of every router's table (nullptr for
  // other algorithms).
  const QMirror* q_mirror() const { return dynamic_cast<const QMirror*>(side_band_.get()); }
  const ContentionMirror* contention_mirror() const { return contention_.get(); }
  // Words the side-band check still waits for (0 without one), and the
  // failure if they never come (SideBandCheck::owed).
  int side_band_owed() const { return side_band_ ? side_band_->owed() : 0; }
  std::string side_band_owed_failure(std::int64_t waited_cycles) const {
    return side_band_ ? side_band_->owed_failure(waited_cycles) : "";
  }
  // Router residence: cycles from a head's arrival at an input port (the
  // cycle it is sampled there) to its departure on an output port, summed
  // and counted per [input port class][output port class] over the heads
  // that have left so far (a window is the difference of two readings).
  struct Residence {
    std::uint64_t heads = 0;
    std::uint64_t cycles = 0;
  };
  using ResidenceTable = std::array<std::array<Residence, kPortClasses>, kPortClasses>;
  ResidenceTable residence() const;
  // Heads sent from a router to another so far, by the router-to-router
  // hops before that hop and the VC they took, [hops * vcs + vc]; the last
  // row (hop_rows() - 1) also counts the hops beyond it. What VCs each
  // hop of a path uses (the VC levels of an algorithm, as they run).
  std::vector<std::uint64_t> heads_by_hop_and_vc() const;
  int hop_rows() const { return hop_rows_; }
  static constexpr int kHopRows = 16;  // at most: the relation's hop bound
  // The bound of the switch-allocation check, in cycles.
  std::int64_t switch_wait_bound() const { return switch_wait_bound_; }

 private:
  // The work of router_output(), router_credit() and router_input() on a word that is not idle.
  void output_flit(int router, int port, const LinkFlit& flit);
  void credit_word(int router, int port, const LinkCredit& credit);
  void input_flit(int router, int port, const LinkFlit& flit);
  struct BufferedFlit {
    unsigned key;
    LinkFlit flit;
  };
  // The checker's copy of one input VC's buffer: the flits that entered it and
  // were not yet taken out by an output.
  struct InputVc {
    int occupancy = 0;  // flits entered minus credits returned
    std::int64_t taken = 0;     // flits that left the router from this VC
    std::int64_t credited = 0;  // credits returned for this VC
    RingQueue<BufferedFlit> flits;
    long open_packet = -1;  // key of the packet whose tail has not arrived yet
    std::int64_t front_since = 0;  // cycle the front flit became the front
  };
  // Where the head of a packet entered a router, and its route state then.
  struct HeadIn {
    int port;
    int vc;
    RouteState state;
    std::int64_t arrived;  // the cycle it was sampled at the input port
    int hops;              // router-to-router hops the checker counted before this router
  };
  // What one router's observations found: this cycle's share of the
  // network's counts and waits and its first violation (end_outputs() and
  // end_inputs() fold them in), and its heads' residence so far.
  struct RouterPhase {
    bool moved = false;
    std::uint64_t link_flits = 0;
    FrontWait longest_done, longest_body;
    std::string violation;
    ResidenceTable residence{};
    std::vector<std::uint64_t> heads_by_hop_vc;  // heads_by_hop_and_vc(), this router's
  };
  // The packet an output VC is sending, and the input VC its flits come from.
  struct OutputVc {
    long key = -1;
    int in_port = 0;
    int in_vc = 0;
  };

  void fail(const std::string& what);
  // A violation found by a router's outputs, credits or inputs (folded in by
  // end_outputs() / end_inputs()).
  void fail_at(int router, const std::string& what);
  // Folds every router's phase into the network's, in router order.
  void fold_router_phases();
  std::string starved(int router, int port, int vc, unsigned key, std::int64_t wait) const;
  InputVc& input_vc(int router, int port, int vc);
  OutputVc& output_vc(int router, int port, int vc);
  // Takes the next flit of an input VC as the one that left; false on a mismatch.
  bool take_from_input(int router, int port, const LinkFlit& out, long key, int in_port, int in_vc);
  void check_route(int router, int port, const LinkFlit& flit, const Header& h, unsigned key, const HeadIn& in);
  std::string describe_flit(const LinkFlit& flit) const;

  const Design& design_;
  const RoutingRelation& relation_;
  std::vector<InputVc> input_vcs_;    // [(router * ports + port) * vcs + vc]
  std::vector<OutputVc> output_vcs_;  // same index
  // Per router, the heads that entered it and have not left: a few at a time,
  // so a flat list (no allocation per head once it has grown).
  std::vector<std::vector<std::pair<unsigned, HeadIn>>> heads_in_router_;
  // A head on its way over a link: the router-to-router hops the checker
  // counted up to and including this one, and the cycle it had arrived at
  // the router it left (Q-adaptive's r is the time from there to here).
  struct HeadOnLink {
    int hops;
    std::int64_t arrived;
  };
  // Per router input port (router * ports + port) fed by a link: the heads
  // on their way to it, oldest first (a link keeps order). Its upstream
  // router's outputs push, its router_input() pops.
  std::vector<RingQueue<HeadOnLink>> heads_on_link_;
  std::vector<int> far_input_;  // per output port: the input port (index as above) its link feeds, or -1
  std::vector<RouterPhase> router_phase_;
  std::vector<std::uint64_t> port_flits_;
  std::uint64_t link_flits_ = 0;
  bool moved_ = false;
  std::int64_t cycle_ = 0;
  FrontWait longest_done_;  // among the flits that have left
  FrontWait longest_body_;  // among the body and tail flits that have left
  std::int64_t switch_wait_bound_;
  int hop_rows_;
  std::int64_t early_credits_;  // flits a router's output buffers hold (0 without speedup)
  std::string violation_;
  std::unique_ptr<SideBandCheck> side_band_;
  std::unique_ptr<ContentionMirror> contention_;  // UGAL-LE: the counters, from the heads seen
};

}  // namespace rlroute
