// Integer flags of `rlroute sim` (tb/src/sim_options.cpp): read as typed, and
// reported with the flag's own range when they cannot be.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

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

}  // namespace
