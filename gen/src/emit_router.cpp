// Emits the router top of a design: the rr_router core plus the route-compute
// units of the configured topology family and algorithm.
#include <fmt/format.h>

#include "emit_parts.hpp"
#include "rlroute/routing_dragonfly.hpp"

namespace rlroute::emit {

int dragonfly_algo(RoutingAlgorithm algorithm) {
  switch (algorithm) {
    case RoutingAlgorithm::Min: return 0;
    case RoutingAlgorithm::Valg: return 1;
    case RoutingAlgorithm::Valn: return 2;
    case RoutingAlgorithm::UgalG: return 3;
    case RoutingAlgorithm::UgalN: return 4;
    case RoutingAlgorithm::UgalLe: return 5;
    case RoutingAlgorithm::Par: return 6;
    default: return -1;
  }
}

namespace {

std::string torus_route_units(const Design& d, const std::string& pkg) {
  const Topology& t = d.topo;
  std::string radices;
  for (int dim = 0; dim < 3; ++dim) {
    radices += fmt::format("      .K{}      ({}),\n", dim, dim < t.num_dims() ? t.radix(dim) : 1);
  }
  return fmt::format(
      "  // Dimension-order routing (routing.algorithm = \"dor\"), one unit per input port.\n"
      "  assign rc_hdr_new = rc_hdr;  // DOR never rewrites the header\n"
      "  logic [P*OW-1:0] unused_occ;\n"
      "  assign unused_occ = occ;\n"
      "  for (genvar p = 0; p < P; p++) begin : gen_rc\n"
      "    rr_route_dor #(\n"
      "      .P       (P),\n"
      "      .V       (V),\n"
      "      .W       (W),\n"
      "      .NUM_NI  ({pkg}::NUM_NI),\n"
      "      .NUM_DIMS({pkg}::NUM_DIMS),\n"
      "      .CW      ({pkg}::COORD_BITS),\n"
      "{radices}"
      "      .TORUS   (1'b{torus}),\n"
      "      .LOCAL_W ({pkg}::LOCAL_BITS),\n"
      "      .DST_LSB ({pkg}::HDR_DST_LSB)\n"
      "    ) i_route (\n"
      "      .coord_i   (id_i),\n"
      "      .hdr_i     (rc_hdr[p*W+:W]),\n"
      "      .in_port_i (PW'(p)),\n"
      "      .in_vc_i   (rc_in_vc[p*VCW+:VCW]),\n"
      "      .out_port_o(rc_out_port[p*PW+:PW]),\n"
      "      .out_vcs_o (rc_out_vcs[p*V+:V])\n"
      "    );\n"
      "  end\n",
      fmt::arg("pkg", pkg), fmt::arg("radices", radices), fmt::arg("torus", t.torus() ? 1 : 0));
}

std::string dragonfly_route_units(const Design& d, const RoutingRelation& relation, const std::string& pkg) {
  const auto& dfly = dynamic_cast<const DragonflyRouting&>(relation);
  const bool le = traits(d.cfg.algorithm).contention_counters;
  std::string s;
  s += fmt::format("  // Contention factors C_j per destination group (UGAL-LE only).\n"
                   "  localparam int unsigned CFW = $clog2({pkg}::GROUP_SIZE + 1);\n"
                   "  logic [{pkg}::NUM_GROUPS*CFW-1:0] contention;\n",
                   fmt::arg("pkg", pkg));
  if (le) {
    s += fmt::format(
        "  rr_contention #(\n"
        "    .P            (P),\n"
        "    .NUM_NI       ({pkg}::NUM_NI),\n"
        "    .A            ({pkg}::GROUP_SIZE),\n"
        "    .NUM_G        ({pkg}::NUM_GROUPS),\n"
        "    .GB           ({pkg}::GROUP_BITS),\n"
        "    .IB           ({pkg}::INDEX_BITS),\n"
        "    .LW           ({pkg}::LINK_BITS),\n"
        "    .DATA_LSB     (3 + VCW),\n"
        "    .DST_GROUP_LSB({pkg}::HDR_DST_LSB + {pkg}::LOCAL_BITS + {pkg}::INDEX_BITS),\n"
        "    .WINDOW       ({window}),  // routing.contention_window\n"
        "    .THRESHOLD    ({threshold})   // routing.contention_threshold\n"
        "  ) i_contention (\n"
        "    .clk_i, .rst_ni, .id_i, .flit_i,\n"
        "    .contention_o(contention)\n"
        "  );\n\n",
        fmt::arg("pkg", pkg), fmt::arg("window", d.cfg.contention_window),
        fmt::arg("threshold", d.cfg.contention_threshold));
  } else {
    s += "  assign contention = '0;\n\n";
  }
  s += fmt::format(
      "  // Dragonfly routing (routing.algorithm = \"{name}\", {levels} VC levels), one unit per input port.\n"
      "  for (genvar p = 0; p < P; p++) begin : gen_rc\n"
      "    rr_route_dfly #(\n"
      "      .P        (P),\n"
      "      .V        (V),\n"
      "      .W        (W),\n"
      "      .NUM_NI   ({pkg}::NUM_NI),\n"
      "      .A        ({pkg}::GROUP_SIZE),\n"
      "      .H        ({pkg}::GLOBAL_PORTS),\n"
      "      .NUM_G    ({pkg}::NUM_GROUPS),\n"
      "      .L        ({pkg}::LINKS_PER_GROUP_PAIR),\n"
      "      .PALMTREE (1'b{palmtree}),\n"
      "      .GB       ({pkg}::GROUP_BITS),\n"
      "      .IB       ({pkg}::INDEX_BITS),\n"
      "      .LOCAL_W  ({pkg}::LOCAL_BITS),\n"
      "      .DST_LSB  ({pkg}::HDR_DST_LSB),\n"
      "      .SRC_LSB  ({pkg}::HDR_SRC_LSB),\n"
      "      .PHASE_LSB({pkg}::HDR_PHASE_LSB),\n"
      "      .INTER_LSB({pkg}::HDR_INTER_LSB),\n"
      "      .ALGO     ({algo}),  // {name}\n"
      "      .LEVELS   ({levels}),\n"
      "      .BIAS     ({bias}),  // routing.ugal_bias\n"
      "      .OW       (OW),\n"
      "      .CFW      (CFW),\n"
      "      .PORT     (p),\n"
      "      .SEED     ({seed})  // routing.seed\n"
      "    ) i_route (\n"
      "      .clk_i, .rst_ni, .id_i,\n"
      "      .hdr_i       (rc_hdr[p*W+:W]),\n"
      "      .in_port_i   (PW'(p)),\n"
      "      .in_vc_i     (rc_in_vc[p*VCW+:VCW]),\n"
      "      .occ_i       (occ),\n"
      "      .contention_i(contention),\n"
      "      .out_port_o  (rc_out_port[p*PW+:PW]),\n"
      "      .out_vcs_o   (rc_out_vcs[p*V+:V]),\n"
      "      .hdr_o       (rc_hdr_new[p*W+:W])\n"
      "    );\n"
      "  end\n",
      fmt::arg("pkg", pkg), fmt::arg("name", to_string(d.cfg.algorithm)), fmt::arg("levels", dfly.levels()),
      fmt::arg("palmtree", d.topo.arrangement() == GlobalArrangement::Palmtree ? 1 : 0),
      fmt::arg("algo", dragonfly_algo(d.cfg.algorithm)), fmt::arg("bias", d.cfg.ugal_bias),
      fmt::arg("seed", d.cfg.seed & 0xffff));
  return s;
}

}  // namespace

std::string router_top(const Design& d, const RoutingRelation& relation) {
  const Topology& t = d.topo;
  const std::string pkg = d.module("pkg");
  std::string s = file_header(d, "Router top: the rr_router core with one route-compute unit per input port.");
  s += fmt::format(
      "module {name} (\n"
      "  input  logic                clk_i,\n"
      "  input  logic                rst_ni,\n"
      "  input  logic [{iw}:0]        id_i,          // router identity: {id}\n"
      "  input  logic [{fw}:0]      flit_i,        // {p} ports x {lw} bits\n"
      "  output logic [{fw}:0]      flit_o,\n"
      "  input  logic [{crw}:0]        credit_i,      // {p} ports x {cb} bits\n"
      "  output logic [{crw}:0]        credit_o,\n"
      "  output logic [31:0]         cycle_o,\n"
      "  output logic [{sw}:0]       stat_flits_o,\n"
      "  output logic [{sw}:0]       stat_stall_o\n"
      ");\n",
      fmt::arg("name", d.module("router")), fmt::arg("iw", t.router_id_bits() - 1),
      fmt::arg("id", t.dragonfly() ? "{group, index in group}" : "coordinates, dimension 0 in the LSBs"),
      fmt::arg("fw", d.ports * d.link_bits - 1), fmt::arg("p", d.ports), fmt::arg("lw", d.link_bits),
      fmt::arg("crw", d.ports * d.credit_bits - 1), fmt::arg("cb", d.credit_bits),
      fmt::arg("sw", d.ports * 32 - 1));
  s += fmt::format(
      "  localparam int unsigned P = {pkg}::NUM_PORTS;\n"
      "  localparam int unsigned V = {pkg}::NUM_VCS;\n"
      "  localparam int unsigned W = {pkg}::FLIT_BITS;\n"
      "  localparam int unsigned PW = {pkg}::PORT_BITS;\n"
      "  localparam int unsigned VCW = {pkg}::VC_BITS;\n"
      "  localparam int unsigned OW = $clog2(V * {pkg}::BUFFER_FLITS + 1);\n\n"
      "  logic [P-1:0]     unused_rc_valid;\n"
      "  logic [P*W-1:0]   rc_hdr, rc_hdr_new;\n"
      "  logic [P*VCW-1:0] rc_in_vc;\n"
      "  logic [P*PW-1:0]  rc_out_port;\n"
      "  logic [P*V-1:0]   rc_out_vcs;\n"
      "  logic [P*OW-1:0]  occ;\n\n"
      "  rr_router #(\n"
      "    .P       (P),\n"
      "    .NUM_NI  ({pkg}::NUM_NI),\n"
      "    .V       (V),\n"
      "    .B       ({pkg}::BUFFER_FLITS),\n"
      "    .W       (W),\n"
      "    .LEN_LSB ({pkg}::HDR_LEN_LSB),\n"
      "    .LEN_W   ({pkg}::HDR_LEN_W),\n"
      "    .HOPS_LSB({pkg}::HDR_HOPS_LSB),\n"
      "    .HOPS_W  ({pkg}::HDR_HOPS_W)\n"
      "  ) i_core (\n"
      "    .clk_i, .rst_ni,\n"
      "    .flit_i, .flit_o, .credit_i, .credit_o,\n"
      "    .rc_valid_o   (unused_rc_valid),\n"
      "    .rc_hdr_o     (rc_hdr),\n"
      "    .rc_in_vc_o   (rc_in_vc),\n"
      "    .rc_out_port_i(rc_out_port),\n"
      "    .rc_out_vcs_i (rc_out_vcs),\n"
      "    .rc_hdr_i     (rc_hdr_new),\n"
      "    .occ_o        (occ),\n"
      "    .cycle_o, .stat_flits_o, .stat_stall_o\n"
      "  );\n\n",
      fmt::arg("pkg", pkg));
  s += t.dragonfly() ? dragonfly_route_units(d, relation, pkg) : torus_route_units(d, pkg);
  s += "endmodule\n";
  return s;
}

}  // namespace rlroute::emit
