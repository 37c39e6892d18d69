// The config's non-fatal findings, for every verb (both binaries).
#include <iostream>

#include "commands.hpp"

namespace rlroute::cli {

void print_warnings(const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings) std::cerr << "rlroute: warning: " << w << "\n";
}

}  // namespace rlroute::cli
