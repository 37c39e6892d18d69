#include "rlroute/gen/dqn_weights.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "rlroute/gen/files.hpp"

namespace rlroute {

namespace {

constexpr const char* kFormatKey = "rlroute_dqn_weights";
constexpr int kFormatVersion = 1;
constexpr std::size_t kMaxWeightsBytes = 64u << 20;

std::string shown(const nlohmann::json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

[[noreturn]] void fail(const std::string& where, const std::string& key, const nlohmann::json& value,
                       const std::string& rule) {
  throw WeightsError(fmt::format("{}: {} = {}: {}", where, key, shown(value), rule));
}

[[noreturn]] void missing(const std::string& where, const std::string& key) {
  throw WeightsError(fmt::format("{}: {}: missing", where, key));
}

const nlohmann::json& member(const nlohmann::json& obj, const std::string& name, const std::string& where,
                             const std::string& key) {
  const auto it = obj.find(name);
  if (it == obj.end()) missing(where, key);
  return *it;
}

long long integer_in(const nlohmann::json& v, long long lo, long long hi, const std::string& where,
                     const std::string& key) {
  if (!v.is_number_integer()) fail(where, key, v, fmt::format("must be an integer in {}..{}", lo, hi));
  const long long x = v.get<long long>();
  if (x < lo || x > hi) fail(where, key, v, fmt::format("must be an integer in {}..{}", lo, hi));
  return x;
}

void only_keys(const nlohmann::json& obj, std::initializer_list<const char*> keys, const std::string& where,
               const std::string& prefix) {
  for (const auto& [k, v] : obj.items()) {
    bool known = false;
    for (const char* name : keys) known = known || k == name;
    if (!known) fail(where, prefix + k, v, "unknown key");
  }
}

// A layer object's "weights": `outputs` rows of `inputs` numbers, row-major;
// `read(value, key)` checks one number and returns what is kept.
template <typename Read>
auto weight_rows(const nlohmann::json& lj, int inputs, int outputs, const std::string& where, const std::string& at,
                 Read read) {
  std::vector<decltype(read(lj, at))> values;
  const nlohmann::json& w = member(lj, "weights", where, at + ".weights");
  if (!w.is_array() || w.size() != static_cast<size_t>(outputs)) {
    fail(where, at + ".weights", w, fmt::format("must be {} rows (one per output)", outputs));
  }
  for (int o = 0; o < outputs; ++o) {
    const std::string row_key = fmt::format("{}.weights[{}]", at, o);
    const nlohmann::json& row = w[static_cast<size_t>(o)];
    if (!row.is_array() || row.size() != static_cast<size_t>(inputs)) {
      fail(where, row_key, row, fmt::format("must be {} weights (one per input)", inputs));
    }
    for (int i = 0; i < inputs; ++i) values.push_back(read(row[static_cast<size_t>(i)], fmt::format("{}[{}]", row_key, i)));
  }
  return values;
}

// A float as the shortest decimal that reads back to the same float.
std::string float_text(float x) { return fmt::format("{}", x); }

void check_float_shapes(const ref::DqnNetwork& network, const ref::FloatNetwork& f) {
  bool same = f.layers.size() == network.layers.size();
  for (size_t l = 0; same && l < f.layers.size(); ++l) {
    const ref::FloatLayer& fl = f.layers[l];
    same = fl.inputs == network.layers[l].inputs && fl.outputs == network.layers[l].outputs &&
           fl.weights.size() == static_cast<size_t>(fl.inputs * fl.outputs) &&
           fl.biases.size() == static_cast<size_t>(fl.outputs);
  }
  if (!same) throw std::invalid_argument("dqn_weights_json: the float network's layers differ from the quantized network's");
  for (const ref::FloatLayer& fl : f.layers) {
    for (const std::vector<float>* values : {&fl.weights, &fl.biases}) {
      for (const float x : *values) {
        if (!std::isfinite(x)) throw WeightsError("the floating-point network has a non-finite value (training diverged)");
      }
    }
  }
}

std::string float_layers_json(const ref::FloatNetwork& f) {
  std::string s = "  \"float_layers\": [\n";
  for (size_t l = 0; l < f.layers.size(); ++l) {
    const ref::FloatLayer& layer = f.layers[l];
    s += fmt::format("    {{\n      \"inputs\": {},\n      \"outputs\": {},\n      \"weights\": [\n", layer.inputs,
                     layer.outputs);
    std::vector<std::string> texts;
    for (int o = 0; o < layer.outputs; ++o) {
      texts.clear();
      for (int i = 0; i < layer.inputs; ++i) texts.push_back(float_text(layer.weights[static_cast<size_t>(o * layer.inputs + i)]));
      s += fmt::format("        [{}]{}\n", fmt::join(texts, ", "), o + 1 < layer.outputs ? "," : "");
    }
    texts.clear();
    for (const float b : layer.biases) texts.push_back(float_text(b));
    s += fmt::format("      ],\n      \"biases\": [{}]\n    }}{}\n", fmt::join(texts, ", "),
                     l + 1 < f.layers.size() ? "," : "");
  }
  return s + "  ]\n";
}

float finite_float(const nlohmann::json& v, const std::string& where, const std::string& key) {
  if (!v.is_number()) fail(where, key, v, "must be a finite number");
  // Below 2^128 - 2^103 a double rounds to a finite float (the largest
  // float's shortest text, 3.4028235e+38, is a little above it as a double).
  const double limit = std::ldexp(1.0, 128) - std::ldexp(1.0, 103);
  const double x = v.get<double>();
  if (!std::isfinite(x) || std::fabs(x) >= limit) fail(where, key, v, "must be a finite number");
  return static_cast<float>(x);
}

// float_layers, which must have the quantized network's layer shapes.
ref::FloatNetwork parse_float_layers(const nlohmann::json& layers, const ref::DqnNetwork& n, const std::string& where) {
  if (!layers.is_array() || layers.size() != n.layers.size()) {
    fail(where, "float_layers", layers, fmt::format("must be an array of {} layers, like layers", n.layers.size()));
  }
  ref::FloatNetwork f;
  for (size_t l = 0; l < layers.size(); ++l) {
    const std::string at = fmt::format("float_layers[{}]", l);
    const nlohmann::json& lj = layers[l];
    if (!lj.is_object()) fail(where, at, lj, "must be an object");
    only_keys(lj, {"inputs", "outputs", "weights", "biases"}, where, at + ".");
    ref::FloatLayer layer;
    const ref::DqnLayer& q = n.layers[l];
    layer.inputs = static_cast<int>(integer_in(member(lj, "inputs", where, at + ".inputs"), q.inputs, q.inputs, where,
                                               at + ".inputs"));
    layer.outputs = static_cast<int>(integer_in(member(lj, "outputs", where, at + ".outputs"), q.outputs, q.outputs,
                                                where, at + ".outputs"));
    layer.weights = weight_rows(lj, layer.inputs, layer.outputs, where, at,
                                [&where](const nlohmann::json& v, const std::string& key) {
                                  return finite_float(v, where, key);
                                });
    const nlohmann::json& b = member(lj, "biases", where, at + ".biases");
    if (!b.is_array() || b.size() != static_cast<size_t>(layer.outputs)) {
      fail(where, at + ".biases", b, fmt::format("must be {} biases (one per output)", layer.outputs));
    }
    for (int o = 0; o < layer.outputs; ++o) {
      layer.biases.push_back(finite_float(b[static_cast<size_t>(o)], where, fmt::format("{}.biases[{}]", at, o)));
    }
    f.layers.push_back(std::move(layer));
  }
  return f;
}

// The JSON text as a value, refusing what a lenient parser takes silently: a
// key twice in one object (the last one would win). A number beyond a
// double (1e400) is "not JSON" too, with the file named.
nlohmann::json parse_json_strictly(const std::string& text, const std::string& where) {
  std::vector<std::set<std::string>> keys;  // one set per open object
  const auto strict = [&](int /*depth*/, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) keys.emplace_back();
    if (event == Event::object_end && !keys.empty()) keys.pop_back();
    if (event == Event::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second) {
      throw WeightsError(fmt::format("{}: the key \"{}\" appears twice in one object", where, parsed.get<std::string>()));
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text, strict);
  } catch (const nlohmann::json::exception& e) {
    // Without the library's "[json.exception.parse_error.101] " prefix.
    std::string what = e.what();
    if (const auto end = what.find("] "); what.rfind("[json.exception.", 0) == 0 && end != std::string::npos) {
      what = what.substr(end + 2);
    }
    throw WeightsError(fmt::format("{}: not JSON: {}", where, what));
  }
}

}  // namespace

std::string dqn_weights_json(const ref::DqnNetwork& network, const nlohmann::json& provenance,
                             const ref::FloatNetwork* float_network) {
  network.validate();
  if (float_network) check_float_shapes(network, *float_network);
  // Written by hand so that each weight row is one line (a dump of the whole
  // tree puts every number on its own line).
  std::string s = fmt::format("{{\n  \"{}\": {},\n  \"weight_bits\": {},\n  \"activation_bits\": {},\n", kFormatKey,
                              kFormatVersion, network.weight_bits, network.activation_bits);
  s += fmt::format("  \"provenance\": {},\n  \"layers\": [\n", provenance.dump());
  for (size_t l = 0; l < network.layers.size(); ++l) {
    const ref::DqnLayer& layer = network.layers[l];
    s += fmt::format("    {{\n      \"inputs\": {},\n      \"outputs\": {},\n      \"shift\": {},\n      \"weights\": [\n",
                     layer.inputs, layer.outputs, layer.shift);
    for (int o = 0; o < layer.outputs; ++o) {
      const auto row = layer.weights.begin() + o * layer.inputs;
      s += fmt::format("        [{}]{}\n", fmt::join(row, row + layer.inputs, ", "), o + 1 < layer.outputs ? "," : "");
    }
    s += fmt::format("      ],\n      \"biases\": [{}]\n    }}{}\n", fmt::join(layer.biases, ", "),
                     l + 1 < network.layers.size() ? "," : "");
  }
  s += float_network ? "  ],\n" + float_layers_json(*float_network) : "  ]\n";
  return s + "}\n";
}

ref::DqnNetwork parse_dqn_weights(const std::string& text, const std::string& where, nlohmann::json* provenance,
                                  ref::FloatNetwork* float_network) {
  const nlohmann::json j = parse_json_strictly(text, where);
  if (!j.is_object()) throw WeightsError(fmt::format("{}: not a weights file: the top level must be an object", where));
  if (!j.contains(kFormatKey)) {
    throw WeightsError(fmt::format("{}: not a weights file: no \"{}\" key (rlroute train writes it)", where, kFormatKey));
  }
  only_keys(j, {kFormatKey, "weight_bits", "activation_bits", "provenance", "float_layers", "layers"}, where, "");
  integer_in(j[kFormatKey], kFormatVersion, kFormatVersion, where, kFormatKey);
  ref::DqnNetwork n;
  n.weight_bits = static_cast<unsigned>(integer_in(member(j, "weight_bits", where, "weight_bits"), 2, 16, where, "weight_bits"));
  n.activation_bits =
      static_cast<unsigned>(integer_in(member(j, "activation_bits", where, "activation_bits"), 2, 16, where, "activation_bits"));
  if (j.contains("provenance") && !j["provenance"].is_object()) fail(where, "provenance", j["provenance"], "must be an object");
  if (provenance) *provenance = j.value("provenance", nlohmann::json::object());
  const nlohmann::json& layers = member(j, "layers", where, "layers");
  if (!layers.is_array() || layers.empty() || layers.size() > 4) {
    fail(where, "layers", layers, "must be an array of 1 to 4 layers");
  }
  const long long wmax = (1ll << (n.weight_bits - 1)) - 1;
  for (size_t l = 0; l < layers.size(); ++l) {
    const std::string at = fmt::format("layers[{}]", l);
    const nlohmann::json& lj = layers[l];
    if (!lj.is_object()) fail(where, at, lj, "must be an object");
    only_keys(lj, {"inputs", "outputs", "shift", "weights", "biases"}, where, at + ".");
    ref::DqnLayer layer;
    layer.inputs = static_cast<int>(integer_in(member(lj, "inputs", where, at + ".inputs"), 1, 1024, where, at + ".inputs"));
    layer.outputs = static_cast<int>(integer_in(member(lj, "outputs", where, at + ".outputs"), 1, 1024, where, at + ".outputs"));
    if (l > 0 && layer.inputs != n.layers.back().outputs) {
      fail(where, at + ".inputs", lj["inputs"], fmt::format("must equal layers[{}].outputs = {}", l - 1, n.layers.back().outputs));
    }
    layer.shift = static_cast<unsigned>(integer_in(member(lj, "shift", where, at + ".shift"), 0, 40, where, at + ".shift"));
    layer.weights = weight_rows(lj, layer.inputs, layer.outputs, where, at,
                                [&where, wmax](const nlohmann::json& v, const std::string& key) {
                                  return static_cast<int32_t>(integer_in(v, -wmax - 1, wmax, where, key));
                                });
    n.layers.push_back(layer);
  }
  // Biases last: their range depends on every layer's fan-in (the accumulator width).
  const long long blim = n.bias_limit() - 1;
  for (size_t l = 0; l < layers.size(); ++l) {
    const std::string at = fmt::format("layers[{}]", l);
    const nlohmann::json& b = member(layers[l], "biases", where, at + ".biases");
    ref::DqnLayer& layer = n.layers[l];
    if (!b.is_array() || b.size() != static_cast<size_t>(layer.outputs)) {
      fail(where, at + ".biases", b, fmt::format("must be {} biases (one per output)", layer.outputs));
    }
    for (int o = 0; o < layer.outputs; ++o) {
      layer.biases.push_back(integer_in(b[static_cast<size_t>(o)], -blim, blim, where, fmt::format("{}.biases[{}]", at, o)));
    }
    if (layer.shift >= n.accumulator_bits()) {
      fail(where, at + ".shift", layers[l]["shift"], fmt::format("must be below the accumulator width {}", n.accumulator_bits()));
    }
  }
  if (n.outputs() > 32) fail(where, fmt::format("layers[{}].outputs", layers.size() - 1), n.outputs(), "at most 32 (the action mask)");
  n.validate();  // everything above has been checked with a better message; this is the reference's own word
  if (j.contains("float_layers")) {
    ref::FloatNetwork f = parse_float_layers(j["float_layers"], n, where);
    if (float_network) *float_network = std::move(f);
  } else if (float_network) {
    *float_network = ref::FloatNetwork{};
  }
  return n;
}

ref::DqnNetwork read_dqn_weights(const std::filesystem::path& path, nlohmann::json* provenance,
                                 ref::FloatNetwork* float_network) {
  std::string text;
  try {
    text = read_regular_file(path, kMaxWeightsBytes, "weights file");
  } catch (const std::exception& e) {
    throw WeightsError(e.what());
  }
  return parse_dqn_weights(text, path.string(), provenance, float_network);
}

void check_weights_output(const std::filesystem::path& path) {
  check_output_file(path, "-o");
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return;
  bool ours = false;
  try {
    const nlohmann::json old = nlohmann::json::parse(read_regular_file(path, kMaxWeightsBytes, "weights file"));
    ours = old.is_object() && old.contains(kFormatKey);
  } catch (const std::exception&) {
    ours = false;
  }
  if (!ours) {
    throw WeightsError(fmt::format("-o {}: exists and is not a weights file rlroute wrote; not replacing it", path.string()));
  }
}

void write_dqn_weights(const std::filesystem::path& path, const ref::DqnNetwork& network,
                       const nlohmann::json& provenance, const ref::FloatNetwork* float_network) {
  const std::string text = dqn_weights_json(network, provenance, float_network);
  check_weights_output(path);
  write_file_atomically(path, text, "-o");
}

}  // namespace rlroute
