//===- reduce_scan.cpp - tcuc runtime example: f16 reduce and scan --------===//
//
// Sums segments of random f16 values into f32 and computes their segmented
// inclusive prefix sums on the GPU through the tcuc runtime, then checks both
// against a host loop in double precision.
//
// Exit status: 0 PASS, 1 FAIL (wrong results), 2 could not run (no GPU or
// driver, kernel not available, CUDA error); the runtime's message says why.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace {

/// float -> IEEE half, round to nearest even (finite inputs; enough here).
uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof(x));
  uint16_t sign = uint16_t((x >> 16) & 0x8000u);
  int32_t exp = int32_t((x >> 23) & 0xffu) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (exp >= 31)
    return sign | 0x7c00u; // overflow: infinity
  if (exp <= 0) {          // subnormal half (or zero)
    if (exp < -10)
      return sign;
    mant |= 0x800000u;
    uint32_t shift = uint32_t(14 - exp);
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    half += rest > mid || (rest == mid && (half & 1));
    return sign | uint16_t(half);
  }
  uint32_t half = (uint32_t(exp) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  half += rest > 0x1000u || (rest == 0x1000u && (half & 1)); // may carry
  return sign | uint16_t(half);
}

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0)
    return (sign ? -1.0f : 1.0f) * std::ldexp(float(mant), -24);
  uint32_t bits =
      sign | ((exp == 31 ? 255 : exp - 15 + 127) << 23) | (mant << 13);
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

/// Stops the example when a runtime call fails.
bool check(const tcuc::Status &s, const char *what) {
  if (!s)
    std::fprintf(stderr, "reduce_scan: %s: %s\n", what, s.message().c_str());
  return s.ok();
}

/// |got - want| within float32 accumulation error of a sum of |x|.
bool close(double got, double want, double absSum) {
  return std::fabs(got - want) <= 1e-5 * absSum + 1e-6;
}

} // namespace

int main() {
  const int64_t n = 1000003;
  const int64_t reduceSegment = 1000, scanSegment = 256;

  std::string arch;
  if (!check(tcuc::deviceArch(arch), "no GPU"))
    return 2;
  std::printf("device: %s\n", arch.c_str());

  // Random halves in [-1, 1).
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<uint16_t> host(n);
  for (uint16_t &h : host)
    h = floatToHalf(dist(rng));

  const int64_t numSegments = (n + reduceSegment - 1) / reduceSegment;
  void *stream = nullptr, *in = nullptr, *sums = nullptr, *prefix = nullptr;
  bool ok = check(tcuc::createStream(stream), "creating a stream") &&
            check(tcuc::deviceAlloc(n * 2, in), "allocating the input") &&
            check(tcuc::deviceAlloc(numSegments * 4, sums), "allocating") &&
            check(tcuc::deviceAlloc(n * 4, prefix), "allocating") &&
            check(tcuc::copyToDevice(in, host.data(), n * 2), "copying in") &&
            // The first call for a kernel compiles it or reads it from the
            // disk cache; later calls only launch.
            check(tcuc::reduce(in, sums, n, reduceSegment, tcuc::DType::F16,
                               tcuc::DType::F32, stream),
                  "reduce") &&
            check(tcuc::scan(in, prefix, n, scanSegment, tcuc::DType::F16,
                             tcuc::DType::F32, /*inclusive=*/true, stream),
                  "scan") &&
            check(tcuc::synchronize(stream), "waiting for the GPU");

  std::vector<float> gotSums(numSegments), gotPrefix(n);
  ok = ok &&
       check(tcuc::copyToHost(gotSums.data(), sums, numSegments * 4),
             "copying out") &&
       check(tcuc::copyToHost(gotPrefix.data(), prefix, n * 4), "copying out");
  (void)tcuc::deviceFree(in);
  (void)tcuc::deviceFree(sums);
  (void)tcuc::deviceFree(prefix);
  (void)tcuc::destroyStream(stream);
  if (!ok)
    return 2;

  int64_t bad = 0;
  for (int64_t s = 0; s < numSegments; ++s) {
    double want = 0, absSum = 0;
    for (int64_t i = s * reduceSegment;
         i < std::min(n, (s + 1) * reduceSegment); ++i) {
      want += halfToFloat(host[i]);
      absSum += std::fabs(halfToFloat(host[i]));
    }
    if (!close(gotSums[s], want, absSum) && bad++ < 5)
      std::printf("reduce: segment %lld: got %g, want %g\n", (long long)s,
                  gotSums[s], want);
  }
  double run = 0, absRun = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (i % scanSegment == 0)
      run = absRun = 0;
    run += halfToFloat(host[i]);
    absRun += std::fabs(halfToFloat(host[i]));
    if (!close(gotPrefix[i], run, absRun) && bad++ < 10)
      std::printf("scan: element %lld: got %g, want %g\n", (long long)i,
                  gotPrefix[i], run);
  }
  std::printf("reduce: %lld segments of %lld, scan: segments of %lld, n = %lld"
              "\n%s\n",
              (long long)numSegments, (long long)reduceSegment,
              (long long)scanSegment, (long long)n, bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
