// The one error type of the synthesis library.
#pragma once

#include <stdexcept>

namespace rlroute::synth {

// Every synth error is one line naming the option, file or tool at fault.
class SynthError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An error after which the output directory is left as it was: the run
// wrote nothing worth keeping (no logs of a failed tool to read).
class SynthNothingKept : public SynthError {
 public:
  using SynthError::SynthError;
};

// SIGINT or SIGTERM during a run (InterruptGuard, process.hpp): the running
// tool was stopped.
class SynthInterrupted : public SynthNothingKept {
 public:
  using SynthNothingKept::SynthNothingKept;
};

}  // namespace rlroute::synth
