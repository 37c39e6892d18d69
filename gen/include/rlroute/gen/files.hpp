// Reading and writing the user's files safely: rlroute never deletes or
// replaces a file it did not create, never leaves half-written output, and
// reports an unusable output path before any work is done.
//
// Errors are std::runtime_error with one line: "<flag> <path>: <reason>".
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rlroute/gen/interrupt.hpp"

namespace rlroute {

// Reads a whole regular file (symlinks followed) of at most `max_bytes`.
// Device nodes, FIFOs and directories are refused without being opened for
// reading, so that /dev/zero or a FIFO cannot hang the tool.
std::string read_regular_file(const std::filesystem::path& path, std::size_t max_bytes, std::string_view what);

// Checks, before any work, that `path` can receive a file: its directory
// exists and is writable, and the path (after following symlinks) is absent or
// a regular file. `flag` names the option in the error ("--json").
void check_output_file(const std::filesystem::path& path, std::string_view flag);

// A path the user named, with the flag that named it ("--json", or "the
// config" for a positional argument).
struct NamedPath {
  std::string_view flag;
  std::filesystem::path path;
};

// Refuses, before any work, two outputs that are the same file (the second
// would replace the first) and an output that is one of the inputs. Empty
// paths (an option not given) are skipped.
void check_distinct_files(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

// Writes `content` to a temporary file beside the target and renames it over
// the target. A symlink is followed (the file it points to is replaced, the
// link stays); a target that is not a regular file is refused.
void write_file_atomically(const std::filesystem::path& path, std::string_view content, std::string_view flag);

// A file that another writer (a library, a tool) fills: it writes temp(),
// a sibling of the target, and commit() moves it over the target as
// write_file_atomically does. Until then the target is untouched; the
// temporary file goes if the object does (or on an interrupt).
class OutputFile {
 public:
  OutputFile(const std::filesystem::path& target, std::string_view flag);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  const std::filesystem::path& temp() const { return temp_; }
  void commit();

 private:
  std::filesystem::path path_;    // as the user typed it, for messages
  std::filesystem::path target_;  // absolute, symlinks resolved
  std::filesystem::path temp_;
  std::string flag_;
  bool committed_ = false;
  std::unique_ptr<RemovedOnInterrupt> unfinished_;
};

// A directory that rlroute writes as a whole (`gen -o`, `synth -o`). It is
// filled in a sibling work directory and moved into place by commit(). An
// existing target is replaced only if it is empty, or if every file in it is
// one that rlroute wrote there (listed in its marker file, kMarker);
// otherwise the constructor refuses, before any work. A symlink to a
// directory is followed: the link stays, the directory it names is written.
class OutputDirectory {
 public:
  static constexpr const char* kMarker = ".rlroute-output";

  OutputDirectory(const std::filesystem::path& target, std::string_view flag);
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;
  ~OutputDirectory();  // removes the work directory unless committed

  const std::filesystem::path& work() const { return work_; }      // write here
  const std::filesystem::path& target() const { return target_; }  // absolute, symlinks resolved

  // Writes a file under work(), creating its directories.
  void write(const std::filesystem::path& relative, std::string_view content) const;

  // Writes the marker (listing every file under work()) and moves work() over
  // the target; the previous content goes only once the new one is in place.
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path work_;
  std::string flag_;
  bool committed_ = false;
  std::unique_ptr<RemovedOnInterrupt> unfinished_;  // work_, until committed
};

}  // namespace rlroute
