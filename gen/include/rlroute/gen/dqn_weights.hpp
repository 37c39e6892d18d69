// The DQN weights file (docs/dqn.md, "The weights file"): the quantized
// network that `rlroute train` writes and `rlroute gen` / `rlroute sim
// --weights` load into the inference block. JSON, one layer per entry, the
// integers exactly as the block holds them, so the file round-trips bit for
// bit: read(write(n)) == n and write(read(f)) == f for any file write made.
// Optionally also the floating-point network it was quantized from
// (`float_layers`, for `rlroute sim --float-agent`), which round-trips exactly
// too (every float is written with the digits that read back to it).
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "rlroute/ref/dqn_float.hpp"
#include "rlroute/ref/dqn_inference.hpp"

namespace rlroute {

// One line: "<file>: <key> = <value>: <rule>".
class WeightsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The file's text for `network` (validated first); `provenance` (an object of
// strings and numbers: how the network was trained) is kept as given;
// `float_network` (may be null), the network before quantization, must have
// the same layer shapes as `network`.
std::string dqn_weights_json(const ref::DqnNetwork& network, const nlohmann::json& provenance = nlohmann::json::object(),
                             const ref::FloatNetwork* float_network = nullptr);

// Parses a weights file's text; `where` names it in errors. The file's
// provenance object goes to *provenance when given, its floating-point
// network to *float_network (no layers when the file has none).
ref::DqnNetwork parse_dqn_weights(const std::string& text, const std::string& where,
                                  nlohmann::json* provenance = nullptr, ref::FloatNetwork* float_network = nullptr);
ref::DqnNetwork read_dqn_weights(const std::filesystem::path& path, nlohmann::json* provenance = nullptr,
                                 ref::FloatNetwork* float_network = nullptr);

// Checks, before any work, that `path` may receive a weights file: a writable
// place (check_output_file), and an existing file there is a weights file
// (rlroute wrote it), else WeightsError.
void check_weights_output(const std::filesystem::path& path);

// Writes the file atomically; an existing file is replaced only if it is a
// weights file (rlroute wrote it), else WeightsError before anything is written.
void write_dqn_weights(const std::filesystem::path& path, const ref::DqnNetwork& network,
                       const nlohmann::json& provenance = nlohmann::json::object(),
                       const ref::FloatNetwork* float_network = nullptr);

}  // namespace rlroute
