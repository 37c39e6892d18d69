#include "config_toml.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <type_traits>

namespace rlroute::config_detail {

namespace {

// Cuts a rendered text to kMaxValueChars, saying how long it was.
std::string capped(std::string text) {
  if (text.size() <= kMaxValueChars) return text;
  const std::size_t length = text.size();
  text.resize(kMaxValueChars - 20);
  return fmt::format("{}... ({} characters)", text, length);
}

bool is_bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// Control characters escaped, nothing else changed.
std::string escaped(std::string_view text) {
  const std::string q = quote(text);
  return q.substr(1, q.size() - 2);
}

}  // namespace

std::string quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += fmt::format("\\u{:04X}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  return out + '"';
}

std::string render_float(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::string text = fmt::format("{}", value);
  // Keep floats recognisable as floats: "2.0", not "2".
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string render_unbounded(const toml::node& node) {
  return node.visit([](const auto& n) -> std::string {
    using T = std::remove_cvref_t<decltype(n)>;
    if constexpr (toml::is_string<T>) {
      return quote(n.get());
    } else if constexpr (toml::is_integer<T>) {
      return fmt::format("{}", n.get());
    } else if constexpr (toml::is_floating_point<T>) {
      return render_float(n.get());
    } else if constexpr (toml::is_boolean<T>) {
      return n.get() ? "true" : "false";
    } else if constexpr (toml::is_array<T>) {
      std::vector<std::string> items;
      for (const toml::node& item : n) items.push_back(render_unbounded(item));
      return fmt::format("[{}]", fmt::join(items, ", "));
    } else if constexpr (toml::is_table<T>) {
      std::vector<std::string> items;
      for (const auto& [key, value] : n) items.push_back(fmt::format("{} = {}", key_text(key.str()), render_unbounded(value)));
      return items.empty() ? "{}" : fmt::format("{{ {} }}", fmt::join(items, ", "));
    } else {  // dates and times
      std::ostringstream out;
      out << n;
      return out.str();
    }
  });
}


std::string render(const toml::node& node) { return capped(render_unbounded(node)); }

std::string key_text(std::string_view key) {
  std::string out;
  std::size_t start = 0;
  // Dotted keys ("section.key") keep their dots; each part is checked.
  while (start <= key.size()) {
    const std::size_t dot = std::min(key.find('.', start), key.size());
    const std::string_view part = key.substr(start, dot - start);
    if (!out.empty()) out += '.';
    const bool bare = !part.empty() && std::all_of(part.begin(), part.end(), is_bare_key_char);
    out += bare ? std::string(part) : quote(part);
    start = dot + 1;
  }
  return capped(out);
}

std::string location(std::string_view path, const toml::source_position& pos) {
  return fmt::format("{}:{}:{}", capped(escaped(path)), pos.line, pos.column);
}

toml::source_position start_of(const toml::key& key, const toml::node& node) {
  const toml::source_position& node_begin = node.source().begin;
  return node_begin && node_begin < key.source().begin ? node_begin : key.source().begin;
}

std::string message(std::string_view where, std::string_view key, std::string_view value, std::string_view rule) {
  if (value.empty()) return fmt::format("{}: {}: {}", where, key, rule);
  return fmt::format("{}: {} = {}: {}", where, key, value, rule);
}

}  // namespace rlroute::config_detail
