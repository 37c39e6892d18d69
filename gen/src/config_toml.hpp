// The diagnostics layer of the config parser, over toml++: values rendered
// the way a TOML file spells them, "file:line:column" locations, one-line
// messages that are escaped and capped (a key or value can hold newlines,
// escape sequences or megabytes), and typed reads of one key that fail with
// the key, its value and the rule. Knows nothing of rlroute's keys.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rlroute/gen/config.hpp"

namespace rlroute::config_detail {

// `text` as a TOML basic string: quoted, control characters escaped.
std::string quote(std::string_view text);
// A value as a TOML file would spell it, capped at kMaxValueChars.
std::string render(const toml::node& node);
// A key (or dotted key) as TOML would spell it: bare when it can be, else
// quoted; capped.
std::string key_text(std::string_view key);
// "path:line:column", the path escaped.
std::string location(std::string_view path, const toml::source_position& pos);
// Where a key was written: the key itself, or the start of its "[header]"
// when the key names a table.
toml::source_position start_of(const toml::key& key, const toml::node& node);
// "where: key = value: rule" (or "where: key: rule" without a value), one line.
std::string message(std::string_view where, std::string_view key, std::string_view value, std::string_view rule);

// Longest value or key echoed in a message; longer ones are cut, with their length.
inline constexpr std::size_t kMaxValueChars = 80;

template <std::size_t N>
std::string quoted_list(const std::array<const char*, N>& names) {
  std::vector<std::string> quoted;
  for (const char* name : names) quoted.push_back(quote(name));
  return fmt::format("{}", fmt::join(quoted, ", "));
}

// One written key and the typed reads on it; every failed read throws with
// the key's location, its value and the rule.

class Field {
 public:
  Field(const Config& cfg, std::string key, const toml::node& node)
      : cfg_(cfg), key_(std::move(key)), node_(node) {}

  [[noreturn]] void fail(const std::string& rule) const { config_fail(cfg_, key_, render(node_), rule); }

  std::int64_t integer(std::int64_t lo, std::int64_t hi, const std::string& rule) const {
    const auto* value = node_.as_integer();
    if (value == nullptr || value->get() < lo || value->get() > hi) fail(rule);
    return value->get();
  }

  int int_in(int lo, int hi) const {
    return static_cast<int>(integer(lo, hi, fmt::format("must be an integer in {}..{}", lo, hi)));
  }

  std::int64_t int_at_least(std::int64_t lo) const {
    return integer(lo, std::numeric_limits<std::int64_t>::max(), fmt::format("must be an integer >= {}", lo));
  }

  // An integer or a float; the caller checks the range and fails with `rule`.
  double number(const std::string& rule) const {
    if (const auto* value = node_.as_integer()) return static_cast<double>(value->get());
    if (const auto* value = node_.as_floating_point()) return value->get();
    fail(rule);
  }

  std::string text(const std::string& rule) const {
    const auto* value = node_.as_string();
    if (value == nullptr) fail(rule);
    return value->get();
  }

  // Index of the string value in `names`.
  template <std::size_t N>
  std::size_t one_of(const std::array<const char*, N>& names) const {
    if (const auto* value = node_.as_string()) {
      for (std::size_t i = 0; i < N; ++i) {
        if (value->get() == names[i]) return i;
      }
    }
    fail("must be one of " + quoted_list(names));
  }

  std::vector<std::int64_t> integers(const std::string& rule) const {
    const auto* array = node_.as_array();
    if (array == nullptr) fail(rule);
    std::vector<std::int64_t> values;
    for (const toml::node& item : *array) {
      const auto* value = item.as_integer();
      if (value == nullptr) fail(rule);
      values.push_back(value->get());
    }
    return values;
  }

 private:
  const Config& cfg_;
  std::string key_;
  const toml::node& node_;
};

}  // namespace rlroute::config_detail
