#include "rlroute/gen/emit.hpp"

#include <cctype>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "backend.hpp"
#include "emit_parts.hpp"
#include "sv_writer.hpp"
#include "rlroute/gen/files.hpp"
#include "rlroute/gen/routing.hpp"
#include "rlroute/gen/routing_check.hpp"
#include "rlroute/gen/version.hpp"

#ifndef RLROUTE_DEFAULT_RTL_DIR
#define RLROUTE_DEFAULT_RTL_DIR "rtl"
#endif

namespace rlroute {

namespace fs = std::filesystem;

namespace {

// Hand-written blocks every design uses, in compile order.
const std::vector<std::string> kBuildingBlocks = {
    "rr_pkg.sv",         "rr_arbiter_rr.sv",     "rr_arbiter_multi.sv", "rr_fifo.sv",
    "rr_credit_counter.sv", "rr_head_decision.sv", "rr_input_port.sv",  "rr_vc_alloc.sv",
    "rr_sw_alloc.sv",    "rr_crossbar.sv",       "rr_output_port.sv",
    "rr_handover_wait.sv", "rr_router.sv",       "rr_link.sv"};

// RTL building blocks are small; a larger file is not one of ours.
constexpr std::size_t kMaxRtlFileBytes = 1 << 20;

std::string read_file(const fs::path& path) { return read_regular_file(path, kMaxRtlFileBytes, "RTL building block"); }

std::string emit_package(const Design& d) {
  const HeaderLayout& h = d.header;
  const Topology& t = d.topo;
  std::vector<sv::Param> params;
  auto param = [&params](const std::string& name, long value, const std::string& comment) {
    params.push_back({name, std::to_string(value), comment});
  };
  param("NUM_ROUTERS", t.num_routers(), "routers in the network");
  param("NUM_NODES", t.num_nodes(), "network interfaces");
  if (t.dragonfly()) {
    param("NUM_PORTS", d.ports, "router ports: NUM_NI terminal ports, GROUP_SIZE-1 local, GLOBAL_PORTS global");
    param("NUM_NI", t.nodes_per_router(), "topology.p");
    param("GROUP_SIZE", t.group_size(), "topology.a");
    param("GLOBAL_PORTS", t.global_ports(), "topology.h");
    param("NUM_GROUPS", t.num_groups(), "topology.g");
    param("LINKS_PER_GROUP_PAIR", t.links_per_group_pair(), "a*h/(g-1)");
    param("PALMTREE", t.arrangement() == GlobalArrangement::Palmtree, "topology.arrangement");
    param("GROUP_BITS", t.router_id_bits() - std::max(1, bits_for(t.group_size())), "group field of a router id");
    param("INDEX_BITS", std::max(1, bits_for(t.group_size())), "index field of a router id");
  } else {
    param("NUM_PORTS", d.ports, "router ports: NUM_NI NI ports, then +/- per dimension");
    param("NUM_NI", t.nodes_per_router(), "router.nodes_per_router");
    param("NUM_DIMS", t.num_dims(), "length of topology.dims");
    param("COORD_BITS", t.coord_bits(), "bits per coordinate in an address");
  }
  param("ROUTER_ID_BITS", t.router_id_bits(), "router identity (id_i)");
  param("NUM_VCS", d.vcs, "router.vcs");
  param("BUFFER_FLITS", d.buffer_flits, "router.buffer_flits");
  param("FLIT_BITS", d.flit_bits, "router.flit_bits");
  param("MIN_PACKET_FLITS", d.cfg.min_packet_flits, "router.min_packet_flits");
  param("SPEEDUP", d.cfg.speedup, "router.speedup");
  param("OUTPUT_BUFFER_FLITS", d.cfg.output_buffer_flits, "router.output_buffer_flits");
  param("BUFFER_REG_READ", d.cfg.buffer_read == BufferRead::Registered, "router.buffer_read");
  param("SWITCH_SPECULATIVE", d.cfg.switch_allocation == SwitchAllocation::Speculative,
        "router.switch_allocation");
  param("MAX_PACKET_FLITS", d.cfg.max_packet_flits, "router.max_packet_flits");
  param("VC_BITS", d.vc_bits, "width of a VC id");
  param("PORT_BITS", d.port_bits, "width of a port id");
  param("LINK_BITS", d.link.link_bits(), "link word {data, vc, tail, head, valid} (rr_pkg::LINK_*)");
  param("CREDIT_BITS", d.link.credit_bits(), "credit word {vc, valid} (rr_pkg::CREDIT_*)");
  param("LOCAL_BITS", t.local_bits(), "bits of the NI index in an address");
  if (!t.dragonfly()) {
    param("LINK_LATENCY", d.cfg.link_latency, "topology.link_latency");
    param("CREDIT_LATENCY", d.cfg.credit_latency, "topology.credit_latency");
  }
  const emit::PackagePart part = emit::backend_emitter(d).package_part(d);
  params.insert(params.end(), part.params.begin(), part.params.end());
  std::vector<sv::Param> fields;
  for (const auto& [lower, f] : h.named()) {
    std::string name = lower == "length" ? "len" : lower == "packet_id" ? "pkt_id" : lower;
    for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    fields.push_back({"HDR_" + name + "_LSB", std::to_string(f.lsb), ""});
    fields.push_back({"HDR_" + name + "_W", std::to_string(f.width), ""});
  }
  std::string s = emit::file_header(d, "Constants of this design, for users and tools.");
  s += fmt::format("package {};\n", d.module("pkg"));
  // The constants are for users and tools; a design uses only some of them.
  s += "  /* verilator lint_off UNUSEDPARAM */\n";
  s += sv::localparams(params, "  ");
  s += part.text;
  s += "  // Header flit fields: LSB and width.\n";
  s += sv::localparams(fields, "  ");
  s += "  /* verilator lint_on UNUSEDPARAM */\n";
  s += "endpackage\n";
  return s;
}

}  // namespace

namespace emit {

std::string file_header(const Design& d, const std::string& what) {
  const Config& c = d.cfg;
  return fmt::format(
      "// {}\n"
      "// Generated by rlroute {} from config \"{}\" ({}). Do not edit.\n"
      "// {}; routing {}; {} VCs x {} flits, {}-bit flits, packets of {}..{} flits;\n"
      "// speedup {}{}; {}.\n\n",
      what, kVersion, c.name, fs::path(c.path).filename().string(), d.topo.describe(),
      to_string(c.algorithm), c.vcs, c.buffer_flits, c.flit_bits, c.min_packet_flits, c.max_packet_flits, c.speedup,
      c.speedup > 1 ? fmt::format(" with {}-flit output buffers", c.output_buffer_flits) : std::string(),
      d.topo.dragonfly()
          ? fmt::format("local links {}/{}, global links {}/{} cycles (link/credit latency)", c.local_link_latency,
                        c.local_credit_latency, c.global_link_latency, c.global_credit_latency)
          : fmt::format("link latency {}, credit latency {}", c.link_latency, c.credit_latency));
}

}  // namespace emit

fs::path rtl_source_dir() {
  if (const char* env = std::getenv("RLROUTE_RTL_DIR")) return env;
  return RLROUTE_DEFAULT_RTL_DIR;
}

std::string content_hash(const std::map<std::string, std::string>& files) {
  // FNV-1a over names and contents: stable across runs and machines.
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const std::string& s) {
    for (unsigned char ch : s) {
      h ^= ch;
      h *= 1099511628211ull;
    }
    h ^= 0xff;
    h *= 1099511628211ull;
  };
  for (const auto& [name, content] : files) {
    mix(name);
    mix(content);
  }
  return fmt::format("{:016x}", h);
}

std::string compiled_text(const std::string& sv) {
  std::string out;
  std::string line;
  bool in_block_comment = false;
  const auto keep = [](std::string_view comment) {
    // Verilator reads its own comments (lint_off, public, ...): they count.
    const std::size_t start = comment.find_first_not_of(" \t");
    return start != std::string_view::npos && comment.substr(start).rfind("verilator", 0) == 0;
  };
  for (std::size_t i = 0; i < sv.size(); ++i) {
    const char c = sv[i];
    const char next = i + 1 < sv.size() ? sv[i + 1] : '\0';
    if (in_block_comment) {
      if (c == '*' && next == '/') {
        in_block_comment = false;
        ++i;
      }
      continue;
    }
    if (c == '"') {  // a string literal is code, comment markers in it too
      const std::size_t end = sv.find('"', i + 1);
      const std::size_t stop = end == std::string::npos ? sv.size() : end + 1;
      line += sv.substr(i, stop - i);
      i = stop - 1;
      continue;
    }
    if (c == '/' && next == '/') {
      const std::size_t end = std::min(sv.find('\n', i), sv.size());
      if (keep(std::string_view(sv).substr(i + 2, end - i - 2))) line += sv.substr(i, end - i);
      i = end - 1;
      continue;
    }
    if (c == '/' && next == '*') {
      const std::size_t end = sv.find("*/", i + 2);
      if (end != std::string::npos && keep(std::string_view(sv).substr(i + 2, end - i - 2))) {
        line += sv.substr(i, end + 2 - i);
        i = end + 1;
      } else {
        in_block_comment = true;
        ++i;
      }
      continue;
    }
    if (c == '\n') {
      while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
      if (line.find_first_not_of(" \t") != std::string::npos) out += line + '\n';
      line.clear();
      continue;
    }
    line += c;
  }
  if (line.find_first_not_of(" \t") != std::string::npos) out += line + '\n';
  return out;
}

EmittedDesign emit_design(const Design& d) {
  const std::unique_ptr<RoutingRelation> relation = make_routing_relation(d);
  return emit_design(d, *relation);
}

namespace {

EmittedDesign emit_with_requests(const Design& d, const RoutingRelation& relation, const VcRequestMap& requests);

}  // namespace

EmittedDesign emit_design(const Design& d, const RoutingRelation& relation) {
  const VcRequestMap requests = check_routing(d, relation);
  return emit_with_requests(d, relation, requests);
}

// Without the walk there is no request map: the full VC allocator.
EmittedDesign emit_design_unchecked(const Design& d, const RoutingRelation& relation) {
  return emit_with_requests(d, relation, VcRequestMap::all(d.ports * d.vcs));
}

namespace {

EmittedDesign emit_with_requests(const Design& d, const RoutingRelation& relation, const VcRequestMap& requests) {
  EmittedDesign e;
  e.router_top = d.module("router");
  e.network_top = d.module("network");
  std::vector<std::string> order;
  const fs::path rtl = rtl_source_dir();
  std::vector<std::string> blocks = kBuildingBlocks;
  for (const std::string& b : emit::backend_emitter(d).rtl_blocks(d)) blocks.push_back(b);
  for (const std::string& block : blocks) {
    e.files["rtl/" + block] = read_file(rtl / block);
    order.push_back("rtl/" + block);
  }
  e.files[d.module("pkg") + ".sv"] = emit_package(d);
  e.files[e.router_top + ".sv"] = emit::router_top(d, relation, requests);
  e.files[e.network_top + ".sv"] = emit::network_top(d);
  order.insert(order.begin(), d.module("pkg") + ".sv");
  order.push_back(e.router_top + ".sv");
  order.push_back(e.network_top + ".sv");

  e.filelist = d.cfg.name + ".f";
  std::string f = fmt::format("// rlroute {} filelist for \"{}\"; paths are relative to this file (verilator -F)\n",
                              kVersion, d.cfg.name);
  for (const std::string& file : order) f += file + "\n";
  e.files[e.filelist] = f;

  nlohmann::ordered_json m;
  m["generator"] = "rlroute";
  m["version"] = kVersion;
  m["config"] = d.cfg.name;
  if (d.topo.dragonfly()) {
    const Config& c = d.cfg;
    m["topology"] = {{"kind", to_string(c.kind)},
                     {"p", c.p}, {"a", c.a}, {"h", c.h}, {"g", c.g},
                     {"links_per_group_pair", d.topo.links_per_group_pair()},
                     {"arrangement", to_string(c.arrangement)},
                     {"routers", d.topo.num_routers()},
                     {"nodes", d.topo.num_nodes()},
                     {"local_link_latency", c.local_link_latency},
                     {"global_link_latency", c.global_link_latency},
                     {"local_credit_latency", c.local_credit_latency},
                     {"global_credit_latency", c.global_credit_latency}};
  } else {
    m["topology"] = {{"kind", to_string(d.cfg.kind)},
                     {"dims", d.cfg.dims},
                     {"routers", d.topo.num_routers()},
                     {"nodes", d.topo.num_nodes()},
                     {"link_latency", d.cfg.link_latency},
                     {"credit_latency", d.cfg.credit_latency}};
  }
  m["router"] = {{"ports", d.ports},          {"vcs", d.vcs},
                 {"buffer_flits", d.buffer_flits}, {"flit_bits", d.flit_bits},
                 {"min_packet_flits", d.cfg.min_packet_flits}, {"max_packet_flits", d.cfg.max_packet_flits},
                 {"nodes_per_router", d.cfg.nodes_per_router}, {"speedup", d.cfg.speedup},
                 {"output_buffer_flits", d.cfg.output_buffer_flits}, {"buffer_read", to_string(d.cfg.buffer_read)},
                 {"switch_allocation", to_string(d.cfg.switch_allocation)}};
  m["routing"] = {{"algorithm", to_string(d.cfg.algorithm)}, {"hop_bound", relation.hop_bound()}};
  m["tops"] = {{"router", e.router_top}, {"network", e.network_top}, {"package", d.module("pkg")}};
  m["filelist"] = e.filelist;
  m["files"] = order;
  nlohmann::ordered_json hdr;
  for (const auto& [name, fld] : d.header.named()) hdr[name] = {{"lsb", fld.lsb}, {"width", fld.width}};
  m["header"] = hdr;
  std::map<std::string, std::string> compiled;
  for (const std::string& file : order) compiled[file] = compiled_text(e.files.at(file));
  compiled["order"] = fmt::format("{}", fmt::join(order, "\n"));
  m["rtl_hash"] = content_hash(compiled);  // what Verilator compiles: comments and blank lines do not count
  e.hash = m["rtl_hash"];
  e.files["manifest.json"] = m.dump(2) + "\n";
  return e;
}

}  // namespace

void write_design(const EmittedDesign& e, const OutputDirectory& out, const fs::path& under) {
  for (const auto& [name, content] : e.files) out.write(under / name, content);
}

void write_design(const EmittedDesign& e, const fs::path& dir) {
  OutputDirectory out(dir, "-o");
  write_design(e, out);
  out.commit();
}

}  // namespace rlroute
