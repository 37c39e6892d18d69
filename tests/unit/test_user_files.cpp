// The user's files (gen/src/files.cpp, gen/src/interrupt.cpp,
// gen/src/printable.cpp): outputs that collide, output directories holding
// what the user put there, what an interrupt leaves, and text shown in errors.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "rlroute/gen/files.hpp"
#include "rlroute/gen/interrupt.hpp"
#include "rlroute/gen/printable.hpp"

using namespace rlroute;
namespace fs = std::filesystem;

namespace {

class UserFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlroute_user_files_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path file(const std::string& name, const std::string& text = "x") const {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }

  std::string distinct_error(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) const {
    try {
      check_distinct_files(outputs, inputs);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "no error";
  }

  // Anything rlroute left while writing: <name>.rlroute-<tag>-<pid>.
  bool leftovers() const {
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
      if (e.path().filename().string().find(".rlroute-") != std::string::npos) return true;
    }
    return false;
  }

  fs::path dir_;
};

TEST_F(UserFiles, TwoOutputsOnOneFileAndAnOutputOnAnInputAreRefused) {
  const fs::path cfg = file("cfg.toml");
  const fs::path out = dir_ / "r.json";
  EXPECT_EQ(distinct_error({{"--json", out}, {"--series", dir_ / "s.csv"}, {"--links", ""}}, {{"the config", cfg}}),
            "no error");
  EXPECT_EQ(distinct_error({{"--json", out}, {"--series", dir_ / "." / "r.json"}}, {}),
            "--series " + (dir_ / "." / "r.json").string() + ": is also the output of --json; name a different file "
            "for each");
  EXPECT_EQ(distinct_error({{"--json", cfg}}, {{"the config", cfg}}),
            "--json " + cfg.string() + ": is the config, an input; not overwriting it");
  fs::create_symlink(cfg, dir_ / "link.toml");
  EXPECT_NE(distinct_error({{"--json", dir_ / "link.toml"}}, {{"the config", cfg}}), "no error");
  fs::create_hard_link(cfg, dir_ / "hard.toml");
  EXPECT_NE(distinct_error({{"--json", dir_ / "hard.toml"}}, {{"the config", cfg}}), "no error");
  // Streams are appended to, never replaced: two may share one.
  EXPECT_EQ(distinct_error({{"--json", "/dev/stdout"}, {"--series", "/dev/stdout"}}, {}), "no error");
}

TEST_F(UserFiles, AnOutputPathWithATrailingSlashNamesADirectory) {
  try {
    check_output_file(dir_ / "newdir/", "--json");
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("names a directory; name a file"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir_ / "newdir"));
}

TEST_F(UserFiles, AnEarlierOutputHoldingTheUsersLinkOrFolderIsNotReplaced) {
  {
    OutputDirectory out(dir_ / "g", "-o");
    out.write("rtl/a.sv", "module a; endmodule\n");
    out.commit();
  }
  { OutputDirectory again(dir_ / "g", "-o"); }  // its own files only: accepted
  fs::create_symlink(dir_, dir_ / "g" / "my_results");
  EXPECT_THROW(OutputDirectory(dir_ / "g", "-o"), std::runtime_error);
  fs::remove(dir_ / "g" / "my_results");
  fs::create_directory(dir_ / "g" / "e");
  try {
    OutputDirectory out(dir_ / "g", "-o");
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("holds e/, which rlroute did not write"), std::string::npos) << e.what();
  }
  fs::create_directory(dir_ / "g" / "rtl" / "mine");
  fs::remove(dir_ / "g" / "e");
  EXPECT_THROW(OutputDirectory(dir_ / "g", "-o"), std::runtime_error);
  EXPECT_TRUE(fs::is_directory(dir_ / "g" / "rtl" / "mine"));
}

// Waits (up to 10 s) until a file whose name holds `part` exists in `dir`.
bool appears(const fs::path& dir, const std::string& part) {
  for (int i = 0; i < 10000; ++i) {
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.path().filename().string().find(part) != std::string::npos) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

TEST_F(UserFiles, AnInterruptWhileAFileIsWrittenLeavesNothingHalfWritten) {
  const fs::path out = file("big.json", "the previous results\n");
  EXPECT_EXIT(
      {
        install_interrupt_cleanup();
        std::thread interrupt([&] {
          if (appears(dir_, ".rlroute-tmp-")) ::kill(::getpid(), SIGINT);
        });
        write_file_atomically(out, std::string(std::size_t{1} << 29, 'x'), "--json");
        interrupt.join();
        std::_Exit(0);  // the write ended before the interrupt: the test fails on the status
      },
      ::testing::KilledBySignal(SIGINT), "");
  EXPECT_FALSE(leftovers());
  std::ifstream in(out);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "the previous results");
}

TEST_F(UserFiles, AnInterruptWhileADirectoryIsWrittenLeavesNothing) {
  EXPECT_EXIT(
      {
        install_interrupt_cleanup();
        OutputDirectory out(dir_ / "g", "-o");
        for (int i = 0; i < 50; ++i) out.write(fs::path("rtl") / ("d" + std::to_string(i % 5)) / std::to_string(i), "x");
        ::raise(SIGTERM);
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGTERM), "");
  EXPECT_FALSE(leftovers());
  EXPECT_FALSE(fs::exists(dir_ / "g"));
}

TEST_F(UserFiles, OnlyRegisteredPathsAreRemoved) {
  const fs::path keep = file("keep.txt");
  const fs::path gone = file("gone.txt");
  EXPECT_EXIT(
      {
        install_interrupt_cleanup();
        RemovedOnInterrupt a(gone);
        RemovedOnInterrupt b(keep);
        b.release();
        ::raise(SIGHUP);
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGHUP), "");
  EXPECT_TRUE(fs::exists(keep));
  EXPECT_FALSE(fs::exists(gone));
}

TEST(InterruptOf, AShellReportsAnInterruptedChildAs128PlusTheSignal) {
  EXPECT_EQ(interrupt_of(std::system("kill -INT $$")), SIGINT);
  EXPECT_EQ(interrupt_of(std::system("exit 130")), SIGINT);
  EXPECT_EQ(interrupt_of(std::system("exit 143")), SIGTERM);
  EXPECT_EQ(interrupt_of(std::system("exit 1")), 0);
  EXPECT_EQ(interrupt_of(std::system("exit 0")), 0);
}

TEST(Printable, ControlCharactersAndBytesThatAreNotUtf8AreEscaped) {
  EXPECT_EQ(printable("plain text, é and ü"), "plain text, é and ü");
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("line\nbreak\x1b[31m"), "line\\x0abreak\\x1b[31m");
  EXPECT_EQ(printable("a\xff" "b"), "a\\xffb");
  EXPECT_EQ(printable("\xc3"), "\\xc3");            // a sequence cut short
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");  // an overlong encoding
}

}  // namespace
