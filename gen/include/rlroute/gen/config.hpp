// User-facing configuration: what a TOML file says, parsed and validated once.
// Derived, internal parameters (widths, port maps) live in the topology and
// design models, never here (DESIGN.md section 8).
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "rlroute/gen/algorithm.hpp"

namespace rlroute {

enum class TopologyKind { Torus, Mesh, Dragonfly };
// How a dragonfly's global links are laid out (docs/topology_dragonfly.md).
enum class GlobalArrangement { Absolute, Palmtree };
// routing.intra_group: how the non-minimal dragonfly algorithms route a packet
// whose source and destination routers are in the same group
// (docs/routing_dragonfly.md): minimally (the reference simulators) or through
// an intermediate group like any other packet.
enum class IntraGroup { Minimal, Valiant };
// routing.ugal_rule: the UGAL minimal/non-minimal comparison
// (docs/routing_dragonfly.md): q_m*H_m <= q_nm*H_nm + b (Chaulagain and Yuan,
// Algorithm 1) or q_m <= 2*q_nm + b (the Q-adaptive authors' SST/Merlin code).
enum class UgalRule { HopWeighted, DoubleNonminimal };
// routing.ugal_queue: what q of a port counts: the used credits plus the flits
// of the packets waiting in this router's input VCs for that port, or the used
// credits alone.
enum class UgalQueue { CreditsAndWaiting, Credits };
// routing.decision: where the adaptive algorithms choose between the minimal
// and the non-minimal route: when the packet reaches the head of its VC and
// asks for an output VC (with the congestion of that cycle, in front of the VC
// allocator), the same but through a register (the packet asks one cycle
// later, with the congestion of the cycle before), or when its head is
// written into the buffer.
enum class DecisionPoint { VcHead, VcHeadRegistered, BufferWrite };
// Whether the decision is taken at the head of the VC (either form).
constexpr bool at_vc_head(DecisionPoint point) { return point != DecisionPoint::BufferWrite; }
// routing.q_initial: what Q-adaptive's table entries start from
// (docs/q_adaptive.md, "The algorithm"): the zero-load time along the minimal
// path through the entry's port, or flat values as the authors' code sets
// them (a global hop for the router's own link to the row's group, a global
// and a local hop for every other port).
enum class QInitial { ZeroLoad, Flat };
// routing.q_intermediate: which local port Q-adaptive's first router of the
// intermediate group weighs against the minimal one (docs/q_adaptive.md,
// "The intermediate decision"): a random one (the paper) or the one its
// table rates best.
enum class QIntermediate { Random, Best };
// routing.q_source_group: what Q-adaptive's next router of the source group
// does (docs/q_adaptive.md, "The decision in the source group"): route
// every packet minimally (the paper); weigh its other global ports against
// the minimal one for a packet the source routed minimally, as PAR
// re-evaluates (Decide); or do that for a packet the source sent there
// non-minimally by a local port (Detour).
enum class QSourceGroup { Minimal, Decide, Detour };
// routing.q_queue_in: where the local queue weighs in Q-adaptive's decisions
// (docs/q_adaptive.md, "The local queue in the decision"): in the test
// whether to leave the minimal port and in the choice of the other port;
// or in the choice of the port alone, the table deciding whether to leave.
enum class QQueueIn { TestAndPort, Port };
// routing.q_vcs: the VCs of Q-adaptive's hops (docs/q_adaptive.md, "VCs that
// rise"): the VC level is the hops taken (the paper); or a packet that
// decides no more may take any level from that one up to the last that
// leaves one level for each of its remaining minimal hops (Rising).
enum class QVcs { PerHop, Rising };
// routing.q_stamp: how Q-adaptive's hop time r is taken (docs/q_adaptive.md,
// "Where r starts"): from the packet's arrival at the upstream router to its
// arrival here (the paper); or to the decision here, from the cycle it
// crossed the upstream crossbar or from the cycle it first asked the
// upstream router for an output VC of the port it chose there.
enum class QStamp { Arrival, Crossbar, Request };
// r is taken at this router's decision, from a stamp the head left the
// upstream router with.
constexpr bool r_at_decision(QStamp stamp) { return stamp != QStamp::Arrival; }
// router.buffer_read: how a VC buffer's storage is read: asynchronously
// (LUT-RAM / register file) or through a register (block RAM / SRAM macros).
// The router behaves the same cycle for cycle either way.
enum class BufferRead { Async, Registered };
// router.switch_allocation: when a packet's head first asks for the switch:
// in the cycle after it won its output VC, or speculatively in the cycle it
// asks for the output VC (below every other request, kept only if it wins
// a free output VC), which takes a cycle off every hop.
enum class SwitchAllocation { AfterVc, Speculative };
// routing.dqn_agent: who proposes DQN-routing's actions: the inference block
// in every router, or an agent outside the router on its agent port (a
// test-bench agent: the fixed-point network in software, or a
// floating-point one in training).
enum class DqnAgentKind { Block, External };
// routing.dqn_fallback: what a packet becomes when the DQN channel the agent
// proposed cannot take it: Pdor for the rest of its way ([Lonardo 2019],
// Algorithm 2), or DOR for this hop only, Pdor then set by the hop threshold
// alone (not in the thesis: docs/dqn.md, "Pdor is for good").
enum class DqnFallback { Pdor, Hop };
// routing.dqn_dor_vcs: the VCs a DQN router's DOR hop (the fallback, and a
// Pdor packet's) may take: the escape VCs ([Lonardo 2019]), or also the DQN
// VC when it is free, as star-channel's DOR hops take its adaptive VC.
enum class DqnDorVcs { Escape, All };
// routing.dqn_block: the inference block's organisation: tiled (dqn_npar x
// dqn_ipar multipliers per layer, a decision every few cycles) or parallel
// (every product of a layer in one cycle, a decision per cycle).
enum class DqnBlockKind { Tiled, Parallel };
// routing.dqn_weights_mode: the parallel block's weights in registers loaded
// through the programming port, or constants of the generated RTL.
enum class DqnWeightsMode { Programmable, Constant };
const char* to_string(TopologyKind kind);
const char* to_string(GlobalArrangement arrangement);
const char* to_string(IntraGroup intra_group);
const char* to_string(UgalRule rule);
const char* to_string(UgalQueue queue);
const char* to_string(DecisionPoint point);
const char* to_string(QInitial initial);
const char* to_string(QIntermediate intermediate);
const char* to_string(QSourceGroup source_group);
const char* to_string(QQueueIn queue_in);
const char* to_string(QVcs vcs);
const char* to_string(QStamp stamp);
const char* to_string(BufferRead read);
const char* to_string(SwitchAllocation allocation);
const char* to_string(DqnAgentKind agent);
const char* to_string(DqnFallback fallback);
const char* to_string(DqnDorVcs vcs);
const char* to_string(DqnBlockKind block);
const char* to_string(DqnWeightsMode mode);

// Every configuration error is one line: "file:line:column: key = value: rule".
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Largest cycle count of a simulation phase (sim.cycles, sim.warmup,
// sim.drain and their flags): 2^40 cycles, about a month of simulation at a
// million router-cycles per second, far from the int64 overflow of their sums.
inline constexpr std::int64_t kMaxSimCycles = std::int64_t{1} << 40;

// Packet sizes in flits (sim.packet_flits*, --packet-flits*) lie in
// router.min_packet_flits..router.max_packet_flits. A packet of one flit
// carries header, payload and CRC in that flit (router.min_packet_flits = 1);
// longer packets are a head, payload flits and a footer with the CRC.
// The largest dragonfly: `rlroute gen` checks every path of every node pair,
// which takes minutes at this size (docs/config.md gives measured times);
// the papers' networks (1,056 and 2,550 nodes) are well inside.
inline constexpr int kMaxDragonflyRouters = 1024;
inline constexpr int kMaxDragonflyNodes = 4096;

// Packets of up to 256 flits ([Lonardo 2019]: up to 256 128-bit flits); a VC
// buffer holds at least the largest packet (virtual cut-through).
inline constexpr int kMaxPacketFlits = 256;

// The header's hop count (field hops) is this many bits wide; it counts up
// to kMaxHeaderHops router-to-router hops.
inline constexpr int kHeaderHopBits = 6;
inline constexpr int kMaxHeaderHops = (1 << kHeaderHopBits) - 1;

// DQN-routing's inference block (routing.dqn_*): at most 3 hidden layers (the
// block has up to 4), layers of up to 256 neurons (the agent of
// [Lonardo 2019]), up to 1,024 multipliers per layer.
inline constexpr int kMaxDqnHidden = 3;
inline constexpr int kMaxDqnLayerSize = 256;
inline constexpr int kMaxDqnMultipliers = 1024;
// DQN-routing's pending-episode table (routing.dqn_episodes entries per
// router) and its ack subsampling (routing.dqn_ack_ratio: one packet in N
// requests an ack; 0: none does).
inline constexpr int kMaxDqnEpisodes = 256;
inline constexpr int kMaxDqnAckRatio = 65535;

// Most threads one simulation may use (sim.threads, --threads).
inline constexpr int kMaxSimThreads = 256;

// Default traffic settings for `rlroute sim`; command-line flags override them.
struct SimDefaults {
  std::string pattern = "uniform";
  double load = 0.1;           // offered load, flits/node/cycle
  int packet_flits = 0;        // 0 = router.max_packet_flits
  int packet_flits_min = 0;    // >0 with packet_flits_max: uniform size distribution
  int packet_flits_max = 0;
  std::int64_t cycles = 10000;  // measurement cycles
  std::int64_t warmup = 2000;
  std::int64_t drain = 20000;   // max cycles to wait for measured packets after measurement
  std::uint64_t seed = 1;
  double hotspot_fraction = 0.2;  // share of traffic to the hotspot node
  int hotspot_node = 0;
  int threads = 1;  // threads that evaluate the harness's routers (1..kMaxSimThreads)
};

struct Config {
  std::string path;  // file the config came from (as given)
  std::string name;  // [design] name, default: file stem with non [A-Za-z0-9_] replaced by '_'

  // [topology]
  TopologyKind kind = TopologyKind::Torus;
  std::vector<int> dims;   // torus / mesh radix per dimension, dimension 0 first
  int link_latency = 1;    // cycles, router output register to next router input
  int credit_latency = 1;  // cycles, credit register to upstream router input
  // dragonfly dfly(p, a, h, g): p terminals (= nodes_per_router), a routers
  // per group, h global ports per router, g groups
  int p = 0, a = 0, h = 0, g = 0;
  GlobalArrangement arrangement = GlobalArrangement::Absolute;
  int local_link_latency = 1, global_link_latency = 10;
  int local_credit_latency = 1, global_credit_latency = 10;

  // [router]
  int vcs = 2;
  int buffer_flits = 8;  // per VC
  int flit_bits = 64;
  int min_packet_flits = 2;  // 1: single-flit packets (header, payload and CRC in one flit)
  int max_packet_flits = 4;  // head + payload + footer
  int nodes_per_router = 1;
  int speedup = 1;               // internal speedup: flits per output port (and input port) per cycle
  int output_buffer_flits = 0;   // per output port; 0 without speedup, default 2 x speedup with it
  BufferRead buffer_read = BufferRead::Async;
  SwitchAllocation switch_allocation = SwitchAllocation::AfterVc;

  // [routing]
  RoutingAlgorithm algorithm = RoutingAlgorithm::Dor;
  std::uint64_t seed = 1;  // hardware LFSR seed (adaptive algorithms)
  int ugal_bias = 0;               // b of UGAL-L / UGAL-LE, in flits x hops
  int contention_window = 500;     // UGAL-LE counter window, cycles
  int contention_threshold = 5;    // UGAL-LE: a flow is active above this many flits per window
  IntraGroup intra_group = IntraGroup::Minimal;             // non-minimal algorithms
  UgalRule ugal_rule = UgalRule::HopWeighted;               // ugal_g, ugal_n, ugal_le, par
  UgalQueue ugal_queue = UgalQueue::CreditsAndWaiting;      // ugal_g, ugal_n, ugal_le, par
  DecisionPoint decision = DecisionPoint::VcHeadRegistered;  // ugal_g, ugal_n, ugal_le, par
  // q_adaptive ([Kang 2021, section 4]; its values for 1,056 nodes are the
  // defaults): the learning rates of Equation 3 when the estimate falls (alpha)
  // and rises (beta), the exploration probability, the thresholds of the source
  // router and of the intermediate router, the fixed-point format of a
  // Q-value (cycles) and the table's row read ports (0: one per input port).
  double alpha = 0.2;
  double beta = 0.04;
  double epsilon = 0.001;
  double q_thld1 = 0.2;
  double q_thld2 = 0.35;
  int q_value_bits = 16;
  int q_fraction_bits = 4;
  int q_read_ports = 0;
  // Cycles from a head's presentation to its decision: 1 (the row read and
  // the decision in one cycle) or 2 (through a register; a faster clock).
  int q_decision_cycles = 1;
  QInitial q_initial = QInitial::ZeroLoad;
  QIntermediate q_intermediate = QIntermediate::Random;
  QSourceGroup q_source_group = QSourceGroup::Minimal;
  QStamp q_stamp = QStamp::Arrival;
  // Beyond the paper: the cycles per flit of a port's local queue (its
  // credits in use) that Q-adaptive's decisions add to the port's entry
  // (docs/q_adaptive.md, "The local queue in the decision"); 0: the table alone.
  int q_queue_weight = 0;
  QQueueIn q_queue_in = QQueueIn::TestAndPort;
  QVcs q_vcs = QVcs::PerHop;
  // dqn ([Lonardo 2019, chapter 3]; docs/dqn.md): the hop count from which a
  // packet takes no more DQN hops (default twice the topology's diameter: the
  // thesis's 8 on the 4x4 torus), the inference block's hidden layer sizes,
  // weight and activation bits and multipliers per layer (dqn_npar neurons x
  // dqn_ipar inputs per cycle), and the weights file `rlroute sim` programs
  // into the block (as written; relative to the config file's directory; empty:
  // an untrained random network).
  int dqn_hop_threshold = 0;
  std::vector<int> dqn_hidden{32, 32};
  int dqn_weight_bits = 8;
  int dqn_activation_bits = 8;
  DqnBlockKind dqn_block = DqnBlockKind::Parallel;
  DqnWeightsMode dqn_weights_mode = DqnWeightsMode::Programmable;
  int dqn_npar = 8;
  int dqn_ipar = 4;
  std::string dqn_weights;
  DqnAgentKind dqn_agent = DqnAgentKind::Block;
  DqnFallback dqn_fallback = DqnFallback::Pdor;
  DqnDorVcs dqn_dor_vcs = DqnDorVcs::Escape;
  // dqn: entries of each router's pending-episode table, and one packet in
  // dqn_ack_ratio that requests an ack (ReqAck; 0: none) (docs/dqn.md).
  int dqn_episodes = 32;
  int dqn_ack_ratio = 1;

  SimDefaults sim;

  // "file:line:column" of a key such as "router.vcs"; "file" alone if the key
  // was not written (its default was used).
  std::string where(const std::string& dotted_key) const;
  std::map<std::string, std::string> locations;  // dotted key -> "file:line:column"
  // Non-fatal findings ("file:line:column: key = value: warning"), printed by the CLI.
  std::vector<std::string> warnings;
};

// The longest dimension-order path of a torus or mesh (its diameter), hops.
int cube_diameter(const Config& cfg);

// The VC levels and the hop bound of the configured algorithm: its traits',
// and for Q-adaptive with routing.q_source_group = "decide" one more of each
// (a local hop in the source group before the intermediate group's hops).
int vc_levels(const Config& cfg);
int hop_bound(const Config& cfg);

// Parses and validates a TOML file. Throws ConfigError with a one-line message.
Config load_config(const std::string& path);
// Same, from a string (for tests); `path` is only used in messages.
Config parse_config(const std::string& toml_text, const std::string& path);

// The key tables of docs/config.md (Key | Type | Default | Range | Meaning),
// each between its marker comments, from the schema of gen/src/config_schema.cpp.
std::string config_key_tables_markdown();

// Throws ConfigError "where: key = value: rule".
[[noreturn]] void config_fail(const Config& cfg, const std::string& dotted_key,
                              const std::string& value, const std::string& rule);

}  // namespace rlroute
