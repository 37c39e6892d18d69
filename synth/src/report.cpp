// The synthesis report: JSON (every number, for scripts) and Markdown (the
// tables a reader wants: cost per block, area shares, timing, memories).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "rlroute/synth/report.hpp"
#include "rlroute/gen/version.hpp"

namespace rlroute::synth {

namespace {

using ojson = nlohmann::ordered_json;

double get(const std::map<std::string, Metrics>& per_module, const std::string& id, const std::string& key) {
  const auto it = per_module.find(id);
  if (it == per_module.end()) return 0;
  const auto v = it->second.find(key);
  return v == it->second.end() ? 0 : v->second;
}

bool has_module(const PathResult& p, const std::string& id) { return p.total.count(id) > 0; }

ojson metrics_json(const Metrics& m) {
  ojson j = ojson::object();
  for (const auto& [k, v] : m) {
    if (k == "transistors_incomplete")
      j[k] = v > 0;
    else if (std::floor(v) == v && std::fabs(v) < 1e15)
      j[k] = static_cast<long long>(v);
    else
      j[k] = v;
  }
  return j;
}

Metrics scaled(const Metrics& m, double factor) {
  Metrics out;
  for (const auto& [k, v] : m) out[k] = (k == "transistors_incomplete") ? v : v * factor;
  return out;
}

// Per-block entries of one path, in hierarchy order.
ojson blocks_json(const PathResult& p, const std::map<std::string, int>* depth) {
  const auto counts = p.hierarchy.instance_counts();
  const std::string top = p.hierarchy.top;
  ojson blocks = ojson::array();
  for (const auto& id : p.hierarchy.order()) {
    if (!has_module(p, id)) continue;
    const long n = counts.count(id) ? counts.at(id) : 0;
    ojson b;
    b["name"] = p.hierarchy.name_of(id);
    b["instances"] = n;
    Metrics per_instance = p.total.at(id);
    if (depth && depth->count(id)) per_instance["depth"] = depth->at(id);
    b["per_instance"] = metrics_json(per_instance);
    const Metrics own = p.own.count(id) ? p.own.at(id) : Metrics{};
    b["own"] = metrics_json(own);
    b["own_all_instances"] = metrics_json(scaled(own, static_cast<double>(n)));
    blocks.push_back(b);
  }
  return blocks;
}

// The fields every path shares: run time, logs, the router's totals (with its
// logic depth when given) and the per-block entries.
ojson path_json(const PathResult& p, const std::map<std::string, int>* depth) {
  ojson j;
  j["seconds"] = p.seconds;
  j["logs"] = p.logs;
  Metrics router = p.total.count(p.hierarchy.top) ? p.total.at(p.hierarchy.top) : Metrics{};
  if (depth && depth->count(p.hierarchy.top)) router["depth"] = depth->at(p.hierarchy.top);
  j["router"] = metrics_json(router);
  j["blocks"] = blocks_json(p, depth);
  return j;
}

std::string memory_kind(const std::string& via) {
  if (via.find("LUTRAM") != std::string::npos) return "LUTRAM";
  if (via.find("BLOCKRAM") != std::string::npos || via.find("BRAM") != std::string::npos) return "BRAM";
  if (via.find("URAM") != std::string::npos || via.find("ULTRA") != std::string::npos) return "URAM";
  return via;
}

struct MemoryRow {
  const InferredMemory* mem;
  std::string block;
  long instances = 0;
  std::string fpga;  // what it became on the FPGA
  double fpga_lutram = 0, fpga_bram = 0;
};

std::vector<MemoryRow> memory_rows(const SynthReport& r) {
  std::vector<MemoryRow> rows;
  if (!r.generic) return rows;
  const auto counts = r.generic->hierarchy.instance_counts();
  for (const auto& m : r.generic->memories) {
    MemoryRow row;
    row.mem = &m;
    row.block = r.generic->hierarchy.name_of(m.module);
    row.instances = counts.count(m.module) ? counts.at(m.module) : 0;
    if (r.fpga) {
      const auto it = r.fpga->memory_mapping.find({m.module, m.name});
      row.fpga = it == r.fpga->memory_mapping.end() ? "flip-flops (no RAM primitive fits)"
                                                    : fmt::format("{} ({})", memory_kind(it->second), it->second);
      row.fpga_lutram = get(r.fpga->own, m.module, "lutram");
      row.fpga_bram = get(r.fpga->own, m.module, "bram");
    }
    rows.push_back(row);
  }
  return rows;
}

// Own cost of every module times its instances: a partition of the router.
std::vector<std::pair<std::string, double>> module_shares(const PathResult& p, const std::vector<std::string>& keys) {
  const auto counts = p.hierarchy.instance_counts();
  std::vector<std::pair<std::string, double>> shares;
  for (const auto& id : p.hierarchy.order()) {
    double v = 0;
    for (const auto& key : keys) v += get(p.own, id, key) * static_cast<double>(counts.count(id) ? counts.at(id) : 0);
    shares.emplace_back(id, v);
  }
  return shares;
}

// Cost of one top-level block on one path.
Metrics block_metrics(const TopBlock& b, const PathResult& p) {
  Metrics sum;
  for (const auto& part : b.parts) {
    const auto& source = part.subtree ? p.total : p.own;
    const auto it = source.find(part.module);
    if (it == source.end()) continue;
    for (const auto& [k, v] : it->second) {
      if (k == "transistors_incomplete")
        sum[k] = std::max(sum[k], v);
      else
        sum[k] += v * static_cast<double>(part.instances);
    }
  }
  return sum;
}

// The path and the measure that rank area: um^2, else generic cells, else LUTs.
std::pair<const PathResult*, std::vector<std::string>> area_measure(const SynthReport& r) {
  if (r.liberty) return {&*r.liberty, {"area_um2"}};
  if (r.generic) return {&*r.generic, {"cells"}};
  if (r.fpga) return {&*r.fpga, {"lut", "lutram"}};
  return {nullptr, {}};
}

double sum_keys(const Metrics& m, const std::vector<std::string>& keys) {
  double v = 0;
  for (const auto& k : keys) v += m.count(k) ? m.at(k) : 0;
  return v;
}

std::string fmt_int(double v) { return fmt::format("{:.0f}", v); }

// Fmax of the worst path through a module (any instance) or a block, if
// OpenSTA's per-instance slacks were read.
std::optional<double> fmax_through(const std::map<std::string, double>& worst_slack, const std::string& key,
                                   const StaResult& sta) {
  const auto it = worst_slack.find(key);
  if (it == worst_slack.end()) return std::nullopt;
  return fmax_mhz_for_slack(sta.clock_ns, it->second);
}

// Instances of `target` inside one instance of `root` (root itself: 1).
long instances_within(const Hierarchy& h, const std::string& root, const std::string& target,
                      std::map<std::string, long>& memo) {
  if (root == target) return 1;
  if (!h.has(root)) return 0;
  if (const auto it = memo.find(root); it != memo.end()) return it->second;
  long n = 0;
  for (const auto& [inst, type] : h.at(root).instances) n += instances_within(h, type, target, memo);
  return memo[root] = n;
}

// Bits of the memories Yosys inferred inside one instance of each module,
// submodules included (generic path; empty without it).
std::map<std::string, long> memory_bits_per_module(const SynthReport& r) {
  std::map<std::string, long> bits;
  if (!r.generic) return bits;
  const Hierarchy& h = r.generic->hierarchy;
  for (const auto& m : r.generic->memories) {
    std::map<std::string, long> memo;
    for (const auto& id : h.order()) bits[id] += instances_within(h, id, m.module, memo) * m.depth * m.width;
  }
  return bits;
}
std::string fmt_pct(double part, double whole) {
  return whole > 0 ? fmt::format("{:.1f}%", 100.0 * part / whole) : "-";
}

}  // namespace

std::string area_dominant_block(const SynthReport& r) {
  const auto [p, keys] = area_measure(r);
  if (!p) return "";
  std::string best;
  double best_v = -1;
  for (const auto& b : top_blocks(r.hierarchy())) {
    const double v = sum_keys(block_metrics(b, *p), keys);
    if (v > best_v) {
      best = b.name;
      best_v = v;
    }
  }
  return best;
}

std::string area_dominant_module(const SynthReport& r) {
  const auto [p, keys] = area_measure(r);
  if (!p) return "";
  const auto shares = module_shares(*p, keys);
  const auto best =
      std::max_element(shares.begin(), shares.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return best == shares.end() ? "" : p->hierarchy.name_of(best->first);
}

ojson report_json(const SynthReport& r) {
  ojson j;
  j["generator"] = "rlroute";
  j["version"] = kVersion;
  j["config"] = r.config_name;
  j["config_file"] = r.config_file;
  j["topology"] = r.description;
  j["router_top"] = r.router_top;
  if (r.block) {
    j["block"] = {{"module", r.block->module},         {"specialization", r.block->name},
                  {"variant", r.block->variant},       {"variants", r.block->variants},
                  {"instances_in_router", r.block->instances}, {"yosys_module", r.block->id}};
  } else {
    j["block"] = nullptr;
  }
  j["rtl_hash"] = r.rtl_hash;
  j["router"] = {{"ports", r.ports}, {"vcs", r.vcs}, {"buffer_flits", r.buffer_flits}, {"flit_bits", r.flit_bits}};
  j["clock_ns"] = r.clock_ns;
  j["tools"] = {{"yosys", r.yosys_version}, {"opensta", r.sta_version}};
  j["output_dir"] = r.out_dir;
  j["seconds"] = r.seconds;

  const Hierarchy& h = r.hierarchy();
  const auto counts = h.instance_counts();
  const auto levels = h.levels();
  const auto mem_bits = memory_bits_per_module(r);
  ojson modules = ojson::array();
  for (const auto& id : h.order()) {
    const NetlistModule& m = h.at(id);
    ojson mj;
    mj["name"] = m.name;
    mj["rtl_module"] = m.hdlname;
    mj["yosys_module"] = m.id;
    mj["level"] = levels.at(id);
    mj["instances"] = counts.at(id);
    mj["parameters"] = m.parameters;
    if (r.generic) mj["memory_bits_per_instance"] = mem_bits.count(id) ? mem_bits.at(id) : 0;
    if (r.liberty) {
      const StaResult& s = r.liberty->sta;
      if (const auto it = s.worst_slack_by_module.find(id); it != s.worst_slack_by_module.end()) {
        mj["worst_slack_through_ns"] = it->second;
        mj["fmax_through_mhz"] = fmax_mhz_for_slack(s.clock_ns, it->second);
      }
    }
    modules.push_back(mj);
  }
  j["modules"] = modules;

  ojson summary;
  summary["area_measure"] = r.liberty ? "um2" : r.generic ? "generic cells" : "LUT+LUTRAM";
  summary["area_dominant_block"] = area_dominant_block(r);
  summary["area_dominant_module"] = area_dominant_module(r);
  if (r.liberty) {
    const StaResult& s = r.liberty->sta;
    summary["critical_path_block"] = s.delay_by_block.empty() ? "" : s.delay_by_block.front().first;
    summary["critical_path_module"] = s.delay_by_module.empty() ? "" : s.delay_by_module.front().first;
    summary["fmax_mhz"] = s.fmax_mhz;
  }
  j["summary"] = summary;

  // Top-level blocks: a partition of the router (see top_blocks()).
  ojson blocks = ojson::array();
  for (const auto& b : top_blocks(h)) {
    ojson bj;
    bj["name"] = b.name;
    ojson parts = ojson::array();
    for (const auto& part : b.parts) {
      parts.push_back(
          {{"module", h.name_of(part.module)}, {"instances", part.instances}, {"with_submodules", part.subtree}});
    }
    bj["parts"] = parts;
    if (r.generic) bj["generic"] = metrics_json(block_metrics(b, *r.generic));
    if (r.liberty) {
      bj["liberty"] = metrics_json(block_metrics(b, *r.liberty));
      const StaResult& s = r.liberty->sta;
      if (const auto it = s.worst_slack_by_block.find(b.name); it != s.worst_slack_by_block.end()) {
        bj["liberty"]["worst_slack_through_ns"] = it->second;
        bj["liberty"]["fmax_through_mhz"] = fmax_mhz_for_slack(s.clock_ns, it->second);
      }
    }
    if (r.fpga) bj["fpga"] = metrics_json(block_metrics(b, *r.fpga));
    blocks.push_back(bj);
  }
  j["top_blocks"] = blocks;

  if (r.generic) {
    const GenericResult& g = *r.generic;
    ojson gj = path_json(g, &g.depth);
    j["generic"] = gj;
  }
  if (r.liberty) {
    const LibertyResult& l = *r.liberty;
    ojson lj = path_json(l, nullptr);
    lj["library"] = l.library_name;
    lj["library_file"] = l.library_path;
    lj["yosys_seconds"] = l.yosys_seconds;
    lj["sta_seconds"] = l.sta_seconds;
    const StaResult& s = l.sta;
    ojson t;
    t["clock_ns"] = s.clock_ns;
    t["worst_slack_ns"] = s.worst_slack_ns;
    t["met"] = s.worst_slack_ns >= 0;
    t["tns_ns"] = s.tns_ns;
    t["critical_path_ns"] = s.critical_ns;
    t["fmax_mhz"] = s.fmax_mhz;
    t["startpoint"] = s.startpoint;
    t["endpoint"] = s.endpoint;
    t["start_block"] = s.start_block;
    t["end_block"] = s.end_block;
    ojson by_block = ojson::array();
    for (const auto& [block, delay] : s.delay_by_block) by_block.push_back({{"block", block}, {"delay_ns", delay}});
    t["delay_by_block"] = by_block;
    ojson by_module = ojson::array();
    for (const auto& [module, delay] : s.delay_by_module)
      by_module.push_back({{"module", module}, {"delay_ns", delay}});
    t["delay_by_module"] = by_module;
    ojson path = ojson::array();
    for (const auto& p : s.path) {
      path.push_back({{"pin", p.pin},
                      {"cell", p.cell},
                      {"edge", std::string(1, p.edge)},
                      {"delay_ns", p.delay},
                      {"arrival_ns", p.arrival},
                      {"module", p.module},
                      {"block", p.block}});
    }
    t["path"] = path;
    ojson ends = ojson::array();
    for (const auto& e : s.worst_endpoints) {
      ends.push_back({{"pin", e.pin}, {"slack_ns", e.slack}, {"module", e.module}, {"block", e.block}});
    }
    t["worst_endpoints"] = ends;
    lj["timing"] = t;
    j["liberty"] = lj;
  }
  if (r.fpga) {
    const FpgaResult& f = *r.fpga;
    ojson fj = path_json(f, nullptr);
    fj["family"] = f.family;
    j["fpga"] = fj;
  }
  ojson mems = ojson::array();
  for (const auto& row : memory_rows(r)) {
    const InferredMemory& m = *row.mem;
    ojson mj;
    mj["block"] = row.block;
    mj["memory"] = m.name;
    mj["depth"] = m.depth;
    mj["width"] = m.width;
    mj["bits"] = m.depth * m.width;
    mj["read_ports"] = m.read_ports;
    mj["async_read_ports"] = m.async_read_ports;
    mj["write_ports"] = m.write_ports;
    mj["instances"] = row.instances;
    mj["source"] = m.source;
    mj["generic"] = "flip-flops and read multiplexers (memory_map)";
    if (r.liberty) mj["liberty"] = "flip-flops and read multiplexers (no RAM macro in the library)";
    if (r.fpga) {
      mj["fpga"] = row.fpga;
      mj["fpga_lutram_luts_per_instance"] = row.fpga_lutram;
      mj["fpga_bram_per_instance"] = row.fpga_bram;
    }
    if (m.async_read_ports > 0) mj["note"] = "asynchronous read port: block RAM needs a registered read port";
    mems.push_back(mj);
  }
  j["memories"] = mems;
  return j;
}

std::string report_markdown(const SynthReport& r) {
  const Hierarchy& h = r.hierarchy();
  const auto counts = h.instance_counts();
  const auto levels = h.levels();
  std::string md;
  if (r.block) {
    md += fmt::format("## rlroute synth: {}, block `{}` (router top `{}`)\n\n", r.config_name, r.block->module,
                      r.router_top);
    md += fmt::format(
        "Block `{}:{}` = {}, specialization {} of {}, {} instance(s) in the router, synthesized on its own: its "
        "ports are timed as if registered outside it, so paths that cross blocks in the router are not in its "
        "Fmax.\n\n",
        r.block->module, r.block->variant, r.block->name, r.block->variant, r.block->variants, r.block->instances);
  } else {
    md += fmt::format("## rlroute synth: {} (router top `{}`)\n\n", r.config_name, r.router_top);
  }
  md += fmt::format("{}; {} ports, {} VCs x {} flits, {}-bit flits. Clock target {:.3f} ns.", r.description, r.ports,
                    r.vcs, r.buffer_flits, r.flit_bits, r.clock_ns);
  if (r.liberty) md += fmt::format(" Liberty: {} (`{}`).", r.liberty->library_name, r.liberty->library_path);
  if (r.fpga) md += fmt::format(" FPGA: Zynq UltraScale+ (`synth_xilinx -family {}`).", r.fpga->family);
  md += "\n\n";

  // Cost per block: one instance, submodules included.
  std::vector<std::string> head = {"block", "inst"};
  const bool timing_by_block = r.liberty && !r.liberty->sta.worst_slack_by_module.empty();
  const auto mem_bits = memory_bits_per_module(r);
  if (r.generic) head.insert(head.end(), {"cells", "flops", "transistors", "depth", "memory bits"});
  if (r.liberty) head.insert(head.end(), {"std cells", "area um^2"});
  if (timing_by_block) head.push_back("Fmax MHz");
  if (r.fpga) head.insert(head.end(), {"LUT", "FF", "LUTRAM", "BRAM", "DSP"});
  auto row = [](const std::vector<std::string>& cols) {
    std::string s = "|";
    for (const auto& c : cols) s += " " + c + " |";
    return s + "\n";
  };
  md += row(head);
  std::vector<std::string> rule = {"---"};
  for (std::size_t i = 1; i < head.size(); ++i) rule.push_back("--:");
  md += row(rule);
  for (const auto& id : h.order()) {
    std::string name;
    for (int i = 0; i < levels.at(id); ++i) name += ". ";
    name += (id == h.top) ? fmt::format("**{}** ({})", h.name_of(id), r.block ? "block" : "router") : h.name_of(id);
    std::vector<std::string> cols = {name, std::to_string(counts.at(id))};
    if (r.generic) {
      const auto& g = *r.generic;
      const bool have = has_module(g, id);
      cols.push_back(have ? fmt_int(get(g.total, id, "cells")) : "-");
      cols.push_back(have ? fmt_int(get(g.total, id, "flops")) : "-");
      cols.push_back(have ? fmt_int(get(g.total, id, "transistors")) +
                                (get(g.total, id, "transistors_incomplete") > 0 ? "+" : "")
                          : "-");
      cols.push_back(g.depth.count(id) ? std::to_string(g.depth.at(id)) : "-");
      cols.push_back(mem_bits.count(id) && mem_bits.at(id) > 0 ? std::to_string(mem_bits.at(id)) : "-");
    }
    if (r.liberty) {
      const auto& l = *r.liberty;
      const bool have = has_module(l, id);
      cols.push_back(have ? fmt_int(get(l.total, id, "cells")) : "-");
      cols.push_back(have ? fmt::format("{:.1f}", get(l.total, id, "area_um2")) : "-");
    }
    if (timing_by_block) {
      const auto f = fmax_through(r.liberty->sta.worst_slack_by_module, id, r.liberty->sta);
      cols.push_back(f ? fmt::format("{:.0f}", *f) : "-");
    }
    if (r.fpga) {
      const auto& f = *r.fpga;
      const bool have = has_module(f, id);
      cols.push_back(have ? fmt_int(get(f.total, id, "lut")) : "-");
      cols.push_back(have ? fmt_int(get(f.total, id, "ff")) : "-");
      cols.push_back(have ? fmt_int(get(f.total, id, "lutram")) : "-");
      cols.push_back(have ? fmt::format("{:g}", get(f.total, id, "bram")) : "-");
      cols.push_back(have ? fmt_int(get(f.total, id, "dsp")) : "-");
    }
    md += row(cols);
  }
  md +=
      "\nPer instance, submodules included; `inst` = instances in the router. depth = generic gates on the longest "
      "combinational path (`ltp`, flattened). memory bits: words x width of the memories Yosys inferred (`memory "
      "-nomap`). Fmax: of the worst path through any instance of the module (OpenSTA; it may start and end in "
      "other blocks). LUTRAM in LUTs. transistors: `stat -tech cmos` after async2sync + dffunmap (\"+\": some "
      "cells have no estimate).\n\n";

  // Area shares: the router's top-level blocks, a partition of its logic.
  md +=
      "**Where the area goes** (the router's top-level blocks, all instances, submodules included; share of the "
      "router):\n\n";
  std::vector<std::string> shead = {"block", "inst"};
  if (r.generic) shead.insert(shead.end(), {"cells", "transistors"});
  if (r.liberty) shead.push_back("area um^2");
  if (r.fpga) shead.insert(shead.end(), {"LUT+LUTRAM", "FF"});
  if (timing_by_block) shead.push_back("Fmax MHz (worst path through it)");
  md += row(shead);
  std::vector<std::string> srule = {"---"};
  for (std::size_t i = 1; i < shead.size(); ++i) srule.push_back("--:");
  md += row(srule);
  const auto [measure_path, measure_keys] = area_measure(r);
  auto blocks = top_blocks(h);
  std::stable_sort(blocks.begin(), blocks.end(),
                   [&, &mp = measure_path, &mk = measure_keys](const TopBlock& a, const TopBlock& b) {
                     return sum_keys(block_metrics(a, *mp), mk) > sum_keys(block_metrics(b, *mp), mk);
                   });
  for (const auto& b : blocks) {
    long n = 0;
    for (const auto& part : b.parts) n += part.instances;
    std::vector<std::string> cols = {b.name, std::to_string(n)};
    bool any = false;
    auto share = [&](const PathResult& p, const std::vector<std::string>& keys, int decimals) {
      const double v = sum_keys(block_metrics(b, p), keys);
      const double whole = sum_keys(p.total.count(p.hierarchy.top) ? p.total.at(p.hierarchy.top) : Metrics{}, keys);
      any = any || v > 0;
      return fmt::format("{:.{}f} ({})", v, decimals, fmt_pct(v, whole));
    };
    if (r.generic) {
      cols.push_back(share(*r.generic, {"cells"}, 0));
      cols.push_back(share(*r.generic, {"transistors"}, 0));
    }
    if (r.liberty) cols.push_back(share(*r.liberty, {"area_um2"}, 1));
    if (r.fpga) {
      cols.push_back(share(*r.fpga, {"lut", "lutram"}, 0));
      cols.push_back(share(*r.fpga, {"ff"}, 0));
    }
    if (timing_by_block) {
      const auto f = fmax_through(r.liberty->sta.worst_slack_by_block, b.name, r.liberty->sta);
      cols.push_back(f ? fmt::format("{:.0f}", *f) : "-");
    }
    if (any) md += row(cols);
  }
  {
    const auto shares = module_shares(*measure_path, measure_keys);
    double whole = 0, best = 0;
    for (const auto& [id, v] : shares) {
      whole += v;
      best = std::max(best, v);
    }
    md += fmt::format(
        "\nLargest share of the area ({}): block **{}**; single module (own cells, all instances): "
        "**{}** ({}).\n\n",
        r.liberty   ? "um^2"
        : r.generic ? "generic cells"
                    : "LUT+LUTRAM",
        area_dominant_block(r), area_dominant_module(r), fmt_pct(best, whole));
  }

  if (r.liberty) {
    const StaResult& s = r.liberty->sta;
    md += fmt::format(
        "**Timing** (OpenSTA, {} library, ideal clock {:.3f} ns): worst slack {:.3f} ns ({}), TNS {:.3f} ns; critical "
        "path {:.3f} ns -> **Fmax {:.0f} MHz**.\n\n",
        r.liberty->library_name, s.clock_ns, s.worst_slack_ns, s.worst_slack_ns >= 0 ? "met" : "violated", s.tns_ns,
        s.critical_ns, s.fmax_mhz);
    md += fmt::format("Critical path: from `{}` ({}) to `{}` ({}), {} cells. Delay by top-level block:", s.startpoint,
                      s.start_block, s.endpoint, s.end_block,
                      std::count_if(s.path.begin(), s.path.end(), [](const PathPoint& p) {
                        return p.pin.find('/') != std::string::npos && p.delay > 0;
                      }));
    for (std::size_t i = 0; i < s.delay_by_block.size(); ++i) {
      md += fmt::format("{} {} {:.3f} ns", i ? "," : "", s.delay_by_block[i].first, s.delay_by_block[i].second);
    }
    md += "; by module:";
    for (std::size_t i = 0; i < s.delay_by_module.size(); ++i) {
      md += fmt::format("{} {} {:.3f} ns", i ? "," : "", s.delay_by_module[i].first, s.delay_by_module[i].second);
    }
    md += fmt::format(". The critical path is set by **{}**.\n\n",
                      s.delay_by_block.empty() ? std::string("?") : s.delay_by_block.front().first);
  }

  const auto mems = memory_rows(r);
  if (r.generic) {
    md += "**Memories** inferred by Yosys (`memory -nomap`):";
    if (mems.empty())
      md += " none.\n\n";
    else
      md += "\n\n";
    for (const auto& m : mems) {
      md += fmt::format(
          "- `{}` in {} (x{}): {} x {} bits, {} read port(s) ({} asynchronous), {} write port(s); generic "
          "and standard cells: flip-flops + read mux",
          m.mem->name, m.block, m.instances, m.mem->depth, m.mem->width, m.mem->read_ports, m.mem->async_read_ports,
          m.mem->write_ports);
      if (r.fpga) md += fmt::format("; FPGA: {}, {:g} LUTs as memory per instance", m.fpga, m.fpga_lutram);
      if (m.mem->async_read_ports > 0) md += " (asynchronous read: no block RAM without a registered read port)";
      md += ".\n";
    }
    if (!mems.empty()) md += "\n";
  }

  md += "**Run time**:";
  if (r.generic) md += fmt::format(" generic {:.1f} s;", r.generic->seconds);
  if (r.liberty) {
    md += fmt::format(" standard cells {:.1f} s (Yosys {:.1f} s, OpenSTA {:.1f} s);", r.liberty->seconds,
                      r.liberty->yosys_seconds, r.liberty->sta_seconds);
  }
  if (r.fpga) md += fmt::format(" FPGA {:.1f} s;", r.fpga->seconds);
  md += fmt::format(" total {:.1f} s. Logs: `{}/logs/`.\n", r.seconds, r.out_dir);
  return md;
}

}  // namespace rlroute::synth
