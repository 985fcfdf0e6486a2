//===- Spec.h - what one tcuc kernel computes -------------------*- C++ -*-===//
//
// The unit tcuc compiles, caches and runs: one segmented reduce or scan over
// a dynamic number of elements. Plain C++ (no LLVM/MLIR, no CUDA headers), so
// the runtime, the compiler and applications share it.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_SPEC_H
#define TCUC_SPEC_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcuc {

/// Element types of kernel inputs and outputs. I32 is an output type only
/// (the accumulator of an i8 reduction or scan).
enum class DType { F16, BF16, F32, I8, I32 };

/// Parses "f16", "bf16", "f32", "i8" or "i32" (exact, lower case).
std::optional<DType> parseDType(std::string_view name);
/// The spelling parseDType accepts.
const char *dtypeName(DType t);
/// Bytes per element.
size_t dtypeBytes(DType t);
/// True for F16, BF16 and F32.
bool isFloat(DType t);

/// Most tiles a warp may keep in flight (`tiles_per_warp` is 1..8).
constexpr int kMaxTilesPerWarp = 8;
/// Most warps that may share a segment (`warps_per_block` is a power of two
/// up to 16, block, lookback and lagged variants only).
constexpr int kMaxWarpsPerBlock = 16;
/// True for 0 (the compiler's choice) and the powers of two up to
/// kMaxWarpsPerBlock.
bool isWarpsPerBlock(int64_t warps);
/// True for the variants whose warps share a segment, the ones warps per
/// block apply to: "block", "lookback" and "lagged".
bool takesWarpsPerBlock(std::string_view variant);

/// The largest element count a launch takes: 2^47, more than any device
/// holds even of 1-byte elements, and small enough that no byte count or
/// index of the kernels overflows 64 bits. Segment sizes have the same
/// bound (the op verifier uses it too).
constexpr int64_t kMaxElements = int64_t(1) << 47;

/// The longest segment the streaming scan (`stream`) takes: its element
/// offsets within a work item stay 32-bit.
constexpr int64_t kMaxStreamSegment = int64_t(1) << 24;
/// The longest segment a decayed scan's `packed` variant takes (its groups
/// of up to 16 segments then span at most 256 tiles), and the shortest a
/// packed class kernel takes at launch (shorter ones wrap past several
/// heads in a lane's offset: docs/algorithms.md#packed-decayed-scans).
constexpr int64_t kMaxPackedDecayedSegment = 4096;
constexpr int64_t kMinPackedClassSegment = 257;
/// The longest segment a decayed scan packs without an explicit variant
/// (tcu-select-strategy and the runtime's class alike); longer ones walk
/// (seg256n): 960 for one decay of 16-bit input, 768 for f32 input and
/// per-segment decays. Measured: docs/rationale.md#packed-classes.
constexpr int64_t kDefaultPackedDecayedSegment = 768;
constexpr int64_t kDefaultPackedOneDecay16BitSegment = 960;
constexpr int64_t defaultPackedDecayedSegment(bool sixteenBitInput,
                                              bool segmentDecays) {
  return sixteenBitInput && !segmentDecays ? kDefaultPackedOneDecay16BitSegment
                                           : kDefaultPackedDecayedSegment;
}

/// Why `segment` is not a segment size (1..kMaxElements; a larger segment
/// would be one segment for every input), or empty when it is.
std::string segmentSizeError(int64_t segment);
/// Why `n` is not an element count (0..kMaxElements), or empty when it is.
std::string elementCountError(int64_t n);
/// Why `count` offsets are not the CSR offsets of segments of n elements
/// (at least one; the first 0, nondecreasing, the last n), naming the
/// first bad entry; empty when they are. k = count - 1 segments, empty
/// ones allowed. What the drivers and the APIs' validation check before a
/// launch.
std::string offsetsError(const int64_t *offsets, size_t count, int64_t n);
/// Why a scan with `decay` of `in` elements cannot run, or "": the decay
/// must be finite and in [-1, 1] (1 is the plain scan), the input a float.
std::string decayError(double decay, DType in);
std::string offsetsError(const int32_t *offsets, size_t count, int64_t n);

/// How a scan combines each element with the others of its segment:
/// inclusive (with itself) or exclusive, and forward (a prefix scan, the
/// elements before it) or reverse (a suffix scan, the elements after it);
/// with `decay` a != 1 a decayed scan, h_i = a·h_{i-1} + x_i (KernelSpec's
/// decay).
struct ScanMode {
  bool inclusive = true;
  bool reverse = false;
  double decay = 1.0;
  /// One decay per segment instead of `decay` (which must then be 1):
  /// device memory, float, segment j's decay at decays[j] (reverse scans
  /// too). The runtime copies them to the host and checks each
  /// (decayError: a synchronisation on the stream) before the launch.
  const float *decays = nullptr;
};

/// One segmented collective. Segments are consecutive runs of `segmentSize`
/// elements, the last one possibly short.
struct KernelSpec {
  bool isScan = false;
  int64_t segmentSize = 16;
  /// The kernel takes the segment size at launch (a class kernel: one for
  /// every size its variant takes, docs/runtime.md "Segment classes"):
  /// `segmentSize` is then the size of one call, not part of the key.
  bool runtimeSegment = false;
  DType input = DType::F16;
  DType output = DType::F32;
  /// Scans only: inclusive (out[i] includes in[i]) or exclusive.
  bool inclusive = true;
  /// Scans only: a reverse (suffix) scan, out[i] the sum of the elements of
  /// i's segment from i (inclusive) or after it (exclusive) to its end.
  /// Class kernels follow the same rules (reverse class kernels, not in the
  /// kernel library).
  bool reverse = false;
  /// Scans only: a decayed scan, h_i = decay·h_{i-1} + x_i within each
  /// segment (`decay` on tcu.segmented_scan; the kernel uses it rounded to
  /// f32); 1 is the plain scan (docs/algorithms.md#decayed-scans).
  double decay = 1.0;
  /// Scans only: the kernel takes the decay at launch (an f32 parameter
  /// after the buffers and the segment size; `decay %a` on
  /// tcu.segmented_scan): one kernel for every decay, `decay` is then the
  /// value of one call, not part of the key ("decay=runtime").
  /// resolveSegmentClass gives every decayed scan this form.
  bool runtimeDecay = false;
  /// Scans only: one decay per segment (`decays %d` on tcu.segmented_scan,
  /// variant seg256n): the kernel takes an f32 buffer of them after the
  /// buffers in, out and the offsets ("decay=segments"; `decay` unused).
  bool segmentDecays = false;
  /// A `#tcu.variant` name ("seg256n", ...); empty for the compiler's
  /// default for the segment size.
  std::string variant;
  /// Tiles a warp keeps in flight (`tiles_per_warp`, 1..8); 0 for the
  /// compiler's choice.
  int tilesPerWarp = 0;
  /// Warps that share a segment in the block variant (`warps_per_block`, a
  /// power of two up to 16); 0 for the compiler's choice.
  int warpsPerBlock = 0;
  /// 32 or 64: the segments come from k+1 CSR offsets of that many bits
  /// (`offsets`, the kernel's third argument; one kernel for any lengths)
  /// and segmentSize is unused; 0: segments of segmentSize.
  int offsetBits = 0;

  /// A reduction / a scan of `segment`-element segments.
  static KernelSpec reduce(int64_t segment, DType in, DType out,
                           std::string variant = "");
  static KernelSpec scan(int64_t segment, DType in, DType out, bool inclusive,
                         std::string variant = "");
  static KernelSpec scan(int64_t segment, DType in, DType out, ScanMode mode,
                         std::string variant = "");

  /// Sets `variant`, `tilesPerWarp` and `warpsPerBlock` from a strategy
  /// string: "" (the compiler's choice), a variant name ("seg256n"), a name
  /// and tiles per warp ("seg256n:2"), tiles alone (":2"), or a name, tiles
  /// and warps per block ("block:2:8"). False, with `error` set, for a
  /// malformed string, tiles outside 1..8 or warps not a power of two up to
  /// 16; the variant name itself (and warps only with block) is checked by
  /// the compiler.
  bool setStrategy(std::string_view strategy, std::string &error);

  /// Canonical text, e.g. "op=scan segment=1000 in=f16 out=f32 inclusive=1
  /// variant=default" (and " reverse=1" after inclusive= for a reverse
  /// scan, " decay=A" (A in C's exact hex, %a) for a decayed one
  /// (" decay=runtime" with runtimeDecay),
  /// " tiles=N", " warps=W" when set; "segment=runtime"
  /// for a class kernel, "offsets=i32" / "offsets=i64" for offsets): the
  /// cache key (with arch and build id) and the `tcuc.spec` line of a
  /// kernel file.
  std::string key() const;
  /// Output elements for `n` input elements: ceil(n / segment) for a
  /// reduction, n for a scan; `segment` defaults to segmentSize (a class
  /// kernel's launch passes the call's).
  int64_t outputLength(int64_t n) const;
  int64_t outputLength(int64_t n, int64_t segment) const;
};

/// Which kernel runs a segment size (docs/runtime.md "Segment classes").
enum class SegmentKernelMode {
  /// TCUC_SEGMENT_KERNELS (read once): class, size, or auto (also unset).
  FromEnvironment,
  /// The default: the streaming scan class for 16-bit and i8 scans at sizes
  /// 17..8192 that are not a multiple of 16, one kernel per size otherwise.
  Auto,
  /// One kernel per size.
  PerSize,
  /// The size's class kernel wherever it has one (segmentClassOf).
  Class,
};

/// The kernel the runtime runs for `spec` (what `tcuc compile --segment S`
/// writes) under `mode`. A spec that fixes its strategy (variant, tiles or
/// warps) is always itself; a class kernel takes the size at launch, so the
/// sizes of one class share one kernel. The classes by op, input type and
/// size: docs/runtime.md "Segment classes".
KernelSpec resolveSegmentClass(
    const KernelSpec &spec,
    SegmentKernelMode mode = SegmentKernelMode::FromEnvironment);
/// The class kernel for `spec`'s size, or `spec` itself where no class takes
/// it (SegmentKernelMode::Class).
KernelSpec segmentClassOf(const KernelSpec &spec);

/// Every class kernel resolveSegmentClass can give (whatever
/// TCUC_SEGMENT_KERNELS says): for each pair of element types tcuc compiles,
/// the reduction and both scans, one spec per class (its segmentSize the
/// class's smallest size). What the kernel library holds (`tcuc library`).
std::vector<KernelSpec> segmentClassKernels();
/// The kernels of segments from offsets the kernel library holds beside
/// them: for the same type pairs, the reduction and both scans, with i32
/// and i64 offsets (one kernel each serves any offsets).
std::vector<KernelSpec> offsetsKernels();

/// The segment sizes one kernel of `variant` (a `#tcu.variant` name) takes
/// at launch, [min, max]: false for the variants that need a constant size.
/// The one table of them: the op verifier, the compiler, the runtime and the
/// CPU executor all read it.
bool runtimeSegmentRange(std::string_view variant, bool isScan, int64_t &min,
                         int64_t &max);
/// Why a class kernel of `variant` cannot take `segment` at launch (outside
/// runtimeSegmentRange), or empty when it can.
std::string runtimeSegmentError(std::string_view variant, bool isScan,
                                int64_t segment);

/// A kernel target: the architecture ("sm_90"), optionally followed by the
/// GPU model whose own tuned rows chose the strategy ("sm_90:h200"; a model
/// is lower-case letters and digits). Splits it; false for anything else.
bool splitTarget(std::string_view target, std::string &arch, std::string &gpu);
/// The kernel architecture a GPU of architecture `chip` ("sm_86", "sm_90a",
/// "sm_120") runs: "sm_90" from sm_90 on (its kernels use sm_90 features;
/// the driver JIT-compiles their PTX for later chips), "sm_80" for sm_80 to
/// sm_89. Empty for older chips (no mma.sync m16n8k16) and for names that
/// are not sm_<digits>[letter], with the reason in `why`.
std::string kernelArchFor(std::string_view chip, std::string *why = nullptr);
/// kernelArchFor of a target's architecture, its model kept ("sm_89:l40" ->
/// "sm_80:l40"); empty, with `why`, where kernelArchFor is.
std::string kernelTargetFor(std::string_view target,
                            std::string *why = nullptr);
/// The GPU model in a device name, lower-case: the first word of a letter
/// and digits ("NVIDIA H200" -> "h200", "NVIDIA A100-SXM4-80GB" -> "a100");
/// empty when there is none.
std::string gpuModelOf(std::string_view deviceName);
/// The GPU models the built-in tuned table (compiler/lib/Strategy/
/// TunedTables.inc) has rows of their own for, beside the architectures'
/// (none yet; a unit test keeps this list and the table in step).
const std::vector<std::string_view> &tunedGpuModels();
/// Whether `gpu` is one of them.
bool hasTunedRows(std::string_view gpu);
/// Whether the cost model's tables choose part of `spec`'s strategy (its
/// variant, tiles or warps left to it), so its target names the GPU model.
bool usesTunedTable(const KernelSpec &spec);
/// The target `spec` is compiled for on a device of `arch` whose model has
/// rows of its own, `tunedGpu` (hasTunedRows; empty: none):
/// "arch:tunedGpu" where usesTunedTable(spec), else arch.
std::string kernelTarget(const KernelSpec &spec, const std::string &arch,
                         const std::string &tunedGpu);

} // namespace tcuc

#endif // TCUC_SPEC_H
