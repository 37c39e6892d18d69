// The config's keys: one row each, from which the checks of config.cpp take
// the sections, their keys and the keys of each topology family, and
// docs/config.md takes its key tables (config_key_tables_markdown; a unit test
// compares them with the file).
#include "config_schema.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <stdexcept>
#include <type_traits>

namespace rlroute {
namespace config_detail {
namespace {

// A default as the doc writes it: numbers bare, strings and arrays as code.
std::string shown(std::int64_t value) { return std::to_string(value); }
std::string shown(std::uint64_t value) { return std::to_string(value); }
std::string shown(int value) { return std::to_string(value); }
std::string shown(double value) { return fmt::format("{}", value); }
std::string shown(const std::string& text) { return fmt::format("`\"{}\"`", text); }
std::string shown(const std::vector<int>& values) { return fmt::format("`[{}]`", fmt::join(values, ", ")); }
template <typename Enum>
  requires std::is_enum_v<Enum>
std::string shown(Enum value) {
  return fmt::format("`\"{}\"`", to_string(value));
}

template <auto Member>
std::string config_default(const Config& cfg) {
  return shown(cfg.*Member);
}
template <auto Member>
std::string sim_default(const Config& cfg) {
  return shown(cfg.sim.*Member);
}

// section, key, topology family, type, default, range, meaning[, what a dragonfly uses instead]
constexpr auto kConfigKeys = std::to_array<ConfigKey>({
    // [design]
    {"design", "name", KeyFamily::Any, "string", "from the file name (below)",
     "`^[A-Za-z][A-Za-z0-9_]{0,40}$`, not `rr` and not starting with `rr_`",
     "Design name. It prefixes the names of generated SystemVerilog modules and packages, so it must be a valid "
     "identifier start, and it must not make them collide with the library's `rr_*` modules (`rr` would give "
     "`rr_router`)."},
    // [topology]
    {"topology", "kind", KeyFamily::Any, "string", "required", "`\"torus\"`, `\"mesh\"`, `\"dragonfly\"`",
     "Network topology."},
    {"topology", "dims", KeyFamily::TorusMesh, "array of integers", "required", "1..3 entries, each 2..16",
     "k-ary n-cube radices: `[8]` is a ring (or line) of 8 routers, `[4, 4]` a 4x4 torus (or mesh), `[4, 4, 2]` a "
     "3-D one. Dimension 0 comes first.",
     "topology.p, topology.a, topology.h and topology.g"},
    {"topology", "link_latency", KeyFamily::TorusMesh, "integer", config_default<&Config::link_latency>, "1..64",
     "Cycles from a router's output register to the next router's input.",
     "topology.local_link_latency and topology.global_link_latency"},
    {"topology", "credit_latency", KeyFamily::TorusMesh, "integer", config_default<&Config::credit_latency>, "1..64",
     "Cycles from a router's credit register to the upstream router's input.",
     "topology.local_credit_latency and topology.global_credit_latency"},
    {"topology", "p", KeyFamily::Dragonfly, "integer", "required", "1..16",
     "Terminals (nodes, NI ports) per router; it replaces `router.nodes_per_router`."},
    {"topology", "a", KeyFamily::Dragonfly, "integer", "required", "2..32", "Routers per group."},
    {"topology", "h", KeyFamily::Dragonfly, "integer", "required", "1..16", "Global ports per router."},
    {"topology", "g", KeyFamily::Dragonfly, "integer", "required", "2..a*h + 1, and a*h divisible by g - 1",
     "Groups. A group has a*h global link ends and they must split evenly over the g - 1 other groups, so that every "
     "pair of groups has the same number l = a*h/(g-1) of global links. dfly(2, 4, 2, 9) has l = 1, dfly(2, 4, 2, 5) "
     "has l = 2; dfly(2, 4, 2, 7) is rejected (8 ends over 6 groups)."},
    {"topology", "arrangement", KeyFamily::Dragonfly, "string", config_default<&Config::arrangement>,
     "`\"absolute\"`, `\"palmtree\"`",
     "How global links are assigned to routers and ports (docs/topology_dragonfly.md)."},
    {"topology", "local_link_latency", KeyFamily::Dragonfly, "integer", config_default<&Config::local_link_latency>,
     "1..256", "Cycles from a router's output register to the next router's input, over a local (intra-group) link."},
    {"topology", "global_link_latency", KeyFamily::Dragonfly, "integer", config_default<&Config::global_link_latency>,
     "1..256", "The same over a global (inter-group) link. The defaults follow the papers' 1:10 local:global ratio."},
    {"topology", "local_credit_latency", KeyFamily::Dragonfly, "integer", config_default<&Config::local_credit_latency>,
     "1..256", "Cycles from a router's credit register to the upstream router's input, over a local link."},
    {"topology", "global_credit_latency", KeyFamily::Dragonfly, "integer",
     config_default<&Config::global_credit_latency>, "1..256", "The same over a global link."},
    // [router]
    {"router", "vcs", KeyFamily::Any, "integer", config_default<&Config::vcs>, "1..16", "Virtual channels per port."},
    {"router", "buffer_flits", KeyFamily::Any, "integer", config_default<&Config::buffer_flits>,
     "1..256, and at least `max_packet_flits`", "FIFO depth of each VC, in flits."},
    {"router", "flit_bits", KeyFamily::Any, "integer", config_default<&Config::flit_bits>, "32..256, multiple of 8",
     "Flit width (link width) in bits."},
    {"router", "min_packet_flits", KeyFamily::Any, "integer", config_default<&Config::min_packet_flits>,
     "1..256, at most `max_packet_flits`",
     "Shortest packet, in flits. 1 allows single-flit packets: the one flit carries the header, a 32-bit CRC and the "
     "payload (`flit_bits` must hold the header, the CRC, an 8-bit timestamp and 8 payload bits; the error names the "
     "bits needed). It also sizes each VC's route FIFO (`buffer_flits / min_packet_flits` entries)."},
    {"router", "max_packet_flits", KeyFamily::Any, "integer", config_default<&Config::max_packet_flits>,
     "1..256, at least `min_packet_flits`",
     "Largest packet, in flits: header + payload + footer (or the one flit). [Lonardo 2019] uses packets of up to 256 "
     "flits; `buffer_flits` must hold the largest packet (virtual cut-through)."},
    {"router", "nodes_per_router", KeyFamily::TorusMesh, "integer", config_default<&Config::nodes_per_router>, "1..8",
     "Host (NI) ports per router. Torus and mesh only; a dragonfly takes it from `topology.p` (writing it is an "
     "error: `not valid for kind = \"dragonfly\"; use topology.p`).",
     "topology.p"},
    {"router", "speedup", KeyFamily::Any, "integer", config_default<&Config::speedup>, "1..4",
     "Internal speedup S: each input port sends up to S flits per cycle (from one VC, consecutive flits of its "
     "packet, or from several) and each output port takes up to S per cycle into its output buffer, which drains one "
     "flit per cycle onto the link. With `min_packet_flits = 1` an output VC also takes up to S single-flit packets "
     "per cycle (docs/architecture.md, \"Internal speedup\"). 1 is the plain input-queued router. Zero-load latency "
     "does not depend on it."},
    {"router", "output_buffer_flits", KeyFamily::Any, "integer", "0, or 2 x `speedup` when `speedup` >= 2",
     "0 with `speedup = 1`; `speedup`..256 otherwise",
     "Output buffer per output port, in flits (flip-flops: it is written S flits at a time). Writing it without "
     "speedup is an error (`needs router.speedup >= 2`). Measured on dfly(2,4,2,9) MIN at speedup 2 "
     "(docs/architecture.md, \"Internal speedup\"): 32 is best with both 24- and 256-flit VC buffers (0.751 and 0.913 accepted)."},
    {"router", "buffer_read", KeyFamily::Any, "string", config_default<&Config::buffer_read>,
     "`\"async\"`, `\"registered\"`",
     "How a VC buffer's storage is read. `\"registered\"` reads it through a register (the next front is read a "
     "cycle ahead, an entry written to that place in the same cycle is forwarded), as block RAM and SRAM macros are, "
     "so deep buffers (64-256 flits) become block RAM on the FPGA path instead of LUT-RAM (the storage carries "
     "`ram_style = \"block\"`, which Yosys and Vivado honour even where LUT-RAM would be cheaper; the standard-cell "
     "path has no RAM macros and builds flip-flops); `rlroute synth` lists what each memory became (`synth.bram` "
     "tests it at 64 flits). The router behaves the same cycle for cycle either way (tested)."},
    {"router", "switch_allocation", KeyFamily::Any, "string", config_default<&Config::switch_allocation>,
     "`\"after_vc\"`, `\"speculative\"`",
     "When a head first asks for the switch. `\"after_vc\"`: in the cycle after it won its output VC. "
     "`\"speculative\"`: in the cycle it asks for the output VC, ranked below every request of a packet that holds "
     "its VC, and it leaves then if it wins a free output VC (docs/architecture.md, \"Speculative switch "
     "allocation\"): one cycle less per router at zero load (T0 = H x (1 + L) + Lp + 1) and more accepted load per "
     "cycle (4x4 torus 0.650 -> 0.656-0.661 over three seeds, dfly(2,4,2,9) MIN at speedup 2 0.766 -> 0.796), at a "
     "lower Fmax (the 4x4 torus and the dfly UGAL-LE routers about 20 % lower: the VC allocator's grant gates the "
     "switch; docs/results.md, \"The targets\")."},
    // [routing]
    {"routing", "algorithm", KeyFamily::Any, "string", "`\"dor\"` (torus, mesh), `\"min\"` (dragonfly)", "see below",
     "Routing algorithm."},
    {"routing", "seed", KeyFamily::Any, "integer", config_default<&Config::seed>, ">= 0",
     "Seed of the hardware LFSR used by adaptive algorithms."},
    {"routing", "ugal_bias", KeyFamily::Any, "integer", config_default<&Config::ugal_bias>, "-1024..1024",
     "Bias b of the minimal/non-minimal decision, in flits x hops: a candidate's cost is its load (the credits in "
     "use on its first output port) times its hop count, and the non-minimal candidate wins only when its cost plus "
     "b is below the minimal one's, so positive b favours minimal paths and negative b non-minimal ones (each "
     "algorithm's page gives the exact rule). Only with `algorithm = \"ugal_g\"`, `\"ugal_n\"`, `\"ugal_le\"` or "
     "`\"par\"`."},
    {"routing", "contention_window", KeyFamily::Any, "integer", config_default<&Config::contention_window>, "1..65535",
     "UGAL-LE: length, in cycles, of the window over which the contention counters F[i][j] count flits (a tumbling "
     "window; docs/routing_dragonfly.md). Only with `algorithm = \"ugal_le\"`."},
    {"routing", "contention_threshold", KeyFamily::Any, "integer", config_default<&Config::contention_threshold>,
     "0..65535, less than `contention_window`",
     "UGAL-LE: a flow (packets that originated at router i of this group, to destination group j) counts as active "
     "when it sent more than this many **flits** in the window (each packet counts its length; with one-flit packets "
     "this is the paper's packet threshold). Only with `algorithm = \"ugal_le\"`. Checked against "
     "`contention_window` even when left at its default."},
    {"routing", "intra_group", KeyFamily::Any, "string", config_default<&Config::intra_group>,
     "`\"minimal\"`, `\"valiant\"`",
     "How a packet whose destination router is in its own group is routed: minimally (one local hop, as in both "
     "reference simulators) or like any other packet, through a random intermediate group (Valiant) or by the "
     "UGAL/PAR comparison against one. Only with `algorithm = \"valg\"`, `\"valn\"`, `\"ugal_g\"`, `\"ugal_n\"`, "
     "`\"ugal_le\"` or `\"par\"`."},
    {"routing", "ugal_rule", KeyFamily::Any, "string", config_default<&Config::ugal_rule>,
     "`\"hop_weighted\"`, `\"double_nonminimal\"`",
     "The minimal/non-minimal comparison: route minimally when `q_m * H_m <= q_nm * H_nm + b` ([Chaulagain 2024], "
     "Algorithm 1) or when `q_m <= 2 * q_nm + b` (the Q-adaptive authors' SST/Merlin code, `adaptive_threshold = 2`). "
     "Only with `algorithm = \"ugal_g\"`, `\"ugal_n\"`, `\"ugal_le\"` or `\"par\"`."},
    {"routing", "ugal_queue", KeyFamily::Any, "string", config_default<&Config::ugal_queue>,
     "`\"credits_and_waiting\"`, `\"credits\"`",
     "What `q` of an output port counts: the credits in use plus the flits of the packets waiting in this router's "
     "input VCs for that port ([Kang 2021]: \"output queue occupancy plus used credits\"; `rtl/rr_demand.sv`), or the "
     "credits in use alone. Only with `algorithm = \"ugal_g\"`, `\"ugal_n\"`, `\"ugal_le\"` or `\"par\"`."},
    {"routing", "decision", KeyFamily::Any, "string", config_default<&Config::decision>,
     "`\"vc_head_registered\"`, `\"vc_head\"`, `\"buffer_write\"`",
     "When the minimal/non-minimal choice is made. At the head of the input VC (the route unit computes both routes "
     "at buffer write and leaves the choice open; one `rr_ugal_decide` per input port decides): "
     "`\"vc_head_registered\"` decides through a register from the cycle the packet's route is the oldest of its VC "
     "and renews the decision until the VC grant (a packet never presented goes before a renewal; one cycle more "
     "zero-load latency per open decision, the decision off the VC allocator's path; the packet behind decides "
     "ahead, so back-to-back packets, single-flit ones too, ask every cycle); `\"vc_head\"` decides in the first "
     "cycle the packet asks for an output VC, with the queues of that cycle, in front of the VC allocator (lower "
     "Fmax). `\"buffer_write\"`: when the head is written into the buffer (the route unit decides alone, on the "
     "queues of the arrival cycle). docs/routing_dragonfly.md, \"Decision point\". Only with `algorithm = "
     "\"ugal_g\"`, `\"ugal_n\"`, `\"ugal_le\"` or `\"par\"`."},
    {"routing", "alpha", KeyFamily::Any, "number", config_default<&Config::alpha>, "0..1",
     "Q-adaptive: the learning rate of Equation 3 when the estimate falls (`delta < 0`); in hardware `round(alpha x "
     "2^12)`. Only with `algorithm = \"q_adaptive\"`, as every Q-adaptive key below (up to the first `dqn_` key)."},
    {"routing", "beta", KeyFamily::Any, "number", config_default<&Config::beta>, "0..1",
     "Q-adaptive: the learning rate when the estimate rises; `round(beta x 2^12)`."},
    {"routing", "epsilon", KeyFamily::Any, "number", config_default<&Config::epsilon>, "0..1",
     "Q-adaptive: the probability that a decision explores a random port (epsilon-greedy); the LFSR's 16 bits are "
     "compared with `round(epsilon x 2^16)`."},
    {"routing", "q_thld1", KeyFamily::Any, "number", config_default<&Config::q_thld1>, "0..1",
     "Q-adaptive: the source router takes the table's best port instead of the minimal one when `(Q_min - Q_best) / "
     "Q_min >= q_thld1`; `round(q_thld1 x 2^10)`. [Kang 2021] uses 0.2 for 1,056 nodes, 0.05 for 2,550."},
    {"routing", "q_thld2", KeyFamily::Any, "number", config_default<&Config::q_thld2>, "0..1",
     "Q-adaptive: the same at the first router of an intermediate group, against a random local port. [Kang 2021]: "
     "0.35 for 1,056 nodes, 0.4 for 2,550."},
    {"routing", "q_value_bits", KeyFamily::Any, "integer", config_default<&Config::q_value_bits>, "8..24",
     "Q-adaptive: the width of a table entry (an estimate in cycles, fixed point)."},
    {"routing", "q_fraction_bits", KeyFamily::Any, "integer", config_default<&Config::q_fraction_bits>,
     "0..16, at most `q_value_bits - 6`",
     "Q-adaptive: the fraction bits of an entry (an entry holds up to `2^(q_value_bits - q_fraction_bits) - 1` "
     "cycles and saturates there)."},
    {"routing", "q_read_ports", KeyFamily::Any, "integer", config_default<&Config::q_read_ports>, "0..router ports",
     "Q-adaptive: the table's row read ports; each is a copy of the table (docs/q_adaptive.md). Input port `p` uses "
     "read port `p mod q_read_ports`; a head that finds its read port taken waits a cycle. 0: one per input port (no "
     "head ever waits)."},
    {"routing", "q_decision_cycles", KeyFamily::Any, "integer", config_default<&Config::q_decision_cycles>, "1, 2",
     "Q-adaptive: cycles from a head's presentation to its decision. 1: the read port's arbitration, the row read "
     "and the decision in one cycle. 2: the row read into a register, the decision in the next cycle (a shorter "
     "clock period, one more cycle per decision at zero load, and a VC presents again only after its answer; "
     "docs/q_adaptive.md, \"Two-cycle decisions\")."},
    {"routing", "q_initial", KeyFamily::Any, "string", config_default<&Config::q_initial>, "`\"zero_load\"`, `\"flat\"`",
     "Q-adaptive: what every table entry starts from. `\"zero_load\"`: the zero-load time from the router to the "
     "row's group along the minimal path through the entry's port (hop by hop, docs/architecture.md's pipeline). "
     "`\"flat\"`: as the authors' code [Kang 2021 code], one global hop for the router's own global link to the "
     "row's group and one global and one local hop for every other port, so that every port but the direct link "
     "starts equal."},
    {"routing", "q_intermediate", KeyFamily::Any, "string", config_default<&Config::q_intermediate>,
     "`\"random\"`, `\"best\"`",
     "Q-adaptive: the local port the first router of the intermediate group weighs against the minimal one "
     "(with `q_thld2`) when it has no global link to the destination group. `\"random\"`: a random one, as the "
     "paper. `\"best\"`: the one whose table entry is lowest (the lowest port on ties), from the comparisons the "
     "row's minimum already makes (docs/q_adaptive.md, \"The intermediate decision\")."},
    {"routing", "q_source_group", KeyFamily::Any, "string", config_default<&Config::q_source_group>,
     "`\"minimal\"`, `\"decide\"`, `\"detour\"`",
     "Q-adaptive, beyond the paper: what the next router of the source group does. `\"minimal\"`: routes every "
     "packet minimally, as the paper. `\"decide\"`: for a packet the source routed minimally, weighs the "
     "lowest-valued of its global ports other than the minimal one against the minimal one with `q_thld1` (no "
     "exploration), as PAR re-evaluates there. `\"detour\"`: the same for a packet the source sent there "
     "non-minimally by a local port (the paper routes it minimally from there), so that a source can reach the "
     "other routers' global links. A packet sent on by a global port decides again at the intermediate group, so "
     "a path has up to 6 hops and 6 VC levels (docs/q_adaptive.md, \"The decision in the source group\")."},
    {"routing", "q_stamp", KeyFamily::Any, "string", config_default<&Config::q_stamp>,
     "`\"arrival\"`, `\"crossbar\"`, `\"request\"`",
     "Q-adaptive: how the time `r` of a hop is taken. `\"arrival\"`: from the head's arrival at the upstream "
     "router to its arrival here, as the paper. The others run to this router's decision, so that an input "
     "buffer's wait is in the hop that led into it and not in the estimates of every port the packet then takes: "
     "`\"crossbar\"` from the cycle the head crossed the upstream router's crossbar, `\"request\"` from the cycle "
     "it first asked the upstream router for an output VC of the port it chose there (its wait for that port "
     "counts too, as in an output-queued router). The initial values are the zero-load times taken the same "
     "way (docs/q_adaptive.md, \"Where r starts\")."},
    {"routing", "q_queue_weight", KeyFamily::Any, "integer", config_default<&Config::q_queue_weight>, "0..8",
     "Q-adaptive, beyond the paper: the decisions at the source and at the intermediate router weigh each port's "
     "entry plus its local queue (the port's credits in use: its output buffer, its link and the downstream VC "
     "buffers), this many cycles per flit; the estimate sent upstream stays the table's. 0: the table alone, as "
     "the paper (docs/q_adaptive.md, \"The local queue in the decision\")."},
    {"routing", "q_queue_in", KeyFamily::Any, "string", config_default<&Config::q_queue_in>,
     "`\"test_and_port\"`, `\"port\"`",
     "Q-adaptive, beyond the paper, with `q_queue_weight` > 0: where the local queue weighs in. "
     "`\"test_and_port\"`: in every comparison of the decision (the threshold test whether to leave the minimal "
     "port, and the choice of the other port). `\"port\"`: in the choice of the other port only; the table's "
     "entries alone make the threshold test, against the port the table rates best, as the paper "
     "(docs/q_adaptive.md, \"The local queue in the decision\")."},
    {"routing", "q_vcs", KeyFamily::Any, "string", config_default<&Config::q_vcs>, "`\"per_hop\"`, `\"rising\"`",
     "Q-adaptive: the VCs of a hop. `\"per_hop\"`: the VC level is the number of hops taken, as the paper. "
     "`\"rising\"` (beyond the paper): a hop after which the packet decides no more (its minimal port, except at "
     "the intermediate router) may take any VC level from that one up to the last that leaves one level for each "
     "of its remaining minimal hops, so that minimal packets spread over the VCs that only long paths need; still "
     "deadlock-free, as every hop rises (docs/q_adaptive.md, \"VCs that rise\")."},
    {"routing", "dqn_hop_threshold", KeyFamily::Any, "integer", "twice the diameter", "0..63 - diameter",
     "DQN-routing: a packet whose hop count has reached it takes no more DQN hops (it is flagged `Pdor` and follows "
     "DOR). [Lonardo 2019] uses 8 on the 4x4 torus (its diameter is 4). The header counts up to 63 hops, and DOR may "
     "still need the diameter after the threshold."},
    {"routing", "dqn_hidden", KeyFamily::Any, "array of integers", config_default<&Config::dqn_hidden>,
     "0..3 sizes, each 1..256",
     "DQN-routing: the inference block's hidden layers; the input is the 6 x dims + 1 observation values, the output "
     "one Q-value per network port (docs/dqn.md)."},
    {"routing", "dqn_weight_bits", KeyFamily::Any, "integer", config_default<&Config::dqn_weight_bits>, "2..16",
     "DQN-routing: signed weights; signed observations and hidden activations. The accumulator is as wide as no sum "
     "can overflow."},
    {"routing", "dqn_activation_bits", KeyFamily::Any, "integer", config_default<&Config::dqn_activation_bits>, "2..16",
     kInRowAbove},
    {"routing", "dqn_block", KeyFamily::Any, "string", config_default<&Config::dqn_block>, "`\"tiled\"`, `\"parallel\"`",
     "DQN-routing: the inference block's organisation. `\"tiled\"` (`rtl/rr_dqn_infer.sv`): each layer walks its "
     "weights `dqn_npar` x `dqn_ipar` at a time, a decision every few cycles. `\"parallel\"` "
     "(`rtl/rr_dqn_infer_parallel.sv`): every product of a layer in one cycle, a decision started in every cycle, "
     "done (layers + 2) cycles later (docs/dqn.md, \"The parallel block\")."},
    {"routing", "dqn_npar", KeyFamily::Any, "integer", config_default<&Config::dqn_npar>,
     "1..256, product at most 1,024",
     "DQN-routing, `dqn_block = \"tiled\"` only: each layer multiplies `dqn_npar` neurons x `dqn_ipar` inputs per "
     "cycle. Sets a decision's latency and the interval between decisions (docs/dqn.md, \"Pipeline\"), and the "
     "block's area."},
    {"routing", "dqn_ipar", KeyFamily::Any, "integer", config_default<&Config::dqn_ipar>,
     "1..256, product at most 1,024", kInRowAbove},
    {"routing", "dqn_weights", KeyFamily::Any, "string", "none: a random network", "a weights file",
     "DQN-routing: the network `rlroute sim` programs into every router (relative to the config file's directory; "
     "`--weights` overrides it). Without it, an untrained random network seeded by `routing.seed`."},
    {"routing", "dqn_weights_mode", KeyFamily::Any, "string", config_default<&Config::dqn_weights_mode>,
     "`\"programmable\"`, `\"constant\"`",
     "DQN-routing: `\"programmable\"`: the block's weights are registers (or a memory) written through its "
     "programming port after reset. `\"constant\"` (`dqn_block = \"parallel\"` and `dqn_agent = \"block\"` "
     "only): the network (`dqn_weights`, `--weights`, else the random one) is built into the generated RTL, each "
     "product a shift-and-add of the weight's signed digits, zero weights gone, no programming port; the package "
     "names the weights file and its hash. Another network needs another model "
     "(docs/dqn.md, \"The parallel block\")."},
    {"routing", "dqn_agent", KeyFamily::Any, "string", config_default<&Config::dqn_agent>,
     "`\"block\"`, `\"external\"`",
     "DQN-routing: who proposes the actions. `\"block\"`: the inference block in every router (programmed through "
     "the programming port). `\"external\"`: no block; the router top has the agent port (`agent_req_o`, "
     "`agent_obs_o`, `agent_mask_o`, `agent_tag_o`, `agent_episode_o` and the rewards `agent_rew_valid_o`, "
     "`agent_rew_idx_o`, `agent_rew_dist_o`, `agent_rew_latency_o` out; `agent_done_i`, `agent_tag_i`, "
     "`agent_action_i`, `agent_action_valid_i` in) and `rlroute sim` answers it in the cycle of the request with the "
     "fixed-point network in software (docs/dqn.md, \"The agent port\")."},
    {"routing", "dqn_fallback", KeyFamily::Any, "string", config_default<&Config::dqn_fallback>,
     "`\"pdor\"`, `\"hop\"`",
     "DQN-routing: what a packet becomes when the DQN channel the agent proposed cannot take the whole packet now. "
     "`\"pdor\"` ([Lonardo 2019], Algorithm 2): it takes DOR's hop on the escape VCs with `Pdor` set and goes by DOR "
     "to its destination. `\"hop\"` (not in [Lonardo 2019]): it takes DOR's hop on the escape VCs with `Pdor` left "
     "clear, so the next router offers the DQN VC again; `Pdor` is then set by `dqn_hop_threshold` alone. "
     "Deadlock-free either way (Duato: the escape VCs stay DOR's; the generator's check proves it). docs/dqn.md, "
     "\"Pdor is for good\"."},
    {"routing", "dqn_dor_vcs", KeyFamily::Any, "string", config_default<&Config::dqn_dor_vcs>,
     "`\"escape\"`, `\"all\"`",
     "DQN-routing: the VCs a DOR hop may take (the fallback's hop, and every hop of a `Pdor` packet). `\"escape\"` "
     "([Lonardo 2019]): the escape VCs only. `\"all\"` (not in [Lonardo 2019]): also the DQN VC when it is free for "
     "the whole packet, as star-channel's DOR hops take its adaptive VC. Deadlock-free either way (Duato: the escape "
     "VCs stay DOR's and connected; the generator's check proves it). docs/dqn.md, \"DOR hops on the DQN VC\"."},
    {"routing", "dqn_episodes", KeyFamily::Any, "integer", config_default<&Config::dqn_episodes>,
     "0 or the router's ports..256",
     "DQN-routing: entries of each router's pending-episode table (an entry per packet with `ReqAck` the router "
     "routes, until its ack has gone upstream; each input port holds one free entry in reserve, so at least one per "
     "port). A head that finds it full is not tracked further (its `ReqAck` cleared, its chain cancelled upstream); "
     "docs/dqn.md, \"The episode unit\". 0: no table, no acks and no rewards: the inference-only router (the block "
     "does not learn; `rlroute train` needs entries), without the episode unit's area."},
    {"routing", "dqn_ack_ratio", KeyFamily::Any, "integer", config_default<&Config::dqn_ack_ratio>, "0..65535",
     "DQN-routing: each NIC sets `ReqAck` on one packet in this many (`AckRatio` of [Lonardo 2019]; the first packet "
     "included); 0: on none, so no episode opens and no reward comes."},
    // [sim]
    {"sim", "pattern", KeyFamily::Any, "string", sim_default<&SimDefaults::pattern>,
     "`\"uniform\"`, `\"transpose\"`, `\"bitcomp\"`, `\"bitrev\"`, `\"tornado\"`, `\"neighbor\"`, `\"hotspot\"`, "
     "`\"randperm\"`, and the patterns of docs/traffic.md",
     "Traffic pattern, as `rlroute::parse_traffic_spec` accepts it (the same text as `--pattern`)."},
    {"sim", "load", KeyFamily::Any, "number (float or integer)", sim_default<&SimDefaults::load>, "0 < load <= 1",
     "Offered load, flits/node/cycle."},
    {"sim", "packet_flits", KeyFamily::Any, "integer", sim_default<&SimDefaults::packet_flits>,
     "0, or `router.min_packet_flits`..`router.max_packet_flits`",
     "Fixed packet size in flits; 0 means `router.max_packet_flits`."},
    {"sim", "packet_flits_min", KeyFamily::Any, "integer", sim_default<&SimDefaults::packet_flits_min>,
     "0, or `router.min_packet_flits`..`packet_flits_max`",
     "With `packet_flits_max`: packet sizes drawn uniformly from min..max. Both 0 (no range) or both set."},
    {"sim", "packet_flits_max", KeyFamily::Any, "integer", sim_default<&SimDefaults::packet_flits_max>,
     "0, or `packet_flits_min`..`router.max_packet_flits`", "See `packet_flits_min`."},
    {"sim", "cycles", KeyFamily::Any, "integer", sim_default<&SimDefaults::cycles>, "1..2^40", "Measurement cycles."},
    {"sim", "warmup", KeyFamily::Any, "integer", sim_default<&SimDefaults::warmup>, "0..2^40",
     "Cycles before measurement starts."},
    {"sim", "drain", KeyFamily::Any, "integer", sim_default<&SimDefaults::drain>, "0..2^40",
     "Most cycles to wait, after measurement, for measured packets to arrive."},
    {"sim", "seed", KeyFamily::Any, "integer", sim_default<&SimDefaults::seed>, ">= 0", "Traffic generator seed."},
    {"sim", "hotspot_fraction", KeyFamily::Any, "number", sim_default<&SimDefaults::hotspot_fraction>, "0..1",
     "Share of traffic sent to the hotspot node (pattern `\"hotspot\"`)."},
    {"sim", "hotspot_node", KeyFamily::Any, "integer", sim_default<&SimDefaults::hotspot_node>, "0..nodes-1",
     "The hotspot node; nodes = product of `dims` x `nodes_per_router` (torus, mesh) or a x g x p (dragonfly)."},
    {"sim", "threads", KeyFamily::Any, "integer", sim_default<&SimDefaults::threads>, "1..256",
     "Threads that evaluate the harness fabric's routers (`--threads`; docs/architecture.md, \"Threads\"). The "
     "results are identical at every count; only the speed changes. The network fabric (`--fabric network`, "
     "`--trace`) runs on one thread whatever this says."},
});

}  // namespace

std::span<const ConfigKey> config_keys() { return kConfigKeys; }

std::vector<std::string_view> config_sections() {
  std::vector<std::string_view> sections;
  for (const ConfigKey& key : kConfigKeys) {
    if (sections.empty() || sections.back() != key.section) sections.push_back(key.section);
  }
  return sections;
}

std::vector<std::string_view> section_keys(std::string_view section) {
  std::vector<std::string_view> keys;
  for (const ConfigKey& key : kConfigKeys) {
    if (key.section == section) keys.push_back(key.name);
  }
  return keys;
}

}  // namespace config_detail

namespace {

using config_detail::ConfigKey;
using config_detail::KeyFamily;

// One key table of docs/config.md: the keys of a section (of one topology
// family's, if given).
struct KeyTable {
  std::string_view title;
  std::string_view section;
  std::optional<KeyFamily> family;
};

constexpr std::array<KeyTable, 7> kKeyTables{{
    {"[design]", "design", std::nullopt},
    {"[topology]", "topology", KeyFamily::Any},
    {"[topology] torus and mesh", "topology", KeyFamily::TorusMesh},
    {"[topology] dragonfly", "topology", KeyFamily::Dragonfly},
    {"[router]", "router", std::nullopt},
    {"[routing]", "routing", std::nullopt},
    {"[sim]", "sim", std::nullopt},
}};

struct Row {
  std::vector<std::string> keys, defaults;
  std::string_view type, range, meaning;
};

}  // namespace

std::string config_key_tables_markdown() {
  const Config defaults;
  std::string out;
  std::size_t keys_shown = 0;
  for (const KeyTable& table : kKeyTables) {
    std::vector<Row> rows;
    for (const ConfigKey& key : config_detail::config_keys()) {
      if (key.section != table.section || (table.family && key.family != *table.family)) continue;
      ++keys_shown;
      const std::string name = fmt::format("`{}`", key.name);
      if (key.meaning == config_detail::kInRowAbove) {
        if (rows.empty() || rows.back().type != key.type || rows.back().range != key.range) {
          throw std::logic_error(fmt::format("config key {}.{}: documented in the row above, which has another "
                                             "type or range",
                                             key.section, key.name));
        }
        rows.back().keys.push_back(name);
        rows.back().defaults.push_back(key.default_value.text(defaults));
        continue;
      }
      rows.push_back({{name}, {key.default_value.text(defaults)}, key.type, key.range, key.meaning});
    }
    out += fmt::format("{}<!-- BEGIN generated: {} keys -->\n", out.empty() ? "" : "\n", table.title);
    out += "| Key | Type | Default | Range | Meaning |\n|-----|------|---------|-------|---------|\n";
    for (const Row& row : rows) {
      out += fmt::format("| {} | {} | {} | {} | {} |\n", fmt::join(row.keys, ", "), row.type,
                         fmt::join(row.defaults, ", "), row.range, row.meaning);
    }
    out += "<!-- END generated -->\n";
  }
  if (keys_shown != config_detail::config_keys().size()) {
    throw std::logic_error("a config key belongs to none of docs/config.md's key tables");
  }
  return out;
}

}  // namespace rlroute
