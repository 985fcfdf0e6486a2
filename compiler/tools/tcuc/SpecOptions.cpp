//===- SpecOptions.cpp - the kernel-spec flags of run and compile ---------===//

#include "SpecOptions.h"

#include "Commands.h"
#include "RunJob.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include <cmath>
#include <cstdlib>

using namespace llvm;
using namespace tcuc;
using namespace tcuc::driver;

namespace {
cl::opt<std::string> opName("op", cl::desc("reduce or scan (default: reduce)"),
                            cl::init("reduce"), cl::sub(runCommand),
                            cl::sub(compileCommand), cl::cat(tcucCategory));
cl::opt<std::string> segment(
    "segment",
    cl::desc("Segment size (>= 1; default: 256). Without --variant, a 16-bit "
             "or i8 scan "
             "of 17..8192 that is not a multiple of 16 runs (and compiles "
             "to) the streaming scan's class kernel, which takes the size "
             "at launch; TCUC_SEGMENT_KERNELS=class does so for every size "
             "up to 8192, =size for none (docs/runtime.md, Segment "
             "classes)"),
    cl::value_desc("S"), cl::init("256"), cl::sub(runCommand),
    cl::sub(compileCommand), cl::cat(tcucCategory));
cl::opt<std::string>
    dtype("dtype", cl::desc("Input type: f16, bf16, f32, i8 (default: f16)"),
          cl::init("f16"), cl::sub(runCommand), cl::sub(compileCommand),
          cl::cat(tcucCategory));
cl::opt<std::string>
    outDtype("out-dtype",
             cl::desc("Output type: f32 (default for float input), the input "
                      "type (f16/bf16), or i32 (i8 input, the default there)"),
             cl::init(""), cl::sub(runCommand), cl::sub(compileCommand),
             cl::cat(tcucCategory));
cl::opt<bool> exclusive("exclusive",
                        cl::desc("Exclusive scan (default: inclusive)"),
                        cl::sub(runCommand), cl::sub(compileCommand),
                        cl::cat(tcucCategory));
cl::opt<bool>
    reverseScan("reverse",
                cl::desc("Reverse (suffix) scan: each element sums "
                         "the elements from it (or, with --exclusive, "
                         "after it) to its segment's end"),
                cl::sub(runCommand), cl::sub(compileCommand),
                cl::cat(tcucCategory));
cl::opt<std::string> variant(
    "variant",
    cl::desc("Algorithm: seg16, seg256, seg256n, seg16n_strided, "
             "seg16n_coalesced (reduce), seg16n (scan), packed, block, "
             "grid, lookback, lagged (scan, single pass), stream (scan, "
             "segment >= 16, f16/bf16/i8: tiles of consecutive "
             "elements wherever segments begin), matmulscan (scan: "
             "up-sweep / down-sweep of tile products), balanced (--offsets "
             "only, the default there: equal runs of tiles a warp, "
             "whatever the segment lengths; seg256n: a warp a segment); "
             "(default: the cost model's choice for the segment size)"),
    cl::init(""), cl::sub(runCommand), cl::sub(compileCommand),
    cl::cat(tcucCategory));
cl::opt<std::string> tilesPerWarp(
    "tiles-per-warp",
    cl::desc(
        "Tiles a warp loads before multiplying them (1..8): of a "
        "segment's run (seg256n, seg16n_coalesced, block, grid), of "
        "several segments (seg16, seg256, packed), of a level (matmulscan) "
        "or steps (seg16n_strided, seg16n); 0 = the cost model's choice "
        "(default: 0)"),
    cl::value_desc("K"), cl::init("0"), cl::sub(runCommand),
    cl::sub(compileCommand), cl::cat(tcucCategory));
cl::opt<std::string> warpsPerBlock(
    "warps-per-block",
    cl::desc("Warps that share a segment in --variant block, or a chunk "
             "in --variant lookback or lagged (1, 2, 4, 8 or 16; the GPU "
             "block is that many warps); 0 = the cost model's choice "
             "(default: 0)"),
    cl::value_desc("W"), cl::init("0"), cl::sub(runCommand),
    cl::sub(compileCommand), cl::cat(tcucCategory));
cl::opt<std::string> offsetType(
    "offset-type",
    cl::desc("Segments from CSR offsets of this type (i32 or i64) instead "
             "of one --segment size: one kernel for any segment lengths "
             "(default: none; `tcuc run --offsets FILE` takes i64 unless "
             "this says i32)"),
    cl::value_desc("T"), cl::init(""), cl::sub(runCommand),
    cl::sub(compileCommand), cl::cat(tcucCategory));
cl::opt<std::string> decay(
    "decay",
    cl::desc("Decayed scan: h = A·h + x within each segment, restarted at "
             "each head (A in [-1, 1], rounded to f32; 1 = the plain scan; "
             "f16, bf16 or f32 input; any --segment size or --offsets). "
             "The kernel takes A at launch: one kernel for every A. "
             "'segments': one decay per segment (tcuc run: from "
             "--decay-file)"),
    cl::value_desc("A"), cl::init(""), cl::sub(runCommand),
    cl::sub(compileCommand), cl::cat(tcucCategory));

/// Sets spec.decay from --decay, with the rules of `decay` on
/// tcu.segmented_scan said in the driver's terms.
bool parseDecay(KernelSpec &spec, std::string &error) {
  if (decay.empty())
    return true;
  if (decay == "segments") {
    if (!spec.isScan || !isFloat(spec.input)) {
      error = "--decay segments applies to --op scan with f16, bf16 or f32 "
              "input";
      return false;
    }
    spec.segmentDecays = true;
    return true;
  }
  char *end = nullptr;
  double a = std::strtod(decay.c_str(), &end);
  if (end == decay.c_str() || *end != '\0' || !std::isfinite(a)) {
    error = "--decay '" + decay + "': expected a finite number or 'segments'";
    return false;
  }
  if (a == 1.0)
    return true; // the plain scan
  if (!spec.isScan) {
    error = "--decay applies to --op scan only";
    return false;
  }
  if (a < -1.0 || a > 1.0) {
    error = "--decay " + decay + ": must lie in [-1, 1]";
    return false;
  }
  if (!isFloat(spec.input)) {
    error = "--decay needs f16, bf16 or f32 input (integer sums have no "
            "decay), got " +
            std::string(dtypeName(spec.input));
    return false;
  }
  spec.decay = a;
  return true;
}
} // namespace

bool tcuc::driver::parseSpecOptions(KernelSpec &spec, std::string &error) {
  return parseSpecOptions(spec, /*offsets=*/false, error);
}

bool tcuc::driver::parseSpecOptions(KernelSpec &spec, bool offsets,
                                    std::string &error) {
  bool csr = offsets || !offsetType.empty();
  if (csr && segment.getNumOccurrences()) {
    error = "--segment and offsets (--offsets, --offset-type) exclude each "
            "other: offsets give every segment its own length";
    return false;
  }
  if (!offsetType.empty() && offsetType != "i32" && offsetType != "i64") {
    error = "unknown --offset-type '" + offsetType + "' (expected i32 or i64)";
    return false;
  }
  // With offsets the size is unused (1 passes makeSpec's check); which
  // variants take offsets is the op verifier's rule.
  int64_t segmentSize = 1, tiles = 0, warps = 0;
  if ((!csr && !decimalFlag(segment, segmentSize, error)) ||
      !decimalFlag(tilesPerWarp, tiles, error) ||
      !decimalFlag(warpsPerBlock, warps, error))
    return false;
  if (!makeSpec(opName, segmentSize, dtype, outDtype, exclusive, reverseScan,
                variant, tiles, warps, spec, error))
    return false;
  if (!variant.empty() && !mlir::tcu::symbolizeVariant(variant)) {
    error = "unknown --variant '" + variant + "'";
    return false;
  }
  if (csr)
    spec.offsetBits = offsetType == "i32" ? 32 : 64;
  return parseDecay(spec, error);
}
