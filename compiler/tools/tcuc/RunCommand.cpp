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
#include "tcuc/DiskCache.h"
#include "tcuc/InitAll.h"
#include "tcuc/Pipelines/KernelSource.h"
#include "tcuc/Runtime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;
using namespace tcuc;
using tcuc::driver::givenPathError;
using tcuc::driver::kExitRuntime;
using tcuc::driver::kExitUsage;
using tcuc::driver::runCommand;
using tcuc::driver::tcucCategory;

cl::SubCommand tcuc::driver::runCommand(
    "run", "Compile a segmented reduce/scan, run it and optionally check it");

namespace {
cl::opt<std::string>
    numElements("n",
                cl::desc("Number of input elements (>= 1; default: "
                         "1048576, or from the --input "
                         "file's size)"),
                cl::value_desc("N"), cl::init("1048576"), cl::sub(runCommand),
                cl::cat(tcucCategory));
cl::opt<std::string>
    device("device",
           cl::desc("gpu, cpu, or auto (default: auto: gpu when a CUDA GPU "
                    "is usable, else cpu, saying why on stderr)"),
           cl::init("auto"), cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<std::string> seed("seed",
                          cl::desc("Seed of the random input (default: 1)"),
                          cl::value_desc("X"), cl::init("1"),
                          cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<std::string> inputFile("input",
                               cl::desc("Raw little-endian input (instead of "
                                        "random data; default: none); its "
                                        "size gives --n when --n is left out"),
                               cl::init(""), cl::sub(runCommand),
                               cl::cat(tcucCategory));
cl::opt<std::string> outputFile("output",
                                cl::desc("Write the raw output here ('-': "
                                         "standard output; the report then "
                                         "goes to standard error; default: "
                                         "none)"),
                                cl::init(""), cl::sub(runCommand),
                                cl::cat(tcucCategory));
cl::opt<bool> check("check",
                    cl::desc("Compare with a float64 reference; exit 1 on "
                             "mismatch (default: off)"),
                    cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<bool> json("json",
                   cl::desc("Print one JSON object, errors included "
                            "(default: off)"),
                   cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<std::string> offsetsFile(
    "offsets",
    cl::desc("Segments of any lengths from this file of k+1 CSR offsets "
             "(raw little-endian int64: the first 0, nondecreasing, the "
             "last n; empty segments allowed) instead of --segment; --n "
             "then comes from the last offset (default: none)"),
    cl::value_desc("FILE"), cl::init(""), cl::sub(runCommand),
    cl::cat(tcucCategory));

cl::opt<std::string> decayFile(
    "decay-file",
    cl::desc("Per-segment decays (--decay segments, implied): raw "
             "little-endian float32, one per segment (ceil(n / segment), or "
             "k with --offsets), each in [-1, 1]; segment j's recurrence "
             "is h = d[j]·h + x (default: none)"),
    cl::value_desc("FILE"), cl::init(""), cl::sub(runCommand),
    cl::cat(tcucCategory));

/// Whether the spec verifies (the op verifier's rules on types and
/// variants), so that a rejected spec is a usage error (exit 2) before any
/// device is touched, and a later compile failure a runtime one (exit 3).
bool verifySpec(const KernelSpec &spec, std::string &error) {
  mlir::DialectRegistry registry;
  mlir::tcu::registerTCUCKernelDialects(registry);
  mlir::MLIRContext context(registry);
  raw_string_ostream errors(error);
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    errors << d.str() << "\n";
    return mlir::success();
  });
  return bool(mlir::parseSourceString<mlir::ModuleOp>(
      buildKernelSource(spec), mlir::ParserConfig(&context)));
}
} // namespace

int tcuc::driver::runRun() {
  driver::RunRequest request;
  // Known first: every failure below is then reported in --json too.
  request.json = json;
  request.outputFile = outputFile;
  auto fail = [&](int code, const Twine &message) {
    return driver::reportFailure(request, code, message.str());
  };
  std::string error;
  bool csr = offsetsFile.getNumOccurrences() > 0;
  if (!parseSpecOptions(request.spec, csr, error))
    return fail(kExitUsage, error);
  if (request.spec.offsetBits && !csr)
    return fail(kExitUsage,
                "--offset-type needs --offsets FILE (the segments to run)");
  if (!driver::decimalFlag(numElements, request.n, error) ||
      !driver::decimalFlag(seed, request.seed, error))
    return fail(kExitUsage, error);
  if (csr) {
    if (std::string e = givenPathError(offsetsFile); !e.empty())
      return fail(kExitUsage, e);
    if (!driver::readOffsetsFile(offsetsFile, request.spec.offsetBits,
                                 request.offsets, error))
      return fail(kExitUsage, error);
    int64_t last = request.offsets.back();
    if (numElements.getNumOccurrences() && request.n != last)
      return fail(kExitUsage, "--n " + Twine(request.n) +
                                  " is not the last offset, " + Twine(last) +
                                  " (leave --n out: the offsets give it)");
    request.n = last;
  } else if (request.n < 1) {
    return fail(kExitUsage, "--n must be >= 1, got " + Twine(request.n));
  }
  for (const cl::opt<std::string> *path : {&inputFile, &outputFile})
    if (std::string e = givenPathError(*path); !e.empty())
      return fail(kExitUsage, e);
  request.inputFile = inputFile;
  request.check = check;
  // --n from the file when not given (the offsets give it with --offsets).
  if (!driver::inferInputCount(
          request, csr || numElements.getNumOccurrences() > 0, error))
    return fail(kExitUsage, error);
  if (decayFile.getNumOccurrences() || request.spec.segmentDecays) {
    if (std::string e = givenPathError(decayFile); !e.empty())
      return fail(kExitUsage, e);
    if (decayFile.empty())
      return fail(kExitUsage, "--decay segments needs --decay-file FILE (the "
                              "decays, one per segment)");
    if (request.spec.decay != 1.0)
      return fail(kExitUsage, "--decay A and --decay-file exclude each other");
    if (!request.spec.isScan || !isFloat(request.spec.input))
      return fail(kExitUsage, "--decay-file applies to --op scan with f16, "
                              "bf16 or f32 input");
    request.spec.segmentDecays = true;
    int64_t s = request.spec.segmentSize;
    int64_t count = csr ? int64_t(request.offsets.size()) - 1
                        : request.n / s + (request.n % s != 0);
    if (!driver::readDecaysFile(decayFile, count, request.spec.input,
                                request.decays, error))
      return fail(kExitUsage, error);
  }
  // Sizes beyond the host's memory: checkHostMemory, before compiling.
  if (!driver::checkHostMemory(request, error) ||
      !driver::checkFiles(request, error))
    return fail(kExitUsage, error);

  if (device != "cpu" && device != "gpu" && device != "auto")
    return fail(kExitUsage, "unknown --device '" + device +
                                "' (expected gpu, cpu or auto)");
  // A spec the verifier rejects costs no device probe, data or compile.
  if (!verifySpec(request.spec, error))
    return fail(kExitUsage, "the spec does not verify:\n" + error);
  request.device = device;
  std::string why;
  if (device == "auto") {
    request.autoDevice = true;
    if (driver::gpuUsable(why)) {
      request.device = "gpu";
    } else {
      request.device = "cpu";
      request.deviceFallback = why;
      if (request.textOnStderr())
        errs() << "tcuc run: --device auto: running on the CPU backend, no "
                  "usable GPU ("
               << why << ")\n";
    }
  } else if (device == "gpu" && !driver::gpuUsable(why)) {
    return fail(kExitRuntime, "--device gpu: no usable GPU (" + why + ")");
  }

  auto start = std::chrono::steady_clock::now();
  if (request.device == "gpu") {
    bool loaded;
    {
      driver::Progress progress("loading the GPU kernel (compiled on a "
                                "cache miss)");
      loaded = driver::loadGPUKernel(request, error);
    }
    if (!loaded)
      return fail(kExitRuntime, "loading the GPU kernel failed:\n" + error);
    const std::vector<float> *decays =
        request.spec.segmentDecays ? &request.decays : nullptr;
    if (csr)
      return driver::runJob(
          request,
          driver::gpuOffsetsExecutor(request.spec, request.offsets, decays));
    return driver::runJob(request, driver::gpuExecutor(request.spec, decays));
  }
  // The kernel the runtime would run: the size's class kernel where it has
  // one (resolveSegmentClass), as on the GPU.
  KernelSpec resolved = resolveSegmentClass(request.spec);
  std::unique_ptr<CPUKernel> kernel;
  {
    driver::Progress progress("compiling the CPU kernel");
    kernel = CPUKernel::cached(resolved, request.kernelOrigin, error);
  }
  if (!kernel)
    return fail(kExitRuntime, "compiling the kernel failed:\n" + error);
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
  const float *decaysPtr = spec.segmentDecays ? request.decays.data() : nullptr;
  return driver::runJob(
      request, [&, cpu, spec, outLength](const void *in, int64_t n, void *out,
                                         double &ms, std::string &error) {
        auto t0 = std::chrono::steady_clock::now();
        bool ran =
            !spec.offsetBits ? cpu->run(in, n, out, outLength, spec.segmentSize,
                                        error, spec.decay, decaysPtr)
            : spec.offsetBits == 32
                ? cpu->runOffsets(in, n, out, outLength, offsets32.data(),
                                  int64_t(offsets32.size()), error, spec.decay,
                                  decaysPtr)
                : cpu->runOffsets(in, n, out, outLength, offsets64.data(),
                                  int64_t(offsets64.size()), error, spec.decay,
                                  decaysPtr);
        if (!ran)
          return false;
        ms = std::chrono::duration<double, std::milli>(
                 std::chrono::steady_clock::now() - t0)
                 .count();
        return true;
      });
}
