//===- DecayedReferenceTest.cpp - the decayed scans' references -----------===//
//
// The float64 and sequential-f32 recurrences h = a·h + x that `tcuc run
// --decay` judges decayed scans by, and their decayed mass.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

using namespace tcuc::ref;

namespace {

std::vector<double> d(std::initializer_list<double> v) { return v; }

// Values chosen so that every step is exact in double and in float.
TEST(DecayedReference, InclusiveExclusiveRestartPerSegment) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7};
  // a = 0.5, segments of 3: h = 1, 2.5, 4.25 | 4, 7, 9.5 | 7.
  EXPECT_EQ(referenceDecayedScan(DType::F32, x.data(), 7, 3, 0.5, true),
            d({1, 2.5, 4.25, 4, 7, 9.5, 7}));
  // Exclusive: h_{i-1}, 0 at each head.
  EXPECT_EQ(referenceDecayedScan(DType::F32, x.data(), 7, 3, 0.5, false),
            d({0, 1, 2.5, 0, 4, 7, 0}));
  std::vector<float> f =
      sequentialF32DecayedScan(DType::F32, x.data(), 7, 3, 0.5, true);
  EXPECT_EQ(std::vector<double>(f.begin(), f.end()),
            d({1, 2.5, 4.25, 4, 7, 9.5, 7}));
  EXPECT_TRUE(
      referenceDecayedScan(DType::F32, x.data(), 0, 3, 0.5, true).empty());
}

// Reverse: the recurrence runs from each segment's end.
TEST(DecayedReference, Reverse) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7};
  // Segment [1 2 3] from the end: 3, 2 + 1.5 = 3.5, 1 + 1.75 = 2.75.
  EXPECT_EQ(referenceDecayedScan(DType::F32, x.data(), 7, 3, 0.5, true, true),
            d({2.75, 3.5, 3, 8, 8, 6, 7}));
  EXPECT_EQ(referenceDecayedScan(DType::F32, x.data(), 7, 3, 0.5, false, true),
            d({3.5, 3, 0, 8, 6, 0, 0}));
}

// a = 1 is the plain scan; a = 0 passes x through (exclusive: x_{i-1});
// a negative a alternates.
TEST(DecayedReference, SpecialDecays) {
  std::vector<float> x = {1, 2, 3, 4, 5};
  EXPECT_EQ(referenceDecayedScan(DType::F32, x.data(), 5, 100, 1.0, true),
            referenceScan(DType::F32, x.data(), 5, 100, true));
  EXPECT_EQ(referenceDecayedScan(DType::F32, x.data(), 5, 100, 0.0, true),
            d({1, 2, 3, 4, 5}));
  EXPECT_EQ(referenceDecayedScan(DType::F32, x.data(), 5, 100, 0.0, false),
            d({0, 1, 2, 3, 4}));
  EXPECT_EQ(referenceDecayedScan(DType::F32, x.data(), 5, 100, -1.0, true),
            d({1, 1, 2, 2, 3}));
}

// The mass is sum |a|^(i-j) |x_j|: with |a| for a negative decay.
TEST(DecayedReference, Mass) {
  std::vector<float> x = {1, -2, 4};
  EXPECT_EQ(absoluteMassDecayed(DType::F32, x.data(), 3, 10, -0.5, true),
            d({1, 2.5, 5.25}));
  EXPECT_EQ(absoluteMassDecayed(DType::F32, x.data(), 3, 10, 0.5, false),
            d({0, 1, 2.5}));
}

// The f32 recurrence rounds a·h, then + x: at a = 0.9 (not exact) it
// differs from the float64 one, by no more than a few f32 ulps of the
// mass, and the float64 one agrees with a long-double recurrence far
// closer than that.
TEST(DecayedReference, F32ErrorIsF32Sized) {
  std::vector<uint8_t> in = makeRandomInput(DType::F16, 4096, 7);
  float a = 0.9f;
  std::vector<double> ref =
      referenceDecayedScan(DType::F16, in.data(), 4096, 4096, a, true);
  std::vector<float> seq =
      sequentialF32DecayedScan(DType::F16, in.data(), 4096, 4096, a, true);
  std::vector<double> mass =
      absoluteMassDecayed(DType::F16, in.data(), 4096, 4096, a, true);
  ErrorStats s = compareF32(seq, ref, mass);
  EXPECT_GT(s.relErr, 0.0);          // f32 rounds somewhere
  EXPECT_LT(s.relErr, 16 * 0x1p-24); // but only by f32 roundings
  long double h = 0;
  double worst = 0;
  for (int64_t i = 0; i < 4096; ++i) {
    h = (long double)a * h + loadAsDouble(DType::F16, in.data(), i);
    worst = std::fmax(worst, std::fabs(double(h - ref[i])) / mass[i]);
  }
  EXPECT_LT(worst, 16 * 0x1p-53);
}

// Integer inputs are loaded exactly (the driver rejects a decay for them,
// but the references take any type).
TEST(DecayedReference, I8Input) {
  std::vector<int8_t> x = {4, -8, 2};
  EXPECT_EQ(referenceDecayedScan(DType::I8, x.data(), 3, 3, 0.5, true),
            d({4, -6, -1}));
}

} // namespace
