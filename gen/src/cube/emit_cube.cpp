// The torus and mesh backend: dimension-order routing and star-channel
// routing, one rr_route_dor per input port and, for star, one rr_star_decide
// (DQN-routing's backend, dqn/, builds on the same route unit).
#include <fmt/format.h>

#include "../backend.hpp"
#include "../emit_parts.hpp"

namespace rlroute::emit {

using sv::Connection;
using sv::Param;

DorRouteUnit dor_route_unit(const Design& d, const std::string& pkg) {
  const Topology& t = d.topo;
  DorRouteUnit u;
  u.params = {{"P", "P", ""},
              {"V", "V", ""},
              {"W", "W", ""},
              {"NUM_NI", pkg + "::NUM_NI", ""},
              {"NUM_DIMS", pkg + "::NUM_DIMS", ""},
              {"COORD_W", pkg + "::COORD_BITS", ""}};
  for (int dim = 0; dim < 3; ++dim) {
    u.radices.push_back({fmt::format("K{}", dim), std::to_string(dim < t.num_dims() ? t.radix(dim) : 1),
                         dim < t.num_dims() ? fmt::format("topology.dims[{}]", dim) : "unused dimension"});
  }
  u.torus = {"TORUS", t.torus() ? "1'b1" : "1'b0", fmt::format("topology.kind = \"{}\"", to_string(d.cfg.kind))};
  u.params.insert(u.params.end(), u.radices.begin(), u.radices.end());
  u.params.push_back(u.torus);
  u.params.push_back({"LOCAL_W", pkg + "::LOCAL_BITS", ""});
  u.params.push_back({"DST_LSB", pkg + "::HDR_DST_LSB", ""});
  u.params.push_back({"STAR", d.core.head.picks_alternative() ? "1'b1" : "1'b0",
                      fmt::format("routing.algorithm = \"{}\"", to_string(d.cfg.algorithm))});
  u.ports = {{"coord_i", "id_i", ""}};
  for (const Connection& c : route_unit_ports()) u.ports.push_back(c);
  const bool alternative = d.core.head.enabled;  // star's, DQN-routing's
  u.ports.push_back({"alt_port_o", alternative ? "rc_alt_port[p*PW +: PW]" : sv::kUnconnected, ""});
  u.ports.push_back({"alt_vcs_o", alternative ? "rc_alt_vcs[p*V +: V]" : sv::kUnconnected, ""});
  u.ports.push_back({"decide_o", alternative ? "rc_decide[p]" : sv::kUnconnected, ""});
  u.ports.push_back({"hdr_o", "rc_hdr_new[p*W +: W]", "DOR and star leave the header as it is"});
  return u;
}

namespace {

std::string dor_units(const Design& d, const std::string& pkg) {
  const DorRouteUnit route = dor_route_unit(d, pkg);
  return "  // Dimension-order routing (routing.algorithm = \"dor\"), one unit per input port;\n"
         "  // no alternative route to offer (star's outputs).\n"
         "  /* verilator lint_off PINCONNECTEMPTY */\n"
         "  for (genvar p = 0; p < P; p++) begin : gen_rc\n" +
         sv::instance("rr_route_dor", "i_route", route.params, route.ports, "    ") + "  end\n"
         "  /* verilator lint_on PINCONNECTEMPTY */\n";
}

std::string star_units(const Design& d, const std::string& pkg) {
  const DorRouteUnit route = dor_route_unit(d, pkg);
  return "  // Star-channel routing (routing.algorithm = \"star\"): VC V-1 adaptive, VCs\n"
         "  // 0..V-2 the DOR escape; one route unit and one decision unit per input port.\n" +
         plain_head_answers(d) +
         "  for (genvar p = 0; p < P; p++) begin : gen_rc\n" +
         sv::instance("rr_route_dor", "i_route", route.params, route.ports, "    ") +
         "    // The packet's length: the decision asks for credits for all of it.\n"
         "    assign rc_operands[p*DOW +: DOW] = rc_hdr[p*W + " + pkg + "::HDR_LEN_LSB +: " + pkg + "::HDR_LEN_W];\n" +
         sv::instance("rr_star_decide", "i_decide",
                      {{"P", "P", ""},
                       {"V", "V", ""},
                       {"CREDIT_CNT_W", "CREDIT_CNT_W", ""},
                       {"OCC_W", "OCC_W", ""},
                       {"LEN_W", pkg + "::HDR_LEN_W", ""}},
                      {{"port_i", "hd_port[p*PW +: PW]", ""},
                       {"alt_port_i", "hd_alt_port[p*PW +: PW]", ""},
                       {"len_i", "hd_operands[p*DOW +: DOW]", ""},
                       {"vc_busy_i", "vc_busy", ""},
                       {"vc_credits_i", "vc_credits", ""},
                       {"occ_i", "occ", ""},
                       {"alt_o", "hd_alt[p]", ""}},
                      "    ") +
         "  end\n";
}

std::string cube_route_units(const Design& d, const RoutingRelation&) {
  const std::string pkg = d.module("pkg");
  return d.core.head.enabled ? star_units(d, pkg) : dor_units(d, pkg);
}

std::vector<std::string> cube_blocks(const Design& d) {
  std::vector<std::string> blocks{"rr_route_dor.sv"};
  if (d.core.head.enabled) blocks.push_back("rr_star_decide.sv");  // star's decision at the head of the VC
  return blocks;
}

// Star's decision asks for credits for the whole packet: its length.
std::string cube_operands_width(const Design& d) {
  return d.core.head.enabled ? d.module("pkg") + "::HDR_LEN_W" : "1";
}

RouterTopNeeds cube_needs(const Design& d) {
  const bool star = d.core.head.enabled;
  return {.decision = star, .output_occupancy = star, .vc_state = star};
}

}  // namespace

const BackendEmitter& cube_backend() {
  static const BackendEmitter b{cube_blocks,         no_package_part,  no_top_ports, no_network_connections,
                                cube_operands_width, cube_route_units, cube_needs};
  return b;
}

}  // namespace rlroute::emit
