// The Q-adaptive backend: its route units (rr_route_q_adaptive, on the
// dragonfly path blocks of dragonfly/) and the Q unit: the Q-table, the
// decisions at the head of the VC and the feedback on the credit words.
#include <fmt/format.h>

#include "../backend.hpp"
#include "../emit_parts.hpp"
#include "rlroute/gen/q_codes.hpp"
#include "rlroute/gen/q_table_layout.hpp"

namespace rlroute::emit {

using sv::Connection;
using sv::Param;

namespace {

// routing.q_stamp: with "crossbar" or "request" the route units pass the
// header's stamp and the Q unit takes r at its answer.
Param r_at_decision(const Design& d) {
  return {"R_AT_DECISION", rlroute::r_at_decision(d.cfg.q_stamp) ? "1'b1" : "1'b0",
          fmt::format("routing.q_stamp = \"{}\"", to_string(d.cfg.q_stamp))};
}

// routing.q_source_group = "decide" or "detour": the next router of the
// source group decides too (its route units name the role, its Q unit
// decides it); with "detour" (DETOUR, given only then) for the packets the
// source sent there by a local detour.
Param source_group(const Design& d) {
  return {"SOURCE_GROUP", d.cfg.q_source_group != QSourceGroup::Minimal ? "1'b1" : "1'b0",
          fmt::format("routing.q_source_group = \"{}\"", to_string(d.cfg.q_source_group))};
}
void add_detour(const Design& d, std::vector<Param>& params) {
  if (d.cfg.q_source_group == QSourceGroup::Detour) params.push_back({"DETOUR", "1'b1", ""});
}

// Q-adaptive's unit's connections: the LFSR seed, the head decisions, the
// feedback and the table's initial values.
std::vector<Connection> q_unit_ports(const Design& d) {
  std::vector<Connection> ports{{"clk_i", "", ""},
                                {"rst_ni", "", ""},
                                {"seed_i", fmt::format("16'({}) ^ (16'(id_i) * 16'h9E37) ^ 16'h51ED", d.cfg.seed & 0xffff),
                                 "routing.seed (low 16 bits) and the router"},
                                {"now_i", "cycle_o[rr_pkg::Q_STAMP_W-1:0]", ""},
                                d.cfg.q_queue_weight > 0
                                    ? Connection{"occ_i", fmt::format("occ[P*OCC_W-1:{}::NUM_NI*OCC_W]", d.module("pkg")),
                                                 "the network ports' queues"}
                                    : Connection{"occ_i", "'0", "routing.q_queue_weight = 0"}};
  for (const Connection& c : head_decision_ports()) ports.push_back(c);
  for (const Connection& c : std::vector<Connection>{{"fb_o", "fb_out", ""},
                                                     {"fb_i", "fb_in", ""},
                                                     {"init_row_o", "q_init_row", ""},
                                                     {"init_value_i", "q_init_value[0 +: NUM_COLS*QW]",
                                                      "port 0's route unit gives the initial values"},
                                                     {"ready_o", "q_ready", ""},
                                                     {"fb_drop_o", "q_fb_drop", ""}}) {
    ports.push_back(c);
  }
  return ports;
}

// Q-adaptive's unit (rtl/rr_q_unit.sv): the table, the decisions at the head
// of the VC and the feedback on the credit words.
std::string q_unit(const Design& d) {
  const std::string pkg = d.module("pkg");
  const QCodes codes = q_codes(d.cfg);
  const int read_ports = d.cfg.q_read_ports > 0 ? d.cfg.q_read_ports : d.ports;
  std::string s = "  // Q-adaptive: the credit words carry the feedback above {vc, valid}.\n"
                  "  localparam int unsigned FB_W = rr_pkg::q_feedback_width(Q_ROWS, QW);\n"
                  "  logic [P*FB_W-1:0] fb_in, fb_out;\n" +
                  credit_sideband_wiring("fb_in", "fb_out", "FB_W") + "\n";
  std::vector<Param> params{{"P", "P", ""},
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
       {"INT_BEST", d.cfg.q_intermediate == QIntermediate::Best ? "1'b1" : "1'b0",
        fmt::format("routing.q_intermediate = \"{}\"", to_string(d.cfg.q_intermediate))},
       {"EPS", std::to_string(codes.epsilon), fmt::format("routing.epsilon = {}", d.cfg.epsilon)},
       {"READ_PORTS", std::to_string(read_ports),
        d.cfg.q_read_ports > 0 ? "routing.q_read_ports" : "routing.q_read_ports = 0: one per input port"},
       {"DECIDE_CYCLES", std::to_string(d.cfg.q_decision_cycles), "routing.q_decision_cycles"},
       r_at_decision(d),
       source_group(d)};
  add_detour(d, params);
  if (d.cfg.q_queue_weight > 0) {
    params.push_back({"QUEUE_WEIGHT", std::to_string(d.cfg.q_queue_weight), "routing.q_queue_weight"});
    if (d.cfg.q_queue_in != QQueueIn::TestAndPort)
      params.push_back({"QUEUE_IN_TEST", "1'b0", fmt::format("routing.q_queue_in = \"{}\"", to_string(d.cfg.q_queue_in))});
    params.push_back({"OCC_W", "OCC_W", ""});
  }
  s += sv::instance("rr_q_unit", "i_q", params, q_unit_ports(d), "  ");
  s += "  logic                unused_q_unit;\n"
       "  assign unused_q_unit = ^{q_init_value[P*NUM_COLS*QW-1:NUM_COLS*QW], q_ready, q_fb_drop, hd_alt_port};\n";
  return s;
}

// Q-adaptive's table as the route units see it (its initial values come
// from them).
std::string q_table_declarations(const Design& d, const std::string& pkg) {
  return fmt::format(
      "  // Q-adaptive's table: its rows, a column per network port, QW-bit values.\n"
      "  localparam int unsigned NUM_COLS = P - {}::NUM_NI;\n"
      "  localparam int unsigned Q_ROWS = {};\n"
      "  localparam int unsigned QW = {};\n"
      "  logic [rr_pkg::id_width(Q_ROWS)-1:0] q_init_row;\n"
      "  logic [P*NUM_COLS*QW-1:0] q_init_value;\n"
      "  logic q_ready;\n"
      "  logic [NUM_COLS-1:0] q_fb_drop;\n",
      pkg, QTableLayout::rows(d.topo), d.cfg.q_value_bits);
}

// One route unit per input port: the minimal route, the operands of the Q
// unit's decisions and the table's initial values.
std::string route_units(const Design& d) {
  const std::string pkg = d.module("pkg");
  std::vector<Param> params = dragonfly_topology_params(d, pkg);
  for (const Param& p : std::vector<Param>{
           {"STAMP_LSB", pkg + "::HDR_STAMP_LSB", ""},
           {"LEVELS", std::to_string(vc_levels(d.cfg)), "VC levels of the algorithm"},
           {"QW", "QW", ""},
           {"QFB", std::to_string(d.cfg.q_fraction_bits), "routing.q_fraction_bits"},
           {"LOCAL_HOP_CYCLES", std::to_string(QTableLayout::hop_cycles(d.cfg, d.cfg.local_link_latency)),
            rlroute::r_at_decision(d.cfg.q_stamp)
                ? fmt::format("zero-load r of a local hop (routing.q_stamp = \"{}\")", to_string(d.cfg.q_stamp))
                : "zero-load cycles of a local hop"},
           {"GLOBAL_HOP_CYCLES", std::to_string(QTableLayout::hop_cycles(d.cfg, d.cfg.global_link_latency)),
            "and of a global hop"},
           {"FLAT_INIT", d.cfg.q_initial == QInitial::Flat ? "1'b1" : "1'b0",
            fmt::format("routing.q_initial = \"{}\"", to_string(d.cfg.q_initial))},
           r_at_decision(d),
           source_group(d)}) {
    params.push_back(p);
  }
  add_detour(d, params);
  if (d.cfg.q_vcs == QVcs::Rising) params.push_back({"RISING", "1'b1", "routing.q_vcs = \"rising\""});
  std::vector<Connection> ports{{"id_i", "", ""}};
  for (const Connection& c : route_unit_ports()) ports.push_back(c);
  ports.insert(ports.begin() + 4, {"now_i", "cycle_o[rr_pkg::Q_STAMP_W-1:0]", ""});
  for (const Connection& c : std::vector<Connection>{{"hdr_o", "rc_hdr_new[p*W +: W]", ""},
                                                     {"alt_port_o", "rc_alt_port[p*PW +: PW]", ""},
                                                     {"alt_vcs_o", "rc_alt_vcs[p*V +: V]", ""},
                                                     {"decide_o", "rc_decide[p]", ""},
                                                     {"operands_o", "rc_operands[p*DOW +: DOW]", ""},
                                                     {"q_init_row_i", "q_init_row", ""},
                                                     {"q_init_value_o",
                                                      "q_init_value[p*NUM_COLS*QW +: NUM_COLS*QW]", ""}}) {
    ports.push_back(c);
  }
  return (d.cfg.q_queue_weight > 0
              ? fmt::format("  logic unused_ni_queue;  // the Q unit weighs the network ports' queues only\n"
                            "  assign unused_ni_queue = ^occ[{}::NUM_NI*OCC_W-1:0];\n",
                            pkg)
              : std::string("  logic unused_ugal_queue;  // the output ports' queues: UGAL's decisions only\n"
                            "  assign unused_ugal_queue = ^occ;\n")) +
         q_table_declarations(d, pkg) +
         fmt::format("  // Q-adaptive routing ({} VC levels), one unit per input port.\n", vc_levels(d.cfg)) +
         "  for (genvar p = 0; p < P; p++) begin : gen_rc\n" +
         sv::instance("rr_route_q_adaptive", "i_route", params, ports, "    ") + "  end\n";
}

std::string q_route_units(const Design& d, const RoutingRelation&) { return route_units(d) + q_unit(d); }

std::vector<std::string> q_blocks(const Design&) {
  std::vector<std::string> blocks = dragonfly_path_blocks();
  for (const char* b : {"rr_lfsr.sv", "rr_route_q_adaptive.sv", "rr_q_update.sv", "rr_argmin.sv", "rr_q_decide.sv",
                        "rr_q_table.sv", "rr_q_unit.sv"}) {
    blocks.push_back(b);
  }
  return blocks;
}

std::string q_operands_width(const Design& d) {
  return fmt::format("rr_pkg::q_operands_width(P - {0}::NUM_NI, {1}, {0}::GLOBAL_PORTS)", d.module("pkg"),
                     QTableLayout::rows(d.topo));
}

RouterTopNeeds q_needs(const Design&) {
  return {.credit_sideband = true, .decision = true, .output_occupancy = true};
}

}  // namespace

const BackendEmitter& q_adaptive_backend() {
  static const BackendEmitter b{q_blocks,         no_package_part, no_top_ports, no_network_connections,
                                q_operands_width, q_route_units,   q_needs};
  return b;
}

}  // namespace rlroute::emit
