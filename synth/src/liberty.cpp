// A small reader of Liberty (.lib) files: groups, simple and complex
// attributes. It checks a library before Yosys sees it (so a wrong --liberty
// gives a one-line reason) and finds the cells the scripts need by function:
// tie-high/tie-low cells for `hilomap`, a buffer for ABC's driving cell, and
// the area of every cell.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "rlroute/synth/liberty.hpp"

namespace fs = std::filesystem;

namespace rlroute::synth {

namespace {

struct Token {
  enum Kind { Word, String, Punct, End } kind = End;
  std::string text;
  int line = 0;
};

class Lexer {
 public:
  explicit Lexer(const std::string& text) : s_(text) {}

  Token next() {
    skip();
    Token t;
    t.line = line_;
    if (i_ >= s_.size()) return t;
    const char c = s_[i_];
    if (c == '"') {
      t.kind = Token::String;
      ++i_;
      while (i_ < s_.size() && s_[i_] != '"') {
        if (s_[i_] == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == '\n' || s_[i_ + 1] == '\r')) {
          ++i_;  // line continuation inside a string
          continue;
        }
        if (s_[i_] == '\n') ++line_;
        t.text += s_[i_++];
      }
      if (i_ >= s_.size()) throw std::runtime_error(fmt::format("{}: unterminated string", t.line));
      ++i_;
      return t;
    }
    if (std::strchr("(){}:;,", c)) {
      t.kind = Token::Punct;
      t.text = std::string(1, c);
      ++i_;
      return t;
    }
    t.kind = Token::Word;
    while (i_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[i_])) && !std::strchr("(){}:;,\"", s_[i_]) &&
           !(s_[i_] == '/' && i_ + 1 < s_.size() && (s_[i_ + 1] == '*' || s_[i_ + 1] == '/')) &&
           !(s_[i_] == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == '\n' || s_[i_ + 1] == '\r'))) {
      t.text += s_[i_++];
    }
    return t;
  }

 private:
  void skip() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
      } else if (c == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == '\n' || s_[i_ + 1] == '\r')) {
        ++i_;  // line continuation
      } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '*') {
        const std::size_t end = s_.find("*/", i_ + 2);
        const std::size_t stop = end == std::string::npos ? s_.size() : end + 2;
        line_ += static_cast<int>(
            std::count(s_.begin() + static_cast<long>(i_), s_.begin() + static_cast<long>(stop), '\n'));
        i_ = stop;
      } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else {
        break;
      }
    }
  }

  const std::string& s_;
  std::size_t i_ = 0;
  int line_ = 1;
};

struct Group {
  std::string type;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> attrs;
  std::vector<Group> groups;

  std::string attr(const std::string& name) const {
    for (const auto& [k, v] : attrs) {
      if (k == name) return v;
    }
    return "";
  }
};

class Parser {
 public:
  explicit Parser(const std::string& text) : lex_(text) { advance(); }

  // The first top-level group (the library).
  Group parse_file() {
    if (tok_.kind != Token::Word) fail("expected a library group");
    Group g;
    if (!statement(g)) fail("expected a library group");
    if (g.groups.empty()) fail("expected a library group");
    return g.groups.front();
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(fmt::format("{}: {} (found \"{}\")", tok_.line, what, tok_.text));
  }
  void advance() { tok_ = lex_.next(); }
  bool is(const char* p) const { return tok_.kind == Token::Punct && tok_.text == p; }

  // Parses one statement into `parent`; false at '}' or end of input.
  bool statement(Group& parent) {
    if (tok_.kind == Token::End || is("}")) return false;
    if (is(";")) {  // stray semicolon
      advance();
      return true;
    }
    if (tok_.kind != Token::Word) fail("expected an attribute or group name");
    const std::string name = tok_.text;
    advance();
    if (is(":")) {
      advance();
      if (tok_.kind != Token::Word && tok_.kind != Token::String) fail("expected a value after ':'");
      std::string value = tok_.text;
      const int line = tok_.line;
      advance();
      // Unquoted expressions may span several words on the same line.
      while ((tok_.kind == Token::Word || tok_.kind == Token::String) && tok_.line == line) {
        value += " " + tok_.text;
        advance();
      }
      if (is(";")) advance();
      parent.attrs.emplace_back(name, value);
      return true;
    }
    if (!is("(")) fail("expected ':' or '(' after \"" + name + "\"");
    advance();
    Group g;
    g.type = name;
    std::string arg;
    while (!is(")")) {
      if (tok_.kind == Token::End) fail("unterminated argument list");
      if (is(",")) {
        g.args.push_back(arg);
        arg.clear();
      } else {
        arg += (arg.empty() ? "" : " ") + tok_.text;
      }
      advance();
    }
    if (!arg.empty() || !g.args.empty()) g.args.push_back(arg);
    advance();
    if (is("{")) {
      advance();
      while (statement(g)) {
      }
      if (!is("}")) fail("expected '}' closing group \"" + name + "\"");
      advance();
      parent.groups.push_back(std::move(g));
    } else {
      if (is(";")) advance();
      // complex attribute, e.g. capacitive_load_unit (1, ff)
      std::string joined;
      for (const auto& a : g.args) joined += (joined.empty() ? "" : ", ") + a;
      parent.attrs.emplace_back(name, joined);
    }
    return true;
  }

  Lexer lex_;
  Token tok_;
};

std::string strip(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(),
                         [](char c) { return std::isspace(static_cast<unsigned char>(c)) || c == '"'; }),
          s.end());
  return s;
}

void add_pins(const Group& g, LibertyCell& cell) {
  for (const Group& sub : g.groups) {
    if (sub.type == "pin") {
      const std::string dir = strip(sub.attr("direction"));
      for (const std::string& pin : sub.args) {
        if (dir == "input")
          cell.inputs.push_back(strip(pin));
        else if (dir == "output" || dir == "inout")
          cell.outputs[strip(pin)] = strip(sub.attr("function"));
      }
    } else if (sub.type == "bus" || sub.type == "bundle") {
      add_pins(sub, cell);
    } else if (sub.type == "ff" || sub.type == "latch" || sub.type == "ff_bank" || sub.type == "latch_bank" ||
               sub.type == "statetable") {
      cell.sequential = true;
    }
  }
}

template <typename Pred>
std::string smallest(const std::map<std::string, LibertyCell>& cells, Pred pred) {
  std::string best;
  double area = 0;
  for (const auto& [name, cell] : cells) {
    if (cell.dont_use || cell.sequential || !pred(cell)) continue;
    if (best.empty() || cell.area < area) {
      best = name;
      area = cell.area;
    }
  }
  return best;
}

std::pair<std::string, std::string> tie_cell(const std::map<std::string, LibertyCell>& cells,
                                             const std::string& value) {
  const std::string name = smallest(cells, [&](const LibertyCell& c) {
    return c.inputs.empty() && c.outputs.size() == 1 && c.outputs.begin()->second == value;
  });
  if (name.empty()) return {};
  return {name, cells.at(name).outputs.begin()->first};
}

}  // namespace

std::pair<std::string, std::string> LibertyLibrary::tie_high() const { return tie_cell(cells, "1"); }
std::pair<std::string, std::string> LibertyLibrary::tie_low() const { return tie_cell(cells, "0"); }

std::string LibertyLibrary::buffer() const {
  return smallest(cells, [](const LibertyCell& c) {
    return c.inputs.size() == 1 && c.outputs.size() == 1 && c.outputs.begin()->second == c.inputs.front();
  });
}

LibertyLibrary parse_liberty(const std::string& text, const fs::path& path, const std::string& option) {
  const std::string where = fmt::format("{} {}", option, path.string());
  Group lib;
  try {
    lib = Parser(text).parse_file();
  } catch (const std::runtime_error& e) {
    throw SynthError(fmt::format("{}:{}: not a Liberty file", where, e.what()));
  }
  if (lib.type != "library") {
    throw SynthError(
        fmt::format("{}: not a Liberty file (the first group is \"{}\", not \"library\")", where, lib.type));
  }
  LibertyLibrary out;
  out.path = path;
  out.name = lib.args.empty() ? "" : strip(lib.args.front());
  for (const Group& g : lib.groups) {
    if (g.type != "cell" || g.args.empty()) continue;
    LibertyCell cell;
    cell.name = strip(g.args.front());
    const std::string area = strip(g.attr("area"));
    if (!area.empty()) {
      try {
        cell.area = std::stod(area);
        cell.has_area = true;
      } catch (const std::exception&) {
        throw SynthError(fmt::format("{}: cell {}: area \"{}\" is not a number", where, cell.name, area));
      }
    }
    cell.dont_use = strip(g.attr("dont_use")) == "true";
    add_pins(g, cell);
    out.cells[cell.name] = std::move(cell);
  }
  if (out.cells.empty()) throw SynthError(fmt::format("{}: the library has no cells", where));
  const bool has_flop = std::any_of(out.cells.begin(), out.cells.end(),
                                    [](const auto& kv) { return kv.second.sequential && !kv.second.dont_use; });
  if (!has_flop) {
    throw SynthError(
        fmt::format("{}: the library has no flip-flop (no cell with an ff group), so dfflibmap "
                    "cannot map the design's registers",
                    where));
  }
  const bool has_logic = std::any_of(out.cells.begin(), out.cells.end(), [](const auto& kv) {
    return !kv.second.sequential && !kv.second.dont_use && !kv.second.inputs.empty() && !kv.second.outputs.empty();
  });
  if (!has_logic) {
    throw SynthError(fmt::format("{}: the library has no combinational cell, so abc cannot map the logic", where));
  }
  if (out.buffer().empty()) {
    throw SynthError(fmt::format("{}: the library has no buffer (a cell whose one output is its one input), which "
                                 "ABC's mapping (&nf) needs",
                                 where));
  }
  return out;
}

// Commercial libraries with timing tables reach tens of MiB; 256 MiB leaves room.
constexpr std::uintmax_t kMaxLibertyBytes = 256u << 20;

LibertyLibrary read_liberty(const fs::path& path, const std::string& option) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw SynthError(fmt::format("{} {}: no such file", option, path.string()));
  if (!fs::is_regular_file(path, ec)) throw SynthError(fmt::format("{} {}: not a regular file", option, path.string()));
  // Read whole and parsed in memory: a size beyond any cell library's.
  const auto size = fs::file_size(path, ec);
  if (!ec && size > kMaxLibertyBytes) {
    throw SynthError(fmt::format("{} {}: the file is {} MiB; the limit is {} MiB (a library of the cells to map onto)",
                                 option, path.string(), size >> 20, kMaxLibertyBytes >> 20));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SynthError(fmt::format("{} {}: cannot read ({})", option, path.string(), std::strerror(errno)));
  std::stringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw SynthError(fmt::format("{} {}: cannot read", option, path.string()));
  return parse_liberty(text.str(), path, option);
}

}  // namespace rlroute::synth
