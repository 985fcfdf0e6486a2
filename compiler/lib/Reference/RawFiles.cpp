//===- RawFiles.cpp - raw little-endian data files ------------------------===//
//
// The files `tcuc run --input/--output` (and `tcuc compile -o`, `tcuc tune
// -o`) read and write. Writes never leave a partial file: a failed write
// keeps the file it would have replaced.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Reference/Reference.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace tcuc::ref {

static bool fail(std::string *error, std::string message) {
  if (error)
    *error = std::move(message);
  return false;
}

bool readRawFile(const std::string &path, DType t, int64_t n,
                 std::vector<uint8_t> &data, std::string *error) {
  size_t elemBytes = dtypeBytes(t);
  if (n < 0 ||
      static_cast<uint64_t>(n) > std::numeric_limits<size_t>::max() / elemBytes)
    return fail(error, path + ": invalid element count " + std::to_string(n));
  size_t expected = static_cast<size_t>(n) * elemBytes;
  std::string what =
      " (" + std::to_string(n) + " elements of " + dtypeName(t) + ")";

  // Check the size before reading so a wrong (possibly huge) file is
  // rejected without being loaded.
  std::error_code ec;
  uintmax_t actual = std::filesystem::file_size(path, ec);
  if (ec)
    return fail(error, path + ": cannot read: " + ec.message() + "; expected " +
                           std::to_string(expected) + " bytes" + what);
  if (actual != expected)
    return fail(error, path + ": expected " + std::to_string(expected) +
                           " bytes" + what + ", file has " +
                           std::to_string(actual) + " bytes");

  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return fail(error, path + ": cannot open: " + std::strerror(errno));
  data.resize(expected);
  size_t got = expected ? std::fread(data.data(), 1, expected, f) : 0;
  // A file that changed size after the check is still caught here.
  bool extra = std::fgetc(f) != EOF;
  std::fclose(f);
  if (got != expected || extra)
    return fail(error, path + ": expected " + std::to_string(expected) +
                           " bytes" + what + ", read " + std::to_string(got) +
                           (extra ? " and more" : "") + " bytes");
  return true;
}

/// Writes all of `data` to `fd`; false with errno set on failure.
static bool writeAll(int fd, const void *data, size_t bytes, size_t &put) {
  const char *p = static_cast<const char *>(data);
  put = 0;
  while (put < bytes) {
    ssize_t w = ::write(fd, p + put, bytes - put);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    put += size_t(w);
  }
  return true;
}

bool writeRawFile(const std::string &path, const void *data, size_t bytes,
                  std::string *error) {
  if (path.empty())
    return fail(error, "empty output path");
  size_t put = 0;
  if (path == "-") {
    std::fflush(stdout);
    if (!writeAll(STDOUT_FILENO, data, bytes, put))
      return fail(error, "standard output: wrote " + std::to_string(put) +
                             " of " + std::to_string(bytes) +
                             " bytes: " + std::strerror(errno));
    return true;
  }
  // The temporary file sits beside `path` so that the rename stays on one
  // file system (rename is atomic only there).
  std::string tmp = path + ".tmp.XXXXXX";
  int fd = ::mkstemp(tmp.data());
  if (fd < 0)
    return fail(error, path + ": cannot create: " + std::strerror(errno));
  auto abandon = [&](const std::string &message) {
    int saved = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    return fail(error, path + ": " + message + ": " + std::strerror(saved) +
                           " (nothing written; an existing file is kept)");
  };
  if (!writeAll(fd, data, bytes, put))
    return abandon("wrote " + std::to_string(put) + " of " +
                   std::to_string(bytes) + " bytes");
  // Data on disk before the name points at it.
  if (::fsync(fd) != 0)
    return abandon("cannot flush");
  // mkstemp made it 0600; a data file gets what a plain create would
  // (0666 less the umask).
  mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd, 0666 & ~mask) != 0)
    return abandon("cannot set its mode");
  if (::close(fd) != 0) {
    int saved = errno;
    ::unlink(tmp.c_str());
    return fail(error, path + ": cannot write: " + std::strerror(saved) +
                           " (nothing written; an existing file is kept)");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::unlink(tmp.c_str());
    return fail(error, path + ": cannot replace: " + std::strerror(saved));
  }
  return true;
}

bool sameFile(const std::string &a, const std::string &b) {
  struct stat sa, sb;
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0)
    return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

} // namespace tcuc::ref
