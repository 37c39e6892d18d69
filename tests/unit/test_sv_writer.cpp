// The SystemVerilog writers of the emitter (gen/src/sv_writer.cpp): columns
// aligned, comments in one column among the commented rows, commas where
// SystemVerilog wants them.
#include <gtest/gtest.h>

#include "../../gen/src/sv_writer.hpp"

using namespace rlroute;

TEST(SvWriter, AlignPadsEveryColumnButTheLast) {
  EXPECT_EQ(sv::align({{"logic", "[3:0]", "a;"}, {"logic", "[P*LW-1:0]", "flit_in;"}}, "  "),
            "  logic [3:0]      a;\n"
            "  logic [P*LW-1:0] flit_in;\n");
}

TEST(SvWriter, InstanceAlignsParametersPortsAndComments) {
  EXPECT_EQ(sv::instance("rr_link", "i_link",
                         {{"WIDTH", "LW", ""}, {"LATENCY", "10", "topology.global_link_latency"}},
                         {{"clk_i", "", ""}, {"data_i", "a[0*LW +: LW]", ""}, {"data_o", "b", "to R1"}}, "  "),
            "  rr_link #(\n"
            "    .WIDTH   (LW),\n"
            "    .LATENCY (10) // topology.global_link_latency\n"
            "  ) i_link (\n"
            "    .clk_i,\n"
            "    .data_i (a[0*LW +: LW]),\n"
            "    .data_o (b) // to R1\n"
            "  );\n");
}

TEST(SvWriter, ModuleHeaderWithLocalparamsSizingThePorts) {
  EXPECT_EQ(sv::module_header("top", {{"LW", "pkg::LINK_BITS", "link word"}, {"N", "pkg::NUM_NODES", ""}},
                              {{"input", "", "clk_i", ""}, {"output", "N*LW-1:0", "flit_o", "node n at [n*LW +: LW]"}}),
            "module top #(\n"
            "  localparam int unsigned LW = pkg::LINK_BITS, // link word\n"
            "  localparam int unsigned N  = pkg::NUM_NODES\n"
            ") (\n"
            "  input  logic            clk_i,\n"
            "  output logic [N*LW-1:0] flit_o // node n at [n*LW +: LW]\n"
            ");\n");
}

TEST(SvWriter, LocalparamsAreAligned) {
  EXPECT_EQ(sv::localparams({{"P", "5", "router ports"}, {"NUM_VCS", "2", "router.vcs"}}, "  "),
            "  localparam int unsigned P       = 5; // router ports\n"
            "  localparam int unsigned NUM_VCS = 2; // router.vcs\n");
}
