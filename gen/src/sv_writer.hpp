// Small writers of SystemVerilog text for the emitter, so that generated
// files read like hand-written ones: port lists, parameter lists, localparams
// and instances with their columns aligned and their comments in one column.
#pragma once

#include <string>
#include <vector>

namespace rlroute::sv {

// A parameter or localparam and, optionally, where its value comes from
// (e.g. the config key "routing.seed").
struct Param {
  std::string name;
  std::string value;
  std::string comment;
};

// A port of a module: direction ("input"/"output"), packed range without
// brackets ("" for 1 bit, "NUM_NODES*LINK_BITS-1:0"), name, comment.
struct Port {
  std::string direction;
  std::string range;
  std::string name;
  std::string comment;
};

// A connection of an instance: .port (expression); an empty expression
// connects by name (.clk_i), kUnconnected leaves an output open (.x_o ()).
struct Connection {
  std::string port;
  std::string expression;
  std::string comment;
};
inline const std::string kUnconnected = "()";

// Rows of cells joined with one space, every column padded to its widest
// cell; the last cell of a row is not padded. Each row starts with `indent`
// and ends with a newline; trailing spaces are trimmed.
std::string align(const std::vector<std::vector<std::string>>& rows, const std::string& indent);

// "module NAME #(\n  localparams\n) (\n  ports\n);\n" with both lists aligned;
// the localparams (derived from the design's package) may size the ports.
std::string module_header(const std::string& name, const std::vector<Param>& localparams,
                          const std::vector<Port>& ports);

// "localparam int unsigned NAME = VALUE;  // comment" lines, aligned.
std::string localparams(const std::vector<Param>& params, const std::string& indent);

// An instance: "MODULE #(\n .P (..), ...\n) NAME (\n .port (..), ...\n);",
// parameters and connections aligned, comments after the commas.
std::string instance(const std::string& module, const std::string& name, const std::vector<Param>& params,
                     const std::vector<Connection>& connections, const std::string& indent);

}  // namespace rlroute::sv
