//===- RunCommand.cpp - `tcuc run` ----------------------------------------===//
//
// Compiles the kernel for the spec (CPU: the ExecutionEngine; GPU: the
// runtime, which compiles on a cache miss), then RunJob makes or reads the
// data, runs it and with --check compares against a float64 reference.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "RunJob.h"
#include "SpecOptions.h"

#include "tcuc/CPU/CPUExecutor.h"
#include "tcuc/GPU/KernelCompiler.h"
#include "tcuc/Runtime.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;
using namespace tcuc;
using tcuc::driver::givenPathError;
using tcuc::driver::runCommand;
using tcuc::driver::tcucCategory;

cl::SubCommand tcuc::driver::runCommand(
    "run", "Compile a segmented reduce/scan, run it and optionally check it");

namespace {
cl::opt<std::string> numElements("n",
                                 cl::desc("Number of input elements (>= 1)"),
                                 cl::value_desc("N"), cl::init("1048576"),
                                 cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<std::string>
    device("device",
           cl::desc("gpu, cpu, or auto (default: gpu when a CUDA GPU is "
                    "usable, else cpu)"),
           cl::init("auto"), cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<std::string> seed("seed", cl::desc("Seed of the random input"),
                          cl::value_desc("X"), cl::init("1"),
                          cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<std::string> inputFile("input",
                               cl::desc("Raw little-endian input of n elements "
                                        "(instead of random data)"),
                               cl::init(""), cl::sub(runCommand),
                               cl::cat(tcucCategory));
cl::opt<std::string> outputFile("output",
                                cl::desc("Write the raw output here ('-': "
                                         "standard output; the report then "
                                         "goes to standard error)"),
                                cl::init(""), cl::sub(runCommand),
                                cl::cat(tcucCategory));
cl::opt<bool> check("check",
                    cl::desc("Compare with a float64 reference; exit 1 on "
                             "mismatch"),
                    cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<bool> json("json", cl::desc("Print one JSON object"),
                   cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<std::string> offsetsFile(
    "offsets",
    cl::desc("Segments of any lengths from this file of k+1 CSR offsets "
             "(raw little-endian int64: the first 0, nondecreasing, the "
             "last n; empty segments allowed) instead of --segment; --n "
             "then comes from the last offset"),
    cl::value_desc("FILE"), cl::init(""), cl::sub(runCommand),
    cl::cat(tcucCategory));

int fail(const Twine &message) {
  errs() << "tcuc run: " << message << "\n";
  return 2;
}
} // namespace

int tcuc::driver::runRun() {
  driver::RunRequest request;
  std::string error;
  bool csr = offsetsFile.getNumOccurrences() > 0;
  if (!parseSpecOptions(request.spec, csr, error))
    return fail(error);
  if (request.spec.offsetBits && !csr)
    return fail("--offset-type needs --offsets FILE (the segments to run)");
  if (!driver::decimalFlag(numElements, request.n, error) ||
      !driver::decimalFlag(seed, request.seed, error))
    return fail(error);
  if (csr) {
    if (std::string e = givenPathError(offsetsFile); !e.empty())
      return fail(e);
    if (!driver::readOffsetsFile(offsetsFile, request.spec.offsetBits,
                                 request.offsets, error))
      return fail(error);
    int64_t last = request.offsets.back();
    if (numElements.getNumOccurrences() && request.n != last)
      return fail("--n " + Twine(request.n) + " is not the last offset, " +
                  Twine(last) + " (leave --n out: the offsets give it)");
    request.n = last;
  } else if (request.n < 1) {
    return fail("--n must be >= 1, got " + Twine(request.n));
  }
  for (const cl::opt<std::string> *path : {&inputFile, &outputFile})
    if (std::string e = givenPathError(*path); !e.empty())
      return fail(e);
  request.inputFile = inputFile;
  request.outputFile = outputFile;
  request.check = check;
  request.json = json;
  // Sizes beyond the host's memory: checkHostMemory, before compiling.
  if (!driver::checkHostMemory(request, error) ||
      !driver::checkFiles(request, error))
    return fail(error);

  if (device != "cpu" && device != "gpu" && device != "auto")
    return fail("unknown --device '" + device +
                "' (expected gpu, cpu or auto)");
  request.device = device;
  if (device == "auto")
    request.device = driver::gpuUsable() ? "gpu" : "cpu";

  // Compile first: a spec the verifier rejects costs no data generation.
  auto start = std::chrono::steady_clock::now();
  if (request.device == "gpu") {
    setDefaultCompiler(compileKernelFile);
    if (!driver::loadGPUKernel(request, error))
      return fail("loading the GPU kernel failed:\n" + error);
    if (csr)
      return driver::runJob(
          request, driver::gpuOffsetsExecutor(request.spec, request.offsets));
    return driver::runJob(request, driver::gpuExecutor(request.spec));
  }
  // The kernel the runtime would run: the size's class kernel where it has
  // one (resolveSegmentClass), as on the GPU.
  KernelSpec resolved = resolveSegmentClass(request.spec);
  std::unique_ptr<CPUKernel> kernel = CPUKernel::compile(resolved, error);
  if (!kernel)
    return fail("compiling the kernel failed:\n" + error);
  request.variantName = kernel->variant();
  request.classKernel = resolved.runtimeSegment;
  request.tilesPerWarp = kernel->tilesPerWarp();
  request.warpsPerBlock = kernel->warpsPerBlock();
  request.compileMs = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  CPUKernel *cpu = kernel.get();
  KernelSpec spec = request.spec;
  // The offsets in the kernel's width (checked to fit by readOffsetsFile).
  std::vector<int32_t> offsets32;
  if (spec.offsetBits == 32)
    offsets32.assign(request.offsets.begin(), request.offsets.end());
  const std::vector<int64_t> &offsets64 = request.offsets;
  int64_t outLength = request.outputLength();
  return driver::runJob(request, [&, cpu, spec, outLength](
                                     const void *in, int64_t n, void *out,
                                     double &ms, std::string &error) {
    auto t0 = std::chrono::steady_clock::now();
    bool ran = !spec.offsetBits
                   ? cpu->run(in, n, out, outLength, spec.segmentSize, error)
               : spec.offsetBits == 32
                   ? cpu->runOffsets(in, n, out, outLength, offsets32.data(),
                                     int64_t(offsets32.size()), error)
                   : cpu->runOffsets(in, n, out, outLength, offsets64.data(),
                                     int64_t(offsets64.size()), error);
    if (!ran)
      return false;
    ms = std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
             .count();
    return true;
  });
}
