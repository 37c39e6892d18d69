#include "rlroute/tb/simulator.hpp"

#include <optional>

#include "rlroute/gen/files.hpp"
#include "rlroute/tb/fabric.hpp"

namespace rlroute {

const char* to_string(FabricKind kind) { return kind == FabricKind::Network ? "network" : "harness"; }

Simulator::Simulator(const Config& config, FabricKind fabric, const std::function<void(const std::string&)>& log)
    : design_(derive_design(config)),
      relation_(make_routing_relation(design_)),
      emitted_(emit_design(design_, *relation_)),
      fabric_(fabric),
      factory_(load_model(design_, emitted_, fabric == FabricKind::Network ? ModelKind::Network : ModelKind::Router,
                          log)) {}

SimResult Simulator::run(const SimOptions& options, const std::string& trace) const {
  if (fabric_ == FabricKind::Network) {
    // The waveform goes to a temporary file, moved into place after the run.
    std::optional<OutputFile> waveform;
    if (!trace.empty()) waveform.emplace(trace, "--trace");
    SimResult result;
    {
      NetworkTopFabric fabric(design_, *relation_, factory_);
      if (waveform) fabric.model().open_trace(waveform->temp().string());
      result = run_simulation(design_, *relation_, fabric, options);
    }  // the model closes the trace
    if (waveform) waveform->commit();
    return result;
  }
  HarnessFabric fabric(design_, *relation_, factory_, options.threads);
  return run_simulation(design_, *relation_, fabric, options);
}

namespace {

// What a reader of the results needs to draw the network: the kind and size,
// each router's place (coordinates, or group and index), and each
// router-to-router link's utilisation in the measurement window.
nlohmann::ordered_json topology_json(const Topology& t, const SimResult& result) {
  nlohmann::ordered_json j;
  j["describe"] = t.describe();
  nlohmann::ordered_json routers = nlohmann::ordered_json::array();
  for (int r = 0; r < t.num_routers(); ++r) {
    nlohmann::ordered_json router{{"name", t.router_name(r)}};
    if (t.dragonfly()) {
      router["group"] = t.group_of(r);
      router["index"] = t.index_in_group(r);
    } else {
      router["coords"] = t.coords(r);
    }
    routers.push_back(router);
  }
  j["kind"] = t.dragonfly() ? "dragonfly" : t.torus() ? "torus" : "mesh";
  j["routers"] = routers;
  if (result.link_utilisation_by_port.empty()) return j;
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (int r = 0; r < t.num_routers(); ++r) {
    for (int port = 0; port < t.num_ports(); ++port) {
      const auto to = t.neighbor(r, port);
      if (!to) continue;
      links.push_back({{"router", r},
                       {"port", t.port_name(r, port)},
                       {"class", link_class_key(t.port_class(port))},
                       {"to_router", to->router},
                       {"utilisation", result.link_utilisation_by_port[static_cast<std::size_t>(r * t.num_ports() + port)]}});
    }
  }
  j["links"] = links;
  return j;
}

}  // namespace

nlohmann::ordered_json Simulator::result_json(const SimResult& result, const SimOptions& options) const {
  nlohmann::ordered_json j = result.to_json();
  j["topology"] = topology_json(design_.topo, result);
  j["config"] = design_.cfg.name;
  j["pattern"] = options.pattern;
  j["fabric"] = to_string(fabric_);
  if (fabric_ == FabricKind::Harness) j["threads"] = options.threads;
  j["seed"] = options.seed;
  if (!options.dqn_source.empty()) j["dqn_network"] = options.dqn_source;
  return j;
}

}  // namespace rlroute
