// The routing-algorithm table (gen/include/rlroute/gen/algorithm.hpp) and the RTL
// package (rtl/rr_pkg.sv): the package states the link and credit word layouts
// as LinkLayout does, and no RTL block knows an algorithm by a code.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "rlroute/gen/algorithm.hpp"
#include "rlroute/gen/emit.hpp"
#include "rlroute/gen/link_layout.hpp"

using namespace rlroute;

namespace {

// Every `localparam int unsigned NAME = VALUE;` of rtl/rr_pkg.sv.
std::map<std::string, long> package_constants() {
  std::ifstream in(rtl_source_dir() / "rr_pkg.sv");
  EXPECT_TRUE(in) << "cannot read rr_pkg.sv in " << rtl_source_dir();
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  const std::regex param(R"(localparam\s+int\s+unsigned\s+([A-Z0-9_]+)\s*=\s*([0-9]+)\s*;)");
  std::map<std::string, long> constants;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), param); it != std::sregex_iterator(); ++it) {
    constants[(*it)[1]] = std::stol((*it)[2]);
  }
  return constants;
}

}  // namespace

// The RTL takes an algorithm's traits as parameters (docs/architecture.md,
// "Algorithm backends and the router core"): no block compares an algorithm
// code (rr_pkg has none), so none may name one.
TEST(AlgorithmTable, NoRtlBlockNamesAnAlgorithm) {
  int blocks = 0;
  for (const auto& entry : std::filesystem::directory_iterator(rtl_source_dir())) {
    if (entry.path().extension() != ".sv") continue;
    ++blocks;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    EXPECT_EQ(s.find("ALGO"), std::string::npos) << entry.path().filename() << " names an algorithm code";
  }
  EXPECT_GT(blocks, 20) << "rtl/ not found at " << rtl_source_dir();
}

TEST(AlgorithmTable, LinkAndCreditWordsMatchThePackage) {
  const auto constants = package_constants();
  EXPECT_EQ(constants.at("LINK_VALID"), LinkLayout::kValid);
  EXPECT_EQ(constants.at("LINK_HEAD"), LinkLayout::kHead);
  EXPECT_EQ(constants.at("LINK_TAIL"), LinkLayout::kTail);
  EXPECT_EQ(constants.at("LINK_VC_LSB"), LinkLayout::kVcLsb);
  EXPECT_EQ(constants.at("CREDIT_VALID"), LinkLayout::kCreditValid);
  EXPECT_EQ(constants.at("CREDIT_VC_LSB"), LinkLayout::kCreditVcLsb);
  constexpr LinkLayout l{.vc_bits = 2, .flit_bits = 64};
  EXPECT_EQ(l.data_lsb(), 5);
  EXPECT_EQ(l.link_bits(), 69);
  EXPECT_EQ(l.credit_bits(), 3);
}

TEST(AlgorithmTable, NamesAreUniqueAndFound) {
  for (const AlgorithmTraits& a : kAlgorithms) {
    const AlgorithmTraits* found = find_algorithm(a.name);
    ASSERT_NE(found, nullptr) << a.name;
    EXPECT_EQ(found->id, a.id);
    EXPECT_EQ(to_string(a.id), a.name);
  }
  EXPECT_EQ(find_algorithm("ugal"), nullptr);
}

TEST(AlgorithmTable, ImplementedRowsStateTheirDeadlockFacts) {
  for (const AlgorithmTraits& a : kAlgorithms) {
    if (!a.implemented) continue;
    EXPECT_GE(a.vc_levels, 1) << a.name;
    // Dragonfly bounds are fixed; k-ary n-cube bounds come from the radices.
    EXPECT_EQ(a.hop_bound > 0, a.family == TopologyFamily::Dragonfly) << a.name;
    // Non-minimal algorithms carry their intermediate; minimal ones do not.
    EXPECT_EQ(a.nonminimal(), a.choice != PathChoice::MinimalOnly) << a.name;
  }
}
