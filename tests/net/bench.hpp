// Shared by the network regressions: a design built from a TOML string, its
// Verilated model, and the checks every clean run must pass.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "rlroute/design.hpp"
#include "rlroute/emit.hpp"
#include "rlroute/fabric.hpp"
#include "rlroute/model_build.hpp"
#include "rlroute/routing.hpp"
#include "rlroute/simulation.hpp"

namespace rlroute::test {

struct Bench {
  Design design;
  EmittedDesign emitted;
  std::unique_ptr<RoutingRelation> relation;
  explicit Bench(const std::string& toml)
      : design(derive_design(parse_config(toml, "test.toml"))),
        emitted(emit_design(design)),
        relation(make_routing_relation(design)) {}

  SimResult run(const SimOptions& o, ModelKind kind = ModelKind::Router) {
    const ModelFactory factory = load_model(design, emitted, kind);
    if (kind == ModelKind::Network) {
      NetworkTopFabric fabric(design, factory);
      return run_simulation(design, *relation, fabric, o);
    }
    HarnessFabric fabric(design, *relation, factory);
    return run_simulation(design, *relation, fabric, o);
  }
};

inline void expect_clean(const SimResult& r) {
  EXPECT_TRUE(r.ok()) << r.failure;
  EXPECT_FALSE(r.deadlock);
  EXPECT_EQ(r.packets_lost, 0);
  EXPECT_EQ(r.packets_corrupted, 0);
  EXPECT_EQ(r.packets_duplicated, 0);
  EXPECT_EQ(r.packets_misrouted, 0);
  EXPECT_EQ(r.packets_delivered, r.packets_injected);
}

}  // namespace rlroute::test
