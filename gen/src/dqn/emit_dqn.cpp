// The DQN-routing backend: a route unit per input port (rr_route_dor with DQN),
// the episode unit (the pending-episode table, the ack words on the credit
// words) and the DQN unit (the decisions at the head of the VC, and the
// inference block unless the agent is outside); the agent or programming
// ports of the tops; the package's DQN constants.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "../backend.hpp"
#include "../emit_parts.hpp"
#include "rlroute/gen/dqn_block.hpp"
#include "rlroute/gen/dqn_episodes.hpp"
#include "rlroute/ref/dqn_inference.hpp"

namespace rlroute::emit {

using sv::Connection;
using sv::Param;

namespace {

std::vector<Param> dqn_unit_params(const Design& d, const std::string& pkg, const DorRouteUnit& route) {
  const bool external = d.cfg.dqn_agent == DqnAgentKind::External;
  std::vector<Param> unit{{"P", "P", ""},
                          {"NUM_NI", pkg + "::NUM_NI", ""},
                          {"V", "V", ""},
                          {"B", pkg + "::BUFFER_FLITS", ""},
                          {"NUM_DIMS", pkg + "::NUM_DIMS", ""},
                          {"COORD_W", pkg + "::COORD_BITS", ""}};
  unit.insert(unit.end(), route.radices.begin(), route.radices.end());
  unit.push_back(route.torus);
  for (const Param& q : std::vector<Param>{{"LEN_W", pkg + "::HDR_LEN_W", ""},
                                           {"MAX_LEN", pkg + "::MAX_PACKET_FLITS", ""},
                                           {"NL", pkg + "::DQN_LAYERS", ""},
                                           {"SIZES", pkg + "::DQN_SIZES", ""},
                                           {"WB", pkg + "::DQN_WEIGHT_BITS", ""},
                                           {"AB", pkg + "::DQN_ACTIVATION_BITS", ""},
                                           {"ACCW", pkg + "::DQN_ACC_BITS", ""}}) {
    unit.push_back(q);
  }
  const DqnBlock block = dqn_block(d.cfg);
  if (block.parallel) {
    unit.push_back({"PARALLEL", "1'b1", "routing.dqn_block = \"parallel\""});
  } else {
    unit.push_back({"NPAR", pkg + "::DQN_NPAR", ""});
    unit.push_back({"IPAR", pkg + "::DQN_IPAR", ""});
  }
  if (block.constant) {
    unit.push_back({"CONST", "1'b1", "routing.dqn_weights_mode = \"constant\""});
    unit.push_back({"WEIGHTS", pkg + "::DQN_WEIGHTS", ""});
    unit.push_back({"BIASES", pkg + "::DQN_BIASES", ""});
    unit.push_back({"SHIFTS", pkg + "::DQN_SHIFTS", ""});
  }
  unit.push_back({"PROG_ADDR_W", pkg + "::DQN_PROG_ADDR_BITS", ""});
  unit.push_back({"AGENT", external ? "1'b1" : "1'b0", fmt::format("routing.dqn_agent = \"{}\"", to_string(d.cfg.dqn_agent))});
  unit.push_back({"EW", pkg + "::DQN_EPISODE_BITS", ""});
  return unit;
}

std::vector<Connection> dqn_unit_connections(const Design& d, const std::string& pkg) {
  const bool external = d.cfg.dqn_agent == DqnAgentKind::External;
  const bool constant = dqn_block(d.cfg).constant;
  std::vector<Connection> conns{{"clk_i", "", ""}, {"rst_ni", "", ""}, {"coord_i", "id_i", ""}};
  for (const Connection& c : head_decision_ports()) conns.push_back(c);
  for (const Connection& c : std::vector<Connection>{
           {"vc_busy_i", "vc_busy", ""}, {"vc_credits_i", "vc_credits", ""}, {"in_occ_i", "in_occ", ""}}) {
    conns.push_back(c);
  }
  for (const sv::Port& port : dqn_programming_ports(pkg)) {
    conns.push_back({port.name, external || constant ? "'0" : "",
                     external   ? "no inference block: nothing to program"
                     : constant ? "constant weights: nothing to program"
                                : ""});
  }
  conns.push_back({"busy_o", "unused_dqn_busy", "observability only"});
  conns.push_back({"decide_o", "dqn_decide", ""});
  conns.push_back({"decide_idx_o", "dqn_decide_idx", ""});
  return conns;
}

std::vector<Connection> episode_unit_connections(const std::string& pkg) {
  return {{"clk_i", "", ""},
          {"rst_ni", "", ""},
          {"now_i", "cycle_o[" + pkg + "::DQN_STAMP_BITS-1:0]", ""},
          {"coord_i", "id_i", ""},
          {"rc_valid_i", "rc_valid", ""},
          {"rc_hdr_i", "rc_hdr", ""},
          {"rc_port_i", "rc_out_port", ""},
          {"rc_hdr_route_i", "rc_hdr_route", ""},
          {"rc_hdr_o", "rc_hdr_new", ""},
          {"rc_entry_o", "rc_entry", ""},
          {"rc_entry_idx_o", "rc_entry_idx", ""},
          {"decide_i", "dqn_decide", ""},
          {"decide_idx_i", "dqn_decide_idx", ""},
          {"ack_i", "ack_in", ""},
          {"ack_o", "ack_out", ""}};
}

// The agent port on the two units: the router's ports (routing.dqn_agent =
// "external"), or the block's requests and the rewards, unused outside.
struct AgentWiring {
  std::vector<Connection> dqn_unit, episode_unit;
  std::string unused;      // sinks of what nobody reads
  std::string no_rewards;  // the reward ports tied off (no episode table, agent outside)
};

AgentWiring agent_wiring(const Design& d, const std::string& pkg) {
  const bool external = d.cfg.dqn_agent == DqnAgentKind::External;
  const bool episodes = dqn_episode_layout(d.cfg).enabled();
  AgentWiring w{dqn_unit_connections(d, pkg), episode_unit_connections(pkg), "", ""};
  std::vector<std::string> unused_names;
  for (const DqnPortSignal& sig : dqn_agent_signals(pkg)) {
    std::vector<Connection>& to = sig.reward ? w.episode_unit : w.dqn_unit;
    const std::string port = sig.reward ? sig.name.substr(std::string("agent_").size()) : sig.name;
    if (sig.reward && !episodes) {
      if (external) w.no_rewards += fmt::format("  assign {} = '0;\n", sig.name);
      continue;
    }
    if (external) {
      to.push_back({port, sig.name, ""});
    } else if (sig.direction == "input") {
      to.push_back({port, "'0", ""});
    } else {
      to.push_back({port, "unused_" + sig.name, sig.reward ? "the block does not learn" : "the block is the agent"});
      w.unused += sig.width == "1" ? fmt::format("  logic unused_{};\n", sig.name)
                                   : fmt::format("  logic [{}-1:0] unused_{};\n", sig.width, sig.name);
      unused_names.push_back("unused_" + sig.name);
    }
  }
  if (episodes) {
    w.episode_unit.push_back({"open_entries_o", "unused_dqn_entries", "observability only"});
    unused_names.push_back("unused_dqn_entries");
    w.unused += fmt::format("  logic [{}::DQN_EPISODES-1:0] unused_dqn_entries;\n", pkg);
  } else {
    unused_names.push_back("rc_valid");
    unused_names.push_back("dqn_decide");
    unused_names.push_back("dqn_decide_idx");
  }
  if (!unused_names.empty()) {
    w.unused += fmt::format("  logic unused_agent;\n  assign unused_agent = ^{{{}}};\n", fmt::join(unused_names, ", "));
  }
  return w;
}

// With a pending-episode table the credit words carry its ack words, and the
// episode unit writes the entry into the header; without one
// (routing.dqn_episodes = 0) neither, and no reward comes.
std::string credit_wiring(const Design& d, const std::string& pkg, const std::string& no_rewards) {
  const std::string aw = pkg + "::DQN_ACK_BITS";
  if (!dqn_episode_layout(d.cfg).enabled()) {
    return "  // routing.dqn_episodes = 0: no pending-episode table, so no acks on the\n"
           "  // credit words, no entry in the header and no rewards (inference only).\n"
           "  assign core_credit_i = credit_i;\n"
           "  assign credit_o = core_credit_o;\n"
           "  assign rc_hdr_new = rc_hdr_route;\n"
           "  assign rc_entry = '0;\n"
           "  assign rc_entry_idx = '0;\n" + no_rewards;
  }
  return "  // The credit words carry the episodes' ack words above {vc, valid}.\n"
         "  logic [P*" + aw + "-1:0] ack_in, ack_out;\n" +
         credit_sideband_wiring("ack_in", "ack_out", aw);
}

std::string episode_unit(const Design& d, const std::string& pkg, const DorRouteUnit& route,
                         const std::vector<Connection>& connections) {
  if (!dqn_episode_layout(d.cfg).enabled()) return "";
  return sv::instance("rr_dqn_episode_unit", "i_episodes",
                      {{"P", "P", ""},
                       {"NUM_NI", pkg + "::NUM_NI", ""},
                       {"W", "W", ""},
                       {"E", pkg + "::DQN_EPISODES", "routing.dqn_episodes"},
                       {"STAMP_W", pkg + "::DQN_STAMP_BITS", ""},
                       {"DIST_W", pkg + "::DQN_DISTANCE_BITS", ""},
                       {"NUM_DIMS", pkg + "::NUM_DIMS", ""},
                       {"COORD_W", pkg + "::COORD_BITS", ""},
                       route.radices[0], route.radices[1], route.radices[2], route.torus,
                       {"LOCAL_W", pkg + "::LOCAL_BITS", ""},
                       {"DST_LSB", pkg + "::HDR_DST_LSB", ""},
                       {"REQ_ACK_LSB", pkg + "::HDR_REQ_ACK_LSB", ""},
                       {"EPISODE_LSB", pkg + "::HDR_EPISODE_LSB", ""}},
                      connections, "  ");
}

// rr_route_dor with DQN: the hop threshold and Pdor; its header goes to the
// episode unit (rc_hdr_route), which writes the entry into it.
DorRouteUnit dqn_route_unit(const Design& d, const std::string& pkg) {
  DorRouteUnit u = dor_route_unit(d, pkg);
  const std::string algorithm_key = fmt::format("routing.algorithm = \"{}\"", to_string(d.cfg.algorithm));
  u.params.push_back({"DQN", "1'b1", algorithm_key});
  u.params.push_back({"HOP_THRESHOLD", pkg + "::DQN_HOP_THRESHOLD", ""});
  if (d.cfg.dqn_dor_vcs == DqnDorVcs::All) u.params.push_back({"DOR_ON_DQN_VC", "1'b1", "routing.dqn_dor_vcs = \"all\""});
  u.params.push_back({"HOPS_LSB", pkg + "::HDR_HOPS_LSB", ""});
  u.params.push_back({"HOPS_W", pkg + "::HDR_HOPS_W", ""});
  u.params.push_back({"PDOR_LSB", pkg + "::HDR_PDOR_LSB", ""});
  u.ports.back() = {"hdr_o", "rc_hdr_route[p*W +: W]", "Pdor set when the DQN VC is closed"};
  return u;
}

std::string dqn_route_units(const Design& d, const RoutingRelation&) {
  const std::string pkg = d.module("pkg");
  const std::string ew = pkg + "::DQN_EPISODE_BITS";
  const DorRouteUnit route = dqn_route_unit(d, pkg);
  const AgentWiring agent = agent_wiring(d, pkg);
  return "  // DQN-routing (routing.algorithm = \"dqn\"): VC V-1 the DQN VC, VCs 0..V-2 the\n"
         "  // DOR escape; one route unit per input port, one episode unit (the pending-\n"
         "  // episode table and the acks, when routing.dqn_episodes > 0) and one DQN unit\n"
         "  // (the inference block and the decisions at the head of the VC) per router.\n"
         "  logic unused_hd;\n"
         "  logic [P*V-1:0] unused_dqn_busy;\n"
         "  assign unused_hd = ^hd_alt_port;  // the alternative is DOR's port, the one presented\n"
         "  logic [P*W-1:0] rc_hdr_route;\n"
         "  logic [P-1:0] rc_entry, dqn_decide;\n"
         "  logic [P*" + ew + "-1:0] rc_entry_idx, dqn_decide_idx;\n" +
         credit_wiring(d, pkg, agent.no_rewards) +
         "  for (genvar p = 0; p < P; p++) begin : gen_rc\n" +
         sv::instance("rr_route_dor", "i_route", route.params, route.ports, "    ") +
         "    // The decision's operands: {the packet's input VC, the episode entry it\n"
         "    // opened, its length, its destination's coordinates}.\n"
         "    assign rc_operands[p*DOW +: DOW] = {rc_in_vc[p*VCW +: VCW], rc_entry[p], rc_entry_idx[p*" + ew + " +: " + ew + "],\n"
         "                                        rc_hdr[p*W + " + pkg + "::HDR_LEN_LSB +: " + pkg + "::HDR_LEN_W],\n"
         "                                        rc_hdr[p*W + " + pkg + "::HDR_DST_LSB + " + pkg + "::LOCAL_BITS +: " + pkg +
         "::NUM_DIMS*" + pkg + "::COORD_BITS]};\n"
         "  end\n" +
         agent.unused + episode_unit(d, pkg, route, agent.episode_unit) +
         sv::instance("rr_dqn_unit", "i_dqn", dqn_unit_params(d, pkg, route), agent.dqn_unit, "  ");
}

std::vector<std::string> dqn_blocks(const Design& d) {
  // Both blocks: the unit names both (one in each branch of its generate).
  std::vector<std::string> blocks{"rr_route_dor.sv",          "rr_dqn_activate.sv",       "rr_dqn_argmax.sv",
                                  "rr_dqn_layer.sv",          "rr_dqn_infer.sv",          "rr_dqn_layer_parallel.sv",
                                  "rr_dqn_infer_parallel.sv", "rr_dqn_unit.sv"};
  if (dqn_episode_layout(d.cfg).enabled()) {
    blocks.push_back("rr_dqn_episodes.sv");  // the pending-episode table and the acks
    blocks.push_back("rr_dqn_episode_unit.sv");
  }
  return blocks;
}

PackagePart dqn_package_part(const Design& d) {
  PackagePart part;
  auto param = [&part](const std::string& name, long value, const std::string& comment) {
    part.params.push_back({name, std::to_string(value), comment});
  };
  const DqnBlock b = dqn_block(d.cfg);
  param("DQN_HOP_THRESHOLD", d.cfg.dqn_hop_threshold, "routing.dqn_hop_threshold: no DQN hop from this hop count on");
  param("DQN_LAYERS", b.layers(), "layers of the inference block (routing.dqn_hidden, then the Q-values)");
  param("DQN_WEIGHT_BITS", b.weight_bits, "routing.dqn_weight_bits");
  param("DQN_ACTIVATION_BITS", b.activation_bits, "routing.dqn_activation_bits");
  param("DQN_ACC_BITS", b.accumulator_bits(), "accumulator, bias and Q-value bits");
  if (!b.parallel) {
    param("DQN_NPAR", b.npar, "routing.dqn_npar: neurons per cycle");
    param("DQN_IPAR", b.ipar, "routing.dqn_ipar: inputs per cycle");
  }
  param("DQN_PROG_LAYER_BITS", b.layer_bits(), "programming port: layer select");
  param("DQN_PROG_ADDR_BITS", b.address_bits(), "programming port: weight word or neuron");
  param("DQN_PROG_DATA_BITS", b.data_bits(), "programming port: a weight word or a bias");
  param("DQN_DECISION_CYCLES", b.latency_cycles(), "an inference, start to done");
  param("DQN_INTERVAL_CYCLES", b.interval_cycles(), "between two inferences the block starts");
  const DqnAgentPort agent = dqn_agent_port(d);
  param("DQN_AGENT_EXTERNAL", d.cfg.dqn_agent == DqnAgentKind::External, "routing.dqn_agent: the agent port leaves the router");
  param("DQN_OBS_BITS", agent.obs_values * agent.activation_bits, "agent port: an observation");
  param("DQN_ACTIONS", agent.actions, "agent port: actions (network ports), mask bits");
  param("DQN_TAG_BITS", agent.tag_bits, "agent port: a decision's tag (its input VC)");
  param("DQN_ACTION_BITS", agent.action_bits, "agent port: an action");
  const DqnEpisodeLayout episodes = dqn_episode_layout(d.cfg);
  param("DQN_EPISODES", episodes.entries, "routing.dqn_episodes: entries of the pending-episode table");
  param("DQN_EPISODE_BITS", episodes.index_bits, "an entry's index (header field episode)");
  param("DQN_STAMP_BITS", episodes.stamp_bits, "an episode's timestamps, cycles modulo 2^DQN_STAMP_BITS");
  param("DQN_DISTANCE_BITS", episodes.distance_bits, "an episode's distance, hops");
  param("DQN_ACK_BITS", episodes.ack_bits(), "an ack word {valid, cancel, index, timestamp} on the credit channel");
  std::string hex;
  for (int l = 4; l >= 0; --l) hex += fmt::format("{:04x}", l <= b.layers() ? b.sizes[static_cast<size_t>(l)] : 0);
  part.text = fmt::format(
      "  // The inference block's widths, 16 bits each, LSB first: the observation,\n"
      "  // routing.dqn_hidden, the Q-values (one per network port).\n"
      "  localparam logic [79:0] DQN_SIZES = 80'h{};\n",
      hex);
  if (b.constant) part.text += dqn_constants_sv(d.cfg);
  return part;
}

// One programming port for every router's inference block (the same network
// everywhere), or router r's slice of the network top's agent port.
std::vector<Connection> dqn_network_connections(const Design& d, const std::string& r) {
  std::vector<Connection> ports;
  if (d.cfg.dqn_agent == DqnAgentKind::Block) {
    if (dqn_block(d.cfg).constant) return ports;  // nothing to program
    for (const sv::Port& port : dqn_programming_ports(d.module("pkg"))) ports.push_back({port.name, "", ""});
    return ports;
  }
  for (const DqnPortSignal& sig : dqn_agent_signals(d.module("pkg"))) {
    ports.push_back({sig.name, sig.width == "1" ? fmt::format("{}[{}]", sig.name, r)
                                                : fmt::format("{}[{}*{} +: {}]", sig.name, r, sig.width, sig.width),
                     ""});
  }
  return ports;
}

// {the packet's input VC, the episode entry it opened, its destination's
// coordinates, its length}
std::string dqn_operands_width(const Design& d) {
  const std::string pkg = d.module("pkg");
  return "VCW + 1 + " + pkg + "::DQN_EPISODE_BITS + " + pkg + "::NUM_DIMS * " + pkg + "::COORD_BITS + " + pkg +
         "::HDR_LEN_W";
}

RouterTopNeeds dqn_needs(const Design&) {
  return {.credit_sideband = true, .decision = true, .vc_state = true, .input_occupancy = true, .arriving_heads = true};
}

}  // namespace

const BackendEmitter& dqn_backend() {
  static const BackendEmitter b{dqn_blocks,         dqn_package_part, dqn_top_ports, dqn_network_connections,
                                dqn_operands_width, dqn_route_units,  dqn_needs};
  return b;
}

std::vector<DqnPortSignal> dqn_agent_signals(const std::string& pkg) {
  const std::string ports = pkg + "::NUM_PORTS";
  return {{"output", "agent_req_o", "1", "the agent port (rr_dqn_unit): a decision starts"},
          {"output", "agent_obs_o", pkg + "::DQN_OBS_BITS", "its observation, DQN_ACTIVATION_BITS per value"},
          {"output", "agent_mask_o", pkg + "::DQN_ACTIONS", "the actions allowed"},
          {"output", "agent_tag_o", pkg + "::DQN_TAG_BITS", "its tag (the input VC)"},
          {"output", "agent_episode_o", "(" + pkg + "::DQN_EPISODE_BITS + 1)", "{the head opened an episode entry, its index}"},
          {"input", "agent_done_i", "1", "an answer: the action for the decision with agent_tag_i"},
          {"input", "agent_tag_i", pkg + "::DQN_TAG_BITS", ""},
          {"input", "agent_action_i", pkg + "::DQN_ACTION_BITS", ""},
          {"input", "agent_action_valid_i", "1", "0: no action (the packet escapes to DOR)"},
          {"output", "agent_rew_valid_o", ports, "rewards (rr_dqn_episode_unit), a lane per output port", true},
          {"output", "agent_rew_idx_o", ports + "*" + pkg + "::DQN_EPISODE_BITS", "the decided entry", true},
          {"output", "agent_rew_dist_o", ports + "*" + pkg + "::DQN_DISTANCE_BITS", "its distance, hops", true},
          {"output", "agent_rew_latency_o", ports + "*" + pkg + "::DQN_STAMP_BITS",
           "cycles from its opening to the packet's arrival", true}};
}

std::vector<sv::Port> dqn_top_ports(const Design& d, const std::string& multiple) {
  const std::string pkg = d.module("pkg");
  std::vector<sv::Port> ports;
  if (d.cfg.dqn_agent == DqnAgentKind::External) {
    for (const DqnPortSignal& s : dqn_agent_signals(pkg)) {
      const std::string width = multiple.empty() ? s.width : multiple + "*" + s.width;
      ports.push_back({s.direction, width == "1" ? "" : width + "-1:0", s.name, s.comment});
    }
    return ports;
  }
  if (dqn_block(d.cfg).constant) return ports;  // nothing to program
  return dqn_programming_ports(pkg);
}

std::vector<sv::Port> dqn_programming_ports(const std::string& pkg) {
  return {{"input", "", "prog_we_i", "DQN inference block's programming port (rr_dqn_infer): a write"},
          {"input", pkg + "::DQN_PROG_LAYER_BITS-1:0", "prog_layer_i", "the layer"},
          {"input", "rr_pkg::DQN_PROG_KIND_W-1:0", "prog_kind_i", "rr_pkg::DQN_PROG_WEIGHT / _BIAS / _SHIFT"},
          {"input", pkg + "::DQN_PROG_ADDR_BITS-1:0", "prog_addr_i", "the weight word or the neuron"},
          {"input", pkg + "::DQN_PROG_DATA_BITS-1:0", "prog_data_i", "the word, the bias or the shift"}};
}

}  // namespace rlroute::emit
