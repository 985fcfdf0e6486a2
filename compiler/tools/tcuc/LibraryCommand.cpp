//===- LibraryCommand.cpp - `tcuc library` --------------------------------===//
//
// Writes the kernel library: every class kernel (tcuc::segmentClassKernels)
// and every offsets kernel (tcuc::offsetsKernels) for each arch, as kernel
// files in the disk cache's layout, each with a cubin beside it when ptxas
// is at hand, so the runtime loads them with no compiler and no PTX JIT (docs/runtime.md "The kernel library"). The build
// runs it into <build>/share/tcuc/kernels and installs that directory.
// Files already there for this build id are kept; other kernel files in the
// directory (an older build's) are removed.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "Ptxas.h"

#include "tcuc/DiskCache.h"
#include "tcuc/GPU/KernelCompiler.h"
#include "tcuc/Runtime.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tcuc;
using tcuc::driver::libraryCommand;
using tcuc::driver::tcucCategory;

cl::SubCommand tcuc::driver::libraryCommand(
    "library", "Write the kernel library: every segment-class kernel and "
               "every offsets kernel for each arch, with cubins where ptxas "
               "is found");

namespace {
cl::opt<std::string> outDir("out", cl::desc("The library directory"),
                            cl::value_desc("dir"), cl::Required,
                            cl::sub(libraryCommand), cl::cat(tcucCategory));
cl::opt<std::string> archList("arch",
                              cl::desc("Comma-separated GPU architectures"),
                              cl::init("sm_80,sm_90"), cl::sub(libraryCommand),
                              cl::cat(tcucCategory));
int fail(const Twine &message) {
  errs() << "tcuc library: " << message << "\n";
  return 2;
}

/// Whether `path` holds a kernel file for exactly `spec`, `arch` and this
/// build (then it is kept, not recompiled).
bool upToDate(const std::string &path, const KernelSpec &spec,
              const std::string &arch, std::string &text) {
  KernelFile file;
  return cache::load(path, text) == cache::LoadResult::Hit &&
         parseKernelFile(text, file).ok() &&
         checkKernelFile(file, spec, arch, buildId()).ok();
}

/// A name `tcuc library` or the disk cache writes: 16 hex digits, maybe
/// with ".cubin".
bool isKernelFileName(StringRef name) {
  name.consume_back(".cubin");
  return name.size() == 16 && all_of(name, isHexDigit);
}
} // namespace

int tcuc::driver::runLibrary() {
  if (std::string e = givenPathError(outDir); !e.empty())
    return fail(e);
  SmallVector<StringRef> archs;
  StringRef(archList).split(archs, ',', -1, /*KeepEmpty=*/false);
  if (archs.empty())
    return fail("--arch: no architecture given");
  for (StringRef a : archs)
    if (a != "sm_80" && a != "sm_90")
      return fail("--arch: '" + a + "' is not sm_80 or sm_90");
  std::string ptxas;
  if (Status s = driver::findPtxas(ptxas); !s)
    return fail(s.message());
  if (std::error_code ec = sys::fs::create_directories(outDir))
    return fail("cannot create " + outDir + ": " + ec.message());
  if (Status s = cache::checkDirectory(outDir, "kernel library"); !s)
    return fail(s.message());

  StringSet<> keep;
  int compiled = 0, kept = 0, cubins = 0;
  for (StringRef a : archs) {
    std::string arch = a.str();
    std::vector<KernelSpec> specs = segmentClassKernels();
    for (const KernelSpec &spec : offsetsKernels())
      specs.push_back(spec);
    for (const KernelSpec &spec : specs) {
      std::string path = cache::filePath(outDir, spec, arch), text;
      keep.insert(sys::path::filename(path));
      bool fresh = !upToDate(path, spec, arch, text);
      if (fresh) {
        if (Status s = compileKernelFile(spec, arch, text); !s)
          return fail(s.message());
        if (Status s = cache::store(path, text); !s)
          return fail(s.message());
        ++compiled;
      } else {
        ++kept;
      }
      if (ptxas.empty())
        continue;
      // A kernel file's name fixes its PTX (spec, arch, build id), so a
      // cubin that loads is kept unless its kernel file was just remade.
      std::string binPath = cache::binaryPath(path), cubin;
      keep.insert(sys::path::filename(binPath));
      if (fresh || cache::load(binPath, cubin) != cache::LoadResult::Hit) {
        if (Status s = driver::assemble(ptxas, arch, text, cubin); !s)
          return fail(s.message() + " (on '" + spec.key() + "' for " + arch +
                      "; --ptxas none makes a PTX-only library)");
        if (Status s = cache::store(binPath, cubin); !s)
          return fail(s.message());
      }
      ++cubins;
    }
  }

  // Another build's kernels would never be read again: remove them.
  int removed = 0;
  std::error_code ec;
  for (sys::fs::directory_iterator it(outDir, ec), end; it != end && !ec;
       it.increment(ec)) {
    StringRef name = sys::path::filename(it->path());
    if (isKernelFileName(name) && !keep.contains(name) &&
        !sys::fs::remove(it->path()))
      ++removed;
  }
  outs() << "tcuc library: " << (compiled + kept) << " kernel files for "
         << archList << " in " << outDir << " (" << compiled << " compiled, "
         << kept << " up to date, " << removed << " stale removed), " << cubins
         << " cubins"
         << (ptxas.empty() ? " (no ptxas: PTX only)" : " (" + ptxas + ")")
         << "\n";
  return 0;
}
