// Emits the network top of a design: generate loops over constant tables of
// what every router port connects to (a node, the far end of a link, or
// nothing), so its size grows with the tables, not with the network.
#include <fmt/format.h>

#include "backend.hpp"
#include "emit_parts.hpp"
#include "sv_writer.hpp"

namespace rlroute::emit {

namespace {

// Bits of a PORT_MAP entry's fields: the kind, the node or router, the port.
constexpr int kKindBits = 2;
constexpr int kIndexBits = 16;  // nodes <= 4096, routers <= 1024 (docs/config.md)
constexpr int kPortBits = 8;

// The config keys a port's latencies come from.
std::pair<std::string, std::string> latency_keys(const Topology& t, int port) {
  if (t.is_local_port(port)) return {"topology.local_link_latency", "topology.local_credit_latency"};
  if (t.is_global_port(port)) return {"topology.global_link_latency", "topology.global_credit_latency"};
  return {"topology.link_latency", "topology.credit_latency"};
}

// Port p of router r: {PORT_NI, node, 0}, {PORT_LINK, far router, far port}
// (the link arrives at this port) or {PORT_NONE, 0, 0} (a mesh edge).
std::string port_entry(const Topology& t, int r, int p) {
  if (t.is_ni_port(p)) return fmt::format("{{PORT_NI, {}'d{}, {}'d0}}", kIndexBits, t.node_at(r, p), kPortBits);
  const std::optional<PortRef> far = t.neighbor(r, p);
  if (!far) return fmt::format("{{PORT_NONE, {}'d0, {}'d0}}", kIndexBits, kPortBits);
  return fmt::format("{{PORT_LINK, {}'d{}, {}'d{}}}", kIndexBits, far->router, kPortBits, far->port);
}

// The tables: a row per router, the last router first and in a row the last
// port first (index 0 in the LSBs).
std::string port_tables(const Design& d) {
  const Topology& t = d.topo;
  std::string s = fmt::format(
      "  // What port p of router r connects to, entry r*P + p of PORT_MAP: {{kind, node\n"
      "  // or far router, far port}}; a link is emitted at the port it arrives at. The\n"
      "  // last router first, in a row the last port first.\n"
      "  localparam logic [1:0] PORT_NI = 2'd0, PORT_LINK = 2'd1, PORT_NONE = 2'd2;\n"
      "  localparam int unsigned ENTRY_W = {};\n"
      "  localparam logic [ROUTERS*P*ENTRY_W-1:0] PORT_MAP = {{\n",
      kKindBits + kIndexBits + kPortBits);
  for (int r = t.num_routers() - 1; r >= 0; --r) {
    std::vector<std::string> entries;
    for (int p = d.ports - 1; p >= 0; --p) entries.push_back(port_entry(t, r, p));
    s += fmt::format("    // {}\n    {}{}\n", t.router_name(r), fmt::join(entries, ", "), r > 0 ? "," : "");
  }
  s += "  };\n  // Router r's identity (id_i), the last router first.\n"
       "  localparam logic [ROUTERS*ID_W-1:0] ROUTER_ID = {";
  for (int r = t.num_routers() - 1; r >= 0; --r) {
    s += fmt::format("{}ID_W'({}){}", (t.num_routers() - 1 - r) % 8 == 0 ? "\n    " : " ", t.router_id(r),
                     r > 0 ? "," : "\n");
  }
  return s + "  };\n";
}

// The link and credit latencies of the link arriving at port p (they depend
// on the port alone), the last port first.
std::string latency_tables(const Design& d) {
  const Topology& t = d.topo;
  std::vector<std::string> flits, credits;
  std::vector<std::vector<std::string>> keys;
  for (int p = d.ports - 1; p >= 0; --p) {
    const bool link = !t.is_ni_port(p);
    flits.push_back(fmt::format("16'd{}", link ? t.link_latency(p) : 0));
    credits.push_back(fmt::format("16'd{}", link ? t.credit_latency(p) : 0));
  }
  std::string from;
  for (int p = 0; p < d.ports; ++p) {
    if (t.is_ni_port(p)) continue;
    const auto [link_key, credit_key] = latency_keys(t, p);
    from += fmt::format("  //   port {} ({}): {}, {}\n", p, t.port_name(0, p), link_key, credit_key);
  }
  return fmt::format("  // Cycles of the link and of the credit link arriving at port p (NI ports: 0):\n{}"
                     "  localparam logic [P*16-1:0] LINK_LATENCY = {{{}}};\n"
                     "  localparam logic [P*16-1:0] CREDIT_LATENCY = {{{}}};\n\n",
                     from, fmt::join(flits, ", "), fmt::join(credits, ", "));
}

std::string router_instance(const Design& d) {
  std::vector<sv::Connection> ports{{"clk_i", "", ""},
                                    {"rst_ni", "", ""},
                                    {"id_i", "ROUTER_ID[r*ID_W +: ID_W]", ""},
                                    {"flit_i", "flit_in[r]", ""},
                                    {"flit_o", "flit_out[r]", ""},
                                    {"credit_i", "credit_in[r]", ""},
                                    {"credit_o", "credit_out[r]", ""},
                                    {"cycle_o", "unused_cycle[r]", ""},
                                    {"stat_flits_o", "unused_stat_flits[r]", ""},
                                    {"stat_stall_o", "unused_stat_stall[r]", ""}};
  for (const sv::Connection& c : backend_emitter(d).network_connections(d, "r")) ports.push_back(c);
  return sv::instance(d.module("router"), "i_router", {}, ports, "    ");
}

// Port p of router r: the NI, the two links that arrive at it, or nothing.
const char* kPortBlock =
    "    for (genvar p = 0; p < P; p++) begin : gen_port\n"
    "      localparam logic [ENTRY_W-1:0] ENTRY = PORT_MAP[(r*P + p)*ENTRY_W +: ENTRY_W];\n"
    "      if (ENTRY[ENTRY_W-1 -: 2] == PORT_NI) begin : gen_ni\n"
    "        localparam int unsigned NODE = {16'd0, ENTRY[FAR_PORT_W +: 16]};\n"
    "        assign flit_in[r][p*LW +: LW] = ni_flit_i[NODE*LW +: LW];\n"
    "        assign ni_flit_o[NODE*LW +: LW] = flit_out[r][p*LW +: LW];\n"
    "        assign credit_in[r][p*CRW +: CRW] = ni_credit_i[NODE*CRW +: CRW];\n"
    "        assign ni_credit_o[NODE*CRW +: CRW] = credit_out[r][p*CRW +: CRW];\n"
    "      end else if (ENTRY[ENTRY_W-1 -: 2] == PORT_LINK) begin : gen_link\n"
    "        localparam int unsigned FAR = {16'd0, ENTRY[FAR_PORT_W +: 16]};  // the link's other end\n"
    "        localparam int unsigned FAR_PORT = {24'd0, ENTRY[FAR_PORT_W-1:0]};\n"
    "        rr_link #(\n"
    "          .WIDTH   (LW),\n"
    "          .LATENCY ({16'd0, LINK_LATENCY[p*16 +: 16]})\n"
    "        ) i_flit_link (\n"
    "          .clk_i,\n"
    "          .rst_ni,\n"
    "          .data_i (flit_out[FAR][FAR_PORT*LW +: LW]),\n"
    "          .data_o (flit_in[r][p*LW +: LW])\n"
    "        );\n"
    "        rr_link #(\n"
    "          .WIDTH   (CRW),\n"
    "          .LATENCY ({16'd0, CREDIT_LATENCY[p*16 +: 16]})\n"
    "        ) i_credit_link (\n"
    "          .clk_i,\n"
    "          .rst_ni,\n"
    "          .data_i (credit_out[FAR][FAR_PORT*CRW +: CRW]),\n"
    "          .data_o (credit_in[r][p*CRW +: CRW])\n"
    "        );\n"
    "      end else if (ENTRY[ENTRY_W-1 -: 2] == PORT_NONE) begin : gen_edge  // a mesh edge\n"
    "        assign flit_in[r][p*LW +: LW] = '0;\n"
    "        assign credit_in[r][p*CRW +: CRW] = '0;\n"
    "        logic unused_edge;  // its outputs lead nowhere\n"
    "        assign unused_edge = ^{flit_out[r][p*LW +: LW], credit_out[r][p*CRW +: CRW]};\n"
    "      end\n"
    "    end\n";

}  // namespace

std::string network_top(const Design& d) {
  const std::string pkg = d.module("pkg");
  std::string s = file_header(d, "Network top: every router and every link, NI ports at the top level.");
  std::vector<sv::Port> top_ports{{"input", "", "clk_i", ""},
                                  {"input", "", "rst_ni", ""},
                                  {"input", "NODES*LW-1:0", "ni_flit_i", "node n at [n*LW +: LW]"},
                                  {"output", "NODES*LW-1:0", "ni_flit_o", ""},
                                  {"input", "NODES*CRW-1:0", "ni_credit_i", "node n at [n*CRW +: CRW]"},
                                  {"output", "NODES*CRW-1:0", "ni_credit_o", ""}};
  // The family's ports: DQN-routing's one programming port for every router's
  // inference block (the same network everywhere), or every router's agent
  // port side by side.
  for (const sv::Port& port : backend_emitter(d).top_ports(d, "ROUTERS")) top_ports.push_back(port);
  s += sv::module_header(d.module("network"),
                         {{"NODES", pkg + "::NUM_NODES", ""},
                          {"ROUTERS", pkg + "::NUM_ROUTERS", ""},
                          {"P", pkg + "::NUM_PORTS", ""},
                          {"LW", pkg + "::LINK_BITS", "link word (rr_pkg::LINK_*)"},
                          {"CRW", pkg + "::CREDIT_BITS", "credit word (rr_pkg::CREDIT_*)"},
                          {"ID_W", pkg + "::ROUTER_ID_BITS", ""},
                          {"FAR_PORT_W", std::to_string(kPortBits), "PORT_MAP: bits of a far port"}},
                         top_ports);
  s += "\n" + port_tables(d) + latency_tables(d);
  s += "  // The ports of router r, port p at [p*LW +: LW] (flits) and [p*CRW +: CRW] (credits).\n"
       "  // The test bench's checkers read flit_in, flit_out and credit_out (public_flat_rd).\n";
  s += sv::align({{"logic", "[P*LW-1:0]", "flit_in", "[ROUTERS]", "/* verilator public_flat_rd */;"},
                  {"logic", "[P*LW-1:0]", "flit_out", "[ROUTERS]", "/* verilator public_flat_rd */;"},
                  {"logic", "[P*CRW-1:0]", "credit_in", "[ROUTERS];"},
                  {"logic", "[P*CRW-1:0]", "credit_out", "[ROUTERS]", "/* verilator public_flat_rd */;"},
                  {"logic", "[31:0]", "unused_cycle", "[ROUTERS];"},
                  {"logic", "[P*32-1:0]", "unused_stat_flits", "[ROUTERS];"},
                  {"logic", "[P*32-1:0]", "unused_stat_stall", "[ROUTERS];"}},
                 "  ");
  s += "\n  for (genvar r = 0; r < ROUTERS; r++) begin : gen_router\n" + router_instance(d) + kPortBlock + "  end\n";
  return s + "endmodule\n";
}

}  // namespace rlroute::emit
