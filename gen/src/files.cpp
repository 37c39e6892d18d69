#include "rlroute/gen/files.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "rlroute/gen/interrupt.hpp"

namespace rlroute {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(std::string_view flag, const fs::path& path, std::string_view reason) {
  if (flag.empty()) throw std::runtime_error(fmt::format("{}: {}", path.string(), reason));
  throw std::runtime_error(fmt::format("{} {}: {}", flag, path.string(), reason));
}

fs::path without_trailing_separator(fs::path p) {
  if (!p.has_filename() && p.has_parent_path() && p != p.root_path()) p = p.parent_path();
  return p;
}

// Absolute, normalized, without a trailing separator ("out/" and "out" are the
// same target), with symlinks resolved. A symlink whose target does not exist
// yet is followed too: weakly_canonical stops at it, and the rename would then
// replace the link with a regular file.
fs::path resolve(const fs::path& path) {
  std::error_code ec;
  fs::path p = without_trailing_separator(fs::absolute(path, ec));
  for (int hops = 0; hops < 40; ++hops) {  // 40: the kernel's own limit on a chain of links
    const fs::path name = p.filename();
    if (name.empty() || name == "." || name == "..") break;
    const fs::path dir = fs::weakly_canonical(p.parent_path(), ec);
    if (ec) break;
    p = dir / name;
    if (!fs::is_symlink(fs::symlink_status(p, ec))) break;
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) break;
    p = without_trailing_separator(target.is_absolute() ? target : dir / target);
  }
  const fs::path canonical = fs::weakly_canonical(p, ec);
  return without_trailing_separator(ec ? p.lexically_normal() : canonical);
}

// After resolve(), a path that is still a symlink is one that cannot be
// followed (a loop, or a chain longer than 40): writing there would replace it.
void refuse_unfollowable_link(std::string_view flag, const fs::path& path, const fs::path& target) {
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(target, ec))) fail(flag, path, "is a symbolic link that cannot be followed");
}

// A name in `dir` that nothing else uses: <stem>.rlroute-<tag>-<pid>.
fs::path sibling(const fs::path& target, std::string_view tag) {
  return target.parent_path() / fmt::format("{}.rlroute-{}-{}", target.filename().string(), tag, ::getpid());
}

// Writes `content` to `path`; on failure the error names `shown` (what the
// user typed, not a temporary name) and the system's reason (a full disk).
void write_plain(const fs::path& path, std::string_view content, std::string_view flag, const fs::path& shown,
                 std::ios::openmode mode = std::ios::trunc) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | mode);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.flush();
  const int err = errno;
  out.close();
  if (!out) fail(flag, shown, fmt::format("cannot write: {}", err ? std::strerror(err) : "write error"));
}

// A name of one of rlroute's own streams (--json /dev/stdout): written in
// place, appended, never renamed over (the shell's redirection target would be
// replaced).
bool is_stream(const fs::path& path) {
  const std::string p = path.lexically_normal().string();
  return p == "/dev/stdout" || p == "/dev/stderr" || p.rfind("/dev/fd/", 0) == 0 || p.rfind("/proc/self/fd/", 0) == 0;
}

// "out/" names a directory: never a file called "out".
void refuse_directory_syntax(const fs::path& path, std::string_view flag) {
  const std::string p = path.string();
  if (!p.empty() && (p.back() == '/' || path.filename() == "." || path.filename() == "..")) {
    fail(flag, path, "names a directory; name a file");
  }
}

std::set<std::string> files_under(const fs::path& dir) {
  std::set<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_directory()) files.insert(entry.path().lexically_relative(dir).generic_string());
  }
  return files;
}

// The first entry under `dir` that is not one of `listed` (files relative to
// `dir`) or the marker, nor a directory on the way to one of them; empty if
// none. Links are entries of their own (rlroute writes none), never followed.
std::string first_entry_not_listed(const fs::path& dir, const std::set<std::string>& listed) {
  std::set<std::string> parents;
  for (const std::string& file : listed) {
    for (fs::path p = fs::path(file).parent_path(); !p.empty(); p = p.parent_path()) parents.insert(p.generic_string());
  }
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    // lexically: fs::relative would follow a link to its target
    const std::string name = entry.path().lexically_relative(dir).generic_string();
    const bool real_directory = entry.is_directory() && !entry.is_symlink();
    if (real_directory ? !parents.count(name) : (name != OutputDirectory::kMarker && !listed.count(name))) {
      return name + (entry.is_symlink() ? " (a symbolic link)" : real_directory ? "/" : "");
    }
  }
  return "";
}

}  // namespace

std::string read_regular_file(const fs::path& path, std::size_t max_bytes, std::string_view what) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    fail("", path, fmt::format("cannot read {}: {}", what, (ec ? ec : std::make_error_code(std::errc::no_such_file_or_directory)).message()));
  }
  if (!fs::is_regular_file(st)) fail("", path, fmt::format("cannot read {}: not a regular file", what));
  const auto size = fs::file_size(path, ec);
  if (ec) fail("", path, fmt::format("cannot read {}", what));
  if (size > max_bytes) {
    fail("", path, fmt::format("{} is {} bytes; the limit is {} bytes", what, size, max_bytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("", path, fmt::format("cannot read {}", what));
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (static_cast<std::size_t>(in.gcount()) != size) fail("", path, fmt::format("cannot read {}", what));
  return text;
}

void check_output_file(const fs::path& path, std::string_view flag) {
  if (path.empty()) fail(flag, path, "empty path");
  if (is_stream(path)) return;
  refuse_directory_syntax(path, flag);
  const fs::path target = resolve(path);
  refuse_unfollowable_link(flag, path, target);
  std::error_code ec;
  const fs::file_status st = fs::status(target, ec);
  if (fs::exists(st) && !fs::is_regular_file(st)) fail(flag, path, "exists and is not a regular file");
  const fs::path dir = target.parent_path();
  if (!fs::is_directory(dir, ec)) fail(flag, path, fmt::format("directory {} does not exist", dir.string()));
  if (::access(dir.c_str(), W_OK) != 0) fail(flag, path, fmt::format("directory {} is not writable", dir.string()));
}

void check_distinct_files(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
  // Two names of one file: the same resolved path, or (both existing) the same
  // inode, a hard link.
  const auto same = [](const fs::path& a, const fs::path& b) {
    std::error_code ec;
    if (resolve(a) == resolve(b)) return true;
    return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
  };
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& out = outputs[i];
    if (out.path.empty() || is_stream(out.path)) continue;
    for (const NamedPath& in : inputs) {
      if (!in.path.empty() && same(out.path, in.path)) {
        fail(out.flag, out.path, fmt::format("is {}, an input; not overwriting it", in.flag));
      }
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (!outputs[j].path.empty() && !is_stream(outputs[j].path) && same(out.path, outputs[j].path)) {
        fail(out.flag, out.path, fmt::format("is also the output of {}; name a different file for each", outputs[j].flag));
      }
    }
  }
}

void write_file_atomically(const fs::path& path, std::string_view content, std::string_view flag) {
  check_output_file(path, flag);
  if (is_stream(path)) {
    write_plain(path, content, flag, path, std::ios::app);
    return;
  }
  OutputFile out(path, flag);
  write_plain(out.temp(), content, flag, path);
  out.commit();
}

OutputFile::OutputFile(const fs::path& path, std::string_view flag)
    : path_(path), target_(resolve(path)), temp_(sibling(target_, "tmp")), flag_(flag) {
  if (is_stream(path)) fail(flag, path, "must be a file (this output is written whole, then moved into place)");
  check_output_file(path, flag);
  unfinished_ = std::make_unique<RemovedOnInterrupt>(temp_);
}

OutputFile::~OutputFile() {
  std::error_code ec;
  if (!committed_) fs::remove(temp_, ec);
}

void OutputFile::commit() {
  std::error_code ec;
  fs::rename(temp_, target_, ec);
  if (ec) fail(flag_, path_, fmt::format("cannot write: {}", ec.message()));
  committed_ = true;
  unfinished_->release();
}

OutputDirectory::OutputDirectory(const fs::path& target, std::string_view flag)
    : target_(resolve(target)), flag_(flag) {
  if (target.empty()) fail(flag_, target, "empty path");
  refuse_unfollowable_link(flag_, target, target_);
  std::error_code ec;
  const fs::file_status st = fs::status(target_, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st)) fail(flag_, target, "exists and is not a directory");
    if (target_ == resolve(fs::current_path()) || target_ == target_.root_path()) {
      fail(flag_, target, "is the current or the root directory; name a directory for the output");
    }
    if (!fs::is_empty(target_, ec)) {
      std::set<std::string> ours;
      std::ifstream marker(target_ / kMarker);
      if (!marker) {
        fail(flag_, target, fmt::format("directory exists and is not an rlroute output (no {}); not overwriting",
                                        kMarker));
      }
      for (std::string line; std::getline(marker, line);) ours.insert(line);
      if (const std::string theirs = first_entry_not_listed(target_, ours); !theirs.empty()) {
        fail(flag_, target, fmt::format("holds {}, which rlroute did not write; not overwriting", theirs));
      }
    }
  }
  const fs::path parent = target_.parent_path();
  fs::create_directories(parent, ec);
  if (!fs::is_directory(parent) || ::access(parent.c_str(), W_OK) != 0) {
    fail(flag_, target, fmt::format("directory {} is not writable", parent.string()));
  }
  work_ = sibling(target_, "tmp");
  unfinished_ = std::make_unique<RemovedOnInterrupt>(work_);
  fs::remove_all(work_, ec);
  if (!fs::create_directory(work_, ec)) fail(flag_, target, fmt::format("cannot create {}", work_.string()));
}

OutputDirectory::~OutputDirectory() {
  std::error_code ec;
  if (!committed_) fs::remove_all(work_, ec);
}

void OutputDirectory::write(const fs::path& relative, std::string_view content) const {
  const fs::path path = work_ / relative;
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) fail(flag_, target_ / relative.parent_path(), fmt::format("cannot create: {}", ec.message()));
  write_plain(path, content, flag_, target_ / relative);
}

void OutputDirectory::commit() {
  std::string listing;
  for (const std::string& file : files_under(work_)) listing += file + "\n";
  write_plain(work_ / kMarker, listing, flag_, target_ / kMarker);
  std::error_code ec;
  fs::path old;
  if (fs::exists(target_, ec)) {
    old = sibling(target_, "old");
    fs::remove_all(old, ec);
    fs::rename(target_, old, ec);
    if (ec) fail(flag_, target_, fmt::format("cannot move the previous output aside: {}", ec.message()));
  }
  fs::rename(work_, target_, ec);
  if (ec) {
    std::error_code ignored;
    if (!old.empty()) fs::rename(old, target_, ignored);
    fail(flag_, target_, fmt::format("cannot move the output into place: {}", ec.message()));
  }
  committed_ = true;
  unfinished_->release();
  if (!old.empty()) fs::remove_all(old, ec);
}

}  // namespace rlroute
