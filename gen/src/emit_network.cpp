// Emits the network top of a design: every router and every link (with its
// link and credit latency), terminal ports at the top level.
#include <fmt/format.h>

#include "backend.hpp"
#include "emit_parts.hpp"
#include "sv_writer.hpp"

namespace rlroute::emit {

namespace {

// The config keys a port class's latencies come from.
std::pair<std::string, std::string> latency_keys(const Topology& t, int port) {
  if (t.is_local_port(port)) return {"topology.local_link_latency", "topology.local_credit_latency"};
  if (t.is_global_port(port)) return {"topology.global_link_latency", "topology.global_credit_latency"};
  return {"topology.link_latency", "topology.credit_latency"};
}

// "[p*LW +: LW]" of port p.
std::string slice(int index, const std::string& width) { return fmt::format("[{}*{} +: {}]", index, width, width); }

// One router and what its ports connect to: the NIs, the links that arrive at
// it (each link is emitted at its receiving end) or nothing (mesh edges).
std::string router_block(const Design& d, int r, std::vector<std::string>& unused_edges) {
  const Topology& t = d.topo;
  std::string s = fmt::format("  // Router {} (id {})\n", t.router_name(r), t.router_id(r));
  std::vector<sv::Connection> ports{{"clk_i", "", ""},
                     {"rst_ni", "", ""},
                     {"id_i", fmt::format("IDW'({})", t.router_id(r)), t.router_name(r)},
                     {"flit_i", fmt::format("flit_in[{}]", r), ""},
                     {"flit_o", fmt::format("flit_out[{}]", r), ""},
                     {"credit_i", fmt::format("credit_in[{}]", r), ""},
                     {"credit_o", fmt::format("credit_out[{}]", r), ""},
                     {"cycle_o", fmt::format("unused_cycle[{}]", r), ""},
                     {"stat_flits_o", fmt::format("unused_stat_flits[{}]", r), ""},
                     {"stat_stall_o", fmt::format("unused_stat_stall[{}]", r), ""}};
  for (const sv::Connection& c : backend_emitter(d).network_connections(d, r)) ports.push_back(c);
  s += sv::instance(d.module("router"), fmt::format("i_router_{}", r), {}, ports, "  ");
  std::vector<std::vector<std::string>> assigns;
  std::string links;
  for (int p = 0; p < d.ports; ++p) {
    const std::string fin = fmt::format("flit_in[{}]{}", r, slice(p, "LW"));
    const std::string cin = fmt::format("credit_in[{}]{}", r, slice(p, "CRW"));
    if (t.is_ni_port(p)) {
      const int node = t.node_at(r, p);
      const std::string note = fmt::format("// node {}", node);
      assigns.push_back({"assign", fin, "=", fmt::format("ni_flit_i{};", slice(node, "LW")), note});
      assigns.push_back({"assign", fmt::format("ni_flit_o{}", slice(node, "LW")), "=",
                         fmt::format("flit_out[{}]{};", r, slice(p, "LW")), note});
      assigns.push_back({"assign", cin, "=", fmt::format("ni_credit_i{};", slice(node, "CRW")), note});
      assigns.push_back({"assign", fmt::format("ni_credit_o{}", slice(node, "CRW")), "=",
                         fmt::format("credit_out[{}]{};", r, slice(p, "CRW")), note});
      continue;
    }
    const std::optional<PortRef> far = t.neighbor(r, p);
    if (!far) {
      const std::string note = fmt::format("// {} {}: mesh edge, no link", t.router_name(r), t.port_name(r, p));
      assigns.push_back({"assign", fin, "=", "'0;", note});
      assigns.push_back({"assign", cin, "=", "'0;", note});
      unused_edges.push_back(fmt::format("flit_out[{}]{}", r, slice(p, "LW")));
      unused_edges.push_back(fmt::format("credit_out[{}]{}", r, slice(p, "CRW")));
      continue;
    }
    const auto [link_key, credit_key] = latency_keys(t, p);
    links += fmt::format("  // {} {} -> {} {}\n", t.router_name(far->router), t.port_name(far->router, far->port),
                         t.router_name(r), t.port_name(r, p));
    links += sv::instance("rr_link", fmt::format("i_flit_link_{}_{}", r, p),
                          {{"WIDTH", "LW", ""}, {"LATENCY", std::to_string(t.link_latency(p)), link_key}},
                          {{"clk_i", "", ""},
                           {"rst_ni", "", ""},
                           {"data_i", fmt::format("flit_out[{}]{}", far->router, slice(far->port, "LW")), ""},
                           {"data_o", fin, ""}},
                          "  ");
    links += sv::instance("rr_link", fmt::format("i_credit_link_{}_{}", r, p),
                          {{"WIDTH", "CRW", ""}, {"LATENCY", std::to_string(t.credit_latency(p)), credit_key}},
                          {{"clk_i", "", ""},
                           {"rst_ni", "", ""},
                           {"data_i", fmt::format("credit_out[{}]{}", far->router, slice(far->port, "CRW")), ""},
                           {"data_o", cin, ""}},
                          "  ");
  }
  return s + sv::align(assigns, "  ") + links + "\n";
}

}  // namespace

std::string network_top(const Design& d) {
  const Topology& t = d.topo;
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
                          {"IDW", pkg + "::ROUTER_ID_BITS", ""}},
                         top_ports);
  s += "\n  // The ports of router r, port p at [p*LW +: LW] (flits) and [p*CRW +: CRW] (credits).\n"
       "  // The test bench's checkers read flit_in, flit_out and credit_out (public_flat_rd).\n";
  s += sv::align({{"logic", "[P*LW-1:0]", "flit_in", "[ROUTERS]", "/* verilator public_flat_rd */;"},
                  {"logic", "[P*LW-1:0]", "flit_out", "[ROUTERS]", "/* verilator public_flat_rd */;"},
                  {"logic", "[P*CRW-1:0]", "credit_in", "[ROUTERS];"},
                  {"logic", "[P*CRW-1:0]", "credit_out", "[ROUTERS]", "/* verilator public_flat_rd */;"},
                  {"logic", "[31:0]", "unused_cycle", "[ROUTERS];"},
                  {"logic", "[P*32-1:0]", "unused_stat_flits", "[ROUTERS];"},
                  {"logic", "[P*32-1:0]", "unused_stat_stall", "[ROUTERS];"}},
                 "  ");
  s += "\n";
  std::vector<std::string> unused_edges;
  for (int r = 0; r < t.num_routers(); ++r) s += router_block(d, r, unused_edges);
  if (!unused_edges.empty()) {
    s += "  // Outputs of mesh edge ports lead nowhere.\n  logic unused_edges;\n  assign unused_edges = ^{\n";
    for (std::size_t i = 0; i < unused_edges.size(); ++i) {
      s += "    " + unused_edges[i] + (i + 1 < unused_edges.size() ? ",\n" : "\n");
    }
    s += "  };\n";
  }
  s += "endmodule\n";
  return s;
}

}  // namespace rlroute::emit
