// Liberty files: enough of the format to check a library before any tool
// runs and to pick its tie and buffer cells.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "rlroute/synth/error.hpp"

namespace rlroute::synth {

struct LibertyCell {
  std::string name;
  double area = 0;
  bool has_area = false;
  bool sequential = false;  // has an ff or latch group
  bool dont_use = false;
  std::vector<std::string> inputs;
  std::map<std::string, std::string> outputs;  // pin -> function ("" if none)
};

struct LibertyLibrary {
  std::string name;
  std::filesystem::path path;
  std::map<std::string, LibertyCell> cells;

  // Smallest usable cells: constant 1 / constant 0 drivers (cell, pin) and a
  // buffer (cell, input pin, output pin). Empty when the library has none.
  std::pair<std::string, std::string> tie_high() const;
  std::pair<std::string, std::string> tie_low() const;
  std::string buffer() const;
};

// Reads and checks a Liberty file; `option` names the command-line option in
// errors ("--liberty"). Throws SynthError: missing/unreadable file, syntax
// error (with line), no cells, no flip-flop, no combinational cell.
LibertyLibrary read_liberty(const std::filesystem::path& path, const std::string& option);
LibertyLibrary parse_liberty(const std::string& text, const std::filesystem::path& path, const std::string& option);

}  // namespace rlroute::synth
