//===- DiskCache.h - kernel files on disk, keyed and checked ----*- C++ -*-===//
//
// One file per (spec, arch, build id) under a per-user directory. A file
// is `tcuc-cache 1 <16 hex digits: FNV-1a 64 of the kernel file> <bytes>` on
// its first line, then the kernel file. Writes go to a temporary file in the
// same directory and are renamed into place, so readers see a whole file or
// none; reads check the hash and length, so a damaged file is a miss, never
// trusted. No locking is needed: two writers of one key write the same bytes.
//
// A cache file is loaded code, so only a directory nobody else can write to
// is read from: it must be owned by this user (or root) and not
// world-writable, and each file must be a regular file owned by this user
// (or root) and not world-writable. Anything else is refused, not trusted.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_DISKCACHE_H
#define TCUC_DISKCACHE_H

#include "tcuc/Spec.h"
#include "tcuc/Status.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace tcuc {

/// The release of this tcuc (the project VERSION, e.g. "0.7.0"): what
/// `tcuc --version` and kernel files report.
const char *version();

/// The build id of the kernels this tcuc makes and accepts: 16 hex digits
/// of a hash of the sources that determine them (cmake/TCUCBuildId.cmake).
/// Every cache key and kernel file carries it, so a change to those sources
/// makes cached kernels stale while a release bump alone does not.
const char *buildId();

namespace cache {

/// 64-bit FNV-1a.
uint64_t fnv1a64(std::string_view bytes);

/// The directory the cache uses when no other is given: $TCUC_CACHE_DIR,
/// else $XDG_CACHE_HOME/tcuc, else $HOME/.cache/tcuc; empty when none of
/// these is set.
std::string defaultDirectory();

/// The kernel library the runtime reads before the disk cache: kernel files
/// `tcuc library` made when tcuc was built, in the disk cache's layout, each
/// with its cubin (binaryPath) where ptxas was at hand (docs/runtime.md
/// "The kernel library"). $TCUC_KERNEL_LIBRARY when set (set and empty: no
/// library), else where tcuc installs it, <prefix>/share/tcuc/kernels.
std::string defaultLibraryDirectory();

/// The cubin (SASS for the kernel file's arch) stored beside the kernel
/// file at `kernelPath`, in the same checked format.
std::string binaryPath(const std::string &kernelPath);

/// The file name for a kernel: 16 hex digits of fnv1a64("key|arch|build").
std::string fileName(const KernelSpec &spec, const std::string &arch,
                     const std::string &build = tcuc::buildId());

/// `dir`/fileName(...).
std::string filePath(const std::string &dir, const KernelSpec &spec,
                     const std::string &arch,
                     const std::string &build = tcuc::buildId());

/// Whether kernel files may be loaded from `dir`: an error naming the reason
/// when `dir` exists but is not a directory, is owned by another user than
/// this one or root, or is world-writable. A missing `dir` is fine (store()
/// creates it, owned by this user).
/// `what` names the directory in messages ("kernel cache", "kernel
/// library").
Status checkDirectory(const std::string &dir,
                      std::string_view what = "kernel cache");

enum class LoadResult { Hit, Miss, Corrupt, Untrusted };

/// Reads the cache file at `path` into `kernelFile`. Miss: no such file.
/// Corrupt: unreadable, bad first line, wrong length or hash (`why` says
/// which). Untrusted: not a regular file, owned by another user than this
/// one or root, or world-writable (`why` says which). The kernel file itself
/// is not parsed here; the directory is not checked (checkDirectory).
LoadResult load(const std::string &path, std::string &kernelFile,
                std::string *why = nullptr);

/// Writes `kernelFile` to `path` atomically, creating missing directories.
/// Refuses a directory that checkDirectory() rejects.
Status store(const std::string &path, const std::string &kernelFile);

} // namespace cache
} // namespace tcuc

#endif // TCUC_DISKCACHE_H
