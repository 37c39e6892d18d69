// The routing-algorithm table (gen/include/rlroute/gen/algorithm.hpp) and the RTL
// package (rtl/rr_pkg.sv) state the same facts: every algorithm's code and the
// link and credit word layouts. This test reads the package and compares.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cctype>
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

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

TEST(AlgorithmTable, EveryRowHasItsRtlCodeInThePackageAndNothingElse) {
  const auto constants = package_constants();
  int algo_constants = 0;
  for (const auto& [name, value] : constants) algo_constants += name.rfind("ALGO_", 0) == 0;
  EXPECT_EQ(algo_constants, static_cast<int>(kAlgorithms.size()));
  for (const AlgorithmTraits& a : kAlgorithms) {
    const std::string name = "ALGO_" + upper(a.name);
    ASSERT_TRUE(constants.count(name)) << name << " missing from rr_pkg.sv";
    EXPECT_EQ(constants.at(name), static_cast<long>(a.rtl_code)) << name;
  }
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
