//===- Reference.cpp - input data, float64 references, judging ------------===//

#include "tcuc/Reference/Reference.h"

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <system_error>
#include <type_traits>

namespace tcuc::ref {

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

static uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

static float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

uint16_t floatToHalf(float f) {
  uint32_t x = floatBits(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t absx = x & 0x7fffffffu;

  if (absx >= 0x7f800000u) {
    if (absx == 0x7f800000u)
      return sign | 0x7c00u;
    // Keep the leading payload bits and force the quiet bit so the result
    // cannot collapse into an infinity when the payload sits in low bits.
    return static_cast<uint16_t>(sign | 0x7e00u | ((absx >> 13) & 0x3ffu));
  }

  int32_t exp = static_cast<int32_t>(absx >> 23) - 127;
  if (exp >= -14) {
    // Normal range. Past 2^15 the carry out of the rounding increment walks
    // the exponent field into 0x7c00, which is exactly the overflow to
    // infinity we want; anything larger than that is infinite outright.
    if (exp > 15)
      return sign | 0x7c00u;
    uint32_t mant = absx & 0x7fffffu;
    uint32_t h = (static_cast<uint32_t>(exp + 15) << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
      ++h;
    return static_cast<uint16_t>(sign | h);
  }

  // Subnormal result: express the value in units of 2^-24 (the smallest
  // half subnormal) and round the shifted-out bits. Anything below 2^-25
  // rounds to zero; exactly 2^-25 ties to the even zero. Float subnormal
  // inputs land here too, with a huge shift.
  int32_t shift = -exp - 1; // 14 for exp == -15, 24 for exp == -25.
  if (shift > 24)
    return sign;
  uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
  uint32_t h = mant >> shift;
  uint32_t rem = mant & ((1u << shift) - 1u);
  uint32_t half = 1u << (shift - 1);
  // A carry out of 0x3ff yields 0x400, the smallest normal: also correct.
  if (rem > half || (rem == half && (h & 1u)))
    ++h;
  return static_cast<uint16_t>(sign | h);
}

float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f)
    return bitsFloat(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    // mant * 2^-24 is exact in float (mant has at most 10 bits).
    float mag = static_cast<float>(mant) * 0x1p-24f;
    return sign ? -mag : mag;
  }
  return bitsFloat(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

uint16_t floatToBFloat(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) {
    // Truncating could clear every remaining mantissa bit and turn the NaN
    // into an infinity, so set the quiet bit.
    return static_cast<uint16_t>((x >> 16) | 0x0040u);
  }
  // Round to nearest even on the 16 dropped bits; a carry into the exponent
  // is the right answer, up to and including overflow to infinity.
  uint32_t bias = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + bias) >> 16);
}

float bfloatToFloat(uint16_t b) {
  return bitsFloat(static_cast<uint32_t>(b) << 16);
}

//===----------------------------------------------------------------------===//
// Raw buffers
//===----------------------------------------------------------------------===//

// Explicit byte assembly keeps the file format little-endian whatever the
// host is, and sidesteps alignment requirements on the caller's buffer.
static uint16_t load16(const uint8_t *p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

static uint32_t load32(const uint8_t *p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}

static void store16(uint8_t *p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}

static void store32(uint8_t *p, uint32_t v) {
  for (int k = 0; k < 4; ++k)
    p[k] = static_cast<uint8_t>(v >> (8 * k));
}

static int32_t asInt32(uint32_t u) {
  // Spelled out because unsigned-to-signed narrowing is only guaranteed to
  // wrap from C++20 on.
  return u >= 0x80000000u ? static_cast<int32_t>(static_cast<int64_t>(u) -
                                                 (int64_t(1) << 32))
                          : static_cast<int32_t>(u);
}

/// Calls `fn` with a per-element loader for buffers of type `t`. Integer
/// types load as int64_t so references can use exact integer arithmetic;
/// float types load as double. Dispatching once per buffer, rather than per
/// element, keeps the O(n) loops tight.
template <typename Fn>
static auto withLoader(DType t, const void *data, Fn &&fn) {
  const auto *p = static_cast<const uint8_t *>(data);
  switch (t) {
  case DType::F16:
    return fn([p](int64_t i) {
      return static_cast<double>(halfToFloat(load16(p + 2 * i)));
    });
  case DType::BF16:
    return fn([p](int64_t i) {
      return static_cast<double>(bfloatToFloat(load16(p + 2 * i)));
    });
  case DType::F32:
    break;
  case DType::I8:
    return fn([p](int64_t i) {
      return static_cast<int64_t>(static_cast<int8_t>(p[i]));
    });
  case DType::I32:
    return fn([p](int64_t i) {
      return static_cast<int64_t>(asInt32(load32(p + 4 * i)));
    });
  }
  return fn([p](int64_t i) {
    return static_cast<double>(bitsFloat(load32(p + 4 * i)));
  });
}

double loadAsDouble(DType t, const void *data, int64_t i) {
  return withLoader(t, data,
                    [i](auto load) { return static_cast<double>(load(i)); });
}

//===----------------------------------------------------------------------===//
// Random input
//===----------------------------------------------------------------------===//

namespace {
/// splitmix64: tiny, fast, and the same stream on every platform, which is
/// what reproducible test inputs need.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};
} // namespace

/// Stores `v` as element `i` of a `t` buffer, rounding floats to `t`;
/// returns whether the stored value is non-zero.
static bool storeValue(DType t, uint8_t *p, int64_t i, float v) {
  switch (t) {
  case DType::F16: {
    uint16_t h = floatToHalf(v);
    store16(p + 2 * i, h);
    return (h & 0x7fffu) != 0;
  }
  case DType::BF16: {
    uint16_t b = floatToBFloat(v);
    store16(p + 2 * i, b);
    return (b & 0x7fffu) != 0;
  }
  case DType::F32:
    store32(p + 4 * i, floatBits(v));
    return v != 0.0f;
  case DType::I8:
    p[i] = static_cast<uint8_t>(static_cast<int8_t>(v));
    return v != 0.0f;
  case DType::I32:
    store32(p + 4 * i, static_cast<uint32_t>(static_cast<int32_t>(v)));
    return v != 0.0f;
  }
  return false;
}

std::vector<uint8_t> makeRandomInput(DType t, int64_t n, uint64_t seed) {
  if (n <= 0)
    return {};
  std::vector<uint8_t> out(static_cast<size_t>(n) * dtypeBytes(t));
  uint8_t *p = out.data();
  SplitMix64 rng{seed};
  bool anyNonZero = false;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t r = rng.next();
    float v;
    if (isFloat(t)) {
      // The top 24 bits give a multiple of 2^-23 in [-1, 1), exact in float.
      int64_t k = static_cast<int64_t>(r >> 40) - (int64_t(1) << 23);
      v = static_cast<float>(k) * 0x1p-23f;
      // Low bits are independent of the top ones: 1 in 8 elements gets a
      // power-of-two scale so sums mix magnitudes, which is what exposes
      // poor accumulation order. Scaling before the single rounding to `t`
      // keeps values that fall into f16 subnormals correctly rounded.
      if ((r & 7u) == 0) {
        int e = static_cast<int>((r >> 3) % 13) - 6;
        v = std::ldexp(v, e);
      }
    } else {
      v = static_cast<float>(static_cast<int8_t>(r >> 56));
    }
    anyNonZero |= storeValue(t, p, i, v);
  }
  // An all-zero input would let a kernel that writes nothing pass; the odds
  // are tiny except for small integer inputs, but make it impossible.
  if (!anyNonZero)
    storeValue(t, p, 0, 1.0f);
  return out;
}

//===----------------------------------------------------------------------===//
// References
//===----------------------------------------------------------------------===//

namespace {
/// Neumaier's compensated summation: the error no longer grows with n, so the
/// float64 reference stays far more accurate than the float32 results it
/// judges, even for 1e7-element segments with cancellation.
struct CompensatedSum {
  double sum = 0;
  double comp = 0;
  void add(double x) {
    double t = sum + x;
    if (std::fabs(sum) >= std::fabs(x))
      comp += (sum - t) + x;
    else
      comp += (x - t) + sum;
    sum = t;
  }
  /// Once `sum` is NaN or infinite it is the IEEE answer (NaN or inf stays
  /// so under further adds), and `comp` holds inf - inf = NaN: ignore it.
  double value() const { return std::isfinite(sum) ? sum + comp : sum; }
};

/// Exact accumulator for integer inputs (|x| <= 2^31, n < 2^32 cannot
/// overflow int64).
struct IntSum {
  int64_t sum = 0;
  void add(int64_t x) { sum += x; }
  double value() const { return static_cast<double>(sum); }
};

template <typename T>
using AccumulatorFor =
    std::conditional_t<std::is_integral_v<T>, IntSum, CompensatedSum>;
} // namespace

namespace {
/// The segments of [0, n): runs of `size` elements, or the CSR `offsets`
/// (k+1 entries, checked by the caller) when given.
struct Segments {
  int64_t n;
  int64_t size;
  const std::vector<int64_t> *offsets = nullptr;
};
} // namespace

/// Calls `fn(begin, end)` for each segment, empty ones (offsets) included.
template <typename Fn> static void forEachSegment(const Segments &s, Fn &&fn) {
  if (s.offsets) {
    for (size_t i = 0; i + 1 < s.offsets->size(); ++i)
      fn((*s.offsets)[i], (*s.offsets)[i + 1]);
    return;
  }
  // Clamping to n also keeps `begin += seg` from overflowing for huge sizes.
  int64_t n = s.n, seg = (s.size <= 0 || s.size > n) ? n : s.size;
  for (int64_t begin = 0; begin < n; begin += seg)
    fn(begin, begin + std::min(seg, n - begin));
}

static int64_t numSegments(const Segments &s) {
  if (s.offsets)
    return s.offsets->empty() ? 0 : int64_t(s.offsets->size()) - 1;
  if (s.n <= 0)
    return 0;
  if (s.size <= 0 || s.size >= s.n)
    return 1;
  return s.n / s.size + (s.n % s.size != 0);
}

namespace {
/// Plain float32 accumulation in element order: the naive sum a Tensor Core
/// result is judged against.
struct Float32Sum {
  float sum = 0.0f;
  template <typename T> void add(T x) { sum += static_cast<float>(x); }
  float value() const { return sum; }
};

/// Sum of |x|; it only scales a tolerance, so a plain double sum of
/// non-negative terms (relative error below n * 2^-53) is plenty.
struct AbsoluteSum {
  double sum = 0;
  template <typename T> void add(T x) {
    sum += std::fabs(static_cast<double>(x));
  }
  double value() const { return sum; }
};
} // namespace

/// The one traversal behind every reference: per segment, an `Acc` fed in
/// element order, its value taken once per segment (reduce) or before /
/// after each element (exclusive / inclusive scan).
template <typename Acc, typename Out, typename Load>
static std::vector<Out>
segmentedFold(Load load, const Segments &segments, bool isScan, bool inclusive,
              bool reverse = false, const Acc &init = Acc()) {
  std::vector<Out> out;
  if (isScan && reverse) {
    // A suffix scan: each segment fed from its end backwards.
    out.resize(static_cast<size_t>(segments.n));
    forEachSegment(segments, [&](int64_t begin, int64_t end) {
      Acc acc = init;
      for (int64_t i = end - 1; i >= begin; --i) {
        if (!inclusive)
          out[i] = acc.value();
        acc.add(load(i));
        if (inclusive)
          out[i] = acc.value();
      }
    });
    return out;
  }
  out.reserve(static_cast<size_t>(isScan ? segments.n : numSegments(segments)));
  forEachSegment(segments, [&](int64_t begin, int64_t end) {
    Acc acc = init;
    for (int64_t i = begin; i < end; ++i) {
      if (isScan && !inclusive)
        out.push_back(acc.value());
      acc.add(load(i));
      if (isScan && inclusive)
        out.push_back(acc.value());
    }
    if (!isScan)
      out.push_back(acc.value());
  });
  return out;
}

/// Whether there is nothing to compute: no elements, and (offsets) no
/// segments either (empty segments still give a reduction's zeros).
static bool nothing(const Segments &s, bool isScan) {
  return s.n <= 0 && (isScan || numSegments(s) == 0);
}

/// float64 reference: compensated sums for floats, exact int64 for integers.
static std::vector<double> reference(DType in, const void *data,
                                     const Segments &segments, bool isScan,
                                     bool inclusive, bool reverse = false) {
  if (nothing(segments, isScan))
    return {};
  return withLoader(in, data, [&](auto load) {
    using Acc = AccumulatorFor<decltype(load(0))>;
    return segmentedFold<Acc, double>(load, segments, isScan, inclusive,
                                      reverse);
  });
}

std::vector<double> referenceReduce(DType in, const void *data, int64_t n,
                                    int64_t segmentSize) {
  return reference(in, data, {n, segmentSize}, /*isScan=*/false, false);
}

std::vector<double> referenceScan(DType in, const void *data, int64_t n,
                                  int64_t segmentSize, bool inclusive,
                                  bool reverse) {
  return reference(in, data, {n, segmentSize}, /*isScan=*/true, inclusive,
                   reverse);
}

static std::vector<float> sequentialF32(DType in, const void *data,
                                        const Segments &segments, bool isScan,
                                        bool inclusive, bool reverse = false) {
  if (nothing(segments, isScan))
    return {};
  return withLoader(in, data, [&](auto load) {
    return segmentedFold<Float32Sum, float>(load, segments, isScan, inclusive,
                                            reverse);
  });
}

std::vector<float> sequentialF32Reduce(DType in, const void *data, int64_t n,
                                       int64_t segmentSize) {
  return sequentialF32(in, data, {n, segmentSize}, /*isScan=*/false, false);
}

std::vector<float> sequentialF32Scan(DType in, const void *data, int64_t n,
                                     int64_t segmentSize, bool inclusive,
                                     bool reverse) {
  return sequentialF32(in, data, {n, segmentSize}, /*isScan=*/true, inclusive,
                       reverse);
}

static std::vector<double> mass(DType in, const void *data,
                                const Segments &segments, bool isScan,
                                bool inclusive, bool reverse = false) {
  if (nothing(segments, isScan))
    return {};
  return withLoader(in, data, [&](auto load) {
    return segmentedFold<AbsoluteSum, double>(load, segments, isScan, inclusive,
                                              reverse);
  });
}

std::vector<double> absoluteMass(DType in, const void *data, int64_t n,
                                 int64_t segmentSize, bool isScan,
                                 bool inclusive, bool reverse) {
  return mass(in, data, {n, segmentSize}, isScan, inclusive, reverse);
}

namespace {
/// The decayed recurrence h = a·h + x in float64, sequentially: each step
/// rounds once or twice by 2^-53 and earlier errors decay with h, so it is
/// far more accurate than the f32 results it judges (|a| <= 1).
struct DecayedSum {
  double a = 1, h = 0;
  template <typename T> void add(T x) { h = a * h + static_cast<double>(x); }
  double value() const { return h; }
};

/// The same in float32, a product and a sum each rounded (no fused
/// multiply-add: two statements), the bar a decayed scan has to meet.
struct DecayedF32Sum {
  float a = 1, h = 0;
  template <typename T> void add(T x) {
    volatile float product = a * h; // rounded to f32, never fused
    h = product + static_cast<float>(x);
  }
  float value() const { return h; }
};

/// sum_j |a|^(i-j) |x_j|: the scale of a decayed scan's rounding errors.
struct DecayedAbsSum {
  double a = 1, m = 0;
  template <typename T> void add(T x) {
    m = a * m + std::fabs(static_cast<double>(x));
  }
  double value() const { return m; }
};
} // namespace

/// The decayed recurrence `Acc` (decay `a`) over `segments`.
template <typename Acc, typename Out>
static std::vector<Out> decayedFold(DType in, const void *data,
                                    const Segments &segments, Acc init,
                                    bool inclusive, bool reverse) {
  if (nothing(segments, true))
    return {};
  return withLoader(in, data, [&](auto load) {
    return segmentedFold<Acc, Out>(load, segments, true, inclusive, reverse,
                                   init);
  });
}

static std::vector<double> decayedReference(DType in, const void *data,
                                            const Segments &segments,
                                            double decay, bool inclusive,
                                            bool reverse) {
  return decayedFold<DecayedSum, double>(in, data, segments, {decay, 0},
                                         inclusive, reverse);
}

static std::vector<float> decayedSequentialF32(DType in, const void *data,
                                               const Segments &segments,
                                               double decay, bool inclusive,
                                               bool reverse) {
  return decayedFold<DecayedF32Sum, float>(in, data, segments,
                                           {static_cast<float>(decay), 0.0f},
                                           inclusive, reverse);
}

static std::vector<double> decayedMass(DType in, const void *data,
                                       const Segments &segments, double decay,
                                       bool inclusive, bool reverse) {
  return decayedFold<DecayedAbsSum, double>(
      in, data, segments, {std::fabs(decay), 0}, inclusive, reverse);
}

/// Segments from CSR offsets (n is the last).
static Segments fromOffsets(const std::vector<int64_t> &offsets) {
  return {offsets.empty() ? 0 : offsets.back(), 0, &offsets};
}

std::vector<double> referenceDecayedScan(DType in, const void *data, int64_t n,
                                         int64_t segmentSize, double decay,
                                         bool inclusive, bool reverse) {
  return decayedReference(in, data, {n, segmentSize}, decay, inclusive,
                          reverse);
}

std::vector<float> sequentialF32DecayedScan(DType in, const void *data,
                                            int64_t n, int64_t segmentSize,
                                            double decay, bool inclusive,
                                            bool reverse) {
  return decayedSequentialF32(in, data, {n, segmentSize}, decay, inclusive,
                              reverse);
}

std::vector<double> absoluteMassDecayed(DType in, const void *data, int64_t n,
                                        int64_t segmentSize, double decay,
                                        bool inclusive, bool reverse) {
  return decayedMass(in, data, {n, segmentSize}, decay, inclusive, reverse);
}

std::vector<double>
referenceDecayedScanOffsets(DType in, const void *data,
                            const std::vector<int64_t> &offsets, double decay,
                            bool inclusive, bool reverse) {
  return decayedReference(in, data, fromOffsets(offsets), decay, inclusive,
                          reverse);
}

std::vector<float>
sequentialF32DecayedScanOffsets(DType in, const void *data,
                                const std::vector<int64_t> &offsets,
                                double decay, bool inclusive, bool reverse) {
  return decayedSequentialF32(in, data, fromOffsets(offsets), decay, inclusive,
                              reverse);
}

std::vector<double>
absoluteMassDecayedOffsets(DType in, const void *data,
                           const std::vector<int64_t> &offsets, double decay,
                           bool inclusive, bool reverse) {
  return decayedMass(in, data, fromOffsets(offsets), decay, inclusive, reverse);
}

std::vector<double> referenceOffsets(DType in, const void *data,
                                     const std::vector<int64_t> &offsets,
                                     bool isScan, bool inclusive,
                                     bool reverse) {
  int64_t n = offsets.empty() ? 0 : offsets.back();
  return reference(in, data, {n, 0, &offsets}, isScan, inclusive, reverse);
}

std::vector<float> sequentialF32Offsets(DType in, const void *data,
                                        const std::vector<int64_t> &offsets,
                                        bool isScan, bool inclusive,
                                        bool reverse) {
  int64_t n = offsets.empty() ? 0 : offsets.back();
  return sequentialF32(in, data, {n, 0, &offsets}, isScan, inclusive, reverse);
}

std::vector<double> absoluteMassOffsets(DType in, const void *data,
                                        const std::vector<int64_t> &offsets,
                                        bool isScan, bool inclusive,
                                        bool reverse) {
  int64_t n = offsets.empty() ? 0 : offsets.back();
  return mass(in, data, {n, 0, &offsets}, isScan, inclusive, reverse);
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

static double massAt(const std::vector<double> &mass, size_t i) {
  assert(i < mass.size() && "mass must have one entry per output");
  double m = i < mass.size() ? mass[i] : 0.0;
  // Never divide by zero: an output fed by nothing (the first element of an
  // exclusive scan) must be exactly zero, and any error there is then huge.
  return std::max(m, std::numeric_limits<double>::min());
}

namespace {
/// Folds per-element errors into ErrorStats.
struct StatsBuilder {
  ErrorStats stats;
  void add(size_t i, double absErr, double mass) {
    double rel = absErr / mass;
    stats.maxAbsErr = std::max(stats.maxAbsErr, absErr);
    if (rel > stats.relErr) {
      stats.relErr = rel;
      stats.worstIndex = static_cast<int64_t>(i);
    }
  }
  void mismatch(size_t i) {
    ++stats.mismatches;
    add(i, std::numeric_limits<double>::infinity(), 1.0);
  }
};
} // namespace

namespace {
/// A float output type's largest finite value and the magnitude from which
/// rounding to it overflows (to the infinity of the value's sign).
struct OutputRange {
  double maxFinite, overflow;
};
} // namespace

static OutputRange outputRange(DType t) {
  switch (t) {
  case DType::F16:
    return {65504.0, 65520.0};
  case DType::BF16:
    return {0x1.fep127, 0x1.ffp127};
  default:
    return {0x1.fffffep127, 0x1.ffffffp127};
  }
}

template <typename Load>
static ErrorStats compareFloats(Load load, const std::vector<double> &ref,
                                const std::vector<double> &mass,
                                OutputRange range) {
  StatsBuilder b;
  for (size_t i = 0; i < ref.size(); ++i) {
    double o = static_cast<double>(load(static_cast<int64_t>(i)));
    double r = ref[i];
    // A sum at the edge of the output's range: the exact value rounds to
    // infinity from `overflow` on, and a sum carried in f32 may land on
    // either side of that; so there an infinity of the reference's sign is
    // measured as `overflow`, and so is the reference if it is beyond it.
    // A finite output is measured against the reference as it is (a
    // kernel that saturates at the largest finite value far beyond the
    // range is wrong), and an infinity elsewhere stays a mismatch.
    if (std::isfinite(r) && std::fabs(r) >= range.maxFinite && std::isinf(o) &&
        std::signbit(o) == std::signbit(r)) {
      o = std::copysign(range.overflow, o);
      r = std::copysign(std::min(std::fabs(r), range.overflow), r);
    }
    if (std::isfinite(r) != std::isfinite(o)) {
      b.mismatch(i);
      continue;
    }
    if (!std::isfinite(r)) {
      // Both non-finite: only the same infinity, or NaN for NaN, matches.
      if (!(o == r || (std::isnan(o) && std::isnan(r))))
        b.mismatch(i);
      continue;
    }
    b.add(i, std::fabs(o - r), massAt(mass, i));
  }
  return b.stats;
}

/// The reference modulo 2^32 as a two's complement int32, or nullopt when it
/// is not an integer.
static std::optional<int32_t> wrapToInt32(double r) {
  if (!std::isfinite(r) || r != std::trunc(r))
    return std::nullopt;
  // fmod is exact, so this also works for references beyond int64's range.
  double m = std::fmod(r, 4294967296.0);
  if (m < 0)
    m += 4294967296.0;
  return asInt32(static_cast<uint32_t>(m));
}

ErrorStats compare(DType outType, const void *out,
                   const std::vector<double> &ref,
                   const std::vector<double> &mass) {
  if (isFloat(outType))
    return withLoader(outType, out, [&](auto load) {
      return compareFloats(load, ref, mass, outputRange(outType));
    });

  StatsBuilder b;
  if (outType != DType::I32) {
    for (size_t i = 0; i < ref.size(); ++i)
      b.mismatch(i);
    return b.stats;
  }
  const auto *p = static_cast<const uint8_t *>(out);
  for (size_t i = 0; i < ref.size(); ++i) {
    std::optional<int32_t> expected = wrapToInt32(ref[i]);
    if (!expected) {
      b.mismatch(i);
      continue;
    }
    int32_t o = asInt32(load32(p + 4 * i));
    if (o != *expected)
      ++b.stats.mismatches;
    b.add(i, std::fabs(static_cast<double>(o) - *expected), massAt(mass, i));
  }
  return b.stats;
}

ErrorStats compareF32(const std::vector<float> &out,
                      const std::vector<double> &ref,
                      const std::vector<double> &mass) {
  assert(out.size() == ref.size() && "one output per reference element");
  return compareFloats(
      [&](int64_t i) {
        size_t k = static_cast<size_t>(i);
        return k < out.size() ? static_cast<double>(out[k])
                              : std::numeric_limits<double>::quiet_NaN();
      },
      ref, mass, outputRange(DType::F32));
}

double relErrBound(DType outType, const ErrorStats &seqF32) {
  if (outType == DType::I32)
    return 0;
  // Room for rounding the exact result to the output type, plus a few f32
  // ulps so an exactly summable input does not demand bit-exactness.
  constexpr double f32Slack = 4 * 0x1p-24;
  double floor;
  switch (outType) {
  case DType::F32:
    floor = f32Slack;
    break;
  case DType::F16:
    floor = 0x1p-11 + f32Slack;
    break;
  case DType::BF16:
    floor = 0x1p-8 + f32Slack;
    break;
  default:
    return 0;
  }
  return 2 * seqF32.relErr + floor;
}

bool withinTolerance(DType outType, const ErrorStats &result,
                     const ErrorStats &seqF32) {
  if (outType == DType::I32)
    return result.mismatches == 0;
  // Written so a NaN relErr fails.
  return result.mismatches == 0 &&
         result.relErr <= relErrBound(outType, seqF32);
}

} // namespace tcuc::ref
