// Unit tests for the TOML config parser and validator (gen/src/config.cpp).
// Error tests compare whole messages: "file:line:column: key = value: rule".
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "rlroute/gen/config.hpp"

namespace rlroute {
namespace {

// The smallest valid config; tests append sections after it.
constexpr const char* kMinimal =
    "[topology]\n"        // line 1
    "kind = \"torus\"\n"  // line 2
    "dims = [4, 4]\n";    // line 3

// dfly(2, 4, 2, 9): 72 nodes, l = 1 global link per group pair.
constexpr const char* kDragonfly =
    "[topology]\n"            // line 1
    "kind = \"dragonfly\"\n"  // line 2
    "p = 2\n"                 // line 3
    "a = 4\n"                 // line 4
    "h = 2\n"                 // line 5
    "g = 9\n";                // line 6

// A dragonfly config with the given shape and extra text after [topology].
std::string dragonfly(int p, int a, int h, int g, const std::string& more = "") {
  return "[topology]\nkind = \"dragonfly\"\np = " + std::to_string(p) + "\na = " + std::to_string(a) +
         "\nh = " + std::to_string(h) + "\ng = " + std::to_string(g) + "\n" + more;
}

// The message of the ConfigError that parsing `text` throws, or "" (and a
// test failure) if it does not throw.
std::string error_of(const std::string& text, const std::string& path = "t.toml") {
  try {
    parse_config(text, path);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << text;
  return "";
}

// ---------------------------------------------------------------------------
// Valid configs

TEST(Config, MinimalConfigUsesDefaults) {
  const Config cfg = parse_config(kMinimal, "t.toml");
  EXPECT_EQ(cfg.path, "t.toml");
  EXPECT_EQ(cfg.name, "t");
  EXPECT_EQ(cfg.kind, TopologyKind::Torus);
  EXPECT_EQ(cfg.dims, (std::vector<int>{4, 4}));
  EXPECT_EQ(cfg.link_latency, 1);
  EXPECT_EQ(cfg.credit_latency, 1);
  EXPECT_EQ(cfg.vcs, 2);
  EXPECT_EQ(cfg.buffer_flits, 8);
  EXPECT_EQ(cfg.flit_bits, 64);
  EXPECT_EQ(cfg.max_packet_flits, 4);
  EXPECT_EQ(cfg.nodes_per_router, 1);
  EXPECT_EQ(cfg.algorithm, RoutingAlgorithm::Dor);
  EXPECT_EQ(cfg.seed, 1u);
  EXPECT_EQ(cfg.sim.pattern, "uniform");
  EXPECT_DOUBLE_EQ(cfg.sim.load, 0.1);
  EXPECT_EQ(cfg.sim.packet_flits, 0);
  EXPECT_EQ(cfg.sim.packet_flits_min, 0);
  EXPECT_EQ(cfg.sim.packet_flits_max, 0);
  EXPECT_EQ(cfg.sim.cycles, 10000);
  EXPECT_EQ(cfg.sim.warmup, 2000);
  EXPECT_EQ(cfg.sim.drain, 20000);
  EXPECT_EQ(cfg.sim.seed, 1u);
  EXPECT_DOUBLE_EQ(cfg.sim.hotspot_fraction, 0.2);
  EXPECT_EQ(cfg.sim.hotspot_node, 0);
}

TEST(Config, EveryKeyRoundTrips) {
  const Config cfg = parse_config(
      "[design]\n"
      "name = \"big_mesh\"\n"
      "[topology]\n"
      "kind = \"mesh\"\n"
      "dims = [3, 5, 2]\n"
      "link_latency = 3\n"
      "credit_latency = 2\n"
      "[router]\n"
      "vcs = 4\n"
      "buffer_flits = 16\n"
      "flit_bits = 128\n"
      "max_packet_flits = 9\n"
      "nodes_per_router = 2\n"
      "[routing]\n"
      "algorithm = \"dor\"\n"
      "seed = 77\n"
      "[sim]\n"
      "pattern = \"hotspot\"\n"
      "load = 1\n"
      "packet_flits_min = 3\n"
      "packet_flits_max = 7\n"
      "cycles = 5000000000\n"
      "warmup = 0\n"
      "drain = 123\n"
      "seed = 42\n"
      "hotspot_fraction = 0.5\n"
      "hotspot_node = 59\n"
      "threads = 2\n",
      "t.toml");
  EXPECT_EQ(cfg.name, "big_mesh");
  EXPECT_EQ(cfg.kind, TopologyKind::Mesh);
  EXPECT_EQ(cfg.dims, (std::vector<int>{3, 5, 2}));
  EXPECT_EQ(cfg.link_latency, 3);
  EXPECT_EQ(cfg.credit_latency, 2);
  EXPECT_EQ(cfg.vcs, 4);
  EXPECT_EQ(cfg.buffer_flits, 16);
  EXPECT_EQ(cfg.flit_bits, 128);
  EXPECT_EQ(cfg.max_packet_flits, 9);
  EXPECT_EQ(cfg.nodes_per_router, 2);
  EXPECT_EQ(cfg.algorithm, RoutingAlgorithm::Dor);
  EXPECT_EQ(cfg.seed, 77u);
  EXPECT_EQ(cfg.sim.pattern, "hotspot");
  EXPECT_DOUBLE_EQ(cfg.sim.load, 1.0);
  EXPECT_EQ(cfg.sim.packet_flits, 0);
  EXPECT_EQ(cfg.sim.packet_flits_min, 3);
  EXPECT_EQ(cfg.sim.packet_flits_max, 7);
  EXPECT_EQ(cfg.sim.cycles, 5000000000);
  EXPECT_EQ(cfg.sim.warmup, 0);
  EXPECT_EQ(cfg.sim.drain, 123);
  EXPECT_EQ(cfg.sim.seed, 42u);
  EXPECT_DOUBLE_EQ(cfg.sim.hotspot_fraction, 0.5);
  EXPECT_EQ(cfg.sim.hotspot_node, 59);  // 3 * 5 * 2 routers * 2 nodes = 60 nodes
  EXPECT_EQ(cfg.sim.threads, 2);

  EXPECT_EQ(cfg.where("design.name"), "t.toml:2:1");
  EXPECT_EQ(cfg.where("topology.dims"), "t.toml:5:1");
  EXPECT_EQ(cfg.where("router.vcs"), "t.toml:9:1");
  EXPECT_EQ(cfg.where("sim.hotspot_node"), "t.toml:27:1");
  EXPECT_EQ(cfg.where("router"), "t.toml:8:1");
}

TEST(Config, FixedPacketSizeAndFloatLoad) {
  const Config cfg = parse_config(std::string(kMinimal) + "[sim]\npacket_flits = 2\nload = 0.25\n", "t.toml");
  EXPECT_EQ(cfg.sim.packet_flits, 2);
  EXPECT_DOUBLE_EQ(cfg.sim.load, 0.25);
}

TEST(Config, InlineTablesAndDottedKeys) {
  const Config cfg =
      parse_config("topology = { kind = \"mesh\", dims = [2, 3] }\nrouter.vcs = 5\n", "t.toml");
  EXPECT_EQ(cfg.kind, TopologyKind::Mesh);
  EXPECT_EQ(cfg.dims, (std::vector<int>{2, 3}));
  EXPECT_EQ(cfg.vcs, 5);
  EXPECT_EQ(cfg.where("topology"), "t.toml:1:1");
  EXPECT_EQ(cfg.where("topology.kind"), "t.toml:1:14");
  EXPECT_EQ(cfg.where("router.vcs"), "t.toml:2:8");
  EXPECT_EQ(error_of("topology = { kind = \"mesh\", dims = [2, 1] }\n"),
            "t.toml:1:29: topology.dims = [2, 1]: every dimension must be at least 2 "
            "(a ring or line of 1 router has no links)");
}

TEST(Config, WhereFallsBackToFileForDefaults) {
  const Config cfg = parse_config(kMinimal, "dir/t.toml");
  EXPECT_EQ(cfg.where("topology.kind"), "dir/t.toml:2:1");
  EXPECT_EQ(cfg.where("router.vcs"), "dir/t.toml");
}

TEST(Config, NameDerivedFromFileStem) {
  EXPECT_EQ(parse_config(kMinimal, "examples/torus_4x4.toml").name, "torus_4x4");
  EXPECT_EQ(parse_config(kMinimal, "examples/my-torus.v2.toml").name, "my_torus_v2");
  EXPECT_EQ(parse_config(kMinimal, "examples/4x4-torus.toml").name, "c_4x4_torus");
  EXPECT_EQ(parse_config(kMinimal, "_hidden.toml").name, "c__hidden");
  EXPECT_EQ(parse_config(kMinimal, std::string(60, 'a') + ".toml").name, std::string(41, 'a'));
  // An explicit name wins over the file name.
  EXPECT_EQ(parse_config(std::string(kMinimal) + "[design]\nname = \"net\"\n", "4x4.toml").name, "net");
}

TEST(Config, EnumSpellings) {
  EXPECT_STREQ(to_string(TopologyKind::Torus), "torus");
  EXPECT_STREQ(to_string(TopologyKind::Mesh), "mesh");
  EXPECT_STREQ(to_string(TopologyKind::Dragonfly), "dragonfly");
  EXPECT_STREQ(to_string(RoutingAlgorithm::Dor), "dor");
  EXPECT_STREQ(to_string(RoutingAlgorithm::Star), "star");
  EXPECT_STREQ(to_string(RoutingAlgorithm::Dqn), "dqn");
  EXPECT_STREQ(to_string(RoutingAlgorithm::Min), "min");
  EXPECT_STREQ(to_string(RoutingAlgorithm::Valg), "valg");
  EXPECT_STREQ(to_string(RoutingAlgorithm::Valn), "valn");
  EXPECT_STREQ(to_string(RoutingAlgorithm::UgalG), "ugal_g");
  EXPECT_STREQ(to_string(RoutingAlgorithm::UgalN), "ugal_n");
  EXPECT_STREQ(to_string(RoutingAlgorithm::UgalLe), "ugal_le");
  EXPECT_STREQ(to_string(RoutingAlgorithm::Par), "par");
  EXPECT_STREQ(to_string(RoutingAlgorithm::QAdaptive), "q_adaptive");
}

TEST(Config, ConfigFailFormatsOneLine) {
  Config cfg;
  cfg.path = "x.toml";
  cfg.locations["router.vcs"] = "x.toml:7:1";
  try {
    config_fail(cfg, "router.vcs", "3", "needs 4 VCs for this routing relation");
    FAIL() << "config_fail returned";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "x.toml:7:1: router.vcs = 3: needs 4 VCs for this routing relation");
  }
  try {
    config_fail(cfg, "router.flit_bits", "32", "header fields need 40 bits");
    FAIL() << "config_fail returned";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "x.toml: router.flit_bits = 32: header fields need 40 bits");
  }
}

// ---------------------------------------------------------------------------
// Files

TEST(Config, LoadConfigReadsFile) {
  const auto path = std::filesystem::temp_directory_path() / "rlroute-test-config-4x4.toml";
  {
    std::ofstream out(path);
    out << kMinimal << "[router]\nvcs = 3\n";
  }
  const Config cfg = load_config(path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(cfg.path, path.string());
  EXPECT_EQ(cfg.name, "rlroute_test_config_4x4");
  EXPECT_EQ(cfg.vcs, 3);
  EXPECT_EQ(cfg.where("router.vcs"), path.string() + ":5:1");
}

TEST(Config, MissingFile) {
  try {
    load_config("/nonexistent/dir/none.toml");
    FAIL() << "no ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/dir/none.toml: cannot read config file: No such file or directory");
  }
}

TEST(Config, DirectoryIsNotAFile) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  try {
    load_config(dir);
    FAIL() << "no ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), dir + ": cannot read config file: not a regular file");
  }
}

// Device nodes and FIFOs are refused before they are opened: reading /dev/zero
// would never end, opening a FIFO would block.
TEST(Config, DeviceAndFifoAreNotFiles) {
  try {
    load_config("/dev/zero");
    FAIL() << "no ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "/dev/zero: cannot read config file: not a regular file");
  }
  const std::string fifo = (std::filesystem::temp_directory_path() / "rlroute_test_config.fifo").string();
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    load_config(fifo);
    FAIL() << "no ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), fifo + ": cannot read config file: not a regular file");
  }
  std::filesystem::remove(fifo);
}

TEST(Config, HugeFileIsRefusedUnread) {
  const std::string path = (std::filesystem::temp_directory_path() / "rlroute_test_config_huge.toml").string();
  {
    std::ofstream out(path);
    const std::string head = std::string(kMinimal) + "# ";
    out << head << std::string((std::size_t{1} << 20) + 1 - head.size(), 'x');
  }
  try {
    load_config(path);
    FAIL() << "no ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(": config file is 1048577 bytes; the limit is 1048576 bytes"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
}

TEST(Config, TomlSyntaxError) {
  const std::string message = error_of("[router]\nvcs = 2\nvcs = 3\n");
  EXPECT_EQ(message.rfind("t.toml:3:", 0), 0u) << message;
  EXPECT_NE(message.find(": TOML syntax error: "), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(Config, IntegerBeyond64BitsIsASyntaxError) {
  const std::string message = error_of(std::string(kMinimal) + "[sim]\ncycles = 99999999999999999999\n");
  EXPECT_EQ(message.rfind("t.toml:5:", 0), 0u) << message;
  EXPECT_NE(message.find("TOML syntax error"), std::string::npos) << message;
}

// ---------------------------------------------------------------------------
// Structure errors

TEST(ConfigError, UnknownKey) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nvcs = 2\nbuffers = 8\n"),
            "t.toml:6:1: router.buffers = 8: unknown key; valid keys in [router] are: "
            "vcs, buffer_flits, flit_bits, min_packet_flits, max_packet_flits, nodes_per_router, speedup, "
            "output_buffer_flits, buffer_read, switch_allocation");
}

TEST(ConfigError, UnknownSubTable) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[topology.extra]\nx = 1\n"),
            "t.toml:4:1: topology.extra = { x = 1 }: unknown key; valid keys in [topology] are: "
            "kind, dims, link_latency, credit_latency, p, a, h, g, arrangement, local_link_latency, "
            "global_link_latency, local_credit_latency, global_credit_latency");
}

TEST(ConfigError, UnknownRoutingKey) {
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nbias = 3\n"),
            "t.toml:8:1: routing.bias = 3: unknown key; valid keys in [routing] are: "
            "algorithm, seed, ugal_bias, contention_window, contention_threshold, intra_group, ugal_rule, ugal_queue, "
            "decision, alpha, beta, epsilon, q_thld1, q_thld2, q_value_bits, q_fraction_bits, q_read_ports, "
            "q_decision_cycles, q_initial, q_intermediate, q_source_group, q_stamp, q_queue_weight, q_queue_in, q_vcs, dqn_hop_threshold, dqn_hidden, dqn_weight_bits, dqn_activation_bits, dqn_block, "
            "dqn_npar, dqn_ipar, dqn_weights, dqn_weights_mode, dqn_agent, dqn_fallback, dqn_dor_vcs, dqn_episodes, "
            "dqn_ack_ratio");
}

TEST(ConfigError, UnknownSection) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "\n[routers]\nvcs = 2\n"),
            "t.toml:5:1: [routers]: unknown section; valid sections are: "
            "[design], [topology], [router], [routing], [sim]");
}

TEST(ConfigError, TopLevelKey) {
  EXPECT_EQ(error_of(std::string("vcs = 2\n") + kMinimal),
            "t.toml:1:1: vcs = 2: unknown key; keys belong in one of the sections "
            "[design], [topology], [router], [routing], [sim]");
}

TEST(ConfigError, SectionThatIsNotATable) {
  EXPECT_EQ(error_of(std::string("router = 4\n") + kMinimal),
            "t.toml:1:1: router = 4: must be a table (the [router] section)");
}

TEST(ConfigError, FirstStructureErrorInFileOrderWins) {
  // "zzz" sorts after "aaa" but comes first in the file.
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nzzz = 1\naaa = 2\n")
                .rfind("t.toml:5:1: sim.zzz = 1: unknown key", 0),
            0u);
}

// ---------------------------------------------------------------------------
// Type and range errors

TEST(ConfigError, WrongTypeString) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nvcs = \"two\"\n"),
            "t.toml:5:1: router.vcs = \"two\": must be an integer in 1..16");
}

TEST(ConfigError, WrongTypeFloatForInteger) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nvcs = 2.0\n"),
            "t.toml:5:1: router.vcs = 2.0: must be an integer in 1..16");
}

TEST(ConfigError, DimsNotAnArray) {
  EXPECT_EQ(error_of("[topology]\nkind = \"torus\"\ndims = 4\n"),
            "t.toml:3:1: topology.dims = 4: must be an array of integers, e.g. [4, 4]");
}

TEST(ConfigError, DimsWithNonInteger) {
  EXPECT_EQ(error_of("[topology]\nkind = \"torus\"\ndims = [4, \"a\\\"b\"]\n"),
            "t.toml:3:1: topology.dims = [4, \"a\\\"b\"]: must be an array of integers, e.g. [4, 4]");
}

TEST(ConfigError, OutOfRange) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\n\nvcs = 0\n"),
            "t.toml:6:1: router.vcs = 0: must be an integer in 1..16");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nvcs = 17\n"),
            "t.toml:5:1: router.vcs = 17: must be an integer in 1..16");
  EXPECT_EQ(error_of("[topology]\nkind = \"mesh\"\ndims = [2]\nlink_latency = 65\n"),
            "t.toml:4:1: topology.link_latency = 65: must be an integer in 1..64");
}

TEST(ConfigError, IntegerTooLargeForIntIsOutOfRange) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nbuffer_flits = 4294967304\n"),
            "t.toml:5:1: router.buffer_flits = 4294967304: must be an integer in 1..256");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nhotspot_node = -9223372036854775808\n"),
            "t.toml:5:1: sim.hotspot_node = -9223372036854775808: must be an integer in 0..15 (the network "
            "has 16 nodes)");
}

TEST(ConfigError, SimThreadsAreOneTo256) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nthreads = 0\n"),
            "t.toml:5:1: sim.threads = 0: must be an integer in 1..256");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nthreads = 257\n"),
            "t.toml:5:1: sim.threads = 257: must be an integer in 1..256");
  EXPECT_EQ(parse_config(kMinimal, "t.toml").sim.threads, 1);
}

TEST(ConfigError, FlitBitsMultipleOfEight) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nflit_bits = 36\n"),
            "t.toml:5:1: router.flit_bits = 36: must be an integer in 32..256 and a multiple of 8");
}

TEST(ConfigError, InvalidDesignName) {
  const std::string rule =
      "must be a string matching ^[A-Za-z][A-Za-z0-9_]{0,40}$ (it becomes a SystemVerilog identifier prefix)";
  EXPECT_EQ(error_of(std::string(kMinimal) + "[design]\nname = \"9lives\"\n"),
            "t.toml:5:1: design.name = \"9lives\": " + rule);
  EXPECT_EQ(error_of(std::string(kMinimal) + "[design]\nname = \"" + std::string(42, 'a') + "\"\n"),
            "t.toml:5:1: design.name = \"" + std::string(42, 'a') + "\": " + rule);
  EXPECT_EQ(error_of(std::string(kMinimal) + "[design]\nname = 5\n"), "t.toml:5:1: design.name = 5: " + rule);
}

// rr_router, rr_pkg, ... are the library's modules: NAME_router must not be one.
TEST(ConfigError, DesignNameClashesWithTheLibrary) {
  const std::string rule = "must not be \"rr\" or start with \"rr_\": the modules of rtl/ use that prefix";
  EXPECT_EQ(error_of(std::string(kMinimal) + "[design]\nname = \"rr\"\n"), "t.toml:5:1: design.name = \"rr\": " + rule);
  EXPECT_EQ(error_of(std::string(kMinimal) + "[design]\nname = \"rr_x\"\n"),
            "t.toml:5:1: design.name = \"rr_x\": " + rule);
  EXPECT_EQ(parse_config(std::string(kMinimal) + "[design]\nname = \"rrx\"\n", "t.toml").name, "rrx");
  // A file named rr.toml gets a name that does not clash.
  EXPECT_EQ(parse_config(kMinimal, "rr.toml").name, "c_rr");
  EXPECT_EQ(parse_config(kMinimal, "rr_router.toml").name, "c_rr_router");
}

// Keys and values from the file are escaped and capped: one line, no escape
// sequence reaches the terminal, no 300 KB error line.
TEST(ConfigError, KeysAndValuesAreEscapedAndCapped) {
  const std::string newline_key = error_of(std::string(kMinimal) + "[router]\n\"a\\nb\" = 1\n");
  EXPECT_EQ(newline_key.find('\n'), std::string::npos) << newline_key;
  EXPECT_EQ(newline_key.rfind("t.toml:5:1: router.\"a\\nb\" = 1: unknown key", 0), 0u) << newline_key;
  const std::string escape_key = error_of(std::string(kMinimal) + "[router]\n\"\\u001b[31m\" = 1\n");
  EXPECT_EQ(escape_key.find('\x1b'), std::string::npos) << escape_key;
  EXPECT_NE(escape_key.find("router.\"\\u001B[31m\""), std::string::npos) << escape_key;
  const std::string long_value =
      error_of(std::string(kMinimal) + "[design]\nname = \"" + std::string(300000, 'a') + "\"\n");
  EXPECT_LT(long_value.size(), 400u);
  EXPECT_NE(long_value.find("... (300002 characters)"), std::string::npos) << long_value;
  const std::string long_section = error_of(std::string(kMinimal) + "[" + std::string(5000, 'b') + "]\n");
  EXPECT_LT(long_section.size(), 400u) << long_section;
  // A file name with a newline stays on one line.
  const std::string newline_path = error_of(std::string(kMinimal) + "[router]\nvcs = 0\n", "a\nb.toml");
  EXPECT_EQ(newline_path.rfind("a\\nb.toml:5:1: router.vcs = 0: ", 0), 0u) << newline_path;
}

// ---------------------------------------------------------------------------
// Topology

TEST(ConfigError, KindMissing) {
  EXPECT_EQ(error_of("[router]\nvcs = 2\n"),
            "t.toml:1:1: topology.kind: required key is missing; set it to one of \"torus\", \"mesh\", "
            "\"dragonfly\"");
  // With a [topology] section, the location is its header.
  EXPECT_EQ(error_of("[router]\nvcs = 2\n[topology]\ndims = [4]\n"),
            "t.toml:3:1: topology.kind: required key is missing; set it to one of \"torus\", \"mesh\", "
            "\"dragonfly\"");
}

TEST(ConfigError, KindUnknown) {
  EXPECT_EQ(error_of("[topology]\nkind = \"ring\"\ndims = [4]\n"),
            "t.toml:2:1: topology.kind = \"ring\": must be one of \"torus\", \"mesh\", \"dragonfly\"");
}

TEST(ConfigError, DragonflyKeyOnTorus) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "p = 2\n"),
            "t.toml:4:1: topology.p = 2: only valid for kind = \"dragonfly\"");
  EXPECT_EQ(error_of(std::string(kMinimal) + "arrangement = \"palmtree\"\n"),
            "t.toml:4:1: topology.arrangement = \"palmtree\": only valid for kind = \"dragonfly\"");
  for (const std::string key :
       {"local_link_latency", "global_link_latency", "local_credit_latency", "global_credit_latency"}) {
    EXPECT_EQ(error_of("[topology]\nkind = \"mesh\"\ndims = [2]\n" + key + " = 3\n"),
              "t.toml:4:1: topology." + key + " = 3: only valid for kind = \"dragonfly\"");
  }
}

TEST(ConfigError, DimsMissing) {
  EXPECT_EQ(error_of("[topology]\nkind = \"mesh\"\n"),
            "t.toml:1:1: topology.dims: required key is missing for kind = \"mesh\"; "
            "give one radix per dimension, e.g. dims = [4, 4]");
}

TEST(ConfigError, DimsCount) {
  const std::string rule = "must have 1..3 entries (one radix per dimension)";
  EXPECT_EQ(error_of("[topology]\nkind = \"torus\"\ndims = []\n"), "t.toml:3:1: topology.dims = []: " + rule);
  EXPECT_EQ(error_of("[topology]\nkind = \"torus\"\ndims = [2, 2, 2, 2]\n"),
            "t.toml:3:1: topology.dims = [2, 2, 2, 2]: " + rule);
}

TEST(ConfigError, DimensionOfOne) {
  EXPECT_EQ(error_of("[topology]\nkind = \"torus\"\n  dims = [4, 1]\n"),
            "t.toml:3:3: topology.dims = [4, 1]: every dimension must be at least 2 "
            "(a ring or line of 1 router has no links)");
  // A multi-line array is reported on one line, at the key.
  EXPECT_EQ(error_of("[topology]\nkind = \"mesh\"\ndims = [\n  0,\n  4,\n]\n"),
            "t.toml:3:1: topology.dims = [0, 4]: every dimension must be at least 2 "
            "(a ring or line of 1 router has no links)");
}

TEST(ConfigError, DimensionTooLarge) {
  EXPECT_EQ(error_of("[topology]\nkind = \"torus\"\ndims = [17]\n"),
            "t.toml:3:1: topology.dims = [17]: every dimension must be in 2..16");
}

// ---------------------------------------------------------------------------
// Dragonfly topology

TEST(Config, DragonflyUsesDefaults) {
  const Config cfg = parse_config(kDragonfly, "t.toml");
  EXPECT_EQ(cfg.kind, TopologyKind::Dragonfly);
  EXPECT_EQ(cfg.p, 2);
  EXPECT_EQ(cfg.a, 4);
  EXPECT_EQ(cfg.h, 2);
  EXPECT_EQ(cfg.g, 9);
  EXPECT_TRUE(cfg.dims.empty());
  EXPECT_EQ(cfg.nodes_per_router, 2);  // = p
  EXPECT_EQ(cfg.arrangement, GlobalArrangement::Absolute);
  EXPECT_EQ(cfg.local_link_latency, 1);
  EXPECT_EQ(cfg.global_link_latency, 10);
  EXPECT_EQ(cfg.local_credit_latency, 1);
  EXPECT_EQ(cfg.global_credit_latency, 10);
  EXPECT_EQ(cfg.algorithm, RoutingAlgorithm::Min);  // the dragonfly default
  EXPECT_EQ(cfg.ugal_bias, 0);
  EXPECT_EQ(cfg.contention_window, 500);
  EXPECT_EQ(cfg.contention_threshold, 5);
  EXPECT_EQ(cfg.intra_group, IntraGroup::Minimal);
  EXPECT_EQ(cfg.ugal_rule, UgalRule::HopWeighted);
  EXPECT_EQ(cfg.ugal_queue, UgalQueue::CreditsAndWaiting);
  EXPECT_EQ(cfg.decision, DecisionPoint::VcHeadRegistered);
  EXPECT_EQ(cfg.where("topology.g"), "t.toml:6:1");
}

TEST(Config, DragonflyEveryKeyRoundTrips) {
  const Config cfg = parse_config(
      "[design]\n"
      "name = \"dfly\"\n"
      "[topology]\n"
      "kind = \"dragonfly\"\n"
      "p = 2\n"
      "a = 4\n"
      "h = 2\n"
      "g = 9\n"
      "arrangement = \"palmtree\"\n"
      "local_link_latency = 2\n"
      "global_link_latency = 20\n"
      "local_credit_latency = 3\n"
      "global_credit_latency = 30\n"
      "[router]\n"
      "vcs = 4\n"
      "buffer_flits = 64\n"
      "[routing]\n"
      "algorithm = \"ugal_le\"\n"
      "seed = 9\n"
      "ugal_bias = -7\n"
      "contention_window = 1000\n"
      "contention_threshold = 12\n"
      "intra_group = \"valiant\"\n"
      "ugal_rule = \"double_nonminimal\"\n"
      "ugal_queue = \"credits\"\n"
      "decision = \"buffer_write\"\n"
      "[sim]\n"
      "hotspot_node = 71\n",
      "t.toml");
  EXPECT_EQ(cfg.name, "dfly");
  EXPECT_EQ(cfg.kind, TopologyKind::Dragonfly);
  EXPECT_EQ(cfg.p, 2);
  EXPECT_EQ(cfg.a, 4);
  EXPECT_EQ(cfg.h, 2);
  EXPECT_EQ(cfg.g, 9);
  EXPECT_EQ(cfg.nodes_per_router, 2);
  EXPECT_EQ(cfg.arrangement, GlobalArrangement::Palmtree);
  EXPECT_EQ(cfg.local_link_latency, 2);
  EXPECT_EQ(cfg.global_link_latency, 20);
  EXPECT_EQ(cfg.local_credit_latency, 3);
  EXPECT_EQ(cfg.global_credit_latency, 30);
  EXPECT_EQ(cfg.vcs, 4);
  EXPECT_EQ(cfg.buffer_flits, 64);
  EXPECT_EQ(cfg.algorithm, RoutingAlgorithm::UgalLe);
  EXPECT_EQ(cfg.seed, 9u);
  EXPECT_EQ(cfg.ugal_bias, -7);
  EXPECT_EQ(cfg.contention_window, 1000);
  EXPECT_EQ(cfg.contention_threshold, 12);
  EXPECT_EQ(cfg.intra_group, IntraGroup::Valiant);
  EXPECT_EQ(cfg.ugal_rule, UgalRule::DoubleNonminimal);
  EXPECT_EQ(cfg.ugal_queue, UgalQueue::Credits);
  EXPECT_EQ(cfg.decision, DecisionPoint::BufferWrite);
  EXPECT_EQ(cfg.sim.hotspot_node, 71);  // 9 groups * 4 routers * 2 nodes = 72 nodes
  EXPECT_TRUE(cfg.warnings.empty());
  EXPECT_EQ(cfg.where("topology.arrangement"), "t.toml:9:1");
  EXPECT_EQ(cfg.where("routing.contention_threshold"), "t.toml:22:1");
}

TEST(Config, DragonflyShapes) {
  // dfly(4, 8, 4, 33): the maximum-size dragonfly of a = 8, h = 4 (l = 1), 1,056 nodes.
  const Config large = parse_config(dragonfly(4, 8, 4, 33, "[sim]\nhotspot_node = 1055\n"), "t.toml");
  EXPECT_EQ(large.p, 4);
  EXPECT_EQ(large.a, 8);
  EXPECT_EQ(large.h, 4);
  EXPECT_EQ(large.g, 33);
  EXPECT_EQ(large.nodes_per_router, 4);
  EXPECT_EQ(large.sim.hotspot_node, 1055);
  EXPECT_EQ(
      error_of(dragonfly(4, 8, 4, 33, "[sim]\nhotspot_node = 1056\n")),
      "t.toml:8:1: sim.hotspot_node = 1056: must be an integer in 0..1055 (the network has 1056 nodes)");

  // dfly(2, 4, 2, 5): l = 8 / 4 = 2 global links per group pair.
  const Config doubled = parse_config(dragonfly(2, 4, 2, 5), "t.toml");
  EXPECT_EQ(doubled.g, 5);
  EXPECT_EQ(doubled.nodes_per_router, 2);

  // g = 2 (l = a*h) is a valid shape; minimal routing needs no third group.
  const Config pair = parse_config(dragonfly(1, 2, 1, 2, "[routing]\nalgorithm = \"min\"\n"), "t.toml");
  EXPECT_EQ(pair.g, 2);
  EXPECT_EQ(pair.algorithm, RoutingAlgorithm::Min);
}

TEST(Config, DragonflyAlgorithms) {
  const std::pair<const char*, RoutingAlgorithm> algorithms[] = {
      {"min", RoutingAlgorithm::Min},      {"valg", RoutingAlgorithm::Valg},
      {"valn", RoutingAlgorithm::Valn},    {"ugal_g", RoutingAlgorithm::UgalG},
      {"ugal_n", RoutingAlgorithm::UgalN}, {"ugal_le", RoutingAlgorithm::UgalLe},
      {"par", RoutingAlgorithm::Par},
  };
  for (const auto& [name, algorithm] : algorithms) {
    const Config cfg =
        parse_config(std::string(kDragonfly) + "[routing]\nalgorithm = \"" + name + "\"\n", "t.toml");
    EXPECT_EQ(cfg.algorithm, algorithm) << name;
  }
}

TEST(ConfigError, DragonflyKeyMissing) {
  EXPECT_EQ(error_of("[topology]\nkind = \"dragonfly\"\na = 4\nh = 2\ng = 9\n"),
            "t.toml:1:1: topology.p: required key is missing for kind = \"dragonfly\"; "
            "give p (terminals per router), e.g. p = 2");
  EXPECT_EQ(error_of("[topology]\nkind = \"dragonfly\"\np = 2\nh = 2\ng = 9\n"),
            "t.toml:1:1: topology.a: required key is missing for kind = \"dragonfly\"; "
            "give a (routers per group), e.g. a = 4");
  EXPECT_EQ(error_of("[topology]\nkind = \"dragonfly\"\np = 2\na = 4\ng = 9\n"),
            "t.toml:1:1: topology.h: required key is missing for kind = \"dragonfly\"; "
            "give h (global ports per router), e.g. h = 2");
  // Inline table: the location is the topology key.
  EXPECT_EQ(error_of("\ntopology = { kind = \"dragonfly\", p = 2, a = 4, h = 2 }\n[router]\nvcs = 2\n"),
            "t.toml:2:1: topology.g: required key is missing for kind = \"dragonfly\"; "
            "give g (groups), e.g. g = 9");
}

TEST(ConfigError, DragonflyParameterRange) {
  EXPECT_EQ(error_of(dragonfly(0, 4, 2, 9)), "t.toml:3:1: topology.p = 0: must be an integer in 1..16");
  EXPECT_EQ(error_of(dragonfly(17, 4, 2, 9)), "t.toml:3:1: topology.p = 17: must be an integer in 1..16");
  EXPECT_EQ(error_of(dragonfly(2, 1, 2, 9)), "t.toml:4:1: topology.a = 1: must be an integer in 2..32");
  EXPECT_EQ(error_of(dragonfly(2, 33, 2, 9)), "t.toml:4:1: topology.a = 33: must be an integer in 2..32");
  EXPECT_EQ(error_of(dragonfly(2, 4, 0, 9)), "t.toml:5:1: topology.h = 0: must be an integer in 1..16");
  EXPECT_EQ(error_of(dragonfly(2, 4, 17, 9)), "t.toml:5:1: topology.h = 17: must be an integer in 1..16");
  EXPECT_EQ(error_of(dragonfly(2, 4, 2, 1)), "t.toml:6:1: topology.g = 1: must be an integer >= 2");
  EXPECT_EQ(error_of("[topology]\nkind = \"dragonfly\"\np = 2\na = 4\nh = 2\ng = \"9\"\n"),
            "t.toml:6:1: topology.g = \"9\": must be an integer >= 2");
  EXPECT_EQ(error_of("[topology]\nkind = \"dragonfly\"\np = 2.0\na = 4\nh = 2\ng = 9\n"),
            "t.toml:3:1: topology.p = 2.0: must be an integer in 1..16");
}

TEST(ConfigError, DragonflyTooManyGroups) {
  EXPECT_EQ(
      error_of(dragonfly(2, 4, 2, 10)),
      "t.toml:6:1: topology.g = 10: at most a*h + 1 = 9 groups: every group has a*h = 8 global link ends");
  EXPECT_EQ(error_of("[topology]\nkind = \"dragonfly\"\np = 4\na = 8\nh = 4\ng = 1000000000000\n"),
            "t.toml:6:1: topology.g = 1000000000000: at most a*h + 1 = 33 groups: every group has a*h = 32 "
            "global link ends");
}

TEST(ConfigError, DragonflyLargerThanTheGeneratorChecks) {
  // 1,040 routers (and 2,080 nodes): too many routers.
  EXPECT_EQ(error_of(dragonfly(2, 16, 4, 65)),
            "t.toml:6:1: topology.g = 65: dfly(2, 16, 4, 65) has 1040 routers and 2080 nodes; the limit is 1024 "
            "routers and 4096 nodes (the routing checks of rlroute gen grow with every node pair)");
  // 496 routers with 16 nodes each: too many nodes.
  EXPECT_EQ(error_of(dragonfly(16, 16, 15, 31)),
            "t.toml:6:1: topology.g = 31: dfly(16, 16, 15, 31) has 496 routers and 7936 nodes; the limit is 1024 "
            "routers and 4096 nodes (the routing checks of rlroute gen grow with every node pair)");
  // Large networks below the limits, the papers' 2,550-node one among them, are legal.
  EXPECT_NO_THROW(parse_config(dragonfly(8, 16, 15, 31), "t.toml"));   // 496 routers, 3,968 nodes
  EXPECT_NO_THROW(parse_config(dragonfly(5, 10, 5, 51), "t.toml"));    // 2,550 nodes
}

TEST(ConfigError, DragonflyGlobalLinksDoNotSplitEvenly) {
  EXPECT_EQ(error_of(dragonfly(2, 4, 2, 7)),
            "t.toml:6:1: topology.g = 7: the a*h = 8 global link ends of a group must split evenly over the "
            "g - 1 = 6 other groups (l = a*h/(g-1) links per group pair)");
  EXPECT_EQ(
      error_of(dragonfly(4, 8, 4, 32)),
      "t.toml:6:1: topology.g = 32: the a*h = 32 global link ends of a group must split evenly over the "
      "g - 1 = 31 other groups (l = a*h/(g-1) links per group pair)");
}

TEST(ConfigError, TorusKeyOnDragonfly) {
  EXPECT_EQ(error_of(std::string(kDragonfly) + "dims = [4, 4]\n"),
            "t.toml:7:1: topology.dims = [4, 4]: not valid for kind = \"dragonfly\"; "
            "use topology.p, topology.a, topology.h and topology.g");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "link_latency = 2\n"),
            "t.toml:7:1: topology.link_latency = 2: not valid for kind = \"dragonfly\"; "
            "use topology.local_link_latency and topology.global_link_latency");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "credit_latency = 2\n"),
            "t.toml:7:1: topology.credit_latency = 2: not valid for kind = \"dragonfly\"; "
            "use topology.local_credit_latency and topology.global_credit_latency");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[router]\nnodes_per_router = 2\n"),
            "t.toml:8:1: router.nodes_per_router = 2: not valid for kind = \"dragonfly\"; use topology.p");
}

TEST(ConfigError, DragonflyArrangement) {
  EXPECT_EQ(parse_config(std::string(kDragonfly) + "arrangement = \"absolute\"\n", "t.toml").arrangement,
            GlobalArrangement::Absolute);
  EXPECT_EQ(parse_config(std::string(kDragonfly) + "arrangement = \"palmtree\"\n", "t.toml").arrangement,
            GlobalArrangement::Palmtree);
  EXPECT_EQ(error_of(std::string(kDragonfly) + "arrangement = \"random\"\n"),
            "t.toml:7:1: topology.arrangement = \"random\": must be one of \"absolute\", \"palmtree\"");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "arrangement = 1\n"),
            "t.toml:7:1: topology.arrangement = 1: must be one of \"absolute\", \"palmtree\"");
}

TEST(ConfigError, DragonflyLatencyRange) {
  for (const std::string key :
       {"local_link_latency", "global_link_latency", "local_credit_latency", "global_credit_latency"}) {
    EXPECT_EQ(error_of(std::string(kDragonfly) + key + " = 0\n"),
              "t.toml:7:1: topology." + key + " = 0: must be an integer in 1..256");
    EXPECT_EQ(error_of(std::string(kDragonfly) + key + " = 257\n"),
              "t.toml:7:1: topology." + key + " = 257: must be an integer in 1..256");
    EXPECT_EQ(parse_config(std::string(kDragonfly) + key + " = 256\n[router]\nbuffer_flits = 256\n", "t.toml")
                  .warnings.size(),
              1u)
        << key;  // 256 + 1 + 1 or 256 + 10 + 1 cycles exceed 256 flits
  }
}

// ---------------------------------------------------------------------------
// Credit round-trip warning

TEST(Config, CreditRoundTripWarning) {
  // dfly(2, 4, 2, 9) with the default 8-flit buffers: global links take
  // 10 + 10 + 1 = 21 cycles, local links 1 + 1 + 1 = 3.
  EXPECT_EQ(parse_config(kDragonfly, "t.toml").warnings,
            (std::vector<std::string>{
                "t.toml: router.buffer_flits = 8: smaller than the credit round trip of a global link "
                "(topology.global_link_latency + topology.global_credit_latency + 1 = 21 cycles), so one VC "
                "cannot keep that link busy"}));
  // Written buffer: cited at its location; local and global links both short.
  EXPECT_EQ(
      parse_config(std::string(kDragonfly) + "local_link_latency = 5\n[router]\nbuffer_flits = 6\n", "t.toml")
          .warnings,
      (std::vector<std::string>{
          "t.toml:9:1: router.buffer_flits = 6: smaller than the credit round trip of a local link "
          "(topology.local_link_latency + topology.local_credit_latency + 1 = 7 cycles), so one VC "
          "cannot keep that link busy",
          "t.toml:9:1: router.buffer_flits = 6: smaller than the credit round trip of a global link "
          "(topology.global_link_latency + topology.global_credit_latency + 1 = 21 cycles), so one VC "
          "cannot keep that link busy"}));
  // A buffer equal to the round trip is enough.
  EXPECT_TRUE(
      parse_config(std::string(kDragonfly) + "[router]\nbuffer_flits = 21\n", "t.toml").warnings.empty());

  // Torus and mesh: the one link class.
  EXPECT_TRUE(parse_config(kMinimal, "t.toml").warnings.empty());
  EXPECT_EQ(parse_config(std::string(kMinimal) + "link_latency = 5\ncredit_latency = 3\n", "t.toml").warnings,
            (std::vector<std::string>{
                "t.toml: router.buffer_flits = 8: smaller than the credit round trip of a link "
                "(topology.link_latency + topology.credit_latency + 1 = 9 cycles), so one VC cannot keep "
                "that link busy"}));
  EXPECT_TRUE(parse_config(std::string(kMinimal) + "link_latency = 3\ncredit_latency = 3\n", "t.toml")
                  .warnings.empty());
}

// ---------------------------------------------------------------------------
// Dragonfly routing

TEST(ConfigError, NonMinimalRoutingNeedsThreeGroups) {
  for (const std::string name : {"valg", "valn", "ugal_g", "ugal_n", "ugal_le", "par"}) {
    EXPECT_EQ(error_of(dragonfly(2, 4, 2, 2, "[routing]\nalgorithm = \"" + name + "\"\n")),
              "t.toml:8:1: routing.algorithm = \"" + name +
                  "\": needs an intermediate group that is neither the source nor the destination group, so "
                  "topology.g >= 3 (here g = 2)");
    EXPECT_EQ(parse_config(dragonfly(2, 4, 2, 3, "[routing]\nalgorithm = \"" + name + "\"\n"), "t.toml").g,
              3);
  }
}

TEST(ConfigError, UgalBias) {
  const std::string rule = "only valid for routing.algorithm = ugal_g, ugal_n, ugal_le or par";
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nugal_bias = 4\n"),
            "t.toml:8:1: routing.ugal_bias = 4: " + rule);
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"valg\"\nugal_bias = 4\n"),
            "t.toml:9:1: routing.ugal_bias = 4: " + rule);
  EXPECT_EQ(error_of(std::string(kMinimal) + "[routing]\nugal_bias = 4\n"),
            "t.toml:5:1: routing.ugal_bias = 4: " + rule);
  const std::string ugal = std::string(kDragonfly) + "[routing]\nalgorithm = \"ugal_g\"\n";
  EXPECT_EQ(error_of(ugal + "ugal_bias = 1025\n"),
            "t.toml:9:1: routing.ugal_bias = 1025: must be an integer in -1024..1024");
  EXPECT_EQ(error_of(ugal + "ugal_bias = -1025\n"),
            "t.toml:9:1: routing.ugal_bias = -1025: must be an integer in -1024..1024");
  for (const std::string name : {"ugal_g", "ugal_n", "ugal_le", "par"}) {
    EXPECT_EQ(
        parse_config(std::string(kDragonfly) + "[routing]\nalgorithm = \"" + name + "\"\nugal_bias = -1024\n",
                     "t.toml")
            .ugal_bias,
        -1024)
        << name;
  }
}

TEST(ConfigError, UgalRuleAndQueue) {
  const std::string rule = "only valid for routing.algorithm = ugal_g, ugal_n, ugal_le or par";
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nugal_rule = \"hop_weighted\"\n"),
            "t.toml:8:1: routing.ugal_rule = \"hop_weighted\": " + rule);
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"valn\"\nugal_queue = \"credits\"\n"),
            "t.toml:9:1: routing.ugal_queue = \"credits\": " + rule);
  const std::string ugal = std::string(kDragonfly) + "[routing]\nalgorithm = \"ugal_n\"\n";
  EXPECT_EQ(error_of(ugal + "ugal_rule = \"double\"\n"),
            "t.toml:9:1: routing.ugal_rule = \"double\": must be one of \"hop_weighted\", \"double_nonminimal\"");
  EXPECT_EQ(error_of(ugal + "ugal_queue = 1\n"),
            "t.toml:9:1: routing.ugal_queue = 1: must be one of \"credits_and_waiting\", \"credits\"");
  for (const std::string name : {"ugal_g", "ugal_n", "ugal_le", "par"}) {
    const Config c = parse_config(std::string(kDragonfly) + "[routing]\nalgorithm = \"" + name +
                                      "\"\nugal_rule = \"double_nonminimal\"\nugal_queue = \"credits\"\n",
                                  "t.toml");
    EXPECT_EQ(c.ugal_rule, UgalRule::DoubleNonminimal) << name;
    EXPECT_EQ(c.ugal_queue, UgalQueue::Credits) << name;
  }
}

TEST(ConfigError, DecisionPoint) {
  const std::string rule = "only valid for routing.algorithm = ugal_g, ugal_n, ugal_le or par";
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\ndecision = \"vc_head\"\n"),
            "t.toml:8:1: routing.decision = \"vc_head\": " + rule);
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"valg\"\ndecision = \"buffer_write\"\n"),
            "t.toml:9:1: routing.decision = \"buffer_write\": " + rule);
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"par\"\ndecision = \"head\"\n"),
            "t.toml:9:1: routing.decision = \"head\": must be one of \"vc_head\", \"vc_head_registered\", "
            "\"buffer_write\"");
  for (const std::string name : {"ugal_g", "ugal_n", "ugal_le", "par"}) {
    for (const DecisionPoint point :
         {DecisionPoint::VcHead, DecisionPoint::VcHeadRegistered, DecisionPoint::BufferWrite}) {
      const Config c = parse_config(std::string(kDragonfly) + "[routing]\nalgorithm = \"" + name +
                                        "\"\ndecision = \"" + to_string(point) + "\"\n",
                                    "t.toml");
      EXPECT_EQ(c.decision, point) << name;
    }
  }
}

TEST(ConfigError, IntraGroup) {
  const std::string rule = "only valid for routing.algorithm = valg, valn, ugal_g, ugal_n, ugal_le or par";
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nintra_group = \"valiant\"\n"),
            "t.toml:8:1: routing.intra_group = \"valiant\": " + rule);
  EXPECT_EQ(error_of(std::string(kMinimal) + "[routing]\nintra_group = \"minimal\"\n"),
            "t.toml:5:1: routing.intra_group = \"minimal\": " + rule);
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"valg\"\nintra_group = \"random\"\n"),
            "t.toml:9:1: routing.intra_group = \"random\": must be one of \"minimal\", \"valiant\"");
  for (const std::string name : {"valg", "valn", "ugal_g", "ugal_n", "ugal_le", "par"}) {
    EXPECT_EQ(parse_config(std::string(kDragonfly) + "[routing]\nalgorithm = \"" + name +
                               "\"\nintra_group = \"valiant\"\n",
                           "t.toml")
                  .intra_group,
              IntraGroup::Valiant)
        << name;
  }
}

TEST(ConfigError, ContentionWindow) {
  EXPECT_EQ(
      error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"ugal_g\"\ncontention_window = 100\n"),
      "t.toml:9:1: routing.contention_window = 100: only valid for routing.algorithm = ugal_le");
  const std::string ugal_le = std::string(kDragonfly) + "[routing]\nalgorithm = \"ugal_le\"\n";
  EXPECT_EQ(error_of(ugal_le + "contention_window = 0\n"),
            "t.toml:9:1: routing.contention_window = 0: must be an integer in 1..65535");
  EXPECT_EQ(error_of(ugal_le + "contention_window = 65536\n"),
            "t.toml:9:1: routing.contention_window = 65536: must be an integer in 1..65535");
  EXPECT_EQ(parse_config(ugal_le + "contention_window = 65535\n", "t.toml").contention_window, 65535);
}

TEST(ConfigError, ContentionThreshold) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[routing]\ncontention_threshold = 3\n"),
            "t.toml:5:1: routing.contention_threshold = 3: only valid for routing.algorithm = ugal_le");
  const std::string ugal_le = std::string(kDragonfly) + "[routing]\nalgorithm = \"ugal_le\"\n";
  EXPECT_EQ(error_of(ugal_le + "contention_threshold = -1\n"),
            "t.toml:9:1: routing.contention_threshold = -1: must be an integer in 0..65535");
  EXPECT_EQ(error_of(ugal_le + "contention_threshold = 65536\n"),
            "t.toml:9:1: routing.contention_threshold = 65536: must be an integer in 0..65535");
  EXPECT_EQ(
      error_of(ugal_le + "contention_threshold = 100\ncontention_window = 100\n"),
      "t.toml:9:1: routing.contention_threshold = 100: must be less than routing.contention_window = 100");
  // Reported on the threshold even when it was left at its default (5).
  EXPECT_EQ(error_of(ugal_le + "contention_window = 5\n"),
            "t.toml: routing.contention_threshold = 5: must be less than routing.contention_window = 5");
  const Config cfg = parse_config(ugal_le + "contention_threshold = 0\ncontention_window = 1\n", "t.toml");
  EXPECT_EQ(cfg.contention_threshold, 0);
  EXPECT_EQ(cfg.contention_window, 1);
}

// ---------------------------------------------------------------------------
// Router and routing

TEST(ConfigError, VirtualCutThroughBuffer) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nbuffer_flits = 4\nmax_packet_flits = 6\n"),
            "t.toml:5:1: router.buffer_flits = 4: virtual cut-through needs a VC buffer of at least "
            "router.max_packet_flits = 6 flits");
  // Reported on buffer_flits even when it was left at its default.
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nmax_packet_flits = 9\n"),
            "t.toml: router.buffer_flits = 8: virtual cut-through needs a VC buffer of at least "
            "router.max_packet_flits = 9 flits");
}

TEST(ConfigError, UnknownAlgorithm) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[routing]\nalgorithm = \"xy\"\n"),
            "t.toml:5:1: routing.algorithm = \"xy\": must be one of \"dor\", \"star\", \"dqn\", \"min\", "
            "\"valg\", \"valn\", \"ugal_g\", \"ugal_n\", \"ugal_le\", \"par\", \"q_adaptive\"");
}

// DQN-routing's keys: twice the diameter as the hop threshold, the block of
// docs/dqn.md by default, each key checked, and only for dqn.
TEST(Config, DqnBlockAndWeightsMode) {
  const std::string dqn = "[topology]\nkind = \"torus\"\ndims = [4, 4]\n[router]\nvcs = 3\n"
                          "[routing]\nalgorithm = \"dqn\"\n";
  const Config d = parse_config(dqn, "t.toml");
  EXPECT_EQ(d.dqn_block, DqnBlockKind::Parallel) << "the block that keeps up with its router";
  EXPECT_EQ(d.dqn_weights_mode, DqnWeightsMode::Programmable);
  const Config c = parse_config(dqn + "dqn_block = \"parallel\"\ndqn_weights_mode = \"constant\"\n", "t.toml");
  EXPECT_EQ(c.dqn_block, DqnBlockKind::Parallel);
  EXPECT_EQ(c.dqn_weights_mode, DqnWeightsMode::Constant);
  EXPECT_EQ(parse_config(dqn + "dqn_block = \"tiled\"\ndqn_npar = 2\n", "t.toml").dqn_npar, 2);
  EXPECT_EQ(error_of(dqn + "dqn_block = \"wide\"\n"),
            "t.toml:8:1: routing.dqn_block = \"wide\": must be one of \"tiled\", \"parallel\"");
  EXPECT_EQ(error_of(dqn + "dqn_block = \"parallel\"\ndqn_ipar = 4\n"),
            "t.toml:9:1: routing.dqn_ipar = 4: only with routing.dqn_block = \"tiled\" (the parallel block multiplies "
            "every weight each cycle)");
  EXPECT_EQ(error_of(dqn + "dqn_block = \"tiled\"\ndqn_weights_mode = \"constant\"\n"),
            "t.toml:9:1: routing.dqn_weights_mode = \"constant\": constant weights need routing.dqn_block = "
            "\"parallel\" (the tiled block reads a weight memory)");
  EXPECT_EQ(error_of(dqn + "dqn_block = \"parallel\"\ndqn_agent = \"external\"\ndqn_weights_mode = \"constant\"\n"),
            "t.toml:10:1: routing.dqn_weights_mode = \"constant\": constant weights need routing.dqn_agent = "
            "\"block\" (with the agent outside there is no block)");
  EXPECT_EQ(error_of(dqn + "dqn_weights_mode = \"rom\"\n"),
            "t.toml:8:1: routing.dqn_weights_mode = \"rom\": must be one of \"programmable\", \"constant\"");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\ndqn_block = \"parallel\"\n").find("only valid for routing.algorithm = dqn") != std::string::npos,
            true);
}

TEST(Config, DqnDefaultsAndKeys) {
  const std::string dqn = "[topology]\nkind = \"torus\"\ndims = [4, 4]\n[router]\nvcs = 3\n"
                          "[routing]\nalgorithm = \"dqn\"\n";
  const Config d = parse_config(dqn, "t.toml");
  EXPECT_EQ(d.algorithm, RoutingAlgorithm::Dqn);
  EXPECT_EQ(d.dqn_hop_threshold, 8) << "[Lonardo 2019]: twice the 4x4 torus's diameter";
  EXPECT_EQ(d.dqn_hidden, (std::vector<int>{32, 32}));
  EXPECT_EQ(d.dqn_weight_bits, 8);
  EXPECT_EQ(d.dqn_activation_bits, 8);
  EXPECT_EQ(d.dqn_npar, 8);
  EXPECT_EQ(d.dqn_ipar, 4);
  EXPECT_EQ(d.dqn_weights, "");
  EXPECT_EQ(d.dqn_agent, DqnAgentKind::Block);
  EXPECT_EQ(d.dqn_episodes, 32);
  EXPECT_EQ(d.dqn_ack_ratio, 1) << "every packet requests an ack";
  EXPECT_EQ(parse_config(dqn + "dqn_agent = \"external\"\n", "t.toml").dqn_agent, DqnAgentKind::External);
  const Config e = parse_config(dqn + "dqn_episodes = 5\ndqn_ack_ratio = 0\n", "t.toml");
  EXPECT_EQ(e.dqn_episodes, 5) << "one per port of the 4x4 torus router";
  EXPECT_EQ(error_of(dqn + "dqn_episodes = 4\n"),
            "t.toml:8:1: routing.dqn_episodes = 4: must be 0 (no episode table) or at least the router's 5 ports: "
            "each input port holds a free entry for its next head");
  EXPECT_EQ(e.dqn_ack_ratio, 0) << "no packet requests an ack";
  EXPECT_EQ(parse_config(dqn + "dqn_episodes = 256\ndqn_ack_ratio = 65535\n", "t.toml").dqn_ack_ratio, 65535);
  EXPECT_EQ(parse_config(dqn + "dqn_episodes = 0\n", "t.toml").dqn_episodes, 0) << "no table: inference only";
  EXPECT_EQ(error_of(dqn + "dqn_episodes = -1\n"), "t.toml:8:1: routing.dqn_episodes = -1: must be an integer in 0..256");
  EXPECT_EQ(error_of(dqn + "dqn_episodes = 257\n"), "t.toml:8:1: routing.dqn_episodes = 257: must be an integer in 0..256");
  EXPECT_EQ(error_of(dqn + "dqn_ack_ratio = -1\n"),
            "t.toml:8:1: routing.dqn_ack_ratio = -1: must be an integer in 0..65535");
  EXPECT_EQ(error_of(dqn + "dqn_agent = \"gpu\"\n"),
            "t.toml:8:1: routing.dqn_agent = \"gpu\": must be one of \"block\", \"external\"");
  EXPECT_EQ(d.dqn_fallback, DqnFallback::Pdor) << "the rule of [Lonardo 2019]";
  EXPECT_EQ(parse_config(dqn + "dqn_fallback = \"hop\"\n", "t.toml").dqn_fallback, DqnFallback::Hop);
  EXPECT_EQ(error_of(dqn + "dqn_fallback = \"never\"\n"),
            "t.toml:8:1: routing.dqn_fallback = \"never\": must be one of \"pdor\", \"hop\"");
  EXPECT_EQ(d.dqn_dor_vcs, DqnDorVcs::Escape) << "the rule of [Lonardo 2019]";
  EXPECT_EQ(parse_config(dqn + "dqn_dor_vcs = \"all\"\n", "t.toml").dqn_dor_vcs, DqnDorVcs::All);
  EXPECT_EQ(error_of(dqn + "dqn_dor_vcs = \"dqn\"\n"),
            "t.toml:8:1: routing.dqn_dor_vcs = \"dqn\": must be one of \"escape\", \"all\"");
  EXPECT_EQ(parse_config("[topology]\nkind = \"mesh\"\ndims = [3, 5, 2]\n[router]\nvcs = 2\n"
                         "[routing]\nalgorithm = \"dqn\"\n", "t.toml").dqn_hop_threshold, 2 * (2 + 4 + 1));
  const Config c = parse_config(dqn + "dqn_hop_threshold = 0\ndqn_hidden = []\ndqn_weight_bits = 4\n"
                                      "dqn_activation_bits = 16\ndqn_block = \"tiled\"\ndqn_npar = 1\ndqn_ipar = 13\n"
                                      "dqn_weights = \"w.json\"\n",
                                "t.toml");
  EXPECT_EQ(c.dqn_hop_threshold, 0);
  EXPECT_TRUE(c.dqn_hidden.empty());
  EXPECT_EQ(c.dqn_weight_bits, 4);
  EXPECT_EQ(c.dqn_activation_bits, 16);
  EXPECT_EQ(c.dqn_npar, 1);
  EXPECT_EQ(c.dqn_ipar, 13);
  EXPECT_EQ(c.dqn_weights, "w.json");

  EXPECT_EQ(error_of(dqn + "dqn_hop_threshold = 60\n"),
            "t.toml:8:1: routing.dqn_hop_threshold = 60: must be an integer in 0..59 (the header counts up to 63 "
            "hops, and after the threshold a packet may still take DOR's diameter of 4)");
  EXPECT_EQ(error_of(dqn + "dqn_hidden = [32, 0]\n"),
            "t.toml:8:1: routing.dqn_hidden = [32, 0]: must be an array of 0..3 layer sizes, each in 1..256");
  EXPECT_EQ(error_of(dqn + "dqn_hidden = [8, 8, 8, 8]\n"),
            "t.toml:8:1: routing.dqn_hidden = [8, 8, 8, 8]: must be an array of 0..3 layer sizes, each in 1..256");
  EXPECT_EQ(error_of(dqn + "dqn_weight_bits = 1\n"), "t.toml:8:1: routing.dqn_weight_bits = 1: must be an integer in 2..16");
  const std::string tiled = dqn + "dqn_block = \"tiled\"\n";
  EXPECT_EQ(error_of(tiled + "dqn_npar = 0\n"), "t.toml:9:1: routing.dqn_npar = 0: must be an integer in 1..256");
  EXPECT_EQ(error_of(tiled + "dqn_npar = 64\ndqn_ipar = 32\n"),
            "t.toml:10:1: routing.dqn_ipar = 32: routing.dqn_npar x routing.dqn_ipar = 64 x 32 multipliers per "
            "layer; at most 1024");
  EXPECT_EQ(error_of(dqn + "dqn_weights = \"\"\n"),
            "t.toml:8:1: routing.dqn_weights = \"\": must name a weights file; leave the key out for a random network");
  EXPECT_EQ(error_of("[topology]\nkind = \"torus\"\ndims = [4, 4]\n[router]\nvcs = 1\n[routing]\nalgorithm = \"dqn\"\n"),
            "t.toml:5:1: router.vcs = 1: routing.algorithm = \"dqn\" needs the escape VCs of dimension-order routing "
            "and the DQN VC above them: at least 2 (3 on a torus, for the two dateline classes)");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[routing]\ndqn_npar = 4\n"),
            "t.toml:5:1: routing.dqn_npar = 4: only valid for routing.algorithm = dqn");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[routing]\ndqn_ack_ratio = 4\n"),
            "t.toml:5:1: routing.dqn_ack_ratio = 4: only valid for routing.algorithm = dqn");
}

TEST(ConfigError, AlgorithmForAnotherTopology) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[routing]\nalgorithm = \"ugal_le\"\n"),
            "t.toml:5:1: routing.algorithm = \"ugal_le\": is not an algorithm for topology.kind = \"torus\"; "
            "torus supports: dor, star, dqn");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"dor\"\n"),
            "t.toml:8:1: routing.algorithm = \"dor\": is not an algorithm for topology.kind = \"dragonfly\"; "
            "dragonfly supports: min, valg, valn, ugal_g, ugal_n, ugal_le, par, q_adaptive");
}

// Q-adaptive's keys: the values of [Kang 2021] for 1,056 nodes by default, each
// one checked, and only for q_adaptive.
TEST(Config, QAdaptiveDefaultsAndKeys) {
  const std::string q = std::string(kDragonfly) + "[routing]\nalgorithm = \"q_adaptive\"\n";
  const Config d = parse_config(q, "t.toml");
  EXPECT_EQ(d.algorithm, RoutingAlgorithm::QAdaptive);
  EXPECT_DOUBLE_EQ(d.alpha, 0.2);
  EXPECT_DOUBLE_EQ(d.beta, 0.04);
  EXPECT_DOUBLE_EQ(d.epsilon, 0.001);
  EXPECT_DOUBLE_EQ(d.q_thld1, 0.2);
  EXPECT_DOUBLE_EQ(d.q_thld2, 0.35);
  EXPECT_EQ(d.q_value_bits, 16);
  EXPECT_EQ(d.q_fraction_bits, 4);
  EXPECT_EQ(d.q_read_ports, 0);
  EXPECT_EQ(d.q_decision_cycles, 1);
  EXPECT_EQ(d.q_initial, QInitial::ZeroLoad);
  EXPECT_EQ(d.q_intermediate, QIntermediate::Random);
  EXPECT_EQ(d.q_stamp, QStamp::Arrival);
  EXPECT_EQ(d.q_queue_weight, 0);
  EXPECT_EQ(d.q_source_group, QSourceGroup::Minimal);
  EXPECT_EQ(d.q_queue_in, QQueueIn::TestAndPort);
  EXPECT_EQ(d.q_vcs, QVcs::PerHop);
  EXPECT_EQ(vc_levels(d), 5);
  EXPECT_EQ(hop_bound(d), 5);
  const Config c = parse_config(q + "alpha = 0.5\nbeta = 0.1\nepsilon = 0\nq_thld1 = 0.05\nq_thld2 = 0.4\n"
                                    "q_value_bits = 12\nq_fraction_bits = 2\nq_read_ports = 3\n"
                                    "q_decision_cycles = 2\nq_initial = \"flat\"\nq_stamp = \"crossbar\"\n"
                                    "q_intermediate = \"best\"\nq_queue_weight = 3\nq_source_group = \"decide\"\n",
                                "t.toml");
  EXPECT_DOUBLE_EQ(c.alpha, 0.5);
  EXPECT_DOUBLE_EQ(c.beta, 0.1);
  EXPECT_DOUBLE_EQ(c.epsilon, 0.0);
  EXPECT_DOUBLE_EQ(c.q_thld1, 0.05);
  EXPECT_DOUBLE_EQ(c.q_thld2, 0.4);
  EXPECT_EQ(c.q_value_bits, 12);
  EXPECT_EQ(c.q_fraction_bits, 2);
  EXPECT_EQ(c.q_read_ports, 3);
  EXPECT_EQ(c.q_decision_cycles, 2);
  EXPECT_EQ(c.q_initial, QInitial::Flat);
  EXPECT_EQ(c.q_stamp, QStamp::Crossbar);
  EXPECT_EQ(c.q_intermediate, QIntermediate::Best);
  EXPECT_EQ(c.q_queue_weight, 3);
  EXPECT_EQ(c.q_source_group, QSourceGroup::Decide);
  EXPECT_EQ(parse_config(q + "q_queue_weight = 4\nq_queue_in = \"port\"\n", "t.toml").q_queue_in, QQueueIn::Port);
  EXPECT_EQ(parse_config(q + "q_vcs = \"rising\"\n", "t.toml").q_vcs, QVcs::Rising);
  EXPECT_EQ(vc_levels(c), 6);  // a local hop in the source group before the intermediate group's
  EXPECT_EQ(hop_bound(c), 6);
  const Config detour = parse_config(q + "q_source_group = \"detour\"\n", "t.toml");
  EXPECT_EQ(detour.q_source_group, QSourceGroup::Detour);
  EXPECT_EQ(vc_levels(detour), 6);  // the source's local detour before the intermediate group's
  EXPECT_EQ(hop_bound(detour), 6);
}

TEST(ConfigError, QAdaptiveKeys) {
  const std::string q = std::string(kDragonfly) + "[routing]\nalgorithm = \"q_adaptive\"\n";
  EXPECT_EQ(error_of(q + "alpha = 1.5\n"),
            "t.toml:9:1: routing.alpha = 1.5: must be a number in 0..1 (the learning rate when the estimate falls)");
  EXPECT_EQ(error_of(q + "epsilon = -0.1\n"),
            "t.toml:9:1: routing.epsilon = -0.1: must be a number in 0..1 (the probability of exploring)");
  EXPECT_EQ(error_of(q + "q_value_bits = 32\n"), "t.toml:9:1: routing.q_value_bits = 32: must be an integer in 8..24");
  EXPECT_EQ(error_of(q + "q_value_bits = 8\nq_fraction_bits = 4\n"),
            "t.toml:10:1: routing.q_fraction_bits = 4: leaves 4 integer bits of routing.q_value_bits = 8; at least 6 "
            "(63 cycles) are needed");
  EXPECT_EQ(error_of(q + "q_read_ports = 8\n"),
            "t.toml:9:1: routing.q_read_ports = 8: must be an integer in 0..7 (0: one per input port; the router has "
            "7 ports)");
  EXPECT_EQ(error_of(q + "q_decision_cycles = 3\n"),
            "t.toml:9:1: routing.q_decision_cycles = 3: must be 1 or 2 (2: the row read and the decision in separate "
            "cycles)");
  EXPECT_EQ(error_of(q + "q_initial = \"zero\"\n"),
            "t.toml:9:1: routing.q_initial = \"zero\": must be one of \"zero_load\", \"flat\"");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"ugal_n\"\nq_thld1 = 0.1\n"),
            "t.toml:9:1: routing.q_thld1 = 0.1: only valid for routing.algorithm = q_adaptive");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"ugal_n\"\nq_initial = \"flat\"\n"),
            "t.toml:9:1: routing.q_initial = \"flat\": only valid for routing.algorithm = q_adaptive");
  EXPECT_EQ(error_of(q + "q_intermediate = \"first\"\n"),
            "t.toml:9:1: routing.q_intermediate = \"first\": must be one of \"random\", \"best\"");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"par\"\nq_intermediate = \"best\"\n"),
            "t.toml:9:1: routing.q_intermediate = \"best\": only valid for routing.algorithm = q_adaptive");
  EXPECT_EQ(error_of(q + "q_stamp = \"departure\"\n"),
            "t.toml:9:1: routing.q_stamp = \"departure\": must be one of \"arrival\", \"crossbar\", \"request\"");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"ugal_n\"\nq_stamp = \"crossbar\"\n"),
            "t.toml:9:1: routing.q_stamp = \"crossbar\": only valid for routing.algorithm = q_adaptive");
  EXPECT_EQ(error_of(q + "q_source_group = \"yes\"\n"),
            "t.toml:9:1: routing.q_source_group = \"yes\": must be one of \"minimal\", \"decide\", \"detour\"");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"par\"\nq_source_group = \"decide\"\n"),
            "t.toml:9:1: routing.q_source_group = \"decide\": only valid for routing.algorithm = q_adaptive");
  EXPECT_EQ(error_of(q + "q_queue_weight = 9\n"),
            "t.toml:9:1: routing.q_queue_weight = 9: must be an integer in 0..8 (cycles per queued flit; 0: the table "
            "alone, as the paper)");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"par\"\nq_queue_weight = 1\n"),
            "t.toml:9:1: routing.q_queue_weight = 1: only valid for routing.algorithm = q_adaptive");
  EXPECT_EQ(error_of(q + "q_queue_in = \"port\"\n"),
            "t.toml:9:1: routing.q_queue_in = \"port\": needs routing.q_queue_weight > 0 (without a queue weighed in, "
            "the table decides alone)");
  EXPECT_EQ(error_of(q + "q_queue_weight = 2\nq_queue_in = \"choice\"\n"),
            "t.toml:10:1: routing.q_queue_in = \"choice\": must be one of \"test_and_port\", \"port\"");
  EXPECT_EQ(error_of(q + "q_vcs = \"any\"\n"),
            "t.toml:9:1: routing.q_vcs = \"any\": must be one of \"per_hop\", \"rising\"");
  EXPECT_EQ(error_of(std::string(kDragonfly) + "[routing]\nalgorithm = \"ugal_n\"\nq_vcs = \"rising\"\n"),
            "t.toml:9:1: routing.q_vcs = \"rising\": only valid for routing.algorithm = q_adaptive");
}

TEST(ConfigError, NegativeSeed) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[routing]\nseed = -1\n"),
            "t.toml:5:1: routing.seed = -1: must be an integer >= 0");
}

// ---------------------------------------------------------------------------
// Simulation defaults

TEST(ConfigError, UnknownPattern) {
  // The rule comes from parse_traffic_spec; the list of valid names grows, so
  // only its start is checked.
  const std::string message = error_of(std::string(kMinimal) + "[sim]\npattern = 'shuffle'\n");
  const std::string prefix =
      "t.toml:5:1: sim.pattern = \"shuffle\": unknown traffic pattern \"shuffle\"; valid: uniform";
  EXPECT_EQ(message.substr(0, prefix.size()), prefix) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(ConfigError, LoadRange) {
  const std::string rule = "must be a number with 0 < load <= 1 (flits/node/cycle)";
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nload = 0\n"), "t.toml:5:1: sim.load = 0: " + rule);
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nload = 1.5\n"), "t.toml:5:1: sim.load = 1.5: " + rule);
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nload = nan\n"), "t.toml:5:1: sim.load = nan: " + rule);
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nload = \"high\"\n"),
            "t.toml:5:1: sim.load = \"high\": " + rule);
}

TEST(ConfigError, PacketFlitsRange) {
  const std::string rule = "must be 0 or an integer in router.min_packet_flits = 2..router.max_packet_flits = 4";
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\npacket_flits = 1\n"),
            "t.toml:5:1: sim.packet_flits = 1: " + rule);
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\npacket_flits = 5\n"),
            "t.toml:5:1: sim.packet_flits = 5: " + rule);
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\npacket_flits_max = 5\npacket_flits_min = 2\n"),
            "t.toml:5:1: sim.packet_flits_max = 5: " + rule);
}

TEST(ConfigError, MinPacketFlits) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nmin_packet_flits = 0\n"),
            "t.toml:5:1: router.min_packet_flits = 0: must be an integer in 1..256");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nmax_packet_flits = 257\nbuffer_flits = 256\n"),
            "t.toml:5:1: router.max_packet_flits = 257: must be an integer in 1..256");
  EXPECT_EQ(parse_config(std::string(kMinimal) + "[router]\nmax_packet_flits = 256\nbuffer_flits = 256\n", "t.toml")
                .max_packet_flits,
            256) << "the packets of [Lonardo 2019]";
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nmax_packet_flits = 1\n"),
            "t.toml:5:1: router.max_packet_flits = 1: must be at least router.min_packet_flits = 2 (a packet of "
            "one flit needs router.min_packet_flits = 1)");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nmin_packet_flits = 5\n"),
            "t.toml: router.max_packet_flits = 4: must be at least router.min_packet_flits = 5 (a packet of one "
            "flit needs router.min_packet_flits = 1)");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nmin_packet_flits = 3\n[sim]\npacket_flits = 2\n"),
            "t.toml:7:1: sim.packet_flits = 2: must be 0 or an integer in router.min_packet_flits = "
            "3..router.max_packet_flits = 4");
}

TEST(ConfigError, SpeedupAndOutputBuffer) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nspeedup = 5\n"),
            "t.toml:5:1: router.speedup = 5: must be an integer in 1..4");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\noutput_buffer_flits = 4\n"),
            "t.toml:5:1: router.output_buffer_flits = 4: needs router.speedup >= 2 (without speedup the output "
            "register alone drives the link)");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nspeedup = 3\noutput_buffer_flits = 2\n"),
            "t.toml:6:1: router.output_buffer_flits = 2: must be at least router.speedup = 3 flits (a cycle's "
            "flits must fit)");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nbuffer_read = \"sync\"\n"),
            "t.toml:5:1: router.buffer_read = \"sync\": must be one of \"async\", \"registered\"");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[router]\nswitch_allocation = \"early\"\n"),
            "t.toml:5:1: router.switch_allocation = \"early\": must be one of \"after_vc\", \"speculative\"");
}

TEST(Config, SwitchAllocation) {
  EXPECT_EQ(parse_config(kMinimal, "t.toml").switch_allocation, SwitchAllocation::AfterVc);
  const Config spec = parse_config(std::string(kMinimal) + "[router]\nswitch_allocation = \"speculative\"\n", "t.toml");
  EXPECT_EQ(spec.switch_allocation, SwitchAllocation::Speculative);
  EXPECT_STREQ(to_string(spec.switch_allocation), "speculative");
  EXPECT_STREQ(to_string(SwitchAllocation::AfterVc), "after_vc");
}

TEST(Config, SpeedupDefaultsItsOutputBuffer) {
  const Config plain = parse_config(kMinimal, "t.toml");
  EXPECT_EQ(plain.speedup, 1);
  EXPECT_EQ(plain.output_buffer_flits, 0);
  EXPECT_EQ(plain.buffer_read, BufferRead::Async);
  const Config two = parse_config(std::string(kMinimal) + "[router]\nspeedup = 2\nbuffer_read = \"registered\"\n",
                                  "t.toml");
  EXPECT_EQ(two.speedup, 2);
  EXPECT_EQ(two.output_buffer_flits, 4);
  EXPECT_EQ(two.buffer_read, BufferRead::Registered);
  EXPECT_EQ(parse_config(std::string(kMinimal) + "[router]\nspeedup = 2\noutput_buffer_flits = 9\n", "t.toml")
                .output_buffer_flits,
            9);
}

TEST(Config, SingleFlitPackets) {
  const Config cfg = parse_config(std::string(kMinimal) + "[router]\nmin_packet_flits = 1\nmax_packet_flits = 1\n"
                                                          "flit_bits = 128\n[sim]\npacket_flits = 1\n",
                                  "t.toml");
  EXPECT_EQ(cfg.min_packet_flits, 1);
  EXPECT_EQ(cfg.max_packet_flits, 1);
  EXPECT_EQ(cfg.sim.packet_flits, 1);
  const Config mixed = parse_config(std::string(kMinimal) + "[router]\nmin_packet_flits = 1\nflit_bits = 128\n"
                                                            "[sim]\npacket_flits_min = 1\npacket_flits_max = 4\n",
                                    "t.toml");
  EXPECT_EQ(mixed.sim.packet_flits_min, 1);
  EXPECT_EQ(mixed.sim.packet_flits_max, 4);
}

TEST(ConfigError, PacketFlitsRangeIncomplete) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\npacket_flits_min = 2\n"),
            "t.toml:5:1: sim.packet_flits_min = 2: must be set together with sim.packet_flits_max "
            "(both 0, or both set)");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\npacket_flits_min = 0\npacket_flits_max = 3\n"),
            "t.toml:6:1: sim.packet_flits_max = 3: must be set together with sim.packet_flits_min "
            "(both 0, or both set)");
}

TEST(ConfigError, PacketFlitsRangeReversed) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\npacket_flits_min = 4\npacket_flits_max = 3\n"),
            "t.toml:6:1: sim.packet_flits_max = 3: must be at least sim.packet_flits_min = 4");
}

TEST(ConfigError, FixedPacketSizeAndRange) {
  EXPECT_EQ(error_of(std::string(kMinimal) +
                     "[sim]\npacket_flits = 3\npacket_flits_min = 2\npacket_flits_max = 4\n"),
            "t.toml:5:1: sim.packet_flits = 3: conflicts with sim.packet_flits_min/max; "
            "give a fixed size or a range, not both");
}

TEST(ConfigError, SimCounts) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\ncycles = 0\n"),
            "t.toml:5:1: sim.cycles = 0: must be an integer in 1..2^40 cycles");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nwarmup = -1\n"),
            "t.toml:5:1: sim.warmup = -1: must be an integer in 0..2^40 cycles");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\ndrain = true\n"),
            "t.toml:5:1: sim.drain = true: must be an integer in 0..2^40 cycles");
  // Above 2^40 (sums of phases would overflow near 2^63).
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\ncycles = 9223372036854775807\n"),
            "t.toml:5:1: sim.cycles = 9223372036854775807: must be an integer in 1..2^40 cycles");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nwarmup = 1099511627777\n"),
            "t.toml:5:1: sim.warmup = 1099511627777: must be an integer in 0..2^40 cycles");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nseed = -5\n"),
            "t.toml:5:1: sim.seed = -5: must be an integer >= 0");
}

TEST(ConfigError, Hotspot) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nhotspot_fraction = 1.01\n"),
            "t.toml:5:1: sim.hotspot_fraction = 1.01: must be a number in 0..1");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[sim]\nhotspot_node = 16\n"),
            "t.toml:5:1: sim.hotspot_node = 16: must be an integer in 0..15 (the network has 16 nodes)");
}

}  // namespace
}  // namespace rlroute
