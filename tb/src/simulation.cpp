#include "rlroute/tb/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rlroute {

namespace {

// Flits of the packets ejected in [begin, end), summed per node as `node_of` picks it.
template <typename NodeOf>
std::vector<std::int64_t> flits_by_node(int num_nodes, const std::vector<DeliveredPacket>& packets, std::int64_t begin,
                                        std::int64_t end, NodeOf node_of) {
  std::vector<std::int64_t> flits(static_cast<size_t>(num_nodes), 0);
  for (const DeliveredPacket& p : packets) {
    if (p.ejected >= begin && p.ejected < end) flits.at(static_cast<size_t>(node_of(p))) += p.length;
  }
  return flits;
}

}  // namespace

std::vector<std::int64_t> accepted_by_source(int num_nodes, const std::vector<DeliveredPacket>& packets,
                                             std::int64_t begin, std::int64_t end) {
  return flits_by_node(num_nodes, packets, begin, end, [](const DeliveredPacket& p) { return p.src; });
}

std::vector<std::int64_t> ejected_by_destination(int num_nodes, const std::vector<DeliveredPacket>& packets,
                                                 std::int64_t begin, std::int64_t end) {
  return flits_by_node(num_nodes, packets, begin, end, [](const DeliveredPacket& p) { return p.dst; });
}

double source_fairness(const std::vector<std::int64_t>& generated, const std::vector<std::int64_t>& accepted) {
  std::int64_t sources = 0, total = 0, least = -1;
  for (size_t n = 0; n < generated.size(); ++n) {
    if (generated[n] == 0) continue;
    ++sources;
    total += accepted[n];
    least = least < 0 ? accepted[n] : std::min(least, accepted[n]);
  }
  if (sources == 0 || total == 0) return 0;
  return static_cast<double>(least) * static_cast<double>(sources) / static_cast<double>(total);
}

LatencySummary summarize(std::vector<double> v) {
  LatencySummary s;
  s.count = static_cast<std::int64_t>(v.size());
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  s.avg = sum / static_cast<double>(v.size());
  double squares = 0;
  for (double x : v) squares += (x - s.avg) * (x - s.avg);
  s.stdev = std::sqrt(squares / static_cast<double>(v.size()));
  // Nearest-rank percentiles.
  auto rank = [&v](double q) {
    const auto idx = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
    return v[std::min(idx, v.size() - 1)];
  };
  s.p50 = rank(0.50);
  s.p95 = rank(0.95);
  s.p99 = rank(0.99);
  s.max = v.back();
  return s;
}

PacketStats measured_packet_stats(const std::vector<DeliveredPacket>& packets) {
  PacketStats s;
  std::int64_t hops = 0;
  for (const DeliveredPacket& p : packets) {
    if (!p.measured) continue;
    ++s.delivered;
    s.pdor += p.pdor;
    if (p.minimal()) {
      ++s.minimal;
    } else {
      ++s.nonminimal;
    }
    hops += p.hops;
    const auto h = static_cast<size_t>(p.hops);
    if (h >= s.hop_histogram.size()) s.hop_histogram.resize(h + 1);
    ++s.hop_histogram[h];
  }
  if (s.delivered > 0) {
    s.minimal_share = static_cast<double>(s.minimal) / static_cast<double>(s.delivered);
    s.avg_hops = static_cast<double>(hops) / static_cast<double>(s.delivered);
  }
  return s;
}

LinkUtilisation measure_link_utilisation(const Topology& t, const std::vector<std::uint64_t>& at_start,
                                         const std::vector<std::uint64_t>& at_end, std::int64_t cycles) {
  struct Count {
    std::uint64_t flits = 0;
    std::int64_t links = 0;
  };
  Count all;
  std::map<PortClass, Count> by_class;
  const int ports = t.num_ports();
  const bool counted = !at_end.empty() && at_start.size() == at_end.size();
  LinkUtilisation u;
  u.by_port.assign(static_cast<size_t>(t.num_routers() * ports), 0.0);
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int p = 0; p < ports; ++p) {
      if (!t.neighbor(r, p)) continue;
      const auto i = static_cast<size_t>(r * ports + p);
      const std::uint64_t flits = counted && i < at_end.size() ? at_end[i] - at_start[i] : 0;
      if (cycles > 0) u.by_port[i] = static_cast<double>(flits) / static_cast<double>(cycles);
      for (Count* c : {&all, &by_class[t.port_class(p)]}) {
        c->flits += flits;
        ++c->links;
      }
      BusiestLink& b = u.busiest_by_class[t.port_class(p)];
      if (b.router < 0 || u.by_port[i] > b.utilisation) b = BusiestLink{u.by_port[i], r, p, {}};
    }
  }
  auto per_link_cycle = [cycles](const Count& c) {
    if (c.links == 0 || cycles <= 0) return 0.0;
    return static_cast<double>(c.flits) / (static_cast<double>(c.links) * static_cast<double>(cycles));
  };
  u.all = per_link_cycle(all);
  for (const auto& [cls, c] : by_class) u.by_class[cls] = per_link_cycle(c);
  for (auto& [cls, b] : u.busiest_by_class) {
    b.at = fmt::format("router {} ({}) port {} ({})", b.router, t.router_name(b.router), b.port,
                       t.port_name(b.router, b.port));
  }
  return u;
}

ResidenceByClasses measure_residence(const NetworkChecker::ResidenceTable& at_start,
                                     const NetworkChecker::ResidenceTable& at_end) {
  ResidenceByClasses out;
  for (std::size_t i = 0; i < at_end.size(); ++i) {
    for (std::size_t o = 0; o < at_end[i].size(); ++o) {
      const std::uint64_t heads = at_end[i][o].heads - at_start[i][o].heads;
      if (heads == 0) continue;
      const std::uint64_t cycles = at_end[i][o].cycles - at_start[i][o].cycles;
      out[{static_cast<PortClass>(i), static_cast<PortClass>(o)}] =
          RouterResidence{heads, static_cast<double>(cycles) / static_cast<double>(heads)};
    }
  }
  return out;
}

std::string link_class_key(PortClass c) {
  switch (c) {
    case PortClass::Terminal:
      return "terminal";
    case PortClass::Dimension:
      return "dimension";
    case PortClass::Local:
      return "local";
    case PortClass::Global:
      return "global";
  }
  return "unknown";
}

nlohmann::ordered_json SimResult::to_json() const {
  auto lat = [](const LatencySummary& l) {
    return nlohmann::ordered_json{{"avg", l.avg},   {"stdev", l.stdev}, {"p50", l.p50},
                                  {"p95", l.p95}, {"p99", l.p99},     {"max", l.max}};
  };
  nlohmann::ordered_json j;
  j["offered_load"] = offered_load;
  j["generated_load"] = generated_load;
  j["accepted_load"] = accepted_load;
  j["source_fairness"] = source_fairness;
  j["accepted_by_node"] = accepted_by_node;
  j["ejected_by_node"] = ejected_by_node;
  j["packets_injected"] = packets_injected;
  j["packets_delivered"] = packets_delivered;
  j["packets_delivered_measured"] = packets_delivered_measured;
  j["packets_lost"] = packets_lost;
  j["packets_corrupted"] = packets_corrupted;
  j["packets_duplicated"] = packets_duplicated;
  j["packets_misrouted"] = packets_misrouted;
  j["packets_not_injected"] = packets_not_injected;
  j["longest_vc_wait"] = longest_vc_wait;
  j["longest_vc_wait_at"] = longest_vc_wait_at;
  j["longest_switch_wait"] = longest_switch_wait;
  j["deadlock"] = deadlock;
  j["drained"] = drained;
  j["latency"] = lat(latency);
  j["total_latency"] = lat(total_latency);
  j["measured_packets"] = latency.count;
  j["avg_hops"] = avg_hops;
  j["hop_histogram"] = hop_histogram;
  j["minimal_share"] = minimal_share;
  j["packets_minimal"] = packets_minimal;
  j["packets_nonminimal"] = packets_nonminimal;
  if (dqn_pdor_share >= 0) j["dqn_pdor_share"] = dqn_pdor_share;
  j["link_utilisation"] = link_utilisation;
  if (links_observed) {  // absent where the fabric cannot see its links (network top)
    nlohmann::ordered_json by_class = nlohmann::ordered_json::object();
    for (const auto& [cls, u] : link_utilisation_by_class) by_class[link_class_key(cls)] = u;
    j["link_utilisation_by_class"] = by_class;
    nlohmann::ordered_json busiest = nlohmann::ordered_json::object();
    for (const auto& [cls, b] : link_utilisation_max_by_class) {
      busiest[link_class_key(cls)] = {{"utilisation", b.utilisation}, {"at", b.at}};
    }
    j["link_utilisation_max_by_class"] = busiest;
  }
  nlohmann::ordered_json residence = nlohmann::ordered_json::object();
  for (const auto& [classes, res] : router_residence) {
    residence[link_class_key(classes.first) + "->" + link_class_key(classes.second)] = {{"heads", res.heads},
                                                                                         {"avg", res.avg}};
  }
  j["router_residence"] = residence;
  j["heads_by_hop_and_vc"] = heads_by_hop_and_vc;
  j["cycles"] = cycles;
  j["router_cycles_per_second"] = router_cycles_per_second;
  j["wall_seconds"] = wall_seconds;
  if (!series.empty()) {
    nlohmann::ordered_json s = nlohmann::ordered_json::array();
    for (const SeriesPoint& p : series) {
      nlohmann::ordered_json w{{"offered_load", p.offered_load},
                               {"begin", p.begin},
                               {"end", p.end},
                               {"accepted_load", p.accepted_load},
                               {"packets", p.packets},
                               {"latency_avg", p.latency_avg},
                               {"latency_p99", p.latency_p99},
                               {"minimal_share", p.minimal_share},
                               {"avg_hops", p.avg_hops}};
      if (p.mean_q >= 0) {
        w["mean_q"] = p.mean_q;
        w["q_minimal"] = p.q_minimal;
        w["q_best_other"] = p.q_best_other;
      }
      if (p.contention_mean >= 0) w["contention_mean"] = p.contention_mean;
      s.push_back(w);
    }
    j["series"] = s;
  }
  if (!app.is_null()) j["app"] = app;
  j["failure"] = failure;
  return j;
}

}  // namespace rlroute
