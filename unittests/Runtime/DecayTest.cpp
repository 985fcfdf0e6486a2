//===- DecayTest.cpp - decayed scans in the runtime's API -----------------===//
//
// What needs no GPU: ScanMode::decay reaching the spec and its key, the
// decay's checks (the C API's: CAPITest.cpp), and the kernels decayed scans
// take (one seg256n kernel for every size in (256, 131072), per-size kernels
// elsewhere). The GPU results are checked by `tcuc run --check` and the
// Python suite (python/tests/test_decay.py).
//
//===----------------------------------------------------------------------===//

#include "tcuc/DiskCache.h"
#include "tcuc/KernelFile.h"
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
  // 257..960 (16-bit input, one decay): one packed kernel, 961..131071:
  // one seg256n kernel, each taking the size at launch, the decay and mode
  // kept.
  for (int64_t s : {257, 300, 768, 769, 960, 961, 1000, 3001, 131071}) {
    KernelSpec c =
        resolveSegmentClass(KernelSpec::scan(s, DType::BF16, DType::F32,
                                             ScanMode{false, true, 0.99}),
                            SegmentKernelMode::Auto);
    bool packed = s <= kDefaultPackedOneDecay16BitSegment;
    EXPECT_TRUE(c.runtimeSegment) << s;
    EXPECT_EQ(c.variant, packed ? "packed" : "seg256n") << s;
    EXPECT_EQ(c.decay, 0.99);
    EXPECT_FALSE(c.inclusive);
    EXPECT_TRUE(c.reverse);
    EXPECT_EQ(c.key(),
              resolveSegmentClass(KernelSpec::scan(packed ? 500 : 1000,
                                                   DType::BF16, DType::F32,
                                                   ScanMode{false, true, 0.99}),
                                  SegmentKernelMode::Auto)
                  .key())
        << s;
  }
  // f32 input packs to 768 only.
  for (int64_t s : {768, 769}) {
    KernelSpec c = resolveSegmentClass(decayed(s, 0.9, DType::F32),
                                       SegmentKernelMode::Auto);
    EXPECT_EQ(c.variant,
              s <= kDefaultPackedDecayedSegment ? "packed" : "seg256n")
        << s;
  }
  // The packed class takes 257..4096 at launch (a scan's only).
  int64_t lo = 0, hi = 0;
  EXPECT_TRUE(runtimeSegmentRange("packed", true, lo, hi));
  EXPECT_EQ(lo, 257);
  EXPECT_EQ(hi, 4096);
  EXPECT_FALSE(runtimeSegmentRange("packed", false, lo, hi));
  EXPECT_EQ(runtimeSegmentError("packed", true, 256),
            "segment size 256 is outside what variant 'packed' takes at "
            "launch [257, 4096]");
  // From 131072 on, per size (the strategy's grid).
  EXPECT_FALSE(
      resolveSegmentClass(decayed(131072, 0.9), SegmentKernelMode::Auto)
          .runtimeSegment);
}

// Every decayed scan's kernel takes the decay at launch: another decay is
// the same kernel, in every segment-kernel mode; the call's decay stays in
// the spec (what the launch passes); a plain scan's kernel takes none.
TEST(Decay, OneKernelForEveryDecay) {
  for (SegmentKernelMode mode :
       {SegmentKernelMode::Auto, SegmentKernelMode::PerSize,
        SegmentKernelMode::Class})
    for (int64_t s : {10, 100, 1000, 300000}) {
      KernelSpec a = resolveSegmentClass(decayed(s, 0.9), mode);
      KernelSpec b = resolveSegmentClass(decayed(s, -0.5), mode);
      EXPECT_TRUE(a.runtimeDecay) << s;
      EXPECT_EQ(a.key(), b.key()) << s;
      EXPECT_NE(a.key().find(" decay=runtime"), std::string::npos) << a.key();
      EXPECT_EQ(b.decay, -0.5);
    }
  EXPECT_FALSE(resolveSegmentClass(decayed(1000, 1.0), SegmentKernelMode::Auto)
                   .runtimeDecay);
}

// Per-segment decays: the kernels of one decay (a kernel per size up to
// 256, the packed class kernel for 257..768, 16-bit input too, the walk's
// for 769..131071, the grid per size), the key "decay=segments".
TEST(Decay, PerSegmentDecaysTakeTheDecayedScansKernels) {
  float any = 0.5f;
  for (int64_t s :
       {1, 10, 256, 257, 768, 769, 960, 1000, 131071, 131072, 1 << 24}) {
    KernelSpec spec = KernelSpec::scan(s, DType::F16, DType::F32,
                                       ScanMode{true, false, 1.0, &any});
    EXPECT_TRUE(spec.segmentDecays);
    KernelSpec c = resolveSegmentClass(spec, SegmentKernelMode::Auto);
    EXPECT_FALSE(c.runtimeDecay) << s;
    EXPECT_NE(c.key().find(" decay=segments"), std::string::npos) << c.key();
    // From 257 to 131071 a class kernel (packed to 768, then the walk);
    // elsewhere the size's own kernel (the strategy's seg16, seg256 or
    // grid).
    bool cls = s > 256 && s < 131072;
    EXPECT_EQ(c.runtimeSegment, cls) << s;
    EXPECT_EQ(c.variant, !cls                                ? ""
                         : s <= kDefaultPackedDecayedSegment ? "packed"
                                                             : "seg256n")
        << s;
  }
}

// A kernel file says whether its kernels take the decay (`tcuc.decay:
// runtime`), and must agree with its spec.
TEST(Decay, KernelFileTakesTheDecay) {
  KernelSpec spec =
      resolveSegmentClass(decayed(100, 0.9), SegmentKernelMode::Auto);
  KernelFile file;
  file.specKey = spec.key();
  file.arch = "sm_90";
  file.version = "0";
  file.build = buildId();
  file.blockSize = 128;
  file.kernels = {"tcuc_kernel_k0"};
  file.runtimeDecay = true;
  std::string text = formatKernelFileHeader(file);
  EXPECT_NE(text.find("// tcuc.decay: runtime\n"), std::string::npos) << text;
  KernelFile parsed;
  ASSERT_TRUE(parseKernelFile(text, parsed).ok());
  EXPECT_TRUE(parsed.runtimeDecay);
  EXPECT_TRUE(checkKernelFile(parsed, spec, "sm_90", buildId()).ok());
  parsed.runtimeDecay = false;
  Status s = checkKernelFile(parsed, spec, "sm_90", buildId());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("the decay at launch"), std::string::npos)
      << s.message();
  std::string bad = text;
  bad.replace(bad.find("decay: runtime"), 14, "decay: 0.5");
  s = parseKernelFile(bad, parsed);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("bad decay"), std::string::npos) << s.message();
}

} // namespace
