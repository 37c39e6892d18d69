#!/usr/bin/env bash
# Builds test programs with sanitizers in a tree of their own and runs them;
# any sanitizer report fails the run (halt_on_error, no recovery).
#   address: AddressSanitizer and UndefinedBehaviorSanitizer
#     (RLROUTE_SANITIZE=ON, Debug); every unit test and one small network test.
#   threads: ThreadSanitizer (RLROUTE_TSAN=ON, -O1 -g1); the tests that simulate on
#     several threads (the harness's thread team: NICs, links, checker and
#     routers per router; docs/architecture.md, "Threads"). The Verilated
#     models come from the model cache as usual (not instrumented: each is
#     touched by one thread only).
# usage: run.sh address|threads SOURCE_DIR BUILD_DIR
set -euo pipefail
mode=$1
src=$2
build=$3
case "$mode" in
  address) options=(-DCMAKE_BUILD_TYPE=Debug -DRLROUTE_SANITIZE=ON) targets=(unit_tests network_tests) ;;
  # -O1 -g1 (line tables, all a report needs): the tree builds in 74 s
  # against 106 s at the build type's -O2 -g, and the tests run as fast.
  threads) options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DRLROUTE_TSAN=ON)
           targets=(network_tests checker_tests q_adaptive_network_tests) ;;
  *) echo "run.sh: mode '$mode': must be address or threads" >&2; exit 2 ;;
esac
mkdir -p "$build"
cmake -S "$src" -B "$build" "${options[@]}" -DRLROUTE_RTL_TESTS=OFF > "$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
cmake --build "$build" -j 2 --target "${targets[@]}"
if [ "$mode" = address ]; then
  export ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
  # The model cache tests that run whole Verilator builds (the compiler and
  # Verilator are not what the sanitizers check) run in the default test run.
  "$build/tests/unit_tests" --gtest_filter='-ModelCache.TruncatedLibraryIsRebuiltWithVerilator:ModelCache.DamagedRuntimeObjectIsRebuilt:ModelCache.RuntimeObjectOverwrittenInPlaceIsRebuilt:ModelCache.ModelCompiledForBuildTime*:ModelCache.PrecompiledHeader*'
  "$build/tests/network_tests" --gtest_filter='Network.HarnessAndGeneratedNetworkTopAgreeCycleForCycle'
else
  export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
  "$build/tests/network_tests" --gtest_filter='Network.ResultsAreIdenticalAtEveryThreadCount'
  "$build/tests/checker_tests" --gtest_filter='*TheFirstViolationIsTheSameAtEveryThreadCount'
  "$build/tests/q_adaptive_network_tests" --gtest_filter='QAdaptiveThreads.*'
fi
