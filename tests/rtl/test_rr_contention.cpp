// Block test for rtl/rr_contention.sv (UGAL-LE contention factors) against
// the bit-exact reference (ref/include/rlroute/ref/contention.hpp), written
// from docs/routing_dragonfly.md:
//  - counters F[i][j]: the flits (the header's length field, added at the
//    head) of packets whose source router (header) is router i of this group,
//    to destination group j, seen on a terminal or local port; packets from
//    other groups, global ports, body flits and idle words are not counted;
//  - tumbling window of WINDOW cycles: a flow is active when its count is
//    above THRESHOLD in the current window or was at the end of the previous
//    one (that verdict is kept for one window); counters saturate at
//    THRESHOLD + 1;
//  - C_j = number of routers i with an active flow to group j.
// Window timing of the model: an arrival is counted at the clock edge that
// registers it; edge t (t = 1, 2, ... after reset) belongs to window t / WINDOW,
// so window k >= 1 holds the edges kW .. kW + W - 1 and window 0 the W - 1
// edges after reset.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Vrr_contention_a9.h"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/link_words.hpp"
#include "rlroute/gen/topology.hpp"
#include "rlroute/ref/contention.hpp"
#include "link_bits.hpp"
#include "vtb.hpp"

namespace {

using namespace rlroute;
using rtltest::Dut;
using rtltest::Rng;

// -G values of CMakeLists.txt (checked against the Design of the same config).
struct Cfg {
  static constexpr unsigned P = 7, NUM_NI = 2, A = 4, NUM_G = 9, GB = 4, IB = 2;
  static constexpr unsigned LW = 69, DATA_LSB = 5, DST_GROUP_LSB = 3, SRC_ROUTER_LSB = 8, LEN_LSB = 35, LEN_W = 3;
  static constexpr unsigned WINDOW = 20, THRESHOLD = 6;
  static constexpr unsigned CFW = 3;  // $clog2(A + 1)
  static constexpr unsigned SAT = THRESHOLD + 1;
};

const Design& design() {
  static const Design d = derive_design(parse_config(
      fmt::format("[design]\nname = \"rtl_contention\"\n"
                  "[topology]\nkind = \"dragonfly\"\np = {}\na = {}\nh = 2\ng = {}\n"
                  "[router]\nvcs = 4\nbuffer_flits = 24\nflit_bits = 64\n"
                  "[routing]\nalgorithm = \"ugal_le\"\ncontention_window = {}\ncontention_threshold = {}\n",
                  Cfg::NUM_NI, Cfg::A, Cfg::NUM_G, Cfg::WINDOW, Cfg::THRESHOLD),
      "test_rr_contention.toml"));
  return d;
}

// The reference (rlroute::ref::ContentionCounters) fed with the words of
// every port, as rr_contention sees them.
class ContentionModel {
 public:
  explicit ContentionModel(const Topology& t) : topo_(t) {}

  bool active(unsigned i, unsigned j) const { return counters_.active(static_cast<int>(i), static_cast<int>(j)); }
  bool prev(unsigned i, unsigned j) const { return counters_.previous(static_cast<int>(i), static_cast<int>(j)); }
  unsigned factor(unsigned j) const { return static_cast<unsigned>(counters_.factor(static_cast<int>(j))); }

  // The index i of the counter a head on `port` counts in (its source router,
  // if that is in this router's group), -1 if it is not counted.
  int source(int port, const LinkFlit& w, const Design& d) const {
    if (!w.valid || !w.head || topo_.is_global_port(port)) return -1;
    const int src = topo_.router_of_id(static_cast<unsigned>(d.decode(w.data).src >> topo_.local_bits()));
    if (src < 0 || topo_.group_of(src) != group_) return -1;
    return topo_.index_in_group(src);
  }
  void set_group(int g) { group_ = g; }

  // The clock edge that registers this cycle's words.
  void edge(const std::vector<LinkFlit>& words, const Design& d) {
    counters_.advance_to(++edge_);
    for (int port = 0; port < static_cast<int>(Cfg::P); ++port) {
      const LinkFlit& w = words[static_cast<unsigned>(port)];
      const int i = source(port, w, d);
      if (i < 0) continue;
      const int dst_node = topo_.node_of_address(d.decode(w.data).dst);
      counters_.count(edge_, i, topo_.group_of(topo_.router_of_node(dst_node)), d.decode(w.data).length);
    }
  }

 private:
  const Topology& topo_;
  int group_ = 0;
  std::int64_t edge_ = 0;
  ref::ContentionCounters counters_{static_cast<int>(Cfg::A), static_cast<int>(Cfg::NUM_G),
                                    static_cast<int>(Cfg::WINDOW), static_cast<int>(Cfg::THRESHOLD)};
};

class ContentionTest : public ::testing::Test {
 protected:
  ContentionTest() : d_(design()), topo_(d_.topo) {}

  // Every port's word as given: an invalid word keeps its other fields (the
  // block must ignore them).
  void drive(unsigned id, const std::vector<LinkFlit>& words) {
    rtltest::put(dut_->id_i, id);
    rtltest::Bits bits;
    for (unsigned p = 0; p < Cfg::P; ++p) rtltest::put_flit_as_is(bits, p * Cfg::LW, d_.link, words[p]);
    rtltest::put_bits(dut_->flit_i, bits, Cfg::P * Cfg::LW);
    dut_.eval();
  }

  unsigned factor(unsigned j) {
    return static_cast<unsigned>(rtltest::field(dut_->contention_o, j * Cfg::CFW, Cfg::CFW));
  }

  const Design& d_;
  const Topology& topo_;
  Dut<Vrr_contention_a9> dut_;
};

TEST_F(ContentionTest, ParametersMatchDesign) {
  EXPECT_EQ(d_.ports, static_cast<int>(Cfg::P));
  EXPECT_EQ(d_.link.link_bits(), static_cast<int>(Cfg::LW));
  EXPECT_EQ(d_.link.data_lsb(), static_cast<int>(Cfg::DATA_LSB));
  EXPECT_EQ(d_.header.dst.lsb + topo_.local_bits() + static_cast<int>(Cfg::IB), static_cast<int>(Cfg::DST_GROUP_LSB));
  EXPECT_EQ(d_.header.src.lsb + topo_.local_bits(), static_cast<int>(Cfg::SRC_ROUTER_LSB));
  EXPECT_EQ(d_.header.length.lsb, static_cast<int>(Cfg::LEN_LSB));
  EXPECT_EQ(d_.header.length.width, static_cast<int>(Cfg::LEN_W));
  EXPECT_EQ(topo_.router_id_bits(), static_cast<int>(Cfg::GB + Cfg::IB));
  EXPECT_EQ(d_.cfg.contention_window, static_cast<int>(Cfg::WINDOW));
  EXPECT_EQ(d_.cfg.contention_threshold, static_cast<int>(Cfg::THRESHOLD));
}

// Random heads, body flits and idle words on every port (global ports too) in
// bursts and pauses; contention_o is compared with the model every cycle.
TEST_F(ContentionTest, RandomAgainstModel) {
  Rng rng(0xC0417);
  unsigned cycles = 0, counted = 0, foreign = 0, prev_only = 0, full = 0, multi = 0, sat_drops = 0;
  for (unsigned my = 0; my < Cfg::A; ++my) {
    const int group = static_cast<int>(rng.range(0, Cfg::NUM_G - 1));
    const int router = topo_.router_in_group(group, static_cast<int>(my));
    const unsigned id = topo_.router_id(router);
    ContentionModel model(topo_);
    model.set_group(group);
    rtltest::put(dut_->id_i, id);
    dut_.reset();
    std::vector<LinkFlit> words(Cfg::P);
    // Hot destination groups of this run (more saturated flows).
    const unsigned hot[2] = {static_cast<unsigned>(rng.range(0, Cfg::NUM_G - 1)),
                             static_cast<unsigned>(rng.range(0, Cfg::NUM_G - 1))};
    for (unsigned c = 0; c < 2500; ++c) {
      // Load changes every 1.5 windows: heavy, light, idle.
      const unsigned phase = (c / (Cfg::WINDOW * 3 / 2)) % 3;
      const unsigned pct = phase == 0 ? 60 : phase == 1 ? 12 : 0;
      for (unsigned p = 0; p < Cfg::P; ++p) {
        LinkFlit& w = words[p];
        w.valid = rng.chance(pct) || rng.chance(3);
        w.head = rng.chance(50);
        w.tail = rng.chance(30);
        w.vc = static_cast<int>(rng.bits(static_cast<unsigned>(d_.link.vc_bits)));
        if (w.head || rng.chance(50)) {
          Header h = d_.decode(FlitData{{rng.bits(64), 0, 0, 0}});
          const unsigned g =
              rng.chance(70) ? hot[rng.range(0, 1)] : static_cast<unsigned>(rng.range(0, Cfg::NUM_G - 1));
          const int node =
              topo_.node_at(topo_.router_in_group(static_cast<int>(g), static_cast<int>(rng.range(0, Cfg::A - 1))),
                            static_cast<int>(rng.range(0, Cfg::NUM_NI - 1)));
          h.dst = topo_.address_of(node);
          // Source: a router of this group (mostly), else of another group
          // (a packet passing through: not counted).
          const int sg = rng.chance(75) ? group : static_cast<int>(rng.range(0, Cfg::NUM_G - 1));
          h.src = topo_.address_of(topo_.node_at(topo_.router_in_group(sg, static_cast<int>(rng.range(0, Cfg::A - 1))),
                                                 static_cast<int>(rng.range(0, Cfg::NUM_NI - 1))));
          h.length = static_cast<unsigned>(rng.range(0, 7));  // any value of the 3-bit field
          w.data = d_.encode(h);
        } else {
          w.data = FlitData{{rng.bits(64), 0, 0, 0}};  // body flit: any bits in the destination field
        }
      }
      drive(id, words);
      ++cycles;
      for (unsigned j = 0; j < Cfg::NUM_G; ++j) {
        const unsigned got = factor(j);
        ASSERT_EQ(got, model.factor(j)) << "C_" << j << " at cycle " << c << " after reset, router "
                                        << topo_.router_name(router) << " (index " << my << ")";
        full += got == Cfg::A;
        bool by_prev = false, by_count = false;
        for (unsigned i = 0; i < Cfg::A; ++i) {
          by_prev |= model.prev(i, j);
          by_count |= model.active(i, j) && !model.prev(i, j);
        }
        prev_only += by_prev && !by_count;
      }
      // Coverage of what the edge will count.
      std::vector<unsigned> per_flow(Cfg::A * Cfg::NUM_G, 0);
      for (int p = 0; p < static_cast<int>(Cfg::P); ++p) {
        const LinkFlit& w = words[static_cast<unsigned>(p)];
        const int i = model.source(p, w, d_);
        if (i < 0) {
          foreign += w.valid && w.head && !topo_.is_global_port(p);
          continue;
        }
        ++counted;
        const int j = topo_.group_of(topo_.router_of_node(topo_.node_of_address(d_.decode(w.data).dst)));
        ++per_flow[static_cast<unsigned>(i) * Cfg::NUM_G + static_cast<unsigned>(j)];
      }
      for (const unsigned n : per_flow) multi += n > 1;
      for (unsigned k = 0; k < per_flow.size(); ++k) {
        sat_drops += per_flow[k] > 0 && model.active(k / Cfg::NUM_G, k % Cfg::NUM_G) &&
                     !model.prev(k / Cfg::NUM_G, k % Cfg::NUM_G);
      }
      dut_.tick();
      model.edge(words, d_);
    }
  }
  std::cout << "[ info ] " << cycles << " cycles, " << counted << " counted heads, " << foreign
            << " heads from other groups on terminal/local ports, " << prev_only
            << " (cycle, group) pairs active only by the previous window, " << full << " with C = " << Cfg::A << ", "
            << multi << " flows with two heads in one cycle, " << sat_drops << " heads on saturated flows\n";
  EXPECT_GT(counted, 3000u);
  EXPECT_GT(foreign, 600u);
  EXPECT_GT(prev_only, 200u);
  EXPECT_GT(full, 20u);
  EXPECT_GT(multi, 50u);
  EXPECT_GT(sat_drops, 500u);
}

// Directed: threshold (in flits), saturation, window boundary and the kept
// verdict, for a flow from a local port; heads on a global port and heads
// from another group's router (Valiant traffic passing through) are never
// counted.
TEST_F(ContentionTest, WindowAndThresholdDirected) {
  const int my = 1;
  const unsigned id = topo_.router_id(topo_.router_in_group(3, my));
  ContentionModel model(topo_);
  rtltest::put(dut_->id_i, id);
  dut_.reset();
  const unsigned j = 5;
  Header h;
  h.dst = topo_.address_of(topo_.node_at(topo_.router_in_group(static_cast<int>(j), 2), 0));
  h.src = topo_.address_of(topo_.node_at(topo_.router_in_group(3, 2), 1));  // index 2 of this group
  h.length = 3;  // three packets of 3 flits are the first count above THRESHOLD = 6
  const FlitData head = d_.encode(h);
  Header other = h;
  other.src = topo_.address_of(topo_.node_at(topo_.router_in_group(4, 2), 1));  // index 2 of group 4
  other.length = 7;
  const FlitData foreign = d_.encode(other);
  std::vector<LinkFlit> idle(Cfg::P);
  const int local = topo_.first_local_port() + 1;  // from index 2 (index 1's local port 1)
  const int local0 = topo_.first_local_port();
  const int global = topo_.first_global_port();
  model.set_group(3);
  std::vector<unsigned> seen;
  for (unsigned c = 0; c < 4 * Cfg::WINDOW; ++c) {
    std::vector<LinkFlit> words = idle;
    // Cycles 2, 4, 6, 8 after reset: heads from index 2 to group j; a head on a global port every cycle.
    if (c >= 2 && c <= 8 && c % 2 == 0) words[static_cast<unsigned>(local)] = LinkFlit{true, true, false, 0, head};
    words[static_cast<unsigned>(global)] = LinkFlit{true, true, true, 0, head};
    words[static_cast<unsigned>(local0)] = LinkFlit{true, true, false, 0, foreign};
    drive(id, words);
    seen.push_back(factor(j));
    ASSERT_EQ(factor(j), model.factor(j)) << "cycle " << c;
    dut_.tick();
    model.edge(words, d_);
  }
  // Third head registered at the edge ending cycle 6: active from cycle 7 to
  // the end of window 1 (the kept verdict), i.e. through cycle 2W - 1.
  for (unsigned c = 0; c < seen.size(); ++c) {
    const unsigned expect = (c >= 7 && c < 2 * Cfg::WINDOW) ? 1u : 0u;
    EXPECT_EQ(seen[c], expect) << "cycle " << c;
  }
}

}  // namespace
