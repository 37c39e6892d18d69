// The tool script templates in synth/ and how they are filled.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "rlroute/synth/error.hpp"

namespace rlroute::synth {

// Directory with the templates and the default Liberty: $RLROUTE_SYNTH_DIR, or
// the synth/ folder of the sources rlroute was built from.
std::filesystem::path synth_dir();

// Replaces every {{KEY}} in `text`; throws SynthError for a placeholder
// without a value (a template and the code disagree).
std::string fill_template(const std::string& text, const std::map<std::string, std::string>& values,
                          const std::string& template_name);

// Reads synth/<name> and fills it.
std::string render_template(const std::string& name, const std::map<std::string, std::string>& values);

}  // namespace rlroute::synth
