#!/usr/bin/env bash
# Builds the C++ libraries and the unit and network test programs with
# AddressSanitizer and UndefinedBehaviorSanitizer (RLROUTE_SANITIZE=ON, Debug)
# in BUILD_DIR, then runs every unit test and one small network test there.
# Any sanitizer report fails the run (halt_on_error, no recovery).
# usage: run.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$2
mkdir -p "$build"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DRLROUTE_SANITIZE=ON -DRLROUTE_RTL_TESTS=OFF > "$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
cmake --build "$build" -j 2 --target unit_tests network_tests
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# The model cache tests that run whole Verilator builds (the compiler and
# Verilator are not what the sanitizers check) run in the default test run.
"$build/tests/unit_tests" --gtest_filter='-ModelCache.TruncatedLibraryIsRebuiltWithVerilator:ModelCache.DamagedRuntimeObjectIsRebuilt:ModelCache.PrecompiledHeader*'
"$build/tests/network_tests" --gtest_filter='Network.HarnessAndGeneratedNetworkTopAgreeCycleForCycle'
