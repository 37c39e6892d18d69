// The dragonfly backend (MIN, VALg, VALn, UGAL-L g/n, UGAL-LE, PAR):
// rr_route_dfly per input port, with the algorithm's traits as parameters
// (dragonfly_route_traits of its row), the UGAL decisions at the head of the
// VC (rr_ugal_decide) and UGAL-LE's contention counters (rr_contention).
// Q-adaptive's backend (q_adaptive/) shares the topology parameters and the
// path blocks (rr_dfly_path, rr_vc_levels).
#include <fmt/format.h>

#include "../backend.hpp"
#include "../emit_parts.hpp"
#include "rlroute/gen/routing_dragonfly.hpp"

namespace rlroute::emit {

using sv::Connection;
using sv::Param;

namespace {

// UGAL-LE's contention factors C_j per destination group (zero otherwise).
std::string contention_counters(const Design& d, const std::string& pkg) {
  std::string s = fmt::format(
      "  // Contention factors C_j per destination group (UGAL-LE only).\n"
      "  localparam int unsigned CFW = $clog2({pkg}::GROUP_SIZE + 1);\n"
      "  logic [{pkg}::NUM_GROUPS*CFW-1:0] contention;\n",
      fmt::arg("pkg", pkg));
  if (!traits(d.cfg.algorithm).contention_counters) return s + "  assign contention = '0;\n\n";
  return s + sv::instance("rr_contention", "i_contention",
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
}

// The width of dem_i: the router top's DEMAND_W with a waiting demand, else
// one bit of zero.
Param demand_width(const Design& d) {
  if (d.core.waiting_demand) return {"DEMAND_W", "DEMAND_W", ""};
  return {"DEMAND_W", "1", "no waiting demand: dem_i is zero"};
}

std::vector<Connection> route_unit_connections(const Design& d) {
  std::vector<Connection> ports{{"clk_i", "", ""}, {"rst_ni", "", ""}, {"id_i", "", ""}};
  for (const Connection& c : route_unit_ports()) ports.push_back(c);
  ports.insert(ports.begin() + 6, {{"occ_i", "occ", ""},
                                   {"dem_i", d.core.waiting_demand ? "dem" : "'0",
                                    fmt::format("routing.ugal_queue = \"{}\"", to_string(d.cfg.ugal_queue))},
                                   {"contention_i", "contention", ""}});
  ports.push_back({"hdr_o", "rc_hdr_new[p*W +: W]", ""});
  ports.push_back({"alt_port_o", "rc_alt_port[p*PW +: PW]", ""});
  ports.push_back({"alt_vcs_o", "rc_alt_vcs[p*V +: V]", ""});
  ports.push_back({"decide_o", "rc_decide[p]", ""});
  ports.push_back({"operands_o", "rc_operands[p*DOW +: DOW]", ""});
  return ports;
}

const char* bit(bool b) { return b ? "1'b1" : "1'b0"; }

std::string route_unit(const Design& d, const std::string& pkg) {
  const AlgorithmTraits& algorithm = traits(d.cfg.algorithm);
  const DragonflyRouteTraits t = dragonfly_route_traits(algorithm);
  const std::string row = fmt::format("routing.algorithm = \"{}\"", algorithm.name);
  std::vector<Param> params = dragonfly_topology_params(d, pkg);
  for (const Param& p : std::vector<Param>{
           {"INTER_LSB", pkg + "::HDR_INTER_LSB", ""},
           {"ROUTE_STATE", bit(t.route_state), row + ": its traits (kAlgorithms)"},
           {"ALWAYS_VALIANT", bit(t.always_valiant), ""},
           {"GROUP_INTERMEDIATE", bit(t.group_intermediate), ""},
           {"ADAPTIVE", bit(t.adaptive), ""},
           {"CONTENTION", bit(t.contention), ""},
           {"REDIVERT", bit(t.redivert), ""},
           {"LEVELS", std::to_string(algorithm.vc_levels), "VC levels of the algorithm"},
           {"BIAS", std::to_string(d.cfg.ugal_bias), "routing.ugal_bias"},
           {"RULE_DOUBLE", bit(d.cfg.ugal_rule == UgalRule::DoubleNonminimal),
            fmt::format("routing.ugal_rule = \"{}\"", to_string(d.cfg.ugal_rule))},
           {"INTRA_VALIANT", bit(d.cfg.intra_group == IntraGroup::Valiant),
            fmt::format("routing.intra_group = \"{}\"", to_string(d.cfg.intra_group))},
           {"OCC_W", "OCC_W", ""},
           demand_width(d),
           {"CFW", "CFW", ""},
           {"PORT", "p", ""},
           {"SEED", std::to_string(d.cfg.seed & 0xffff), "routing.seed (low 16 bits)"},
           {"HEAD", bit(d.core.head.picks_alternative()),
            "routing.decision = \"" + std::string(to_string(d.cfg.decision)) + "\""}}) {
    params.push_back(p);
  }
  return sv::instance("rr_route_dfly", "i_route", params, route_unit_connections(d), "    ");
}

// The UGAL decision at the head of the VC, at the input ports where a choice
// can be open (DECIDE_PORTS).
std::string ugal_decision(const Design& d, const std::string& pkg) {
  const AlgorithmTraits& algorithm = traits(d.cfg.algorithm);
  const bool waiting = d.core.waiting_demand;
  std::string s =
      "    // The UGAL decision at the head of the VC, for the packet the input\n"
      "    // port presents this cycle (routing.decision = \"" + std::string(to_string(d.cfg.decision)) + "\").\n"
      "    if (DECIDE_PORTS[p]) begin : gen_decide\n"
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
                       {"OCC_W", "OCC_W", ""},
                       demand_width(d),
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
  return s + "    end else begin : gen_no_decide\n"
             "      assign hd_alt[p] = 1'b0;  // no choice is ever open at this port\n"
             "      logic unused_hd_in;\n"
             "      assign unused_hd_in = ^{hd_port[p*PW +: PW], hd_alt_port[p*PW +: PW], hd_operands[p*DOW +: DOW]};\n"
             "    end\n";
}

std::string plain_route_units(const Design& d, const RoutingRelation&) {
  const std::string pkg = d.module("pkg");
  std::string s = contention_counters(d, pkg);
  s += fmt::format("  // Dragonfly routing (routing.algorithm = \"{}\", {} VC levels), one unit per input port.\n",
                   traits(d.cfg.algorithm).name, traits(d.cfg.algorithm).vc_levels);
  s += "  for (genvar p = 0; p < P; p++) begin : gen_rc\n";
  s += route_unit(d, pkg);
  if (d.core.head.picks_alternative()) s += ugal_decision(d, pkg);
  return s + "  end\n" + plain_head_answers(d);
}

std::string dragonfly_operands_width(const Design& d) {
  return "rr_pkg::ugal_operands_width(" + d.module("pkg") + "::GROUP_BITS)";
}

RouterTopNeeds dragonfly_needs(const Design& d) {
  return {.decision = true, .output_occupancy = true, .waiting_demand = d.core.waiting_demand};
}

std::vector<std::string> dragonfly_blocks(const Design& d) {
  std::vector<std::string> blocks = dragonfly_path_blocks();
  for (const char* b : {"rr_lfsr.sv", "rr_contention.sv", "rr_ugal_decide.sv", "rr_route_dfly.sv"}) blocks.push_back(b);
  if (d.core.waiting_demand) blocks.push_back("rr_demand.sv");  // the UGAL queue's waiting demand
  return blocks;
}

}  // namespace

std::vector<Param> dragonfly_topology_params(const Design& d, const std::string& pkg) {
  return {{"P", "P", ""},
          {"V", "V", ""},
          {"FLIT_W", "W", ""},
          {"NUM_NI", pkg + "::NUM_NI", ""},
          {"A", pkg + "::GROUP_SIZE", ""},
          {"H", pkg + "::GLOBAL_PORTS", ""},
          {"NUM_G", pkg + "::NUM_GROUPS", ""},
          {"LINKS_PER_PAIR", pkg + "::LINKS_PER_GROUP_PAIR", ""},
          {"PALMTREE", bit(d.topo.arrangement() == GlobalArrangement::Palmtree),
           fmt::format("topology.arrangement = \"{}\"", to_string(d.topo.arrangement()))},
          {"GB", pkg + "::GROUP_BITS", ""},
          {"IB", pkg + "::INDEX_BITS", ""},
          {"LOCAL_W", pkg + "::LOCAL_BITS", ""},
          {"DST_LSB", pkg + "::HDR_DST_LSB", ""},
          {"SRC_LSB", pkg + "::HDR_SRC_LSB", ""},
          {"PHASE_LSB", pkg + "::HDR_PHASE_LSB", ""}};
}

std::vector<std::string> dragonfly_path_blocks() { return {"rr_dfly_path.sv", "rr_vc_levels.sv"}; }

const BackendEmitter& dragonfly_backend() {
  static const BackendEmitter b{dragonfly_blocks,         no_package_part,   no_top_ports, no_network_connections,
                                dragonfly_operands_width, plain_route_units, dragonfly_needs};
  return b;
}

}  // namespace rlroute::emit
