//===- Reference.h - input data, float64 references, judging ----*- C++ -*-===//
//
// What `tcuc run` needs around a kernel launch: deterministic input data,
// float64 references for segmented reduce and scan, the naive float32 result
// that sets the accuracy bar, and the comparison that decides pass or fail.
//
// Kept free of LLVM and MLIR so the driver, tests and any standalone checker
// can link it without pulling in the compiler. Errors are reported through
// return values because the project builds with -fno-exceptions.
//
// All raw buffers are little-endian, densely packed arrays of one DType,
// regardless of the host's byte order.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_REFERENCE_REFERENCE_H
#define TCUC_REFERENCE_REFERENCE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tcuc/Spec.h"

namespace tcuc::ref {

/// Element types (tcuc/Spec.h), re-exported for the reference's callers.
using tcuc::DType;
using tcuc::dtypeBytes;
using tcuc::dtypeName;
using tcuc::isFloat;
using tcuc::parseDType;

/// Bit-exact IEEE conversions, round to nearest even. Overflow goes to
/// infinity, subnormals are produced and consumed exactly, NaN stays NaN (made
/// quiet, sign and leading payload bits kept).
uint16_t floatToHalf(float f);
float halfToFloat(uint16_t h);
uint16_t floatToBFloat(float f);
float bfloatToFloat(uint16_t b);

/// Element `i` of a raw little-endian buffer of type `t`, widened to double
/// (exact for every type).
double loadAsDouble(DType t, const void *data, int64_t i);

/// Deterministic pseudo-random input of `n` elements of `t` (splitmix64
/// seeded by `seed`), returned as raw little-endian bytes.
///
/// Floats: uniform in [-1, 1) rounded to `t` (so 1.0 itself can appear after
/// rounding); about 1 in 8 elements is scaled by a random power of two in
/// [2^-6, 2^6] so magnitudes vary. Every value therefore has |x| <= 64.
/// I8 (and I32): uniform integers in [-128, 127].
/// For n >= 1 at least one element is non-zero, so a kernel that writes zeros
/// can never match by accident. n <= 0 returns an empty buffer.
std::vector<uint8_t> makeRandomInput(DType t, int64_t n, uint64_t seed);

// Segments: consecutive runs of `segmentSize` elements, the last one possibly
// short. segmentSize >= n (or <= 0) means a single segment over all n
// elements. n <= 0 returns empty vectors.

/// One float64 sum per segment. Float inputs are summed with compensated
/// (Neumaier) summation so the reference is far more accurate than anything
/// judged against it; integer inputs use exact int64 arithmetic.
std::vector<double> referenceReduce(DType in, const void *data, int64_t n,
                                    int64_t segmentSize);
/// Segmented prefix sums, n outputs; an exclusive scan writes 0 at the start
/// of each segment. Same arithmetic as referenceReduce. `reverse`: suffix
/// sums (each segment summed from its end; exclusive writes 0 at its end).
std::vector<double> referenceScan(DType in, const void *data, int64_t n,
                                  int64_t segmentSize, bool inclusive,
                                  bool reverse = false);

/// The same computations done naively in float32: sequential accumulation in
/// element order, restarting per segment. This is the accuracy bar a Tensor
/// Core result has to meet.
std::vector<float> sequentialF32Reduce(DType in, const void *data, int64_t n,
                                       int64_t segmentSize);
std::vector<float> sequentialF32Scan(DType in, const void *data, int64_t n,
                                     int64_t segmentSize, bool inclusive,
                                     bool reverse = false);

/// For every output element, the sum of |x| over the inputs that feed it (the
/// whole segment for reduce; the inclusive or exclusive prefix for scan).
/// Summation error bounds scale with this rather than with |result|, so
/// errors are measured relative to it: a plain |out - ref| / |ref| explodes
/// whenever a random sum lands near zero.
std::vector<double> absoluteMass(DType in, const void *data, int64_t n,
                                 int64_t segmentSize, bool isScan,
                                 bool inclusive, bool reverse = false);

/// Decayed scans: h_i = a·h_{i-1} + x_i, restarted at each segment's head
/// (exclusive: out_i = h_{i-1}, 0 at the head; reverse: from the segment's
/// end), with a = `decay` (callers pass the f32 the kernel uses, widened).
/// The float64 reference runs the recurrence sequentially in double; the
/// sequential float32 one rounds a·h and then + x (no fused multiply-add),
/// as a plain loop would; the mass is sum_j |a|^(i-j) |x_j| over the inputs
/// that feed out_i, the scale of both's rounding errors.
std::vector<double> referenceDecayedScan(DType in, const void *data, int64_t n,
                                         int64_t segmentSize, double decay,
                                         bool inclusive, bool reverse = false);
std::vector<float> sequentialF32DecayedScan(DType in, const void *data,
                                            int64_t n, int64_t segmentSize,
                                            double decay, bool inclusive,
                                            bool reverse = false);
std::vector<double> absoluteMassDecayed(DType in, const void *data, int64_t n,
                                        int64_t segmentSize, double decay,
                                        bool inclusive, bool reverse = false);

/// The same three over segments from CSR offsets (k+1 entries, valid:
/// offsetsError; n is the last).
std::vector<double>
referenceDecayedScanOffsets(DType in, const void *data,
                            const std::vector<int64_t> &offsets, double decay,
                            bool inclusive, bool reverse = false);
std::vector<float> sequentialF32DecayedScanOffsets(
    DType in, const void *data, const std::vector<int64_t> &offsets,
    double decay, bool inclusive, bool reverse = false);
std::vector<double>
absoluteMassDecayedOffsets(DType in, const void *data,
                           const std::vector<int64_t> &offsets, double decay,
                           bool inclusive, bool reverse = false);

/// The same three over segments from CSR offsets (k+1 entries, valid:
/// offsetsError; n is the last): one value per segment, 0 for an empty
/// one (reduce), or n values (scan).
std::vector<double> referenceOffsets(DType in, const void *data,
                                     const std::vector<int64_t> &offsets,
                                     bool isScan, bool inclusive,
                                     bool reverse = false);
std::vector<float> sequentialF32Offsets(DType in, const void *data,
                                        const std::vector<int64_t> &offsets,
                                        bool isScan, bool inclusive,
                                        bool reverse = false);
std::vector<double> absoluteMassOffsets(DType in, const void *data,
                                        const std::vector<int64_t> &offsets,
                                        bool isScan, bool inclusive,
                                        bool reverse = false);

struct ErrorStats {
  /// max_i |out_i - ref_i| (infinite if any element is NaN or Inf where the
  /// reference is finite).
  double maxAbsErr = 0;
  /// max_i |out_i - ref_i| / max(mass_i, DBL_MIN).
  double relErr = 0;
  /// The first element with the largest relative error; -1 when every
  /// element matches exactly.
  int64_t worstIndex = -1;
  /// I32 output: elements not equal to the wrapped reference. Float output:
  /// elements whose finiteness disagrees with the reference (NaN or Inf
  /// where a finite value was expected, or the reverse).
  int64_t mismatches = 0;
};

/// Compares `ref.size()` elements of the raw buffer `out` (F32, F16, BF16 or
/// I32) against `ref`, with `mass` (same length) from absoluteMass.
///
/// Float output: where the reference is beyond the output type's largest
/// finite value (F16 65504), the exact result rounds to infinity from the
/// overflow threshold on (F16 65520), and a sum carried in f32 may land on
/// either side of it: there an output infinity of the reference's sign
/// counts as the threshold, as does a reference beyond it, and the
/// difference is an error like any other. A finite output is measured
/// against the reference as it is (the largest finite value where the sum
/// is far beyond the range is an error). (An f16 scan of `tcuc run`'s random
/// input of 2^31 + 12345 elements, seed 1, overflows in 39% of its outputs,
/// which a correct kernel stores as infinities.)
///
/// I32 output is compared exactly against the reference taken modulo 2^32 as
/// a wrapped int32: i32 outputs wrap on overflow like CUB's do, so a true sum
/// of 2^31 + 5 is expected as -2^31 + 5. A non-integral or non-finite
/// reference never matches an I32 output. An I8 `outType` is not an output
/// type: every element counts as a mismatch.
ErrorStats compare(DType outType, const void *out,
                   const std::vector<double> &ref,
                   const std::vector<double> &mass);
/// The same metric for the sequential float32 baseline (`out.size()` must be
/// `ref.size()`).
ErrorStats compareF32(const std::vector<float> &out,
                      const std::vector<double> &ref,
                      const std::vector<double> &mass);

/// The pass rule of `tcuc run --check`. I32 output: no mismatches. Float
/// output: no mismatches and
///   result.relErr <= 2 * seqF32.relErr + floor,
/// where floor covers rounding the result to the output type: 4 * 2^-24 for
/// F32, 2^-11 + 4 * 2^-24 for F16, 2^-8 + 4 * 2^-24 for BF16. I8 output never
/// passes.
bool withinTolerance(DType outType, const ErrorStats &result,
                     const ErrorStats &seqF32);
/// The bound on relErr that rule uses (0 for I32 output, where any
/// difference is a mismatch): what `--check` prints beside relErr, so its
/// verdict can be read off its numbers.
double relErrBound(DType outType, const ErrorStats &seqF32);

/// Reads a raw little-endian file that must hold exactly `n` elements of `t`.
/// On failure returns false and, if `error` is non-null, a message naming the
/// file and the expected and actual byte counts (or the OS error).
bool readRawFile(const std::string &path, DType t, int64_t n,
                 std::vector<uint8_t> &data, std::string *error);
/// Writes `bytes` bytes to `path` ("-": standard output) as a whole or not
/// at all: into a temporary file in the same directory, renamed over `path`
/// once every byte is written and flushed, so a failure (a full disk, a
/// signal) leaves an existing `path` untouched and no partial file behind.
bool writeRawFile(const std::string &path, const void *data, size_t bytes,
                  std::string *error);
/// Whether `a` and `b` name the same existing file (same device and inode,
/// through links and other spellings); false when either does not exist.
bool sameFile(const std::string &a, const std::string &b);

} // namespace tcuc::ref

#endif // TCUC_REFERENCE_REFERENCE_H
