// Traffic spec syntax (parse_traffic_spec): names, parameters, defaults and
// the one-line errors for bad specs. docs/traffic.md defines the patterns.
#include <gtest/gtest.h>

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "rlroute/gen/traffic_spec.hpp"

using namespace rlroute;

namespace {

std::string parse_error(const std::string& spec) {
  try {
    parse_traffic_spec(spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

// ---------------------------------------------------------------------------
// Spec syntax

TEST(TrafficSpec, NamesListEveryPattern) {
  EXPECT_EQ(traffic_pattern_names(),
            (std::vector<std::string>{"uniform", "transpose", "bitcomp", "bitrev", "tornado", "neighbor", "hotspot",
                                      "randperm", "adv+<i>", "shift", "mixed", "stencil3d", "many2many",
                                      "randneighbors", "dpsnn"}));
}

TEST(TrafficSpec, PlainNames) {
  for (const char* name : {"uniform", "transpose", "bitcomp", "bitrev", "tornado", "neighbor", "hotspot", "randperm",
                           "shift", "stencil3d", "many2many", "randneighbors"}) {
    const TrafficSpec s = parse_traffic_spec(name);
    EXPECT_EQ(s.name, name);
    EXPECT_EQ(s.text, name);
  }
}

TEST(TrafficSpec, AdvShorthand) {
  const TrafficSpec s = parse_traffic_spec("adv+4");
  EXPECT_EQ(s.name, "adv");
  EXPECT_EQ(s.adv_offset, 4);
  EXPECT_EQ(parse_traffic_spec("adv+1").adv_offset, 1);
  EXPECT_EQ(parse_traffic_spec("adv+32").adv_offset, 32);
}

TEST(TrafficSpec, MixedDefaultsFollowThePaper) {
  const TrafficSpec plain = parse_traffic_spec("mixed");
  EXPECT_EQ(plain.mixed_share, 0.5);
  EXPECT_EQ(plain.mixed_with, "shift");
  EXPECT_EQ(plain.mixed_level, MixLevel::Router);
  const TrafficSpec perm = parse_traffic_spec("mixed:share=0.25,with=randperm");
  EXPECT_EQ(perm.mixed_share, 0.25);
  EXPECT_EQ(perm.mixed_with, "randperm");
  EXPECT_EQ(perm.mixed_level, MixLevel::Node);
  const TrafficSpec packet = parse_traffic_spec("mixed: share = 1 , level = packet");
  EXPECT_EQ(packet.mixed_share, 1.0);
  EXPECT_EQ(packet.mixed_level, MixLevel::Packet);
  EXPECT_EQ(parse_traffic_spec("mixed:with=shift,level=node").mixed_level, MixLevel::Node);
  EXPECT_EQ(parse_traffic_spec("mixed:share=0").mixed_share, 0.0);
}

TEST(TrafficSpec, GridAxisAndTargets) {
  const TrafficSpec s = parse_traffic_spec("stencil3d:grid=4x3x6");
  EXPECT_EQ(s.grid.kind, GridShape::Kind::Explicit);
  EXPECT_EQ(s.grid.dims, (std::array<int, 3>{4, 3, 6}));
  EXPECT_EQ(parse_traffic_spec("stencil3d").grid.kind, GridShape::Kind::Default);
  EXPECT_EQ(parse_traffic_spec("stencil3d:grid=cubic").grid.kind, GridShape::Kind::Cubic);
  const TrafficSpec m = parse_traffic_spec("many2many:axis=y,grid=2x4x9");
  EXPECT_EQ(m.axis, 1);
  EXPECT_EQ(m.grid.dims, (std::array<int, 3>{2, 4, 9}));
  EXPECT_EQ(parse_traffic_spec("many2many").axis, 2);
  const TrafficSpec r = parse_traffic_spec("randneighbors:min=3,max=5");
  EXPECT_EQ(r.min_targets, 3);
  EXPECT_EQ(r.max_targets, 5);
  EXPECT_FALSE(parse_traffic_spec("randneighbors").min_targets.has_value());
}

TEST(TrafficSpec, DpsnnDefaultsAreTheThesisSetup) {
  const TrafficSpec d = parse_traffic_spec("dpsnn");
  EXPECT_TRUE(is_application_traffic(d));
  EXPECT_FALSE(is_application_traffic(parse_traffic_spec("uniform")));
  EXPECT_EQ(d.dpsnn.rate_hz, 21.0);
  EXPECT_EQ(d.dpsnn.neurons, 2500);
  EXPECT_EQ(d.dpsnn.spike_bytes, 12);
  EXPECT_EQ(d.dpsnn.compute_cycles, 1000);
  const TrafficSpec s = parse_traffic_spec("dpsnn:rate=556,neurons=100,spike_bytes=16,compute=0");
  EXPECT_EQ(s.dpsnn.rate_hz, 556.0);
  EXPECT_EQ(s.dpsnn.neurons, 100);
  EXPECT_EQ(s.dpsnn.spike_bytes, 16);
  EXPECT_EQ(s.dpsnn.compute_cycles, 0);
  EXPECT_EQ(parse_traffic_spec("dpsnn:rate=1000").dpsnn.rate_hz, 1000.0);
}

TEST(TrafficSpecError, UnknownName) {
  const std::string valid =
      "valid: uniform, transpose, bitcomp, bitrev, tornado, neighbor, hotspot, randperm, adv+<i>, shift, mixed, "
      "stencil3d, many2many, randneighbors, dpsnn";
  EXPECT_EQ(parse_error("shuffle"), "unknown traffic pattern \"shuffle\"; " + valid);
  EXPECT_EQ(parse_error("stencil:grid=2x2x2"), "unknown traffic pattern \"stencil\"; " + valid);
  EXPECT_EQ(parse_error(""), "unknown traffic pattern \"\"; " + valid);
}

TEST(TrafficSpecError, AdvOffset) {
  const std::string rule = ": write adv+<i> with a group offset i >= 1, e.g. adv+1";
  for (const char* bad : {"adv", "adv+", "adv+0", "adv+-1", "adv+x", "adv+1.5", "adv+ 1x"}) {
    EXPECT_EQ(parse_error(bad), "traffic pattern \"" + std::string(bad) + "\"" + rule) << bad;
  }
  EXPECT_EQ(parse_error("adv+1:i=2"), "traffic pattern \"adv+1:i=2\": adv+<i> takes no parameters");
}

TEST(TrafficSpecError, Syntax) {
  EXPECT_EQ(parse_error("uniform:x=1"), "traffic pattern \"uniform:x=1\": uniform takes no parameters");
  EXPECT_EQ(parse_error("randperm:seed=3"), "traffic pattern \"randperm:seed=3\": randperm takes no parameters");
  EXPECT_EQ(parse_error("mixed:"), "traffic pattern \"mixed:\": expected key=value parameters after ':'");
  EXPECT_EQ(parse_error("mixed:share"), "traffic pattern \"mixed:share\": expected key=value, not \"share\"");
  EXPECT_EQ(parse_error("mixed:share="), "traffic pattern \"mixed:share=\": expected key=value, not \"share=\"");
  EXPECT_EQ(parse_error("mixed:=0.5"), "traffic pattern \"mixed:=0.5\": expected key=value, not \"=0.5\"");
  EXPECT_EQ(parse_error("mixed:share=0.5,"), "traffic pattern \"mixed:share=0.5,\": expected key=value, not \"\"");
  EXPECT_EQ(parse_error("mixed:foo=1"),
            "traffic pattern \"mixed:foo=1\": unknown key \"foo\"; mixed takes: share, with, level");
  EXPECT_EQ(parse_error("stencil3d:axis=x"),
            "traffic pattern \"stencil3d:axis=x\": unknown key \"axis\"; stencil3d takes: grid");
  EXPECT_EQ(parse_error("mixed:share=0.2,share=0.3"),
            "traffic pattern \"mixed:share=0.2,share=0.3\": key \"share\" is given twice");
}

TEST(TrafficSpecError, ValueRanges) {
  EXPECT_EQ(parse_error("mixed:share=1.5"), "traffic pattern \"mixed:share=1.5\": share must be in [0, 1]");
  EXPECT_EQ(parse_error("mixed:share=-0.1"), "traffic pattern \"mixed:share=-0.1\": share must be in [0, 1]");
  EXPECT_EQ(parse_error("mixed:share=half"), "traffic pattern \"mixed:share=half\": share must be in [0, 1]");
  EXPECT_EQ(parse_error("mixed:share=nan"), "traffic pattern \"mixed:share=nan\": share must be in [0, 1]");
  EXPECT_EQ(parse_error("mixed:with=uniform"), "traffic pattern \"mixed:with=uniform\": with must be shift or randperm");
  EXPECT_EQ(parse_error("mixed:level=group"),
            "traffic pattern \"mixed:level=group\": level must be router, node or packet");
  const std::string grid_rule = "grid must be XxYxZ with integers >= 1 (e.g. grid=4x3x6) or grid=cubic";
  for (const char* bad : {"4x3", "4x3x6x1", "4x0x18", "4xx18", "4x3x", "axbxc", "-4x3x6", "4*3*6"}) {
    const std::string spec = std::string("stencil3d:grid=") + bad;
    EXPECT_EQ(parse_error(spec), "traffic pattern \"" + spec + "\": " + grid_rule) << bad;
  }
  EXPECT_EQ(parse_error("many2many:axis=w"), "traffic pattern \"many2many:axis=w\": axis must be x, y or z");
  EXPECT_EQ(parse_error("randneighbors:min=0"), "traffic pattern \"randneighbors:min=0\": min must be an integer >= 1");
  EXPECT_EQ(parse_error("randneighbors:max=2.5"),
            "traffic pattern \"randneighbors:max=2.5\": max must be an integer >= 1");
  EXPECT_EQ(parse_error("randneighbors:min=8,max=7"),
            "traffic pattern \"randneighbors:min=8,max=7\": min (8) must be <= max (7)");
  EXPECT_EQ(parse_error("randneighbors:min=21"), "traffic pattern \"randneighbors:min=21\": min (21) must be <= max (20)");
  for (const char* bad : {"0", "-5", "1000.5", "fast", "inf"}) {
    const std::string spec = std::string("dpsnn:rate=") + bad;
    EXPECT_EQ(parse_error(spec), "traffic pattern \"" + spec + "\": rate must be in (0, 1000] Hz") << bad;
  }
  EXPECT_EQ(parse_error("dpsnn:neurons=0"), "traffic pattern \"dpsnn:neurons=0\": neurons must be an integer in 1..1000000");
  EXPECT_EQ(parse_error("dpsnn:spike_bytes=1025"),
            "traffic pattern \"dpsnn:spike_bytes=1025\": spike_bytes must be an integer in 1..1024");
  EXPECT_EQ(parse_error("dpsnn:compute=-1"),
            "traffic pattern \"dpsnn:compute=-1\": compute must be an integer in 0..100000000 cycles");
  EXPECT_EQ(parse_error("dpsnn:load=0.5"),
            "traffic pattern \"dpsnn:load=0.5\": unknown key \"load\"; dpsnn takes: rate, neurons, spike_bytes, compute");
}

