// The module hierarchy of a Yosys netlist: which module instantiates which,
// how many instances of each the router holds, and readable names for
// Yosys's specialized modules ($paramod$<hash>\rr_fifo -> rr_fifo).
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "rlroute/gen/emit.hpp"
#include "rlroute/synth/hierarchy.hpp"
#include "rlroute/synth/yosys.hpp"

namespace rlroute::synth {

std::string decode_parameter(const nlohmann::json& value) {
  if (value.is_number_integer()) return std::to_string(value.get<long long>());
  if (!value.is_string()) return value.dump();
  const std::string s = value.get<std::string>();
  const bool bits = !s.empty() && s.size() <= 64 && s.find_first_not_of("01") == std::string::npos;
  if (!bits) {
    // Yosys appends a space to string values that look like bit strings.
    if (!s.empty() && s.back() == ' ' && s.find_first_not_of("01 ") == std::string::npos)
      return s.substr(0, s.size() - 1);
    return s;
  }
  unsigned long long v = 0;
  for (char c : s) v = (v << 1) | static_cast<unsigned long long>(c == '1');
  return std::to_string(v);
}

const NetlistModule& Hierarchy::at(const std::string& id) const {
  const auto it = modules.find(id);
  if (it == modules.end()) throw SynthError(fmt::format("netlist has no module {}", id));
  return it->second;
}

std::string Hierarchy::name_of(const std::string& id) const {
  const auto it = modules.find(id);
  return (it == modules.end() || it->second.name.empty()) ? id : it->second.name;
}

std::vector<std::string> Hierarchy::order() const {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::function<void(const std::string&)> visit = [&](const std::string& id) {
    if (!has(id) || !seen.insert(id).second) return;
    out.push_back(id);
    for (const auto& [inst, type] : at(id).instances) visit(type);
  };
  visit(top);
  return out;
}

std::map<std::string, long> Hierarchy::instance_counts() const {
  std::map<std::string, long> counts;
  std::function<void(const std::string&, long)> visit = [&](const std::string& id, long times) {
    if (!has(id)) return;
    counts[id] += times;
    for (const auto& [inst, type] : at(id).instances) visit(type, times);
  };
  visit(top, 1);
  return counts;
}

std::map<std::string, int> Hierarchy::levels() const {
  std::map<std::string, int> level;
  std::function<void(const std::string&, int)> visit = [&](const std::string& id, int depth) {
    if (!has(id) || level.count(id)) return;
    level[id] = depth;
    for (const auto& [inst, type] : at(id).instances) visit(type, depth + 1);
  };
  visit(top, 0);
  return level;
}

std::map<std::string, std::string> Hierarchy::instance_paths() const {
  std::map<std::string, std::string> paths;
  std::function<void(const std::string&, const std::string&)> visit = [&](const std::string& id,
                                                                          const std::string& prefix) {
    if (!has(id)) return;
    for (const auto& [inst, type] : at(id).instances) {
      const std::string path = prefix.empty() ? inst : prefix + "." + inst;
      paths[path] = type;
      visit(type, path);
    }
  };
  visit(top, "");
  return paths;
}

std::vector<std::string> Hierarchy::owner_chain(const std::string& flat_name,
                                                const std::map<std::string, std::string>& paths) const {
  // Instance names contain dots themselves (gen_in[0].i_input), so try every
  // dot: each prefix that is an instance path is one level of the chain.
  std::vector<std::string> chain;
  for (std::size_t dot = flat_name.find('.'); dot != std::string::npos; dot = flat_name.find('.', dot + 1)) {
    const auto it = paths.find(flat_name.substr(0, dot));
    if (it != paths.end()) chain.push_back(it->second);
  }
  return chain;
}

std::string Hierarchy::owner_of(const std::string& flat_name, const std::map<std::string, std::string>& paths) const {
  const auto chain = owner_chain(flat_name, paths);
  return chain.empty() ? top : chain.back();
}

std::string Hierarchy::core() const {
  // The module that holds the most different kinds of modules (at least
  // three): rr_router, with its ports, allocators and crossbar, even when the
  // router top also holds three kinds (route units, contention counters and
  // the core, for UGAL-LE). Breadth first from the top, so on a tie the
  // shallowest module wins.
  std::vector<std::string> queue = {top};
  std::set<std::string> seen = {top};
  std::string best = top;
  std::size_t best_kinds = 2;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const NetlistModule& m = at(queue[i]);
    std::set<std::string> kinds;
    for (const auto& [inst, type] : m.instances) kinds.insert(has(type) ? at(type).hdlname : type);
    if (kinds.size() > best_kinds) {
      best = m.id;
      best_kinds = kinds.size();
    }
    for (const auto& [inst, type] : m.instances) {
      if (has(type) && seen.insert(type).second) queue.push_back(type);
    }
  }
  return best;
}

bool Hierarchy::contains_core(const std::string& id) const {
  const std::string c = core();
  std::set<std::string> seen;
  std::function<bool(const std::string&)> visit = [&](const std::string& m) {
    if (m == c) return true;
    if (!has(m) || !seen.insert(m).second) return false;
    for (const auto& [inst, type] : at(m).instances) {
      if (visit(type)) return true;
    }
    return false;
  };
  return visit(id);
}

namespace {

std::string own_logic_name(const Hierarchy& h, const std::string& id) {
  const NetlistModule& m = h.at(id);
  return m.instances.empty() ? m.hdlname : m.hdlname + " (own logic)";
}

}  // namespace

std::string Hierarchy::block_of(const std::string& flat_name, const std::map<std::string, std::string>& paths) const {
  std::string last = top;
  for (const auto& id : owner_chain(flat_name, paths)) {
    if (!contains_core(id)) return at(id).hdlname;
    last = id;
  }
  return own_logic_name(*this, last);
}

std::vector<TopBlock> top_blocks(const Hierarchy& h) {
  std::vector<TopBlock> blocks;
  auto add = [&](const std::string& name, const std::string& id, bool subtree) {
    auto it = std::find_if(blocks.begin(), blocks.end(), [&](const TopBlock& b) { return b.name == name; });
    if (it == blocks.end()) {
      blocks.push_back({name, {}});
      it = blocks.end() - 1;
    }
    for (auto& part : it->parts) {
      if (part.module == id && part.subtree == subtree) {
        ++part.instances;
        return;
      }
    }
    it->parts.push_back({id, 1, subtree});
  };
  std::function<void(const std::string&)> visit = [&](const std::string& id) {
    if (!h.has(id)) return;
    if (!h.contains_core(id)) {
      add(h.at(id).hdlname, id, true);
      return;
    }
    // The core or a module above it: its own logic, then what it holds.
    add(own_logic_name(h, id), id, h.at(id).instances.empty());
    for (const auto& [inst, type] : h.at(id).instances) visit(type);
  };
  visit(h.top);
  return blocks;
}

Hierarchy parse_hierarchy(const nlohmann::json& j, const std::string& top) {
  Hierarchy h;
  h.top = top;
  if (!j.contains("modules") || !j["modules"].is_object()) throw SynthError("Yosys JSON netlist has no modules");
  for (const auto& [id, m] : j["modules"].items()) {
    NetlistModule mod;
    mod.id = unescape(id);
    const auto& attrs = json_member(m, "attributes");
    mod.hdlname = attrs.contains("hdlname") ? unescape(attrs["hdlname"].get<std::string>()) : mod.id;
    for (const auto& [k, v] : json_member(m, "parameter_default_values").items()) {
      mod.parameters[k] = decode_parameter(v);
    }
    for (const auto& [inst, cell] : json_member(m, "cells").items()) {
      const std::string type = unescape(cell.value("type", std::string()));
      // Only submodule instances are selected in the JSON; skip anything else.
      if (j["modules"].contains(type) || j["modules"].contains("\\" + type))
        mod.instances.emplace_back(unescape(inst), type);
    }
    h.modules[mod.id] = std::move(mod);
  }
  if (!h.has(top)) {
    std::string names;
    for (const auto& [id, m] : h.modules) names += (names.empty() ? "" : ", ") + id;
    throw SynthError(fmt::format("the netlist has no module {} (modules: {})", top, names));
  }
  return h;
}

void name_modules(Hierarchy& h) {
  std::map<std::string, std::vector<std::string>> by_hdlname;
  for (const auto& [id, m] : h.modules) by_hdlname[m.hdlname].push_back(id);
  for (const auto& [hdlname, ids] : by_hdlname) {
    if (ids.size() == 1) {
      h.modules[ids.front()].name = hdlname;
      continue;
    }
    // Parameters whose values differ between the specializations.
    std::set<std::string> keys;
    for (const auto& id : ids) {
      for (const auto& [k, v] : h.modules[id].parameters) keys.insert(k);
    }
    std::vector<std::string> differing;
    for (const auto& k : keys) {
      std::set<std::string> values;
      for (const auto& id : ids) {
        const auto& p = h.modules[id].parameters;
        values.insert(p.count(k) ? p.at(k) : "?");
      }
      if (values.size() > 1) differing.push_back(k);
    }
    // A long value (a network's constant weights) is named by its width and
    // a hash, and only when no short parameter tells the specializations apart.
    constexpr std::size_t kLongValue = 24;
    const auto is_long = [&](const std::string& k) {
      for (const auto& id : ids) {
        const auto& p = h.modules[id].parameters;
        if (p.count(k) && p.at(k).size() > kLongValue) return true;
      }
      return false;
    };
    std::vector<std::string> shown;
    for (const auto& k : differing) {
      if (!is_long(k)) shown.push_back(k);
    }
    if (shown.empty()) shown = differing;
    std::set<std::string> used;
    for (const auto& id : ids) {
      std::string name = hdlname + "(";
      for (std::size_t i = 0; i < shown.size(); ++i) {
        const auto& p = h.modules[id].parameters;
        std::string value = p.count(shown[i]) ? p.at(shown[i]) : "?";
        if (value.size() > kLongValue) {
          value = fmt::format("<{} bits #{}>", value.size(), content_hash({{"value", value}}).substr(0, 6));
        }
        name += fmt::format("{}{}={}", i ? "," : "", shown[i], value);
      }
      name += ")";
      if (differing.empty() || used.count(name)) name = id;  // cannot tell them apart: keep Yosys's name
      used.insert(name);
      h.modules[id].name = name;
    }
  }
}

}  // namespace rlroute::synth
