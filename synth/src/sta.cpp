// Reads the OpenSTA log of synth/sta.tcl: the critical path pin by pin, the
// worst endpoints, worst slack and TNS; derives Fmax and which blocks the
// critical path runs through.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "rlroute/synth/sta.hpp"

namespace rlroute::synth {

namespace {

std::vector<std::string> split_ws(const std::string& line) {
  std::stringstream in(line);
  std::vector<std::string> out;
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

bool to_double(const std::string& s, double& v) {
  try {
    std::size_t used = 0;
    v = std::stod(s, &used);
    return used == s.size();
  } catch (const std::exception&) {
    return false;
  }
}

std::string after_colon(const std::string& line) {
  const auto colon = line.find(':');
  const auto words = split_ws(line.substr(colon + 1));
  return words.empty() ? "" : words.front();
}

// "<number> <label...>": the number, if the label follows it.
bool number_before(const std::string& line, const std::string& label, double& v) {
  const auto at = line.find(label);
  if (at == std::string::npos) return false;
  const auto words = split_ws(line.substr(0, at));
  return !words.empty() && to_double(words.back(), v);
}

// "<label> <number>" (report_worst_slack, report_tns).
bool number_after(const std::string& line, const std::string& label, double& v) {
  if (line.rfind(label, 0) != 0) return false;
  const auto words = split_ws(line.substr(label.size()));
  return !words.empty() && to_double(words.front(), v);
}

std::string strip_pin(const std::string& pin) {
  // instance/pin -> instance; a port has no '/'.
  const auto slash = pin.rfind('/');
  return slash == std::string::npos ? "" : pin.substr(0, slash);
}

}  // namespace

StaResult parse_sta_log(const std::string& text, double clock_ns) {
  StaResult r;
  r.clock_ns = clock_ns;
  enum class Section { None, Path, Endpoints, Summary, ByInstance } section = Section::None;
  bool in_path = false, path_done = false, have_slack = false, have_arrival = false, in_table = false;

  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Error:", 0) == 0) throw SynthError(fmt::format("OpenSTA: {}", line));
    if (line == "rlroute: critical path")
      section = Section::Path;
    else if (line == "rlroute: worst endpoints")
      section = Section::Endpoints;
    else if (line == "rlroute: summary")
      section = Section::Summary;
    else if (line == "rlroute: slack by instance")
      section = Section::ByInstance;
    else if (line == "rlroute: end")
      section = Section::None;

    if (section == Section::ByInstance && line.rfind("rlroute-slack ", 0) == 0) {
      // "rlroute-slack <prefix> <ns>"
      const auto w = split_ws(line);
      double v = 0;
      if (w.size() != 3 || !to_double(w[2], v)) throw SynthError(fmt::format("OpenSTA: unreadable line '{}'", line));
      r.slack_by_prefix.emplace_back(w[1], v);
    }

    if (section == Section::Path && !path_done) {
      if (line.rfind("Startpoint:", 0) == 0) r.startpoint = after_colon(line);
      if (line.rfind("Endpoint:", 0) == 0) r.endpoint = after_colon(line);
      if (line.find("-----") != std::string::npos && !r.endpoint.empty()) in_path = true;
      if (in_path) {
        double v = 0;
        if (number_before(line, "data arrival time", v)) {
          r.arrival_ns = v;
          have_arrival = true;
          in_path = false;
          path_done = true;
          continue;
        }
        // "... <delay> <time> <^|v> <pin> (<cell>)"
        const auto w = split_ws(line);
        for (std::size_t i = 2; i + 2 < w.size(); ++i) {
          if ((w[i] == "^" || w[i] == "v") && w[i + 2].front() == '(' && w[i + 2].back() == ')') {
            PathPoint p;
            if (!to_double(w[i - 2], p.delay) || !to_double(w[i - 1], p.arrival)) break;
            p.edge = w[i][0];
            p.pin = w[i + 1];
            p.cell = w[i + 2].substr(1, w[i + 2].size() - 2);
            r.path.push_back(p);
            break;
          }
        }
      }
    }
    if (section == Section::Path) {
      double v = 0;
      if (!have_slack && number_before(line, "slack (", v)) {
        r.worst_slack_ns = v;
        have_slack = true;
      }
    }
    if (section == Section::Endpoints) {
      if (line.find("-----") != std::string::npos) {
        in_table = true;
        continue;
      }
      if (in_table) {
        const auto w = split_ws(line);
        // pin (cell) required actual slack [(VIOLATED)]
        if (w.size() >= 5 && w[1].front() == '(') {
          EndpointSlack e;
          e.pin = w[0];
          if (to_double(w[4], e.slack)) r.worst_endpoints.push_back(e);
        } else if (w.empty() && !r.worst_endpoints.empty()) {
          in_table = false;
        }
      }
    }
    if (section == Section::Summary) {
      double v = 0;
      if (number_after(line, "worst slack", v)) {
        r.worst_slack_ns = v;
        have_slack = true;
      }
      if (number_after(line, "tns", v)) r.tns_ns = v;
    }
  }
  if (!have_arrival || r.path.empty() || r.startpoint.empty() || r.endpoint.empty()) {
    throw SynthError("OpenSTA reported no constrained path (is the clock port missing?)");
  }
  if (!have_slack) throw SynthError("OpenSTA reported no worst slack");
  r.critical_ns = clock_ns - r.worst_slack_ns;
  if (!(r.critical_ns > 0))
    throw SynthError(fmt::format("OpenSTA: critical path of {} ns is not positive", r.critical_ns));
  r.fmax_mhz = 1000.0 / r.critical_ns;
  if (!r.slack_by_prefix.empty()) {
    // The worst instance must hold the worst path: a check that the vertex
    // slacks read are the max (setup) ones, in ns.
    double worst = r.slack_by_prefix.front().second;
    for (const auto& [prefix, v] : r.slack_by_prefix) worst = std::min(worst, v);
    if (std::fabs(worst - r.worst_slack_ns) > 1e-3) {
      throw SynthError(fmt::format("OpenSTA: the worst slack by instance ({} ns) is not the worst slack ({} ns)", worst,
                                   r.worst_slack_ns));
    }
  }
  return r;
}

double fmax_mhz_for_slack(double clock_ns, double slack_ns) { return 1000.0 / (clock_ns - slack_ns); }

void attribute_path(StaResult& sta, const Hierarchy& h) {
  const auto paths = h.instance_paths();
  auto module_of = [&](const std::string& pin) {
    const std::string inst = strip_pin(pin);
    return inst.empty() ? std::string("(port)") : h.name_of(h.owner_of(inst, paths));
  };
  auto block_of = [&](const std::string& pin) {
    const std::string inst = strip_pin(pin);
    return inst.empty() ? std::string("(port)") : h.block_of(inst, paths);
  };
  std::map<std::string, double> by_block, by_module;
  for (auto& p : sta.path) {
    p.module = module_of(p.pin);
    p.block = block_of(p.pin);
    by_block[p.block] += p.delay;
    by_module[p.module] += p.delay;
  }
  for (auto& e : sta.worst_endpoints) {
    e.module = module_of(e.pin);
    e.block = block_of(e.pin);
  }
  auto sorted = [](const std::map<std::string, double>& m) {
    std::vector<std::pair<std::string, double>> v(m.begin(), m.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return v;
  };
  sta.delay_by_block = sorted(by_block);
  sta.delay_by_module = sorted(by_module);
  // Worst slack through each module and block: a prefix counts for every
  // instance on its chain (the path runs through their subtrees) and for
  // its block.
  auto lower = [](std::map<std::string, double>& m, const std::string& key, double v) {
    const auto it = m.find(key);
    if (it == m.end() || v < it->second) m[key] = v;
  };
  for (const auto& [prefix, slack] : sta.slack_by_prefix) {
    const std::string cell = prefix == "-" ? std::string("_cell_") : prefix + "._cell_";
    lower(sta.worst_slack_by_module, h.top, slack);
    for (const auto& id : h.owner_chain(cell, paths)) lower(sta.worst_slack_by_module, id, slack);
    lower(sta.worst_slack_by_block, h.block_of(cell, paths), slack);
  }
  // Start and end: the first and last pins of the path (the launching
  // flip-flop's clock pin, the capturing flip-flop's data pin, or ports).
  if (!sta.path.empty()) {
    sta.start_block = sta.path.front().block;
    sta.end_block = sta.path.back().block;
  }
}

}  // namespace rlroute::synth
