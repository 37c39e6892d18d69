#include "sv_writer.hpp"

#include <algorithm>

namespace rlroute::sv {

namespace {

void trim_right(std::string& line) {
  while (!line.empty() && line.back() == ' ') line.pop_back();
}

// Comma-separated items with comments after the commas, aligned:
//   .P    (P),     // comment
//   .V    (V)      // comment
std::string items(const std::vector<std::vector<std::string>>& cells, const std::vector<std::string>& comments,
                  const std::string& indent) {
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    std::vector<std::string> row = cells[i];
    row.back() += i + 1 < cells.size() ? "," : "";
    if (!comments[i].empty()) row.push_back("// " + comments[i]);
    rows.push_back(row);
  }
  // Rows with a comment need every code cell padded; align() pads all but the last cell.
  std::size_t code_cells = 0;
  for (const auto& c : cells) code_cells = std::max(code_cells, c.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (comments[i].empty()) continue;
    while (rows[i].size() < code_cells + 1) rows[i].insert(rows[i].end() - 1, "");
  }
  return align(rows, indent);
}

}  // namespace

std::string align(const std::vector<std::vector<std::string>>& rows, const std::string& indent) {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    for (std::size_t c = 0; c + 1 < row.size(); ++c) {
      if (width.size() <= c) width.resize(c + 1, 0);
      width[c] = std::max(width[c], row[c].size());
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line = indent;
    for (std::size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line += std::string(width[c] - row[c].size() + 1, ' ');
    }
    trim_right(line);
    out += line + "\n";
  }
  return out;
}

std::string module_header(const std::string& name, const std::vector<Param>& localparams,
                          const std::vector<Port>& ports) {
  std::string out = "module " + name;
  if (!localparams.empty()) {
    std::vector<std::vector<std::string>> cells;
    std::vector<std::string> comments;
    for (const Param& p : localparams) {
      cells.push_back({"localparam int unsigned", p.name, "= " + p.value});
      comments.push_back(p.comment);
    }
    out += " #(\n" + items(cells, comments, "  ") + ")";
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> comments;
  for (const Port& p : ports) {
    cells.push_back({p.direction, "logic", p.range.empty() ? "" : "[" + p.range + "]", p.name});
    comments.push_back(p.comment);
  }
  return out + " (\n" + items(cells, comments, "  ") + ");\n";
}

std::string localparams(const std::vector<Param>& params, const std::string& indent) {
  std::vector<std::vector<std::string>> rows;
  for (const Param& p : params) {
    std::vector<std::string> row{"localparam int unsigned", p.name, "= " + p.value + ";"};
    if (!p.comment.empty()) row.push_back("// " + p.comment);
    rows.push_back(row);
  }
  // Pad the value column of commented rows only: align() leaves last cells alone.
  return align(rows, indent);
}

std::string instance(const std::string& module, const std::string& name, const std::vector<Param>& params,
                     const std::vector<Connection>& connections, const std::string& indent) {
  const std::string inner = indent + "  ";
  std::string out = indent + module;
  if (!params.empty()) {
    std::vector<std::vector<std::string>> cells;
    std::vector<std::string> comments;
    for (const Param& p : params) {
      cells.push_back({"." + p.name, "(" + p.value + ")"});
      comments.push_back(p.comment);
    }
    out += " #(\n" + items(cells, comments, inner) + indent + ")";
  }
  out += " " + name + " (\n";
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> comments;
  for (const Connection& c : connections) {
    cells.push_back(c.expression.empty()          ? std::vector<std::string>{"." + c.port}
                    : c.expression == kUnconnected ? std::vector<std::string>{"." + c.port, kUnconnected}
                                                   : std::vector<std::string>{"." + c.port, "(" + c.expression + ")"});
    comments.push_back(c.comment);
  }
  out += items(cells, comments, inner) + indent + ");\n";
  return out;
}

}  // namespace rlroute::sv
