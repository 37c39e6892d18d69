// docs/config.md's key tables against the schema they are generated from
// (gen/src/config_schema.cpp), and the schema's defaults against the values a
// parsed config gets.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "../../gen/src/config_schema.hpp"
#include "rlroute/gen/config.hpp"

namespace rlroute {
namespace {

using config_detail::ConfigKey;
using config_detail::config_keys;

// What rewrites the tables of the file (docs/config.md says so too).
constexpr const char* kRefreshCommand = "RLROUTE_REFRESH_DOCS=1 build/tests/unit_tests --gtest_filter='ConfigDoc.*'";
constexpr std::string_view kBegin = "<!-- BEGIN generated: ";
constexpr std::string_view kBeginEnd = " -->";
constexpr std::string_view kEnd = "<!-- END generated -->";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A generated table: its name ("[router] keys") and its lines, those between
// its two markers: [first, last).
struct Block {
  std::string name;
  std::size_t first = 0, last = 0;
};

std::vector<Block> blocks_of(const std::vector<std::string>& lines, const std::string& what) {
  std::vector<Block> blocks;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (!line.starts_with(kBegin) || !line.ends_with(kBeginEnd)) continue;
    Block block{line.substr(kBegin.size(), line.size() - kBegin.size() - kBeginEnd.size()), i + 1, i + 1};
    while (block.last < lines.size() && lines[block.last] != kEnd && !lines[block.last].starts_with(kBegin)) {
      ++block.last;
    }
    if (block.last == lines.size() || lines[block.last] != kEnd) {
      ADD_FAILURE() << what << ", line " << i + 1 << ": table \"" << block.name << "\" has no " << kEnd;
      continue;
    }
    blocks.push_back(block);
    i = block.last;
  }
  return blocks;
}

const Block* find_block(const std::vector<Block>& blocks, const std::string& name) {
  for (const Block& block : blocks) {
    if (block.name == name) return &block;
  }
  return nullptr;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// What differs between the file's tables and the generated ones: one message
// per table (a missing table, its first differing line, a table the schema
// does not make).
std::vector<std::string> table_differences(const std::vector<std::string>& doc, const std::string& path) {
  const std::vector<std::string> generated = lines_of(config_key_tables_markdown());
  const std::vector<Block> want = blocks_of(generated, "config_key_tables_markdown()");
  const std::vector<Block> have = blocks_of(doc, path);
  std::vector<std::string> differences;
  for (const Block& table : want) {
    const Block* block = find_block(have, table.name);
    if (block == nullptr) {
      differences.push_back(path + " has no table \"" + table.name + "\": put its markers (" + std::string(kBegin) +
                            table.name + std::string(kBeginEnd) + ", " + std::string(kEnd) +
                            ") where it belongs, then refresh: " + kRefreshCommand);
      continue;
    }
    for (std::size_t i = 0;; ++i) {
      const bool generated_ends = table.first + i == table.last, file_ends = block->first + i == block->last;
      if (generated_ends && file_ends) break;
      const std::string expected = generated_ends ? "(the table ends)" : generated[table.first + i];
      const std::string found = file_ends ? "(the table ends)" : doc[block->first + i];
      if (expected != found) {
        differences.push_back(path + ", table \"" + table.name + "\" differs from the schema at line " +
                              std::to_string(block->first + i + 1) + ":\n  file:      " + found +
                              "\n  generated: " + expected + "\nrefresh it: " + kRefreshCommand);
        break;
      }
    }
  }
  for (const Block& block : have) {
    if (find_block(want, block.name) == nullptr) {
      differences.push_back(path + ", line " + std::to_string(block.first) + ": table \"" + block.name +
                            "\" is not generated (config_key_tables_markdown() has no such table)");
    }
  }
  return differences;
}

// With RLROUTE_REFRESH_DOCS set, the tables of the file are rewritten first
// (a table the file has no markers for is still reported: where it goes is
// the prose's choice).
TEST(ConfigDoc, KeyTablesAreGeneratedFromTheSchema) {
  const std::string path = RLROUTE_CONFIG_DOC;
  const std::vector<std::string> generated = lines_of(config_key_tables_markdown());
  const std::vector<Block> want = blocks_of(generated, "config_key_tables_markdown()");
  std::vector<std::string> doc = lines_of(read_text(path));
  const std::vector<Block> have = blocks_of(doc, path);
  ASSERT_FALSE(want.empty());

  if (const char* refresh = std::getenv("RLROUTE_REFRESH_DOCS"); refresh != nullptr && *refresh != '\0') {
    for (auto block = have.rbegin(); block != have.rend(); ++block) {
      const Block* table = find_block(want, block->name);
      if (table == nullptr) continue;
      doc.erase(doc.begin() + static_cast<std::ptrdiff_t>(block->first),
                doc.begin() + static_cast<std::ptrdiff_t>(block->last));
      doc.insert(doc.begin() + static_cast<std::ptrdiff_t>(block->first),
                 generated.begin() + static_cast<std::ptrdiff_t>(table->first),
                 generated.begin() + static_cast<std::ptrdiff_t>(table->last));
    }
    std::ofstream out(path);
    for (const std::string& line : doc) out << line << '\n';
    ASSERT_TRUE(out) << "cannot write " << path;
  }

  for (const std::string& difference : table_differences(doc, path)) ADD_FAILURE() << difference;
}

// The check breaks on purpose: a row edited, a row missing, a table the
// schema does not make, each in a copy of the file, is reported by name.
TEST(ConfigDoc, AStaleTableIsReportedByNameAndLine) {
  const std::vector<std::string> doc = lines_of(read_text(RLROUTE_CONFIG_DOC));
  ASSERT_TRUE(table_differences(doc, "doc").empty());
  auto row = [&doc](std::string_view key) {
    for (std::size_t i = 0; i < doc.size(); ++i) {
      if (doc[i].starts_with("| `" + std::string(key) + "` |")) return i;
    }
    ADD_FAILURE() << "no row for " << key;
    return std::size_t{0};
  };
  std::vector<std::string> edited = doc;
  edited[row("vcs")] = "| `vcs` | integer | 3 | 1..16 | Virtual channels per port. |";
  std::vector<std::string> found = table_differences(edited, "doc");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].find("table \"[router] keys\" differs from the schema at line " + std::to_string(row("vcs") + 1)),
            std::string::npos)
      << found[0];
  std::vector<std::string> missing = doc;
  missing.erase(missing.begin() + static_cast<std::ptrdiff_t>(row("epsilon")));
  found = table_differences(missing, "doc");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].find("table \"[routing] keys\""), std::string::npos) << found[0];
  std::vector<std::string> extra = doc;
  extra.insert(extra.end(), {std::string(kBegin) + "[nowhere] keys" + std::string(kBeginEnd), std::string(kEnd)});
  found = table_differences(extra, "doc");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].find("\"[nowhere] keys\" is not generated"), std::string::npos) << found[0];
}

// The default a table shows for a value (not a rule in words) is the value a
// parsed config without the key gets.
TEST(ConfigSchema, DefaultsAreThoseOfAParsedConfig) {
  const Config defaults;
  const char* const minimal[] = {
      "[topology]\nkind = \"torus\"\ndims = [4, 4]\n",
      "[topology]\nkind = \"mesh\"\ndims = [4, 4]\n",
      "[topology]\nkind = \"dragonfly\"\np = 2\na = 4\nh = 2\ng = 9\n",
  };
  for (const char* text : minimal) {
    const Config parsed = parse_config(text, "t.toml");
    int compared = 0;
    for (const ConfigKey& key : config_keys()) {
      if (key.default_value.value == nullptr || !config_detail::key_applies(key, parsed.kind)) continue;
      EXPECT_EQ(key.default_value.text(parsed), key.default_value.text(defaults))
          << key.section << "." << key.name << " in a " << to_string(parsed.kind) << " config without it";
      ++compared;
    }
    EXPECT_GT(compared, 40) << to_string(parsed.kind);
  }
}

// A torus and mesh key names what a dragonfly uses instead (its error says so).
TEST(ConfigSchema, TorusAndMeshKeysNameTheirDragonflyKeys) {
  for (const ConfigKey& key : config_keys()) {
    EXPECT_EQ(key.family == config_detail::KeyFamily::TorusMesh, !key.instead.empty())
        << key.section << "." << key.name;
  }
}

}  // namespace
}  // namespace rlroute
