// Emits the router top of a design: the rr_router core plus the route-compute
// units of the configured topology family and algorithm.
#include <fmt/format.h>

#include <cctype>

#include "emit_parts.hpp"
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

std::string torus_route_units(const Design& d, const std::string& pkg) {
  const Topology& t = d.topo;
  std::vector<Param> params{{"P", "P", ""},
                            {"V", "V", ""},
                            {"W", "W", ""},
                            {"NUM_NI", pkg + "::NUM_NI", ""},
                            {"NUM_DIMS", pkg + "::NUM_DIMS", ""},
                            {"CW", pkg + "::COORD_BITS", ""}};
  for (int dim = 0; dim < 3; ++dim) {
    params.push_back({fmt::format("K{}", dim), std::to_string(dim < t.num_dims() ? t.radix(dim) : 1),
                      dim < t.num_dims() ? fmt::format("topology.dims[{}]", dim) : "unused dimension"});
  }
  params.push_back({"TORUS", t.torus() ? "1'b1" : "1'b0", fmt::format("topology.kind = \"{}\"", to_string(d.cfg.kind))});
  params.push_back({"LOCAL_W", pkg + "::LOCAL_BITS", ""});
  params.push_back({"DST_LSB", pkg + "::HDR_DST_LSB", ""});
  std::vector<Connection> ports{{"coord_i", "id_i", ""}};
  for (const Connection& c : route_unit_ports()) ports.push_back(c);
  return "  // Dimension-order routing (routing.algorithm = \"dor\"), one unit per input port.\n"
         "  assign rc_hdr_new = rc_hdr;  // DOR never rewrites the header\n"
         "  // DOR decides at buffer write: no alternative route, no head decisions.\n"
         "  assign rc_alt_port = '0;\n"
         "  assign rc_alt_vcs = '0;\n"
         "  assign rc_decide = '0;\n"
         "  assign rc_operands = '0;\n"
         "  assign hd_alt = '0;\n"
         "  logic unused_hd;\n"
         "  assign unused_hd = ^{hd_valid, hd_port, hd_alt_port, hd_operands};\n"
         "  logic [P*OW-1:0] unused_occ;\n"
         "  logic [P*DW-1:0] unused_dem;\n"
         "  assign unused_occ = occ;\n"
         "  assign unused_dem = dem;\n"
         "  for (genvar p = 0; p < P; p++) begin : gen_rc\n" +
         sv::instance("rr_route_dor", "i_route", params, ports, "    ") + "  end\n";
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

std::string dragonfly_route_units(const Design& d, const RoutingRelation& relation, const std::string& pkg) {
  const auto& dfly = dynamic_cast<const DragonflyRouting&>(relation);
  const AlgorithmTraits& algorithm = traits(d.cfg.algorithm);
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
  const bool head = algorithm.biased() && at_vc_head(d.cfg.decision);
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
       {"HEAD", head ? "1'b1" : "1'b0", "routing.decision = \"" + std::string(to_string(d.cfg.decision)) + "\""}},
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
  if (!head) {
    s += "  assign hd_alt = '0;  // decisions at buffer write (or none to take)\n"
         "  logic unused_hd;\n"
         "  assign unused_hd = ^{hd_valid, hd_port, hd_alt_port, hd_operands};\n";
  } else {
    s += "  logic unused_hd;\n"
         "  assign unused_hd = ^hd_valid;  // the decision unit is combinational\n";
  }
  return s;
}

}  // namespace

std::string router_top(const Design& d, const RoutingRelation& relation) {
  const Topology& t = d.topo;
  const std::string pkg = d.module("pkg");
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
       {"DOW", t.dragonfly() ? "rr_pkg::ugal_operands_width(" + pkg + "::GROUP_BITS)" : "1",
        "width of the operands of a decision at the head of the VC"}},
      {{"input", "", "clk_i", ""},
       {"input", "", "rst_ni", ""},
       {"input", "IDW-1:0", "id_i",
        t.dragonfly() ? "router identity: {group, index in group}" : "router identity: coordinates, dimension 0 in the LSBs"},
       {"input", "P*LW-1:0", "flit_i", "port p at [p*LW +: LW]"},
       {"output", "P*LW-1:0", "flit_o", ""},
       {"input", "P*CRW-1:0", "credit_i", "port p at [p*CRW +: CRW]"},
       {"output", "P*CRW-1:0", "credit_o", ""},
       {"output", "31:0", "cycle_o", "free-running cycle counter"},
       {"output", "P*32-1:0", "stat_flits_o", "per output port: flits sent"},
       {"output", "P*32-1:0", "stat_stall_o", "per output port: cycles stalled"}});
  s += "\n";
  s += sv::align({{"logic", "[P-1:0]", "unused_rc_valid;"},
                  {"logic", "[P*W-1:0]", "rc_hdr, rc_hdr_new;"},
                  {"logic", "[P*VCW-1:0]", "rc_in_vc;"},
                  {"logic", "[P*PW-1:0]", "rc_out_port;"},
                  {"logic", "[P*V-1:0]", "rc_out_vcs;"},
                  {"logic", "[P*OW-1:0]", "occ;"},
                  {"logic", "[P*DW-1:0]", "dem;"},
                  {"logic", "[P*PW-1:0]", "rc_alt_port, hd_port, hd_alt_port;"},
                  {"logic", "[P*V-1:0]", "rc_alt_vcs;"},
                  {"logic", "[P-1:0]", "rc_decide, hd_valid, hd_alt;"},
                  {"logic", "[P*DOW-1:0]", "rc_operands, hd_operands;"}},
                 "  ");
  s += "\n";
  const bool demand = t.dragonfly() && traits(d.cfg.algorithm).biased() &&
                      d.cfg.ugal_queue == UgalQueue::CreditsAndWaiting;
  const bool head = t.dragonfly() && traits(d.cfg.algorithm).biased() && at_vc_head(d.cfg.decision);
  const std::string decision_key = fmt::format("routing.decision = \"{}\"", to_string(d.cfg.decision));
  if (head) s += head_ports_localparam(d, dynamic_cast<const DragonflyRouting&>(relation));
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
                     {"LEN_LSB", pkg + "::HDR_LEN_LSB", ""},
                     {"LEN_W", pkg + "::HDR_LEN_W", ""},
                     {"HOPS_LSB", pkg + "::HDR_HOPS_LSB", ""},
                     {"HOPS_W", pkg + "::HDR_HOPS_W", ""},
                     {"DEMAND", demand ? "1'b1" : "1'b0", "waiting demand for the UGAL queue (routing.ugal_queue)"},
                     {"HEAD", head ? "1'b1" : "1'b0", head ? decision_key : "decisions at buffer write (or none to take)"},
                     {"HEAD_REG", head && d.cfg.decision == DecisionPoint::VcHeadRegistered ? "1'b1" : "1'b0",
                      head ? decision_key : ""},
                     {"HEAD_PORTS", head ? "HEAD_PORTS" : "'0", ""},
                     {"DOW", "DOW", ""},
                     {"PATCH_LSB", head ? pkg + "::HDR_PHASE_LSB" : "0",
                      head ? "the alternative route enters phase 1 (to intermediate)" : ""},
                     {"PATCH_W", head ? pkg + "::HDR_PHASE_W" : "1", ""},
                     {"PATCH_VAL", "1", ""}},
                    {{"clk_i", "", ""},
                     {"rst_ni", "", ""},
                     {"flit_i", "", ""},
                     {"flit_o", "", ""},
                     {"credit_i", "", ""},
                     {"credit_o", "", ""},
                     {"rc_valid_o", "unused_rc_valid", ""},
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
                     {"occ_o", "occ", ""},
                     {"dem_o", "dem", ""},
                     {"cycle_o", "", ""},
                     {"stat_flits_o", "", ""},
                     {"stat_stall_o", "", ""}},
                    "  ");
  s += "\n";
  s += t.dragonfly() ? dragonfly_route_units(d, relation, pkg) : torus_route_units(d, pkg);
  s += "endmodule\n";
  return s;
}

}  // namespace rlroute::emit
