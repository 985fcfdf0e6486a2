//===- RunCommand.cpp - `tcuc run`
//-----------------------------------------===//
//
// Makes (or reads) input data, compiles the kernel for the spec, runs it,
// and with --check compares against a float64 reference (int64 for i8).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "tcuc/CPU/CPUExecutor.h"
#include "tcuc/Dialect/TCU/TCUOps.h"
#include "tcuc/Reference/Reference.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>

using namespace llvm;
using namespace tcuc;
using tcuc::driver::runCommand;
using tcuc::driver::tcucCategory;

cl::SubCommand tcuc::driver::runCommand(
    "run", "Compile a segmented reduce/scan, run it and optionally check it");

namespace {
cl::opt<std::string> opName("op", cl::desc("reduce or scan"),
                            cl::init("reduce"), cl::sub(runCommand),
                            cl::cat(tcucCategory));
cl::opt<int64_t> segment("segment", cl::desc("Segment size (>= 1)"),
                         cl::init(256), cl::sub(runCommand),
                         cl::cat(tcucCategory));
cl::opt<int64_t> numElements("n", cl::desc("Number of input elements (>= 1)"),
                             cl::init(1 << 20), cl::sub(runCommand),
                             cl::cat(tcucCategory));
cl::opt<std::string> dtype("dtype", cl::desc("Input type: f16, bf16, f32, i8"),
                           cl::init("f16"), cl::sub(runCommand),
                           cl::cat(tcucCategory));
cl::opt<std::string>
    outDtype("out-dtype",
             cl::desc("Output type: f32 (default for float input), the input "
                      "type (f16/bf16), or i32 (i8 input)"),
             cl::init(""), cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<bool> exclusive("exclusive", cl::desc("Exclusive scan"),
                        cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<std::string>
    variant("variant",
            cl::desc("Algorithm: seg16, seg256, seg256n, seg16n_strided, "
                     "seg16n_coalesced (reduce), seg16n (scan), block, grid; "
                     "default by segment size"),
            cl::init(""), cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<std::string> device("device",
                            cl::desc("cpu (gpu arrives with the "
                                     "GPU backend)"),
                            cl::init("cpu"), cl::sub(runCommand),
                            cl::cat(tcucCategory));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random input"),
                       cl::init(1), cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<std::string> inputFile("input",
                               cl::desc("Raw little-endian input of n elements "
                                        "(instead of random data)"),
                               cl::init(""), cl::sub(runCommand),
                               cl::cat(tcucCategory));
cl::opt<std::string> outputFile("output", cl::desc("Write the raw output here"),
                                cl::init(""), cl::sub(runCommand),
                                cl::cat(tcucCategory));
cl::opt<bool> check("check",
                    cl::desc("Compare with a float64 reference; exit 1 on "
                             "mismatch"),
                    cl::sub(runCommand), cl::cat(tcucCategory));
cl::opt<bool> json("json", cl::desc("Print one JSON object"),
                   cl::sub(runCommand), cl::cat(tcucCategory));

int fail(const Twine &message) {
  errs() << "tcuc run: " << message << "\n";
  return 2;
}

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}
} // namespace

int tcuc::driver::runRun() {
  KernelSpec spec;
  if (opName != "reduce" && opName != "scan")
    return fail("unknown --op '" + opName + "' (expected reduce or scan)");
  spec.isScan = opName == "scan";
  if (segment < 1)
    return fail("--segment must be >= 1, got " + Twine(segment));
  spec.segmentSize = segment;
  if (numElements < 1)
    return fail("--n must be >= 1, got " + Twine(numElements));
  auto in = ref::parseDType(dtype);
  if (!in || *in == ref::DType::I32)
    return fail("unknown --dtype '" + dtype +
                "' (expected f16, bf16, f32 or i8)");
  spec.input = *in;
  // The output default; any other choice is checked by the op's verifier
  // (one place for the type rules), which compile() reports.
  spec.output = ref::isFloat(*in) ? ref::DType::F32 : ref::DType::I32;
  if (!outDtype.empty()) {
    auto out = ref::parseDType(outDtype);
    if (!out)
      return fail("unknown --out-dtype '" + outDtype + "'");
    spec.output = *out;
  }
  if (exclusive && !spec.isScan)
    return fail("--exclusive applies to --op scan only");
  spec.inclusive = !exclusive;
  mlir::tcu::Variant chosen = mlir::tcu::getDefaultVariant(segment);
  if (!variant.empty()) {
    auto v = mlir::tcu::symbolizeVariant(variant);
    if (!v)
      return fail("unknown --variant '" + variant + "'");
    chosen = *v;
  }
  spec.variant = mlir::tcu::stringifyVariant(chosen).str();
  if (device != "cpu")
    return fail("--device '" + device +
                "' is not available: this build runs kernels on the cpu only "
                "(the GPU backend is not built yet)");

  int64_t n = numElements;
  int64_t outLength =
      spec.isScan ? n : mlir::tcu::getNumSegments(n, spec.segmentSize);
  // Host buffers: refuse sizes this process cannot hold rather than abort.
  constexpr int64_t maxBytes = int64_t(1) << 36;
  if (n > maxBytes / 8)
    return fail("--n " + Twine(n) + " is too large for the CPU device");

  // Compile first: a spec the verifier rejects costs no data generation.
  auto compileStart = std::chrono::steady_clock::now();
  std::string error;
  std::unique_ptr<CPUKernel> kernel = CPUKernel::compile(spec, error);
  if (!kernel)
    return fail("compiling the kernel failed:\n" + error);
  double compileMs = msSince(compileStart);

  std::vector<uint8_t> input;
  if (!inputFile.empty()) {
    if (!ref::readRawFile(inputFile, spec.input, n, input, &error))
      return fail(error);
  } else {
    input = ref::makeRandomInput(spec.input, n, seed);
  }
  std::vector<uint8_t> output(outLength * ref::dtypeBytes(spec.output));

  auto runStart = std::chrono::steady_clock::now();
  kernel->run(input.data(), n, output.data(), outLength);
  double runMs = msSince(runStart);

  if (!outputFile.empty() &&
      !ref::writeRawFile(outputFile, output.data(), output.size(), &error))
    return fail(error);

  bool ok = true;
  ref::ErrorStats stats, seqStats;
  if (check) {
    std::vector<double> reference =
        spec.isScan
            ? ref::referenceScan(spec.input, input.data(), n, segment,
                                 spec.inclusive)
            : ref::referenceReduce(spec.input, input.data(), n, segment);
    std::vector<double> mass = ref::absoluteMass(
        spec.input, input.data(), n, segment, spec.isScan, spec.inclusive);
    stats = ref::compare(spec.output, output.data(), reference, mass);
    std::vector<float> seq =
        spec.isScan
            ? ref::sequentialF32Scan(spec.input, input.data(), n, segment,
                                     spec.inclusive)
            : ref::sequentialF32Reduce(spec.input, input.data(), n, segment);
    seqStats = ref::compareF32(seq, reference, mass);
    ok = ref::withinTolerance(spec.output, stats, seqStats);
  }

  std::string mode =
      spec.isScan ? (spec.inclusive ? "inclusive" : "exclusive") : "reduce";
  if (json) {
    outs() << "{\"ok\": " << (ok ? "true" : "false")
           << ", \"checked\": " << (check ? "true" : "false") << ", \"op\": \""
           << opName << "\", \"mode\": \"" << mode
           << "\", \"segment\": " << segment << ", \"n\": " << n
           << ", \"dtype\": \"" << ref::dtypeName(spec.input)
           << "\", \"out_dtype\": \"" << ref::dtypeName(spec.output)
           << "\", \"device\": \"" << device << "\", \"variant\": \""
           << spec.variant
           << "\", \"rel_err\": " << format("%.3e", stats.relErr)
           << ", \"max_abs_err\": " << format("%.3e", stats.maxAbsErr)
           << ", \"seq_f32_rel_err\": " << format("%.3e", seqStats.relErr)
           << ", \"mismatches\": " << stats.mismatches
           << ", \"ms\": " << format("%.3f", runMs)
           << ", \"compile_ms\": " << format("%.1f", compileMs) << "}\n";
  } else {
    outs() << "tcuc run: " << opName << " (" << mode << ") of " << n << " x "
           << ref::dtypeName(spec.input) << " -> "
           << ref::dtypeName(spec.output) << ", segment " << segment
           << ", variant " << spec.variant << ", device " << device << "\n"
           << format("  compiled in %.1f ms, ran in %.3f ms\n", compileMs,
                     runMs);
    if (check)
      outs() << format("  check: %s (rel_err %.3e, sequential f32 %.3e, "
                       "max_abs_err %.3e, mismatches %lld)\n",
                       ok ? "PASS" : "FAIL", stats.relErr, seqStats.relErr,
                       stats.maxAbsErr, (long long)stats.mismatches);
  }
  if (!ok && !json)
    errs() << "tcuc run: result does not match the reference (worst element "
           << stats.worstIndex << ")\n";
  return ok ? 0 : 1;
}
