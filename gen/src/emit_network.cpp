// Emits the network top of a design: every router and every link (with its
// link and credit latency), terminal ports at the top level.
#include <fmt/format.h>

#include "emit_parts.hpp"

namespace rlroute::emit {

std::string network_top(const Design& d) {
  const Topology& t = d.topo;
  const int lw = d.link_bits;
  const int cb = d.credit_bits;
  const int n = t.num_nodes();
  std::string s = file_header(d, "Network top: every router and every link, NI ports at the top level.");
  s += fmt::format(
      "module {} (\n"
      "  input  logic              clk_i,\n"
      "  input  logic              rst_ni,\n"
      "  input  logic [{}:0]  ni_flit_i,    // {} nodes x {} bits, node n at [n*{}+:{}]\n"
      "  output logic [{}:0]  ni_flit_o,\n"
      "  input  logic [{}:0]  ni_credit_i,  // {} nodes x {} bits\n"
      "  output logic [{}:0]  ni_credit_o\n"
      ");\n",
      d.module("network"), n * lw - 1, n, lw, lw, lw, n * lw - 1, n * cb - 1, n, cb, n * cb - 1);
  for (int r = 0; r < t.num_routers(); ++r) {
    s += fmt::format("  logic [{}:0] flit_in_{r}, flit_out_{r};\n", d.ports * lw - 1, fmt::arg("r", r));
    s += fmt::format("  logic [{}:0] credit_in_{r}, credit_out_{r};\n", d.ports * cb - 1, fmt::arg("r", r));
    s += fmt::format("  logic [{}:0] unused_stats_{};\n", 32 + 2 * 32 * d.ports - 1, r);
  }
  s += "\n";
  for (int r = 0; r < t.num_routers(); ++r) {
    const std::string id = fmt::format("{}'d{}", t.router_id_bits(), t.router_id(r));
    s += fmt::format("  // router {}\n", t.router_name(r));
    s += fmt::format(
        "  {} i_router_{r} (\n"
        "    .clk_i, .rst_ni,\n"
        "    .id_i        ({}),\n"
        "    .flit_i      (flit_in_{r}),\n"
        "    .flit_o      (flit_out_{r}),\n"
        "    .credit_i    (credit_in_{r}),\n"
        "    .credit_o    (credit_out_{r}),\n"
        "    .cycle_o     (unused_stats_{r}[31:0]),\n"
        "    .stat_flits_o(unused_stats_{r}[{}:32]),\n"
        "    .stat_stall_o(unused_stats_{r}[{}:{}])\n"
        "  );\n",
        d.module("router"), id, 32 + 32 * d.ports - 1, 32 + 64 * d.ports - 1, 32 + 32 * d.ports,
        fmt::arg("r", r));
    for (int p = 0; p < d.ports; ++p) {
      const std::string fin = fmt::format("flit_in_{}[{}+:{}]", r, p * lw, lw);
      const std::string cin = fmt::format("credit_in_{}[{}+:{}]", r, p * cb, cb);
      if (t.is_ni_port(p)) {
        const int node = t.node_at(r, p);
        s += fmt::format("  assign {} = ni_flit_i[{}+:{}];\n", fin, node * lw, lw);
        s += fmt::format("  assign ni_flit_o[{}+:{}] = flit_out_{}[{}+:{}];\n", node * lw, lw, r, p * lw, lw);
        s += fmt::format("  assign {} = ni_credit_i[{}+:{}];\n", cin, node * cb, cb);
        s += fmt::format("  assign ni_credit_o[{}+:{}] = credit_out_{}[{}+:{}];\n", node * cb, cb, r, p * cb, cb);
        continue;
      }
      const std::optional<PortRef> far = t.neighbor(r, p);
      if (!far) {
        s += fmt::format("  assign {} = '0;  // mesh edge: no link\n", fin);
        s += fmt::format("  assign {} = '0;\n", cin);
        continue;
      }
      s += fmt::format(
          "  rr_link #(.WIDTH({}), .LATENCY({})) i_flit_link_{}_{} (\n"
          "    .clk_i, .rst_ni, .data_i(flit_out_{}[{}+:{}]), .data_o({}));\n",
          lw, t.link_latency(p), r, p, far->router, far->port * lw, lw, fin);
      s += fmt::format(
          "  rr_link #(.WIDTH({}), .LATENCY({})) i_credit_link_{}_{} (\n"
          "    .clk_i, .rst_ni, .data_i(credit_out_{}[{}+:{}]), .data_o({}));\n",
          cb, t.credit_latency(p), r, p, far->router, far->port * cb, cb, cin);
    }
    s += "\n";
  }
  s += "endmodule\n";
  return s;
}


}  // namespace rlroute::emit
