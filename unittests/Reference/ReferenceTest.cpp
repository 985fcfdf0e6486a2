//===- ReferenceTest.cpp - tcuc::ref data, references and judging ---------===//

#include "tcuc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tcuc::ref;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

// Test buffers are built on a little-endian host, matching the file format.
template <typename T> const void *raw(const std::vector<T> &v) {
  return v.data();
}

std::vector<uint16_t> toHalf(const std::vector<float> &v) {
  std::vector<uint16_t> out;
  for (float f : v)
    out.push_back(floatToHalf(f));
  return out;
}

std::vector<double> d(std::initializer_list<double> l) { return l; }

//===----------------------------------------------------------------------===//
// DType
//===----------------------------------------------------------------------===//

TEST(ReferenceDType, ParseNameBytes) {
  for (DType t : {DType::F16, DType::BF16, DType::F32, DType::I8, DType::I32})
    EXPECT_EQ(parseDType(dtypeName(t)), t) << dtypeName(t);
  EXPECT_FALSE(parseDType("f64"));
  EXPECT_FALSE(parseDType("F16"));
  EXPECT_FALSE(parseDType(""));
  EXPECT_EQ(dtypeBytes(DType::F16), 2u);
  EXPECT_EQ(dtypeBytes(DType::BF16), 2u);
  EXPECT_EQ(dtypeBytes(DType::F32), 4u);
  EXPECT_EQ(dtypeBytes(DType::I8), 1u);
  EXPECT_EQ(dtypeBytes(DType::I32), 4u);
  EXPECT_TRUE(isFloat(DType::BF16));
  EXPECT_FALSE(isFloat(DType::I8));
  EXPECT_FALSE(isFloat(DType::I32));
}

//===----------------------------------------------------------------------===//
// Half
//===----------------------------------------------------------------------===//

TEST(ReferenceHalf, KnownValues) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(0x1p-14f), 0x0400); // smallest normal
  EXPECT_EQ(floatToHalf(0x1p-24f), 0x0001); // smallest subnormal
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(0x1p-149f), 0x0000); // float subnormal underflows
  EXPECT_EQ(halfToFloat(0x3555), 0x1.554p-2f);
  EXPECT_EQ(halfToFloat(0x03ff), 0x3ffp-24f); // largest subnormal
  EXPECT_EQ(halfToFloat(0xfc00), -std::numeric_limits<float>::infinity());
}

TEST(ReferenceHalf, RoundTripsEveryPattern) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    float f = halfToFloat(static_cast<uint16_t>(h));
    bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
    if (nan) {
      EXPECT_TRUE(std::isnan(f)) << std::hex << h;
      uint16_t back = floatToHalf(f);
      EXPECT_TRUE((back & 0x7c00) == 0x7c00 && (back & 0x3ff) != 0)
          << std::hex << h;
      continue;
    }
    ASSERT_EQ(floatToHalf(f), h) << std::hex << h;
  }
}

TEST(ReferenceHalf, TiesRoundToEven) {
  // 1 + 2^-11 sits halfway between 1 (even) and 1 + 2^-10 (odd).
  EXPECT_EQ(floatToHalf(1.0f + 0x1p-11f), 0x3c00);
  // 1 + 3 * 2^-11 sits between 1 + 2^-10 (odd) and 1 + 2^-9 (even).
  EXPECT_EQ(floatToHalf(1.0f + 3 * 0x1p-11f), 0x3c02);
  // In the subnormal range: 2^-25 ties to 0, 3 * 2^-25 ties to 2 * 2^-24.
  EXPECT_EQ(floatToHalf(0x1p-25f), 0x0000);
  EXPECT_EQ(floatToHalf(std::nextafter(0x1p-25f, 1.0f)), 0x0001);
  EXPECT_EQ(floatToHalf(3 * 0x1p-25f), 0x0002);

  // Every midpoint between adjacent finite halves goes to the even one, and
  // one float ulp either side goes to the nearer one.
  for (uint32_t h = 0; h < 0x7bff; ++h) {
    float lo = halfToFloat(static_cast<uint16_t>(h));
    float hi = halfToFloat(static_cast<uint16_t>(h + 1));
    float mid = static_cast<float>((static_cast<double>(lo) + hi) / 2);
    uint32_t even = (h & 1) ? h + 1 : h;
    ASSERT_EQ(floatToHalf(mid), even) << std::hex << h;
    ASSERT_EQ(floatToHalf(-mid), even | 0x8000) << std::hex << h;
    ASSERT_EQ(floatToHalf(std::nextafter(mid, 0.0f)), h) << std::hex << h;
    ASSERT_EQ(floatToHalf(std::nextafter(mid, hi)), h + 1) << std::hex << h;
  }
}

TEST(ReferenceHalf, OverflowAndSpecials) {
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // ties to even: infinity
  EXPECT_EQ(floatToHalf(-65520.0f), 0xfc00);
  EXPECT_EQ(floatToHalf(1e10f), 0x7c00);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::max()), 0x7c00);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(floatToHalf(-std::numeric_limits<float>::infinity()), 0xfc00);
  // A NaN whose payload lives only in bits that do not survive must still
  // come out NaN, not infinity.
  uint16_t n = floatToHalf(floatOf(0x7f800001u));
  EXPECT_EQ(n & 0x7c00, 0x7c00);
  EXPECT_NE(n & 0x3ff, 0);
  EXPECT_EQ(floatToHalf(floatOf(0xffc00000u)) & 0x8000, 0x8000);
}

//===----------------------------------------------------------------------===//
// BFloat16
//===----------------------------------------------------------------------===//

TEST(ReferenceBFloat, KnownValues) {
  EXPECT_EQ(floatToBFloat(1.0f), 0x3f80);
  EXPECT_EQ(floatToBFloat(-2.0f), 0xc000);
  EXPECT_EQ(floatToBFloat(0x1p-133f), 0x0001); // smallest subnormal
  EXPECT_EQ(bfloatToFloat(0x4049), 3.140625f);
  EXPECT_EQ(bfloatToFloat(0x7f7f), 0x1.fep127f); // largest finite
}

TEST(ReferenceBFloat, RoundTripsEveryPattern) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    float f = bfloatToFloat(static_cast<uint16_t>(b));
    bool nan = (b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0;
    if (nan) {
      EXPECT_TRUE(std::isnan(f)) << std::hex << b;
      uint16_t back = floatToBFloat(f);
      EXPECT_TRUE((back & 0x7f80) == 0x7f80 && (back & 0x7f) != 0)
          << std::hex << b;
      continue;
    }
    ASSERT_EQ(floatToBFloat(f), b) << std::hex << b;
  }
}

TEST(ReferenceBFloat, TiesRoundToEven) {
  EXPECT_EQ(floatToBFloat(1.0f + 0x1p-8f), 0x3f80);
  EXPECT_EQ(floatToBFloat(1.0f + 3 * 0x1p-8f), 0x3f82);
  // Every midpoint between adjacent finite bfloats, subnormals included.
  for (uint32_t b = 0; b < 0x7f7f; ++b) {
    float mid = floatOf((b << 16) | 0x8000u);
    uint32_t even = (b & 1) ? b + 1 : b;
    ASSERT_EQ(floatToBFloat(mid), even) << std::hex << b;
    ASSERT_EQ(floatToBFloat(-mid), even | 0x8000) << std::hex << b;
    ASSERT_EQ(floatToBFloat(floatOf(bitsOf(mid) - 1)), b) << std::hex << b;
    ASSERT_EQ(floatToBFloat(floatOf(bitsOf(mid) + 1)), b + 1) << std::hex << b;
  }
}

TEST(ReferenceBFloat, OverflowAndSpecials) {
  // Halfway between the largest finite bfloat (odd) and infinity.
  EXPECT_EQ(floatToBFloat(floatOf(0x7f7f8000u)), 0x7f80);
  EXPECT_EQ(floatToBFloat(floatOf(0x7f7f7fffu)), 0x7f7f);
  EXPECT_EQ(floatToBFloat(std::numeric_limits<float>::max()), 0x7f80);
  EXPECT_EQ(floatToBFloat(-std::numeric_limits<float>::max()), 0xff80);
  EXPECT_EQ(floatToBFloat(std::numeric_limits<float>::infinity()), 0x7f80);
  uint16_t n = floatToBFloat(floatOf(0x7f800001u));
  EXPECT_EQ(n & 0x7f80, 0x7f80);
  EXPECT_NE(n & 0x7f, 0);
}

//===----------------------------------------------------------------------===//
// loadAsDouble
//===----------------------------------------------------------------------===//

TEST(ReferenceLoad, EveryTypeLittleEndian) {
  const uint8_t f16[] = {0x00, 0x00, 0x00, 0x3c, 0x00, 0xc1};
  EXPECT_EQ(loadAsDouble(DType::F16, f16, 1), 1.0);
  EXPECT_EQ(loadAsDouble(DType::F16, f16, 2), -2.5);
  const uint8_t bf16[] = {0x80, 0x3f, 0x49, 0x40};
  EXPECT_EQ(loadAsDouble(DType::BF16, bf16, 0), 1.0);
  EXPECT_EQ(loadAsDouble(DType::BF16, bf16, 1), 3.140625);
  const uint8_t f32[] = {0, 0, 0, 0, 0x00, 0x00, 0x20, 0xc0};
  EXPECT_EQ(loadAsDouble(DType::F32, f32, 1), -2.5);
  const uint8_t i8[] = {0x7f, 0x80, 0xff};
  EXPECT_EQ(loadAsDouble(DType::I8, i8, 0), 127.0);
  EXPECT_EQ(loadAsDouble(DType::I8, i8, 1), -128.0);
  EXPECT_EQ(loadAsDouble(DType::I8, i8, 2), -1.0);
  const uint8_t i32[] = {1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 0x80};
  EXPECT_EQ(loadAsDouble(DType::I32, i32, 0), 1.0);
  EXPECT_EQ(loadAsDouble(DType::I32, i32, 1), -2.0);
  EXPECT_EQ(loadAsDouble(DType::I32, i32, 2), -2147483648.0);
}

//===----------------------------------------------------------------------===//
// Random input
//===----------------------------------------------------------------------===//

const DType kInputTypes[] = {DType::F16, DType::BF16, DType::F32, DType::I8};

TEST(ReferenceRandom, DeterministicPerSeedAndSized) {
  for (DType t : kInputTypes) {
    std::vector<uint8_t> a = makeRandomInput(t, 1000, 42);
    EXPECT_EQ(a.size(), 1000 * dtypeBytes(t));
    EXPECT_EQ(a, makeRandomInput(t, 1000, 42)) << dtypeName(t);
    EXPECT_NE(a, makeRandomInput(t, 1000, 43)) << dtypeName(t);
    EXPECT_NE(a, makeRandomInput(t, 1000, 0)) << dtypeName(t);
    EXPECT_TRUE(makeRandomInput(t, 0, 42).empty());
  }
}

TEST(ReferenceRandom, NeverAllZero) {
  for (DType t : kInputTypes)
    for (uint64_t seed = 0; seed < 300; ++seed)
      for (int64_t n = 1; n <= 50; ++n) {
        std::vector<uint8_t> v = makeRandomInput(t, n, seed);
        bool any = false;
        for (int64_t i = 0; i < n && !any; ++i)
          any = loadAsDouble(t, v.data(), i) != 0.0;
        ASSERT_TRUE(any) << dtypeName(t) << " n=" << n << " seed=" << seed;
      }
  // A single i8 is zero for 1 seed in 256, so this many seeds are sure to
  // hit the fix-up path.
  for (uint64_t seed = 0; seed < 20000; ++seed)
    ASSERT_NE(makeRandomInput(DType::I8, 1, seed)[0], 0) << seed;
}

TEST(ReferenceRandom, FloatRangesAndMagnitudeMix) {
  const int64_t n = 200000;
  for (DType t : {DType::F16, DType::BF16, DType::F32}) {
    std::vector<uint8_t> v = makeRandomInput(t, n, 7);
    int64_t above1 = 0, below2m6 = 0, negative = 0;
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      double x = loadAsDouble(t, v.data(), i);
      ASSERT_TRUE(std::isfinite(x));
      ASSERT_LE(std::fabs(x), 64.0) << dtypeName(t) << " i=" << i;
      above1 += std::fabs(x) > 1.0;
      below2m6 += std::fabs(x) < 0x1p-6;
      negative += x < 0;
      sum += x;
    }
    // Only the power-of-two scaling can push values past 1: about
    // 1/8 * 6/13 * (1/2 on average) of them, i.e. roughly 2.5%.
    EXPECT_GT(above1, n / 100) << dtypeName(t);
    EXPECT_LT(above1, n / 20) << dtypeName(t);
    EXPECT_GT(below2m6, 0) << dtypeName(t);
    EXPECT_NEAR(static_cast<double>(negative) / n, 0.5, 0.01) << dtypeName(t);
    EXPECT_LT(std::fabs(sum / n), 0.05) << dtypeName(t);
  }
}

TEST(ReferenceRandom, I8CoversFullRange) {
  const int64_t n = 100000;
  std::vector<uint8_t> v = makeRandomInput(DType::I8, n, 3);
  double lo = 0, hi = 0, sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    double x = loadAsDouble(DType::I8, v.data(), i);
    lo = std::min(lo, x);
    hi = std::max(hi, x);
    sum += x;
  }
  EXPECT_EQ(lo, -128.0);
  EXPECT_EQ(hi, 127.0);
  EXPECT_NEAR(sum / n, -0.5, 1.5);
}

//===----------------------------------------------------------------------===//
// References
//===----------------------------------------------------------------------===//

TEST(ReferenceCompute, ReduceWithShortLastSegment) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(referenceReduce(DType::F32, raw(x), 7, 3), d({6, 15, 7}));
  EXPECT_EQ(referenceReduce(DType::F32, raw(x), 7, 1),
            d({1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(referenceReduce(DType::F32, raw(x), 7, 7), d({28}));
  EXPECT_EQ(referenceReduce(DType::F32, raw(x), 7, 100), d({28}));
  EXPECT_EQ(referenceReduce(DType::F32, raw(x), 6, 3), d({6, 15}));
  EXPECT_TRUE(referenceReduce(DType::F32, raw(x), 0, 3).empty());

  std::vector<uint16_t> h = toHalf({0.5f, -1.25f, 1024.0f, 0x1p-24f, 3.0f});
  EXPECT_EQ(referenceReduce(DType::F16, raw(h), 5, 2),
            d({-0.75, 1024.0 + 0x1p-24, 3.0}));
}

TEST(ReferenceCompute, ScanInclusiveAndExclusive) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(referenceScan(DType::F32, raw(x), 7, 3, true),
            d({1, 3, 6, 4, 9, 15, 7}));
  // Each segment of an exclusive scan starts again from 0.
  EXPECT_EQ(referenceScan(DType::F32, raw(x), 7, 3, false),
            d({0, 1, 3, 0, 4, 9, 0}));
  EXPECT_EQ(referenceScan(DType::F32, raw(x), 7, 1000, true),
            d({1, 3, 6, 10, 15, 21, 28}));
  EXPECT_EQ(referenceScan(DType::F32, raw(x), 7, 1000, false),
            d({0, 1, 3, 6, 10, 15, 21}));
  EXPECT_TRUE(referenceScan(DType::F32, raw(x), 0, 3, true).empty());

  std::vector<uint16_t> b = {floatToBFloat(2.0f), floatToBFloat(-0.5f),
                             floatToBFloat(256.0f)};
  EXPECT_EQ(referenceScan(DType::BF16, raw(b), 3, 2, false), d({0, 2, 0}));
  EXPECT_EQ(referenceScan(DType::BF16, raw(b), 3, 2, true), d({2, 1.5, 256}));
}

// Reverse (suffix) scans: each segment summed from its end; the short
// last segment too.
TEST(ReferenceCompute, ScanReverse) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(referenceScan(DType::F32, raw(x), 7, 3, true, true),
            d({6, 5, 3, 15, 11, 6, 7}));
  EXPECT_EQ(referenceScan(DType::F32, raw(x), 7, 3, false, true),
            d({5, 3, 0, 11, 6, 0, 0}));
  EXPECT_EQ(referenceScan(DType::F32, raw(x), 7, 1000, false, true),
            d({27, 25, 22, 18, 13, 7, 0}));
  // The forward default is unchanged.
  EXPECT_EQ(referenceScan(DType::F32, raw(x), 7, 3, true, false),
            referenceScan(DType::F32, raw(x), 7, 3, true));
  // Sequential f32 in suffix order, and the mass of each suffix.
  EXPECT_EQ(sequentialF32Scan(DType::F32, raw(x), 7, 3, true, true),
            (std::vector<float>{6, 5, 3, 15, 11, 6, 7}));
  std::vector<float> y = {1, -2, 3, -4, 5};
  EXPECT_EQ(absoluteMass(DType::F32, raw(y), 5, 2, true, false, true),
            d({2, 0, 4, 0, 0}));
  // Offsets with empty segments: [0,2) [2,2) [2,5) [5,7).
  std::vector<int64_t> off = {0, 2, 2, 5, 7};
  EXPECT_EQ(referenceOffsets(DType::F32, raw(x), off, true, true, true),
            d({3, 2, 12, 9, 5, 13, 7}));
  EXPECT_EQ(sequentialF32Offsets(DType::F32, raw(x), off, true, false, true),
            (std::vector<float>{2, 0, 9, 5, 0, 7, 0}));
  EXPECT_EQ(absoluteMassOffsets(DType::F32, raw(x), off, true, false, true),
            d({2, 0, 9, 5, 0, 7, 0}));
}

TEST(ReferenceCompute, ReferenceIsCompensated) {
  // A plain float64 sum of these returns 0; the true sum is 1.
  std::vector<float> x = {0x1p60f, 1.0f, -0x1p60f};
  EXPECT_EQ(referenceReduce(DType::F32, raw(x), 3, 3), d({1}));
  EXPECT_EQ(referenceScan(DType::F32, raw(x), 3, 3, true),
            d({0x1p60, 0x1p60 + 1, 1}));
}

TEST(ReferenceCompute, NaNAndInfPropagateAsIEEEAdds) {
  // The compensation term of an infinite sum is inf - inf = NaN; the
  // reference must still say inf (and NaN only where IEEE adds give NaN).
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = {1, inf, 2, 3, -inf, inf, 4, nan, 5, 6};
  std::vector<double> r = referenceScan(DType::F32, raw(x), 10, 2, true);
  ASSERT_EQ(r.size(), 10u);
  EXPECT_EQ(r[0], 1);
  EXPECT_EQ(r[1], std::numeric_limits<double>::infinity());
  EXPECT_EQ(r[3], 5);
  EXPECT_EQ(r[4], -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(r[5])); // -inf + inf
  EXPECT_EQ(r[6], 4);
  EXPECT_TRUE(std::isnan(r[7]));
  EXPECT_EQ(r[9], 11);
  std::vector<double> s = referenceReduce(DType::F32, raw(x), 10, 5);
  EXPECT_TRUE(std::isnan(s[0])); // inf and -inf in one segment
  EXPECT_TRUE(std::isnan(s[1]));
  std::vector<uint16_t> h = toHalf({1, inf, 2, 3});
  EXPECT_EQ(referenceReduce(DType::F16, raw(h), 4, 2),
            d({std::numeric_limits<double>::infinity(), 5}));
}

TEST(ReferenceCompute, I8IsExact) {
  const int64_t n = 1 << 20;
  const int64_t seg = 1000;
  std::vector<uint8_t> v = makeRandomInput(DType::I8, n, 11);
  std::vector<double> red = referenceReduce(DType::I8, v.data(), n, seg);
  std::vector<double> scan = referenceScan(DType::I8, v.data(), n, seg, true);
  ASSERT_EQ(red.size(), static_cast<size_t>((n + seg - 1) / seg));
  ASSERT_EQ(scan.size(), static_cast<size_t>(n));
  int64_t acc = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (i % seg == 0)
      acc = 0;
    acc += static_cast<int8_t>(v[i]);
    ASSERT_EQ(scan[i], static_cast<double>(acc)) << i;
    if (i % seg == seg - 1 || i == n - 1) {
      ASSERT_EQ(red[i / seg], static_cast<double>(acc)) << i;
    }
  }

  // Sums far beyond float32's 2^24 integer range stay exact.
  std::vector<int8_t> big(3000000, 127);
  big[5] = -128;
  EXPECT_EQ(referenceReduce(DType::I8, raw(big), 3000000, 0),
            d({127.0 * 2999999 - 128}));
}

TEST(ReferenceCompute, SequentialF32IsNaive) {
  // Accumulating in float32 loses each 1 against 2^24; the reference keeps it.
  std::vector<float> x = {0x1p24f, 1, 1, 1, 5};
  EXPECT_EQ(sequentialF32Reduce(DType::F32, raw(x), 5, 4),
            (std::vector<float>{0x1p24f, 5}));
  EXPECT_EQ(referenceReduce(DType::F32, raw(x), 5, 4), d({0x1p24 + 3, 5}));
  EXPECT_EQ(sequentialF32Scan(DType::F32, raw(x), 5, 4, true),
            (std::vector<float>{0x1p24f, 0x1p24f, 0x1p24f, 0x1p24f, 5}));
  EXPECT_EQ(sequentialF32Scan(DType::F32, raw(x), 5, 4, false),
            (std::vector<float>{0, 0x1p24f, 0x1p24f, 0x1p24f, 0}));
  EXPECT_TRUE(sequentialF32Reduce(DType::F32, raw(x), 0, 4).empty());
  EXPECT_TRUE(sequentialF32Scan(DType::F32, raw(x), 0, 4, true).empty());

  std::vector<int8_t> i8 = {100, -3, 7};
  EXPECT_EQ(sequentialF32Scan(DType::I8, raw(i8), 3, 9, false),
            (std::vector<float>{0, 100, 97}));
}

TEST(ReferenceCompute, AbsoluteMass) {
  std::vector<float> x = {1, -2, 3, -4, 5};
  EXPECT_EQ(absoluteMass(DType::F32, raw(x), 5, 2, false, false), d({3, 7, 5}));
  EXPECT_EQ(absoluteMass(DType::F32, raw(x), 5, 2, true, true),
            d({1, 3, 3, 7, 5}));
  EXPECT_EQ(absoluteMass(DType::F32, raw(x), 5, 2, true, false),
            d({0, 1, 0, 3, 0}));
  EXPECT_EQ(absoluteMass(DType::F32, raw(x), 5, 9, false, true), d({15}));
  std::vector<int8_t> i8 = {-128, 127};
  EXPECT_EQ(absoluteMass(DType::I8, raw(i8), 2, 2, false, false), d({255}));
  EXPECT_TRUE(absoluteMass(DType::F32, raw(x), 0, 2, true, true).empty());
}

//===----------------------------------------------------------------------===//
// compare / withinTolerance
//===----------------------------------------------------------------------===//

const ErrorStats kExactBaseline{};

TEST(ReferenceCompare, ExactF32Passes) {
  std::vector<float> out = {6, 15, 7};
  ErrorStats s = compare(DType::F32, raw(out), d({6, 15, 7}), d({6, 15, 7}));
  EXPECT_EQ(s.maxAbsErr, 0);
  EXPECT_EQ(s.relErr, 0);
  EXPECT_EQ(s.worstIndex, -1);
  EXPECT_EQ(s.mismatches, 0);
  EXPECT_TRUE(withinTolerance(DType::F32, s, kExactBaseline));
}

TEST(ReferenceCompare, F32RelativeErrorOf1em3Fails) {
  std::vector<float> out = {6, 1001, 7};
  ErrorStats s =
      compare(DType::F32, raw(out), d({6, 1000, 7}), d({6, 1000, 7}));
  EXPECT_NEAR(s.relErr, 1e-3, 1e-12);
  EXPECT_EQ(s.maxAbsErr, 1);
  EXPECT_EQ(s.worstIndex, 1);
  EXPECT_EQ(s.mismatches, 0);
  EXPECT_FALSE(withinTolerance(DType::F32, s, kExactBaseline));
  ErrorStats seq;
  seq.relErr = 1e-5; // a realistic f32 baseline still does not excuse it
  EXPECT_FALSE(withinTolerance(DType::F32, s, seq));
  seq.relErr = 1e-3; // but a baseline that bad would
  EXPECT_TRUE(withinTolerance(DType::F32, s, seq));
}

TEST(ReferenceCompare, ErrorIsRelativeToMass) {
  // The sum cancelled to 0 but 20 units of |x| fed it: a 2e-6 absolute error
  // is a 1e-7 relative error, not an infinite one.
  std::vector<float> out = {2e-6f, 3.0f};
  ErrorStats s = compare(DType::F32, raw(out), d({0, 3}), d({20, 3}));
  EXPECT_NEAR(s.relErr, 1e-7, 1e-12);
  EXPECT_EQ(s.worstIndex, 0);
  EXPECT_TRUE(withinTolerance(DType::F32, s, kExactBaseline));

  // The worst element is the worst relative error, not absolute.
  std::vector<float> out2 = {100.5f, 1.25f};
  ErrorStats s2 = compare(DType::F32, raw(out2), d({100, 1}), d({100, 1}));
  EXPECT_EQ(s2.worstIndex, 1);
  EXPECT_EQ(s2.maxAbsErr, 0.5);
  EXPECT_EQ(s2.relErr, 0.25);

  // An output fed by nothing (exclusive scan start) must be exactly 0.
  std::vector<float> zero = {0.0f}, tiny = {1e-30f};
  EXPECT_EQ(compare(DType::F32, raw(zero), d({0}), d({0})).relErr, 0);
  EXPECT_GT(compare(DType::F32, raw(tiny), d({0}), d({0})).relErr, 1e200);
}

TEST(ReferenceCompare, HalfPrecisionOutputs) {
  std::vector<double> ref = d({1.0 / 3, -1000.0 / 7, 12345.678});
  std::vector<double> mass = d({1.0 / 3, 1000.0 / 7, 12345.678});
  std::vector<uint16_t> h, b;
  for (double r : ref) {
    h.push_back(floatToHalf(static_cast<float>(r)));
    b.push_back(floatToBFloat(static_cast<float>(r)));
  }
  ErrorStats sh = compare(DType::F16, raw(h), ref, mass);
  EXPECT_GT(sh.relErr, 0);
  EXPECT_TRUE(withinTolerance(DType::F16, sh, kExactBaseline));
  ErrorStats sb = compare(DType::BF16, raw(b), ref, mass);
  EXPECT_GT(sb.relErr, sh.relErr);
  EXPECT_TRUE(withinTolerance(DType::BF16, sb, kExactBaseline));
  // BF16-level error is far beyond what an F16 output may show.
  std::vector<uint16_t> hb;
  for (uint16_t x : b)
    hb.push_back(floatToHalf(bfloatToFloat(x)));
  EXPECT_FALSE(withinTolerance(
      DType::F16, compare(DType::F16, raw(hb), ref, mass), kExactBaseline));
  // A few ulps off in f16 is more than output rounding.
  h[0] = static_cast<uint16_t>(h[0] + 4);
  EXPECT_FALSE(withinTolerance(
      DType::F16, compare(DType::F16, raw(h), ref, mass), kExactBaseline));
}

// Sums beyond f16's range: a correct f16 output holds the infinity of the
// sum's sign (the exact value rounds to it from 65520 on), and a sum carried
// in f32 may round to either side of 65520; an infinity elsewhere, or of the
// wrong sign, still fails.
TEST(ReferenceCompare, HalfOutputsOverflowToInfinity) {
  const uint16_t posInf = 0x7c00, negInf = 0xfc00;
  std::vector<double> ref = d({70000, -1e6, 65519.99, 65530, 100});
  std::vector<double> mass(ref.size(), 1e6);
  std::vector<uint16_t> out = {posInf, negInf, posInf, floatToHalf(65504.0f),
                               floatToHalf(100.0f)};
  ErrorStats s = compare(DType::F16, raw(out), ref, mass);
  EXPECT_EQ(s.mismatches, 0);
  EXPECT_TRUE(withinTolerance(DType::F16, s, kExactBaseline)) << s.relErr;
  // Infinity where the sum is 100: a mismatch.
  out[4] = posInf;
  EXPECT_EQ(compare(DType::F16, raw(out), ref, mass).mismatches, 1);
  // An infinity of the wrong sign beyond the range: a mismatch too.
  out[4] = floatToHalf(100.0f);
  out[0] = negInf;
  s = compare(DType::F16, raw(out), ref, mass);
  EXPECT_EQ(s.mismatches, 1);
  EXPECT_FALSE(withinTolerance(DType::F16, s, kExactBaseline));
  EXPECT_EQ(s.worstIndex, 0);
  // The largest finite value where the sum is far beyond the range (a
  // kernel that saturates instead of overflowing): out of tolerance.
  out[0] = posInf;
  out[1] = floatToHalf(-65504.0f);
  s = compare(DType::F16, raw(out), ref, mass);
  EXPECT_EQ(s.mismatches, 0);
  EXPECT_FALSE(withinTolerance(DType::F16, s, kExactBaseline)) << s.relErr;
}

TEST(ReferenceCompare, NaNIsMismatch) {
  std::vector<float> out = {1.0f, std::nanf("")};
  ErrorStats s = compare(DType::F32, raw(out), d({1, 2}), d({1, 2}));
  EXPECT_EQ(s.mismatches, 1);
  EXPECT_EQ(s.relErr, kInf);
  EXPECT_EQ(s.maxAbsErr, kInf);
  EXPECT_EQ(s.worstIndex, 1);
  ErrorStats awful;
  awful.relErr = kInf;
  EXPECT_FALSE(withinTolerance(DType::F32, s, awful));

  std::vector<float> inf = {std::numeric_limits<float>::infinity()};
  EXPECT_EQ(compare(DType::F32, raw(inf), d({1}), d({1})).mismatches, 1);
  EXPECT_EQ(compare(DType::F32, raw(inf), d({kInf}), d({kInf})).mismatches, 0);
}

TEST(ReferenceCompare, I32ExactAndWrapped) {
  std::vector<int32_t> out = {5, -7, 100};
  std::vector<double> ref = d({5, -7, 100}), mass = d({5, 7, 100});
  ErrorStats s = compare(DType::I32, raw(out), ref, mass);
  EXPECT_EQ(s.mismatches, 0);
  EXPECT_TRUE(withinTolerance(DType::I32, s, kExactBaseline));

  out[2] = 101;
  s = compare(DType::I32, raw(out), ref, mass);
  EXPECT_EQ(s.mismatches, 1);
  EXPECT_EQ(s.worstIndex, 2);
  EXPECT_EQ(s.maxAbsErr, 1);
  EXPECT_FALSE(withinTolerance(DType::I32, s, kExactBaseline));

  // i32 outputs wrap like CUB's: a true sum of 2^31 + 5 reads back as
  // -2^31 + 5, and -2^31 - 1 as 2^31 - 1.
  std::vector<int32_t> wrapped = {std::numeric_limits<int32_t>::min() + 5,
                                  std::numeric_limits<int32_t>::max(), 7};
  std::vector<double> big = d({0x1p31 + 5, -0x1p31 - 1, 3 * 0x1p32 + 7});
  s = compare(DType::I32, raw(wrapped), big, big);
  EXPECT_EQ(s.mismatches, 0);
  EXPECT_TRUE(withinTolerance(DType::I32, s, kExactBaseline));
  // The unwrapped value is not accepted for the wrapped one.
  std::vector<int32_t> five = {5};
  EXPECT_EQ(
      compare(DType::I32, raw(five), d({0x1p31 + 5}), d({0x1p31})).mismatches,
      1);
  // A fractional reference never matches an integer output.
  std::vector<int32_t> zero = {0};
  EXPECT_EQ(compare(DType::I32, raw(zero), d({0.5}), d({1})).mismatches, 1);
}

TEST(ReferenceCompare, CompareF32MatchesCompare) {
  std::vector<float> out = {1.5f, -2.25f, 1e-3f, 7.0f};
  std::vector<double> ref = d({1.5, -2.0, 0.0, 7.5}), mass = d({2, 3, 1, 9});
  ErrorStats a = compareF32(out, ref, mass);
  ErrorStats b = compare(DType::F32, raw(out), ref, mass);
  EXPECT_EQ(a.maxAbsErr, b.maxAbsErr);
  EXPECT_EQ(a.relErr, b.relErr);
  EXPECT_EQ(a.worstIndex, b.worstIndex);
  EXPECT_EQ(a.worstIndex, 1);
  EXPECT_EQ(a.mismatches, b.mismatches);
}

TEST(ReferenceCompare, EndToEndOnRandomData) {
  // Large enough that the f32 baseline makes real errors, segmented with a
  // short tail; a correctly rounded result passes, a slightly wrong one not.
  const int64_t n = 3000000, seg = 1 << 20;
  std::vector<uint8_t> x = makeRandomInput(DType::F16, n, 5);
  std::vector<double> ref = referenceReduce(DType::F16, x.data(), n, seg);
  std::vector<double> mass =
      absoluteMass(DType::F16, x.data(), n, seg, false, false);
  ASSERT_EQ(ref.size(), 3u);
  ErrorStats seq =
      compareF32(sequentialF32Reduce(DType::F16, x.data(), n, seg), ref, mass);
  EXPECT_GT(seq.relErr, 0);
  EXPECT_TRUE(withinTolerance(DType::F32, seq, seq));

  std::vector<float> good(ref.begin(), ref.end());
  EXPECT_TRUE(withinTolerance(DType::F32, compareF32(good, ref, mass), seq));
  std::vector<float> bad = good;
  bad[2] += static_cast<float>(1e-3 * mass[2]);
  EXPECT_FALSE(withinTolerance(DType::F32, compareF32(bad, ref, mass), seq));

  // Scan, exclusive, f16 output rounded from the reference.
  std::vector<double> sref = referenceScan(DType::F16, x.data(), n, seg, false);
  std::vector<double> smass =
      absoluteMass(DType::F16, x.data(), n, seg, true, false);
  ErrorStats sseq = compareF32(
      sequentialF32Scan(DType::F16, x.data(), n, seg, false), sref, smass);
  std::vector<uint16_t> h;
  h.reserve(sref.size());
  for (double r : sref)
    h.push_back(floatToHalf(static_cast<float>(r)));
  EXPECT_TRUE(withinTolerance(DType::F16,
                              compare(DType::F16, raw(h), sref, smass), sseq));
  EXPECT_EQ(sref[seg], 0.0);
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

class ReferenceFile : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tcuc-reftest-XXXXXX";
    int fd = mkstemp(tmpl);
    ASSERT_GE(fd, 0);
    close(fd);
    path = tmpl;
  }
  void TearDown() override { std::remove(path.c_str()); }
  std::string path;
};

TEST_F(ReferenceFile, ExactSizeOnly) {
  std::vector<uint8_t> data = makeRandomInput(DType::F16, 10, 1);
  std::string error;
  ASSERT_TRUE(writeRawFile(path, data.data(), data.size(), &error)) << error;

  std::vector<uint8_t> back;
  ASSERT_TRUE(readRawFile(path, DType::F16, 10, back, &error)) << error;
  EXPECT_EQ(back, data);

  // Expecting 11 elements: the file is one element short.
  EXPECT_FALSE(readRawFile(path, DType::F16, 11, back, &error));
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("22"), std::string::npos) << error;
  EXPECT_NE(error.find("20"), std::string::npos) << error;

  // Expecting 9 elements: the file is one element long.
  error.clear();
  EXPECT_FALSE(readRawFile(path, DType::F16, 9, back, &error));
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("18"), std::string::npos) << error;
  EXPECT_NE(error.find("20"), std::string::npos) << error;

  // Same bytes, different type: 5 f32 elements fit exactly.
  EXPECT_TRUE(readRawFile(path, DType::F32, 5, back, &error)) << error;
  EXPECT_FALSE(readRawFile(path, DType::F32, 10, back, nullptr));
}

TEST_F(ReferenceFile, EmptyAndMissing) {
  std::string error;
  ASSERT_TRUE(writeRawFile(path, nullptr, 0, &error)) << error;
  std::vector<uint8_t> back = {1, 2, 3};
  EXPECT_TRUE(readRawFile(path, DType::I8, 0, back, &error)) << error;
  EXPECT_TRUE(back.empty());

  std::string missing = path + "-missing";
  EXPECT_FALSE(readRawFile(missing, DType::I8, 1, back, &error));
  EXPECT_NE(error.find(missing), std::string::npos) << error;
  EXPECT_FALSE(readRawFile(path, DType::I8, -1, back, &error));

  std::string noDir = "/nonexistent-tcuc-dir/out.bin";
  uint8_t byte = 0;
  EXPECT_FALSE(writeRawFile(noDir, &byte, 1, &error));
  EXPECT_NE(error.find(noDir), std::string::npos) << error;
}

} // namespace
