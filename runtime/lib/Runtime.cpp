//===- Runtime.cpp - runtimes, compilers, the kernel file cache -----------===//

#include "RuntimeImpl.h"

#include "tcuc/DiskCache.h"

#include <cstdio>

using namespace tcuc;

//===----------------------------------------------------------------------===//
// The default compiler
//===----------------------------------------------------------------------===//

namespace {

std::mutex &compilerMutex() {
  static std::mutex mu;
  return mu;
}

CompileFn &compilerSlot() {
  static CompileFn fn;
  return fn;
}

/// The `tcuc compile` command that makes `spec` for `arch` into `dir`.
std::string compileCommand(const KernelSpec &spec, const std::string &arch,
                           const std::string &dir) {
  // An offsets kernel has no segment size: its offsets' width instead.
  std::string segments =
      spec.offsetBits ? " --offset-type i" + std::to_string(spec.offsetBits)
                      : " --segment " + std::to_string(spec.segmentSize);
  std::string cmd = std::string("tcuc compile --op ") +
                    (spec.isScan ? "scan" : "reduce") + segments + " --dtype " +
                    dtypeName(spec.input) + " --out-dtype " +
                    dtypeName(spec.output);
  if (spec.isScan && !spec.inclusive)
    cmd += " --exclusive";
  if (spec.isScan && spec.reverse)
    cmd += " --reverse";
  // A decayed scan's kernel: one decay per segment, one taken at launch
  // (any value compiles it), or one built in.
  if (spec.isScan && spec.segmentDecays)
    cmd += " --decay segments";
  else if (spec.isScan && spec.runtimeDecay)
    cmd += " --decay 0.5";
  else if (spec.isScan && spec.decay != 1.0) {
    char text[32];
    std::snprintf(text, sizeof(text), " --decay %.9g", spec.decay);
    cmd += text;
  }
  // A class kernel (the size at launch) is what `tcuc compile` makes of
  // the size in the class mode, given no variant (a variant picks the
  // size's own kernel).
  KernelSpec ofSize = spec;
  ofSize.runtimeSegment = false;
  ofSize.variant.clear();
  bool cls =
      spec.runtimeSegment && !spec.offsetBits &&
      resolveSegmentClass(ofSize, SegmentKernelMode::Class).key() == spec.key();
  if (cls)
    cmd = "TCUC_SEGMENT_KERNELS=class " + cmd;
  else if (!spec.variant.empty())
    cmd += " --variant " + spec.variant;
  if (spec.tilesPerWarp > 0)
    cmd += " --tiles-per-warp " + std::to_string(spec.tilesPerWarp);
  if (spec.warpsPerBlock > 0)
    cmd += " --warps-per-block " + std::to_string(spec.warpsPerBlock);
  return cmd + " --arch " + arch + " --cache-dir " +
         (dir.empty() ? std::string("DIR") : dir);
}

} // namespace

void tcuc::setDefaultCompiler(CompileFn compiler) {
  std::lock_guard<std::mutex> lock(compilerMutex());
  compilerSlot() = std::move(compiler);
}

CompileFn tcuc::defaultCompiler() {
  std::lock_guard<std::mutex> lock(compilerMutex());
  return compilerSlot();
}

//===----------------------------------------------------------------------===//
// Runtime
//===----------------------------------------------------------------------===//

Runtime::Runtime(RuntimeOptions options) : impl(std::make_unique<Impl>()) {
  impl->options = std::move(options);
  if (impl->options.diskCache) {
    impl->cacheDir = impl->options.cacheDir.empty() ? cache::defaultDirectory()
                                                    : impl->options.cacheDir;
    if (impl->cacheDir.empty())
      impl->diskWarning = "kernel disk cache off: none of TCUC_CACHE_DIR, "
                          "XDG_CACHE_HOME, HOME is set";
  }
  if (impl->options.kernelLibrary)
    impl->libraryDir = impl->options.libraryDir.empty()
                           ? cache::defaultLibraryDirectory()
                           : impl->options.libraryDir;
}

Runtime::~Runtime() {
  // A runtime that never loaded the driver owns nothing on the device.
  const cuda::Driver *d = impl->usedDriver;
  if (!d)
    return;
  cuda::ScopedContext ctx(*d);
  if (!ctx.status())
    return;
  impl->kernels.forEach([&](Kernel &k) {
    if (k.module)
      (void)d->cuModuleUnload(static_cast<cuda::CUmodule>(k.module));
  });
  std::lock_guard<std::mutex> lock(impl->scratchMu);
  for (auto &kv : impl->scratch)
    if (kv.second->ptr)
      (void)d->cuMemFree(kv.second->ptr);
}

Runtime &Runtime::global() {
  static Runtime *rt = new Runtime();
  return *rt;
}

std::string Runtime::cacheDirectory() const { return impl->cacheDir; }

std::string Runtime::libraryDirectory() const { return impl->libraryDir; }

std::string Runtime::diskCacheWarning() const {
  std::lock_guard<std::mutex> lock(impl->mu);
  return impl->diskWarning;
}

RuntimeStats Runtime::stats() const {
  std::lock_guard<std::mutex> lock(impl->mu);
  return impl->stats;
}

//===----------------------------------------------------------------------===//
// Kernel files: memory, disk, compiler
//===----------------------------------------------------------------------===//

Status Runtime::getKernelFile(const KernelSpec &spec, const std::string &arch,
                              std::string &kernelFile) {
  const KernelFile *file = nullptr;
  Status s = impl->files.get(
      spec.key() + "|" + arch,
      [&](KernelFile &f) { return impl->makeKernelFile(spec, arch, f); }, file);
  if (s)
    kernelFile = file->text;
  return s;
}

void Runtime::Impl::warnDisk(std::string message) {
  if (diskWarning == message)
    return;
  diskWarning = std::move(message);
  std::fprintf(stderr, "tcuc: warning: %s\n", diskWarning.c_str());
}

void Runtime::Impl::noteDiskWriteFailure(const Status &s) {
  std::lock_guard<std::mutex> lock(mu);
  if (!diskWrites)
    return;
  diskWrites = false;
  warnDisk("kernel disk cache is read-only from now on: " + s.message());
}

void Runtime::Impl::noteDiskRefused(const Status &s) {
  std::lock_guard<std::mutex> lock(mu);
  ++stats.diskUntrusted;
  warnDisk(s.message());
}

/// The cubin beside the kernel file at `path` (the library's, or `tcuc
/// compile --cubin`'s in the disk cache), if any, into `file`. It is
/// optional (no ptxas, no cubin) and only ever replaces the PTX beside it,
/// so a bad one is dropped silently.
static void attachCubin(const std::string &path, KernelFile &file) {
  std::string binary;
  if (cache::load(cache::binaryPath(path), binary) == cache::LoadResult::Hit)
    file.binary = std::move(binary);
}

bool Runtime::Impl::readLibrary(const KernelSpec &spec, const std::string &arch,
                                KernelFile &file) {
  if (libraryDir.empty())
    return false;
  // A missing library is the common case (not installed): said nowhere.
  if (Status d = cache::checkDirectory(libraryDir, "kernel library"); !d) {
    noteDiskRefused(d);
    return false;
  }
  std::string path = cache::filePath(libraryDir, spec, arch), text, why;
  cache::LoadResult r = cache::load(path, text, &why);
  if (r == cache::LoadResult::Miss)
    return false;
  Status s = r == cache::LoadResult::Hit ? parseKernelFile(text, file)
                                         : Status::error(why);
  if (s)
    s = checkKernelFile(file, spec, arch, buildId());
  if (!s) {
    // A damaged or foreign library file is a miss; the disk cache and the
    // compiler still work, so it is said once, not failed.
    std::lock_guard<std::mutex> lock(mu);
    warnDisk("kernel library file ignored: " + s.message());
    return false;
  }
  attachCubin(path, file);
  std::lock_guard<std::mutex> lock(mu);
  ++stats.libraryHits;
  return true;
}

Status Runtime::Impl::makeKernelFile(const KernelSpec &spec,
                                     const std::string &arch,
                                     KernelFile &file) {
  if (readLibrary(spec, arch, file))
    return Status::success();
  std::string path =
      cacheDir.empty() ? std::string() : cache::filePath(cacheDir, spec, arch);
  std::string ignored; // why a cache file was not used
  if (!path.empty()) {
    // Checked on every miss, not once: the directory may be made or changed
    // while the runtime lives.
    if (Status d = cache::checkDirectory(cacheDir); !d) {
      noteDiskRefused(d);
      ignored = d.message();
      path.clear();
    }
  }
  if (!path.empty()) {
    std::string text, why;
    cache::LoadResult r = cache::load(path, text, &why);
    if (r == cache::LoadResult::Hit) {
      // A file with a good checksum can still be stale or misplaced: its
      // header must name exactly this spec, arch and build id.
      Status s = parseKernelFile(text, file);
      if (s)
        s = checkKernelFile(file, spec, arch, buildId());
      if (s)
        attachCubin(path, file);
      std::lock_guard<std::mutex> lock(mu);
      if (s) {
        ++stats.diskHits;
        return Status::success();
      }
      ++stats.diskCorrupt;
      ignored = path + ": " + s.message();
    } else if (r == cache::LoadResult::Corrupt) {
      std::lock_guard<std::mutex> lock(mu);
      ++stats.diskCorrupt;
      ignored = why;
    } else if (r == cache::LoadResult::Untrusted) {
      // Not replaced either: a file we do not own may not be ours to
      // remove, and a rename over it would not make the directory safe.
      // Said once on stderr and in diskCacheWarning(), as for a directory.
      noteDiskRefused(Status::error(why));
      ignored = why;
      path.clear();
    }
  }

  CompileFn compile = options.compiler ? options.compiler : defaultCompiler();
  if (!compile) {
    std::string where =
        path.empty() ? std::string("(the disk cache is off)") : "at " + path;
    return Status::error(
        "kernel '" + spec.key() + "' for " + arch +
        " is not in the kernel cache " + where +
        ", and this tcuc build has no compiler. Make it on a machine with "
        "the tcuc compiler: `" +
        compileCommand(spec, arch, cacheDir) +
        "`, then copy that directory here (or point TCUC_CACHE_DIR at it); "
        "or link TCUC::JIT (the compiler), which compiles it on first use" +
        (ignored.empty() ? std::string()
                         : " (the cached file was ignored: " + ignored + ")"));
  }
  std::string text;
  Status s = compile(spec, arch, text);
  {
    std::lock_guard<std::mutex> lock(mu);
    ++stats.compiles;
  }
  if (!s)
    return s.withContext("compiling '" + spec.key() + "' for " + arch);
  s = parseKernelFile(text, file);
  if (s)
    s = checkKernelFile(file, spec, arch, buildId());
  if (!s)
    return s.withContext("the compiler's output for '" + spec.key() + "'");

  bool write;
  {
    std::lock_guard<std::mutex> lock(mu);
    write = diskWrites && !path.empty();
  }
  if (write) {
    if (Status w = cache::store(path, text); !w) {
      noteDiskWriteFailure(w);
    } else {
      std::lock_guard<std::mutex> lock(mu);
      ++stats.diskStores;
    }
  }
  return Status::success();
}

std::string tcuc::kernelCachePath(const KernelSpec &spec,
                                  const std::string &arch,
                                  const std::string &cacheDir) {
  std::string dir = cacheDir.empty() ? cache::defaultDirectory() : cacheDir;
  return dir.empty() ? std::string() : cache::filePath(dir, spec, arch);
}

Status tcuc::storeKernelFile(const KernelSpec &spec, const std::string &arch,
                             const std::string &kernelFile,
                             const std::string &cacheDir) {
  KernelFile file;
  Status s = parseKernelFile(kernelFile, file);
  if (s)
    s = checkKernelFile(file, spec, arch, buildId());
  if (!s)
    return s;
  std::string path = kernelCachePath(spec, arch, cacheDir);
  if (path.empty())
    return Status::error("no kernel cache directory: pass one, or set "
                         "TCUC_CACHE_DIR, XDG_CACHE_HOME or HOME");
  return cache::store(path, kernelFile);
}
