// tb/src/simulation.cpp: the statistics helpers of the simulation (DESIGN.md section 6): minimal
// share, hop histogram, per-link-class utilisation and their JSON keys, on
// hand-made packets and link counters (no Verilator model).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "rlroute/gen/design.hpp"
#include "rlroute/tb/simulation.hpp"

using namespace rlroute;

namespace {

Topology topology(const std::string& toml) { return Topology(parse_config(toml, "t.toml")); }

const char* kTorus4x4 = "[topology]\nkind = \"torus\"\ndims = [4, 4]\n";
const char* kMesh4x2 = "[topology]\nkind = \"mesh\"\ndims = [4, 2]\n";
const char* kDragonfly = "[topology]\nkind = \"dragonfly\"\np = 2\na = 4\nh = 2\ng = 9\n"
                         "[router]\nvcs = 2\nbuffer_flits = 24\n[routing]\nalgorithm = \"min\"\n";

DeliveredPacket packet(int hops, bool measured, RouteMode phase = RouteMode::Minimal) {
  return DeliveredPacket{0, 1, 4, hops, 0, 0, 10, measured, phase};
}

// Connected (router, port) pairs of a class.
int links_of(const Topology& t, PortClass cls) {
  int n = 0;
  for (int r = 0; r < t.num_routers(); ++r)
    for (int p = 0; p < t.num_ports(); ++p) n += t.neighbor(r, p) && t.port_class(p) == cls;
  return n;
}

}  // namespace

TEST(Stats, PacketStatsCountOnlyMeasuredPackets) {
  const std::vector<DeliveredPacket> packets = {
      packet(2, true),  packet(2, true, RouteMode::FromIntermediate), packet(0, true),
      packet(5, true, RouteMode::ToIntermediate),
      packet(9, false),  // warmup or drain: ignored
      packet(1, false, RouteMode::FromIntermediate),
  };
  const PacketStats s = measured_packet_stats(packets);
  EXPECT_EQ(s.delivered, 4);
  EXPECT_EQ(s.minimal, 2);
  EXPECT_EQ(s.nonminimal, 2);
  EXPECT_DOUBLE_EQ(s.minimal_share, 0.5);
  EXPECT_DOUBLE_EQ(s.avg_hops, 9.0 / 4);
  EXPECT_EQ(s.hop_histogram, (std::vector<std::int64_t>{1, 0, 2, 0, 0, 1}));
}

TEST(Stats, PacketStatsCountTheMeasuredPacketsThatFellBackToDor) {
  std::vector<DeliveredPacket> packets = {packet(2, true), packet(3, true), packet(4, true), packet(5, false)};
  packets[1].pdor = true;
  packets[3].pdor = true;  // not measured
  EXPECT_EQ(measured_packet_stats(packets).pdor, 1);
}

TEST(Stats, PacketStatsOfNoMeasuredPacketAreZero) {
  const PacketStats s = measured_packet_stats({packet(3, false)});
  EXPECT_EQ(s.delivered, 0);
  EXPECT_EQ(s.minimal + s.nonminimal, 0);
  EXPECT_EQ(s.minimal_share, 0);
  EXPECT_EQ(s.avg_hops, 0);
  EXPECT_TRUE(s.hop_histogram.empty());
}

TEST(Stats, TorusLinksAreAllDimensionLinks) {
  const Topology t = topology(kTorus4x4);
  const int ports = t.num_ports();
  std::vector<std::uint64_t> start(static_cast<size_t>(t.num_routers() * ports), 0), end = start;
  // 100 flits on every x+ link during the window, 50 before it.
  for (int r = 0; r < t.num_routers(); ++r) {
    start[static_cast<size_t>(r * ports + t.plus_port(0))] = 50;
    end[static_cast<size_t>(r * ports + t.plus_port(0))] = 150;
  }
  const LinkUtilisation u = measure_link_utilisation(t, start, end, 1000);
  ASSERT_EQ(u.by_class.size(), 1u);
  ASSERT_TRUE(u.by_class.count(PortClass::Dimension));
  EXPECT_DOUBLE_EQ(u.all, 16 * 100.0 / (64 * 1000));
  EXPECT_DOUBLE_EQ(u.by_class.at(PortClass::Dimension), u.all);
}

TEST(Stats, MeshEdgePortsAreNotLinks) {
  const Topology t = topology(kMesh4x2);
  ASSERT_EQ(links_of(t, PortClass::Dimension), 2 * (3 * 2 + 4 * 1));
  const std::vector<std::uint64_t> start(static_cast<size_t>(t.num_routers() * t.num_ports()), 0);
  std::vector<std::uint64_t> end(start.size(), 7);  // counters of unconnected ports must not count
  for (int r = 0; r < t.num_routers(); ++r)
    for (int p = 0; p < t.num_ports(); ++p)
      if (!t.neighbor(r, p)) end[static_cast<size_t>(r * t.num_ports() + p)] = 1000;
  const LinkUtilisation u = measure_link_utilisation(t, start, end, 10);
  EXPECT_DOUBLE_EQ(u.all, 0.7);
  EXPECT_DOUBLE_EQ(u.by_class.at(PortClass::Dimension), 0.7);
}

TEST(Stats, DragonflyLinksSplitIntoLocalAndGlobal) {
  const Topology t = topology(kDragonfly);  // dfly(2,4,2,9): 36 routers, 3 local and 2 global ports each
  const int ports = t.num_ports();
  const std::vector<std::uint64_t> start(static_cast<size_t>(t.num_routers() * ports), 0);
  std::vector<std::uint64_t> end = start;
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int p = 0; p < ports; ++p) {
      const auto i = static_cast<size_t>(r * ports + p);
      if (t.is_local_port(p)) end[i] = 40;
      if (t.is_global_port(p)) end[i] = 10;
    }
  }
  // One busier link per class: router 7's first local and router 30's last global port.
  int first_local = -1, last_global = -1;
  for (int p = 0; p < ports; ++p) {
    if (t.is_local_port(p) && first_local < 0) first_local = p;
    if (t.is_global_port(p)) last_global = p;
  }
  end[static_cast<size_t>(7 * ports + first_local)] = 95;
  end[static_cast<size_t>(30 * ports + last_global)] = 60;
  const LinkUtilisation u = measure_link_utilisation(t, start, end, 100);
  ASSERT_EQ(u.by_class.size(), 2u);
  EXPECT_DOUBLE_EQ(u.by_class.at(PortClass::Local), (36 * 3 * 40 + 55) / (36.0 * 3 * 100));
  EXPECT_DOUBLE_EQ(u.by_class.at(PortClass::Global), (36 * 2 * 10 + 50) / (36.0 * 2 * 100));
  EXPECT_DOUBLE_EQ(u.all, (36 * 3 * 40 + 36 * 2 * 10 + 55 + 50) / (36.0 * 5 * 100));
  ASSERT_EQ(u.busiest_by_class.size(), 2u);
  const BusiestLink& local = u.busiest_by_class.at(PortClass::Local);
  EXPECT_DOUBLE_EQ(local.utilisation, 0.95);
  EXPECT_EQ(local.router, 7);
  EXPECT_EQ(local.port, first_local);
  EXPECT_EQ(local.at, fmt::format("router 7 ({}) port {} ({})", t.router_name(7), first_local,
                                  t.port_name(7, first_local)));
  const BusiestLink& global = u.busiest_by_class.at(PortClass::Global);
  EXPECT_DOUBLE_EQ(global.utilisation, 0.6);
  EXPECT_EQ(global.router, 30);
  EXPECT_EQ(global.port, last_global);
  // Per link: every port's own count, 0 at NI ports.
  ASSERT_EQ(u.by_port.size(), static_cast<size_t>(36 * ports));
  EXPECT_DOUBLE_EQ(u.by_port[static_cast<size_t>(7 * ports + first_local)], 0.95);
  EXPECT_DOUBLE_EQ(u.by_port[static_cast<size_t>(30 * ports + last_global)], 0.6);
  EXPECT_DOUBLE_EQ(u.by_port[static_cast<size_t>(8 * ports + first_local)], 0.4);
  EXPECT_DOUBLE_EQ(u.by_port[static_cast<size_t>(8 * ports + 0)], 0.0);  // NI port
  EXPECT_EQ(link_class_key(PortClass::Local), "local");
  EXPECT_EQ(link_class_key(PortClass::Global), "global");
  EXPECT_EQ(link_class_key(PortClass::Dimension), "dimension");
}

// DeliveredPacket{src, dst, length, hops, created, injected, ejected, ...}.
TEST(Stats, AcceptedBySourceAndDestinationCountTailsEjectedInTheWindow) {
  const std::vector<DeliveredPacket> packets = {
      {0, 1, 4, 2, 0, 0, 100, true, RouteMode::Minimal},  // in [100, 200)
      {0, 2, 1, 2, 0, 0, 199, true, RouteMode::Minimal},
      {2, 1, 3, 2, 0, 0, 150, true, RouteMode::Minimal},
      {1, 0, 5, 2, 0, 0, 99, false, RouteMode::Minimal},   // before
      {1, 0, 5, 2, 0, 0, 200, false, RouteMode::Minimal},  // after
  };
  EXPECT_EQ(accepted_by_source(4, packets, 100, 200), (std::vector<std::int64_t>{5, 0, 3, 0}));
  EXPECT_EQ(ejected_by_destination(4, packets, 100, 200), (std::vector<std::int64_t>{0, 7, 1, 0}));
}

TEST(Stats, SourceFairnessIsTheLeastServedGeneratingSourceOverTheMean) {
  // Node 3 generated nothing and does not count; node 1 generated and got nothing.
  EXPECT_DOUBLE_EQ(source_fairness({2, 1, 3, 0}, {6, 0, 3, 0}), 0.0);
  EXPECT_DOUBLE_EQ(source_fairness({2, 1, 3, 0}, {6, 3, 3, 0}), 3.0 / 4);
  EXPECT_DOUBLE_EQ(source_fairness({1, 1}, {4, 4}), 1.0);
  EXPECT_EQ(source_fairness({0, 0}, {0, 0}), 0);
}

TEST(Stats, ResidenceIsTheWindowsAveragePerClassPair) {
  NetworkChecker::ResidenceTable start{}, end{};
  auto at = [](NetworkChecker::ResidenceTable& t, PortClass in, PortClass out) -> NetworkChecker::Residence& {
    return t[static_cast<size_t>(in)][static_cast<size_t>(out)];
  };
  at(start, PortClass::Local, PortClass::Global) = {10, 30};
  at(end, PortClass::Local, PortClass::Global) = {14, 50};       // 4 heads, 20 cycles in the window
  at(start, PortClass::Global, PortClass::Terminal) = {5, 15};  // none in the window
  at(end, PortClass::Global, PortClass::Terminal) = {5, 15};
  at(end, PortClass::Terminal, PortClass::Local) = {2, 3};
  const ResidenceByClasses r = measure_residence(start, end);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r.at({PortClass::Local, PortClass::Global}).heads, 4u);
  EXPECT_DOUBLE_EQ(r.at({PortClass::Local, PortClass::Global}).avg, 5.0);
  EXPECT_DOUBLE_EQ(r.at({PortClass::Terminal, PortClass::Local}).avg, 1.5);

  SimResult s;
  s.router_residence = r;
  EXPECT_EQ(s.to_json()["router_residence"].dump(),
            R"({"terminal->local":{"heads":2,"avg":1.5},"local->global":{"heads":4,"avg":5.0}})");
}

TEST(Stats, UnobservedOrEmptyWindowMeasuresZero) {
  const Topology t = topology(kTorus4x4);
  const std::vector<std::uint64_t> counters(static_cast<size_t>(t.num_routers() * t.num_ports()), 5);
  EXPECT_EQ(measure_link_utilisation(t, counters, counters, 0).all, 0);
  EXPECT_EQ(measure_link_utilisation(t, {}, {}, 100).all, 0);
}

TEST(Stats, JsonHasTheStatisticsKeys) {
  SimResult r;
  r.packets_delivered = 12;
  r.packets_delivered_measured = 10;
  r.packets_minimal = 7;
  r.packets_nonminimal = 3;
  r.minimal_share = 0.7;
  r.hop_histogram = {0, 4, 6};
  r.accepted_by_node = {0.5, 0.25};
  r.links_observed = true;
  r.link_utilisation = 0.25;
  r.link_utilisation_by_class = {{PortClass::Local, 0.2}, {PortClass::Global, 0.4}};
  r.link_utilisation_max_by_class = {{PortClass::Local, BusiestLink{0.9, 3, 4, "router 3 (x) port 4 (y)"}}};
  nlohmann::ordered_json j = r.to_json();
  EXPECT_EQ(j["packets_delivered"], 12);
  EXPECT_EQ(j["packets_delivered_measured"], 10);
  EXPECT_EQ(j["packets_minimal"], 7);
  EXPECT_EQ(j["packets_nonminimal"], 3);
  EXPECT_EQ(j["minimal_share"], 0.7);
  EXPECT_EQ(j["hop_histogram"], nlohmann::ordered_json::parse("[0, 4, 6]"));
  EXPECT_EQ(j["accepted_by_node"], nlohmann::ordered_json::parse("[0.5, 0.25]"));
  EXPECT_EQ(j["link_utilisation"], 0.25);
  EXPECT_EQ(j["link_utilisation_by_class"].dump(), R"({"local":0.2,"global":0.4})");
  EXPECT_EQ(j["link_utilisation_max_by_class"].dump(), R"j({"local":{"utilisation":0.9,"at":"router 3 (x) port 4 (y)"}})j");

  // A fabric that cannot see its links (the network top): no per-class key.
  r.links_observed = false;
  r.link_utilisation = 0;
  r.link_utilisation_by_class.clear();
  j = r.to_json();
  EXPECT_FALSE(j.contains("link_utilisation_by_class"));
  EXPECT_FALSE(j.contains("link_utilisation_max_by_class"));
  EXPECT_EQ(j["link_utilisation"], 0);
}
