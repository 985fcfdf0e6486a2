//===- SpecOptions.cpp - the kernel-spec flags of run and compile ---------===//

#include "SpecOptions.h"

#include "Commands.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

using namespace llvm;
using namespace tcuc;
using namespace tcuc::driver;

namespace {
cl::opt<std::string> opName("op", cl::desc("reduce or scan"),
                            cl::init("reduce"), cl::sub(runCommand),
                            cl::sub(compileCommand), cl::cat(tcucCategory));
cl::opt<int64_t> segment("segment", cl::desc("Segment size (>= 1)"),
                         cl::init(256), cl::sub(runCommand),
                         cl::sub(compileCommand), cl::cat(tcucCategory));
cl::opt<std::string> dtype("dtype", cl::desc("Input type: f16, bf16, f32, i8"),
                           cl::init("f16"), cl::sub(runCommand),
                           cl::sub(compileCommand), cl::cat(tcucCategory));
cl::opt<std::string>
    outDtype("out-dtype",
             cl::desc("Output type: f32 (default for float input), the input "
                      "type (f16/bf16), or i32 (i8 input)"),
             cl::init(""), cl::sub(runCommand), cl::sub(compileCommand),
             cl::cat(tcucCategory));
cl::opt<bool> exclusive("exclusive", cl::desc("Exclusive scan"),
                        cl::sub(runCommand), cl::sub(compileCommand),
                        cl::cat(tcucCategory));
cl::opt<std::string>
    variant("variant",
            cl::desc("Algorithm: seg16, seg256, seg256n, seg16n_strided, "
                     "seg16n_coalesced (reduce), seg16n (scan), block, grid; "
                     "default by segment size"),
            cl::init(""), cl::sub(runCommand), cl::sub(compileCommand),
            cl::cat(tcucCategory));
} // namespace

bool tcuc::driver::parseSpecOptions(KernelSpec &spec, std::string &error) {
  if (opName != "reduce" && opName != "scan") {
    error = "unknown --op '" + opName + "' (expected reduce or scan)";
    return false;
  }
  spec.isScan = opName == "scan";
  if (segment < 1) {
    error = "--segment must be >= 1, got " + std::to_string(segment);
    return false;
  }
  spec.segmentSize = segment;
  auto in = parseDType(dtype);
  if (!in || *in == DType::I32) {
    error = "unknown --dtype '" + dtype + "' (expected f16, bf16, f32 or i8)";
    return false;
  }
  spec.input = *in;
  spec.output = isFloat(*in) ? DType::F32 : DType::I32;
  if (!outDtype.empty()) {
    auto out = parseDType(outDtype);
    if (!out) {
      error = "unknown --out-dtype '" + outDtype + "'";
      return false;
    }
    spec.output = *out;
  }
  if (exclusive && !spec.isScan) {
    error = "--exclusive applies to --op scan only";
    return false;
  }
  spec.inclusive = !exclusive;
  // No --variant: the compiler's default for the segment size, and the
  // spec (the cache key) says "default", as a runtime-only build does.
  if (!variant.empty() && !mlir::tcu::symbolizeVariant(variant)) {
    error = "unknown --variant '" + variant + "'";
    return false;
  }
  spec.variant = variant;
  return true;
}
