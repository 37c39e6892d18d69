// The one error type of the synthesis library.
#pragma once

#include <stdexcept>

namespace rlroute::synth {

// Every synth error is one line naming the option, file or tool at fault.
class SynthError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rlroute::synth
