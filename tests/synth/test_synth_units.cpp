// Unit tests of `rlroute synth`'s parts that need no tool: option checks,
// the Liberty reader, the Yosys and OpenSTA output parsers, the hierarchy
// sums and the top-level block partition.
#include <gtest/gtest.h>

#include "rlroute/synth/block.hpp"
#include "rlroute/synth/hierarchy.hpp"
#include "rlroute/synth/liberty.hpp"
#include "rlroute/synth/metrics.hpp"
#include "rlroute/synth/options.hpp"
#include "rlroute/synth/report.hpp"
#include "rlroute/synth/sta.hpp"
#include "rlroute/synth/templates.hpp"
#include "rlroute/synth/yosys.hpp"

using namespace rlroute::synth;

namespace {

// A Yosys `json -o F x:* * %C %u` netlist in miniature: top -> core (x1) and
// route (x2); core -> port (x2, two specializations of rr_port), alloc (x1),
// xbar (x1); each rr_port -> fifo (x2).
const char* kHierarchyJson = R"({
  "modules": {
    "top": {"attributes": {"top": "00000000000000000000000000000001"}, "parameter_default_values": {},
            "cells": {"i_core": {"type": "$paramod$aa\\rr_core"},
                      "gen_rc[0].i_route": {"type": "rr_route"}, "gen_rc[1].i_route": {"type": "rr_route"}}},
    "$paramod$aa\\rr_core": {"attributes": {"hdlname": "\\rr_core"}, "parameter_default_values": {"P": "00000000000000000000000000000010"},
            "cells": {"gen_in[0].i_port": {"type": "$paramod$bb\\rr_port"},
                      "gen_in[1].i_port": {"type": "$paramod$cc\\rr_port"},
                      "i_alloc": {"type": "rr_alloc"}, "i_xbar": {"type": "rr_xbar"}}},
    "$paramod$bb\\rr_port": {"attributes": {"hdlname": "\\rr_port"},
            "parameter_default_values": {"B": "00000000000000000000000000001000", "HOP": "0"},
            "cells": {"gen_vc[0].i_fifo": {"type": "$paramod\\rr_fifo\\DEPTH=8"}, "gen_vc[1].i_fifo": {"type": "$paramod\\rr_fifo\\DEPTH=8"}}},
    "$paramod$cc\\rr_port": {"attributes": {"hdlname": "\\rr_port"},
            "parameter_default_values": {"B": "00000000000000000000000000001000", "HOP": "1"},
            "cells": {"gen_vc[0].i_fifo": {"type": "$paramod\\rr_fifo\\DEPTH=8"}, "gen_vc[1].i_fifo": {"type": "$paramod\\rr_fifo\\DEPTH=8"}}},
    "$paramod\\rr_fifo\\DEPTH=8": {"attributes": {"hdlname": "\\rr_fifo"}, "parameter_default_values": {"DEPTH": "00000000000000000000000000001000"}, "cells": {}},
    "rr_alloc": {"attributes": {}, "cells": {}},
    "rr_xbar": {"attributes": {}, "cells": {}},
    "rr_route": {"attributes": {}, "cells": {}}
  }
})";

Hierarchy sample_hierarchy() {
  Hierarchy h = parse_hierarchy(nlohmann::json::parse(kHierarchyJson), "top");
  name_modules(h);
  return h;
}

}  // namespace

TEST(SynthOptions, ClockPeriodMustBeAPositiveNumberInRange) {
  EXPECT_DOUBLE_EQ(parse_clock_ns("2"), 2.0);
  EXPECT_DOUBLE_EQ(parse_clock_ns("0.75"), 0.75);
  EXPECT_DOUBLE_EQ(parse_clock_ns("0.01"), 0.01);
  EXPECT_DOUBLE_EQ(parse_clock_ns("1000"), 1000.0);
  for (const char* bad : {"0", "-1", "abc", "", "nan", "inf", "1e999", "2ns", "0x", "0.009", "1000.5"}) {
    try {
      parse_clock_ns(bad);
      ADD_FAILURE() << "accepted --clock-ns " << bad;
    } catch (const SynthError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("--clock-ns ") + bad + ":"), std::string::npos) << e.what();
    }
  }
}

TEST(SynthOptions, PathsAreASubsetOfTheThree) {
  const PathSelection all = parse_paths("generic,liberty,fpga");
  EXPECT_TRUE(all.generic && all.liberty && all.fpga);
  const PathSelection one = parse_paths("fpga");
  EXPECT_TRUE(one.fpga && !one.generic && !one.liberty);
  EXPECT_THROW(parse_paths("asic"), SynthError);
  EXPECT_THROW(parse_paths(""), SynthError);
}

TEST(SynthTemplates, FillsEveryPlaceholderOrFails) {
  EXPECT_EQ(fill_template("read {{A}}; synth -top {{B}}", {{"A", "x.sv"}, {"B", "top"}}, "t"),
            "read x.sv; synth -top top");
  EXPECT_THROW(fill_template("{{A}} {{MISSING}}", {{"A", "1"}}, "t"), SynthError);
  // The shipped templates fill with the keys the flow passes.
  const std::map<std::string, std::string> common = {
      {"CONFIG", "c"}, {"SOURCES", "a.sv"}, {"ROUTER", "r"}, {"TOP", "t"}, {"READ", "read_verilog -sv a.sv"}};
  auto with = [&](std::map<std::string, std::string> extra) {
    extra.insert(common.begin(), common.end());
    return extra;
  };
  EXPECT_NO_THROW(render_template("fpga.ys", with({{"FAMILY", "xcup"}, {"FAMILY_NAME", "n"}})));
  EXPECT_NO_THROW(render_template("generic.ys", common));
  EXPECT_NO_THROW(render_template("elaborate.ys", common));
  EXPECT_NO_THROW(
      render_template("liberty.ys", with({{"LIBERTY", "l.lib"}, {"CLOCK_PS", "2000"}, {"ABC", "abc"}, {"HILOMAP", ""}})));
  const std::string abc = render_template("liberty.abc", {{"CONFIG", "c"}, {"CLOCK_PS", "1500"}});
  EXPECT_NE(abc.find("&fraig -x -C 1000\n"), std::string::npos) << abc;  // SAT sweeping bounded
  EXPECT_NE(abc.find("&nf -D 1500\n"), std::string::npos) << abc;
  EXPECT_NE(abc.find("upsize -D 1500\n"), std::string::npos) << abc;
}

TEST(SynthLiberty, ShippedLibraryHasTheCellsTheFlowNeeds) {
  const LibertyLibrary lib = read_liberty(synth_dir() / "rlroute45.lib", "--liberty");
  EXPECT_EQ(lib.name, "rlroute45");
  for (const char* cell :
       {"INV_X1",  "BUF_X1",   "NAND2_X1", "NAND3_X1", "NAND4_X1", "NOR2_X1",  "NOR3_X1",   "NOR4_X1",  "AND2_X1",
        "AND3_X1", "AND4_X1",  "OR2_X1",   "OR3_X1",   "OR4_X1",   "AOI21_X1", "AOI22_X1",  "OAI21_X1", "OAI22_X1",
        "XOR2_X1", "XNOR2_X1", "MUX2_X1",  "DFF_X1",   "DFFR_X1",  "DFFS_X1",  "LOGIC0_X1", "LOGIC1_X1"}) {
    ASSERT_TRUE(lib.cells.count(cell)) << cell;
    EXPECT_TRUE(lib.cells.at(cell).has_area) << cell;
  }
  EXPECT_DOUBLE_EQ(lib.cells.at("INV_X1").area, 0.532);  // NanGate FreePDK45 values
  EXPECT_DOUBLE_EQ(lib.cells.at("NAND2_X1").area, 0.798);
  EXPECT_DOUBLE_EQ(lib.cells.at("DFF_X1").area, 4.522);
  EXPECT_TRUE(lib.cells.at("DFFR_X1").sequential);
  EXPECT_FALSE(lib.cells.at("MUX2_X1").sequential);
  EXPECT_EQ(lib.cells.at("AOI21_X1").outputs.at("ZN"), "!(A|(B1&B2))");
  EXPECT_EQ(lib.tie_high(), std::make_pair(std::string("LOGIC1_X1"), std::string("Z")));
  EXPECT_EQ(lib.tie_low(), std::make_pair(std::string("LOGIC0_X1"), std::string("Z")));
  EXPECT_EQ(lib.buffer(), "BUF_X1");
}

TEST(SynthLiberty, RejectsWhatYosysCouldNotUse) {
  auto message = [](const std::string& text) {
    try {
      parse_liberty(text, "x.lib", "--liberty");
    } catch (const SynthError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("cell (A) {").find("--liberty x.lib:1: "), std::string::npos);
  EXPECT_NE(message("library (l) {\n  cell (A) { area : 1 ;\n").find("--liberty x.lib:3: "), std::string::npos);
  EXPECT_NE(message("techlib (l) { }").find("not \"library\""), std::string::npos);
  EXPECT_NE(message("library (l) { }").find("no cells"), std::string::npos);
  EXPECT_NE(message("library (l) { cell (I) { area : 1; pin (A) { direction : input; } "
                    "pin (Y) { direction : output; function : \"!A\"; } } }")
                .find("no flip-flop"),
            std::string::npos);
  EXPECT_NE(message("library (l) { cell (F) { area : 4; ff (IQ, IQN) { clocked_on : \"C\"; next_state : \"D\"; } } }")
                .find("no combinational cell"),
            std::string::npos);
  // An inverter and a flip-flop, but no buffer: ABC's &nf would fail on it.
  EXPECT_NE(message("library (l) { cell (I) { area : 1; pin (A) { direction : input; } "
                    "pin (Y) { direction : output; function : \"!A\"; } }\n"
                    " cell (F) { area : 4; ff (IQ, IQN) { clocked_on : \"C\"; next_state : \"D\"; }\n"
                    "   pin (Q) { direction : output; function : IQ; } } }")
                .find("no buffer"),
            std::string::npos);
  // Comments, quoted names, line continuations and unquoted expressions parse.
  const LibertyLibrary ok = parse_liberty(
      "/* c */ library (\"l\") { // line comment\n"
      " cell (\"B\") { area : 2.5 ; pin (A) { direction : input; }\n"
      "   pin (Y) { direction : output; function : A ; timing () { values (\"1, 2\", \\\n \"3, 4\"); } } }\n"
      " cell (F) { area : 4; ff (IQ, IQN) { clocked_on : \"C\"; next_state : \"D\"; }\n"
      "   pin (Q) { direction : output; function : IQ; } }\n}\n",
      "x.lib", "--liberty");
  EXPECT_DOUBLE_EQ(ok.cells.at("B").area, 2.5);
  EXPECT_EQ(ok.buffer(), "B");
  EXPECT_TRUE(ok.tie_high().first.empty());
}

TEST(SynthHierarchy, CountsInstancesAndNamesSpecializations) {
  const Hierarchy h = sample_hierarchy();
  EXPECT_EQ(h.order().front(), "top");
  const auto counts = h.instance_counts();
  EXPECT_EQ(counts.at("$paramod\\rr_fifo\\DEPTH=8"), 4);
  EXPECT_EQ(counts.at("rr_route"), 2);
  EXPECT_EQ(h.name_of("$paramod$bb\\rr_port"), "rr_port(HOP=0)");
  EXPECT_EQ(h.name_of("$paramod$cc\\rr_port"), "rr_port(HOP=1)");
  EXPECT_EQ(h.name_of("$paramod\\rr_fifo\\DEPTH=8"), "rr_fifo");
  EXPECT_EQ(h.at("$paramod\\rr_fifo\\DEPTH=8").parameters.at("DEPTH"), "8");
  EXPECT_EQ(h.core(), "$paramod$aa\\rr_core");  // it instantiates three kinds of modules
  EXPECT_TRUE(h.contains_core("top"));
  EXPECT_FALSE(h.contains_core("rr_route"));

  const auto paths = h.instance_paths();
  EXPECT_EQ(paths.at("i_core.gen_in[1].i_port.gen_vc[0].i_fifo"), "$paramod\\rr_fifo\\DEPTH=8");
  EXPECT_EQ(h.owner_of("i_core.gen_in[1].i_port.gen_vc[0].i_fifo._12_", paths), "$paramod\\rr_fifo\\DEPTH=8");
  EXPECT_EQ(h.owner_of("i_core._7_", paths), "$paramod$aa\\rr_core");
  EXPECT_EQ(h.owner_of("_3_", paths), "top");
  EXPECT_EQ(h.block_of("i_core.gen_in[1].i_port.gen_vc[0].i_fifo._12_", paths), "rr_port");
  EXPECT_EQ(h.block_of("i_core._7_", paths), "rr_core (own logic)");
  EXPECT_EQ(h.block_of("gen_rc[1].i_route._1_", paths), "rr_route");
}

TEST(SynthBlock, ParsesNameAndSpecialization) {
  const BlockRequest plain = parse_block("rr_vc_alloc");
  EXPECT_EQ(plain.module, "rr_vc_alloc");
  EXPECT_FALSE(plain.variant.has_value());
  const BlockRequest picked = parse_block("rr_output_port:12");
  EXPECT_EQ(picked.module, "rr_output_port");
  EXPECT_EQ(picked.variant, 12);
  for (const char* bad : {"", ":1", "1rr", "rr vc", "rr.x", "rr_x:", "rr_x:-1", "rr_x:a", "rr_x:1:2", "rr_x:1234567"}) {
    EXPECT_THROW(parse_block(bad), SynthError) << bad;
  }
}

TEST(SynthBlock, ChoosesASpecializationInHierarchyOrder) {
  const Hierarchy h = sample_hierarchy();
  const BlockChoice fifo = choose_block(h, parse_block("rr_fifo"));
  EXPECT_EQ(fifo.id, "$paramod\\rr_fifo\\DEPTH=8");
  EXPECT_EQ(fifo.instances, 4);
  EXPECT_EQ(fifo.variants, 1);
  const BlockChoice second = choose_block(h, parse_block("rr_port:1"));
  EXPECT_EQ(second.id, "$paramod$cc\\rr_port");
  EXPECT_EQ(second.name, "rr_port(HOP=1)");
  EXPECT_EQ(second.variant, 1);
  EXPECT_EQ(second.variants, 2);
  EXPECT_EQ(second.instances, 1);
  // A module that is not parameterized keeps its name: no rename.
  const BlockChoice route = choose_block(h, parse_block("rr_route"));
  EXPECT_EQ(route.instances, 2);
  EXPECT_EQ(block_yosys_lines(route).find("rename"), std::string::npos);
  EXPECT_NE(block_yosys_lines(second).find("hierarchy -top $paramod$cc\\rr_port\nrename -top rr_port\n"),
            std::string::npos);
}

TEST(SynthBlock, NamesTheChoicesWhenTheRequestDoesNotPickOne) {
  const Hierarchy h = sample_hierarchy();
  auto message = [&](const char* text) {
    try {
      choose_block(h, parse_block(text));
    } catch (const BadBlock& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("rr_port"),
            "--block rr_port: the router has 2 specializations of rr_port, pick one with NAME:K "
            "(rr_port:0 = rr_port(HOP=0) x 1; rr_port:1 = rr_port(HOP=1) x 1)");
  EXPECT_EQ(message("rr_port:2"),
            "--block rr_port:2: the router has 2 specializations of rr_port, pick one with NAME:K "
            "(rr_port:0 = rr_port(HOP=0) x 1; rr_port:1 = rr_port(HOP=1) x 1)");
  EXPECT_EQ(message("rr_nope"),
            "--block rr_nope: the router has no module rr_nope (its modules: rr_route, rr_core, rr_port, rr_fifo, "
            "rr_alloc, rr_xbar)");  // hierarchy order: the instances by name
}

TEST(SynthHierarchy, CoreIsTheModuleWithTheMostKindsEvenIfTheTopHasThree) {
  // The UGAL-LE router top: route units, contention counters and the core
  // (three kinds); the core holds four kinds (ports, allocator, crossbar,
  // output stage).
  nlohmann::json j = nlohmann::json::parse(kHierarchyJson);
  j["modules"]["top"]["cells"]["i_contention"] = {{"type", "rr_contention"}};
  j["modules"]["rr_contention"] = {{"attributes", nlohmann::json::object()}, {"cells", nlohmann::json::object()}};
  j["modules"]["$paramod$aa\\rr_core"]["cells"]["i_out"] = {{"type", "rr_out"}};
  j["modules"]["rr_out"] = {{"attributes", nlohmann::json::object()}, {"cells", nlohmann::json::object()}};
  Hierarchy h = parse_hierarchy(j, "top");
  name_modules(h);
  EXPECT_EQ(h.core(), "$paramod$aa\\rr_core");
  const auto blocks = top_blocks(h);
  std::set<std::string> names;
  for (const auto& b : blocks) names.insert(b.name);
  EXPECT_TRUE(names.count("rr_contention")) << "the contention counters are a block of their own";
  EXPECT_TRUE(names.count("rr_alloc")) << "the core's children are blocks";
  EXPECT_FALSE(names.count("rr_core")) << "the core is split into its parts";
}

// A network's constant weights are a parameter of thousands of bits: a
// specialization is named by its short parameters, and by a long one only
// when nothing else tells them apart, as its width and a hash.
TEST(SynthHierarchy, LongParameterValuesDoNotSpellOutTheirBits) {
  nlohmann::json j = nlohmann::json::parse(kHierarchyJson);
  const std::string w1(1088, '1'), w2 = std::string(1087, '1') + "0";
  j["modules"]["$paramod$bb\\rr_port"]["parameter_default_values"]["WEIGHTS"] = w1;
  j["modules"]["$paramod$cc\\rr_port"]["parameter_default_values"]["WEIGHTS"] = w2;
  Hierarchy h = parse_hierarchy(j, "top");
  name_modules(h);
  EXPECT_EQ(h.modules.at("$paramod$bb\\rr_port").name, "rr_port(HOP=0)");
  EXPECT_EQ(h.modules.at("$paramod$cc\\rr_port").name, "rr_port(HOP=1)");
  j["modules"]["$paramod$cc\\rr_port"]["parameter_default_values"]["HOP"] = "0";
  h = parse_hierarchy(j, "top");
  name_modules(h);
  const std::string a = h.modules.at("$paramod$bb\\rr_port").name, b = h.modules.at("$paramod$cc\\rr_port").name;
  EXPECT_EQ(a.rfind("rr_port(WEIGHTS=<1088 bits #", 0), 0u) << a;
  EXPECT_EQ(b.rfind("rr_port(WEIGHTS=<1088 bits #", 0), 0u) << b;
  EXPECT_NE(a, b);
  EXPECT_LT(a.size(), 40u);
}

TEST(SynthHierarchy, TopLevelBlocksPartitionTheRouter) {
  const Hierarchy h = sample_hierarchy();
  std::map<std::string, Metrics> own;
  for (const auto& id : h.order()) own[id] = {{"cells", 1}};
  own["$paramod\\rr_fifo\\DEPTH=8"] = {{"cells", 10}};
  const auto total = total_metrics(h, own);
  EXPECT_DOUBLE_EQ(total.at("$paramod$bb\\rr_port").at("cells"), 21);
  // top 1 + route 2x1 + core 1 + ports 2 x 21 + alloc 1 + xbar 1
  EXPECT_DOUBLE_EQ(total.at("top").at("cells"), 48);

  const auto blocks = top_blocks(h);
  double sum = 0;
  std::map<std::string, double> by_name;
  for (const auto& b : blocks) {
    for (const auto& part : b.parts) {
      const double v = (part.subtree ? total : own).at(part.module).at("cells") * static_cast<double>(part.instances);
      sum += v;
      by_name[b.name] += v;
    }
  }
  EXPECT_DOUBLE_EQ(sum, 48);
  EXPECT_DOUBLE_EQ(by_name.at("rr_port"), 42);  // both specializations, one block
  EXPECT_DOUBLE_EQ(by_name.at("rr_core (own logic)"), 1);
  EXPECT_DOUBLE_EQ(by_name.at("rr_route"), 2);
  for (const auto& b : blocks) {
    if (b.name == "rr_route") {
      ASSERT_EQ(b.parts.size(), 1u);
      EXPECT_EQ(b.parts[0].instances, 2);
      EXPECT_TRUE(b.parts[0].subtree);
    }
  }
}

TEST(SynthYosys, StatJsonSurvivesTheHierarchyTextYosysPrintsIntoIt) {
  const std::string text = R"({
   "creator": "Yosys 0.23",
   "modules": {
      "\\top": {
         "num_cells":         2,
         "num_cells_by_type": {
            "$_AND_": 1,
            "sub": 1
         },
         "estimated_num_transistors": "6+"
      },
      "sub": {
         "num_cells":         3,
         "num_cells_by_type": {
            "$_DFF_P_": 1,
            "$_MUX_": 2
         },
         "estimated_num_transistors": "40",
         "estimated_num_lc": 7
      }
   },
   top          1
     sub        1
      "design": {
         "num_cells":         4
      }
}
)";
  const auto stat = parse_stat_json(text, "stat.json");
  ASSERT_EQ(stat.size(), 2u);
  EXPECT_EQ(stat.at("top").cells_by_type.at("sub"), 1);
  EXPECT_EQ(stat.at("top").transistors, 6);
  EXPECT_FALSE(stat.at("top").transistors_exact);
  EXPECT_EQ(stat.at("sub").transistors, 40);
  EXPECT_TRUE(stat.at("sub").transistors_exact);
  EXPECT_DOUBLE_EQ(stat.at("sub").lc, 7);
  EXPECT_THROW(parse_stat_json("not json", "x"), SynthError);
}

TEST(SynthYosys, LogicDepthMemoriesAndMemoryMapping) {
  const auto depth = parse_ltp(
      "Longest topological path in top (length=37):\n"
      "Longest topological path in $paramod$ab\\rr_fifo (length=7):\n");
  EXPECT_EQ(depth.at("top"), 37);
  EXPECT_EQ(depth.at("$paramod$ab\\rr_fifo"), 7);

  const auto mems = parse_memories(nlohmann::json::parse(R"({"modules": {"$paramod$ab\\rr_fifo": {"cells": {
      "$auto$mem$1": {"type": "$mem_v2", "parameters": {"MEMID": "\\mem_q", "SIZE": "00000000000000000000000000001000",
        "WIDTH": "00000000000000000000000001000010", "RD_PORTS": "00000000000000000000000000000001",
        "WR_PORTS": "00000000000000000000000000000001", "RD_CLK_ENABLE": "0"},
        "attributes": {"src": "rtl/rr_fifo.sv:24.21-24.26"}}}}}})"));
  ASSERT_EQ(mems.size(), 1u);
  EXPECT_EQ(mems[0].name, "mem_q");
  EXPECT_EQ(mems[0].depth, 8);
  EXPECT_EQ(mems[0].width, 66);
  EXPECT_EQ(mems[0].async_read_ports, 1);
  EXPECT_EQ(mems[0].source, "rtl/rr_fifo.sv:24.21-24.26");

  const auto mapping = parse_memory_mapping(
      "14.28. Executing MEMORY_LIBMAP pass (mapping memories to cells).\n"
      "mapping memory $paramod$ab\\rr_fifo.mem_q via $__XILINX_LUTRAM_SDP_\n"
      "mapping memory $paramod$cd\\rr_fifo.gen_reg_read.mem_q via $__XILINX_BLOCKRAM_SDP_\n");
  EXPECT_EQ(mapping.at({"$paramod$ab\\rr_fifo", "mem_q"}), "$__XILINX_LUTRAM_SDP_");
  EXPECT_EQ(mapping.at({"$paramod$cd\\rr_fifo", "gen_reg_read.mem_q"}), "$__XILINX_BLOCKRAM_SDP_");
}

TEST(SynthMetrics, ClassifiesCellsPerPath) {
  Hierarchy h = sample_hierarchy();
  ModuleStat stat;
  stat.cells_by_type = {{"$_DFFE_PN0P_", 2}, {"$_MUX_", 3}, {"$paramod\\rr_fifo\\DEPTH=8", 2}};
  ModuleStat cmos;
  cmos.cells_by_type = {{"$_DFF_P_", 2}, {"$_MUX_", 7}};
  cmos.transistors = 116;
  const Metrics g = generic_metrics(stat, &cmos, h);
  EXPECT_DOUBLE_EQ(g.at("cells"), 5);  // the submodule instances are not cells
  EXPECT_DOUBLE_EQ(g.at("flops"), 2);
  EXPECT_DOUBLE_EQ(g.at("transistors"), 116);
  EXPECT_DOUBLE_EQ(g.at("transistors_incomplete"), 0);

  ModuleStat x;
  x.cells_by_type = {{"LUT6", 4},     {"LUT2", 1},    {"FDCE", 3}, {"RAM32M16", 2},
                     {"RAMB18E2", 1}, {"DSP48E2", 1}, {"INV", 3}};
  const Metrics f = fpga_metrics(x, h);
  EXPECT_DOUBLE_EQ(f.at("lut"), 5);
  EXPECT_DOUBLE_EQ(f.at("ff"), 3);
  EXPECT_DOUBLE_EQ(f.at("lutram"), 16);  // a RAM32M16 takes 8 LUTs
  EXPECT_DOUBLE_EQ(f.at("bram"), 0.5);
  EXPECT_DOUBLE_EQ(f.at("dsp"), 1);
  EXPECT_DOUBLE_EQ(f.at("inv"), 3);

  LibertyLibrary lib = parse_liberty(
      "library (l) { cell (N) { area : 1.5; pin (A) { direction : input; } pin (Y) { direction : output; function : "
      "\"!A\"; } } cell (B) { area : 2; pin (A) { direction : input; } pin (Y) { direction : output; function : "
      "\"A\"; } } cell (F) { area : 4; ff (IQ, IQN) { clocked_on : \"C\"; next_state : \"D\"; } } }",
      "l.lib", "--liberty");
  ModuleStat mapped;
  mapped.cells_by_type = {{"N", 2}, {"F", 1}};
  const Metrics l = liberty_metrics(mapped, lib, h, "top");
  EXPECT_DOUBLE_EQ(l.at("area_um2"), 7.0);
  EXPECT_DOUBLE_EQ(l.at("flops"), 1);
  mapped.cells_by_type["$_DLATCH_P_"] = 1;  // left unmapped by Yosys
  EXPECT_THROW(liberty_metrics(mapped, lib, h, "top"), SynthError);
}

TEST(SynthSta, ReadsThePathSlackAndFmax) {
  const std::string log = R"(OpenSTA 2.0.17 GITDIR-NOT Copyright (c) 2019, Parallax Software, Inc.
rlroute: critical path
Startpoint: i_core.gen_in[0].i_port.gen_vc[1].i_fifo._27_
            (rising edge-triggered flip-flop clocked by clk)
Endpoint: i_core.i_alloc._51_
          (rising edge-triggered flip-flop clocked by clk)
Path Group: clk
Path Type: max

      Cap      Slew     Delay      Time   Description
-------------------------------------------------------------------------------
             0.0000    0.0000    0.0000   clock clk (rise edge)
                       0.0000    0.0000   clock network delay (ideal)
             0.0000    0.0000    0.0000 ^ i_core.gen_in[0].i_port.gen_vc[1].i_fifo._27_/CK (DFFR_X1)
   6.1000    0.0589    0.1125    0.1125 ^ i_core.gen_in[0].i_port.gen_vc[1].i_fifo._27_/Q (DFFR_X1)
             0.0589    0.0000    0.1125 ^ i_core._18_/A2 (OR2_X1)
   6.9500    0.0724    2.0000    2.1125 ^ i_core._18_/ZN (OR2_X1)
             0.0724    0.0000    2.1125 ^ i_core.i_alloc._51_/D (DFFS_X1)
                                 2.1125   data arrival time

             0.0000    2.0000    2.0000   clock clk (rise edge)
                       0.0000    2.0000   clock network delay (ideal)
                                 2.0000 ^ i_core.i_alloc._51_/CK (DFFS_X1)
                      -0.0350    1.9650   library setup time
                                 1.9650   data required time
-------------------------------------------------------------------------------
                                -0.1475   slack (VIOLATED)

rlroute: worst endpoints
max_delay/setup group clk

                                      Required    Actual
Endpoint                                 Delay     Delay     Slack
------------------------------------------------------------------
i_core.i_alloc._51_/D (DFFS_X1)    1.9650    2.1125   -0.1475 (VIOLATED)
gen_rc[0].i_route._3_/D (DFF_X1)    1.9650    1.0000    0.9650 (MET)

rlroute: summary
worst slack -0.1475
tns -0.1475
rlroute: slack by instance
rlroute-slack - 1.5000
rlroute-slack i_core -0.1475
rlroute-slack i_core.gen_in[0].i_port.gen_vc[1].i_fifo -0.1475
rlroute-slack i_core.gen_in[1].i_port 0.2000
rlroute-slack i_core.i_alloc -0.1475
rlroute-slack gen_rc[0].i_route 0.9650
rlroute-slack gen_rc[1].i_route 0.5000
rlroute: end
)";
  StaResult s = parse_sta_log(log, 2.0);
  EXPECT_EQ(s.startpoint, "i_core.gen_in[0].i_port.gen_vc[1].i_fifo._27_");
  EXPECT_EQ(s.endpoint, "i_core.i_alloc._51_");
  ASSERT_EQ(s.path.size(), 5u);  // the capture side is not part of the path
  EXPECT_EQ(s.path[3].pin, "i_core._18_/ZN");
  EXPECT_EQ(s.path[3].cell, "OR2_X1");
  EXPECT_EQ(s.path[3].edge, '^');
  EXPECT_DOUBLE_EQ(s.path[3].delay, 2.0);
  EXPECT_DOUBLE_EQ(s.arrival_ns, 2.1125);
  EXPECT_DOUBLE_EQ(s.worst_slack_ns, -0.1475);
  EXPECT_DOUBLE_EQ(s.critical_ns, 2.1475);
  EXPECT_NEAR(s.fmax_mhz, 1000.0 / 2.1475, 1e-9);
  ASSERT_EQ(s.worst_endpoints.size(), 2u);
  EXPECT_DOUBLE_EQ(s.worst_endpoints[1].slack, 0.965);

  attribute_path(s, sample_hierarchy());
  EXPECT_EQ(s.start_block, "rr_port");
  EXPECT_EQ(s.end_block, "rr_alloc");
  ASSERT_FALSE(s.delay_by_block.empty());
  EXPECT_EQ(s.delay_by_block.front().first, "rr_core (own logic)");  // the 2 ns OR2
  EXPECT_EQ(s.path[0].module, "rr_fifo");
  EXPECT_EQ(s.worst_endpoints[1].block, "rr_route");

  // The worst path through each module and block: a prefix counts for every
  // instance on its chain; a module takes the worst of its instances.
  ASSERT_EQ(s.slack_by_prefix.size(), 7u);
  const Hierarchy h = sample_hierarchy();
  auto module_id = [&](const std::string& name) {
    for (const auto& [id, m] : h.modules)
      if (m.name == name) return id;
    return std::string("?");
  };
  EXPECT_DOUBLE_EQ(s.worst_slack_by_module.at("top"), -0.1475);
  EXPECT_DOUBLE_EQ(s.worst_slack_by_module.at(module_id("rr_route")), 0.5);  // the worse of its two instances
  EXPECT_DOUBLE_EQ(s.worst_slack_by_module.at(module_id("rr_fifo")), -0.1475);
  EXPECT_EQ(s.worst_slack_by_module.count(module_id("rr_xbar")), 0u);  // no path through it was reported
  EXPECT_DOUBLE_EQ(s.worst_slack_by_block.at("rr_port"), -0.1475);  // through its fifo
  EXPECT_DOUBLE_EQ(s.worst_slack_by_block.at("rr_route"), 0.5);
  EXPECT_DOUBLE_EQ(s.worst_slack_by_block.at("top (own logic)"), 1.5);
  EXPECT_NEAR(fmax_mhz_for_slack(2.0, 0.5), 1000.0 / 1.5, 1e-9);

  // Slacks that are not the max (setup) ones miss the worst path: refused.
  std::string wrong = log;
  for (auto at = wrong.find("-0.1475", wrong.find("slack by instance")); at != std::string::npos;
       at = wrong.find("-0.1475", at)) {
    wrong.replace(at, 7, "0.0100");
  }
  EXPECT_THROW(parse_sta_log(wrong, 2.0), SynthError);
  EXPECT_THROW(parse_sta_log(log + "rlroute: slack by instance\nrlroute-slack x\n", 2.0), SynthError);

  EXPECT_THROW(parse_sta_log("Error: sta.tcl, 3 cannot open 'x.v'.\n", 2.0), SynthError);
  EXPECT_THROW(parse_sta_log("rlroute: critical path\nNo paths found.\n", 2.0), SynthError);
}
