// Tool scripts: the templates in synth/ with their {{KEY}} placeholders filled.
#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "rlroute/synth/templates.hpp"

namespace fs = std::filesystem;

namespace rlroute::synth {

fs::path synth_dir() {
  if (const char* env = std::getenv("RLROUTE_SYNTH_DIR")) return env;
  return RLROUTE_DEFAULT_SYNTH_DIR;  // this folder of the sources the tool was built from
}

std::string fill_template(const std::string& text, const std::map<std::string, std::string>& values,
                          const std::string& template_name) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t open = text.find("{{", pos);
    if (open == std::string::npos) break;
    const std::size_t close = text.find("}}", open + 2);
    if (close == std::string::npos) break;
    const std::string key = text.substr(open + 2, close - open - 2);
    const auto it = values.find(key);
    if (it == values.end()) {
      throw SynthError(fmt::format("{}: template placeholder {{{{{}}}}} has no value", template_name, key));
    }
    out += text.substr(pos, open - pos);
    out += it->second;
    pos = close + 2;
  }
  out += text.substr(pos);
  return out;
}

std::string render_template(const std::string& name, const std::map<std::string, std::string>& values) {
  const fs::path path = synth_dir() / name;
  std::ifstream in(path);
  if (!in) {
    throw SynthError(
        fmt::format("{}: cannot read the script template (set RLROUTE_SYNTH_DIR to the synth/ "
                    "directory of the rlroute sources)",
                    path.string()));
  }
  std::stringstream text;
  text << in.rdbuf();
  return fill_template(text.str(), values, path.string());
}

}  // namespace rlroute::synth
