// Block test for rtl/rr_route_q_adaptive.sv (Q-adaptive's route unit, with
// rr_dfly_path and rr_vc_levels), against the C++ side of every fact it computes, on every router of
// dfly(2,4,2,9) absolute and dfly(2,4,2,5) palmtree (l = 2):
//  - out_port_o / out_vcs_o / the rewritten route state: one of
//    QAdaptiveRouting::next_hops() (the minimal port, the VC level of the hop);
//  - decide_o: QAdaptiveRouting::presented_at_head();
//  - the operands (rr_pkg::q_operands_width): the role from decision_point(),
//    the row from QTableLayout::row() here and at the upstream router, r =
//    now - stamp modulo 2^16, the minimal column, the global ports that lead
//    to the destination group;
//  - the header: stamp := now, the phase "from intermediate" at the first
//    router of an intermediate group, nothing else changed;
//  - q_init_value_o: QTableLayout::initial_cycles() of every column of every
//    row, as a Q-value code (fraction bits QFB, saturated at QW bits), with
//    either initialisation (routing.q_initial; the third model: "flat");
//  - the fourth model: the next router of the source group deciding the
//    source's local detours (routing.q_source_group = "detour", phase 3);
//  - VCs that rise (routing.q_vcs = "rising"), with one and two VCs per
//    level and with the source group deciding: out_vcs_o for the minimal
//    port, alt_vcs_o for the others (the intermediate router: out_vcs_o
//    for every port), each the relation's VCs of that option.
// The models take 64-bit flits: Q-adaptive's header fields all lie in the low
// 64 bits of the 128-bit flits its configs need (checked below).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <iostream>
#include <string>

#include <fmt/format.h>

#include "Vrr_route_q_adaptive_a9.h"
#include "Vrr_route_q_adaptive_a9_decide_rising.h"
#include "Vrr_route_q_adaptive_a9_detour.h"
#include "Vrr_route_q_adaptive_a9_detour_rising.h"
#include "Vrr_route_q_adaptive_a9_rising.h"
#include "Vrr_route_q_adaptive_p5.h"
#include "Vrr_route_q_adaptive_p5_flat.h"
#include "Vrr_route_q_adaptive_p5_rising.h"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/pipeline.hpp"
#include "rlroute/gen/q_codes.hpp"
#include "rlroute/gen/q_table_layout.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"
#include "rlroute/gen/routing_q_adaptive.hpp"
#include "vtb.hpp"

namespace {

using namespace rlroute;
using rtltest::field;
using rtltest::Rng;

// The -G values of CMakeLists.txt that differ between the models.
struct A9 {
  using Model = Vrr_route_q_adaptive_a9;
  static constexpr unsigned NUM_G = 9, QW = 16, QFB = 4, LOCAL_LATENCY = 1, GLOBAL_LATENCY = 10, STAMP_LSB = 29,
                            PHASE_LSB = 27;
  static constexpr const char* kArrangement = "absolute";
  static constexpr const char* kInitial = "zero_load";
  static constexpr const char* kSourceGroup = "minimal";
  static constexpr unsigned VCS = 5;
  static constexpr const char* kVcs = "per_hop";
};
struct A9Detour : A9 {
  using Model = Vrr_route_q_adaptive_a9_detour;
  static constexpr const char* kSourceGroup = "detour";
};
struct A9Rising : A9 {
  using Model = Vrr_route_q_adaptive_a9_rising;
  static constexpr const char* kVcs = "rising";
};
struct A9DecideRising : A9Rising {
  using Model = Vrr_route_q_adaptive_a9_decide_rising;
  static constexpr const char* kSourceGroup = "decide";
};
struct A9DetourRising : A9Rising {
  using Model = Vrr_route_q_adaptive_a9_detour_rising;
  static constexpr const char* kSourceGroup = "detour";
};
struct P5 {
  using Model = Vrr_route_q_adaptive_p5;
  static constexpr unsigned NUM_G = 5, QW = 12, QFB = 2, LOCAL_LATENCY = 2, GLOBAL_LATENCY = 5, STAMP_LSB = 27,
                            PHASE_LSB = 25;
  static constexpr const char* kArrangement = "palmtree";
  static constexpr const char* kInitial = "zero_load";
  static constexpr const char* kSourceGroup = "minimal";
  static constexpr unsigned VCS = 5;
  static constexpr const char* kVcs = "per_hop";
};
struct P5Flat : P5 {
  using Model = Vrr_route_q_adaptive_p5_flat;
  static constexpr const char* kInitial = "flat";
};
struct P5Rising : P5 {
  using Model = Vrr_route_q_adaptive_p5_rising;
  static constexpr unsigned VCS = 8;
  static constexpr const char* kVcs = "rising";
};

template <class Cfg>
class RouteQAdaptiveTest : public ::testing::Test {
 protected:
  static constexpr unsigned P = 7, NUM_NI = 2, A = 4, H = 2, NUM_COLS = P - NUM_NI;

  RouteQAdaptiveTest()
      : d_(derive_design(parse_config(fmt::format(R"(
[topology]
kind = "dragonfly"
p = 2
a = 4
h = 2
g = {}
arrangement = "{}"
local_link_latency = {}
global_link_latency = {}
[router]
vcs = {}
buffer_flits = 24
flit_bits = 128
[routing]
algorithm = "q_adaptive"
q_value_bits = {}
q_fraction_bits = {}
q_initial = "{}"
q_source_group = "{}"
q_vcs = "{}"
)",
                                                  Cfg::NUM_G, Cfg::kArrangement, Cfg::LOCAL_LATENCY, Cfg::GLOBAL_LATENCY,
                                                  Cfg::VCS, Cfg::QW, Cfg::QFB, Cfg::kInitial, Cfg::kSourceGroup,
                                                  Cfg::kVcs),
                                      "t.toml"))),
        topo_(d_.topo),
        rel_(d_),
        dfly_(d_),
        layout_(d_) {}

  unsigned rows() const { return static_cast<unsigned>(layout_.rows()); }
  unsigned row_bits() const { return rows() > 1 ? std::bit_width(rows() - 1) : 1; }
  static constexpr unsigned kColBits = std::bit_width(NUM_COLS - 1);

  std::uint64_t code(int cycles) const {
    const std::uint64_t max = (1u << Cfg::QW) - 1;
    return std::min<std::uint64_t>(static_cast<std::uint64_t>(cycles) << Cfg::QFB, max);
  }

  Design d_;
  const Topology& topo_;
  QAdaptiveRouting rel_;
  DragonflyRouting dfly_;  // minimal ports
  QTableLayout layout_;
  rtltest::CombDut<typename Cfg::Model> dut_;
  Rng rng_{7};
};

using Cfgs = ::testing::Types<A9, P5, P5Flat, A9Detour, A9Rising, P5Rising, A9DecideRising, A9DetourRising>;
TYPED_TEST_SUITE(RouteQAdaptiveTest, Cfgs);

TYPED_TEST(RouteQAdaptiveTest, HeaderLayoutIsTheModels) {
  EXPECT_EQ(this->d_.header.stamp.lsb, static_cast<int>(TypeParam::STAMP_LSB));
  EXPECT_EQ(this->d_.header.stamp.width, kQStampBits);
  EXPECT_EQ(this->d_.header.phase.lsb, static_cast<int>(TypeParam::PHASE_LSB));
  EXPECT_EQ(this->d_.header.inter.width, 0) << "Q-adaptive names no intermediate";
  for (const auto& [name, f] : this->d_.header.named()) {
    if (name != "timestamp" && name != "crc" && name != "payload") {
      EXPECT_LE(f.lsb + f.width, 64) << name;
    }
  }
  EXPECT_EQ(hop_latency(TypeParam::LOCAL_LATENCY, rlroute::SwitchAllocation::AfterVc), 2 + static_cast<int>(TypeParam::LOCAL_LATENCY));
}

// Every router, input port, destination and route state the relation makes.
TYPED_TEST(RouteQAdaptiveTest, EveryCaseAgreesWithTheRelationAndTheLayout) {
  using T = TestFixture;
  auto& dut = this->dut_;
  const Topology& t = this->topo_;
  const Design& d = this->d_;
  const unsigned rb = this->row_bits();
  const bool detour = std::string(TypeParam::kSourceGroup) == "detour";
  const bool rising = std::string(TypeParam::kVcs) == "rising";
  unsigned cases = 0, sources = 0, intermediates = 0, source_groups = 0, presented = 0, risen = 0;
  for (int router = 0; router < t.num_routers(); ++router) {
    for (int in_port = 0; in_port < static_cast<int>(T::P); ++in_port) {
      const bool ni = t.is_ni_port(in_port);
      for (int dst = 0; dst < t.num_nodes(); ++dst) {
        for (RouteMode mode : {RouteMode::Minimal, RouteMode::ToIntermediate, RouteMode::FromIntermediate,
                               RouteMode::SourceDetour}) {
          if (ni && mode != RouteMode::Minimal) continue;
          // A source detour arrives by a local link outside the destination group.
          if (mode == RouteMode::SourceDetour &&
              (!detour || !t.is_local_port(in_port) || t.group_of(router) == t.group_of(t.router_of_node(dst)))) {
            continue;
          }
          // "To intermediate" arrives by a global link into a third group.
          if (mode == RouteMode::ToIntermediate &&
              (!t.is_global_port(in_port) || t.group_of(router) == t.group_of(t.router_of_node(dst)))) {
            continue;
          }
          const RouteState s{dst, static_cast<int>(this->rng_.range(0, t.num_nodes() - 1)), -1, mode};
          const int in_vc = ni ? 0 : static_cast<int>(this->rng_.range(0, TypeParam::VCS - 2));  // not the last
          FlitData raw;
          raw.words[0] = this->rng_.bits(64);
          Header h = d.decode(raw);
          set_route_state(d, s, h);
          const std::uint64_t hdr = d.encode(h).words[0];
          const std::uint64_t now = this->rng_.bits(16);
          dut->id_i = static_cast<std::uint32_t>(t.router_id(router));
          dut->hdr_i = hdr;
          dut->in_port_i = static_cast<std::uint32_t>(in_port);
          dut->in_vc_i = static_cast<std::uint32_t>(in_vc);
          dut->now_i = static_cast<std::uint32_t>(now);
          dut.eval();
          const std::string at = fmt::format("router {} in port {} vc {} {}", router, in_port, in_vc, describe(d, s));
          ++cases;

          // The route: one of the relation's options, with its VCs and state.
          FlitData out;
          out.words[0] = dut->hdr_o;
          const Header ho = d.decode(out);
          const RouteState next = route_state_of(d, ho);
          bool allowed = false;
          for (const RouteOption& o : this->rel_.next_hops(router, in_port, in_vc, s)) {
            if (o.out_port == static_cast<int>(dut->out_port_o) && o.vc_mask == dut->out_vcs_o && o.next == next)
              allowed = true;
          }
          ASSERT_TRUE(allowed) << at << ": port " << unsigned{dut->out_port_o} << " vcs " << unsigned{dut->out_vcs_o} << " as "
                               << describe(d, next);
          const int dst_router = t.router_of_node(dst);
          const int min_port =
              router == dst_router ? t.local_of_node(dst) : this->dfly_.min_port_to_router(router, dst_router);
          ASSERT_EQ(static_cast<int>(dut->out_port_o), min_port) << at << ": the minimal port";
          if (!t.is_ni_port(min_port)) {
            const int level = ni ? 0 : this->dfly_.level_of(in_vc) + 1;
            risen += dut->out_vcs_o != this->dfly_.level_vcs(level);
          }

          // The header: the stamp is now, the phase as the relation says, the rest kept.
          ASSERT_EQ(ho.stamp, now) << at;
          FlitData in;
          in.words[0] = hdr;
          Header expect = d.decode(in);
          expect.stamp = static_cast<unsigned>(now);
          expect.phase = ho.phase;
          ASSERT_EQ(d.encode(expect).words[0], dut->hdr_o) << at << ": only the stamp and the phase change";

          // The Q unit's part.
          const bool open = this->rel_.presented_at_head(router, in_port, s);
          ASSERT_EQ(dut->decide_o, open) << at;
          presented += open;
          const std::uint64_t ops = dut->operands_o;
          unsigned lsb = 0;
          auto take = [&](unsigned w) {
            const std::uint64_t v = field(ops, lsb, w);
            lsb += w;
            return v;
          };
          const std::uint64_t min_col = take(T::kColBits), role = take(2), read = take(1), row = take(rb),
                              fb = take(1), r = take(kQStampBits), fb_row = take(rb), to_dst = take(T::H);
          const int dst_group = t.group_of(dst_router);
          const bool decides = this->rel_.decision_point(router, in_port, s);
          // rr_pkg::Q_ROLE_*: the source, the intermediate group's first router
          // (entered by a global link), the next router of the source group.
          const unsigned want_role = !decides ? 0u : ni ? 1u : t.is_global_port(in_port) ? 2u : 3u;
          sources += want_role == 1;
          intermediates += want_role == 2;
          source_groups += want_role == 3;
          ASSERT_EQ(role, want_role) << at;
          // The VCs of the other ports: alt_vcs_o where the Q unit's choice
          // of another port takes it (the source, the source group), else
          // out_vcs_o.
          if (decides) {
            for (const RouteOption& o : this->rel_.next_hops(router, in_port, in_vc, s)) {
              if (o.out_port == min_port) continue;
              ASSERT_EQ(o.vc_mask, want_role == 2 ? dut->out_vcs_o : dut->alt_vcs_o)
                  << at << ": the VCs of port " << o.out_port;
            }
          }
          ASSERT_EQ(read, t.group_of(router) != dst_group) << at;
          ASSERT_EQ(fb, !ni) << at;
          ASSERT_EQ(r, (now - h.stamp) & 0xffffu) << at;
          if (read) {
            ASSERT_EQ(row, static_cast<std::uint64_t>(this->layout_.row(router, s.src, dst))) << at;
            ASSERT_EQ(min_col, static_cast<std::uint64_t>(this->layout_.column_of_port(min_port))) << at;
          }
          const int up = ni ? -1 : t.neighbor(router, in_port)->router;
          if (fb && open && t.group_of(up) != dst_group) {
            ASSERT_EQ(fb_row, static_cast<std::uint64_t>(this->layout_.row(up, s.src, dst))) << at << ": upstream row";
          }
          for (unsigned k = 0; k < T::H; ++k) {
            const int port = t.first_global_port() + static_cast<int>(k);
            ASSERT_EQ(field(to_dst, k, 1), t.group_of(t.neighbor(router, port)->router) == dst_group)
                << at << " k " << k;
          }
          ASSERT_EQ(lsb, T::kColBits + 2 + 1 + 2 * rb + 1 + kQStampBits + T::H) << "rr_pkg::q_operands_width";
        }
      }
    }
  }
  std::cout << "[ info ] " << cases << " cases, " << presented << " presented, " << sources << " source decisions, "
            << intermediates << " intermediate decisions, " << source_groups << " source-group decisions\n";
  EXPECT_GT(sources, 100u);
  EXPECT_GT(intermediates, 100u);
  if (std::string(TypeParam::kSourceGroup) != "minimal") {
    EXPECT_GT(source_groups, 100u);
  } else {
    EXPECT_EQ(source_groups, 0u);
  }
  std::cout << "[ info ] " << risen << " minimal hops given VCs above their level\n";
  if (rising) {
    EXPECT_GT(risen, 100u);
  } else {
    EXPECT_EQ(risen, 0u);
  }
}

TYPED_TEST(RouteQAdaptiveTest, InitialValuesOfEveryRowAreTheLayouts) {
  using T = TestFixture;
  auto& dut = this->dut_;
  const Topology& t = this->topo_;
  unsigned saturated = 0;
  for (int router = 0; router < t.num_routers(); ++router) {
    for (unsigned row = 0; row < this->rows(); ++row) {
      dut->id_i = static_cast<std::uint32_t>(t.router_id(router));
      dut->q_init_row_i = row;
      dut.eval();
      const rtltest::Bits values = rtltest::get_bits(dut->q_init_value_o, T::NUM_COLS * TypeParam::QW);
      const int group = this->layout_.dst_group_of_row(router, static_cast<int>(row));
      for (unsigned c = 0; c < T::NUM_COLS; ++c) {
        const int cycles = this->layout_.initial_cycles(router, group, static_cast<int>(c));
        saturated += this->code(cycles) == (1u << TypeParam::QW) - 1;
        ASSERT_EQ(values.get(c * TypeParam::QW, TypeParam::QW), this->code(cycles))
            << "router " << router << " row " << row << " column " << c << ": " << cycles << " cycles";
      }
    }
  }
  EXPECT_EQ(saturated, 0u) << "the models' formats hold every initial value";
}

}  // namespace
