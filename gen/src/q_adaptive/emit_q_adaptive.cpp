// The Q-adaptive backend: the dragonfly route units (dragonfly/) and the Q
// unit: the Q-table, the decisions at the head of the VC and the feedback on
// the credit words.
#include <fmt/format.h>

#include "../backend.hpp"
#include "../emit_parts.hpp"
#include "rlroute/gen/q_codes.hpp"
#include "rlroute/gen/q_table_layout.hpp"

namespace rlroute::emit {

using sv::Connection;
using sv::Param;

namespace {

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
std::string q_unit(const Design& d) {
  const std::string pkg = d.module("pkg");
  const QCodes codes = q_codes(d.cfg);
  const int read_ports = d.cfg.q_read_ports > 0 ? d.cfg.q_read_ports : d.ports;
  std::string s = "  // Q-adaptive: the credit words carry the feedback above {vc, valid}.\n"
                  "  localparam int unsigned FBW = rr_pkg::q_feedback_width(Q_ROWS, QW);\n"
                  "  logic [P*FBW-1:0] fb_in, fb_out;\n" +
                  credit_sideband_wiring("fb_in", "fb_out", "FBW") + "\n";
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

std::string q_route_units(const Design& d, const RoutingRelation& relation) {
  return dragonfly_route_units(d, relation) + q_unit(d);
}

std::vector<std::string> q_blocks(const Design& d) {
  std::vector<std::string> blocks = dragonfly_blocks(d);
  for (const char* b : {"rr_q_update.sv", "rr_q_decide.sv", "rr_q_table.sv", "rr_q_unit.sv"}) blocks.push_back(b);
  return blocks;
}

std::string q_operands_width(const Design& d) {
  return fmt::format("rr_pkg::q_operands_width(P - {0}::NUM_NI, {1}, {0}::GLOBAL_PORTS)", d.module("pkg"),
                     QTableLayout::rows(d.topo));
}

RouterTopNeeds q_needs(const Design&) {
  return {.credit_sideband = true, .decision = true, .output_occupancy = true, .waiting_demand = true};
}

}  // namespace

const BackendEmitter& q_adaptive_backend() {
  static const BackendEmitter b{q_blocks,         no_package_part, no_top_ports, no_network_connections,
                                q_operands_width, q_route_units,   q_needs};
  return b;
}

}  // namespace rlroute::emit
