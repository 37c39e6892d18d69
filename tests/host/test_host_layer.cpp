// The SystemC host layer on the 4x4 torus of the network regressions: ranks
// send and receive through TLM-2.0 sockets, their messages cross the
// Verilated routers. SystemC elaborates once per process: every test that
// builds a HostLayer runs in its own (CTest runs each test alone).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>

#include "../net/bench.hpp"
#include "rlroute/host/goal.hpp"
#include "rlroute/host/host_layer.hpp"
#include "rlroute/host/trace.hpp"
#include "rlroute/host/workload.hpp"

using namespace rlroute;
using namespace rlroute::test;

namespace {

// The layer's run on the bench: the whole run is the measurement window.
SimResult run_layer(Bench& b, const std::shared_ptr<host::HostLayer>& layer, std::int64_t max_cycles) {
  SimOptions o;
  o.warmup = 0;
  o.cycles = max_cycles;
  o.drain = 0;
  o.application = layer;
  return b.run(o);
}

struct WorkloadRun {
  std::unique_ptr<Bench> bench;  // the design the layer refers to
  SimResult result;
  std::shared_ptr<host::HostLayer> layer;
};

WorkloadRun run_workload(const host::Rank::Body& body, std::vector<int> placement, const std::string& name,
                 std::int64_t max_cycles = 200000) {
  auto b = std::make_unique<Bench>(kTorus4x4);
  auto layer = std::make_shared<host::HostLayer>(b->design, std::move(placement), body, name);
  SimResult result = run_layer(*b, layer, max_cycles);
  return {std::move(b), std::move(result), layer};
}

// A trace file in the test's temporary directory.
std::string trace_file(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::path(::testing::TempDir()) / name).string();
  std::ofstream(path) << text;
  return path;
}

const char* kTrace = R"(# eight ranks: a ring of sends, then collectives
ranks 8
0 compute 20
0 send 1 100 3      # to rank 1
1 recv 0 100 3
1 send 2 100 3
2 recv 1 100 3
0 barrier
1 barrier
2 barrier
3 barrier
4 barrier
5 barrier
6 barrier
7 barrier
0 allreduce 16
1 allreduce 16
2 allreduce 16
3 allreduce 16
4 allreduce 16
5 allreduce 16
6 allreduce 16
7 allreduce 16
0 broadcast 3 40
1 broadcast 3 40
2 broadcast 3 40
3 broadcast 3 40
4 broadcast 3 40
5 broadcast 3 40
6 broadcast 3 40
7 broadcast 3 40
7 alltoall 8
6 alltoall 8
5 alltoall 8
4 alltoall 8
3 alltoall 8
2 alltoall 8
1 alltoall 8
0 alltoall 8
)";

std::vector<int> linear(int ranks) {
  std::vector<int> p(static_cast<std::size_t>(ranks));
  std::iota(p.begin(), p.end(), 0);
  return p;
}

}  // namespace

// Ping-pong is strictly serial: rank 0 finishes when its last receive
// returns, one cycle after the last message's tail arrived, so its run time
// is the sum of the message latencies (post to arrival, plus that cycle).
TEST(HostLayer, PingPongRunTimeIsTheSumOfItsMessageLatencies) {
  const WorkloadRun run = run_workload(host::make_workload("pingpong:bytes=100,iterations=3,peer=10").body, linear(16),
                               "pingpong");
  expect_clean(run.result);
  const nlohmann::ordered_json& app = run.result.app;
  ASSERT_TRUE(app["finished"].get<bool>()) << run.result.app_summary;
  EXPECT_EQ(app["messages"], 6);
  EXPECT_EQ(app["message_bytes"], 600);
  // 100 bytes in 64-bit flits: 13 payload flits, in 4-flit packets of 2: 7 packets each.
  EXPECT_EQ(run.result.packets_delivered, 6 * 7);
  const double latency_avg = app["message_latency"]["avg"].get<double>();
  EXPECT_EQ(app["rank_cycles"][0].get<std::int64_t>(), static_cast<std::int64_t>(6 * latency_avg + 0.5));
  EXPECT_EQ(app["run_cycles"], app["rank_cycles"][0]);
  // Node 0 to node 10 of the 4x4 torus is 4 hops: a message takes longer than its 7 packets' 28 flits.
  EXPECT_GT(app["message_latency"]["p50"].get<double>(), 28.0);
  // The ranks that do nothing are done at once.
  EXPECT_EQ(app["rank_cycles"][1], 0);
}

TEST(HostLayer, AllreduceOnEveryRankFinishes) {
  const WorkloadRun run = run_workload(host::make_workload("allreduce:bytes=16,iterations=2,compute=50").body, linear(16),
                               "allreduce");
  expect_clean(run.result);
  const nlohmann::ordered_json& app = run.result.app;
  ASSERT_TRUE(app["finished"].get<bool>()) << run.result.app_summary;
  // Recursive doubling on 16 ranks: 4 rounds of 16 messages, per iteration.
  EXPECT_EQ(app["messages"], 2 * 4 * 16);
  // Each iteration starts with 50 cycles of compute.
  EXPECT_GT(app["run_cycles"].get<std::int64_t>(), 100);
}

TEST(HostLayer, AllreduceOnRanksThatAreNotAPowerOfTwo) {
  const WorkloadRun run = run_workload(host::make_workload("allreduce:bytes=8").body, linear(6), "allreduce");
  expect_clean(run.result);
  ASSERT_TRUE(run.result.app["finished"].get<bool>()) << run.result.app_summary;
  // Ranks 4 and 5 give their data to 0 and 1 and get it back: 2 + 2 rounds x 4 + 2.
  EXPECT_EQ(run.result.app["messages"], 2 + 2 * 4 + 2);
}

// The collectives' message counts on 16 ranks (and on 6 where the ranks
// are not a power of two), each run finished with every check passed.
TEST(HostLayer, BarrierBroadcastAlltoallAndHalo3dFinish) {
  const std::vector<std::pair<std::string, int>> cases = {
      {"barrier:iterations=2", 2 * 16 * 4},
      {"broadcast:bytes=64,root=5", 15},
      {"alltoall:bytes=24", 16 * 15},
      // A 2x2x4 grid: six messages each, two of them to the one x and the one y neighbour.
      {"halo3d:bytes=32,iterations=2,compute=10", 2 * 16 * 6},
      // Communicators of the 4 ranks along z: 3 messages each.
      {"many2many:bytes=16", 16 * 3},
  };
  // SystemC elaborates once per process: the four workloads as one body, one after the other.
  std::vector<host::Rank::Body> bodies;
  for (const auto& c : cases) bodies.push_back(host::make_workload(c.first).body);
  const auto body = [&bodies](host::Rank& r) {
    for (const host::Rank::Body& b : bodies) b(r);
  };
  const WorkloadRun run = run_workload(body, linear(16), "collectives");
  expect_clean(run.result);
  ASSERT_TRUE(run.result.app["finished"].get<bool>()) << run.result.app_summary;
  int total = 0;
  for (const auto& c : cases) total += c.second;
  EXPECT_EQ(run.result.app["messages"], total);
}

// A trace with point-to-point messages and every collective, replayed on 8
// of the torus's nodes.
TEST(HostLayer, ATraceIsReplayed) {
  const host::Workload w = host::make_workload("trace:" + trace_file("ring.trace", kTrace));
  EXPECT_EQ(w.exact_ranks, 8);
  const WorkloadRun run = run_workload(w.body, {0, 2, 4, 6, 8, 10, 12, 14}, "trace");
  expect_clean(run.result);
  ASSERT_TRUE(run.result.app["finished"].get<bool>()) << run.result.app_summary;
  // 2 sends; barrier 8 x 3 rounds; allreduce 8 x 3 rounds; broadcast 7; alltoall 8 x 7.
  EXPECT_EQ(run.result.app["messages"], 2 + 24 + 24 + 7 + 56);
}

// A GOAL dissemination barrier on 16 ranks, replayed.
TEST(HostLayer, AGoalScheduleIsReplayed) {
  std::string goal = "num_ranks 16\n";
  for (int r = 0; r < 16; ++r) {
    goal += "rank " + std::to_string(r) + " {\n";
    for (int k = 1, round = 0; k < 16; k *= 2, ++round) {
      goal += fmt::format("s{}: send 1b to {} tag 0\nr{}: recv 1b from {} tag 0\n", round, (r + k) % 16, round,
                          (r - k + 16) % 16);
      if (round > 0) goal += fmt::format("s{} requires r{}\n", round, round - 1);
    }
    goal += "}\n";
  }
  const host::Workload w = host::make_workload("goal:" + trace_file("dissemination.goal", goal));
  const WorkloadRun run = run_workload(w.body, linear(16), "goal");
  expect_clean(run.result);
  ASSERT_TRUE(run.result.app["finished"].get<bool>()) << run.result.app_summary;
  EXPECT_EQ(run.result.app["messages"], 16 * 4);
}

// Another job's traffic delays a ping-pong's messages: the background job
// starts sending at cycle 1,000 on the other 14 nodes, back to back, and
// the ping-pong's messages after that take longer than its first. The run
// ends when the ping-pong has finished, the background's ranks still busy.
TEST(HostLayer, ABackgroundJobDelaysTheForegroundsMessages) {
  auto b = std::make_unique<Bench>(kTorus4x4);
  const auto pingpong = [](host::Rank& r) {
    for (int i = 0; i < 6; ++i) {
      if (r.rank() == 0) {
        r.send(1, 256, i);
        r.recv(1, 256, i);
        r.compute(400);
      } else {
        r.recv(0, 256, i);
        r.send(0, 256, i);
      }
    }
  };
  const auto noise = [](host::Rank& r) {
    r.compute(1000);
    for (int i = 0; i < 100000; ++i) r.send((r.rank() + 1 + i % (r.size() - 1)) % r.size(), 64, 0);
  };
  std::vector<int> others;
  for (int n = 0; n < 16; ++n) {
    if (n != 0 && n != 10) others.push_back(n);
  }
  auto layer = std::make_shared<host::HostLayer>(
      b->design, std::vector<host::Job>{{"pingpong", pingpong, {0, 10}, false}, {"noise", noise, others, true}});
  const SimResult r = run_layer(*b, layer, 200000);
  expect_clean(r);
  ASSERT_TRUE(r.app["finished"].get<bool>()) << r.app_summary;
  ASSERT_EQ(r.app["jobs"].size(), 1u);
  EXPECT_TRUE(r.app["jobs"][0]["background"].get<bool>());
  EXPECT_FALSE(r.app["jobs"][0]["finished"].get<bool>());
  EXPECT_GT(r.app["jobs"][0]["messages"].get<int>(), 100);
  // Per message (job,src,dst,tag,bytes,packets,posted,sent,arrived,latency): the ping-pong's first against its last.
  std::vector<long> latency;
  std::istringstream csv(layer->messages_csv());
  std::string line;
  std::getline(csv, line);
  while (std::getline(csv, line)) {
    if (line.rfind("pingpong,", 0) == 0) latency.push_back(std::stol(line.substr(line.rfind(',') + 1)));
  }
  ASSERT_EQ(latency.size(), 12u);
  EXPECT_EQ(latency[0], latency[1]) << "before the background starts, both directions alike";
  EXPECT_GT(latency.back(), latency[0] + 20) << layer->messages_csv().substr(0, 2000);
}

// Random neighbours: every rank sends to its 6-20 (here at most 15)
// targets and receives from the ranks that drew it; the same table on every
// rank, or the receives would never match.
TEST(HostLayer, RandomNeighboursFinish) {
  const WorkloadRun run =
      run_workload(host::make_workload("randneighbors:bytes=24,iterations=2,min=3,max=5", 9).body, linear(16),
                   "randneighbors");
  expect_clean(run.result);
  ASSERT_TRUE(run.result.app["finished"].get<bool>()) << run.result.app_summary;
  const int messages = run.result.app["messages"].get<int>();
  EXPECT_GE(messages, 2 * 16 * 3);
  EXPECT_LE(messages, 2 * 16 * 5);
  EXPECT_EQ(messages % 2, 0);
}

// Single-flit packets (the Q-adaptive paper's network has them): each
// carries its share of a message in the header's payload field. The torus
// of Network.SpeedupTwoWithSingleFlitPacketsAtTwiceSaturation (its model).
TEST(HostLayer, SingleFlitPacketsCarryMessages) {
  auto b = std::make_unique<Bench>(R"(
[design]
name = "net_t44_s2_1flit"
[topology]
kind = "torus"
dims = [4, 4]
[router]
vcs = 2
buffer_flits = 8
flit_bits = 128
min_packet_flits = 1
max_packet_flits = 1
speedup = 2
)");
  const int payload_bits = b->design.header.payload.width;
  ASSERT_GT(payload_bits, 0);
  auto layer = std::make_shared<host::HostLayer>(b->design, linear(16),
                                                 host::make_workload("allreduce:bytes=40").body, "allreduce");
  const SimResult r = run_layer(*b, layer, 100000);
  expect_clean(r);
  ASSERT_TRUE(r.app["finished"].get<bool>()) << r.app_summary;
  EXPECT_EQ(r.app["messages"], 4 * 16);
  EXPECT_EQ(r.packets_delivered, 4 * 16 * ((40 * 8 + payload_bits - 1) / payload_bits));
}

// A receive that no send will ever match: the run fails with the rank, its
// node and what it waits for, as soon as nothing is left to happen.
TEST(HostLayer, AReceiveNothingCanMatchIsADeadlock) {
  const auto body = [](host::Rank& r) {
    if (r.rank() == 0) r.recv(1, 8, 7);
    if (r.rank() == 1) r.send(0, 8, 6);  // another tag
  };
  const WorkloadRun run = run_workload(body, {3, 9}, "mismatched");
  EXPECT_FALSE(run.result.ok());
  EXPECT_NE(run.result.failure.find("deadlock"), std::string::npos) << run.result.failure;
  EXPECT_NE(run.result.failure.find("rank 0 (node 3) receives 8 bytes from rank 1 with tag 7"), std::string::npos)
      << run.result.failure;
  EXPECT_LT(run.result.cycles, 1000);
}

TEST(HostLayer, AReceiveOfAnotherSizeFails) {
  const auto body = [](host::Rank& r) {
    if (r.rank() == 0) r.recv(1, 8, 0);
    if (r.rank() == 1) r.send(0, 16, 0);
  };
  const WorkloadRun run = run_workload(body, {0, 5}, "sizes");
  EXPECT_FALSE(run.result.ok());
  EXPECT_NE(run.result.failure.find("rank 0 received 16 bytes from rank 1 with tag 0 into a receive of 8 bytes"),
            std::string::npos)
      << run.result.failure;
}

// Messages nobody receives still arrive: the run ends when every rank has
// sent its messages and the network is empty, with every packet delivered.
TEST(HostLayer, RandomSendsArriveWithoutReceives) {
  const WorkloadRun run = run_workload(host::make_workload("random:bytes=16,interval=20,messages=30", 4).body,
                                       linear(16), "random");
  expect_clean(run.result);
  ASSERT_TRUE(run.result.app["finished"].get<bool>()) << run.result.app_summary;
  EXPECT_EQ(run.result.app["messages"], 16 * 30);
  EXPECT_EQ(run.result.packets_delivered, 16 * 30);  // 16 bytes: one 4-flit packet
  // About 30 x (20 + 4) cycles per rank.
  EXPECT_GT(run.result.app["run_cycles"].get<std::int64_t>(), 400);
  EXPECT_LT(run.result.app["run_cycles"].get<std::int64_t>(), 1500);
}

TEST(HostLayer, ARunThatEndsBeforeTheWorkloadSaysSo) {
  const WorkloadRun run = run_workload(host::make_workload("pingpong:bytes=1000,iterations=50").body, linear(2), "pingpong",
                               300);
  EXPECT_FALSE(run.layer->finished());
  EXPECT_FALSE(run.result.app["finished"].get<bool>());
  EXPECT_EQ(run.result.app["run_cycles"], -1);
}

TEST(HostLayerUnits, WorkloadSpecsAreChecked) {
  EXPECT_EQ(host::make_workload("pingpong").name, "pingpong");
  EXPECT_EQ(host::make_workload("pingpong:peer=9").min_ranks, 10);
  const auto message = [](const std::string& text) {
    try {
      host::make_workload(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("pingpong:bytes=-1"), "workload \"pingpong:bytes=-1\": bytes = \"-1\": must be a non-negative integer");
  EXPECT_EQ(message("pingpong:size=4"),
            "workload \"pingpong:size=4\": \"size=4\" is not key=value with a key of bytes, iterations, peer");
  EXPECT_EQ(message("pingpong:peer=0"), "workload \"pingpong:peer=0\": peer = 0: rank 0 cannot ping itself");
  EXPECT_EQ(message("halo"), "workload \"halo\": unknown workload \"halo\" (pingpong, allreduce, barrier, broadcast, alltoall, halo3d, many2many, randneighbors, random, trace:FILE, goal:FILE)");
}

TEST(HostLayerUnits, TracesAreReadAndWrittenInOneFormat) {
  const host::Trace t = host::read_trace(trace_file("read.trace", kTrace));
  EXPECT_EQ(t.ranks, 8);
  EXPECT_EQ(t.events[0].size(), 6u);  // compute, send, the four collectives
  EXPECT_EQ(t.events[0][1].kind, host::TraceEvent::Kind::Send);
  EXPECT_EQ(t.events[0][1].peer, 1);
  EXPECT_EQ(t.events[0][1].amount, 100);
  EXPECT_EQ(t.events[0][1].tag, 3);
  // Written and read again: the same events.
  const host::Trace again = host::read_trace(trace_file("again.trace", host::write_trace(t)));
  EXPECT_EQ(host::write_trace(again), host::write_trace(t));
}

TEST(HostLayerUnits, ATraceThatBreaksTheFormatIsRefusedWithItsLine) {
  const auto message = [](const std::string& text) {
    const std::string path = trace_file("bad.trace", text);
    try {
      host::read_trace(path);
    } catch (const std::invalid_argument& e) {
      std::string m = e.what();
      return m.substr(m.find(':') + 1);  // without the directory
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("0 send 1 8 0\n"), "1: the first line must be \"ranks N\"");
  EXPECT_EQ(message("ranks 4\n\n4 compute 1\n"), "3: rank \"4\": must be an integer in 0..3");
  EXPECT_EQ(message("ranks 4\n0 send 1 8\n").substr(0, 47), "2: send takes 3 values after the rank, not 2 (R");
  EXPECT_EQ(message("ranks 4\n0 wait 1\n").substr(0, 26), "2: unknown event \"wait\" (R");
  EXPECT_EQ(message("ranks 4\n2 recv 2 8 0\n"), "2: rank 2 recvs itself");
  EXPECT_EQ(message("ranks 4\n0 send 1 8 -1\n"), "2: tag \"-1\": must be an integer in 0..1073741823");
  EXPECT_EQ(message(""), " empty trace (the first line must be \"ranks N\")");
  EXPECT_THROW(host::read_trace("/nonexistent/x.trace"), std::invalid_argument);
}

// A GOAL schedule: labels, requires and irequires, comments, cpu and nic.
const char* kGoal = R"(/* two ranks
   exchange */
num_ranks 2
rank 0 {
a: calc 100 cpu 0
b: send 16b to 1 tag 4 // after the compute
c: recv 16b from 1 tag 9
d: send 8b to 1
b requires a
c irequires b
}
rank 1 {
x: recv 16b from 0 tag 4
y: send 16b to 0 tag 9 nic 0
z: recv 8b from 0
y requires x
}
)";

TEST(HostLayerUnits, GoalSchedulesBecomeTracesInAnOrderTheirDependenciesAllow) {
  const host::Trace t = host::read_goal(trace_file("two.goal", kGoal));
  // Rank 0: d (ready, a send) first, then a (compute), then b, then c. Rank 1: x, then y, z (receives in file order).
  EXPECT_EQ(host::write_trace(t), "ranks 2\n"
                                  "0 send 1 8 0\n"
                                  "0 compute 100\n"
                                  "0 send 1 16 4\n"
                                  "0 recv 1 16 9\n"
                                  "1 recv 0 16 4\n"
                                  "1 send 0 16 9\n"
                                  "1 recv 0 8 0\n");
}

TEST(HostLayerUnits, AGoalScheduleThatCannotBeReplayedIsRefusedWithItsLine) {
  const auto message = [](const std::string& text) {
    const std::string path = trace_file("bad.goal", text);
    try {
      host::read_goal(path);
    } catch (const std::invalid_argument& e) {
      std::string m = e.what();
      return m.substr(m.find(':') + 1);
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("num_ranks 2\nrank 0 {\nrecv 8b from -1 tag 0\n}\n"),
            "3: from \"-1\": must be an integer in 0..1 (wildcards are not replayed)");
  EXPECT_EQ(message("num_ranks 2\nrank 0 {\na: calc 5\na requires b\n}\n"),
            "4: unknown label \"b\" (a label is defined before it is required)");
  EXPECT_EQ(message("num_ranks 2\nrank 0 {\na: calc 5\nb: calc 6\na requires b\nb requires a\n}\n"),
            "3: the operation is in a cycle of dependencies");
  EXPECT_EQ(message("rank 0 {\n}\n"), "1: the schedule must start with \"num_ranks N\"");
  EXPECT_EQ(message("num_ranks 2\nrank 0 {\nput 8b to 1\n}\n"), "3: unknown operation \"put\" (calc, send, recv)");
  EXPECT_EQ(message("num_ranks 2\nrank 1 {\ncalc 5\n"), " rank 1's braces are not closed");
}

TEST(HostLayerUnits, PlacementsPutOneRankPerNode) {
  const Topology torus = Bench(kTorus4x4).design.topo;
  EXPECT_EQ(host::place_ranks("linear", 3, torus, 1), (std::vector<int>{0, 1, 2}));
  const std::vector<int> random = host::place_ranks("random", 16, torus, 7);
  EXPECT_EQ(std::set<int>(random.begin(), random.end()).size(), 16u);
  EXPECT_NE(random, linear(16));
  EXPECT_EQ(random, host::place_ranks("random", 16, torus, 7));
  EXPECT_THROW(host::place_ranks("linear", 17, torus, 1), std::invalid_argument);
  EXPECT_THROW(host::place_ranks("spread", 4, torus, 1), std::invalid_argument);
  EXPECT_THROW(host::place_ranks("groups", 4, torus, 1), std::invalid_argument);
  // dfly(2,4,2,9): 8 nodes per group; rank r in group r mod 9.
  const Topology dfly = derive_design(parse_config(R"(
[topology]
kind = "dragonfly"
p = 2
a = 4
h = 2
g = 9
[routing]
algorithm = "min"
)", "dfly.toml")).topo;
  const std::vector<int> groups = host::place_ranks("groups", 72, dfly, 1);
  EXPECT_EQ(std::vector<int>(groups.begin(), groups.begin() + 11), (std::vector<int>{0, 8, 16, 24, 32, 40, 48, 56, 64, 1, 9}));
  EXPECT_EQ(std::set<int>(groups.begin(), groups.end()).size(), 72u);
}

TEST(HostLayerUnits, MessagesAreCutIntoPacketsOfTheRouter) {
  // 64-bit flits, packets of at most 4 flits (2 of payload), at least 4.
  EXPECT_EQ(message_packet_lengths(0, 64, 4, 4), (std::vector<int>{4}));
  EXPECT_EQ(message_packet_lengths(17, 64, 4, 4), (std::vector<int>{4, 4}));
  EXPECT_EQ(message_packet_lengths(17, 64, 2, 8), (std::vector<int>{5}));
  EXPECT_EQ(message_packet_lengths(49, 64, 2, 8), (std::vector<int>{8, 3}));
}

// SystemC's main() prints its banner before sc_main: off before main() runs.
const bool kSystemCBannerOff = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1) == 0;

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
