// Emits the router top of a design: the rr_router core plus the route-compute
// units of the configured topology family and algorithm.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

#include "emit_parts.hpp"
#include "backend.hpp"
#include "sv_writer.hpp"

namespace rlroute::emit {

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

std::string plain_head_answers(const Design& d) {
  if (!d.core.head.enabled) {
    return "  assign hd_alt = '0;  // decisions at buffer write (or none to take)\n"
           "  assign hd_ready = '1;\n"
           "  assign hd_choice = '0;\n"
           "  assign hd_patch = '0;\n"
           "  logic unused_hd;\n"
           "  assign unused_hd = ^{hd_valid, hd_port, hd_alt_port, hd_operands, hd_fresh};\n";
  }
  return "  assign hd_ready = '1;  // the decision unit takes every presentation\n"
         "  assign hd_choice = '0;\n"
         "  assign hd_patch = '0;\n"
         "  logic unused_hd;\n"
         "  assign unused_hd = ^{hd_valid, hd_fresh};  // the decision unit is combinational\n";
}

std::string credit_sideband_wiring(const std::string& in, const std::string& out, const std::string& width) {
  return "  for (genvar p = 0; p < P; p++) begin : gen_credit_words\n"
         "    assign core_credit_i[p*CORE_CRW +: CORE_CRW] = credit_i[p*CRW +: CORE_CRW];\n"
         "    assign " + in + "[p*" + width + " +: " + width + "] = credit_i[p*CRW + CORE_CRW +: " + width + "];\n"
         "    assign credit_o[p*CRW +: CRW] = {" + out + "[p*" + width + " +: " + width +
         "], core_credit_o[p*CORE_CRW +: CORE_CRW]};\n"
         "  end\n";
}

namespace {

std::vector<sv::Port> router_top_ports(const Design& d) {
  std::vector<sv::Port> ports{
      {"input", "", "clk_i", ""},
      {"input", "", "rst_ni", ""},
      {"input", "ID_W-1:0", "id_i",
       d.topo.dragonfly() ? "router identity: {group, index in group}"
                          : "router identity: coordinates, dimension 0 in the LSBs"},
      {"input", "P*LW-1:0", "flit_i", "port p at [p*LW +: LW]"},
      {"output", "P*LW-1:0", "flit_o", ""},
      {"input", "P*CRW-1:0", "credit_i", "port p at [p*CRW +: CRW]"},
      {"output", "P*CRW-1:0", "credit_o", ""},
      {"output", "31:0", "cycle_o", "free-running cycle counter"},
      {"output", "P*32-1:0", "stat_flits_o", "per output port: flits sent"},
      {"output", "P*32-1:0", "stat_stall_o", "per output port: cycles stalled"}};
  for (const sv::Port& port : backend_emitter(d).top_ports(d, "")) ports.push_back(port);
  return ports;
}

std::vector<Param> router_top_params(const Design& d, const RouterTopNeeds& needs) {
  const std::string pkg = d.module("pkg");
  const HeadDecision& head = d.core.head;
  const bool pdor = head.field == PatchedField::Pdor;
  std::vector<Param> params{{"P", pkg + "::NUM_PORTS", ""},
                            {"V", pkg + "::NUM_VCS", ""},
                            {"W", pkg + "::FLIT_BITS", ""},
                            {"PW", pkg + "::PORT_BITS", ""},
                            {"VCW", pkg + "::VC_BITS", ""},
                            {"LW", pkg + "::LINK_BITS", "link word (rr_pkg::LINK_*)"},
                            {"CRW", pkg + "::CREDIT_BITS", "credit word (rr_pkg::CREDIT_*)"},
                            {"ID_W", pkg + "::ROUTER_ID_BITS", ""}};
  if (needs.output_occupancy) {
    params.push_back({"OCC_W", "$clog2(V * " + pkg + "::BUFFER_FLITS + 1)", "width of an occupancy count"});
  }
  if (needs.waiting_demand) {
    params.push_back(
        {"DEMAND_W", "rr_pkg::demand_width(P, V, " + pkg + "::HDR_LEN_W)", "width of a waiting-demand count"});
  }
  if (needs.decision) {
    params.push_back({"DOW", backend_emitter(d).decision_operands_width(d),
                      "width of the operands of a decision at the head of the VC"});
    params.push_back({"PATCH_W", !head.patches ? "1" : pkg + (pdor ? "::HDR_PDOR_W" : "::HDR_PHASE_W"),
                      !head.patches ? "a decision's header field value (none is set)"
                      : pdor        ? "the header field a decision sets: Pdor"
                                    : "the header field a decision sets: the phase"});
  }
  if (needs.vc_state || needs.input_occupancy) {
    params.push_back({"CREDIT_CNT_W", "$clog2(" + pkg + "::BUFFER_FLITS + 1)", "width of a VC's credit or flit count"});
  }
  return params;
}

std::string core_signals(const Design& d, const RouterTopNeeds& needs) {
  std::vector<std::vector<std::string>> rows;
  if (needs.arriving_heads) rows.push_back({"logic", "[P-1:0]", "rc_valid;"});
  rows.push_back({"logic", "[P*W-1:0]", "rc_hdr, rc_hdr_new;"});
  rows.push_back({"logic", "[P*VCW-1:0]", "rc_in_vc;"});
  rows.push_back({"logic", "[P*PW-1:0]", "rc_out_port;"});
  rows.push_back({"logic", "[P*V-1:0]", "rc_out_vcs;"});
  if (needs.output_occupancy) rows.push_back({"logic", "[P*OCC_W-1:0]", "occ;"});
  if (needs.waiting_demand) rows.push_back({"logic", "[P*DEMAND_W-1:0]", "dem;"});
  if (needs.decision) {
    for (std::vector<std::string> row : std::vector<std::vector<std::string>>{
             {"logic", "[P*PW-1:0]", "rc_alt_port, hd_port, hd_alt_port;"},
             {"logic", "[P*V-1:0]", "rc_alt_vcs;"},
             {"logic", "[P-1:0]", "rc_decide, hd_valid, hd_alt;"},
             {"logic", "[P*DOW-1:0]", "rc_operands, hd_operands;"},
             {"logic", "[P-1:0]", "hd_ready, hd_fresh;"},
             {"logic", "[P*PW-1:0]", "hd_choice;"},
             {"logic", "[P*PATCH_W-1:0]", "hd_patch;"}}) {
      rows.push_back(row);
    }
  }
  if (needs.vc_state) rows.push_back({"logic", "[P*V-1:0]", "vc_busy;"});
  if (needs.vc_state) {
    rows.push_back({"logic", "[P*V*CREDIT_CNT_W-1:0]", needs.input_occupancy ? "vc_credits, in_occ;" : "vc_credits;"});
  } else if (needs.input_occupancy) {
    rows.push_back({"logic", "[P*V*CREDIT_CNT_W-1:0]", "in_occ;"});
  }
  std::string s = sv::align(rows, "  ");
  if (needs.waiting_demand) {
    s += "  // Per input VC, its front packet's VC request (rr_demand sums them per output port).\n" +
         sv::align({{"logic", "[P*V-1:0]", "wait_req;"},
                    {"logic", "[P*V*PW-1:0]", "wait_port;"},
                    {"logic", "[P*V*" + d.module("pkg") + "::HDR_LEN_W-1:0]", "wait_len;"}},
                   "  ");
  }
  if (needs.credit_sideband) {
    s += "  localparam int unsigned CORE_CRW = rr_pkg::credit_width(V);  // the core's credit word {vc, valid}\n"
         "  logic [P*CORE_CRW-1:0] core_credit_i, core_credit_o;  // without the feedback\n";
  }
  return s + "\n";
}

// The input ports that get a decision unit where that depends on the port:
// where a packet's minimal/non-minimal choice can be open (port 0 in the LSB).
std::string head_ports_localparam(const Design& d) {
  const HeadDecision& head = d.core.head;
  if (!head.enabled || head.every_port) return "";
  std::string bits;
  for (auto p = head.ports.rbegin(); p != head.ports.rend(); ++p) bits += *p ? '1' : '0';
  return fmt::format("  // Input ports at which the minimal/non-minimal choice can be open\n"
                     "  // ({}): only these get the decision hardware.\n"
                     "  localparam logic [P-1:0] DECIDE_PORTS = {}'b{};\n\n",
                     head.ports_where, head.ports.size(), bits);
}

// rr_router's head-decision parameters: the contract of the decision unit
// plugged into the core (rr_head_decision). Defaults are left out.
std::vector<Param> head_decision_params(const Design& d) {
  const std::string pkg = d.module("pkg");
  const HeadDecision& head = d.core.head;
  std::vector<Param> params{{"DOW", "DOW", ""}};
  if (!head.enabled) return params;
  const bool names_phase = head.names_port && head.field == PatchedField::Phase;
  // A sized literal: Yosys 0.23 reads '1 in a parameter override as 1.
  params.push_back({"DECIDE_PORTS",
                    head.every_port ? fmt::format("{}'b{}", d.ports, std::string(static_cast<size_t>(d.ports), '1'))
                                    : "DECIDE_PORTS",
                    names_phase ? "every input port: decisions, or Q_y and feedback"
                    : head.every_port ? "every input port" : ""});
  params.push_back({"DECIDE_CYCLES", std::to_string(head.cycles()),
                    head.late ? "the answer a cycle after the presentation (routing.q_decision_cycles)" : head.why});
  if (head.names_port) params.push_back({"ANSWER_PORT", "1'b1", head.unit + " names the port"});
  if (head.patches) {
    const bool pdor = head.field == PatchedField::Pdor;
    params.push_back({"FIELD_LSB", pkg + (pdor ? "::HDR_PDOR_LSB" : "::HDR_PHASE_LSB"),
                      names_phase ? "a non-minimal choice at the source sets the phase"
                      : pdor      ? "the escape to DOR sets Pdor"
                                  : "the alternative route enters phase 1 (to intermediate)"});
    params.push_back({"FIELD_W", "PATCH_W", ""});
  }
  return params;
}

std::string core_instance(const Design& d, const RouterTopNeeds& needs) {
  const std::string pkg = d.module("pkg");
  std::vector<Param> params{{"P", "P", ""},
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
                            {"HOPS_W", pkg + "::HDR_HOPS_W", ""}};
  if (d.core.head_stamp != QStamp::Arrival) {
    const bool request = d.core.head_stamp == QStamp::Request;
    params.push_back({"STAMP_LSB", pkg + "::HDR_STAMP_LSB",
                      fmt::format("routing.q_stamp = \"{}\": heads leave stamped ...", to_string(d.core.head_stamp))});
    params.push_back({"STAMP_W", "rr_pkg::Q_STAMP_W", ""});
    params.push_back({"STAMP_AT_REQUEST", request ? "1'b1" : "1'b0",
                      request ? "... with their first VC request's cycle" : "... with the cycle they cross the crossbar"});
  }
  if (needs.decision) {
    for (const Param& p : head_decision_params(d)) params.push_back(p);
  }
  const std::string credit_i = needs.credit_sideband ? "core_credit_i" : "";
  const std::string credit_o = needs.credit_sideband ? "core_credit_o" : "";
  std::vector<Connection> conns{{"clk_i", "", ""}, {"rst_ni", "", ""}, {"flit_i", "", ""}, {"flit_o", "", ""},
                                {"credit_i", credit_i, ""}, {"credit_o", credit_o, ""}};
  // A port the family does not use: an input tied to zero, an output open.
  auto connect = [&conns](const std::string& port, bool used) {
    const std::string signal = port.substr(0, port.size() - 2);
    const bool input = port.ends_with("_i");
    conns.push_back({port, used ? signal : input ? "'0" : sv::kUnconnected, ""});
  };
  connect("rc_valid_o", needs.arriving_heads);
  for (const char* name : {"rc_hdr_o", "rc_in_vc_o", "rc_out_port_i", "rc_out_vcs_i"}) connect(name, true);
  conns.push_back({"rc_hdr_i", "rc_hdr_new", ""});
  for (const char* name : {"rc_alt_port_i", "rc_alt_vcs_i", "rc_decide_i", "rc_operands_i", "hd_valid_o", "hd_port_o",
                           "hd_alt_port_o", "hd_operands_o", "hd_alt_i", "hd_ready_i", "hd_fresh_o", "hd_choice_i",
                           "hd_patch_i"}) {
    connect(name, needs.decision);
  }
  connect("occ_o", needs.output_occupancy);
  for (const char* name : {"wait_req_o", "wait_port_o", "wait_len_o"}) connect(name, needs.waiting_demand);
  connect("vc_busy_o", needs.vc_state);
  connect("vc_credits_o", needs.vc_state);
  connect("in_occ_o", needs.input_occupancy);
  for (const char* name : {"cycle_o", "stat_flits_o", "stat_stall_o"}) conns.push_back({name, "", ""});
  const bool open = std::any_of(conns.begin(), conns.end(), [](const Connection& c) { return c.expression == sv::kUnconnected; });
  const std::string core = sv::instance("rr_router", "i_core", params, conns, "  ");
  if (!open) return core;
  return "  // The core's outputs this algorithm does not read are left open.\n"
         "  /* verilator lint_off PINCONNECTEMPTY */\n" +
         core + "  /* verilator lint_on PINCONNECTEMPTY */\n";
}

// The UGAL queue's second term (routing.ugal_queue = "credits_and_waiting"):
// per output port, the flits of the packets waiting at the head of an input
// VC for it, summed from the core's waiting requests.
std::string waiting_demand(const Design& d, const RouterTopNeeds& needs) {
  if (!needs.waiting_demand) return "";
  const std::string pkg = d.module("pkg");
  const bool registered = d.core.head.enabled;
  return "  // Waiting demand per output port for the UGAL queue (routing.ugal_queue = \"" +
         std::string(to_string(d.cfg.ugal_queue)) + "\").\n" +
         sv::instance("rr_demand", "i_demand",
                      {{"P", "P", ""},
                       {"V", "V", ""},
                       {"LEN_W", pkg + "::HDR_LEN_W", ""},
                       {"REGISTERED", registered ? "1'b1" : "1'b0",
                        registered ? "decided at the head of the VC: the queues of the last cycle"
                                   : "decided at buffer write: this cycle's queues"}},
                      {{"clk_i", "", ""},
                       {"rst_ni", "", ""},
                       {"wait_req_i", "wait_req", ""},
                       {"wait_port_i", "wait_port", ""},
                       {"wait_len_i", "wait_len", ""},
                       {"dem_o", "dem", ""}},
                      "  ") +
         "\n";
}

}  // namespace

std::string router_top(const Design& d, const RoutingRelation& relation, const VcRequestMap& requests) {
  const BackendEmitter& backend = backend_emitter(d);
  const RouterTopNeeds needs = backend.needs(d);
  std::string s = file_header(d, "Router top: the rr_router core with one route-compute unit per input port.");
  s += sv::module_header(d.module("router"), router_top_params(d, needs), router_top_ports(d));
  s += "\n" + core_signals(d, needs) + head_ports_localparam(d) + vc_request_map_localparam(d, requests);
  s += core_instance(d, needs) + "\n" + waiting_demand(d, needs);
  s += backend.route_units(d, relation);
  return s + "endmodule\n";
}

}  // namespace rlroute::emit
