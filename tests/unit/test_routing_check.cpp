// gen/src/routing_check.cpp: connectivity and the escape channel dependency check.
#include <gtest/gtest.h>

#include <string>

#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing_check.hpp"
#include "rlroute/gen/routing_dor.hpp"

#include "configs.hpp"

using namespace rlroute;
using rlroute::test::grid;

TEST(RoutingCheck, TorusWithOneVcHasADependencyCycleNamedInTheError) {
  const Design d = derive_design(grid(TopologyKind::Torus, {4, 4}, 1));
  const DorRouting rel(d);
  EXPECT_FALSE(check_connectivity(d, rel));
  const auto cycle = find_escape_cycle(d, rel);
  ASSERT_TRUE(cycle);
  ASSERT_GE(cycle->size(), 5u) << "a ring of 4 routers";
  EXPECT_EQ(describe_channel(d, cycle->front()), describe_channel(d, cycle->back()));
  try {
    check_routing(d, rel);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("router.vcs = 1"), std::string::npos) << m;
    EXPECT_NE(m.find("too few VCs for dor"), std::string::npos) << m;
    EXPECT_NE(m.find("channel dependency cycle R"), std::string::npos) << m;
    EXPECT_NE(m.find(" -> "), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line";
  }
}

TEST(RoutingCheck, TorusWithTwoVcsAndMeshWithOneAreDeadlockFree) {
  for (const Config& c : {grid(TopologyKind::Torus, {4, 4}, 2), grid(TopologyKind::Torus, {3, 3, 3}, 2),
                          grid(TopologyKind::Mesh, {4, 4}, 1), grid(TopologyKind::Torus, {5}, 3)}) {
    const Design d = derive_design(c);
    const DorRouting rel(d);
    EXPECT_FALSE(check_connectivity(d, rel));
    EXPECT_FALSE(find_escape_cycle(d, rel));
  }
}
