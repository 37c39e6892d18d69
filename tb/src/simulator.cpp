#include "rlroute/tb/simulator.hpp"

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
    NetworkTopFabric fabric(design_, *relation_, factory_);
    if (!trace.empty()) fabric.model().open_trace(trace);
    return run_simulation(design_, *relation_, fabric, options);
  }
  HarnessFabric fabric(design_, *relation_, factory_, options.threads);
  return run_simulation(design_, *relation_, fabric, options);
}

nlohmann::ordered_json Simulator::result_json(const SimResult& result, const SimOptions& options) const {
  nlohmann::ordered_json j = result.to_json();
  j["config"] = design_.cfg.name;
  j["pattern"] = options.pattern;
  j["fabric"] = to_string(fabric_);
  if (fabric_ == FabricKind::Harness) j["threads"] = options.threads;
  j["seed"] = options.seed;
  if (!options.dqn_source.empty()) j["dqn_network"] = options.dqn_source;
  return j;
}

}  // namespace rlroute
