//===- KernelCompilerTest.cpp - compiler and runtime agree, no GPU --------===//
//
// The compiler's kernel files must satisfy the runtime's strict parser and
// its cache: compile-on-first-use through a Runtime with the compiler
// registered, for every variant of each op, without a GPU.
//
//===----------------------------------------------------------------------===//

#include "tcuc/GPU/KernelCompiler.h"
#include "tcuc/DiskCache.h"
#include "tcuc/KernelFile.h"
#include "tcuc/Runtime.h"
#include "tcuc/Spec.h"
#include "tcuc/Strategy/CostModel.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

using namespace tcuc;

namespace {

KernelSpec spec(bool scan, int64_t segment, DType in, const char *variant) {
  KernelSpec s;
  s.isScan = scan;
  s.segmentSize = segment;
  s.input = in;
  s.output = in == DType::I8 ? DType::I32 : DType::F32;
  s.variant = variant;
  return s;
}

TEST(KernelCompiler, EveryVariantParsesInTheRuntime) {
  struct Case {
    bool scan;
    int64_t segment;
    const char *variant;
    size_t kernels, scratch;
  } cases[] = {
      {false, 16, "seg16", 1, 0},
      {false, 256, "seg256", 1, 0},
      {false, 1000, "seg256n", 1, 0},
      {false, 1000, "seg16n_strided", 1, 0},
      {false, 1000, "seg16n_coalesced", 1, 0},
      {false, 5000, "block", 1, 0},
      {false, 5000, "grid", 2, 1},
      {false, 64, "packed", 1, 0},
      {true, 16, "seg16", 1, 0},
      {true, 256, "seg256", 1, 0},
      {true, 1000, "seg256n", 1, 0},
      {true, 1000, "seg16n", 1, 0},
      {true, 64, "packed", 1, 0},
      {true, 5000, "block", 1, 0},
      {true, 5000, "grid", 3, 2},
      {true, 100000, "lagged", 2, 1},
  };
  for (const Case &c : cases) {
    for (DType t : {DType::F16, DType::BF16, DType::F32, DType::I8}) {
      KernelSpec s = spec(c.scan, c.segment, t, c.variant);
      std::string text;
      Status status = compileKernelFile(s, "sm_90", text);
      ASSERT_TRUE(status.ok()) << s.key() << ": " << status.message();
      KernelFile file;
      status = parseKernelFile(text, file);
      ASSERT_TRUE(status.ok()) << s.key() << ": " << status.message();
      EXPECT_TRUE(checkKernelFile(file, s, "sm_90", tcuc::buildId()).ok())
          << s.key();
      EXPECT_EQ(file.kernels.size(), c.kernels) << s.key();
      // The header names the strategy that runs: the spec's variant.
      EXPECT_EQ(file.variant, c.variant) << s.key();
      EXPECT_EQ(file.scratch.size(), c.scratch) << s.key();
      // The grid variants' scratch holds one accumulator per 4096-element
      // chunk of each segment: ceil(n / 5000) * 2 for n = 2^31 + 12345.
      int64_t count = 0;
      if (c.scratch) {
        ASSERT_TRUE(file.scratch[0].count.evaluate(2147495993, count).ok());
      }
      if (std::string(c.variant) == "grid") {
        EXPECT_EQ(count, (2147495993 + 4999) / 5000 * 2) << s.key();
      }
      // The lagged scan's state: a ticket counter and two words per chunk
      // (chunks of the header's warps x tiles, 4 x 2 by the rule: 49 in
      // each of 21475 segments; i8 takes its run-19 row, 4 x 4: 25; f16
      // and bf16 the lagged row of 65536, 8 x 4 since tcuc 0.6.28: 13), in
      // whole 16-word groups: proportional to the chunks.
      if (std::string(c.variant) == "lagged") {
        // (0 warps in the header: the variant's rule, kLaggedWarps = 4.)
        int64_t warps = file.warpsPerBlock ? file.warpsPerBlock : 4;
        int64_t chunk = warps * file.tilesPerWarp * 256;
        int64_t chunks = (100000 + chunk - 1) / chunk;
        int64_t expected = t == DType::I8                        ? 25
                           : t == DType::F16 || t == DType::BF16 ? 13
                                                                 : 49;
        EXPECT_EQ(chunks, expected) << s.key();
        EXPECT_EQ(count, (21475 * chunks * 2 + 1 + 15) / 16 * 16) << s.key();
      }
    }
  }
}

// The header's strategy is what the pass left: fixed tiles and warps pass
// through; a fixed variant alone gets the cost model's tiles.
TEST(KernelCompiler, HeaderNamesTheStrategy) {
  KernelSpec s = spec(/*scan=*/true, 100000, DType::F16, "block");
  s.tilesPerWarp = 2;
  s.warpsPerBlock = 8;
  std::string text;
  ASSERT_TRUE(compileKernelFile(s, "sm_90", text).ok());
  KernelFile file;
  ASSERT_TRUE(parseKernelFile(text, file).ok());
  EXPECT_EQ(file.variant, "block");
  EXPECT_EQ(file.tilesPerWarp, 2);
  EXPECT_EQ(file.warpsPerBlock, 8);
  // The lookback rule (CostModel.cpp, no lookback row below 2^22): 4 tiles
  // for f16 when it makes chunks.
  s = spec(/*scan=*/true, 1 << 20, DType::F16, "lookback");
  ASSERT_TRUE(compileKernelFile(s, "sm_90", text).ok());
  ASSERT_TRUE(parseKernelFile(text, file).ok());
  EXPECT_EQ(file.variant, "lookback");
  EXPECT_EQ(file.tilesPerWarp, 4);
  // And the lagged rule: 2 tiles (f16 -> f32 has no lagged row below 2^16;
  // i8 has, from run 19).
  s = spec(/*scan=*/true, 1 << 15, DType::F16, "lagged");
  ASSERT_TRUE(compileKernelFile(s, "sm_90", text).ok());
  ASSERT_TRUE(parseKernelFile(text, file).ok());
  EXPECT_EQ(file.variant, "lagged");
  EXPECT_EQ(file.tilesPerWarp, 2);
  // From 2^16 its row: 4 tiles of 8 warps (bench/results/lagged-8warps).
  s = spec(/*scan=*/true, 1 << 20, DType::F16, "lagged");
  ASSERT_TRUE(compileKernelFile(s, "sm_90", text).ok());
  ASSERT_TRUE(parseKernelFile(text, file).ok());
  EXPECT_EQ(file.tilesPerWarp, 4);
  EXPECT_EQ(file.warpsPerBlock, 8);
  // From 2^22 the table has every measured variant's best row: i8 lagged
  // measured best at 2 tiles and 4 warps (run 20; 4 tiles at 2^17-2^21,
  // run 19).
  s = spec(/*scan=*/true, 1 << 22, DType::I8, "lagged");
  ASSERT_TRUE(compileKernelFile(s, "sm_90", text).ok());
  ASSERT_TRUE(parseKernelFile(text, file).ok());
  EXPECT_EQ(file.variant, "lagged");
  EXPECT_EQ(file.tilesPerWarp, 2);
  EXPECT_EQ(file.warpsPerBlock, 4);
  s = spec(/*scan=*/true, 1 << 21, DType::I8, "lagged");
  ASSERT_TRUE(compileKernelFile(s, "sm_90", text).ok());
  ASSERT_TRUE(parseKernelFile(text, file).ok());
  EXPECT_EQ(file.tilesPerWarp, 4);
}

// A target with a GPU model: the header names it, and the runtime's list of
// models with rows of their own matches the built-in table.
TEST(KernelCompiler, TargetsNameTheGpuModel) {
  KernelSpec s = spec(/*scan=*/false, 1000, DType::F16, "");
  std::string text;
  ASSERT_TRUE(compileKernelFile(s, "sm_90:h200", text).ok());
  KernelFile file;
  ASSERT_TRUE(parseKernelFile(text, file).ok());
  EXPECT_EQ(file.arch, "sm_90:h200");
  EXPECT_FALSE(compileKernelFile(s, "sm_90:", text).ok());
  EXPECT_FALSE(compileKernelFile(s, "sm_70:h200", text).ok());
  for (std::string_view model : tunedGpuModels())
    EXPECT_TRUE(mlir::tcu::hasBuiltinRows(llvm::StringRef(model)))
        << "tunedGpuModels() names " << model << " without table rows";
  EXPECT_TRUE(mlir::tcu::hasBuiltinRows("sm_90"));
  EXPECT_FALSE(mlir::tcu::hasBuiltinRows("no-such-gpu"));
}

TEST(KernelCompiler, RejectsWhatTheVerifierRejects) {
  std::string text;
  Status s =
      compileKernelFile(spec(false, 48, DType::F16, "seg16"), "sm_90", text);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("needs segment_size <= 16"), std::string::npos)
      << s.message();
  s = compileKernelFile(spec(false, 16, DType::F16, ""), "sm_75", text);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("unsupported GPU architecture"),
            std::string::npos);
}

TEST(KernelCompiler, CompilesOnFirstUseThroughTheRuntimeCache) {
  std::string dir = (std::filesystem::temp_directory_path() /
                     ("tcuc-kc-test-" + std::to_string(::getpid())))
                        .string();
  std::filesystem::remove_all(dir);
  RuntimeOptions options;
  options.cacheDir = dir;
  options.compiler = compileKernelFile;
  KernelSpec s = spec(true, 1000, DType::BF16, "");
  {
    Runtime runtime(options);
    std::string text;
    ASSERT_TRUE(runtime.getKernelFile(s, "sm_80", text).ok());
    EXPECT_NE(text.find(".target sm_80"), std::string::npos);
    EXPECT_EQ(runtime.stats().compiles, 1u);
    ASSERT_TRUE(runtime.getKernelFile(s, "sm_80", text).ok());
    EXPECT_EQ(runtime.stats().compiles, 1u);
  }
  // A second runtime finds it on disk.
  Runtime again(options);
  std::string text;
  ASSERT_TRUE(again.getKernelFile(s, "sm_80", text).ok());
  EXPECT_EQ(again.stats().compiles, 0u);
  EXPECT_EQ(again.stats().diskHits, 1u);
  std::filesystem::remove_all(dir);
}

} // namespace
