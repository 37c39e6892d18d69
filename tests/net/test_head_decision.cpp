// The adaptive decision at the head of the VC (routing.decision = "vc_head"
// and "vc_head_registered") reacts to congestion that appears after the
// packet's head was buffered; the decision at buffer write does not. One dragonfly router (the generated
// UGAL-n router of dfly(2,2,1,3), the smallest dragonfly with a non-minimal
// choice, so that its three models build quickly; Verilated) driven port by port:
//  1. node 0 fills the ejection port of node 1 (whose credits the test keeps),
//     so that node 0's next packet P0 (to node 1 again) waits at the head of
//     node 0's injection VC;
//  2. P1 (to a router of a group that this router's own global port G
//     reaches) is buffered behind P0 while G is idle;
//  3. node 1 sends Q minimally over G (the test keeps G's credits): now G
//     carries 4 flits' worth of used credits, every other port none;
//  4. the ejection credits come back; P0 leaves and P1 reaches the head.
// At the head P1 sees q_m = 4 > q_nm = 0 and goes non-minimally (phase 1, not
// over G); decided at buffer write, it saw q_m = 0 and leaves over G.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/emit.hpp"
#include "rlroute/gen/routing.hpp"
#include "rlroute/tb/model_build.hpp"

namespace rlroute {
namespace {

std::string config(const std::string& decision) {
  return fmt::format(
      "[design]\nname = \"head_decision_{0}\"\n"
      "[topology]\nkind = \"dragonfly\"\np = 2\na = 2\nh = 1\ng = 3\n"
      "local_link_latency = 1\nglobal_link_latency = 10\nlocal_credit_latency = 1\nglobal_credit_latency = 10\n"
      "[router]\nvcs = 4\nbuffer_flits = 24\nflit_bits = 64\nmax_packet_flits = 4\n"
      "[routing]\nalgorithm = \"ugal_n\"\ndecision = \"{0}\"\n",
      decision);
}

// One router with the test playing its NICs and neighbours: flits go in with
// upstream credit flow control, flits that come out are recorded, and credits
// go back only where the test says.
class RouterBench {
 public:
  explicit RouterBench(const std::string& decision)
      : design_(derive_design(parse_config(config(decision), "test.toml"))),
        factory_(load_model(design_, emit_design(design_), ModelKind::Router)),
        router_(factory_.new_router()),
        in_credits_(static_cast<std::size_t>(design_.ports), design_.buffer_flits) {
    router_->set_router_id(design_.topo.router_id(kRouter));
    router_->reset();
  }

  const Design& design() const { return design_; }

  // Queues a 4-flit packet from NI port `ni` (input VC 0) to node `dst`.
  void send(int ni, int dst, unsigned id) {
    Header h;
    h.dst = design_.topo.address_of(dst);
    h.src = design_.topo.address_of(design_.topo.node_at(kRouter, ni));
    h.length = 4;
    h.packet_id = id;
    for (int i = 0; i < 4; ++i) {
      LinkFlit f;
      f.valid = true;
      f.head = i == 0;
      f.tail = i == 3;
      f.vc = 0;
      if (i == 0) {
        f.data = design_.encode(h);
      } else {
        f.data.words[0] = 0x5eed0000u + id * 16 + static_cast<unsigned>(i);
      }
      pending_[ni].push_back(f);
    }
  }

  // Credits of output port `port` that the test hands back (one per cycle).
  void return_credits(int port, int vc, int n) {
    for (int i = 0; i < n; ++i) credit_back_.push_back({port, vc});
  }

  // One cycle; returns the heads that left (port, header).
  struct Departure {
    int port;
    int vc;
    Header header;
  };
  std::vector<Departure> step() {
    std::vector<Departure> heads;
    for (int p = 0; p < design_.ports; ++p) {
      LinkCredit c = router_->credit_out(p);
      if (c.valid) ++in_credits_[static_cast<std::size_t>(p)];
      LinkFlit out = router_->flit_out(p);
      if (out.valid && out.head) heads.push_back({p, out.vc, design_.decode(out.data)});
      if (out.valid) ++sent_[p];
    }
    for (int p = 0; p < design_.ports; ++p) router_->set_credit_in(p, LinkCredit{});
    if (!credit_back_.empty()) {
      router_->set_credit_in(credit_back_.front().first, LinkCredit{true, credit_back_.front().second});
      credit_back_.pop_front();
    }
    for (int ni = 0; ni < 2; ++ni) {
      LinkFlit f;
      auto& q = pending_[ni];
      if (!q.empty() && in_credits_[static_cast<std::size_t>(ni)] > 0) {
        f = q.front();
        q.pop_front();
        --in_credits_[static_cast<std::size_t>(ni)];
      }
      router_->set_flit_in(ni, f);
    }
    router_->tick();
    return heads;
  }

  bool injected(int ni) const { return pending_[ni].empty(); }
  int flits_out(int port) const { return sent_.count(port) ? sent_.at(port) : 0; }

  static constexpr int kRouter = 0;  // group 0, index 0

 private:
  Design design_;
  ModelFactory factory_;
  std::unique_ptr<RouterModel> router_;
  std::vector<int> in_credits_;  // per input port, VC 0 only is used
  std::deque<LinkFlit> pending_[2];
  std::deque<std::pair<int, int>> credit_back_;
  std::map<int, int> sent_;
};

struct Outcome {
  int g_port = -1;  // G
  int port = -1;    // the port P1 left by
  unsigned phase = 0;
};

Outcome run(const std::string& decision) {
  RouterBench b(decision);
  const Design& d = b.design();
  const Topology& t = d.topo;
  const int r = RouterBench::kRouter;
  const int node1 = t.node_at(r, 1);
  // G: this router's first global port, and a destination router in the
  // group it reaches that is the link's landing router (minimal: 1 hop).
  const int g_port = 2 + (t.group_size() - 1);
  const std::optional<PortRef> far = t.neighbor(r, g_port);
  EXPECT_TRUE(far.has_value());
  const int dst = t.node_at(far->router, 0);

  // 1. Fill node 1's ejection port: 24 packets use every credit of its 4 VCs.
  unsigned id = 0;
  for (int i = 0; i < 24; ++i) b.send(0, node1, id++);
  // P0 waits behind them for an ejection VC; 2. P1 right behind P0.
  b.send(0, node1, id++);
  const unsigned p1 = id++;
  b.send(0, dst, p1);
  Outcome o;
  o.g_port = g_port;
  bool q_sent = false, credits_back = false;
  for (int cycle = 0; cycle < 600; ++cycle) {
    for (const auto& dep : b.step()) {
      if (dep.header.packet_id == p1 && t.node_of_address(dep.header.src) == t.node_at(r, 0)) {
        o.port = dep.port;
        o.phase = dep.header.phase;
      }
    }
    // 3. Once node 0's packets are all in the router (P1 buffered, its head
    // routed at write while G was idle), Q goes over G.
    if (!q_sent && b.injected(0) && b.flits_out(1) >= 96) {
      EXPECT_EQ(b.flits_out(g_port), 0) << "G must be idle while P1 is buffered";
      b.send(1, dst, 1000);
      q_sent = true;
    }
    // 4. Q has left over G: give node 1's ejection credits back.
    if (q_sent && !credits_back && b.flits_out(g_port) == 4) {
      for (int vc = 0; vc < 4; ++vc) b.return_credits(1, vc, 24);
      credits_back = true;
    }
    if (o.port >= 0) break;
  }
  EXPECT_TRUE(q_sent);
  return o;
}

TEST(HeadDecision, ReactsToCongestionThatAppearsAfterTheHeadWasBuffered) {
  const Outcome write = run("buffer_write");
  const int g_port = write.g_port;
  EXPECT_EQ(write.port, g_port) << "decided at buffer write, while G was idle: minimal over G";
  EXPECT_EQ(write.phase, static_cast<unsigned>(RouteMode::Minimal));
  for (const std::string decision : {"vc_head", "vc_head_registered"}) {
    const Outcome head = run(decision);
    ASSERT_GE(head.port, 0) << decision << ": P1 never left";
    EXPECT_NE(head.port, g_port) << decision << ": decided at the head, with Q's credits in use on G: non-minimal";
    EXPECT_EQ(head.phase, static_cast<unsigned>(RouteMode::ToIntermediate)) << decision;
  }
}

}  // namespace
}  // namespace rlroute
