//===- OffsetsTest.cpp - the runtime's offsets API ------------------------===//
//
// reduceOffsets / scanOffsets (the C forms: CAPITest.cpp): argument checks on
// any machine, and on a GPU every distribution of segment lengths of issue 46
// against a host loop (small integers: exact sums), i32 and i64 offsets.
// The GPU part needs the offsets kernels: compiled here in the full build,
// from $TCUC_CACHE_DIR in a runtime-only one (tcuc compile --offset-type
// i32|i64 ... --cache-dir DIR); it skips when neither has them.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

using namespace tcuc;

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// Segment lengths of a named distribution summing to about n.
std::vector<int64_t> offsetsOf(const std::string &dist, int64_t n,
                               std::mt19937 &rng) {
  std::vector<int64_t> off = {0};
  auto push = [&](int64_t len) { off.push_back(off.back() + len); };
  if (dist == "equal100") {
    while (off.back() + 100 <= n)
      push(100);
  } else if (dist == "uniform8") {
    while (off.back() < n)
      push(std::min<int64_t>(1 + rng() % 16, n - off.back()));
  } else if (dist == "halfempty") {
    while (off.back() < n)
      push(rng() % 2 ? 0 : std::min<int64_t>(1 + rng() % 200, n - off.back()));
  } else if (dist == "hugeplus") {
    for (int i = 0; i < 1000; ++i)
      push(rng() % 4);
    push(n / 2);
    for (int i = 0; i < 1000; ++i)
      push(rng() % 4);
  } else if (dist == "allempty") {
    for (int i = 0; i < 7; ++i)
      push(0);
  }
  return off;
}

} // namespace

TEST(Offsets, BadArgumentsAreErrors) {
  Runtime rt;
  int64_t offsets[2] = {0, 4};
  char in[8] = {}, out[8] = {};
  Status s = rt.reduceOffsets(in, out, nullptr, 1, 64, DType::F16, DType::F32);
  EXPECT_TRUE(contains(s.message(), "offsets pointer is null")) << s.message();
  s = rt.reduceOffsets(in, out, offsets, 1, 16, DType::F16, DType::F32);
  EXPECT_TRUE(contains(s.message(), "offset width must be 32 or 64"));
  s = rt.scanOffsets(in, out, offsets, -1, 64, DType::F16, DType::F32, true);
  EXPECT_TRUE(contains(s.message(), "number of segments must be in"));
  s = rt.reduceOffsets(in, out, reinterpret_cast<char *>(offsets) + 4, 1, 64,
                       DType::F16, DType::F32);
  EXPECT_TRUE(contains(s.message(), "offsets pointer is not aligned to i64"));
  // An offsets spec through the one-size entry point: refused, not
  // launched with a segment size where its offsets belong.
  KernelSpec spec = KernelSpec::reduce(1, DType::F16, DType::F32);
  spec.offsetBits = 64;
  s = rt.run(spec, in, out, 4);
  EXPECT_TRUE(contains(s.message(), "takes offsets: reduceOffsets"))
      << s.message();
}

// Without a compiler, a missing offsets kernel names the command that
// makes it: its offsets' width, not a segment size.
TEST(Offsets, MissingKernelNamesItsCompileCommand) {
  if (defaultCompiler())
    GTEST_SKIP() << "this binary registers a compiler";
  RuntimeOptions o;
  o.diskCache = false;
  o.kernelLibrary = false;
  Runtime rt(o);
  KernelSpec spec = KernelSpec::scan(1, DType::I8, DType::I32, false);
  spec.offsetBits = 64;
  std::string text;
  Status s = rt.getKernelFile(spec, "sm_90", text);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "tcuc compile --op scan --offset-type i64 "
                                    "--dtype i8 --out-dtype i32 --exclusive"))
      << s.message();
  EXPECT_FALSE(contains(s.message(), "--segment")) << s.message();
}

TEST(Gpu, OffsetsEveryDistribution) {
  Runtime rt; // the default options: $TCUC_CACHE_DIR, the registered compiler
  std::string arch;
  if (Status gpu = rt.deviceArch(arch); !gpu)
    GTEST_SKIP() << "no GPU: " << gpu.message();
  KernelSpec probe = KernelSpec::reduce(1, DType::F16, DType::F32);
  probe.offsetBits = 64;
  const Kernel *k = nullptr;
  if (Status s = rt.getKernelFor(probe, k); !s)
    GTEST_SKIP() << "no offsets kernel: " << s.message();

  std::mt19937 rng(46);
  const int64_t n = 300007;
  std::vector<int8_t> x(n);
  for (int8_t &v : x)
    v = int8_t(int(rng() % 17) - 8);
  std::vector<uint16_t> half(n); // the same values as f16
  for (int64_t i = 0; i < n; ++i) {
    float f = float(x[i]);
    // Small integers are exact in f16: sign, exponent, 10-bit mantissa.
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    uint32_t sign = (bits >> 16) & 0x8000u;
    int32_t exp = int32_t((bits >> 23) & 0xff) - 127 + 15;
    half[i] =
        f == 0
            ? uint16_t(sign)
            : uint16_t(sign | (uint32_t(exp) << 10) | ((bits >> 13) & 0x3ffu));
  }
  void *dIn16 = nullptr, *dIn8 = nullptr, *dOut = nullptr, *dOff = nullptr;
  ASSERT_TRUE(rt.deviceAlloc(n * 2, dIn16).ok());
  ASSERT_TRUE(rt.deviceAlloc(n, dIn8).ok());
  ASSERT_TRUE(rt.deviceAlloc(n * 4 + 64, dOut).ok());
  ASSERT_TRUE(rt.copyToDevice(dIn16, half.data(), n * 2).ok());
  ASSERT_TRUE(rt.copyToDevice(dIn8, x.data(), n).ok());

  for (std::string dist :
       {"equal100", "uniform8", "halfempty", "hugeplus", "allempty"}) {
    std::vector<int64_t> off = offsetsOf(dist, n, rng);
    int64_t k = int64_t(off.size()) - 1, used = off.back();
    for (int bits : {32, 64}) {
      SCOPED_TRACE(dist + " i" + std::to_string(bits));
      std::vector<int32_t> off32(off.begin(), off.end());
      size_t offBytes = off.size() * (bits / 8);
      ASSERT_TRUE(rt.deviceAlloc(offBytes, dOff).ok());
      ASSERT_TRUE(rt.copyToDevice(dOff,
                                  bits == 32 ? static_cast<void *>(off32.data())
                                             : static_cast<void *>(off.data()),
                                  offBytes)
                      .ok());
      // Reduce f16 -> f32 (validated: the check passes good offsets).
      ASSERT_TRUE(rt.deviceMemset(dOut, 0xff, n * 4).ok());
      Status s = rt.reduceOffsets(dIn16, dOut, dOff, k, bits, DType::F16,
                                  DType::F32, nullptr, /*validate=*/true);
      ASSERT_TRUE(s.ok()) << s.message();
      std::vector<float> sums(std::max<int64_t>(k, 1));
      ASSERT_TRUE(rt.synchronize(nullptr).ok());
      ASSERT_TRUE(rt.copyToHost(sums.data(), dOut, k * 4).ok());
      int bad = 0;
      for (int64_t seg = 0; seg < k; ++seg) {
        int64_t want = 0;
        for (int64_t i = off[seg]; i < off[seg + 1]; ++i)
          want += x[i];
        bad += sums[seg] != float(want);
      }
      EXPECT_EQ(bad, 0);
      // Inclusive scan f16 -> f32 and exclusive i8 -> i32.
      for (bool inclusive : {true, false}) {
        ASSERT_TRUE(rt.deviceMemset(dOut, 0xff, n * 4).ok());
        s = inclusive ? rt.scanOffsets(dIn16, dOut, dOff, k, bits, DType::F16,
                                       DType::F32, true)
                      : rt.scanOffsets(dIn8, dOut, dOff, k, bits, DType::I8,
                                       DType::I32, false);
        ASSERT_TRUE(s.ok()) << s.message();
        std::vector<uint32_t> got(n);
        ASSERT_TRUE(rt.synchronize(nullptr).ok());
        ASSERT_TRUE(rt.copyToHost(got.data(), dOut, n * 4).ok());
        bad = 0;
        for (int64_t seg = 0; seg < k; ++seg) {
          int64_t acc = 0;
          for (int64_t i = off[seg]; i < off[seg + 1]; ++i) {
            if (inclusive)
              acc += x[i];
            float f;
            std::memcpy(&f, &got[i], 4);
            bad += inclusive ? f != float(acc) : int32_t(got[i]) != acc;
            if (!inclusive)
              acc += x[i];
          }
        }
        // Elements past the last offset are not written (poison stays).
        for (int64_t i = used; i < n; ++i)
          bad += got[i] != 0xffffffffu;
        EXPECT_EQ(bad, 0) << (inclusive ? "inclusive f16" : "exclusive i8");
      }
      ASSERT_TRUE(rt.deviceFree(dOff).ok());
    }
  }
  // Validation names the first bad entry, before any launch.
  int64_t bad[3] = {0, 9, 4};
  ASSERT_TRUE(rt.deviceAlloc(sizeof bad, dOff).ok());
  ASSERT_TRUE(rt.copyToDevice(dOff, bad, sizeof bad).ok());
  Status s = rt.reduceOffsets(dIn16, dOut, dOff, 2, 64, DType::F16, DType::F32,
                              nullptr, /*validate=*/true);
  // (n is the last offset, 4, so entry 1 is past it.)
  EXPECT_TRUE(contains(s.message(), "offsets[1] = 9 is past the input's 4"))
      << s.message();
  // Unvalidated, the kernel clamps them: no fault, whatever it computes.
  s = rt.reduceOffsets(dIn16, dOut, dOff, 2, 64, DType::F16, DType::F32);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(rt.synchronize(nullptr).ok());
  for (void *p : {dIn16, dIn8, dOut, dOff})
    EXPECT_TRUE(rt.deviceFree(p).ok());
}

// Past 2^31 elements with i64 offsets: zeros (a memset, no host copy of the
// input) and ones at the sampled places, around every offset and 2^31, so
// each sum and each sampled scan value is an exact count; five segments,
// one across 2^31.
TEST(Gpu, OffsetsPast2To31) {
  Runtime rt;
  std::string arch;
  if (Status gpu = rt.deviceArch(arch); !gpu)
    GTEST_SKIP() << "no GPU: " << gpu.message();
  KernelSpec probe = KernelSpec::scan(1, DType::F16, DType::F32, true);
  probe.offsetBits = 64;
  const Kernel *k = nullptr;
  if (Status s = rt.getKernelFor(probe, k); !s)
    GTEST_SKIP() << "no offsets kernel: " << s.message();
  const int64_t n = (int64_t(1) << 31) + 12345, two31 = int64_t(1) << 31;
  std::vector<int64_t> off = {0, 1000, 1000, two31 - 7, two31 + 9, n};
  int64_t segs = int64_t(off.size()) - 1;
  std::vector<int64_t> ones;
  for (int64_t b : off)
    for (int64_t d = -2; d <= 2; ++d)
      if (b + d >= 0 && b + d < n)
        ones.push_back(b + d);
  for (int64_t p : {two31 - 1, two31, two31 + 1})
    ones.push_back(p);
  std::sort(ones.begin(), ones.end());
  ones.erase(std::unique(ones.begin(), ones.end()), ones.end());
  void *dIn = nullptr, *dOut = nullptr, *dOff = nullptr;
  if (!rt.deviceAlloc(size_t(n) * 2, dIn).ok() ||
      !rt.deviceAlloc(size_t(n) * 4, dOut).ok())
    GTEST_SKIP() << "not enough device memory for 2^31 elements";
  ASSERT_TRUE(rt.deviceAlloc(off.size() * 8, dOff).ok());
  ASSERT_TRUE(rt.deviceMemset(dIn, 0, size_t(n) * 2).ok());
  const uint16_t one = 0x3c00; // f16 1.0
  for (int64_t p : ones)
    ASSERT_TRUE(
        rt.copyToDevice(static_cast<char *>(dIn) + p * 2, &one, 2).ok());
  ASSERT_TRUE(rt.copyToDevice(dOff, off.data(), off.size() * 8).ok());
  auto onesIn = [&](int64_t from, int64_t to) { // [from, to)
    return std::count_if(ones.begin(), ones.end(),
                         [&](int64_t p) { return p >= from && p < to; });
  };

  Status s = rt.reduceOffsets(dIn, dOut, dOff, segs, 64, DType::F16, DType::F32,
                              nullptr, /*validate=*/true);
  ASSERT_TRUE(s.ok()) << s.message();
  std::vector<float> sums(segs);
  ASSERT_TRUE(rt.synchronize(nullptr).ok());
  ASSERT_TRUE(rt.copyToHost(sums.data(), dOut, segs * 4).ok());
  for (int64_t i = 0; i < segs; ++i)
    EXPECT_EQ(sums[i], float(onesIn(off[i], off[i + 1]))) << "segment " << i;

  s = rt.scanOffsets(dIn, dOut, dOff, segs, 64, DType::F16, DType::F32,
                     /*inclusive=*/true);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(rt.synchronize(nullptr).ok());
  for (int64_t p : ones) {
    float got = 0;
    ASSERT_TRUE(rt.copyToHost(&got, static_cast<char *>(dOut) + p * 4, 4).ok());
    int64_t seg = 0;
    while (off[seg + 1] <= p)
      ++seg;
    EXPECT_EQ(got, float(onesIn(off[seg], p + 1))) << "element " << p;
  }
  for (void *p : {dIn, dOut, dOff})
    EXPECT_TRUE(rt.deviceFree(p).ok());
}
