#!/usr/bin/env bash
# Builds the network test programs with ThreadSanitizer (RLROUTE_TSAN=ON) in
# BUILD_DIR, then runs the tests that simulate on several threads (the
# harness's thread team: NICs, links, checker and routers per router;
# docs/architecture.md, "Threads"). Any data race fails the run
# (halt_on_error). The Verilated models are loaded from the model cache as
# usual (not instrumented: each is touched by one thread only).
# usage: run_threads.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$2
mkdir -p "$build"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRLROUTE_TSAN=ON -DRLROUTE_RTL_TESTS=OFF > "$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
cmake --build "$build" -j 2 --target network_tests checker_tests q_adaptive_network_tests
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
"$build/tests/network_tests" --gtest_filter='Network.ResultsAreIdenticalAtEveryThreadCount'
"$build/tests/checker_tests" --gtest_filter='*TheFirstViolationIsTheSameAtEveryThreadCount'
"$build/tests/q_adaptive_network_tests" --gtest_filter='QAdaptiveThreads.*'
