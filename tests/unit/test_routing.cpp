// DOR paths, the routing relation checks and the emitter's guarantees.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "rlroute/design.hpp"
#include "rlroute/emit.hpp"
#include "rlroute/routing.hpp"
#include "rlroute/routing_dor.hpp"
#include "rlroute/routing_check.hpp"

using namespace rlroute;
namespace fs = std::filesystem;

namespace {
Config grid(TopologyKind kind, std::vector<int> dims, int vcs = 2, int nodes_per_router = 1) {
  std::string toml = "[topology]\nkind = \"" + std::string(to_string(kind)) + "\"\ndims = [";
  for (size_t i = 0; i < dims.size(); ++i) toml += (i ? ", " : "") + std::to_string(dims[i]);
  toml += "]\n[router]\nvcs = " + std::to_string(vcs) + "\nnodes_per_router = " + std::to_string(nodes_per_router) + "\n";
  return parse_config(toml, "t.toml");
}

struct Hop {
  int router, out_port, vc;
  std::uint32_t vc_mask;
};

// Follows DOR from src to dst taking the lowest (or highest) allowed VC;
// checks that the relation is deterministic (one port) on the way.
std::vector<Hop> walk(const Design& d, const RoutingRelation& rel, int src, int dst,
                      bool highest_vc = false) {
  std::vector<Hop> path;
  int router = d.topo.router_of_node(src), port = d.topo.local_of_node(src), vc = 0;
  for (int guard = 0; guard < 100; ++guard) {
    const auto options = rel.next_hops(router, port, vc, RouteState{dst, src, -1, RouteMode::Minimal});
    EXPECT_EQ(options.size(), 1u);
    const RouteOption o = options.front();
    int out_vc = highest_vc ? 31 : 0;
    while (!(o.vc_mask & (1u << out_vc))) out_vc += highest_vc ? -1 : 1;
    path.push_back({router, o.out_port, out_vc, o.vc_mask});
    if (d.topo.is_ni_port(o.out_port)) return path;
    const auto next = d.topo.neighbor(router, o.out_port);
    EXPECT_TRUE(next);
    router = next->router;
    port = next->port;
    vc = out_vc;
  }
  ADD_FAILURE() << "no ejection after 100 hops";
  return path;
}
}  // namespace

TEST(DorRouting, TorusPathsAreMinimalDimensionOrderedAndUseDatelineClasses) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4, 5}, 4));
  const DorRouting rel(d);
  const Topology& t = d.topo;
  const std::uint32_t all = 0b1111, class0 = 0b0101, class1 = 0b1010;
  for (const bool highest_vc : {false, true}) {
    for (int s = 0; s < t.num_nodes(); ++s) {
      for (int x = 0; x < t.num_nodes(); ++x) {
        const auto path = walk(d, rel, s, x, highest_vc);
        ASSERT_FALSE(path.empty());
        EXPECT_EQ(static_cast<int>(path.size()) - 1, t.min_hops(s, x)) << s << "->" << x;
        EXPECT_EQ(path.back().router, t.router_of_node(x));
        int last_dim = -1;
        bool crossed = false, in_class1 = false;
        for (size_t i = 0; i + 1 < path.size(); ++i) {
          const int dim = t.port_dim(path[i].out_port);
          ASSERT_GE(dim, last_dim) << "dimensions must be corrected in order";
          if (dim != last_dim) crossed = in_class1 = false;
          last_dim = dim;
          const int c = t.coords(path[i].router)[dim];
          const int dest = t.coords(t.router_of_node(x))[dim];
          const bool plus = path[i].out_port == t.plus_port(dim);
          crossed = crossed || (plus ? c == t.radix(dim) - 1 : c == 0);
          const bool wrap_ahead = plus ? dest < c : dest > c;
          const std::uint32_t expected = (crossed || in_class1) ? class1 : wrap_ahead ? class0 : all;
          EXPECT_EQ(path[i].vc_mask, expected)
              << s << "->" << x << " hop " << i << ": class 1 from the wrap on, class 0 before it, any VC without a wrap";
          in_class1 = path[i].vc % 2 == 1;
        }
      }
    }
  }
}

TEST(DorRouting, TorusTieGoesPlus) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4}));
  const DorRouting rel(d);
  const auto o = rel.next_hops(0, 0, 0, RouteState{2, 0, -1, RouteMode::Minimal});
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].out_port, d.topo.plus_port(0));
}

TEST(DorRouting, MeshPathsAreMinimal) {
  const Design d = derive_design(grid(TopologyKind::Mesh, {3, 4, 2}, 1, 2));
  const DorRouting rel(d);
  for (int s = 0; s < d.topo.num_nodes(); ++s)
    for (int x = 0; x < d.topo.num_nodes(); ++x)
      EXPECT_EQ(static_cast<int>(walk(d, rel, s, x).size()) - 1, d.topo.min_hops(s, x));
}

TEST(RoutingCheck, TorusWithOneVcHasADependencyCycleNamedInTheError) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4, 4}, 1));
  const DorRouting rel(d);
  EXPECT_FALSE(check_connectivity(d, rel));
  const auto cycle = find_escape_cycle(d, rel);
  ASSERT_TRUE(cycle);
  ASSERT_GE(cycle->size(), 5u) << "a ring of 4 routers";
  EXPECT_EQ(describe_channel(d, cycle->front()), describe_channel(d, cycle->back()));
  try {
    check_routing(d, rel);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("router.vcs = 1"), std::string::npos) << m;
    EXPECT_NE(m.find("too few VCs for dor"), std::string::npos) << m;
    EXPECT_NE(m.find("channel dependency cycle R"), std::string::npos) << m;
    EXPECT_NE(m.find(" -> "), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line";
  }
}

TEST(RoutingCheck, TorusWithTwoVcsAndMeshWithOneAreDeadlockFree) {
  for (const Config& c : {grid(TopologyKind::Torus, {4, 4}, 2), grid(TopologyKind::Torus, {3, 3, 3}, 2),
                          grid(TopologyKind::Mesh, {4, 4}, 1), grid(TopologyKind::Torus, {5}, 3)}) {
    const Design d = derive_design(c);
    const DorRouting rel(d);
    EXPECT_FALSE(check_connectivity(d, rel));
    EXPECT_FALSE(find_escape_cycle(d, rel));
  }
}

TEST(Design, HeaderMustFitInTheFlit) {
  Config c = grid(TopologyKind::Torus, {16, 16, 16}, 2, 8);
  c.flit_bits = 32;
  try {
    derive_design(c);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("router.flit_bits = 32: the header flit needs"), std::string::npos) << e.what();
  }
}

TEST(Design, HeaderEncodeDecodeRoundTrip) {
  const Design d = derive_design(grid(TopologyKind::Torus, {8, 8}));
  Header h;
  h.dst = 0x2a;
  h.src = 0x15;
  h.vc_class = 1;
  h.hops = 9;
  h.type = PacketType::Ack;
  h.pdor = true;
  h.req_ack = true;
  h.mode = 2;
  h.length = 4;
  h.packet_id = 0xbeef;
  h.timestamp = 123456;
  const Header back = d.decode(d.encode(h));
  EXPECT_EQ(back.dst, h.dst);
  EXPECT_EQ(back.src, h.src);
  EXPECT_EQ(back.hops, h.hops);
  EXPECT_EQ(back.type, h.type);
  EXPECT_TRUE(back.pdor);
  EXPECT_TRUE(back.req_ack);
  EXPECT_EQ(back.mode, h.mode);
  EXPECT_EQ(back.length, h.length);
  EXPECT_EQ(back.packet_id, h.packet_id);
  EXPECT_EQ(back.timestamp, h.timestamp);
}

TEST(Emit, SameConfigGivesByteIdenticalRtl) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4, 4}));
  const EmittedDesign a = emit_design(d);
  const EmittedDesign b = emit_design(derive_design(grid(TopologyKind::Torus, {4, 4})));
  EXPECT_EQ(a.files, b.files);
  EXPECT_EQ(a.hash, b.hash);
  const EmittedDesign other = emit_design(derive_design(grid(TopologyKind::Torus, {4, 4}, 3)));
  EXPECT_NE(a.hash, other.hash);
  EXPECT_NE(a.files.at("t_router.sv").find("Generated by rlroute"), std::string::npos);
}

TEST(Emit, WriteReplacesAPreviousOutputButNotAForeignDirectory) {
  const fs::path root = fs::temp_directory_path() / "rlroute_emit_test";
  fs::remove_all(root);
  const EmittedDesign e = emit_design(derive_design(grid(TopologyKind::Mesh, {2, 2}, 1)));
  write_design(e, root / "out");
  EXPECT_TRUE(fs::exists(root / "out" / "manifest.json"));
  write_design(e, root / "out");  // an earlier rlroute output may be replaced
  fs::create_directories(root / "mine");
  std::ofstream(root / "mine" / "notes.txt") << "keep me";
  EXPECT_THROW(write_design(e, root / "mine"), std::runtime_error);
  EXPECT_TRUE(fs::exists(root / "mine" / "notes.txt"));
  EXPECT_FALSE(fs::exists(root / "mine.rlroute-tmp"));
  fs::remove_all(root);
}
