// A simulator: one config's design, its checked routing relation,
// its emitted RTL and its Verilated model, ready to run any number of
// simulations (one per offered load, say). What `rlroute sim` and the network
// regressions share.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/emit.hpp"
#include "rlroute/tb/model_build.hpp"
#include "rlroute/gen/routing.hpp"
#include "rlroute/tb/simulation.hpp"

namespace rlroute {

// Which fabric carries the packets: N Verilated routers joined by C++ links
// (the harness), or the Verilated network top the generator emits.
enum class FabricKind { Harness, Network };
const char* to_string(FabricKind kind);

class Simulator {
 public:
  // Derives the design, builds and checks the relation, emits the RTL and
  // loads (or builds) the model. `log` receives progress lines (may be empty).
  Simulator(const Config& config, FabricKind fabric, const std::function<void(const std::string&)>& log = {});
  // The relation refers to the design: a simulator stays where it was built.
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  // One run on a fresh fabric (the harness on options.threads threads; the
  // network top on one). With `trace` set (network fabric only), an FST
  // waveform of options.trace_from..trace_to goes to that file.
  SimResult run(const SimOptions& options, const std::string& trace = {}) const;

  // The result's JSON with what identifies the run: config, pattern, fabric,
  // threads (harness), seed.
  nlohmann::ordered_json result_json(const SimResult& result, const SimOptions& options) const;

  const Design& design() const { return design_; }
  const RoutingRelation& relation() const { return *relation_; }
  const EmittedDesign& emitted() const { return emitted_; }
  const ModelFactory& model() const { return factory_; }
  FabricKind fabric() const { return fabric_; }

 private:
  Design design_;
  std::unique_ptr<RoutingRelation> relation_;
  EmittedDesign emitted_;
  FabricKind fabric_;
  ModelFactory factory_;
};

}  // namespace rlroute
