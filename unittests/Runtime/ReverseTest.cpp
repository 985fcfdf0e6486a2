//===- ReverseTest.cpp - reverse (suffix) scans in the runtime's specs ----===//
//
// What needs no GPU: the KernelSpec field, its key (forward keys as
// before, so old caches and the kernel library stay valid), the ScanMode
// factories, the class a reverse spec resolves to, and kernel files told
// apart by it. The GPU runs are in OffsetsTypesTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "tcuc/DiskCache.h"
#include "tcuc/KernelFile.h"
#include "tcuc/Runtime.h"

#include <gtest/gtest.h>

using namespace tcuc;

namespace {

TEST(Reverse, KeyOnlyWhenSet) {
  KernelSpec forward = KernelSpec::scan(1000, DType::F16, DType::F32, true);
  EXPECT_FALSE(forward.reverse);
  EXPECT_EQ(forward.key(),
            "op=scan segment=1000 in=f16 out=f32 inclusive=1 variant=default");
  KernelSpec reverse = forward;
  reverse.reverse = true;
  EXPECT_EQ(reverse.key(), "op=scan segment=1000 in=f16 out=f32 inclusive=1 "
                           "reverse=1 variant=default");
  // Reductions have no direction: the field is not part of their key.
  KernelSpec reduce = KernelSpec::reduce(16, DType::F16, DType::F32);
  std::string key = reduce.key();
  reduce.reverse = true;
  EXPECT_EQ(reduce.key(), key);
}

TEST(Reverse, ScanModeFactories) {
  KernelSpec s = KernelSpec::scan(48, DType::I8, DType::I32,
                                  ScanMode{/*inclusive=*/false, true}, "grid");
  EXPECT_TRUE(s.isScan);
  EXPECT_FALSE(s.inclusive);
  EXPECT_TRUE(s.reverse);
  EXPECT_EQ(s.variant, "grid");
  EXPECT_EQ(s.key(), "op=scan segment=48 in=i8 out=i32 inclusive=0 reverse=1 "
                     "variant=grid");
  KernelSpec d = KernelSpec::scan(48, DType::I8, DType::I32, ScanMode{});
  EXPECT_TRUE(d.inclusive);
  EXPECT_FALSE(d.reverse);
}

// A reverse spec resolves by the forward rules to a reverse class kernel:
// the class keeps the direction, so it never runs a forward kernel.
TEST(Reverse, ClassKernelsKeepTheDirection) {
  KernelSpec s =
      KernelSpec::scan(100, DType::F16, DType::F32, ScanMode{true, true});
  KernelSpec c = resolveSegmentClass(s, SegmentKernelMode::Auto);
  EXPECT_TRUE(c.runtimeSegment);
  EXPECT_EQ(c.variant, "stream");
  EXPECT_TRUE(c.reverse);
  EXPECT_NE(c.key().find("segment=runtime"), std::string::npos);
  EXPECT_NE(c.key().find("reverse=1"), std::string::npos);
  KernelSpec small =
      KernelSpec::scan(7, DType::F32, DType::F32, ScanMode{false, true});
  KernelSpec sc = segmentClassOf(small);
  EXPECT_EQ(sc.variant, "seg16");
  EXPECT_TRUE(sc.reverse);
  // The kernel library holds forward kernels only.
  for (const KernelSpec &k : segmentClassKernels())
    EXPECT_FALSE(k.reverse) << k.key();
  for (const KernelSpec &k : offsetsKernels())
    EXPECT_FALSE(k.reverse) << k.key();
}

// A forward kernel file is not taken for a reverse spec, nor the other way.
TEST(Reverse, KernelFileOfTheOtherDirectionIsRefused) {
  KernelSpec forward = KernelSpec::scan(256, DType::F16, DType::F32, true);
  KernelSpec reverse =
      KernelSpec::scan(256, DType::F16, DType::F32, ScanMode{true, true});
  KernelFile file;
  file.specKey = forward.key();
  file.arch = "sm_90";
  file.build = buildId();
  EXPECT_TRUE(checkKernelFile(file, forward, "sm_90", buildId()).ok());
  Status s = checkKernelFile(file, reverse, "sm_90", buildId());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("is for spec"), std::string::npos) << s.message();
  file.specKey = reverse.key();
  EXPECT_TRUE(checkKernelFile(file, reverse, "sm_90", buildId()).ok());
  EXPECT_FALSE(checkKernelFile(file, forward, "sm_90", buildId()).ok());
}

} // namespace
