//===- DecayTest.cpp - decayed scans in the runtime's API -----------------===//
//
// What needs no GPU: ScanMode::decay reaching the spec and its key, the
// decay's checks (the C API's: CAPITest.cpp), and the kernels decayed scans
// take (one seg256n kernel for every size in (256, 131072), per-size kernels
// elsewhere). The GPU results are checked by `tcuc run --check` and the
// Python suite (python/tests/test_decay.py).
//
//===----------------------------------------------------------------------===//

#include "tcuc/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace tcuc;

namespace {

KernelSpec decayed(int64_t segment, double decay, DType in = DType::F16) {
  return KernelSpec::scan(segment, in, DType::F32,
                          ScanMode{true, false, decay});
}

TEST(Decay, ScanModeReachesTheSpecAndItsKey) {
  KernelSpec s = decayed(100, 0.9);
  EXPECT_EQ(s.decay, 0.9);
  EXPECT_NE(s.key().find(" decay=0x1.ccccccccccccdp-1"), std::string::npos)
      << s.key();
  // 1 is the plain scan: the same key as without a decay.
  EXPECT_EQ(decayed(100, 1.0).key(),
            KernelSpec::scan(100, DType::F16, DType::F32, true).key());
}

TEST(Decay, Errors) {
  EXPECT_EQ(decayError(0.5, DType::F16), "");
  EXPECT_EQ(decayError(-1.0, DType::BF16), "");
  EXPECT_EQ(decayError(1.0, DType::I8), ""); // the plain scan
  EXPECT_NE(decayError(1.5, DType::F32).find("must lie in [-1, 1]"),
            std::string::npos);
  EXPECT_NE(decayError(NAN, DType::F32).find("must be finite"),
            std::string::npos);
  EXPECT_NE(decayError(INFINITY, DType::F32).find("must be finite"),
            std::string::npos);
  EXPECT_NE(decayError(0.5, DType::I8).find("f16, bf16 or f32 input"),
            std::string::npos);
}

TEST(Decay, SegmentClasses) {
  // Up to 256: the size's own kernel (seg16, seg256).
  for (int64_t s : {1, 16, 100, 256})
    EXPECT_FALSE(resolveSegmentClass(decayed(s, 0.9), SegmentKernelMode::Auto)
                     .runtimeSegment)
        << s;
  // 257..131071: one seg256n kernel that takes the size at launch, the
  // decay and mode kept.
  for (int64_t s : {257, 1000, 3001, 131071}) {
    KernelSpec c =
        resolveSegmentClass(KernelSpec::scan(s, DType::BF16, DType::F32,
                                             ScanMode{false, true, 0.99}),
                            SegmentKernelMode::Auto);
    EXPECT_TRUE(c.runtimeSegment) << s;
    EXPECT_EQ(c.variant, "seg256n");
    EXPECT_EQ(c.decay, 0.99);
    EXPECT_FALSE(c.inclusive);
    EXPECT_TRUE(c.reverse);
    EXPECT_EQ(c.key(), resolveSegmentClass(
                           KernelSpec::scan(1000, DType::BF16, DType::F32,
                                            ScanMode{false, true, 0.99}),
                           SegmentKernelMode::Auto)
                           .key());
  }
  // From 131072 on, per size (the strategy's grid).
  EXPECT_FALSE(
      resolveSegmentClass(decayed(131072, 0.9), SegmentKernelMode::Auto)
          .runtimeSegment);
  // Another decay is another kernel.
  EXPECT_NE(
      resolveSegmentClass(decayed(1000, 0.9), SegmentKernelMode::Auto).key(),
      resolveSegmentClass(decayed(1000, 0.8), SegmentKernelMode::Auto).key());
}

} // namespace
