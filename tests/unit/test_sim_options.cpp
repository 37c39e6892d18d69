// Integer flags of `rlroute sim` (tb/src/sim_options.cpp): read as typed, and
// reported with the flag's own range when they cannot be.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "rlroute/tb/sim_options.hpp"

using namespace rlroute;

namespace {

std::string error_of(const std::string& flag, const std::string& text) {
  try {
    parse_integer_flag(flag, text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(SimOptions, IntegerFlagsAreReadAsDecimalIntegers) {
  EXPECT_EQ(parse_integer_flag("--cycles", "1000"), 1000);
  EXPECT_EQ(parse_integer_flag("--cycles", "010"), 10);  // not octal
  EXPECT_EQ(parse_integer_flag("--cycles", "+7"), 7);
  EXPECT_EQ(parse_integer_flag("--seed", "-1"), -1);  // the range is resolve_sim_options' business
  EXPECT_EQ(parse_integer_flag("--cycles", "9223372036854775807"), INT64_MAX);
}

TEST(SimOptions, IntegerFlagsThatCannotBeReadNameTheFlagTheValueAndTheRange) {
  EXPECT_EQ(error_of("--cycles", "99999999999999999999"),
            "--cycles 99999999999999999999: must be an integer in 1..2^40 cycles");
  EXPECT_EQ(error_of("--seed", "18446744073709551616"), "--seed 18446744073709551616: must be an integer >= 0");
  EXPECT_EQ(error_of("--warmup", "-9223372036854775809"),
            "--warmup -9223372036854775809: must be an integer in 0..2^40 cycles");
  EXPECT_EQ(error_of("--watchdog", "0x20"), "--watchdog 0x20: must be an integer in 1..2^30 cycles");
  EXPECT_EQ(error_of("--drain", "1e3"), "--drain 1e3: must be an integer in 0..2^40 cycles");
  EXPECT_EQ(error_of("--cycles", ""), "--cycles \"\": must be an integer in 1..2^40 cycles");
  EXPECT_EQ(error_of("--cycles", "+-5"), "--cycles +-5: must be an integer in 1..2^40 cycles");
  EXPECT_EQ(error_of("--trace-from", "12abc"), "--trace-from 12abc: must be a decimal integer");
}

std::string phases_error(const std::string& text) {
  try {
    parse_phases(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(SimOptions, PhasesAreCyclePatternAndLoad) {
  const std::vector<TrafficPhase> p = parse_phases("0:uniform@0.4,20000:mixed:share=0.5@0.8,40000:adv+1@0.4");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].start, 0);
  EXPECT_EQ(p[0].pattern, "uniform");
  EXPECT_DOUBLE_EQ(p[0].load, 0.4);
  EXPECT_EQ(p[1].start, 20000);
  EXPECT_EQ(p[1].pattern, "mixed:share=0.5");  // a pattern may hold ':' and '='
  EXPECT_DOUBLE_EQ(p[1].load, 0.8);
  EXPECT_EQ(p[2].pattern, "adv+1");
}

TEST(SimOptions, PhasesThatCannotBeReadSayWhy) {
  const std::string rule = "must be CYCLE:PATTERN@LOAD[,CYCLE:PATTERN@LOAD...], the first at cycle 0";
  EXPECT_EQ(phases_error("uniform@0.4"), "--phases uniform@0.4: " + rule);
  EXPECT_EQ(phases_error("0:uniform"), "--phases 0:uniform: " + rule);
  EXPECT_EQ(phases_error("0:@0.4"), "--phases 0:@0.4: " + rule);
  EXPECT_EQ(phases_error("100:uniform@0.4"),
            "--phases 100:uniform@0.4: the first phase starts at cycle 0 and each later one after the one before");
  EXPECT_EQ(phases_error("0:uniform@0.4,0:uniform@0.5"),
            "--phases 0:uniform@0.4,0:uniform@0.5: the first phase starts at cycle 0 and each later one after the one "
            "before");
  EXPECT_EQ(phases_error("0:uniform@1.5"), "--phases 1.5: every load must be a number in (0, 1] flits/node/cycle");
  EXPECT_EQ(phases_error("0:uniform@0.4,"), "--phases 0:uniform@0.4,: " + rule + "; it ends with a comma");
  // A later phase's bad cycle is named as such, not read as part of a pattern.
  for (const std::string cycle : {"-5", "+5", "0x10"}) {
    EXPECT_EQ(phases_error("0:uniform@0.4," + cycle + ":uniform@0.5"),
              "--phases 0:uniform@0.4," + cycle + ":uniform@0.5: phase 2: the cycle \"" + cycle +
                  "\" must be a decimal integer >= 0");
  }
  // A pattern's own key=value list keeps its commas.
  EXPECT_EQ(parse_phases("0:mixed:share=0.3,with=randperm@0.4,10:uniform@0.2").size(), 2u);
}

std::string loads_error(const std::string& text) {
  try {
    parse_loads(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(SimOptions, LoadsAreCommaSeparatedWithoutEmptyItems) {
  EXPECT_EQ(parse_loads("0.1,0.25,1"), (std::vector<double>{0.1, 0.25, 1.0}));
  const std::string rule = "every load must be a number in (0, 1] flits/node/cycle";
  EXPECT_EQ(loads_error("0.3,"), "--load 0.3,: " + rule);
  EXPECT_EQ(loads_error(",0.3"), "--load ,0.3: " + rule);
  EXPECT_EQ(loads_error("0.1,,0.3"), "--load 0.1,,0.3: " + rule);
  EXPECT_EQ(loads_error(""), "--load \"\": give at least one load");
}

TEST(SimOptions, ThreadsAreAtMostOnePerRouterAndPerCpu) {
  std::string why;
  EXPECT_EQ(fewer_threads(1, 16, &why), std::nullopt);
  const auto usable = fewer_threads(256, 16, &why);
  ASSERT_TRUE(usable.has_value());
  EXPECT_LE(*usable, 16);
  EXPECT_GE(*usable, 1);
  EXPECT_NE(why.find("--threads 256: running"), std::string::npos) << why;
  const auto two_routers = fewer_threads(4, 2, &why);  // more threads than routers: always capped
  ASSERT_TRUE(two_routers.has_value());
  EXPECT_LE(*two_routers, 2);
  EXPECT_NE(why.find("2 routers"), std::string::npos) << why;
}

}  // namespace
