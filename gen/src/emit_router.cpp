// Emits the router top of a design: the rr_router core plus the route-compute
// units of the configured topology family and algorithm.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>

#include "emit_parts.hpp"
#include "rlroute/gen/dqn_episodes.hpp"
#include "rlroute/gen/pipeline.hpp"
#include "rlroute/gen/q_codes.hpp"
#include "rlroute/gen/q_table_layout.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"
#include "sv_writer.hpp"

namespace rlroute::emit {

std::string algorithm_constant(RoutingAlgorithm algorithm) {
  std::string name(traits(algorithm).name);
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return "rr_pkg::ALGO_" + name;
}

namespace {

using sv::Connection;
using sv::Param;

// The per-port slices every route unit connects to.
std::vector<Connection> route_unit_ports() {
  return {{"hdr_i", "rc_hdr[p*W +: W]", ""},
          {"in_port_i", "PW'(p)", ""},
          {"in_vc_i", "rc_in_vc[p*VCW +: VCW]", ""},
          {"out_port_o", "rc_out_port[p*PW +: PW]", ""},
          {"out_vcs_o", "rc_out_vcs[p*V +: V]", ""}};
}

// The head-decision interface a choosing decision unit (Q-adaptive's,
// DQN-routing's) connects to: the presentations and the answers.
std::vector<Connection> head_decision_ports() {
  return {{"hd_valid_i", "hd_valid", ""},   {"hd_fresh_i", "hd_fresh", ""},   {"hd_port_i", "hd_port", ""},
          {"hd_operands_i", "hd_operands", ""}, {"hd_ready_o", "hd_ready", ""}, {"hd_choice_o", "hd_choice", ""},
          {"hd_alt_o", "hd_alt", ""},       {"hd_patch_o", "hd_patch", ""}};
}

// DQN-routing's units of a router top: a route unit per input port (rr_route_dor
// with DQN, its header into rc_hdr_route), the episode unit (the pending-episode
// table, the ack words on the credit words, rc_hdr_route -> rc_hdr_new) and the
// DQN unit (the decisions at the head of the VC, and the inference block unless
// the agent is outside).
std::string dqn_units(const Design& d, const std::string& pkg, const std::vector<Param>& route_params,
                      const std::vector<Connection>& route_ports, const std::vector<Param>& radices, const Param& torus) {
  const bool external = d.cfg.dqn_agent == DqnAgentKind::External;
  const bool episodes = dqn_episode_layout(d.cfg).enabled();
  std::vector<Param> unit{{"P", "P", ""},
                          {"NUM_NI", pkg + "::NUM_NI", ""},
                          {"V", "V", ""},
                          {"B", pkg + "::BUFFER_FLITS", ""},
                          {"NUM_DIMS", pkg + "::NUM_DIMS", ""},
                          {"CW", pkg + "::COORD_BITS", ""}};
  unit.insert(unit.end(), radices.begin(), radices.end());
  unit.push_back(torus);
  for (const Param& q : std::vector<Param>{{"LEN_W", pkg + "::HDR_LEN_W", ""},
                                           {"MAX_LEN", pkg + "::MAX_PACKET_FLITS", ""},
                                           {"NL", pkg + "::DQN_LAYERS", ""},
                                           {"SIZES", pkg + "::DQN_SIZES", ""},
                                           {"WB", pkg + "::DQN_WEIGHT_BITS", ""},
                                           {"AB", pkg + "::DQN_ACTIVATION_BITS", ""},
                                           {"ACCW", pkg + "::DQN_ACC_BITS", ""},
                                           {"NPAR", pkg + "::DQN_NPAR", ""},
                                           {"IPAR", pkg + "::DQN_IPAR", ""},
                                           {"AW", pkg + "::DQN_PROG_ADDR_BITS", ""}}) {
    unit.push_back(q);
  }
  unit.push_back({"AGENT", external ? "1'b1" : "1'b0", fmt::format("routing.dqn_agent = \"{}\"", to_string(d.cfg.dqn_agent))});
  unit.push_back({"EW", pkg + "::DQN_EPISODE_BITS", ""});
  std::vector<Connection> conns{{"clk_i", "", ""}, {"rst_ni", "", ""}, {"coord_i", "id_i", ""}};
  for (const Connection& c : head_decision_ports()) conns.push_back(c);
  for (const Connection& c : std::vector<Connection>{
           {"vc_busy_i", "vc_busy", ""}, {"vc_credits_i", "vc_credits", ""}, {"in_occ_i", "in_occ", ""}}) {
    conns.push_back(c);
  }
  for (const sv::Port& port : dqn_programming_ports(pkg)) {
    conns.push_back({port.name, external ? "'0" : "", external ? "no inference block: nothing to program" : ""});
  }
  conns.push_back({"busy_o", "unused_dqn_busy", "observability only"});
  conns.push_back({"decide_o", "dqn_decide", ""});
  conns.push_back({"decide_idx_o", "dqn_decide_idx", ""});
  std::vector<Connection> episode_conns{{"clk_i", "", ""},
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
  // The agent port: the router's ports (routing.dqn_agent = "external"), or
  // the block's requests and the rewards, unused outside.
  std::string unused_agent, no_rewards;
  std::vector<std::string> unused_names;
  for (const DqnPortSignal& sig : dqn_agent_signals(pkg)) {
    std::vector<Connection>& to = sig.reward ? episode_conns : conns;
    const std::string port = sig.reward ? sig.name.substr(std::string("agent_").size()) : sig.name;
    if (sig.reward && !episodes) {
      if (external) no_rewards += fmt::format("  assign {} = '0;\n", sig.name);
      continue;
    }
    if (external) {
      to.push_back({port, sig.name, ""});
    } else if (sig.direction == "input") {
      to.push_back({port, "'0", ""});
    } else {
      to.push_back({port, "unused_" + sig.name, sig.reward ? "the block does not learn" : "the block is the agent"});
      unused_agent += sig.width == "1" ? fmt::format("  logic unused_{};\n", sig.name)
                                       : fmt::format("  logic [{}-1:0] unused_{};\n", sig.width, sig.name);
      unused_names.push_back("unused_" + sig.name);
    }
  }
  if (episodes) {
    episode_conns.push_back({"open_entries_o", "unused_dqn_entries", "observability only"});
    unused_names.push_back("unused_dqn_entries");
    unused_agent += fmt::format("  logic [{}::DQN_EPISODES-1:0] unused_dqn_entries;\n", pkg);
  } else {
    unused_names.push_back("rc_valid");
    unused_names.push_back("dqn_decide");
    unused_names.push_back("dqn_decide_idx");
  }
  if (!unused_names.empty()) {
    unused_agent += fmt::format("  logic unused_agent;\n  assign unused_agent = ^{{{}}};\n", fmt::join(unused_names, ", "));
  }
  const std::string ew = pkg + "::DQN_EPISODE_BITS";
  const std::string aw = pkg + "::DQN_ACK_BITS";
  // With a pending-episode table the credit words carry its ack words, and
  // the episode unit writes the entry into the header; without one
  // (routing.dqn_episodes = 0) neither, and no reward comes.
  const std::string episode_wiring =
      episodes ? "  // The credit words carry the episodes' ack words above {vc, valid}.\n"
                 "  logic [P*" + aw + "-1:0] ack_in, ack_out;\n"
                 "  for (genvar p = 0; p < P; p++) begin : gen_credit_words\n"
                 "    assign core_credit_i[p*CCW +: CCW] = credit_i[p*CRW +: CCW];\n"
                 "    assign ack_in[p*" + aw + " +: " + aw + "] = credit_i[p*CRW + CCW +: " + aw + "];\n"
                 "    assign credit_o[p*CRW +: CRW] = {ack_out[p*" + aw + " +: " + aw + "], core_credit_o[p*CCW +: CCW]};\n"
                 "  end\n"
               : "  // routing.dqn_episodes = 0: no pending-episode table, so no acks on the\n"
                 "  // credit words, no entry in the header and no rewards (inference only).\n"
                 "  assign core_credit_i = credit_i;\n"
                 "  assign credit_o = core_credit_o;\n"
                 "  assign rc_hdr_new = rc_hdr_route;\n"
                 "  assign rc_entry = '0;\n"
                 "  assign rc_entry_idx = '0;\n" + no_rewards;
  const std::string episode_unit =
      episodes ? sv::instance("rr_dqn_episode_unit", "i_episodes",
                              {{"P", "P", ""},
                               {"NUM_NI", pkg + "::NUM_NI", ""},
                               {"W", "W", ""},
                               {"E", pkg + "::DQN_EPISODES", "routing.dqn_episodes"},
                               {"TSW", pkg + "::DQN_STAMP_BITS", ""},
                               {"DW", pkg + "::DQN_DISTANCE_BITS", ""},
                               {"NUM_DIMS", pkg + "::NUM_DIMS", ""},
                               {"CW", pkg + "::COORD_BITS", ""},
                               radices[0], radices[1], radices[2], torus,
                               {"LOCAL_W", pkg + "::LOCAL_BITS", ""},
                               {"DST_LSB", pkg + "::HDR_DST_LSB", ""},
                               {"REQ_ACK_LSB", pkg + "::HDR_REQ_ACK_LSB", ""},
                               {"EPISODE_LSB", pkg + "::HDR_EPISODE_LSB", ""}},
                              episode_conns, "  ")
               : "";
  return "  // DQN-routing (routing.algorithm = \"dqn\"): VC V-1 the DQN VC, VCs 0..V-2 the\n"
         "  // DOR escape; one route unit per input port, one episode unit (the pending-\n"
         "  // episode table and the acks, when routing.dqn_episodes > 0) and one DQN unit\n"
         "  // (the inference block and the decisions at the head of the VC) per router.\n"
         "  logic [P*OW-1:0] unused_occ;\n"
         "  assign unused_occ = occ;\n"
         "  logic unused_hd;\n"
         "  logic [P*V-1:0] unused_dqn_busy;\n"
         "  assign unused_hd = ^hd_alt_port;  // the alternative is DOR's port, the one presented\n"
         "  logic [P*W-1:0] rc_hdr_route;\n"
         "  logic [P-1:0] rc_entry, dqn_decide;\n"
         "  logic [P*" + ew + "-1:0] rc_entry_idx, dqn_decide_idx;\n" +
         episode_wiring +
         "  for (genvar p = 0; p < P; p++) begin : gen_rc\n" +
         sv::instance("rr_route_dor", "i_route", route_params, route_ports, "    ") +
         "    // The decision's operands: {the packet's input VC, the episode entry it\n"
         "    // opened, its length, its destination's coordinates}.\n"
         "    assign rc_operands[p*DOW +: DOW] = {rc_in_vc[p*VCW +: VCW], rc_entry[p], rc_entry_idx[p*" + ew + " +: " + ew + "],\n"
         "                                        rc_hdr[p*W + " + pkg + "::HDR_LEN_LSB +: " + pkg + "::HDR_LEN_W],\n"
         "                                        rc_hdr[p*W + " + pkg + "::HDR_DST_LSB + " + pkg + "::LOCAL_BITS +: " + pkg +
         "::NUM_DIMS*" + pkg + "::COORD_BITS]};\n"
         "  end\n" +
         unused_agent + episode_unit + sv::instance("rr_dqn_unit", "i_dqn", unit, conns, "  ");
}

std::string torus_route_units(const Design& d, const std::string& pkg) {
  const Topology& t = d.topo;
  const bool star = d.cfg.algorithm == RoutingAlgorithm::Star;
  const bool dqn = d.cfg.algorithm == RoutingAlgorithm::Dqn;
  const std::string algorithm_key = fmt::format("routing.algorithm = \"{}\"", to_string(d.cfg.algorithm));
  std::vector<Param> params{{"P", "P", ""},
                            {"V", "V", ""},
                            {"W", "W", ""},
                            {"NUM_NI", pkg + "::NUM_NI", ""},
                            {"NUM_DIMS", pkg + "::NUM_DIMS", ""},
                            {"CW", pkg + "::COORD_BITS", ""}};
  std::vector<Param> radices;
  for (int dim = 0; dim < 3; ++dim) {
    radices.push_back({fmt::format("K{}", dim), std::to_string(dim < t.num_dims() ? t.radix(dim) : 1),
                       dim < t.num_dims() ? fmt::format("topology.dims[{}]", dim) : "unused dimension"});
  }
  const Param torus{"TORUS", t.torus() ? "1'b1" : "1'b0", fmt::format("topology.kind = \"{}\"", to_string(d.cfg.kind))};
  params.insert(params.end(), radices.begin(), radices.end());
  params.push_back(torus);
  params.push_back({"LOCAL_W", pkg + "::LOCAL_BITS", ""});
  params.push_back({"DST_LSB", pkg + "::HDR_DST_LSB", ""});
  params.push_back({"STAR", star ? "1'b1" : "1'b0", algorithm_key});
  if (dqn) {
    params.push_back({"DQN", "1'b1", algorithm_key});
    params.push_back({"THR", pkg + "::DQN_HOP_THRESHOLD", ""});
    params.push_back({"HOPS_LSB", pkg + "::HDR_HOPS_LSB", ""});
    params.push_back({"HOPS_W", pkg + "::HDR_HOPS_W", ""});
    params.push_back({"PDOR_LSB", pkg + "::HDR_PDOR_LSB", ""});
  }
  std::vector<Connection> ports{{"coord_i", "id_i", ""}};
  for (const Connection& c : route_unit_ports()) ports.push_back(c);
  ports.push_back({"alt_port_o", "rc_alt_port[p*PW +: PW]", ""});
  ports.push_back({"alt_vcs_o", "rc_alt_vcs[p*V +: V]", ""});
  ports.push_back({"decide_o", "rc_decide[p]", ""});
  ports.push_back({"hdr_o", dqn ? "rc_hdr_route[p*W +: W]" : "rc_hdr_new[p*W +: W]",
                   dqn ? "Pdor set when the DQN VC is closed" : "DOR and star leave the header as it is"});
  std::string s = "  logic [P*DW-1:0] unused_dem;\n"
                  "  assign unused_dem = dem;\n";
  if (dqn) return s + dqn_units(d, pkg, params, ports, radices, torus);
  if (!star) {
    s = "  // Dimension-order routing (routing.algorithm = \"dor\"), one unit per input port.\n" + s +
        "  // DOR decides at buffer write: no head decisions.\n"
        "  assign rc_operands = '0;\n"
        "  assign hd_alt = '0;\n"
        "  assign hd_ready = '1;\n"
        "  assign hd_choice = '0;\n"
        "  assign hd_patch = '0;\n"
        "  logic unused_hd;\n"
        "  assign unused_hd = ^{hd_valid, hd_port, hd_alt_port, hd_operands, hd_fresh};\n"
        "  logic [P*OW-1:0] unused_occ;\n"
        "  assign unused_occ = occ;\n"
        "  for (genvar p = 0; p < P; p++) begin : gen_rc\n" +
        sv::instance("rr_route_dor", "i_route", params, ports, "    ") + "  end\n";
    return s;
  }
  s = "  // Star-channel routing (routing.algorithm = \"star\"): VC V-1 adaptive, VCs\n"
      "  // 0..V-2 the DOR escape; one route unit and one decision unit per input port.\n" + s +
      "  assign hd_ready = '1;  // the decision unit takes every presentation\n"
      "  assign hd_choice = '0;\n"
      "  assign hd_patch = '0;\n"
      "  logic unused_hd;\n"
      "  assign unused_hd = ^{hd_valid, hd_fresh};  // the decision unit is combinational\n"
      "  for (genvar p = 0; p < P; p++) begin : gen_rc\n" +
      sv::instance("rr_route_dor", "i_route", params, ports, "    ") +
      "    // The packet's length: the decision asks for credits for all of it.\n"
      "    assign rc_operands[p*DOW +: DOW] = rc_hdr[p*W + " + pkg + "::HDR_LEN_LSB +: " + pkg + "::HDR_LEN_W];\n" +
      sv::instance("rr_star_decide", "i_decide",
                   {{"P", "P", ""}, {"V", "V", ""}, {"CW", "CNW", ""}, {"OW", "OW", ""}, {"LEN_W", pkg + "::HDR_LEN_W", ""}},
                   {{"port_i", "hd_port[p*PW +: PW]", ""},
                    {"alt_port_i", "hd_alt_port[p*PW +: PW]", ""},
                    {"len_i", "hd_operands[p*DOW +: DOW]", ""},
                    {"vc_busy_i", "vc_busy", ""},
                    {"vc_credits_i", "vc_credits", ""},
                    {"occ_i", "occ", ""},
                    {"alt_o", "hd_alt[p]", ""}},
                   "    ") +
      "  end\n";
  return s;
}

// The input ports that get a decision unit: where a packet's choice between
// the minimal and the non-minimal route can be open (port 0 in the LSB).
std::string head_ports_localparam(const Design& d, const DragonflyRouting& dfly) {
  const int ports = d.topo.num_ports();
  std::string bits;
  for (int p = ports - 1; p >= 0; --p) bits += dfly.decides_at(p) ? '1' : '0';
  const bool par = traits(d.cfg.algorithm).choice == PathChoice::AtSourceGroup;
  return fmt::format("  // Input ports at which the minimal/non-minimal choice can be open (the\n"
                     "  // NI ports{}): only these get the decision hardware.\n"
                     "  localparam logic [P-1:0] HEAD_PORTS = {}'b{};\n\n",
                     par ? ", and for PAR the local ports" : "", ports, bits);
}

// The VC allocator's REQ_MAP as a readable localparam: one row per output VC,
// the output VC named, its possible requesters as bits and counted.
std::string vc_request_map_localparam(const Design& d, const VcRequestMap& requests) {
  const Topology& t = d.topo;
  const int r_all = requests.size();
  std::string s =
      "  // The requests the VC allocator can ever see (rr_vc_alloc REQ_MAP), from\n"
      "  // the generator's walk over every path of the routing relation: in the\n"
      "  // row of output VC o (port * V + vc), bit r is set if input VC r can ask\n"
      "  // for it on some router. The last output VC's row first; in a row, the\n"
      "  // last input VC first.\n"
      "  localparam bit [P*V*P*V-1:0] VA_REQ_MAP = {\n";
  for (int o = r_all - 1; o >= 0; --o) {
    std::string bits;
    for (int in = r_all - 1; in >= 0; --in) bits += requests.allows(o, in) ? '1' : '0';
    s += fmt::format("    {}'b{}{}  // {}.vc{}: {} of {}\n", r_all, bits, o > 0 ? "," : " ",
                     t.port_name(0, o / d.vcs), o % d.vcs, requests.requesters(o), r_all);
  }
  return s + "  };\n\n";
}

// Q-adaptive's unit's connections: the LFSR seed, the head decisions, the
// feedback and the table's initial values.
std::vector<Connection> q_unit_ports(const Design& d) {
  std::vector<Connection> ports{{"clk_i", "", ""},
                                {"rst_ni", "", ""},
                                {"seed_i", fmt::format("16'({}) ^ (16'(id_i) * 16'h9E37) ^ 16'h51ED", d.cfg.seed & 0xffff),
                                 "routing.seed (low 16 bits) and the router"}};
  for (const Connection& c : head_decision_ports()) ports.push_back(c);
  for (const Connection& c : std::vector<Connection>{{"fb_o", "fb_out", ""},
                                                     {"fb_i", "fb_in", ""},
                                                     {"init_row_o", "q_init_row", ""},
                                                     {"init_value_i", "q_init_value[0 +: C*QW]",
                                                      "port 0's route unit gives the initial values"},
                                                     {"ready_o", "q_ready", ""},
                                                     {"fb_drop_o", "q_fb_drop", ""}}) {
    ports.push_back(c);
  }
  return ports;
}

// Q-adaptive's unit (rtl/rr_q_unit.sv): the table, the decisions at the head
// of the VC and the feedback on the credit words.
std::string q_unit(const Design& d, const std::string& pkg) {
  const QCodes codes = q_codes(d.cfg);
  const int read_ports = d.cfg.q_read_ports > 0 ? d.cfg.q_read_ports : d.ports;
  std::string s =
      "  // Q-adaptive: the credit words carry the feedback above {vc, valid}.\n"
      ""
      "  localparam int unsigned FBW = rr_pkg::q_feedback_width(Q_ROWS, QW);\n"
      "  logic [P*FBW-1:0] fb_in, fb_out;\n"
      "  for (genvar p = 0; p < P; p++) begin : gen_credit_words\n"
      "    assign core_credit_i[p*CCW +: CCW] = credit_i[p*CRW +: CCW];\n"
      "    assign fb_in[p*FBW +: FBW] = credit_i[p*CRW + CCW +: FBW];\n"
      "    assign credit_o[p*CRW +: CRW] = {fb_out[p*FBW +: FBW], core_credit_o[p*CCW +: CCW]};\n"
      "  end\n\n";
  s += sv::instance(
      "rr_q_unit", "i_q",
      {{"P", "P", ""},
       {"NUM_NI", pkg + "::NUM_NI", ""},
       {"A", pkg + "::GROUP_SIZE", ""},
       {"H", pkg + "::GLOBAL_PORTS", ""},
       {"NUM_G", pkg + "::NUM_GROUPS", ""},
       {"QW", "QW", "routing.q_value_bits"},
       {"QFB", std::to_string(d.cfg.q_fraction_bits), "routing.q_fraction_bits"},
       {"RB", std::to_string(kQRateBits), ""},
       {"ALPHA", std::to_string(codes.alpha), fmt::format("routing.alpha = {}", d.cfg.alpha)},
       {"BETA", std::to_string(codes.beta), fmt::format("routing.beta = {}", d.cfg.beta)},
       {"TB", std::to_string(kQThresholdBits), ""},
       {"THLD_SRC", std::to_string(codes.thld1), fmt::format("routing.q_thld1 = {}", d.cfg.q_thld1)},
       {"THLD_INT", std::to_string(codes.thld2), fmt::format("routing.q_thld2 = {}", d.cfg.q_thld2)},
       {"EPS", std::to_string(codes.epsilon), fmt::format("routing.epsilon = {}", d.cfg.epsilon)},
       {"RP", std::to_string(read_ports),
        d.cfg.q_read_ports > 0 ? "routing.q_read_ports" : "routing.q_read_ports = 0: one per input port"},
       {"DC", std::to_string(d.cfg.q_decision_cycles), "routing.q_decision_cycles"}},
      q_unit_ports(d), "  ");
  s += "  logic                unused_q_unit;\n"
       "  assign unused_q_unit = ^{q_init_value[P*C*QW-1:C*QW], q_ready, q_fb_drop, hd_alt_port};\n";
  return s;
}

std::string dragonfly_route_units(const Design& d, const RoutingRelation& relation, const std::string& pkg) {
  // The emitted units take the VC levels and decision ports of the
  // dragonfly rules (Q-adaptive's relation is built on them too).
  const DragonflyRouting own_rules(d);
  const auto* given = dynamic_cast<const DragonflyRouting*>(&relation);
  const DragonflyRouting& dfly = given ? *given : own_rules;
  const AlgorithmTraits& algorithm = traits(d.cfg.algorithm);
  const bool q = algorithm.choice == PathChoice::QTable;
  std::string s = fmt::format(
      "  // Contention factors C_j per destination group (UGAL-LE only).\n"
      "  localparam int unsigned CFW = $clog2({pkg}::GROUP_SIZE + 1);\n"
      "  logic [{pkg}::NUM_GROUPS*CFW-1:0] contention;\n",
      fmt::arg("pkg", pkg));
  if (!(algorithm.biased() && d.cfg.ugal_queue == UgalQueue::CreditsAndWaiting)) {
    s += "  logic [P*DW-1:0] unused_dem;  // no waiting demand in the UGAL queue\n"
         "  assign unused_dem = dem;\n";
  }
  if (algorithm.contention_counters) {
    s += sv::instance("rr_contention", "i_contention",
                      {{"P", "P", ""},
                       {"NUM_NI", pkg + "::NUM_NI", ""},
                       {"A", pkg + "::GROUP_SIZE", ""},
                       {"NUM_G", pkg + "::NUM_GROUPS", ""},
                       {"GB", pkg + "::GROUP_BITS", ""},
                       {"IB", pkg + "::INDEX_BITS", ""},
                       {"LW", pkg + "::LINK_BITS", ""},
                       {"DATA_LSB", "rr_pkg::link_data_lsb(V)", ""},
                       {"DST_GROUP_LSB", pkg + "::HDR_DST_LSB + " + pkg + "::LOCAL_BITS + " + pkg + "::INDEX_BITS",
                        "group field of the destination address"},
                       {"SRC_ROUTER_LSB", pkg + "::HDR_SRC_LSB + " + pkg + "::LOCAL_BITS",
                        "router field {group, index} of the source address"},
                       {"LEN_LSB", pkg + "::HDR_LEN_LSB", ""},
                       {"LEN_W", pkg + "::HDR_LEN_W", ""},
                       {"WINDOW", std::to_string(d.cfg.contention_window), "routing.contention_window"},
                       {"THRESHOLD", std::to_string(d.cfg.contention_threshold), "routing.contention_threshold"}},
                      {{"clk_i", "", ""},
                       {"rst_ni", "", ""},
                       {"id_i", "", ""},
                       {"flit_i", "", ""},
                       {"contention_o", "contention", ""}},
                      "  ") +
         "\n";
  } else {
    s += "  assign contention = '0;\n\n";
  }
  std::vector<Connection> ports{{"clk_i", "", ""}, {"rst_ni", "", ""}, {"id_i", "", ""}};
  for (const Connection& c : route_unit_ports()) ports.push_back(c);
  const bool waiting = algorithm.biased() && d.cfg.ugal_queue == UgalQueue::CreditsAndWaiting;
  ports.insert(ports.begin() + 6, {{"occ_i", "occ", ""},
                                   {"dem_i", waiting ? "dem" : "'0",
                                    fmt::format("routing.ugal_queue = \"{}\"", to_string(d.cfg.ugal_queue))},
                                   {"contention_i", "contention", ""}});
  ports.push_back({"hdr_o", "rc_hdr_new[p*W +: W]", ""});
  ports.push_back({"alt_port_o", "rc_alt_port[p*PW +: PW]", ""});
  ports.push_back({"alt_vcs_o", "rc_alt_vcs[p*V +: V]", ""});
  ports.push_back({"decide_o", "rc_decide[p]", ""});
  ports.push_back({"operands_o", "rc_operands[p*DOW +: DOW]", ""});
  ports.push_back({"now_i", q ? "cycle_o[rr_pkg::Q_STAMP_W-1:0]" : "'0", q ? "" : "Q-adaptive only"});
  ports.push_back({"q_init_row_i", "q_init_row", ""});
  ports.push_back({"q_init_value_o", "q_init_value[p*C*QW +: C*QW]", ""});
  const bool head = algorithm.biased() && at_vc_head(d.cfg.decision);
  const QTableLayout layout(d);
  s += fmt::format(
      "  // Q-adaptive's table: {} rows, a column per network port, QW-bit values.\n"
      "  localparam int unsigned C = P - {}::NUM_NI;\n"
      "  localparam int unsigned Q_ROWS = {};\n"
      "  localparam int unsigned QW = {};\n"
      "  logic [rr_pkg::id_width(Q_ROWS)-1:0] q_init_row;\n"
      "  logic [P*C*QW-1:0] q_init_value;\n"
      "  logic q_ready;\n"
      "  logic [C-1:0] q_fb_drop;\n",
      q ? "its" : "none (not Q-adaptive);", pkg, layout.rows(), q ? d.cfg.q_value_bits : 16);
  if (!q) {
    s += "  assign q_init_row = '0;\n"
         "  assign q_ready = 1'b0;\n"
         "  assign q_fb_drop = '0;\n"
         "  logic unused_q;\n"
         "  assign unused_q = ^{q_init_value, q_ready, q_fb_drop};\n";
  }
  s += fmt::format("  // Dragonfly routing (routing.algorithm = \"{}\", {} VC levels), one unit per input port.\n",
                   algorithm.name, dfly.levels());
  s += "  for (genvar p = 0; p < P; p++) begin : gen_rc\n";
  s += sv::instance(
      "rr_route_dfly", "i_route",
      {{"P", "P", ""},
       {"V", "V", ""},
       {"W", "W", ""},
       {"NUM_NI", pkg + "::NUM_NI", ""},
       {"A", pkg + "::GROUP_SIZE", ""},
       {"H", pkg + "::GLOBAL_PORTS", ""},
       {"NUM_G", pkg + "::NUM_GROUPS", ""},
       {"L", pkg + "::LINKS_PER_GROUP_PAIR", ""},
       {"PALMTREE", d.topo.arrangement() == GlobalArrangement::Palmtree ? "1'b1" : "1'b0",
        fmt::format("topology.arrangement = \"{}\"", to_string(d.topo.arrangement()))},
       {"GB", pkg + "::GROUP_BITS", ""},
       {"IB", pkg + "::INDEX_BITS", ""},
       {"LOCAL_W", pkg + "::LOCAL_BITS", ""},
       {"DST_LSB", pkg + "::HDR_DST_LSB", ""},
       {"SRC_LSB", pkg + "::HDR_SRC_LSB", ""},
       {"PHASE_LSB", pkg + "::HDR_PHASE_LSB", ""},
       {"INTER_LSB", pkg + "::HDR_INTER_LSB", ""},
       {"ALGO", algorithm_constant(algorithm.id), fmt::format("routing.algorithm = \"{}\"", algorithm.name)},
       {"LEVELS", std::to_string(dfly.levels()), "VC levels of the algorithm"},
       {"BIAS", std::to_string(d.cfg.ugal_bias), "routing.ugal_bias"},
       {"RULE_DOUBLE", d.cfg.ugal_rule == UgalRule::DoubleNonminimal ? "1'b1" : "1'b0",
        fmt::format("routing.ugal_rule = \"{}\"", to_string(d.cfg.ugal_rule))},
       {"INTRA_VALIANT", d.cfg.intra_group == IntraGroup::Valiant ? "1'b1" : "1'b0",
        fmt::format("routing.intra_group = \"{}\"", to_string(d.cfg.intra_group))},
       {"OW", "OW", ""},
       {"DW", "DW", ""},
       {"CFW", "CFW", ""},
       {"PORT", "p", ""},
       {"SEED", std::to_string(d.cfg.seed & 0xffff), "routing.seed (low 16 bits)"},
       {"HEAD", head ? "1'b1" : "1'b0", q ? "Q-adaptive: the Q unit decides" : "routing.decision = \"" + std::string(to_string(d.cfg.decision)) + "\""},
       {"STAMP_LSB", q ? pkg + "::HDR_STAMP_LSB" : "0", q ? "" : "Q-adaptive only"},
       {"QW", "QW", ""},
       {"QFB", std::to_string(q ? d.cfg.q_fraction_bits : 4), q ? "routing.q_fraction_bits" : ""},
       {"HOP_LOCAL", std::to_string(hop_latency(d.cfg.local_link_latency, d.cfg.switch_allocation)),
        "zero-load cycles of a local hop"},
       {"HOP_GLOBAL", std::to_string(hop_latency(d.cfg.global_link_latency, d.cfg.switch_allocation)),
        "and of a global hop"}},
      ports, "    ");
  if (head) {
    s += "    // The UGAL decision at the head of the VC, for the packet the input\n"
         "    // port presents this cycle (routing.decision = \"" + std::string(to_string(d.cfg.decision)) + "\").\n"
         "    if (HEAD_PORTS[p]) begin : gen_decide\n"
         "      logic [" + pkg + "::GROUP_BITS-1:0] hd_dst_group;\n"
         "      logic          hd_le;\n"
         "      logic [rr_pkg::UGAL_HOPS_W-1:0] hd_min_hops, hd_nonmin_hops;\n"
         "      assign {hd_dst_group, hd_le, hd_nonmin_hops, hd_min_hops} = hd_operands[p*DOW +: DOW];\n";
    s += sv::instance("rr_ugal_decide", "i_decide",
                      {{"P", "P", ""},
                       {"NUM_G", pkg + "::NUM_GROUPS", ""},
                       {"GB", pkg + "::GROUP_BITS", ""},
                       {"CONTENTION", algorithm.contention_counters ? "1'b1" : "1'b0", "UGAL-LE"},
                       {"BIAS", std::to_string(d.cfg.ugal_bias), "routing.ugal_bias"},
                       {"RULE_DOUBLE", d.cfg.ugal_rule == UgalRule::DoubleNonminimal ? "1'b1" : "1'b0",
                        fmt::format("routing.ugal_rule = \"{}\"", to_string(d.cfg.ugal_rule))},
                       {"OW", "OW", ""},
                       {"DW", "DW", ""},
                       {"CFW", "CFW", ""}},
                      {{"occ_i", "occ", ""},
                       {"dem_i", waiting ? "dem" : "'0", fmt::format("routing.ugal_queue = \"{}\"", to_string(d.cfg.ugal_queue))},
                       {"contention_i", "contention", ""},
                       {"min_port_i", "hd_port[p*PW +: PW]", ""},
                       {"nonmin_port_i", "hd_alt_port[p*PW +: PW]", ""},
                       {"min_hops_i", "hd_min_hops", ""},
                       {"nonmin_hops_i", "hd_nonmin_hops", ""},
                       {"le_i", "hd_le", ""},
                       {"dst_group_i", "hd_dst_group", ""},
                       {"nonmin_o", "hd_alt[p]", ""}},
                      "      ");
    s += "    end else begin : gen_no_decide\n"
         "      assign hd_alt[p] = 1'b0;  // no choice is ever open at this port\n"
         "      logic unused_hd_in;\n"
         "      assign unused_hd_in = ^{hd_port[p*PW +: PW], hd_alt_port[p*PW +: PW], hd_operands[p*DOW +: DOW]};\n"
         "    end\n";
  }
  s += "  end\n";
  if (q) {
    s += q_unit(d, pkg);
  } else if (!head) {
    s += "  assign hd_alt = '0;  // decisions at buffer write (or none to take)\n"
         "  assign hd_ready = '1;\n"
         "  assign hd_choice = '0;\n"
         "  assign hd_patch = '0;\n"
         "  logic unused_hd;\n"
         "  assign unused_hd = ^{hd_valid, hd_port, hd_alt_port, hd_operands, hd_fresh};\n";
  } else {
    s += "  assign hd_ready = '1;  // the decision unit takes every presentation\n"
         "  assign hd_choice = '0;\n"
         "  assign hd_patch = '0;\n"
         "  logic unused_hd;\n"
         "  assign unused_hd = ^{hd_valid, hd_fresh};  // the decision unit is combinational\n";
  }
  return s;
}

}  // namespace

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
  return dqn_programming_ports(pkg);
}

std::vector<sv::Port> dqn_programming_ports(const std::string& pkg) {
  return {{"input", "", "prog_we_i", "DQN inference block's programming port (rr_dqn_infer): a write"},
          {"input", pkg + "::DQN_PROG_LAYER_BITS-1:0", "prog_layer_i", "the layer"},
          {"input", "rr_pkg::DQN_PROG_KIND_W-1:0", "prog_kind_i", "rr_pkg::DQN_PROG_WEIGHT / _BIAS / _SHIFT"},
          {"input", pkg + "::DQN_PROG_ADDR_BITS-1:0", "prog_addr_i", "the weight word or the neuron"},
          {"input", pkg + "::DQN_PROG_DATA_BITS-1:0", "prog_data_i", "the word, the bias or the shift"}};
}

std::string router_top(const Design& d, const RoutingRelation& relation, const VcRequestMap& requests) {
  const Topology& t = d.topo;
  const std::string pkg = d.module("pkg");
  const bool q = traits(d.cfg.algorithm).choice == PathChoice::QTable;
  const bool star = d.cfg.algorithm == RoutingAlgorithm::Star;
  const bool dqn = d.cfg.algorithm == RoutingAlgorithm::Dqn;
  const bool hop_fallback = dqn && d.cfg.dqn_fallback == DqnFallback::Hop;
  const std::string dow =
      q ? fmt::format("rr_pkg::q_operands_width(P - {0}::NUM_NI, {1}, {0}::GLOBAL_PORTS)", pkg, QTableLayout::rows(t))
      : t.dragonfly() ? "rr_pkg::ugal_operands_width(" + pkg + "::GROUP_BITS)"
      : star          ? pkg + "::HDR_LEN_W"
      : dqn           ? "VCW + 1 + " + pkg + "::DQN_EPISODE_BITS + " + pkg + "::NUM_DIMS * " + pkg + "::COORD_BITS + " + pkg +
                            "::HDR_LEN_W"
                      : "1";
  std::vector<sv::Port> top_ports{
      {"input", "", "clk_i", ""},
      {"input", "", "rst_ni", ""},
      {"input", "IDW-1:0", "id_i",
       t.dragonfly() ? "router identity: {group, index in group}" : "router identity: coordinates, dimension 0 in the LSBs"},
      {"input", "P*LW-1:0", "flit_i", "port p at [p*LW +: LW]"},
      {"output", "P*LW-1:0", "flit_o", ""},
      {"input", "P*CRW-1:0", "credit_i", "port p at [p*CRW +: CRW]"},
      {"output", "P*CRW-1:0", "credit_o", ""},
      {"output", "31:0", "cycle_o", "free-running cycle counter"},
      {"output", "P*32-1:0", "stat_flits_o", "per output port: flits sent"},
      {"output", "P*32-1:0", "stat_stall_o", "per output port: cycles stalled"}};
  if (dqn) {
    for (const sv::Port& port : dqn_top_ports(d, "")) top_ports.push_back(port);
  }
  std::string s = file_header(d, "Router top: the rr_router core with one route-compute unit per input port.");
  s += sv::module_header(
      d.module("router"),
      {{"P", pkg + "::NUM_PORTS", ""},
       {"V", pkg + "::NUM_VCS", ""},
       {"W", pkg + "::FLIT_BITS", ""},
       {"PW", pkg + "::PORT_BITS", ""},
       {"VCW", pkg + "::VC_BITS", ""},
       {"LW", pkg + "::LINK_BITS", "link word (rr_pkg::LINK_*)"},
       {"CRW", pkg + "::CREDIT_BITS", "credit word (rr_pkg::CREDIT_*)"},
       {"IDW", pkg + "::ROUTER_ID_BITS", ""},
       {"OW", "$clog2(V * " + pkg + "::BUFFER_FLITS + 1)", "width of an occupancy count"},
       {"DW", "rr_pkg::demand_width(P, V, " + pkg + "::HDR_LEN_W)", "width of a waiting-demand count"},
       {"DOW", dow, "width of the operands of a decision at the head of the VC"},
       {"CNW", "$clog2(" + pkg + "::BUFFER_FLITS + 1)", "width of an output VC's credit count"},
       {"PTW", dqn ? "1" : "2", dqn ? "the header field a decision patches: Pdor" : "the header field a decision patches: the phase"}},
      top_ports);
  s += "\n";
  s += sv::align({{"logic", "[P-1:0]", "rc_valid;"},
                  {"logic", "[P*W-1:0]", "rc_hdr, rc_hdr_new;"},
                  {"logic", "[P*VCW-1:0]", "rc_in_vc;"},
                  {"logic", "[P*PW-1:0]", "rc_out_port;"},
                  {"logic", "[P*V-1:0]", "rc_out_vcs;"},
                  {"logic", "[P*OW-1:0]", "occ;"},
                  {"logic", "[P*DW-1:0]", "dem;"},
                  {"logic", "[P*PW-1:0]", "rc_alt_port, hd_port, hd_alt_port;"},
                  {"logic", "[P*V-1:0]", "rc_alt_vcs;"},
                  {"logic", "[P-1:0]", "rc_decide, hd_valid, hd_alt;"},
                  {"logic", "[P*DOW-1:0]", "rc_operands, hd_operands;"},
                  {"logic", "[P-1:0]", "hd_ready, hd_fresh;"},
                  {"logic", "[P*PW-1:0]", "hd_choice;"},
                  {"logic", "[P*PTW-1:0]", "hd_patch;"},
                  {"logic", "[P*V-1:0]", "vc_busy;"},
                  {"logic", "[P*V*CNW-1:0]", "vc_credits, in_occ;"}},
                 "  ");
  if (q || dqn) {
    s += "  localparam int unsigned CCW = rr_pkg::credit_width(V);  // the core's credit word {vc, valid}\n"
         "  logic [P*CCW-1:0] core_credit_i, core_credit_o;  // without the feedback\n";
  }
  if (!dqn) {
    s += "  logic unused_rc_valid;  // the heads on the links: DQN-routing's episodes only\n"
         "  assign unused_rc_valid = ^rc_valid;\n";
  }
  s += "\n";
  const bool demand = t.dragonfly() && traits(d.cfg.algorithm).biased() &&
                      d.cfg.ugal_queue == UgalQueue::CreditsAndWaiting;
  const bool head =
      star || dqn || (t.dragonfly() && ((traits(d.cfg.algorithm).biased() && at_vc_head(d.cfg.decision)) || q));
  const std::string decision_key =
      q      ? std::string("Q-adaptive decides at the head of the VC, registered")
      : star ? std::string("star decides at the head of the VC, registered")
      : dqn  ? std::string("the DQN unit decides at the head of the VC, registered")
             : fmt::format("routing.decision = \"{}\"", to_string(d.cfg.decision));
  const std::string every_port = fmt::format("{}'b{}", d.ports, std::string(static_cast<size_t>(d.ports), '1'));
  if (head && !q && !star && !dqn) s += head_ports_localparam(d, dynamic_cast<const DragonflyRouting&>(relation));
  s += vc_request_map_localparam(d, requests);
  s += sv::instance("rr_router", "i_core",
                    {{"P", "P", ""},
                     {"NUM_NI", pkg + "::NUM_NI", ""},
                     {"V", "V", ""},
                     {"B", pkg + "::BUFFER_FLITS", ""},
                     {"W", "W", ""},
                     {"MIN_LEN", pkg + "::MIN_PACKET_FLITS", ""},
                     {"S", pkg + "::SPEEDUP", ""},
                     {"OB", pkg + "::OUTPUT_BUFFER_FLITS", ""},
                     {"REG_READ", pkg + "::BUFFER_REG_READ", ""},
                     {"SPEC", pkg + "::SWITCH_SPECULATIVE", ""},
                     {"REQ_MAP", "VA_REQ_MAP", ""},
                     {"LEN_LSB", pkg + "::HDR_LEN_LSB", ""},
                     {"LEN_W", pkg + "::HDR_LEN_W", ""},
                     {"HOPS_LSB", pkg + "::HDR_HOPS_LSB", ""},
                     {"HOPS_W", pkg + "::HDR_HOPS_W", ""},
                     {"DEMAND", demand ? "1'b1" : "1'b0", "waiting demand for the UGAL queue (routing.ugal_queue)"},
                     {"HEAD", head ? "1'b1" : "1'b0", head ? decision_key : "decisions at buffer write (or none to take)"},
                     {"HEAD_REG", head && (q || star || dqn || d.cfg.decision == DecisionPoint::VcHeadRegistered) ? "1'b1" : "1'b0",
                      head ? decision_key : ""},
                     // A sized literal: Yosys 0.23 reads '1 in a parameter override as 1.
                     {"HEAD_PORTS", q || star || dqn ? every_port : head ? "HEAD_PORTS" : "'0",
                      q ? "every input port: decisions, or Q_y and feedback" : star || dqn ? "every input port" : ""},
                     {"DOW", "DOW", ""},
                     {"PATCH", star || hop_fallback ? "1'b0" : "1'b1",
                      star           ? "star's alternative leaves the header as it is"
                      : hop_fallback ? "routing.dqn_fallback = \"hop\": the escape to DOR leaves Pdor as it is"
                                     : ""},
                     {"PATCH_LSB", dqn ? pkg + "::HDR_PDOR_LSB" : head ? pkg + "::HDR_PHASE_LSB" : "0",
                      q     ? "a non-minimal choice at the source sets the phase"
                      : dqn ? (hop_fallback ? "" : "the escape to DOR sets Pdor")
                      : head ? "the alternative route enters phase 1 (to intermediate)" : ""},
                     {"PATCH_W", "PTW", ""},
                     {"PATCH_VAL", "1", ""},
                     {"CHOOSE", q || dqn ? "1'b1" : "1'b0", q ? "the Q unit names the port" : dqn ? "the DQN unit names the port" : ""},
                     {"HD_LATE", q && d.cfg.q_decision_cycles == 2 ? "1'b1" : "1'b0",
                      q ? "its answer a cycle after the presentation (routing.q_decision_cycles)" : ""}},
                    {{"clk_i", "", ""},
                     {"rst_ni", "", ""},
                     {"flit_i", "", ""},
                     {"flit_o", "", ""},
                     {"credit_i", q || dqn ? "core_credit_i" : "", ""},
                     {"credit_o", q || dqn ? "core_credit_o" : "", ""},
                     {"rc_valid_o", "rc_valid", ""},
                     {"rc_hdr_o", "rc_hdr", ""},
                     {"rc_in_vc_o", "rc_in_vc", ""},
                     {"rc_out_port_i", "rc_out_port", ""},
                     {"rc_out_vcs_i", "rc_out_vcs", ""},
                     {"rc_hdr_i", "rc_hdr_new", ""},
                     {"rc_alt_port_i", "rc_alt_port", ""},
                     {"rc_alt_vcs_i", "rc_alt_vcs", ""},
                     {"rc_decide_i", "rc_decide", ""},
                     {"rc_operands_i", "rc_operands", ""},
                     {"hd_valid_o", "hd_valid", ""},
                     {"hd_port_o", "hd_port", ""},
                     {"hd_alt_port_o", "hd_alt_port", ""},
                     {"hd_operands_o", "hd_operands", ""},
                     {"hd_alt_i", "hd_alt", ""},
                     {"hd_ready_i", "hd_ready", ""},
                     {"hd_fresh_o", "hd_fresh", ""},
                     {"hd_choice_i", "hd_choice", ""},
                     {"hd_patch_i", "hd_patch", ""},
                     {"occ_o", "occ", ""},
                     {"dem_o", "dem", ""},
                     {"vc_busy_o", "vc_busy", ""},
                     {"vc_credits_o", "vc_credits", ""},
                     {"in_occ_o", "in_occ", ""},
                     {"cycle_o", "", ""},
                     {"stat_flits_o", "", ""},
                     {"stat_stall_o", "", ""}},
                    "  ");
  s += "\n";
  if (!star && !dqn) {
    s += "  logic unused_vc_state;  // the output VCs' state: star's and DQN-routing's decisions only\n"
         "  assign unused_vc_state = ^{vc_busy, vc_credits};\n";
  }
  if (!dqn) {
    s += "  logic unused_in_occ;  // the input VCs' occupancy: DQN-routing's observation only\n"
         "  assign unused_in_occ = ^in_occ;\n";
  }
  s += t.dragonfly() ? dragonfly_route_units(d, relation, pkg) : torus_route_units(d, pkg);
  s += "endmodule\n";
  return s;
}

}  // namespace rlroute::emit
