// The part of a model build that is the same for every model of a kind:
// verilated.h precompiled once per optimisation level of the model's makefile
// (OPT_SLOW for the code that runs once, OPT_FAST for the per-cycle code),
// and Verilator's runtime objects (the makefile's VK_GLOBAL_OBJS). Parsing
// verilated.h under -std=c++20 is most of the compile time of a small
// generated file, and the runtime is the same in every model, so both are
// built once per compiler, Verilator, model kind and flags into the cache
// (<root>/verilated-<kind>-<key>) and every later model build reuses them
// (docs/architecture.md, "Test bench").
//
// The header is force-included (-include) into every file of a model build;
// GCC takes the precompiled <header>.gch/<level>.gch that matches the
// file's flags and parses the header itself when none does, so a stale or
// missing precompiled header costs time, never correctness. A macro defined
// when a header was precompiled must be defined the same way where it is
// used: the flags given here must not name the design.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cache_lock.hpp"

namespace rlroute::model_cache {

struct PrebuiltRuntime {
  fs::path header;                // force-include this (-include)
  bool precompiled = false;       // the compiler takes header.gch (checked when it was built)
  std::vector<fs::path> objects;  // the runtime objects: copy them into the model's object directory
};

struct PrebuiltRequest {
  fs::path root;           // the model cache
  fs::path obj;            // a model's object directory as Verilator wrote it
  std::string prefix;      // its makefile is obj/<prefix>.mk
  std::string make_vars;   // what the model's make gets ("OPT_SLOW=-O0 OPT_FAST=-O2")
  std::string cflags;      // the -CFLAGS of every model of the kind (no design's name)
  std::string kind;        // "router" or "network": part of the directory's name
  std::chrono::milliseconds lock_timeout;
};

// Whether a compiler's --version text is Clang's (Clang and GCC take
// different flags and optimisation levels).
inline bool version_says_clang(const std::string& version_text) {
  return version_text.find("clang version") != std::string::npos;
}

// Finds or builds the prebuilt runtime for the request's toolchain and
// flags. Returns nothing (after one line to `notice` saying why) when it
// cannot be built: the model then builds without it.
std::optional<PrebuiltRuntime> prebuilt_runtime(const PrebuiltRequest& r, const Log& progress, const Log& notice);

// Copies the runtime objects into a model's object directory, newer than its
// makefile, so that make takes them as built.
void install_runtime_objects(const PrebuiltRuntime& p, const fs::path& obj);

}  // namespace rlroute::model_cache
