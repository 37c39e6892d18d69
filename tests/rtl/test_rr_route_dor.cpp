// Block test for rtl/rr_route_dor.sv (dimension-order route compute of tori and
// meshes, and with STAR star-channel's), swept exhaustively against its C++
// twin, the relation DorRouting (gen/src/cube/routing_dor.cpp) or StarRouting
// (gen/src/cube/routing_star.cpp): for every router, every input port, every input
// VC and every destination node, the unit's (out_port_o, out_vcs_o) must be
// the relation's first option (out_port, vc_mask), dateline classes included,
// and with STAR (alt_port_o, alt_vcs_o) its second (the next dimension still
// to correct, on the adaptive VC), decide_o set exactly when there is one.
// Each parameter set is the config of a real Design (parse_config +
// derive_design): the unit is driven the way cube/emit_cube.cpp instantiates it
// (coord_i = the router's id, hdr_i = the header flit Design::encode gives),
// and the parameters the model was Verilated with (read back from the model,
// see rlroute_verilate(... PUBLIC) in CMakeLists.txt) are checked against it.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "Vrr_route_dor_m2x2x2.h"
#include "Vrr_route_dor_m2x2x2___024root.h"
#include "Vrr_route_dor_m2x4.h"
#include "Vrr_route_dor_m2x4___024root.h"
#include "Vrr_route_dor_m3x2x4.h"
#include "Vrr_route_dor_m3x2x4___024root.h"
#include "Vrr_route_dor_m5x3.h"
#include "Vrr_route_dor_m5x3___024root.h"
#include "Vrr_route_dor_m7.h"
#include "Vrr_route_dor_m7___024root.h"
#include "Vrr_route_dor_t16.h"
#include "Vrr_route_dor_t16___024root.h"
#include "Vrr_route_dor_t2.h"
#include "Vrr_route_dor_t2___024root.h"
#include "Vrr_route_dor_t2x5x3.h"
#include "Vrr_route_dor_t2x5x3___024root.h"
#include "Vrr_route_dor_t3x3x3.h"
#include "Vrr_route_dor_t3x3x3___024root.h"
#include "Vrr_route_dor_t3x6.h"
#include "Vrr_route_dor_t3x6___024root.h"
#include "Vrr_route_dor_t4x4.h"
#include "Vrr_route_dor_t4x4___024root.h"
#include "Vrr_route_dor_t5.h"
#include "Vrr_route_dor_t5___024root.h"
#include "Vrr_route_dor_t8x8.h"
#include "Vrr_route_dor_t8x8___024root.h"
#include "Vrr_route_dor_s4x4.h"
#include "Vrr_route_dor_s4x4___024root.h"
#include "Vrr_route_dor_s3x6.h"
#include "Vrr_route_dor_s3x6___024root.h"
#include "Vrr_route_dor_s2x5x3.h"
#include "Vrr_route_dor_s2x5x3___024root.h"
#include "Vrr_route_dor_sm5x3.h"
#include "Vrr_route_dor_sm5x3___024root.h"
#include "Vrr_route_dor_q4x4.h"
#include "Vrr_route_dor_q4x4___024root.h"
#include "Vrr_route_dor_q3x6.h"
#include "Vrr_route_dor_q3x6___024root.h"
#include "Vrr_route_dor_qm5x3.h"
#include "Vrr_route_dor_qm5x3___024root.h"
#include "Vrr_route_dor_q4x4all.h"
#include "Vrr_route_dor_q4x4all___024root.h"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing.hpp"
#include "rlroute/gen/routing_dor.hpp"
#include "rlroute/gen/routing_dqn.hpp"
#include "rlroute/gen/topology.hpp"
#include "vtb.hpp"

// Parameter sets: the config of each model (its -G values are in CMakeLists.txt
// and are checked against the Design of this config). The struct names appear
// in the CTest test names.
namespace cfg {

struct Topo {
  bool torus;
  std::vector<int> dims;
  int nodes_per_router;
  int vcs;
  int flit_bits;
  bool star = false;
  int dqn_threshold = 0;  // DQN-routing's hop threshold; 0: not DQN
  bool dor_on_dqn_vc = false;  // DQN: routing.dqn_dor_vcs = "all"
};

// RR_DOR_CFG(name, model suffix, torus, nodes_per_router, vcs, flit_bits, radix...)
#define RR_DOR_CFG(NAME, SUFFIX, TORUS, NPR, VCS, FLIT_BITS, ...)                \
  struct NAME {                                                                \
    using Model = Vrr_route_dor_##SUFFIX;                                      \
    using Root = Vrr_route_dor_##SUFFIX##___024root;                           \
    static Topo topo() { return {TORUS, {__VA_ARGS__}, NPR, VCS, FLIT_BITS}; } \
  };

// Tori: k = 2, odd k, the largest k (16), 1-, 2- and 3-D, 1..4 nodes per
// router, 2..4 VCs (3: classes of unequal size).
RR_DOR_CFG(T2, t2, true, 2, 2, 48, 2)
RR_DOR_CFG(T5, t5, true, 1, 2, 64, 5)
RR_DOR_CFG(T16, t16, true, 3, 3, 64, 16)
RR_DOR_CFG(T4x4, t4x4, true, 1, 2, 64, 4, 4)
RR_DOR_CFG(T8x8, t8x8, true, 1, 2, 64, 8, 8)
RR_DOR_CFG(T3x6, t3x6, true, 2, 4, 64, 3, 6)
RR_DOR_CFG(T2x5x3, t2x5x3, true, 1, 3, 64, 2, 5, 3)
RR_DOR_CFG(T3x3x3, t3x3x3, true, 4, 2, 64, 3, 3, 3)
// Meshes: 1 VC, odd k, k = 2, 1-, 2- and 3-D, 1..3 nodes per router.
RR_DOR_CFG(M7, m7, false, 1, 1, 56, 7)
RR_DOR_CFG(M2x4, m2x4, false, 3, 2, 64, 2, 4)
RR_DOR_CFG(M5x3, m5x3, false, 1, 3, 64, 5, 3)
RR_DOR_CFG(M3x2x4, m3x2x4, false, 2, 1, 64, 3, 2, 4)
RR_DOR_CFG(M2x2x2, m2x2x2, false, 1, 2, 64, 2, 2, 2)

// Star-channel: 3 VCs on a 2-D torus (the example's), 4 (escape classes
// {0,2}/{1}: the adaptive VC 3 has odd parity), 3-D (two of the three
// minimal ports offered), a mesh with 2 VCs (one escape VC).
#define RR_STAR_CFG(NAME, SUFFIX, TORUS, NPR, VCS, FLIT_BITS, ...)                     \
  struct NAME {                                                                      \
    using Model = Vrr_route_dor_##SUFFIX;                                            \
    using Root = Vrr_route_dor_##SUFFIX##___024root;                                 \
    static Topo topo() { return {TORUS, {__VA_ARGS__}, NPR, VCS, FLIT_BITS, true}; } \
  };
RR_STAR_CFG(S4x4, s4x4, true, 1, 3, 64, 4, 4)
RR_STAR_CFG(S3x6, s3x6, true, 2, 4, 64, 3, 6)
RR_STAR_CFG(S2x5x3, s2x5x3, true, 1, 3, 64, 2, 5, 3)
RR_STAR_CFG(SM5x3, sm5x3, false, 1, 2, 64, 5, 3)

// DQN-routing: the example's 4x4 torus with the threshold of [Lonardo 2019], 4
// VCs with two nodes per router and a low threshold, a mesh with one escape VC.
// The example's torus again with routing.dqn_dor_vcs = "all".
#define RR_DQN_CFG(NAME, SUFFIX, TORUS, NPR, VCS, FLIT_BITS, THRESHOLD, ALL, ...)                         \
  struct NAME {                                                                                        \
    using Model = Vrr_route_dor_##SUFFIX;                                                              \
    using Root = Vrr_route_dor_##SUFFIX##___024root;                                                   \
    static Topo topo() { return {TORUS, {__VA_ARGS__}, NPR, VCS, FLIT_BITS, false, THRESHOLD, ALL}; } \
  };
RR_DQN_CFG(Q4x4, q4x4, true, 1, 3, 64, 8, false, 4, 4)
RR_DQN_CFG(Q3x6, q3x6, true, 2, 4, 64, 3, false, 3, 6)
RR_DQN_CFG(QM5x3, qm5x3, false, 1, 2, 64, 4, false, 5, 3)
RR_DQN_CFG(Q4x4All, q4x4all, true, 1, 3, 64, 8, true, 4, 4)

#undef RR_DOR_CFG
#undef RR_STAR_CFG
#undef RR_DQN_CFG

}  // namespace cfg

namespace {

using namespace rlroute;
using rtltest::Rng;

// The parameters a model was Verilated with.
struct Params {
  unsigned P, V, W, NUM_NI, NUM_DIMS, COORD_W, K[3];
  bool TORUS;
  unsigned LOCAL_W, DST_LSB;
  bool STAR;
  bool DQN;
  unsigned HOP_THRESHOLD, HOPS_LSB, HOPS_W, PDOR_LSB;
  bool DOR_ON_DQN_VC;
};

template <class Root>
Params params_of() {
  return {Root::rr_route_dor__DOT__P,
          Root::rr_route_dor__DOT__V,
          Root::rr_route_dor__DOT__W,
          Root::rr_route_dor__DOT__NUM_NI,
          Root::rr_route_dor__DOT__NUM_DIMS,
          Root::rr_route_dor__DOT__COORD_W,
          {Root::rr_route_dor__DOT__K0, Root::rr_route_dor__DOT__K1, Root::rr_route_dor__DOT__K2},
          Root::rr_route_dor__DOT__TORUS != 0,
          Root::rr_route_dor__DOT__LOCAL_W,
          Root::rr_route_dor__DOT__DST_LSB,
          Root::rr_route_dor__DOT__STAR != 0,
          Root::rr_route_dor__DOT__DQN != 0,
          Root::rr_route_dor__DOT__HOP_THRESHOLD,
          Root::rr_route_dor__DOT__HOPS_LSB,
          Root::rr_route_dor__DOT__HOPS_W,
          Root::rr_route_dor__DOT__PDOR_LSB,
          Root::rr_route_dor__DOT__DOR_ON_DQN_VC != 0};
}

std::string toml(const cfg::Topo& t) {
  return fmt::format(
      "[design]\nname = \"rtl_route_dor\"\n"
      "[topology]\nkind = \"{}\"\ndims = [{}]\n"
      "[router]\nvcs = {}\nbuffer_flits = 8\nflit_bits = {}\nmax_packet_flits = 4\nnodes_per_router = {}\n"
      "[routing]\nalgorithm = \"{}\"\n",
      t.torus ? "torus" : "mesh", fmt::join(t.dims, ", "), t.vcs, t.flit_bits, t.nodes_per_router,
      t.star ? "star" : "dor");
}

// What a sweep visited (to show the exhaustive sweep reached every kind of decision).
struct Tally {
  unsigned cases = 0, eject = 0, plus = 0, minus = 0, all_vcs = 0, class0 = 0, class1 = 0;
  unsigned open = 0;               // STAR: an alternative offered
  unsigned wrap_hops = 0;          // class 1 because this hop takes the wrap link
  unsigned sticky = 0;             // class 1 because the packet continues in class 1
  std::vector<unsigned> per_dim;   // hops leaving in each dimension
};

// The test bench proper (not a template: one copy of the code for every
// parameter set); DutBench binds it to a Verilated model.
class Bench {
 public:
  Bench(const Params& prm, const cfg::Topo& topo_cfg)
      : prm_(prm),
        topo_cfg_(topo_cfg),
        d_(derive_design(parse_config(toml(topo_cfg), "test_rr_route_dor.toml"))),
        t_(d_.topo),
        rel_(d_, topo_cfg.star ? d_.vcs - 1 : -1),
        relation_(make_routing_relation(d_)) {}
  virtual ~Bench() = default;
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;

 protected:
  virtual void dut_eval(std::uint64_t coord, std::uint64_t hdr, unsigned in_port, unsigned in_vc) = 0;
  virtual unsigned dut_port() = 0;
  virtual std::uint32_t dut_vcs() = 0;
  virtual unsigned dut_alt_port() = 0;
  virtual std::uint32_t dut_alt_vcs() = 0;
  virtual bool dut_decide() = 0;
  virtual std::uint64_t dut_hdr() = 0;

  std::string mask_str(std::uint32_t m) const {
    std::string s;
    for (unsigned v = prm_.V; v-- > 0;) s += ((m >> v) & 1u) ? '1' : '0';
    return s;
  }

  std::string coords_str(int router) const { return fmt::format("({})", fmt::join(t_.coords(router), ",")); }

  // The header flit of a packet for `dst` as the design lays it out; every
  // other field random (the unit must read the destination only).
  std::uint64_t header_for(int dst, Rng& rng) const {
    Header h;
    h.dst = t_.address_of(dst);
    h.src = t_.address_of(static_cast<int>(rng.range(0, static_cast<std::uint64_t>(t_.num_nodes() - 1))));
    h.vc_class = static_cast<unsigned>(rng.bits(2));
    h.hops = static_cast<unsigned>(rng.bits(6));
    h.type = static_cast<PacketType>(rng.bits(1));
    h.pdor = rng.chance(50);
    h.req_ack = rng.chance(50);
    h.mode = static_cast<unsigned>(rng.bits(2));
    h.length = static_cast<unsigned>(rng.range(2, 4));
    h.packet_id = static_cast<unsigned>(rng.bits(16));
    h.timestamp = rng.bits(32);
    const FlitData f = d_.encode(h);
    EXPECT_EQ(d_.decode(f).dst, h.dst);
    return f.words[0] & rtltest::mask(prm_.W);
  }

 public:
  // The -G values of CMakeLists.txt, as Verilated, are the ones the Design of
  // the config gives (and the ones cube/emit_cube.cpp passes to rr_route_dor).
  void ParametersMatchDesign() {
    EXPECT_EQ(t_.torus(), topo_cfg_.torus);
    EXPECT_EQ(d_.cfg.algorithm, topo_cfg_.star ? RoutingAlgorithm::Star : RoutingAlgorithm::Dor);
    EXPECT_EQ(relation_->name(), topo_cfg_.star ? "star" : "dor");
    EXPECT_EQ(prm_.STAR, topo_cfg_.star);
    EXPECT_EQ(prm_.DQN, topo_cfg_.dqn_threshold > 0);
    if (prm_.DQN) {
      EXPECT_EQ(prm_.HOP_THRESHOLD, static_cast<unsigned>(topo_cfg_.dqn_threshold));
      EXPECT_EQ(prm_.HOPS_LSB, static_cast<unsigned>(d_.header.hops.lsb));
      EXPECT_EQ(prm_.HOPS_W, static_cast<unsigned>(d_.header.hops.width));
      EXPECT_EQ(prm_.PDOR_LSB, static_cast<unsigned>(d_.header.pdor.lsb));
    }
    EXPECT_EQ(prm_.DOR_ON_DQN_VC, topo_cfg_.dor_on_dqn_vc);
    EXPECT_EQ(prm_.P, static_cast<unsigned>(d_.ports));
    EXPECT_EQ(prm_.P, static_cast<unsigned>(t_.num_ports()));
    EXPECT_EQ(prm_.V, static_cast<unsigned>(d_.vcs));
    EXPECT_EQ(prm_.W, static_cast<unsigned>(d_.flit_bits));
    EXPECT_EQ(prm_.NUM_NI, static_cast<unsigned>(t_.nodes_per_router()));
    EXPECT_EQ(prm_.NUM_DIMS, static_cast<unsigned>(t_.num_dims()));
    EXPECT_EQ(prm_.COORD_W, static_cast<unsigned>(t_.coord_bits()));
    for (int d = 0; d < 3; ++d) {
      // The emitter passes 1 for a dimension the topology does not have.
      EXPECT_EQ(prm_.K[d], d < t_.num_dims() ? static_cast<unsigned>(t_.radix(d)) : 1u) << "K" << d;
    }
    EXPECT_EQ(prm_.TORUS, t_.torus());
    EXPECT_EQ(prm_.LOCAL_W, static_cast<unsigned>(t_.local_bits()));
    EXPECT_EQ(prm_.DST_LSB, static_cast<unsigned>(d_.header.dst.lsb));
    EXPECT_EQ(static_cast<unsigned>(d_.header.dst.width), prm_.LOCAL_W + prm_.NUM_DIMS * prm_.COORD_W);
    // coord_i is the router id: {coord[n-1], ..., coord[0]}, COORD_W bits each.
    EXPECT_EQ(static_cast<unsigned>(t_.router_id_bits()), prm_.NUM_DIMS * prm_.COORD_W);
    for (int r = 0; r < t_.num_routers(); ++r) {
      const std::vector<int> c = t_.coords(r);
      std::uint64_t id = 0;
      for (unsigned d = 0; d < prm_.NUM_DIMS; ++d) rtltest::set_field(id, d * prm_.COORD_W, prm_.COORD_W, c[d]);
      ASSERT_EQ(t_.router_id(r), id) << t_.router_name(r);
    }
    // Exactly the config of the parameter set.
    EXPECT_EQ(t_.num_dims(), static_cast<int>(topo_cfg_.dims.size()));
  }

  // Every router x input port x input VC x destination node: the unit's output
  // is the relation's single option.
  void ExhaustiveSweepAgainstRelation() {
    if (prm_.DQN) {
      DqnSweepAgainstRelation();
      return;
    }
    Rng rng(0xD0A + prm_.P * 131 + prm_.V * 17 + static_cast<unsigned>(t_.num_routers()));
    Tally tally;
    tally.per_dim.assign(prm_.NUM_DIMS, 0);
    unsigned failures = 0;
    for (int r = 0; r < t_.num_routers(); ++r) {
      const std::vector<int> here = t_.coords(r);
      for (int in_port = 0; in_port < static_cast<int>(prm_.P); ++in_port) {
        for (int in_vc = 0; in_vc < static_cast<int>(prm_.V); ++in_vc) {
          for (int dst = 0; dst < t_.num_nodes(); ++dst) {
            RouteState state;
            state.dst = dst;
            state.src = static_cast<int>(rng.range(0, static_cast<std::uint64_t>(t_.num_nodes() - 1)));
            const std::vector<RouteOption> opts = relation_->next_hops(r, in_port, in_vc, state);
            if (!prm_.STAR) {
              ASSERT_EQ(opts.size(), 1u) << "DOR is deterministic";
            }
            const RouteOption& want = opts.front();
            const std::uint64_t hdr = header_for(dst, rng);
            dut_eval(t_.router_id(r), hdr, static_cast<unsigned>(in_port), static_cast<unsigned>(in_vc));
            const unsigned port = dut_port();
            const std::uint32_t vcs = dut_vcs();
            ASSERT_EQ(dut_hdr(), hdr) << "DOR and star leave the header as it is";
            ++tally.cases;
            // STAR: the alternative is the relation's second option; without it none.
            const bool open = opts.size() > 1;
            const unsigned want_alt_port = open ? static_cast<unsigned>(opts[1].out_port) : 0u;
            const std::uint32_t want_alt_vcs = open ? opts[1].vc_mask : 0u;
            tally.open += open;
            if (dut_decide() != open || dut_alt_port() != want_alt_port || dut_alt_vcs() != want_alt_vcs) {
              ADD_FAILURE() << "router " << t_.router_name(r) << " " << coords_str(r) << ", in port " << in_port
                            << ", in VC " << in_vc << ", dst node " << dst << ": RTL decide " << dut_decide()
                            << " alt_port " << dut_alt_port() << " alt_vcs " << mask_str(dut_alt_vcs())
                            << ", relation " << open << " " << want_alt_port << " " << mask_str(want_alt_vcs);
              if (++failures >= 20) {
                FAIL() << "stopping after 20 mismatches";
              }
              continue;
            }
            if (port != static_cast<unsigned>(want.out_port) || vcs != want.vc_mask) {
              ADD_FAILURE() << "router " << t_.router_name(r) << " " << coords_str(r) << ", in port " << in_port
                            << " (" << t_.port_name(r, in_port) << "), in VC " << in_vc << ", dst node " << dst
                            << " at " << coords_str(t_.router_of_node(dst)) << " NI " << t_.local_of_node(dst)
                            << " (hdr 0x" << std::hex << hdr << std::dec << "):\n  RTL  out_port " << port << " ("
                            << t_.port_name(r, static_cast<int>(port)) << "), out_vcs " << mask_str(vcs)
                            << "\n  relation out_port " << want.out_port << " (" << t_.port_name(r, want.out_port)
                            << "), vc_mask " << mask_str(want.vc_mask);
              if (++failures >= 20) {
                FAIL() << "stopping after 20 mismatches";
              }
              continue;
            }
            // Coverage of the decisions.
            const int dim = t_.port_dim(want.out_port);
            if (dim < 0) {
              ++tally.eject;
              continue;
            }
            ++tally.per_dim[static_cast<unsigned>(dim)];
            const bool plus = want.out_port == t_.plus_port(dim);
            ++(plus ? tally.plus : tally.minus);
            // The escape part of the mask (without star's adaptive VC).
            const std::uint32_t escape = want.vc_mask & rel_.escape_vcs();
            if (escape == rel_.escape_vcs()) {
              ++tally.all_vcs;
            } else if (escape == rel_.class_vcs(0)) {
              ++tally.class0;
            } else {
              ++tally.class1;
              const int k = t_.radix(dim);
              const bool wraps = plus ? here[static_cast<unsigned>(dim)] == k - 1 : here[static_cast<unsigned>(dim)] == 0;
              if (wraps) {
                ++tally.wrap_hops;
              } else {
                ++tally.sticky;
              }
            }
          }
        }
      }
    }
    const unsigned expected = static_cast<unsigned>(t_.num_routers()) * prm_.P * prm_.V *
                              static_cast<unsigned>(t_.num_nodes());
    EXPECT_EQ(tally.cases, expected);
    std::cout << "[ info ] " << t_.describe() << ", " << prm_.V << " VCs: " << tally.cases << " cases, "
              << tally.eject << " eject, " << tally.open << " open, " << tally.plus << " +, " << tally.minus << " -, VCs all/class 0/class 1 "
              << tally.all_vcs << "/" << tally.class0 << "/" << tally.class1 << " (wrap hop " << tally.wrap_hops
              << ", sticky " << tally.sticky << ")\n";
    // Every kind of decision occurred.
    EXPECT_EQ(tally.eject, static_cast<unsigned>(t_.num_nodes()) * prm_.P * prm_.V);
    for (unsigned d = 0; d < prm_.NUM_DIMS; ++d) EXPECT_GT(tally.per_dim[d], 0u) << "dimension " << d;
    // Going - needs a ring or line of 3 (a tie goes +); class 0 (the wrap still
    // ahead) a ring of 4 or more (a path of two hops in one dimension).
    int max_radix = 0;
    for (int d = 0; d < t_.num_dims(); ++d) max_radix = std::max(max_radix, t_.radix(d));
    EXPECT_GT(tally.plus, 0u);
    if (max_radix >= 3 || !prm_.TORUS) {
      EXPECT_GT(tally.minus, 0u);
    }
    EXPECT_GT(tally.all_vcs, 0u);
    if (prm_.STAR) {
      EXPECT_GT(tally.open, 0u) << "star offers an alternative wherever two dimensions remain";
    } else {
      EXPECT_EQ(tally.open, 0u);
    }
    if (prm_.TORUS && prm_.V > 1) {
      EXPECT_GT(tally.wrap_hops, 0u);
      EXPECT_GT(tally.sticky, 0u);
      if (max_radix >= 4) {
        EXPECT_GT(tally.class0, 0u);
      }
    } else {
      EXPECT_EQ(tally.class0 + tally.class1, 0u) << "a mesh (or one VC) uses every VC";
    }
  }

  // DQN: every router x input port x input VC x destination node, and hop
  // counts and Pdor around the threshold. The relation (DqnRouting, built
  // directly on the config's design) offers the DOR hop on the escape VCs
  // (with dqn_dor_vcs = "all" the DQN VC too) first, then the DQN VC on every
  // port: with the choice open the unit gives the DQN VC (on DOR's port,
  // which the DQN unit replaces) and the DOR hop as the alternative; closed,
  // the DOR hop with Pdor set.
  void DqnSweepAgainstRelation() {
    const int threshold = static_cast<int>(prm_.HOP_THRESHOLD);
    Design dqn = d_;
    dqn.cfg.dqn_dor_vcs = topo_cfg_.dor_on_dqn_vc ? DqnDorVcs::All : DqnDorVcs::Escape;
    const DqnRouting rel(dqn, threshold);
    Rng rng(0xD9A + prm_.P);
    const std::uint32_t dqn_vc = 1u << (prm_.V - 1);
    unsigned cases = 0, open = 0, closed = 0, dor_on_dqn_vc = 0, failures = 0;
    for (int r = 0; r < t_.num_routers(); ++r) {
      for (int in_port = 0; in_port < static_cast<int>(prm_.P); ++in_port) {
        for (int in_vc = 0; in_vc < static_cast<int>(prm_.V); ++in_vc) {
          for (int dst = 0; dst < t_.num_nodes(); ++dst) {
            for (const int hops : {0, threshold - 1, threshold, 40}) {
              for (const bool pdor : {false, true}) {
                std::uint64_t hdr = header_for(dst, rng);
                rtltest::set_field(hdr, prm_.HOPS_LSB, prm_.HOPS_W, static_cast<std::uint64_t>(hops));
                rtltest::set_field(hdr, prm_.PDOR_LSB, 1, pdor);
                RouteState state{dst, 0, -1, RouteMode::Minimal};
                state.hops = hops;
                state.pdor = pdor;
                const std::vector<RouteOption> opts = rel.next_hops(r, in_port, in_vc, state);
                dut_eval(t_.router_id(r), hdr, static_cast<unsigned>(in_port), static_cast<unsigned>(in_vc));
                ++cases;
                const bool eject = t_.is_ni_port(opts.front().out_port);
                const bool want_open = opts.size() > 1;
                std::uint64_t want_hdr = hdr;
                if (!eject && !want_open) rtltest::set_field(want_hdr, prm_.PDOR_LSB, 1, 1);
                std::string why;
                if (dut_decide() != want_open) why = "decide";
                if (want_open) {
                  ++open;
                  if (dut_vcs() != dqn_vc) why = "the DQN VC";
                  if (dut_port() != static_cast<unsigned>(opts.front().out_port)) why = "DOR's port";
                  if (dut_alt_port() != static_cast<unsigned>(opts.front().out_port) ||
                      dut_alt_vcs() != opts.front().vc_mask) {
                    why = "the alternative: the DOR hop";
                  }
                  if (!opts.front().next.pdor) why = "relation: the DOR hop sets Pdor";
                  dor_on_dqn_vc += (dut_alt_vcs() & dqn_vc) != 0;
                  // Every DQN option is the DQN VC on a network port.
                  for (size_t k = 1; k < opts.size(); ++k) {
                    if (opts[k].vc_mask != dqn_vc || t_.is_ni_port(opts[k].out_port)) why = "relation's DQN options";
                  }
                } else {
                  closed += !eject;
                  dor_on_dqn_vc += !eject && (dut_vcs() & dqn_vc) != 0;
                  if (dut_port() != static_cast<unsigned>(opts.front().out_port) || dut_vcs() != opts.front().vc_mask) {
                    why = "the DOR hop";
                  }
                }
                if (dut_hdr() != want_hdr) why = "the header (Pdor)";
                if (!why.empty()) {
                  ADD_FAILURE() << why << ": router " << t_.router_name(r) << ", in port " << in_port << " vc " << in_vc
                                << ", dst " << dst << ", hops " << hops << ", pdor " << pdor << ": RTL port "
                                << dut_port() << " vcs " << mask_str(dut_vcs()) << " decide " << dut_decide()
                                << " alt " << dut_alt_port() << "/" << mask_str(dut_alt_vcs()) << "; relation first "
                                << opts.front().out_port << "/" << mask_str(opts.front().vc_mask) << ", "
                                << opts.size() << " options";
                  if (++failures >= 20) FAIL() << "stopping after 20 mismatches";
                }
              }
            }
          }
        }
      }
    }
    std::cout << "[ info ] " << t_.describe() << ", DQN, threshold " << prm_.HOP_THRESHOLD << ": " << cases
              << " cases, " << open << " open, " << closed << " DOR with Pdor, " << dor_on_dqn_vc
              << " DOR hops that may take the DQN VC\n";
    EXPECT_GT(open, 0u);
    EXPECT_GT(closed, 0u);
    // Every DOR hop that leaves may take the DQN VC with "all", none without.
    EXPECT_EQ(dor_on_dqn_vc, topo_cfg_.dor_on_dqn_vc ? open + closed : 0u);
  }

  // Paths: from every source node to every destination node, follow the
  // unit's own decisions hop by hop through the topology (input port and the
  // lowest allowed VC at each hop): the packet reaches its destination's NI
  // port within the relation's hop bound. Independent of the relation's
  // per-hop answer, this shows the unit routes, not only agrees.
  void PathsReachDestination() {
    Rng rng(0x9A7 + prm_.P);
    const int bound = rel_.hop_bound();
    unsigned paths = 0, max_hops = 0, wrap_class_switches = 0;
    for (int src = 0; src < t_.num_nodes(); ++src) {
      for (int dst = 0; dst < t_.num_nodes(); ++dst) {
        int router = t_.router_of_node(src);
        int in_port = t_.local_of_node(src);
        int in_vc = 0;
        int hops = 0;
        for (;;) {
          dut_eval(t_.router_id(router), header_for(dst, rng), static_cast<unsigned>(in_port),
                   static_cast<unsigned>(in_vc));
          const int port = static_cast<int>(dut_port());
          const std::uint32_t vcs = dut_vcs();
          ASSERT_NE(vcs, 0u) << "no output VC allowed at " << t_.router_name(router);
          if (t_.is_ni_port(port)) {
            ASSERT_EQ(router, t_.router_of_node(dst)) << "ejected at the wrong router, " << src << " -> " << dst;
            ASSERT_EQ(port, t_.local_of_node(dst)) << "ejected at the wrong NI port, " << src << " -> " << dst;
            break;
          }
          const auto next = t_.neighbor(router, port);
          ASSERT_TRUE(next.has_value()) << "port " << t_.port_name(router, port) << " of " << t_.router_name(router)
                                        << " leads nowhere, " << src << " -> " << dst;
          const int out_vc = std::countr_zero(vcs);
          wrap_class_switches += (in_vc % 2 == 0 && out_vc % 2 == 1 && prm_.TORUS && prm_.V > 1);
          router = next->router;
          in_port = next->port;
          in_vc = out_vc;
          ASSERT_LE(++hops, bound) << "hop bound exceeded, " << src << " -> " << dst;
        }
        ++paths;
        max_hops = std::max(max_hops, static_cast<unsigned>(hops));
      }
    }
    EXPECT_EQ(paths, static_cast<unsigned>(t_.num_nodes() * t_.num_nodes()));
    EXPECT_EQ(max_hops, static_cast<unsigned>(bound)) << "the longest path is the diameter";
    if (prm_.TORUS && prm_.V > 1) {
      EXPECT_GT(wrap_class_switches, 0u);
    }
  }

 protected:
  const Params prm_;
  const cfg::Topo topo_cfg_;
  const Design d_;
  const Topology& t_;
  DorRouting rel_;  // DOR, or star's escape sub-relation
  std::unique_ptr<RoutingRelation> relation_;
};

template <class Cfg>
class DutBench final : public Bench {
 public:
  DutBench()
      : Bench(params_of<typename Cfg::Root>(), Cfg::topo()),
        ctx_(std::make_unique<VerilatedContext>()),
        dut_(std::make_unique<typename Cfg::Model>(ctx_.get(), "dut")) {}
  ~DutBench() override {
    Verilated::threadContextp(ctx_.get());  // see rtltest::Dut::~Dut
    dut_->final();
    dut_.reset();
  }

 protected:
  void dut_eval(std::uint64_t coord, std::uint64_t hdr, unsigned in_port, unsigned in_vc) override {
    rtltest::put(dut_->coord_i, coord);
    rtltest::put(dut_->hdr_i, hdr);
    rtltest::put(dut_->in_port_i, in_port);
    rtltest::put(dut_->in_vc_i, in_vc);
    dut_->eval();
  }
  unsigned dut_port() override { return static_cast<unsigned>(dut_->out_port_o); }
  std::uint32_t dut_vcs() override { return static_cast<std::uint32_t>(dut_->out_vcs_o); }
  std::uint64_t dut_hdr() override { return static_cast<std::uint64_t>(dut_->hdr_o) & rtltest::mask(prm_.W); }
  unsigned dut_alt_port() override { return static_cast<unsigned>(dut_->alt_port_o); }
  std::uint32_t dut_alt_vcs() override { return static_cast<std::uint32_t>(dut_->alt_vcs_o); }
  bool dut_decide() override { return dut_->decide_o != 0; }

 private:
  // Combinational: no clock or reset, so no rtltest::Dut.
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<typename Cfg::Model> dut_;
};

template <class Cfg>
class RouteDorTest : public ::testing::Test {
 protected:
  DutBench<Cfg> b_;
};

using DorCfgs = ::testing::Types<cfg::T2, cfg::T5, cfg::T16, cfg::T4x4, cfg::T8x8, cfg::T3x6, cfg::T2x5x3,
                                 cfg::T3x3x3, cfg::M7, cfg::M2x4, cfg::M5x3, cfg::M3x2x4, cfg::M2x2x2, cfg::S4x4,
                                 cfg::S3x6, cfg::S2x5x3, cfg::SM5x3, cfg::Q4x4, cfg::Q3x6, cfg::QM5x3,
                                 cfg::Q4x4All>;
TYPED_TEST_SUITE(RouteDorTest, DorCfgs);

TYPED_TEST(RouteDorTest, ParametersMatchDesign) { this->b_.ParametersMatchDesign(); }
TYPED_TEST(RouteDorTest, ExhaustiveSweepAgainstRelation) { this->b_.ExhaustiveSweepAgainstRelation(); }
TYPED_TEST(RouteDorTest, PathsReachDestination) { this->b_.PathsReachDestination(); }

}  // namespace
