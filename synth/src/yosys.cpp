// Parsers of what the Yosys scripts write: `stat -json`, `ltp`, the memory
// cells of `memory -nomap`, and memory_libmap's log lines.
#include <fmt/format.h>

#include <regex>
#include <sstream>

#include "rlroute/synth/hierarchy.hpp"
#include "rlroute/synth/yosys.hpp"

namespace rlroute::synth {

std::string unescape(const std::string& name) {
  return (!name.empty() && name.front() == '\\') ? name.substr(1) : name;
}

namespace {

long bits_to_long(const nlohmann::json& v) {
  const std::string s = decode_parameter(v);
  try {
    return std::stol(s);
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

const nlohmann::json& json_member(const nlohmann::json& j, const std::string& key) {
  static const nlohmann::json empty = nlohmann::json::object();
  if (!j.is_object()) return empty;
  const auto it = j.find(key);
  return it == j.end() ? empty : *it;
}

std::map<std::string, ModuleStat> parse_stat_json(const std::string& text, const std::string& source) {
  // Yosys 0.23 prints the design hierarchy as plain text inside the JSON
  // (lines such as "   top   1"); every genuine line of its JSON starts with
  // a quote or a bracket.
  std::stringstream in(text);
  std::string line, cleaned;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    if (std::string("\"{}[]").find(line[first]) == std::string::npos) continue;
    cleaned += line + "\n";
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(cleaned);
  } catch (const std::exception& e) {
    throw SynthError(fmt::format("{}: cannot parse Yosys stat output: {}", source, e.what()));
  }
  std::map<std::string, ModuleStat> out;
  for (const auto& [name, m] : json_member(j, "modules").items()) {
    ModuleStat s;
    for (const auto& [type, n] : json_member(m, "num_cells_by_type").items()) {
      s.cells_by_type[unescape(type)] = n.get<long>();
    }
    if (m.contains("estimated_num_transistors")) {
      std::string t = m["estimated_num_transistors"].is_string() ? m["estimated_num_transistors"].get<std::string>()
                                                                 : m["estimated_num_transistors"].dump();
      s.transistors_exact = t.find('+') == std::string::npos;
      try {
        s.transistors = std::stol(t);
      } catch (const std::exception&) {
        s.transistors = 0;
      }
    }
    if (m.contains("estimated_num_lc")) s.lc = m["estimated_num_lc"].get<double>();
    out[unescape(name)] = std::move(s);
  }
  if (out.empty()) throw SynthError(fmt::format("{}: Yosys stat reported no modules", source));
  return out;
}

std::map<std::string, int> parse_ltp(const std::string& text) {
  static const std::regex re(R"(Longest topological path in (.+) \(length=(\d+)\))");
  std::map<std::string, int> out;
  std::stringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, re)) out[unescape(m[1].str())] = std::stoi(m[2].str());
  }
  return out;
}

std::vector<InferredMemory> parse_memories(const nlohmann::json& j) {
  std::vector<InferredMemory> out;
  for (const auto& [module, m] : json_member(j, "modules").items()) {
    for (const auto& [cell_name, cell] : json_member(m, "cells").items()) {
      const std::string type = cell.value("type", std::string());
      if (type != "$mem_v2" && type != "$mem") continue;
      const auto& p = json_member(cell, "parameters");
      InferredMemory mem;
      mem.module = unescape(module);
      mem.name = p.contains("MEMID") ? unescape(decode_parameter(p["MEMID"])) : unescape(cell_name);
      mem.depth = p.contains("SIZE") ? bits_to_long(p["SIZE"]) : 0;
      mem.width = p.contains("WIDTH") ? bits_to_long(p["WIDTH"]) : 0;
      mem.read_ports = p.contains("RD_PORTS") ? static_cast<int>(bits_to_long(p["RD_PORTS"])) : 0;
      mem.write_ports = p.contains("WR_PORTS") ? static_cast<int>(bits_to_long(p["WR_PORTS"])) : 0;
      if (p.contains("RD_CLK_ENABLE") && p["RD_CLK_ENABLE"].is_string()) {
        // One bit per read port; 0 = combinational (asynchronous) read.
        const std::string bits = p["RD_CLK_ENABLE"].get<std::string>();
        for (char c : bits) mem.async_read_ports += (c == '0');
      }
      const auto& attrs = json_member(cell, "attributes");
      if (attrs.contains("src") && attrs["src"].is_string()) mem.source = attrs["src"].get<std::string>();
      out.push_back(std::move(mem));
    }
  }
  return out;
}

std::map<std::pair<std::string, std::string>, std::string> parse_memory_mapping(const std::string& log_text) {
  static const std::regex re(R"(^mapping memory (\S+) via (\S+))");
  std::map<std::pair<std::string, std::string>, std::string> out;
  std::stringstream in(log_text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!std::regex_search(line, m, re)) continue;
    // module.memory; a memory in a generate block has dots of its own
    // (rr_fifo.gen_reg_read.mem_q), a module name none.
    const std::string full = m[1].str();
    const auto dot = full.find('.');
    if (dot == std::string::npos) continue;
    out[{unescape(full.substr(0, dot)), unescape(full.substr(dot + 1))}] = m[2].str();
  }
  return out;
}

}  // namespace rlroute::synth
