//===- DiskCache.cpp - kernel files on disk -------------------------------===//

#include "tcuc/DiskCache.h"

// TCUC_BUILD_ID, generated at build time (cmake/TCUCBuildId.cmake).
#include "tcuc/BuildId.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tcuc;

#ifndef TCUC_KERNEL_LIBRARY_DIR
#error                                                                         \
    "TCUC_KERNEL_LIBRARY_DIR must be defined by the build (runtime/CMakeLists.txt)"
#endif

#ifndef TCUC_VERSION
#error "TCUC_VERSION must be defined by the build (runtime/CMakeLists.txt)"
#endif

const char *tcuc::version() { return TCUC_VERSION; }
const char *tcuc::buildId() { return TCUC_BUILD_ID; }

uint64_t cache::fnv1a64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

namespace {

std::string hex16(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016" PRIx64, v);
  return buf;
}

std::string errnoText(const std::string &what, const std::string &path) {
  return what + " " + path + ": " + std::strerror(errno);
}

const char *kMagic = "tcuc-cache 1 ";

/// Why a directory or file with status `st` must not be trusted, or empty:
/// another user than this one or root could change what it holds.
std::string untrustedBecause(const struct stat &st) {
  if (st.st_uid != geteuid() && st.st_uid != 0)
    return "owned by another user (uid " + std::to_string(st.st_uid) +
           "; this process runs as uid " + std::to_string(geteuid()) + ")";
  if (st.st_mode & S_IWOTH)
    return "world-writable (mode " + [&] {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "%04o", unsigned(st.st_mode & 07777));
      return std::string(buf);
    }() + ")";
  return "";
}

/// mkdir -p: creates each missing component of `dir`.
Status makeDirectories(const std::string &dir) {
  if (dir.empty())
    return Status::success();
  for (size_t pos = 1;; ++pos) {
    pos = dir.find('/', pos);
    std::string prefix = dir.substr(0, pos);
    if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST)
      return Status::error(errnoText("cannot create directory", prefix));
    if (pos == std::string::npos)
      break;
  }
  struct stat st;
  if (stat(dir.c_str(), &st) != 0)
    return Status::error(errnoText("cannot access", dir));
  if (!S_ISDIR(st.st_mode))
    return Status::error(dir + " is not a directory");
  return Status::success();
}

bool writeAll(int fd, const char *data, size_t size) {
  while (size > 0) {
    ssize_t w = ::write(fd, data, size);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    data += w;
    size -= static_cast<size_t>(w);
  }
  return true;
}

} // namespace

Status cache::checkDirectory(const std::string &dir, std::string_view what) {
  std::string name(what);
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) {
    if (errno == ENOENT)
      return Status::success();
    return Status::error(
        errnoText("cannot access " + name + " directory", dir));
  }
  if (!S_ISDIR(st.st_mode))
    return Status::error(name + " directory " + dir + " is not a directory");
  if (std::string why = untrustedBecause(st); !why.empty())
    return Status::error("refusing the " + name + " directory " + dir +
                         ": it is " + why +
                         "; kernels are code, so only a directory nobody "
                         "else can write to is used");
  return Status::success();
}

std::string cache::defaultDirectory() {
  auto env = [](const char *name) -> std::string {
    const char *v = std::getenv(name);
    return v ? v : "";
  };
  if (std::string d = env("TCUC_CACHE_DIR"); !d.empty())
    return d;
  if (std::string d = env("XDG_CACHE_HOME"); !d.empty())
    return d + "/tcuc";
  if (std::string d = env("HOME"); !d.empty())
    return d + "/.cache/tcuc";
  return "";
}

std::string cache::defaultLibraryDirectory() {
  if (const char *v = std::getenv("TCUC_KERNEL_LIBRARY"))
    return v;
  return TCUC_KERNEL_LIBRARY_DIR;
}

std::string cache::binaryPath(const std::string &kernelPath) {
  return kernelPath + ".cubin";
}

std::string cache::fileName(const KernelSpec &spec, const std::string &arch,
                            const std::string &build) {
  return hex16(fnv1a64(spec.key() + "|" + arch + "|" + build));
}

std::string cache::filePath(const std::string &dir, const KernelSpec &spec,
                            const std::string &arch, const std::string &build) {
  return dir + "/" + fileName(spec, arch, build);
}

cache::LoadResult cache::load(const std::string &path, std::string &kernelFile,
                              std::string *why) {
  auto corrupt = [&](const std::string &reason) {
    if (why)
      *why = path + ": " + reason;
    return LoadResult::Corrupt;
  };
  // O_NOFOLLOW: a symbolic link in the cache could point anywhere.
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR)
      return LoadResult::Miss;
    if (errno == ELOOP) {
      if (why)
        *why = path + ": a symbolic link, not loaded";
      return LoadResult::Untrusted;
    }
    return corrupt(std::string("cannot open: ") + std::strerror(errno));
  }
  struct stat st;
  std::string untrusted;
  if (fstat(fd, &st) != 0)
    untrusted = std::string("cannot stat: ") + std::strerror(errno);
  else if (!S_ISREG(st.st_mode))
    untrusted = "not a regular file";
  else if (std::string because = untrustedBecause(st); !because.empty())
    untrusted = because;
  if (!untrusted.empty()) {
    ::close(fd);
    if (why)
      *why = path + ": " + untrusted + ", not loaded";
    return LoadResult::Untrusted;
  }
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    ::close(fd);
    return corrupt(std::string("cannot open: ") + std::strerror(errno));
  }
  std::string bytes;
  char buf[1 << 16];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof(buf), f)) > 0)
    bytes.append(buf, got);
  bool readError = std::ferror(f);
  std::fclose(f);
  if (readError)
    return corrupt("read error");

  // "tcuc-cache 1 <16 hex> <decimal bytes>\n"
  size_t eol = bytes.find('\n');
  if (eol == std::string::npos || bytes.compare(0, strlen(kMagic), kMagic) != 0)
    return corrupt("no 'tcuc-cache 1' first line");
  std::string line = bytes.substr(strlen(kMagic), eol - strlen(kMagic));
  size_t space = line.find(' ');
  if (space != 16 || space + 1 >= line.size())
    return corrupt("malformed first line");
  std::string hash = line.substr(0, 16);
  std::string count = line.substr(17);
  if (count.size() > 18 ||
      count.find_first_not_of("0123456789") != std::string::npos)
    return corrupt("malformed byte count");
  uint64_t expected = std::strtoull(count.c_str(), nullptr, 10);
  std::string_view body(bytes.data() + eol + 1, bytes.size() - eol - 1);
  if (body.size() != expected)
    return corrupt("length " + std::to_string(body.size()) + ", expected " +
                   count);
  if (hex16(fnv1a64(body)) != hash)
    return corrupt("content hash mismatch");
  kernelFile = std::string(body);
  return LoadResult::Hit;
}

Status cache::store(const std::string &path, const std::string &kernelFile) {
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  if (slash == 0)
    dir = "/";
  if (Status s = makeDirectories(dir); !s)
    return s;
  if (Status s = checkDirectory(dir); !s)
    return s;

  // A unique temporary name in the same directory, so that rename() is
  // atomic (same file system) and concurrent writers never share a file.
  std::string tmp = path + ".tmp.XXXXXX";
  int fd = mkstemp(tmp.data());
  if (fd < 0)
    return Status::error(errnoText("cannot create a file in", dir));
  // mkstemp makes 0600 files; cache entries are not secret.
  (void)fchmod(fd, 0644);
  std::string header = std::string(kMagic) + hex16(fnv1a64(kernelFile)) + " " +
                       std::to_string(kernelFile.size()) + "\n";
  bool ok = writeAll(fd, header.data(), header.size()) &&
            writeAll(fd, kernelFile.data(), kernelFile.size());
  ok = (::close(fd) == 0) && ok;
  // No fsync: a file torn by a crash fails the hash check and is rewritten.
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    Status s = Status::error(errnoText("cannot write", path));
    ::unlink(tmp.c_str());
    return s;
  }
  return Status::success();
}
