// The one error type of the synthesis library.
#pragma once

#include <stdexcept>

namespace rlroute::synth {

// Every synth error is one line naming the option, file or tool at fault.
class SynthError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// SIGINT or SIGTERM during a run (InterruptGuard, process.hpp): the running
// tool was stopped and the output directory is left as it was.
class SynthInterrupted : public SynthError {
 public:
  using SynthError::SynthError;
};

}  // namespace rlroute::synth
