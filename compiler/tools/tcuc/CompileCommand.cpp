//===- CompileCommand.cpp - `tcuc compile` --------------------------------===//
//
// Compiles one kernel spec to a kernel file: the PTX of its kernels behind
// the launch plan (docs/kernel-file.md). `--cache-dir` also stores it in a
// runtime kernel cache, which is how a GPU machine without LLVM gets its
// kernels; `--cubin` a cubin beside it, which that machine loads without
// the driver's PTX JIT.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "Ptxas.h"
#include "SpecOptions.h"

#include "tcuc/DiskCache.h"
#include "tcuc/GPU/KernelCompiler.h"
#include "tcuc/Reference/Reference.h"
#include "tcuc/Runtime.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tcuc;
using tcuc::driver::compileCommand;
using tcuc::driver::givenPathError;
using tcuc::driver::tcucCategory;

cl::SubCommand tcuc::driver::compileCommand(
    "compile", "Compile a segmented reduce/scan to PTX (a tcuc kernel file)");

namespace {
cl::opt<std::string>
    arch("arch",
         cl::desc("GPU architecture, sm_80 or newer (sm_80..sm_89 run "
                  "sm_80 kernels, sm_90 and later sm_90 kernels: the file "
                  "and the cache key name that one; --cubin assembles for "
                  "the chip given), optionally with the GPU model whose own "
                  "tuned rows the cost model reads first (sm_90:h200; the "
                  "runtime names it where it has rows)"),
         cl::value_desc("sm_XX[:MODEL]"), cl::init("sm_90"),
         cl::sub(compileCommand), cl::cat(tcucCategory));
cl::opt<std::string> outputPath("o", cl::desc("Output file ('-' = stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::sub(compileCommand), cl::cat(tcucCategory));
cl::opt<std::string>
    cacheDir("cache-dir",
             cl::desc("Also store the kernel in this runtime kernel cache "
                      "directory"),
             cl::init(""), cl::sub(compileCommand), cl::cat(tcucCategory));

cl::opt<bool>
    cubin("cubin",
          cl::desc("With --cache-dir: also store the kernel's cubin (SASS "
                   "for --arch, made by ptxas) beside it, which the runtime "
                   "loads instead of JIT-compiling the PTX"),
          cl::init(false), cl::sub(compileCommand), cl::cat(tcucCategory));
int fail(const Twine &message) {
  errs() << "tcuc compile: " << message << "\n";
  return 2;
}
} // namespace

int tcuc::driver::runCompile() {
  KernelSpec spec;
  std::string error;
  if (!parseSpecOptions(spec, error))
    return fail(error);
  // The kernel the runtime runs for this size: its class kernel, which
  // takes the size at launch, where it has one (two sizes of one class give
  // the same file).
  spec = resolveSegmentClass(spec);
  for (const cl::opt<std::string> *path : {&outputPath, &cacheDir})
    if (std::string e = givenPathError(*path); !e.empty())
      return fail(e);
  std::string ptxas;
  if (cubin) {
    if (cacheDir.empty())
      return fail("--cubin needs --cache-dir (the cubin is stored beside "
                  "the cached kernel file)");
    if (Status s = driver::findPtxas(ptxas); !s)
      return fail(s.message());
    if (ptxas.empty())
      return fail("--cubin: no ptxas found (on PATH, in $CUDA_HOME/bin or "
                  "/usr/local/cuda/bin) or --ptxas none; give --ptxas PATH, "
                  "or leave --cubin off "
                  "for PTX that the driver JIT-compiles");
  }
  // The kernels the chip runs (docs/gpus.md): what is compiled and cached.
  std::string why, target = kernelTargetFor(arch, &why);
  if (target.empty())
    return fail("--arch: " + why);
  // A spec whose strategy no tuned table chooses (a class kernel, a given
  // variant) is one kernel for every model of the arch: the runtime looks
  // it up under the arch alone (kernelTarget), so it is stored there.
  if (size_t colon = target.find(':'); colon != std::string::npos)
    target =
        kernelTarget(spec, target.substr(0, colon), target.substr(colon + 1));
  std::string chip, model;
  splitTarget(arch, chip, model);
  if (chip != target.substr(0, target.find(':')))
    errs() << "tcuc compile: note: " << chip << " runs the "
           << target.substr(0, target.find(':'))
           << " kernels (PTX the driver JIT-compiles for it)"
           << (cubin ? "; the cubin is assembled for " + chip : "") << "\n";
  std::string file;
  if (Status s = compileKernelFile(spec, target, file); !s)
    return fail(s.message());
  if (!cacheDir.empty())
    if (Status s = storeKernelFile(spec, target, file, cacheDir); !s)
      return fail(s.message());
  if (cubin) {
    std::string binary;
    if (Status s = driver::assemble(ptxas, arch, file, binary); !s)
      return fail(s.message());
    if (Status s = cache::store(
            cache::binaryPath(kernelCachePath(spec, target, cacheDir)), binary);
        !s)
      return fail(s.message());
  }
  if (outputPath == "-" && !cacheDir.empty())
    return 0;
  if (!ref::writeRawFile(outputPath, file.data(), file.size(), &error))
    return fail(error);
  return 0;
}
