// Block test for rtl/rr_route_dfly.sv (dragonfly route compute: MIN, VALg,
// VALn, UGAL-g, UGAL-LE, PAR; the algorithm as its traits, compared with the
// generator's) with rtl/rr_lfsr.sv, rr_dfly_path.sv, rr_vc_levels.sv, against
//  - the routing relation (gen/src/dragonfly/routing_dragonfly.cpp): every output
//    (port, VC mask, rewritten route state) is one of next_hops();
//  - a C++ model of the UGAL decision written from docs/routing_dragonfly.md:
//    q = used credits (occ_i) + waiting demand (dem_i) of the port; minimal iff
//    q_m*H_m (+ q_m*max(C-1,0) for UGAL-LE without a global link to the
//    destination group) <= q_nm*H_nm + b, or with RULE_DOUBLE q_m (+ the same
//    UGAL-LE term) <= 2*q_nm + b; no decision for a destination in the source
//    group unless INTRA_VALIANT; PAR's second decision (local input port in the
//    source group) uses the candidate carried in the header, and the source
//    writes its candidate into the header of a packet it routes minimally;
//  - a C++ model of the 16-bit LFSR (seeded the first cycle after reset with
//    seed ^ id*0x9E37 ^ port*0x7F4B) and of the draw index = (rand16*N) >> 16
//    into the list of legal intermediates (ascending router numbers).
// The decision checks come in two forms: exact (with the LFSR model's
// candidate) and model-free of the LFSR (the candidate read back from hdr_o
// when the unit went non-minimal; a decision every candidate agrees on).
// The adaptive parameter sets run twice: deciding at buffer write
// (rr_route_dfly HEAD = 0), and split as with routing.decision = "vc_head"
// (tests/rtl/tb_route_dfly_head.sv: the HEAD = 1 unit, rr_ugal_decide on its
// operands, and the input port's header patch) -- the same checks hold for both.
// The header layout is that of a real Design (parse_config + derive_design);
// the -G values in CMakeLists.txt are checked against it.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "Vrr_route_dfly_a9_min.h"
#include "Vrr_route_dfly_a9_min___024root.h"
#include "Vrr_route_dfly_a9_par.h"
#include "Vrr_route_dfly_a9_par___024root.h"
#include "Vrr_route_dfly_a9_ugal_n_dbl.h"
#include "Vrr_route_dfly_a9_ugal_n_dbl___024root.h"
#include "Vrr_route_dfly_p5_par_intra.h"
#include "Vrr_route_dfly_p5_par_intra___024root.h"
#include "Vrr_route_dfly_p5_valg_intra.h"
#include "Vrr_route_dfly_p5_valg_intra___024root.h"
#include "Vrr_route_dfly_a9_ugal_g.h"
#include "Vrr_route_dfly_a9_ugal_g___024root.h"
#include "Vrr_route_dfly_a9_ugal_le.h"
#include "Vrr_route_dfly_a9_ugal_le___024root.h"
#include "Vrr_route_dfly_a9_valg.h"
#include "Vrr_route_dfly_a9_valg___024root.h"
#include "Vrr_route_dfly_a9_valn.h"
#include "Vrr_route_dfly_a9_valn___024root.h"
#include "Vrr_route_dfly_p5_min.h"
#include "Vrr_route_dfly_p5_min___024root.h"
#include "Vrr_route_dfly_p5_par.h"
#include "Vrr_route_dfly_p5_par___024root.h"
#include "Vrr_route_dfly_p5_ugal_g.h"
#include "Vrr_route_dfly_p5_ugal_g___024root.h"
#include "Vrr_route_dfly_p5_ugal_le.h"
#include "Vrr_route_dfly_p5_ugal_le___024root.h"
#include "Vrr_route_dfly_p5_valg.h"
#include "Vrr_route_dfly_p5_valg___024root.h"
#include "Vrr_route_dfly_p5_valn.h"
#include "Vrr_route_dfly_p5_valn___024root.h"
#include "Vrr_route_dfly_a9_ugal_le_head.h"
#include "Vrr_route_dfly_a9_ugal_le_head___024root.h"
#include "Vrr_route_dfly_a9_ugal_n_dbl_head.h"
#include "Vrr_route_dfly_a9_ugal_n_dbl_head___024root.h"
#include "Vrr_route_dfly_p5_par_head.h"
#include "Vrr_route_dfly_p5_par_head___024root.h"
#include "Vrr_route_dfly_p5_ugal_g_head.h"
#include "Vrr_route_dfly_p5_ugal_g_head___024root.h"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"
#include "rlroute/gen/topology.hpp"
#include "vtb.hpp"

// Parameter sets (one Verilated model each, -G values of CMakeLists.txt).
namespace cfg {

// The algorithm each model is Verilated for (its traits, -G values of
// CMakeLists.txt, are read back from the model and compared with the
// generator's dragonfly_route_traits() of this row).
enum Algo : unsigned {
  kMin = static_cast<unsigned>(rlroute::RoutingAlgorithm::Min),
  kValg = static_cast<unsigned>(rlroute::RoutingAlgorithm::Valg),
  kValn = static_cast<unsigned>(rlroute::RoutingAlgorithm::Valn),
  kUgalG = static_cast<unsigned>(rlroute::RoutingAlgorithm::UgalG),
  kUgalN = static_cast<unsigned>(rlroute::RoutingAlgorithm::UgalN),
  kUgalLe = static_cast<unsigned>(rlroute::RoutingAlgorithm::UgalLe),
  kPar = static_cast<unsigned>(rlroute::RoutingAlgorithm::Par),
};

// dfly(2,4,2,9) absolute, l = 1: 72 nodes, addresses {group:4, index:2, terminal:1}.
struct Abs9 {
  static constexpr unsigned NUM_G = 9, LINKS_PER_PAIR = 1, GB = 4;
  static constexpr bool PALMTREE = false;
  static constexpr unsigned DST_LSB = 0, SRC_LSB = 7, PHASE_LSB = 27, INTER_LSB = 29;
};
// dfly(2,4,2,5) palmtree, l = 2: 40 nodes, addresses {group:3, index:2, terminal:1}.
struct Palm5 {
  static constexpr unsigned NUM_G = 5, LINKS_PER_PAIR = 2, GB = 3;
  static constexpr bool PALMTREE = true;
  static constexpr unsigned DST_LSB = 0, SRC_LSB = 6, PHASE_LSB = 25, INTER_LSB = 27;
};

// The traits a model was Verilated with, read from its parameters.
#define RR_BUILT_TRAITS(model, top)                                                          \
  static constexpr rlroute::DragonflyRouteTraits kBuilt {                                     \
    model##___024root::top##__DOT__ROUTE_STATE != 0, model##___024root::top##__DOT__ALWAYS_VALIANT != 0, \
        model##___024root::top##__DOT__GROUP_INTERMEDIATE != 0, model##___024root::top##__DOT__ADAPTIVE != 0, \
        model##___024root::top##__DOT__CONTENTION != 0, model##___024root::top##__DOT__REDIVERT != 0     \
  }

template <class M, class T, unsigned ALGO_, unsigned V_, int BIAS_ = 0, unsigned PORT_ = 0, unsigned SEED_ = 1,
          bool RULE_DOUBLE_ = false, bool INTRA_VALIANT_ = false>
struct DflyCfg : T {
  using Model = M;
  static constexpr unsigned P = 7, NUM_NI = 2, A = 4, H = 2, IB = 2, LOCAL_W = 1, W = 64, OCC_W = 8, DEMAND_W = 8,
                            CFW = 3;
  static constexpr unsigned ALGO = ALGO_, V = V_, PORT = PORT_, SEED = SEED_;
  static constexpr int BIAS = BIAS_;
  static constexpr bool RULE_DOUBLE = RULE_DOUBLE_, INTRA_VALIANT = INTRA_VALIANT_;
  static constexpr unsigned INTER_LSB = ALGO == kMin ? T::PHASE_LSB : T::INTER_LSB;  // MIN: no phase/inter
};

struct A9Min : DflyCfg<Vrr_route_dfly_a9_min, Abs9, kMin, 2> {
  RR_BUILT_TRAITS(Vrr_route_dfly_a9_min, rr_route_dfly);
};
struct A9Valg : DflyCfg<Vrr_route_dfly_a9_valg, Abs9, kValg, 3, 0, 3, 44257> {
  RR_BUILT_TRAITS(Vrr_route_dfly_a9_valg, rr_route_dfly);
};
struct A9Valn : DflyCfg<Vrr_route_dfly_a9_valn, Abs9, kValn, 4> {
  RR_BUILT_TRAITS(Vrr_route_dfly_a9_valn, rr_route_dfly);
};
struct A9UgalG : DflyCfg<Vrr_route_dfly_a9_ugal_g, Abs9, kUgalG, 3, 0> {
  RR_BUILT_TRAITS(Vrr_route_dfly_a9_ugal_g, rr_route_dfly);
};
struct A9UgalLe : DflyCfg<Vrr_route_dfly_a9_ugal_le, Abs9, kUgalLe, 4, 0, 5, 7> {
  RR_BUILT_TRAITS(Vrr_route_dfly_a9_ugal_le, rr_route_dfly);
};
struct A9Par : DflyCfg<Vrr_route_dfly_a9_par, Abs9, kPar, 5, -6> {
  RR_BUILT_TRAITS(Vrr_route_dfly_a9_par, rr_route_dfly);
};
struct P5Min : DflyCfg<Vrr_route_dfly_p5_min, Palm5, kMin, 2> {
  RR_BUILT_TRAITS(Vrr_route_dfly_p5_min, rr_route_dfly);
};
struct P5Valg : DflyCfg<Vrr_route_dfly_p5_valg, Palm5, kValg, 3> {
  RR_BUILT_TRAITS(Vrr_route_dfly_p5_valg, rr_route_dfly);
};
struct P5Valn : DflyCfg<Vrr_route_dfly_p5_valn, Palm5, kValn, 4, 0, 6, 4660> {
  RR_BUILT_TRAITS(Vrr_route_dfly_p5_valn, rr_route_dfly);
};
struct P5UgalG : DflyCfg<Vrr_route_dfly_p5_ugal_g, Palm5, kUgalG, 3, 7> {
  RR_BUILT_TRAITS(Vrr_route_dfly_p5_ugal_g, rr_route_dfly);
};
struct P5UgalLe : DflyCfg<Vrr_route_dfly_p5_ugal_le, Palm5, kUgalLe, 4, -4> {
  RR_BUILT_TRAITS(Vrr_route_dfly_p5_ugal_le, rr_route_dfly);
};
struct P5Par : DflyCfg<Vrr_route_dfly_p5_par, Palm5, kPar, 5, 5, 2, 65535> {
  RR_BUILT_TRAITS(Vrr_route_dfly_p5_par, rr_route_dfly);
};
// The options: the SST/Merlin rule, and same-group pairs through an intermediate group.
struct A9UgalNDbl : DflyCfg<Vrr_route_dfly_a9_ugal_n_dbl, Abs9, kUgalN, 4, 3, 1, 99, true> {
  RR_BUILT_TRAITS(Vrr_route_dfly_a9_ugal_n_dbl, rr_route_dfly);
};
struct P5ValgIntra : DflyCfg<Vrr_route_dfly_p5_valg_intra, Palm5, kValg, 3, 0, 0, 1, false, true> {
  RR_BUILT_TRAITS(Vrr_route_dfly_p5_valg_intra, rr_route_dfly);
};
struct P5ParIntra : DflyCfg<Vrr_route_dfly_p5_par_intra, Palm5, kPar, 5, -3, 4, 321, true, true> {
  RR_BUILT_TRAITS(Vrr_route_dfly_p5_par_intra, rr_route_dfly);
};
// Decisions at the head of the VC.
struct A9UgalLeHead : DflyCfg<Vrr_route_dfly_a9_ugal_le_head, Abs9, kUgalLe, 4, 0, 5, 7> {
  RR_BUILT_TRAITS(Vrr_route_dfly_a9_ugal_le_head, tb_route_dfly_head);
};
struct P5ParHead : DflyCfg<Vrr_route_dfly_p5_par_head, Palm5, kPar, 5, 5, 2, 65535> {
  RR_BUILT_TRAITS(Vrr_route_dfly_p5_par_head, tb_route_dfly_head);
};
struct A9UgalNDblHead : DflyCfg<Vrr_route_dfly_a9_ugal_n_dbl_head, Abs9, kUgalN, 4, 3, 1, 99, true> {
  RR_BUILT_TRAITS(Vrr_route_dfly_a9_ugal_n_dbl_head, tb_route_dfly_head);
};
struct P5UgalGHead : DflyCfg<Vrr_route_dfly_p5_ugal_g_head, Palm5, kUgalG, 3, 7> {
  RR_BUILT_TRAITS(Vrr_route_dfly_p5_ugal_g_head, tb_route_dfly_head);
};

}  // namespace cfg

namespace {

using namespace rlroute;
using rtltest::Dut;
using rtltest::field;
using rtltest::Rng;
using rtltest::set_field;

const char* algo_name(unsigned algo) {
  return rlroute::kAlgorithms.at(algo).name.data();
}

// The parameters of one Verilated model (the -G values of CMakeLists.txt).
struct Params {
  unsigned P, NUM_NI, A, H, NUM_G, LINKS_PER_PAIR, GB, IB, LOCAL_W, W, OCC_W, DEMAND_W, CFW, ALGO, V, PORT, SEED;
  int BIAS;
  bool PALMTREE, RULE_DOUBLE, INTRA_VALIANT;
  unsigned DST_LSB, SRC_LSB, PHASE_LSB, INTER_LSB;
  DragonflyRouteTraits built;  // the traits parameters of the model
};

// The config the model's parameters come from.
std::string toml(const Params& p) {
  return fmt::format(
      "[design]\nname = \"rtl_route_dfly\"\n"
      "[topology]\nkind = \"dragonfly\"\np = {}\na = {}\nh = {}\ng = {}\narrangement = \"{}\"\n"
      "[router]\nvcs = {}\nbuffer_flits = 24\nflit_bits = {}\nmax_packet_flits = 4\n"
      "[routing]\nalgorithm = \"{}\"\nseed = {}\n{}{}",
      p.NUM_NI, p.A, p.H, p.NUM_G, p.PALMTREE ? "palmtree" : "absolute", p.V, p.W, algo_name(p.ALGO), p.SEED,
      p.ALGO >= cfg::kUgalG
          ? fmt::format("ugal_bias = {}\nugal_rule = \"{}\"\n", p.BIAS, p.RULE_DOUBLE ? "double_nonminimal" : "hop_weighted")
          : std::string(),
      p.ALGO != cfg::kMin ? fmt::format("intra_group = \"{}\"\n", p.INTRA_VALIANT ? "valiant" : "minimal")
                          : std::string());
}

// One combinational evaluation: inputs and the unit's outputs.
struct Case {
  int router = 0, in_port = 0, in_vc = 0;
  RouteState state;
  std::uint64_t hdr = 0;      // hdr_i (state fields set from `state`, the rest random)
  std::vector<unsigned> occ;  // occ_i per output port
  std::vector<unsigned> dem;  // dem_i per output port
  std::vector<unsigned> cf;   // contention_i per group
};

struct Out {
  int port = 0;
  std::uint32_t vcs = 0;
  std::uint64_t hdr = 0;
  RouteState state;
};

// The UGAL comparison of docs/routing_dragonfly.md for one candidate.
struct Rule {
  long lhs = 0, rhs = 0;
  long le_term = 0;  // UGAL-LE's q_m * max(C - 1, 0), included in lhs
  bool minimal() const { return lhs <= rhs; }
};

// Coverage of a batch of checked cases.
struct Tally {
  unsigned cases = 0, decisions = 0, nonmin = 0, minimal = 0, ties = 0, le_flips = 0, par_local = 0,
           par_local_nonmin = 0, exact = 0;
};

// The test bench proper, not a template (one copy of the code for every
// parameter set); DutBench below binds it to a Verilated model.
class Bench {
 public:
  Bench(const Params& prm, const Design& d)
      : prm_(prm),
        P(prm.P),
        V(prm.V),
        ALGO(prm.ALGO),
        OCC_W(prm.OCC_W),
        DEMAND_W(prm.DEMAND_W),
        CFW(prm.CFW),
        BIAS(prm.BIAS),
        kAdaptive(prm.ALGO >= cfg::kUgalG),
        d_(d),
        topo_(d.topo),
        rel_(d) {}
  virtual ~Bench() = default;
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;

 protected:
  // The Verilated model.
  virtual void dut_reset() = 0;
  virtual void dut_tick() = 0;
  virtual std::uint64_t dut_cycle() const = 0;
  virtual void dut_eval(unsigned id, std::uint64_t hdr, unsigned in_port, unsigned in_vc, std::uint64_t occ,
                        std::uint64_t dem, std::uint64_t cf) = 0;
  virtual void dut_read(Out& o) = 0;

 public:
  // ---- LFSR model (docs/routing_dragonfly.md, rtl/rr_lfsr.sv) ----
  std::uint16_t seed_of(unsigned id) const {
    return static_cast<std::uint16_t>(prm_.SEED ^ (id * 0x9E37u) ^ (prm_.PORT * 0x7F4Bu));
  }
  static std::uint16_t lfsr_next(std::uint16_t s) {
    // Galois form of x^16 + x^14 + x^13 + x^11 + 1.
    return static_cast<std::uint16_t>((s >> 1) ^ ((s & 1u) ? 0xB400u : 0u));
  }

  void reset() {
    dut_reset();
    lfsr_ = 0;  // reset clears it; the first clock loads the seed
  }
  void tick() {
    dut_tick();
    lfsr_ = lfsr_ == 0 ? static_cast<std::uint16_t>(seed_of(driven_id_) | 1u) : lfsr_next(lfsr_);
  }

  // ---- driving ----
  int group(int router) const { return topo_.group_of(router); }
  int dst_router(const Case& c) const { return topo_.router_of_node(c.state.dst); }

  std::uint64_t encode_hdr(std::uint64_t raw, const RouteState& s) const {
    FlitData f;
    f.words[0] = raw;
    Header h = d_.decode(f);
    set_route_state(d_, s, h);
    return d_.encode(h).words[0];
  }

  Out run(const Case& c) {
    driven_id_ = topo_.router_id(c.router);
    std::uint64_t occ = 0, dem = 0, cf = 0;
    for (unsigned p = 0; p < P; ++p) set_field(occ, p * OCC_W, OCC_W, c.occ[p]);
    for (unsigned p = 0; p < P; ++p) set_field(dem, p * DEMAND_W, DEMAND_W, c.dem[p]);
    for (unsigned g = 0; g < prm_.NUM_G; ++g) set_field(cf, g * CFW, CFW, c.cf[g]);
    dut_eval(driven_id_, c.hdr, static_cast<unsigned>(c.in_port), static_cast<unsigned>(c.in_vc), occ, dem, cf);
    Out o;
    dut_read(o);
    FlitData f;
    f.words[0] = o.hdr;
    o.state = route_state_of(d_, d_.decode(f));
    return o;
  }

  // ---- models ----
  // A decision point (docs): a minimally routed packet not at its destination
  // router, arriving from a terminal (the source router), or for PAR over a
  // local link in its source group.
  bool decision_point(const Case& c) const {
    if (ALGO == cfg::kMin || c.state.mode != RouteMode::Minimal || c.router == dst_router(c)) return false;
    if (!prm_.INTRA_VALIANT && group(c.router) == group(dst_router(c))) return false;
    if (topo_.is_ni_port(c.in_port)) return true;
    return par_again(c) && legal_header_candidate(c);
  }
  // PAR's second decision point: a local input port in the source group.
  bool par_again(const Case& c) const {
    return ALGO == cfg::kPar && topo_.is_local_port(c.in_port) &&
           group(c.router) == group(topo_.router_of_node(c.state.src));
  }
  bool legal_header_candidate(const Case& c) const {
    const std::vector<int> legal = rel_.intermediates(group(c.router), c.state.dst);
    return std::find(legal.begin(), legal.end(), c.state.inter) != legal.end();
  }
  // The candidates a decision may compare against.
  std::vector<int> candidates(const Case& c) const {
    if (par_again(c)) return {c.state.inter};
    return rel_.intermediates(group(c.router), c.state.dst);
  }

  // Router-to-router hops of the path that starts with `opt` at `router` and
  // then follows the relation (minimal stays minimal; a Valiant packet goes to
  // its intermediate and from there to the destination). -1 if it does not arrive.
  int walk(int router, RouteOption opt) const {
    int hops = 0;
    while (!topo_.is_ni_port(opt.out_port)) {
      const auto nb = topo_.neighbor(router, opt.out_port);
      if (!nb || ++hops > 8) return -1;
      router = nb->router;
      const std::vector<RouteOption> next = rel_.next_hops(router, nb->port, std::countr_zero(opt.vc_mask), opt.next);
      const auto it = std::find_if(next.begin(), next.end(), [&](const RouteOption& o) {
        return opt.next.mode != RouteMode::Minimal || o.next.mode == RouteMode::Minimal;
      });
      if (it == next.end() || (opt.next.mode != RouteMode::Minimal && next.size() != 1)) return -1;
      opt = *it;
    }
    return hops;
  }

  // H_nm of a candidate (cached: it depends on the router, the intermediate and the destination router).
  int candidate_hops(const Case& c, const RouteOption& opt) {
    const auto key = std::make_tuple(c.router, opt.next.inter, dst_router(c));
    auto it = hnm_cache_.find(key);
    if (it == hnm_cache_.end()) it = hnm_cache_.emplace(key, walk(c.router, opt)).first;
    return it->second;
  }

  bool own_global_link(int router, int to_group) const {
    for (const PortRef& link : topo_.global_links(group(router), to_group)) {
      if (link.router == router) return true;
    }
    return false;
  }

  Rule rule(const Case& c, const std::vector<RouteOption>& opts, int inter) {
    Rule r;
    const auto m =
        std::find_if(opts.begin(), opts.end(), [](const RouteOption& o) { return o.next.mode == RouteMode::Minimal; });
    const auto n = std::find_if(opts.begin(), opts.end(), [&](const RouteOption& o) {
      return o.next.mode == RouteMode::ToIntermediate && o.next.inter == inter;
    });
    if (m == opts.end() || n == opts.end()) {
      ADD_FAILURE() << "the relation offers no minimal option or no option through " << inter;
      return r;
    }
    const int dr = dst_router(c);
    const long qm = c.occ[static_cast<unsigned>(m->out_port)] + c.dem[static_cast<unsigned>(m->out_port)];
    const long qnm = c.occ[static_cast<unsigned>(n->out_port)] + c.dem[static_cast<unsigned>(n->out_port)];
    const long hm = topo_.min_router_hops(c.router, dr);
    const long hnm = candidate_hops(c, *n);
    EXPECT_GT(hnm, 0) << "no path through intermediate " << inter;
    r.lhs = prm_.RULE_DOUBLE ? qm : qm * hm;
    if (ALGO == cfg::kUgalLe && group(c.router) != group(dr) && !own_global_link(c.router, group(dr))) {
      r.le_term = qm * std::max(static_cast<long>(c.cf[static_cast<unsigned>(group(dr))]) - 1, 0L);
      r.lhs += r.le_term;
    }
    r.rhs = (prm_.RULE_DOUBLE ? 2 * qnm : qnm * hnm) + BIAS;
    return r;
  }

  // The LFSR model's candidate for this cycle (PAR's second decision: the header's).
  int predicted_candidate(const Case& c) const {
    if (par_again(c)) return c.state.inter;
    const std::vector<int> inters = rel_.intermediates(group(c.router), c.state.dst);
    const std::size_t index = (static_cast<std::uint32_t>(lfsr_) * inters.size()) >> 16;
    return inters[index];
  }

  std::string describe_case(const Case& c) const {
    std::string occ;
    for (unsigned p = 0; p < P; ++p) occ += fmt::format("{}{}+{}", p ? "," : "", c.occ[p], c.dem[p]);
    return fmt::format(
        "{} {}: router {} ({}) id 0x{:x}, in_port {} ({}), in_vc {}, {}, hdr_i 0x{:016x}, "
        "occ_i+dem_i [{}], C(dst group) {}, lfsr 0x{:04x}, cycle {}",
        algo_name(ALGO), topo_.describe(), c.router, topo_.router_name(c.router), topo_.router_id(c.router), c.in_port,
        topo_.port_name(c.router, c.in_port), c.in_vc, describe(d_, c.state), c.hdr, occ,
        c.cf[static_cast<unsigned>(group(dst_router(c)))], lfsr_, dut_cycle());
  }
  std::string describe_out(const Out& o) const {
    return fmt::format("RTL: out_port {}, out_vcs 0x{:x}, {} (hdr_o 0x{:016x})", o.port, o.vcs, describe(d_, o.state),
                       o.hdr);
  }
  std::string describe_options(const std::vector<RouteOption>& opts) const {
    std::string s;
    for (const RouteOption& o : opts) {
      s += fmt::format("\n  port {} vcs 0x{:x} {}", o.out_port, o.vc_mask, describe(d_, o.next));
    }
    return s;
  }

  // Every check of one case. Returns false after a failure.
  bool check(const Case& c, const Out& o, Tally& t) {
    ++t.cases;
    const std::vector<RouteOption> opts = rel_.next_hops(c.router, c.in_port, c.in_vc, c.state);
    const bool allowed = std::any_of(opts.begin(), opts.end(), [&](const RouteOption& x) {
      return x.out_port == o.port && x.vc_mask == o.vcs && x.next == o.state;
    });
    EXPECT_TRUE(allowed) << "output not allowed by the relation\n  " << describe_case(c) << "\n  " << describe_out(o)
                         << "\n  relation allows:" << describe_options(opts);
    // Header fields other than phase and inter are passed through.
    std::uint64_t keep = ~std::uint64_t{0};
    if (ALGO != cfg::kMin) {
      set_field(keep, static_cast<unsigned>(d_.header.phase.lsb), static_cast<unsigned>(d_.header.phase.width), 0);
      set_field(keep, static_cast<unsigned>(d_.header.inter.lsb), static_cast<unsigned>(d_.header.inter.width), 0);
    }
    EXPECT_EQ(o.hdr & keep, c.hdr & keep) << "header fields other than phase/inter changed\n  " << describe_case(c);
    if (!decision_point(c)) return !::testing::Test::HasFailure();

    ++t.decisions;
    const bool nonmin = o.state.mode == RouteMode::ToIntermediate;
    const int cand = predicted_candidate(c);
    if (nonmin) {
      ++t.nonmin;
      EXPECT_EQ(o.state.inter, cand) << "intermediate differs from the LFSR model's draw\n  " << describe_case(c)
                                     << "\n  " << describe_out(o);
    } else {
      ++t.minimal;
      if (ALGO == cfg::kPar) {  // the header keeps the candidate (the source's, or the one it came with)
        EXPECT_EQ(o.state.inter, cand) << "PAR's minimal header does not carry the candidate\n  " << describe_case(c)
                                       << "\n  " << describe_out(o);
      }
    }
    if (!kAdaptive) {
      EXPECT_TRUE(nonmin) << "Valiant routed minimally at its source\n  " << describe_case(c);
      return !::testing::Test::HasFailure();
    }
    if (ALGO == cfg::kPar && topo_.is_local_port(c.in_port)) {
      ++t.par_local;
      t.par_local_nonmin += nonmin;
    }
    // Exact: the rule with the LFSR model's candidate.
    const Rule r = rule(c, opts, cand);
    ++t.exact;
    t.ties += r.lhs == r.rhs;
    t.le_flips += (r.lhs - r.le_term <= r.rhs) != r.minimal();
    EXPECT_EQ(!nonmin, r.minimal()) << "UGAL decision differs from the model with candidate " << topo_.router_name(cand)
                                    << ": lhs " << r.lhs << " (LE term " << r.le_term << "), rhs " << r.rhs << "\n  "
                                    << describe_case(c) << "\n  " << describe_out(o);
    // Independent of the LFSR model: the candidate the unit wrote must pass the
    // rule; a minimal choice needs some candidate for which minimal wins.
    if (nonmin) {
      const Rule rr = rule(c, opts, o.state.inter);
      EXPECT_FALSE(rr.minimal()) << "went non-minimal although minimal wins against its own candidate: lhs " << rr.lhs
                                 << ", rhs " << rr.rhs << "\n  " << describe_case(c) << "\n  " << describe_out(o);
    } else {
      bool some = false;
      for (const int x : candidates(c)) some |= rule(c, opts, x).minimal();
      EXPECT_TRUE(some) << "went minimal although non-minimal wins against every candidate\n  " << describe_case(c)
                        << "\n  " << describe_out(o);
    }
    return !::testing::Test::HasFailure();
  }

  // ---- random cases ----
  int random_node(Rng& rng) { return static_cast<int>(rng.range(0, static_cast<unsigned>(topo_.num_nodes() - 1))); }
  int random_router(Rng& rng) { return static_cast<int>(rng.range(0, static_cast<unsigned>(topo_.num_routers() - 1))); }

  // Fills hdr (random other fields) and the adaptive inputs.
  void finish(Rng& rng, Case& c, unsigned occ_style) {
    c.hdr = encode_hdr(rng.bits(64), c.state);
    {  // the state as the header carries it (PAR: a minimal packet's intermediate too)
      FlitData f;
      f.words[0] = c.hdr;
      c.state = route_state_of(d_, d_.decode(f));
    }
    c.occ.assign(P, 0);
    c.dem.assign(P, 0);
    c.cf.assign(prm_.NUM_G, 0);
    for (unsigned g = 0; g < prm_.NUM_G; ++g) {
      c.cf[g] = static_cast<unsigned>(rng.chance(90) ? rng.range(0, prm_.A) : rng.range(0, rtltest::mask(CFW)));
    }
    const unsigned q = static_cast<unsigned>(rng.range(0, 40));
    for (unsigned p = 0; p < P; ++p) {
      switch (occ_style % 5) {
        case 0:
          c.occ[p] = static_cast<unsigned>(rng.bits(OCC_W));
          break;
        case 1:
          c.occ[p] = static_cast<unsigned>(rng.range(0, 7));
          break;
        case 2:
          c.occ[p] = q;
          break;
        case 3:
          c.occ[p] = static_cast<unsigned>(rng.range(0, 3));
          break;
        default:
          c.occ[p] = 0;
          break;
      }
    }
    // Waiting demand: none (style 4, every queue empty), else mostly small,
    // sometimes the whole range.
    if (occ_style % 5 != 4) {
      for (unsigned p = 0; p < P; ++p) {
        c.dem[p] = rng.chance(50) ? 0u : rng.chance(80) ? static_cast<unsigned>(rng.range(0, 12))
                                                         : static_cast<unsigned>(rng.bits(DEMAND_W));
      }
    }
    if (occ_style % 5 == 3) {  // a congested minimal port
      const auto opts = rel_.next_hops(c.router, c.in_port, c.in_vc, c.state);
      for (const RouteOption& o : opts) {
        if (o.next.mode == RouteMode::Minimal)
          c.occ[static_cast<unsigned>(o.out_port)] = static_cast<unsigned>(rng.range(8, 60));
      }
    }
  }

  // A decision point: from a terminal, or (PAR) over a local link in the source group.
  Case decision_case(Rng& rng, unsigned occ_style) {
    Case c;
    c.router = random_router(rng);
    const int index = topo_.index_in_group(c.router);
    do c.state.dst = random_node(rng);
    while (topo_.router_of_node(c.state.dst) == c.router ||
           (!prm_.INTRA_VALIANT && group(topo_.router_of_node(c.state.dst)) == group(c.router)));
    if (ALGO == cfg::kPar && rng.chance(40)) {
      c.in_port = topo_.first_local_port() + static_cast<int>(rng.range(0, prm_.A - 2));
      const int up = topo_.router_in_group(group(c.router), topo_.local_port_target(index, c.in_port));
      c.state.src = topo_.node_at(up, static_cast<int>(rng.range(0, prm_.NUM_NI - 1)));
      // The candidate the source drew (mostly a legal one).
      const std::vector<int> legal = rel_.intermediates(group(c.router), c.state.dst);
      c.state.inter = rng.chance(85) ? legal[rng.range(0, static_cast<unsigned>(legal.size() - 1))] : random_router(rng);
    } else {
      c.in_port = static_cast<int>(rng.range(0, prm_.NUM_NI - 1));
      c.state.src = topo_.node_at(c.router, c.in_port);
    }
    c.in_vc = static_cast<int>(rng.range(0, V - 1));
    finish(rng, c, occ_style);
    return c;
  }

  // Any input port, VC and route state (including states no real packet reaches).
  Case any_case(Rng& rng, unsigned occ_style) {
    Case c;
    c.router = random_router(rng);
    c.in_port = static_cast<int>(rng.range(0, P - 1));
    c.in_vc = static_cast<int>(rng.range(0, V - 1));
    c.state.dst =
        rng.chance(15) ? topo_.node_at(c.router, static_cast<int>(rng.range(0, prm_.NUM_NI - 1))) : random_node(rng);
    c.state.src = random_node(rng);
    if (ALGO != cfg::kMin) {
      c.state.mode = static_cast<RouteMode>(rng.range(0, 2));
      if (c.state.mode != RouteMode::Minimal) {
        c.state.inter = rng.chance(20) ? c.router : random_router(rng);
        if (rel_.intermediate_is_group()) c.state.inter = topo_.router_in_group(group(c.state.inter), 0);
      }
    }
    finish(rng, c, occ_style);
    return c;
  }

 public:
  // The -G values of CMakeLists.txt are the ones derive_design() gives this config.
  void ParametersMatchDesign() {
    const Design& d = this->d_;
    const Topology& t = this->topo_;
    EXPECT_EQ(d.ports, static_cast<int>(prm_.P));
    EXPECT_EQ(d.vcs, static_cast<int>(prm_.V));
    EXPECT_EQ(d.flit_bits, static_cast<int>(prm_.W));
    EXPECT_EQ(t.links_per_group_pair(), static_cast<int>(prm_.LINKS_PER_PAIR));
    EXPECT_EQ(t.router_id_bits(), static_cast<int>(prm_.GB + prm_.IB));
    EXPECT_EQ(t.local_bits(), static_cast<int>(prm_.LOCAL_W));
    EXPECT_EQ(this->rel_.levels(), static_cast<int>(prm_.V));
    EXPECT_EQ(d.header.dst.lsb, static_cast<int>(prm_.DST_LSB));
    EXPECT_EQ(d.header.dst.width, t.address_bits());
    EXPECT_EQ(d.header.src.lsb, static_cast<int>(prm_.SRC_LSB));
    EXPECT_EQ(d.header.src.width, t.address_bits());
    EXPECT_EQ(d.header.phase.lsb, static_cast<int>(prm_.PHASE_LSB));
    EXPECT_EQ(d.header.inter.lsb, static_cast<int>(prm_.INTER_LSB));
    // The algorithm's traits: the generator's, from its row of kAlgorithms.
    const DragonflyRouteTraits want = dragonfly_route_traits(traits(d.cfg.algorithm));
    EXPECT_EQ(prm_.built.route_state, want.route_state);
    EXPECT_EQ(prm_.built.always_valiant, want.always_valiant);
    EXPECT_EQ(prm_.built.group_intermediate, want.group_intermediate);
    EXPECT_EQ(prm_.built.adaptive, want.adaptive);
    EXPECT_EQ(prm_.built.contention, want.contention);
    EXPECT_EQ(prm_.built.redivert, want.redivert);
    if (prm_.ALGO != cfg::kMin) {
      EXPECT_EQ(d.header.phase.width, 2);
      EXPECT_EQ(d.header.inter.width, static_cast<int>(prm_.GB + prm_.IB));
    } else {
      EXPECT_EQ(d.header.phase.width, 0);
      EXPECT_EQ(d.header.inter.width, 0);
    }
    if (kAdaptive) {
      EXPECT_EQ(d.cfg.ugal_bias, prm_.BIAS);
    }
    // Seed formula of the docs, with the config's seed.
    EXPECT_EQ(d.cfg.seed & 0xffffu, prm_.SEED);
  }

  // Every router, every destination router, every input port, all three route
  // phases: the output is one the relation allows (exact decisions included).
  void SweepAgainstRelation() {
    const Topology& t = this->topo_;
    Rng rng(0xD1F0 + prm_.ALGO * 16 + prm_.NUM_G);
    Tally tally;
    const int modes = prm_.ALGO == cfg::kMin ? 1 : 3;
    for (int r = 0; r < t.num_routers(); ++r) {
      for (int dr = 0; dr < t.num_routers(); ++dr) {
        for (int port = 0; port < static_cast<int>(prm_.P); ++port) {
          for (int mode = 0; mode < modes; ++mode) {
            Case c;
            c.router = r;
            c.in_port = port;
            c.in_vc = static_cast<int>(rng.range(0, prm_.V - 1));
            c.state.dst = t.node_at(dr, static_cast<int>(rng.range(0, prm_.NUM_NI - 1)));
            // The source: this router for a terminal port, the upstream router
            // for a local port (PAR re-evaluates there), else anywhere.
            if (t.is_ni_port(port)) {
              c.state.src = t.node_at(r, port);
            } else if (t.is_local_port(port) && rng.chance(70)) {
              c.state.src =
                  t.node_at(t.router_in_group(t.group_of(r), t.local_port_target(t.index_in_group(r), port)), 0);
            } else {
              c.state.src = this->random_node(rng);
            }
            c.state.mode = static_cast<RouteMode>(mode);
            if (mode != 0) {
              c.state.inter = rng.chance(25) ? r : this->random_router(rng);
              if (this->rel_.intermediate_is_group()) c.state.inter = t.router_in_group(t.group_of(c.state.inter), 0);
            }
            this->finish(rng, c, static_cast<unsigned>(rng.range(0, 4)));
            const Out o = this->run(c);
            if (!this->check(c, o, tally)) return;
          }
        }
        this->tick();
      }
    }
    EXPECT_GT(tally.cases, 2000u);
    if (prm_.ALGO != cfg::kMin) {
      EXPECT_GT(tally.decisions, 500u);
    }
  }

  // Random decision points and random states, one case per cycle, with the
  // exact (LFSR model) and the model-free decision checks.
  void RandomAgainstRelationAndRule() {
    Rng rng(0xA5A5 + prm_.ALGO * 16 + prm_.NUM_G);
    Tally t;
    for (unsigned i = 0; i < 6000; ++i) {
      const unsigned style = static_cast<unsigned>(rng.range(0, 4));
      const Case c = rng.chance(60) ? this->decision_case(rng, style) : this->any_case(rng, style);
      const Out o = this->run(c);
      if (!this->check(c, o, t)) return;
      this->tick();
    }
    std::cout << "[ info ] " << algo_name(prm_.ALGO) << " " << this->topo_.describe() << ": " << t.cases << " cases, "
              << t.decisions << " decisions (" << t.nonmin << " non-minimal, " << t.minimal << " minimal), ties "
              << t.ties << ", UGAL-LE flips " << t.le_flips << ", PAR local " << t.par_local << " ("
              << t.par_local_nonmin << " non-minimal)\n";
    if (prm_.ALGO == cfg::kMin) return;
    EXPECT_GT(t.decisions, 3000u);
    if (kAdaptive) {
      EXPECT_GT(t.nonmin, 300u);
      EXPECT_GT(t.minimal, 300u);
    }
    if (prm_.ALGO == cfg::kUgalLe) {
      EXPECT_GT(t.le_flips, 30u) << "contention term rarely decides";
    }
    if (prm_.ALGO == cfg::kPar) {
      EXPECT_GT(t.par_local, 500u);
      EXPECT_GT(t.par_local_nonmin, 50u);
    }
  }

  // Decisions that do not depend on which candidate the LFSR drew.
  void ForcedDecisions() {
    Rng rng(0xF0C5 + prm_.ALGO * 16 + prm_.NUM_G);
    Tally t;
    unsigned unanimous = 0, all_zero = 0, forced_nonmin = 0, forced_min = 0;
    for (unsigned i = 0; i < 3000; ++i) {
      Case c = this->decision_case(rng, 4);  // every occupancy 0
      const unsigned kind = i % 3;
      if (!this->decision_point(c)) {  // PAR's second decision with an illegal header candidate
        const Out o = this->run(c);
        if (!this->check(c, o, t)) return;
        EXPECT_EQ(o.state.mode, RouteMode::Minimal) << this->describe_case(c);
        this->tick();
        continue;
      }
      const auto opts = this->rel_.next_hops(c.router, c.in_port, c.in_vc, c.state);
      const auto m = std::find_if(opts.begin(), opts.end(),
                                  [](const RouteOption& o) { return o.next.mode == RouteMode::Minimal; });
      ASSERT_NE(m, opts.end());
      const unsigned mport = static_cast<unsigned>(m->out_port);
      if (kind == 1) {  // congested minimal port, idle rest
        c.occ[mport] = static_cast<unsigned>(rng.range(200, 255));
      } else if (kind == 2) {  // idle minimal port, congested rest
        for (unsigned p = 0; p < P; ++p) c.occ[p] = p == mport ? 0u : static_cast<unsigned>(rng.range(100, 255));
      }
      const Out o = this->run(c);
      const bool nonmin = o.state.mode == RouteMode::ToIntermediate;
      if (kind == 0) {
        // lhs = 0 (the contention term is q_m * ...), rhs = b.
        ++all_zero;
        EXPECT_EQ(nonmin, prm_.BIAS < 0) << "all queues empty, bias " << prm_.BIAS << "\n  " << this->describe_case(c)
                                         << "\n  " << this->describe_out(o);
      }
      bool any_min = false, any_nonmin = false;
      for (const int x : this->candidates(c)) {
        const bool mn = this->rule(c, opts, x).minimal();
        any_min |= mn;
        any_nonmin |= !mn;
      }
      if (any_min != any_nonmin) {
        ++unanimous;
        forced_nonmin += any_nonmin;
        forced_min += any_min;
        EXPECT_EQ(nonmin, any_nonmin) << "every candidate agrees on " << (any_nonmin ? "non-minimal" : "minimal")
                                      << "\n  " << this->describe_case(c) << "\n  " << this->describe_out(o);
      }
      if (!this->check(c, o, t)) return;
      this->tick();
    }
    std::cout << "[ info ] " << algo_name(prm_.ALGO) << ": " << unanimous << " candidate-independent decisions ("
              << forced_nonmin << " non-minimal, " << forced_min << " minimal)\n";
    EXPECT_GT(unanimous, 1000u);
    EXPECT_GT(forced_nonmin, 100u);
    EXPECT_GT(forced_min, 100u);
  }

  // Occupancies chosen so that, for the LFSR model's candidate, lhs - rhs is
  // -1, 0 or +1 (minimal, minimal on the tie, non-minimal): the boundary of the
  // rule, with the UGAL-LE contention term and the bias included.
  void DecisionBoundary() {
    Rng rng(0xB0D + prm_.ALGO * 16 + prm_.NUM_G);
    Tally t;
    unsigned hit[3] = {0, 0, 0}, with_le = 0;
    for (unsigned i = 0; i < 6000; ++i) {
      Case c = this->decision_case(rng, static_cast<unsigned>(rng.range(0, 4)));
      const auto opts = this->rel_.next_hops(c.router, c.in_port, c.in_vc, c.state);
      if (!this->decision_point(c)) {
        const Out o = this->run(c);
        if (!this->check(c, o, t)) return;
        this->tick();
        continue;
      }
      const int cand = this->predicted_candidate(c);
      const auto m = std::find_if(opts.begin(), opts.end(),
                                  [](const RouteOption& o) { return o.next.mode == RouteMode::Minimal; });
      const auto n = std::find_if(opts.begin(), opts.end(), [&](const RouteOption& o) {
        return o.next.mode == RouteMode::ToIntermediate && o.next.inter == cand;
      });
      ASSERT_TRUE(m != opts.end() && n != opts.end()) << this->describe_case(c);
      const unsigned mp = static_cast<unsigned>(m->out_port), np = static_cast<unsigned>(n->out_port);
      if (mp == np) {  // one queue on both sides: no free choice, plain check
        const Out o = this->run(c);
        if (!this->check(c, o, t)) return;
        this->tick();
        continue;
      }
      // lhs = q_m * (H_m + LE factor), rhs = q_nm * H_nm + b; per unit of q_m:
      c.occ[mp] = 1;
      c.occ[np] = 0;
      c.dem[mp] = 0;
      c.dem[np] = 0;
      const Rule unit = this->rule(c, opts, cand);  // lhs = H_m + factor, rhs = b
      const long per_qm = unit.lhs;
      c.occ[np] = 1;
      const long per_qnm = this->rule(c, opts, cand).rhs - prm_.BIAS;  // H_nm
      const long delta = static_cast<long>(rng.range(0, 2)) - 1;
      bool found = false;
      for (int tries = 0; tries < 40 && !found; ++tries) {
        const long qnm = static_cast<long>(rng.range(0, 80));
        const long num = qnm * per_qnm + prm_.BIAS + delta;  // want q_m * per_qm == num
        if (num < 0 || num % per_qm != 0 || num / per_qm > 255) continue;
        // Each queue split at random into used credits and waiting demand.
        const unsigned qm = static_cast<unsigned>(num / per_qm);
        c.dem[mp] = static_cast<unsigned>(rng.range(0, qm));
        c.occ[mp] = qm - c.dem[mp];
        c.dem[np] = static_cast<unsigned>(rng.range(0, static_cast<unsigned>(qnm)));
        c.occ[np] = static_cast<unsigned>(qnm) - c.dem[np];
        found = true;
      }
      if (!found) continue;
      const Rule r = this->rule(c, opts, cand);
      ASSERT_EQ(r.lhs - r.rhs, delta) << this->describe_case(c);
      ++hit[delta + 1];
      with_le += r.le_term > 0;
      const Out o = this->run(c);
      if (!this->check(c, o, t)) return;
      EXPECT_EQ(o.state.mode == RouteMode::ToIntermediate, delta > 0)
          << "lhs - rhs = " << delta << "\n  " << this->describe_case(c) << "\n  " << this->describe_out(o);
      this->tick();
    }
    std::cout << "[ info ] " << algo_name(prm_.ALGO) << ": lhs - rhs = -1/0/+1 in " << hit[0] << "/" << hit[1] << "/"
              << hit[2] << " cases (" << with_le << " with the UGAL-LE term)\n";
    for (const unsigned h : hit) EXPECT_GT(h, 200u);
    if (prm_.ALGO == cfg::kUgalLe) {
      EXPECT_GT(with_le, 100u);
    }
  }

  // After reset the LFSR is 0 (the draw is index 0), the first clock loads the
  // seed, then the sequence of the documented polynomial; the draws cover every
  // legal intermediate about uniformly.
  void LfsrSeedAndUniformIntermediates() {
    const Topology& t = this->topo_;
    Rng rng(0x1F5 + prm_.ALGO);
    // (router, destination router): another group, and the router's own group.
    const int r = t.router_in_group(1, 2);
    for (const int dr : {t.router_in_group(t.num_groups() - 1, 1), t.router_in_group(1, 0)}) {
      this->reset();
      Case c;
      c.router = r;
      c.in_port = 1;
      c.in_vc = 0;
      c.state.dst = t.node_at(dr, 1);
      c.state.src = t.node_at(r, 1);
      this->finish(rng, c, 4);
      const auto opts = this->rel_.next_hops(c.router, c.in_port, c.in_vc, c.state);
      const auto m = std::find_if(opts.begin(), opts.end(),
                                  [](const RouteOption& o) { return o.next.mode == RouteMode::Minimal; });
      if (!prm_.INTRA_VALIANT && t.group_of(dr) == t.group_of(r)) {
        // routing.intra_group = "minimal": no draw, whatever the queues say.
        c.occ[static_cast<unsigned>(m->out_port)] = 255;
        Tally tally;
        for (unsigned i = 0; i < 200; ++i) {
          const Out o = this->run(c);
          if (!this->check(c, o, tally)) return;
          EXPECT_EQ(o.state.mode, RouteMode::Minimal) << "a same-group pair left the group";
          this->tick();
        }
        continue;
      }
      // Queues: all empty (every candidate wins if b < 0; Valiant always), else a
      // congested minimal port: the candidates the rule lets through are drawn.
      if (kAdaptive && prm_.BIAS >= 0) c.occ[static_cast<unsigned>(m->out_port)] = 255;
      const std::vector<int> inters = this->rel_.intermediates(t.group_of(r), c.state.dst);
      const std::size_t n = inters.size();
      std::vector<bool> passes(n, true);
      unsigned min_bins = 0;
      if (kAdaptive) {
        for (std::size_t k = 0; k < n; ++k) {
          passes[k] = !this->rule(c, opts, inters[k]).minimal();
          min_bins += !passes[k];
        }
      }
      std::map<int, unsigned> seen;
      unsigned minimal = 0;
      const unsigned cycles = static_cast<unsigned>(n) * 120;
      Tally tally;
      for (unsigned i = 0; i < cycles; ++i) {
        const Out o = this->run(c);
        if (!this->check(c, o, tally)) return;
        if (o.state.mode == RouteMode::ToIntermediate) {
          ++seen[o.state.inter];
        } else {
          ++minimal;
        }
        if (i == 0 && passes[0]) {
          EXPECT_EQ(o.state.inter, inters[0]) << "first cycle after reset: LFSR 0, index 0";
        }
        if (i == 1) {
          const std::uint16_t s = static_cast<std::uint16_t>(seed_of(t.router_id(r)) | 1u);
          const std::size_t k = (static_cast<std::uint32_t>(s) * n) >> 16;
          if (passes[k]) {
            EXPECT_EQ(o.state.inter, inters[k]) << "second cycle: LFSR = seed 0x" << std::hex << s;
          }
        }
        this->tick();
      }
      // Chi-square over the candidates the rule lets through, plus one bin for
      // the draws that stay minimal.
      const double expect = static_cast<double>(cycles) / static_cast<double>(n);
      double chi2 = 0;
      unsigned bins = 0;
      for (std::size_t k = 0; k < n; ++k) {
        if (!passes[k]) continue;
        ++bins;
        const double x = seen[inters[k]];
        EXPECT_GT(x, 0) << "intermediate " << t.router_name(inters[k]) << " never drawn";
        chi2 += (x - expect) * (x - expect) / expect;
      }
      if (min_bins > 0) {
        ++bins;
        const double e = expect * min_bins;
        chi2 += (minimal - e) * (minimal - e) / e;
      } else {
        EXPECT_EQ(minimal, 0u);
      }
      const double dof = bins - 1.0;
      EXPECT_LT(chi2, dof + 6.0 * std::sqrt(2.0 * dof) + 10.0)
          << "draws far from uniform over " << n << " intermediates (" << bins << " bins)";
      EXPECT_EQ(seen.size(), bins - (min_bins > 0 ? 1u : 0u)) << "a draw outside the legal intermediates";
      if (!kAdaptive || prm_.BIAS < 0) {
        EXPECT_EQ(seen.size(), n) << "not every intermediate drawn";
      }
      std::cout << "[ info ] " << algo_name(prm_.ALGO) << " " << t.router_name(r) << " -> " << t.router_name(dr) << ": "
                << n << " intermediates, " << cycles << " draws, " << bins << " bins, chi2 " << chi2 << "\n";
    }
  }

 protected:
  const Params prm_;
  const unsigned P, V, ALGO, OCC_W, DEMAND_W, CFW;
  const int BIAS;
  const bool kAdaptive;
  const Design& d_;
  const Topology& topo_;
  DragonflyRouting rel_;
  std::uint16_t lfsr_ = 0;
  unsigned driven_id_ = 0;
  std::map<std::tuple<int, int, int>, int> hnm_cache_;
};

template <class Cfg>
constexpr Params params() {
  return {Cfg::P,        Cfg::NUM_NI,    Cfg::A,       Cfg::H,           Cfg::NUM_G,         Cfg::LINKS_PER_PAIR,
          Cfg::GB,       Cfg::IB,        Cfg::LOCAL_W, Cfg::W,           Cfg::OCC_W,            Cfg::DEMAND_W,
          Cfg::CFW,      Cfg::ALGO,      Cfg::V,       Cfg::PORT,        Cfg::SEED,          Cfg::BIAS,
          Cfg::PALMTREE, Cfg::RULE_DOUBLE, Cfg::INTRA_VALIANT, Cfg::DST_LSB, Cfg::SRC_LSB, Cfg::PHASE_LSB,
          Cfg::INTER_LSB, Cfg::kBuilt};
}

template <class Cfg>
const Design& design_of() {
  static const Design d = derive_design(parse_config(toml(params<Cfg>()), "test_rr_route_dfly.toml"));
  return d;
}

template <class Cfg>
class DutBench final : public Bench {
 public:
  DutBench() : Bench(params<Cfg>(), design_of<Cfg>()) { reset(); }

 protected:
  void dut_reset() override { dut_.reset(); }
  void dut_tick() override { dut_.tick(); }
  std::uint64_t dut_cycle() const override { return dut_.cycle(); }
  void dut_eval(unsigned id, std::uint64_t hdr, unsigned in_port, unsigned in_vc, std::uint64_t occ,
                std::uint64_t dem, std::uint64_t cf) override {
    rtltest::put(dut_->id_i, id);
    rtltest::put(dut_->dem_i, dem);
    rtltest::put(dut_->hdr_i, hdr);
    rtltest::put(dut_->in_port_i, in_port);
    rtltest::put(dut_->in_vc_i, in_vc);
    rtltest::put(dut_->occ_i, occ);
    rtltest::put(dut_->contention_i, cf);
    dut_.eval();
  }
  void dut_read(Out& o) override {
    o.port = static_cast<int>(dut_->out_port_o);
    o.vcs = static_cast<std::uint32_t>(dut_->out_vcs_o);
    o.hdr = static_cast<std::uint64_t>(dut_->hdr_o);
  }

 private:
  Dut<typename Cfg::Model> dut_;
};

// Every parameter set; those that draw intermediates; the adaptive ones.
template <class Cfg>
class RouteDflyTest : public ::testing::Test {
 protected:
  DutBench<Cfg> b_;
};
template <class Cfg>
class RouteDflyValiantTest : public RouteDflyTest<Cfg> {};
template <class Cfg>
class RouteDflyUgalTest : public RouteDflyTest<Cfg> {};

using DflyCfgs = ::testing::Types<cfg::A9Min, cfg::A9Valg, cfg::A9Valn, cfg::A9UgalG, cfg::A9UgalLe, cfg::A9Par,
                                  cfg::P5Min, cfg::P5Valg, cfg::P5Valn, cfg::P5UgalG, cfg::P5UgalLe, cfg::P5Par,
                                  cfg::A9UgalNDbl, cfg::P5ValgIntra, cfg::P5ParIntra, cfg::A9UgalLeHead,
                                  cfg::P5ParHead, cfg::A9UgalNDblHead, cfg::P5UgalGHead>;
using NonMinCfgs = ::testing::Types<cfg::A9Valg, cfg::A9Valn, cfg::A9UgalG, cfg::A9UgalLe, cfg::A9Par, cfg::P5Valg,
                                    cfg::P5Valn, cfg::P5UgalG, cfg::P5UgalLe, cfg::P5Par, cfg::A9UgalNDbl,
                                    cfg::P5ValgIntra, cfg::P5ParIntra, cfg::A9UgalLeHead, cfg::P5ParHead,
                                    cfg::A9UgalNDblHead, cfg::P5UgalGHead>;
using UgalCfgs = ::testing::Types<cfg::A9UgalG, cfg::A9UgalLe, cfg::A9Par, cfg::P5UgalG, cfg::P5UgalLe, cfg::P5Par,
                                  cfg::A9UgalNDbl, cfg::P5ParIntra, cfg::A9UgalLeHead, cfg::P5ParHead,
                                  cfg::A9UgalNDblHead, cfg::P5UgalGHead>;
TYPED_TEST_SUITE(RouteDflyTest, DflyCfgs);
TYPED_TEST_SUITE(RouteDflyValiantTest, NonMinCfgs);
TYPED_TEST_SUITE(RouteDflyUgalTest, UgalCfgs);

TYPED_TEST(RouteDflyTest, ParametersMatchDesign) { this->b_.ParametersMatchDesign(); }
TYPED_TEST(RouteDflyTest, SweepAgainstRelation) { this->b_.SweepAgainstRelation(); }
TYPED_TEST(RouteDflyTest, RandomAgainstRelationAndRule) { this->b_.RandomAgainstRelationAndRule(); }
TYPED_TEST(RouteDflyUgalTest, ForcedDecisions) { this->b_.ForcedDecisions(); }
TYPED_TEST(RouteDflyUgalTest, DecisionBoundary) { this->b_.DecisionBoundary(); }
TYPED_TEST(RouteDflyValiantTest, LfsrSeedAndUniformIntermediates) { this->b_.LfsrSeedAndUniformIntermediates(); }

}  // namespace
