//===- RuntimeTest.cpp - tcuc runtime without a GPU -----------------------===//
//
// Everything of the runtime that runs without a GPU: the no-driver errors,
// argument checks, kernel file parsing, size expressions, and the kernel file
// cache in memory and on disk (with a fake compiler). The GPU paths (module
// loading, launching) are covered by the GPU integration tests.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Runtime.h"
#include "tcuc/DiskCache.h"
#include "tcuc/KernelFile.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace tcuc;

namespace {

const char *kNoDriver = "/nonexistent/libcuda.so.1";

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

KernelSpec scanSpec(int64_t segment = 1000) {
  KernelSpec s;
  s.isScan = true;
  s.segmentSize = segment;
  s.input = DType::F16;
  s.output = DType::F32;
  s.inclusive = true;
  return s;
}

/// "MIN MAX" of a class kernel's sizes (runtimeSegmentRange).
std::string segmentRange(const KernelSpec &spec) {
  int64_t lo = 0, hi = 0;
  runtimeSegmentRange(spec.variant, spec.isScan, lo, hi);
  return std::to_string(lo) + " " + std::to_string(hi);
}

/// A well-formed kernel file for `spec` (the PTX is a stand-in; nothing
/// here loads it).
std::string kernelFileFor(const KernelSpec &spec, const std::string &arch,
                          const std::string &build = tcuc::buildId()) {
  return std::string(kKernelFileMagic) + "\n// tcuc.spec: " + spec.key() +
         "\n// tcuc.arch: " + arch + "\n// tcuc.version: " + version() +
         "\n// tcuc.build: " + build + "\n// tcuc.block: 128" +
         (spec.runtimeSegment
              ? "\n// tcuc.segment: runtime " + segmentRange(spec)
              : std::string()) +
         "\n// tcuc.scratch: f32 n 100000 divu n 100000 remu 0 ne add 25 mul"
         "\n// tcuc.kernel: tcuc_k0\n// tcuc.kernel: tcuc_k1"
         "\n// tcuc.items: n 256 divu\n// tcuc.items: 1\n"
         ".version 8.0\n.target " +
         arch + "\n.address_size 64\n// segment " +
         std::to_string(spec.segmentSize) + "\n";
}

/// A fresh directory under the test temp dir, removed at the end.
class TempDir {
public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(base && *base ? base : "/tmp") + "/tcuc-rt-test.XXXXXX";
    path = mkdtemp(tmpl.data()) ? tmpl : std::string();
  }
  ~TempDir() {
    if (!path.empty())
      (void)!std::system(("rm -rf '" + path + "'").c_str());
  }
  std::string path;
};

std::string readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << bytes;
}

std::vector<std::string> listDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
        names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}

/// A CompileFn that writes kernelFileFor(spec, arch) and counts its calls.
struct FakeCompiler {
  std::atomic<int> calls{0};
  std::chrono::milliseconds delay{0};

  CompileFn fn() {
    return [this](const KernelSpec &spec, const std::string &arch,
                  std::string &out) {
      ++calls;
      if (delay.count())
        std::this_thread::sleep_for(delay);
      out = kernelFileFor(spec, arch);
      return Status::success();
    };
  }
};

RuntimeOptions optionsWith(const std::string &dir, CompileFn compiler) {
  RuntimeOptions o;
  o.cacheDir = dir;
  o.compiler = std::move(compiler);
  o.driverPath = kNoDriver;
  // Hermetic: an installed kernel library must not answer these tests.
  o.kernelLibrary = false;
  return o;
}

/// Sets an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old, hadValue = true;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (hadValue)
      setenv(name, saved.c_str(), 1);
    else
      unsetenv(name);
  }

private:
  const char *name;
  std::string saved;
  bool hadValue = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Status
//===----------------------------------------------------------------------===//

TEST(Status, OkAndError) {
  Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_TRUE(static_cast<bool>(ok));
  EXPECT_EQ(ok.message(), "");
  Status err = Status::error("boom");
  EXPECT_FALSE(err.ok());
  EXPECT_FALSE(static_cast<bool>(err));
  EXPECT_EQ(err.message(), "boom");
  EXPECT_EQ(err.withContext("ctx").message(), "ctx: boom");
  EXPECT_TRUE(ok.withContext("ctx").ok());
  EXPECT_FALSE(Status::error("").ok());
}

//===----------------------------------------------------------------------===//
// No CUDA driver
//===----------------------------------------------------------------------===//

TEST(NoDriver, OptionGivesClearError) {
  Runtime rt(optionsWith("", nullptr));
  std::string arch;
  Status s = rt.deviceArch(arch);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "no CUDA driver: could not load " +
                                        std::string(kNoDriver)))
      << s.message();

  void *p = nullptr;
  EXPECT_FALSE(rt.deviceAlloc(64, p).ok());
  EXPECT_EQ(p, nullptr);
  EXPECT_FALSE(rt.synchronize(nullptr).ok());
  const Kernel *k = nullptr;
  Status g = rt.getKernel(scanSpec(), k);
  EXPECT_TRUE(contains(g.message(), "no CUDA driver")) << g.message();
  // Valid-looking arguments get as far as the driver, then the same error.
  Status r = rt.reduce(reinterpret_cast<void *>(0x1000),
                       reinterpret_cast<void *>(0x2000), 100, 16, DType::F16,
                       DType::F32);
  EXPECT_TRUE(contains(r.message(), "no CUDA driver")) << r.message();
}

TEST(NoDriver, EnvironmentOverrideAndGlobalRuntime) {
  ScopedEnv env("TCUC_CUDA_DRIVER", kNoDriver);
  std::string arch;
  Status s = tcuc::deviceArch(arch);
  EXPECT_TRUE(contains(s.message(), "no CUDA driver")) << s.message();
  s = tcuc::scan(reinterpret_cast<void *>(0x1000),
                 reinterpret_cast<void *>(0x2000), 100, 16, DType::F16,
                 DType::F32, true);
  EXPECT_TRUE(contains(s.message(), "no CUDA driver")) << s.message();
  // Every GPU helper fails cleanly; zero-size work needs no device.
  void *p = nullptr;
  EXPECT_FALSE(tcuc::deviceAlloc(16, p).ok());
  EXPECT_TRUE(tcuc::deviceAlloc(0, p).ok());
  EXPECT_TRUE(tcuc::deviceFree(nullptr).ok());
  EXPECT_FALSE(tcuc::synchronize().ok());
}

TEST(NoDriver, LibraryWithoutCudaSymbols) {
  // A library that loads but is not a CUDA driver (libc's math library).
  RuntimeOptions o;
  o.driverPath = "libm.so.6";
  Runtime rt(o);
  std::string arch;
  Status s = rt.deviceArch(arch);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "has no cuInit")) << s.message();
}

//===----------------------------------------------------------------------===//
// Launch arguments (checked before the driver is touched)
//===----------------------------------------------------------------------===//

TEST(LaunchArguments, CheckedWithoutGpu) {
  Runtime rt(optionsWith("", nullptr));
  void *in = reinterpret_cast<void *>(0x1000);
  void *out = reinterpret_cast<void *>(0x2000);
  auto msg = [](Status s) { return s.message(); };

  EXPECT_TRUE(contains(msg(rt.reduce(in, out, -1, 16, DType::F16, DType::F32)),
                       ">= 0"));
  EXPECT_TRUE(
      contains(msg(rt.reduce(nullptr, out, 10, 16, DType::F16, DType::F32)),
               "input pointer is null"));
  EXPECT_TRUE(
      contains(msg(rt.scan(in, nullptr, 10, 16, DType::F16, DType::F32, true)),
               "output pointer is null"));
  EXPECT_TRUE(contains(msg(rt.reduce(reinterpret_cast<void *>(0x1001), out, 10,
                                     16, DType::F16, DType::F32)),
                       "input pointer is not aligned"));
  EXPECT_TRUE(contains(msg(rt.reduce(in, reinterpret_cast<void *>(0x2002), 10,
                                     16, DType::F16, DType::F32)),
                       "output pointer is not aligned"));
  EXPECT_TRUE(contains(msg(rt.reduce(in, out, 10, 0, DType::F16, DType::F32)),
                       "segment size must be >= 1"));
  // Absurd sizes: more than any device holds, or byte counts that overflow.
  for (int64_t n : {kMaxElements + 1, INT64_MAX})
    EXPECT_TRUE(
        contains(msg(rt.scan(in, out, n, 16, DType::F32, DType::F32, true)),
                 "exceeds the largest supported, 2^47"));
  EXPECT_TRUE(contains(
      msg(rt.reduce(in, out, kMaxElements, 16, DType::F16, DType::F32)),
      "no CUDA driver")); // the largest n gets as far as the driver
  // i8 needs no alignment; the error is then the missing driver.
  EXPECT_TRUE(contains(msg(rt.reduce(reinterpret_cast<void *>(0x1001), out, 10,
                                     16, DType::I8, DType::I32)),
                       "no CUDA driver"));
  // A class kernel's spec: the size must be one its variant takes.
  KernelSpec cls = scanSpec(10);
  cls.runtimeSegment = true;
  cls.variant = "stream";
  EXPECT_TRUE(contains(msg(rt.run(cls, in, out, 100)),
                       "segment size 10 is outside what variant 'stream' "
                       "takes at launch [16, 16777216]"));
  cls.variant = "grid";
  cls.segmentSize = 100;
  EXPECT_TRUE(contains(msg(rt.run(cls, in, out, 100)), "(none)"));
  // n == 0 launches nothing, so it succeeds even without a GPU or buffers.
  EXPECT_TRUE(rt.reduce(nullptr, nullptr, 0, 16, DType::F16, DType::F32).ok());
  EXPECT_TRUE(
      rt.scan(nullptr, nullptr, 0, 16, DType::F16, DType::F32, false).ok());
}

//===----------------------------------------------------------------------===//
// Size expressions
//===----------------------------------------------------------------------===//

namespace {
int64_t eval(const std::string &text, int64_t n) {
  SizeExpr e;
  Status s = SizeExpr::parse(text, e);
  EXPECT_TRUE(s.ok()) << s.message();
  int64_t v = -777;
  s = e.evaluate(n, v);
  EXPECT_TRUE(s.ok()) << s.message();
  return v;
}

std::string evalError(const std::string &text, int64_t n) {
  SizeExpr e;
  Status s = SizeExpr::parse(text, e);
  EXPECT_TRUE(s.ok()) << s.message();
  int64_t v;
  return e.evaluate(n, v).message();
}

std::string parseError(const std::string &text) {
  SizeExpr e;
  return SizeExpr::parse(text, e).message();
}
} // namespace

TEST(SizeExpr, Evaluates) {
  const char *blocks = "n 100000 divu n 100000 remu 0 ne add 25 mul";
  EXPECT_EQ(eval(blocks, 0), 0);
  EXPECT_EQ(eval(blocks, 1), 25);
  EXPECT_EQ(eval(blocks, 100000), 25);
  EXPECT_EQ(eval(blocks, 100001), 50);
  const int64_t big = (int64_t(1) << 31) + 12345;
  EXPECT_EQ(eval(blocks, big), ((big + 99999) / 100000) * 25);
  EXPECT_EQ(eval("n", big), big);
  EXPECT_EQ(eval("n 4 mul", big), big * 4);
  EXPECT_EQ(eval("n 3 sub", 10), 7);
  EXPECT_EQ(eval("3 n sub", 10), -7);
  EXPECT_EQ(eval("n 7 mins", 10), 7);
  EXPECT_EQ(eval("n 7 maxs", 10), 10);
  EXPECT_EQ(eval("n 10 eq", 10), 1);
  EXPECT_EQ(eval("n 10 ne", 10), 0);
  EXPECT_EQ(eval("9223372036854775807", 0), INT64_MAX);
}

TEST(SizeExpr, RejectsBadText) {
  EXPECT_TRUE(contains(parseError("n 2 pow"), "unknown token 'pow'"));
  EXPECT_TRUE(contains(parseError("n -1 add"), "unknown token '-1'"));
  EXPECT_TRUE(contains(parseError("n add"), "stack underflow at 'add'"));
  EXPECT_TRUE(contains(parseError("add"), "stack underflow"));
  EXPECT_TRUE(contains(parseError("n 2"), "leaves 2 values"));
  EXPECT_TRUE(contains(parseError(""), "empty token"));
  EXPECT_TRUE(contains(parseError("n  2 add"), "empty token"));
  EXPECT_TRUE(contains(parseError("99999999999999999999"), "unknown token"));
}

TEST(SizeExpr, EvaluationErrors) {
  EXPECT_TRUE(contains(evalError("n 0 divu", 5), "division by zero"));
  EXPECT_TRUE(contains(evalError("n 0 remu", 5), "division by zero"));
  EXPECT_TRUE(contains(evalError("0 n sub 2 divu", 5), "negative"));
  EXPECT_TRUE(contains(evalError("n n mul", int64_t(1) << 40), "overflow"));
  EXPECT_TRUE(contains(evalError("n 1 add", INT64_MAX), "overflow"));
}

//===----------------------------------------------------------------------===//
// Kernel file header
//===----------------------------------------------------------------------===//

TEST(Spec, TargetsAndGpuModels) {
  std::string arch, gpu;
  EXPECT_TRUE(splitTarget("sm_90", arch, gpu));
  EXPECT_EQ(arch, "sm_90");
  EXPECT_EQ(gpu, "");
  EXPECT_TRUE(splitTarget("sm_90:h200", arch, gpu));
  EXPECT_EQ(arch, "sm_90");
  EXPECT_EQ(gpu, "h200");
  EXPECT_TRUE(splitTarget("sm_90a", arch, gpu));
  for (const char *bad : {"", "sm_", "sm_90:", "sm_90:H200", "sm_90:h-200",
                          "90", "sm_9xx", ":h200", "sm_90:h200:x"})
    EXPECT_FALSE(splitTarget(bad, arch, gpu)) << bad;

  EXPECT_EQ(gpuModelOf("NVIDIA H100 80GB HBM3"), "h100");
  EXPECT_EQ(gpuModelOf("NVIDIA H200"), "h200");
  EXPECT_EQ(gpuModelOf("NVIDIA A100-SXM4-80GB"), "a100");
  EXPECT_EQ(gpuModelOf("NVIDIA GeForce RTX 4090"), "");
  EXPECT_EQ(gpuModelOf(""), "");

  // Only specs the tables choose for take the model (the runtime passes a
  // model only where it has rows of its own: none built in yet).
  KernelSpec byTable = KernelSpec::scan(1000, DType::F16, DType::F32, true);
  KernelSpec fixed =
      KernelSpec::scan(1000, DType::F16, DType::F32, true, "seg256n");
  fixed.tilesPerWarp = 2;
  EXPECT_TRUE(usesTunedTable(byTable));
  EXPECT_FALSE(usesTunedTable(fixed));
  KernelSpec block = fixed;
  block.variant = "block";
  EXPECT_TRUE(usesTunedTable(block)); // its warps are the table's
  KernelSpec cls = byTable;
  cls.runtimeSegment = true;
  EXPECT_FALSE(usesTunedTable(cls));
  EXPECT_FALSE(hasTunedRows(""));
  EXPECT_EQ(kernelTarget(byTable, "sm_90", "h200"), "sm_90:h200");
  EXPECT_EQ(kernelTarget(block, "sm_90", "h200"), "sm_90:h200");
  EXPECT_EQ(kernelTarget(fixed, "sm_90", "h200"), "sm_90");
  EXPECT_EQ(kernelTarget(cls, "sm_90", "h200"), "sm_90");
  EXPECT_EQ(kernelTarget(byTable, "sm_90", ""), "sm_90");
}

TEST(KernelFile, ParsesGoodFile) {
  KernelSpec spec = scanSpec(100000);
  std::string text = kernelFileFor(spec, "sm_90");
  KernelFile f;
  Status s = parseKernelFile(text, f);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(f.specKey, spec.key());
  EXPECT_EQ(f.arch, "sm_90");
  EXPECT_EQ(f.version, tcuc::version());
  EXPECT_EQ(f.build, tcuc::buildId());
  EXPECT_EQ(f.blockSize, 128);
  ASSERT_EQ(f.scratch.size(), 1u);
  EXPECT_EQ(f.scratch[0].type, "f32");
  int64_t count = 0;
  ASSERT_TRUE(f.scratch[0].count.evaluate(250000, count).ok());
  EXPECT_EQ(count, 75);
  EXPECT_EQ(f.kernels, (std::vector<std::string>{"tcuc_k0", "tcuc_k1"}));
  EXPECT_EQ(f.text, text);
  EXPECT_TRUE(checkKernelFile(f, spec, "sm_90", tcuc::buildId()).ok());
}

TEST(KernelFile, ScratchTypesAndTheirSizes) {
  EXPECT_EQ(scratchElementBytes("f32"), 4u);
  EXPECT_EQ(scratchElementBytes("i32"), 4u);
  // i64 (look-back state words) is a scratch type, not a data type.
  EXPECT_EQ(scratchElementBytes("i64"), 8u);
  EXPECT_EQ(scratchElementBytes("i8"), 1u);
  EXPECT_EQ(scratchElementBytes("f64"), 0u);
  EXPECT_EQ(scratchElementBytes(""), 0u);
  KernelFile f;
  ASSERT_TRUE(
      parseKernelFile(kernelFileFor(scanSpec(100000), "sm_90"), f).ok());
  uint64_t bytes = 0;
  ASSERT_TRUE(scratchBytes(f, 250000, bytes).ok());
  EXPECT_EQ(bytes, 512u); // 75 f32, padded to 256 bytes
}

TEST(KernelFile, HeaderEndsAtFirstOtherLine) {
  std::string text = kernelFileFor(scanSpec(), "sm_90") +
                     "// tcuc.kernel: not_a_header_line\n";
  KernelFile f;
  ASSERT_TRUE(parseKernelFile(text, f).ok());
  EXPECT_EQ(f.kernels.size(), 2u);
}

TEST(KernelFile, AcceptsCrLfAndArchSuffix) {
  std::string text = std::string(kKernelFileMagic) +
                     "\r\n// tcuc.spec: x\r\n// tcuc.arch: sm_90a\r\n"
                     "// tcuc.version: 0\r\n// tcuc.build: 0\r\n"
                     "// tcuc.block: 1024\r\n"
                     "// tcuc.kernel: k$1\r\n";
  KernelFile f;
  Status s = parseKernelFile(text, f);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(f.arch, "sm_90a");
  EXPECT_EQ(f.blockSize, 1024);
  EXPECT_TRUE(f.scratch.empty());
}

namespace {
/// Parses kernelFileFor(...) with `from` replaced by `to` and returns the
/// error message ("" if it parsed).
std::string headerError(const std::string &from, const std::string &to) {
  std::string text = kernelFileFor(scanSpec(), "sm_90");
  size_t pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  text.replace(pos, from.size(), to);
  KernelFile f;
  return parseKernelFile(text, f).message();
}
} // namespace

// tcuc.launch: dependent is optional; it reads back as written.
TEST(KernelFile, DependentLaunchRoundTrips) {
  KernelFile f;
  ASSERT_TRUE(parseKernelFile(kernelFileFor(scanSpec(), "sm_90"), f));
  EXPECT_FALSE(f.dependentLaunch);
  EXPECT_EQ(formatKernelFileHeader(f).find("tcuc.launch"), std::string::npos);
  f.dependentLaunch = true;
  std::string header = formatKernelFileHeader(f);
  EXPECT_NE(header.find("// tcuc.launch: dependent\n"), std::string::npos);
  KernelFile g;
  Status s = parseKernelFile(header, g);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(g.dependentLaunch);
  EXPECT_EQ(g.kernels, f.kernels);
}

// tcuc.strategy is optional; it reads back as written.
TEST(KernelFile, StrategyRoundTrips) {
  KernelFile f;
  ASSERT_TRUE(parseKernelFile(kernelFileFor(scanSpec(), "sm_90"), f));
  EXPECT_TRUE(f.variant.empty());
  EXPECT_EQ(formatKernelFileHeader(f).find("tcuc.strategy"), std::string::npos);
  f.variant = "block";
  f.tilesPerWarp = 4;
  f.warpsPerBlock = 8;
  std::string header = formatKernelFileHeader(f);
  EXPECT_NE(header.find("// tcuc.strategy: variant=block tiles=4 warps=8\n"),
            std::string::npos);
  KernelFile g;
  Status s = parseKernelFile(header, g);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(g.variant, "block");
  EXPECT_EQ(g.tilesPerWarp, 4);
  EXPECT_EQ(g.warpsPerBlock, 8);
}

TEST(KernelFile, ItemCountsSizeTheGrid) {
  KernelFile f;
  ASSERT_TRUE(parseKernelFile(kernelFileFor(scanSpec(), "sm_90"), f));
  ASSERT_EQ(f.items.size(), 2u);
  EXPECT_NE(formatKernelFileHeader(f).find("// tcuc.items: n 256 divu\n"),
            std::string::npos);
  // A warp per item (4 a block), at most 64 waves of resident blocks.
  EXPECT_EQ(launchGrid(f, 0, 1000, 1 << 20), 1024); // 4096 items
  EXPECT_EQ(launchGrid(f, 0, 1000, 1000), 1);       // 3 items
  EXPECT_EQ(launchGrid(f, 0, 1000, int64_t(1) << 40), 64000);
  EXPECT_EQ(launchGrid(f, 1, 1000, int64_t(1) << 40), 1); // 1 item
  EXPECT_EQ(launchGrid(f, 0, 1000, 100), 1); // no item: still one block
  // Without item counts: the resident blocks, at most a warp per 32.
  f.items.clear();
  EXPECT_EQ(launchGrid(f, 0, 1000, 1 << 20), 1000);
  EXPECT_EQ(launchGrid(f, 0, 1000, 64), 2);
}

TEST(SizeExpr, SegmentToken) {
  // A class kernel's items: ceil(ceil(n / s) / max(1, 4096 / s)).
  const char *items = "n s divu n s remu 0 ne add 4096 s divu 1 maxs divu "
                      "n s divu n s remu 0 ne add 4096 s divu 1 maxs remu 0 "
                      "ne add";
  SizeExpr e;
  ASSERT_TRUE(SizeExpr::parse(items, e).ok());
  for (auto [n, s] : {std::pair<int64_t, int64_t>{1000003, 100},
                      {1000003, 17},
                      {1000003, 5000},
                      {16, 16}}) {
    int64_t v = -1;
    ASSERT_TRUE(e.evaluate(n, v, s).ok());
    int64_t segs = (n + s - 1) / s, per = std::max<int64_t>(1, 4096 / s);
    EXPECT_EQ(v, (segs + per - 1) / per) << n << " " << s;
  }
  // No size given: s is 0, a division by zero, not a wrong count.
  int64_t v = 0;
  EXPECT_TRUE(contains(e.evaluate(100, v).message(), "division by zero"));
}

TEST(KernelFile, RuntimeSegmentRoundTripsAndIsChecked) {
  KernelSpec spec = scanSpec();
  spec.runtimeSegment = true;
  spec.variant = "stream";
  EXPECT_TRUE(contains(spec.key(), "segment=runtime"));
  KernelFile f;
  ASSERT_TRUE(parseKernelFile(kernelFileFor(scanSpec(), "sm_90"), f));
  EXPECT_FALSE(f.runtimeSegment);
  f.runtimeSegment = true;
  f.segmentMin = 16;
  f.segmentMax = 1 << 24;
  std::string header = formatKernelFileHeader(f);
  EXPECT_TRUE(contains(header, "// tcuc.segment: runtime 16 16777216\n"));
  KernelFile g;
  Status s = parseKernelFile(header, g);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(g.runtimeSegment);
  EXPECT_EQ(g.segmentMin, 16);
  EXPECT_EQ(g.segmentMax, 1 << 24);
  // A file that takes the size at launch is not the kernel of a spec that
  // compiles it in, nor the reverse.
  g.specKey = scanSpec().key();
  EXPECT_TRUE(
      contains(checkKernelFile(g, scanSpec(), "sm_90", g.build).message(),
               "takes the segment size at launch"));
  // The class kernel's own spec: taken with its variant's range, refused
  // with another.
  g.specKey = spec.key();
  Status ok = checkKernelFile(g, spec, "sm_90", g.build);
  EXPECT_TRUE(ok.ok()) << ok.message();
  g.segmentMax = 1 << 25;
  EXPECT_TRUE(contains(checkKernelFile(g, spec, "sm_90", g.build).message(),
                       "takes segment sizes [16, 33554432], variant 'stream' "
                       "takes [16, 16777216]"));
  for (const char *bad :
       {"runtime", "runtime 0 5", "runtime 9 5", "runtime 1 2 3", "static 1 5",
        "runtime 1 281474976710657"}) {
    std::string text = header;
    text.replace(text.find("runtime 16 16777216"), 19, bad);
    EXPECT_TRUE(contains(parseKernelFile(text, g).message(), "bad segment"))
        << bad;
  }
}

TEST(KernelSpec, SegmentKernelModes) {
  using M = SegmentKernelMode;
  auto same = [](const KernelSpec &a, const KernelSpec &b) {
    return a.key() == b.key();
  };
  KernelSpec odd = scanSpec(100),
             i8 = KernelSpec::scan(4097, DType::I8, DType::I32, false);
  // Auto (the default; TCUC_SEGMENT_KERNELS is unset in the unit tests):
  // the streaming scan class for 16-bit and i8 scans of 17..8192 that are
  // not a multiple of 16, per size otherwise.
  EXPECT_EQ(resolveSegmentClass(odd).variant, "stream");
  EXPECT_TRUE(resolveSegmentClass(odd).runtimeSegment);
  EXPECT_EQ(resolveSegmentClass(i8, M::Auto).variant, "stream");
  for (const KernelSpec &own :
       {scanSpec(16), scanSpec(128), scanSpec(8200), scanSpec(7),
        KernelSpec::scan(100, DType::F32, DType::F32, true),
        KernelSpec::reduce(100, DType::F16, DType::F32),
        KernelSpec::scan(100, DType::F16, DType::F32, true, "seg256")})
    EXPECT_TRUE(same(resolveSegmentClass(own, M::Auto), own)) << own.key();
  EXPECT_TRUE(same(resolveSegmentClass(scanSpec(17), M::Auto),
                   segmentClassOf(scanSpec(17))));
  // PerSize: every spec its own kernel; Class: every size with a class.
  EXPECT_TRUE(same(resolveSegmentClass(odd, M::PerSize), odd));
  EXPECT_EQ(resolveSegmentClass(KernelSpec::reduce(100, DType::F16, DType::F32),
                                M::Class)
                .variant,
            "seg16n_strided");
  EXPECT_EQ(resolveSegmentClass(scanSpec(128), M::Class).variant, "stream");
  int64_t lo = 0, hi = 0;
  EXPECT_TRUE(runtimeSegmentRange("stream", true, lo, hi));
  EXPECT_EQ(lo, 16);
  EXPECT_EQ(hi, 1 << 24);
  EXPECT_FALSE(runtimeSegmentRange("stream", false, lo, hi));
  EXPECT_TRUE(runtimeSegmentRange("seg16n_strided", false, lo, hi));
  EXPECT_FALSE(runtimeSegmentRange("seg16n_strided", true, lo, hi));
  EXPECT_FALSE(runtimeSegmentRange("grid", false, lo, hi));
}

TEST(KernelFile, RejectsMalformedHeaders) {
  struct Case {
    std::string from, to, expect;
  } cases[] = {
      {"// tcuc kernel file 1", "// tcuc kernel file 2", "line 1: expected"},
      {"// tcuc kernel file 1\n", "", "line 1: expected"},
      {"// tcuc.spec: ", "// tcuc.nospec: ", "unknown header field"},
      {"// tcuc.arch: sm_90\n", "", "no tcuc.arch line"},
      {"// tcuc.version: ", "// tcuc.vers: ", "unknown header field"},
      {"// tcuc.build: ", "// tcuc.builds: ", "unknown header field"},
      {"// tcuc.block: 128\n", "", "no tcuc.block line"},
      {"// tcuc.kernel: tcuc_k0\n// tcuc.kernel: tcuc_k1\n", "",
       "no tcuc.kernel line"},
      {"// tcuc.block: 128", "// tcuc.block: 100", "bad block size '100'"},
      {"// tcuc.block: 128", "// tcuc.block: 0", "bad block size"},
      {"// tcuc.block: 128", "// tcuc.block: 2048", "bad block size"},
      {"// tcuc.block: 128", "// tcuc.block: 12x", "bad block size"},
      {"// tcuc.block: 128", "// tcuc.block: 128\n// tcuc.block: 64",
       "repeated field tcuc.block"},
      {"// tcuc.arch: sm_90", "// tcuc.arch: gfx90a", "bad arch"},
      {"// tcuc.arch: sm_90", "// tcuc.arch: sm_", "bad arch"},
      {"scratch: f32", "scratch: f64", "bad scratch element type 'f64'"},
      {"scratch: f32 n 100000 divu n 100000 remu 0 ne add 25 mul",
       "scratch: f32", "no size expression"},
      {"25 mul", "25 pow", "unknown token 'pow'"},
      {"n 100000 divu", "100000 divu", "stack underflow"},
      {"25 mul", "25", "leaves 2 values"},
      {"// tcuc.kernel: tcuc_k0", "// tcuc.kernel: 0bad", "bad kernel name"},
      {"// tcuc.kernel: tcuc_k0", "// tcuc.kernel: a b", "bad kernel name"},
      {"// tcuc.block: 128", "// tcuc.block 128", "malformed header line"},
      {"// tcuc.block: 128", "// tcucblock: 128", "malformed header line"},
      {"// tcuc.block: 128", "// tcuc.block: ", "empty value"},
      {"// tcuc.items: 1\n", "", "1 tcuc.items lines for 2 kernels"},
      {"items: n 256 divu", "items: n divu", "stack underflow"},
      {"// tcuc.kernel: tcuc_k0",
       "// tcuc.launch: serial\n// tcuc.kernel: tcuc_k0",
       "bad launch 'serial' (expected dependent)"},
      {"// tcuc.kernel: tcuc_k0",
       "// tcuc.launch: dependent\n// tcuc.launch: dependent\n"
       "// tcuc.kernel: tcuc_k0",
       "repeated field tcuc.launch"},
      {"// tcuc.block: 128",
       "// tcuc.block: 128\n// tcuc.strategy: variant=grid tiles=4",
       "bad strategy 'variant=grid tiles=4'"},
      {"// tcuc.block: 128",
       "// tcuc.block: 128\n// tcuc.strategy: variant=grid tiles=0 warps=0",
       "bad strategy"},
      {"// tcuc.block: 128",
       "// tcuc.block: 128\n// tcuc.strategy: variant=grid tiles=4 warps=17",
       "bad strategy"},
      {"// tcuc.block: 128",
       "// tcuc.block: 128\n// tcuc.strategy: variant=Grid! tiles=4 warps=0",
       "bad strategy"},
      {"// tcuc.block: 128",
       "// tcuc.block: 128\n// tcuc.strategy: variant=grid warps=0 tiles=4",
       "bad strategy"},
      {"// tcuc.block: 128",
       "// tcuc.block: 128\n// tcuc.strategy: variant=grid tiles=4 warps=0 x",
       "bad strategy"},
      {"// tcuc.block: 128",
       "// tcuc.block: 128\n// tcuc.strategy: variant=grid tiles=4 warps=0\n"
       "// tcuc.strategy: variant=grid tiles=4 warps=0",
       "repeated field tcuc.strategy"},
  };
  for (const Case &c : cases) {
    std::string err = headerError(c.from, c.to);
    EXPECT_TRUE(contains(err, c.expect))
        << "replacing '" << c.from << "' by '" << c.to << "': got '" << err
        << "', expected '" << c.expect << "'";
    EXPECT_TRUE(contains(err, "kernel file")) << err;
  }
  KernelFile f;
  EXPECT_TRUE(contains(parseKernelFile("", f).message(), "empty"));
  // The error names the line.
  EXPECT_TRUE(contains(headerError("// tcuc.block: 128", "// tcuc.block: 7"),
                       "line 6:"));
}

TEST(KernelFile, CheckNamesTheMismatch) {
  KernelSpec spec = scanSpec();
  KernelFile f;
  ASSERT_TRUE(parseKernelFile(kernelFileFor(spec, "sm_90"), f).ok());
  KernelSpec other = spec;
  other.inclusive = false;
  EXPECT_TRUE(contains(checkKernelFile(f, other, "sm_90", buildId()).message(),
                       "is for spec"));
  EXPECT_TRUE(contains(checkKernelFile(f, spec, "sm_80", buildId()).message(),
                       "is for sm_90, expected sm_80"));
  EXPECT_TRUE(
      contains(checkKernelFile(f, spec, "sm_90", "0123456789abcdef").message(),
               "made by a tcuc of build"));
  // The release is not compared: the same build id is the same kernels.
  KernelFile older = f;
  older.version = "0.0.1";
  EXPECT_TRUE(checkKernelFile(older, spec, "sm_90", buildId()).ok());
}

//===----------------------------------------------------------------------===//
// Disk cache format
//===----------------------------------------------------------------------===//

TEST(DiskCache, KeyHasSpecArchAndBuildId) {
  KernelSpec a = scanSpec(1000), b = scanSpec(1001);
  std::string name = cache::fileName(a, "sm_90");
  EXPECT_EQ(name.size(), 16u);
  EXPECT_EQ(name.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(name, cache::fileName(a, "sm_90", buildId()));
  EXPECT_NE(name, cache::fileName(b, "sm_90"));
  EXPECT_NE(name, cache::fileName(a, "sm_80"));
  EXPECT_NE(name, cache::fileName(a, "sm_90", "0123456789abcdef"));
  // 16 hex digits, as cmake/TCUCBuildId.cmake makes it.
  EXPECT_EQ(std::string(buildId()).size(), 16u);
  EXPECT_EQ(std::string(buildId()).find_first_not_of("0123456789abcdef"),
            std::string::npos);
  EXPECT_EQ(cache::fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(cache::fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(kernelCachePath(a, "sm_90", "/x/y"), "/x/y/" + name);
}

// Strategy strings: "", "name", "name:k", ":k", "name:k:w"; tiles 1..8,
// warps a power of two up to 16. Tiles and warps are part of the cache key,
// so two strategies never share a kernel.
// Offsets kernels: their own key (no size), never a class kernel, and the
// one check of CSR offsets every driver and API runs before a launch.
TEST(KernelSpec, OffsetsKeyAndChecks) {
  KernelSpec spec = KernelSpec::reduce(1, DType::F16, DType::F32);
  spec.offsetBits = 64;
  EXPECT_EQ(spec.key(), "op=reduce offsets=i64 in=f16 out=f32 variant=default");
  spec.offsetBits = 32;
  spec.isScan = true;
  EXPECT_EQ(spec.key(),
            "op=scan offsets=i32 in=f16 out=f32 inclusive=1 variant=default");
  EXPECT_EQ(segmentClassOf(spec).key(), spec.key());
  EXPECT_EQ(resolveSegmentClass(spec, SegmentKernelMode::Auto).key(),
            spec.key());

  const int64_t good[] = {0, 0, 3, 3, 10};
  EXPECT_EQ(offsetsError(good, 5, 10), "");
  const int32_t good32[] = {0, 10};
  EXPECT_EQ(offsetsError(good32, 2, 10), "");
  const int64_t zero[] = {0};
  EXPECT_EQ(offsetsError(zero, 1, 0), ""); // no segments, no elements
  EXPECT_NE(offsetsError(zero, 1, 5).find("no segments for a non-empty input"),
            std::string::npos);
  EXPECT_NE(offsetsError(good, 0, 10).find("got none"), std::string::npos);
  const int64_t first[] = {1, 10};
  EXPECT_NE(offsetsError(first, 2, 10).find("offsets[0] must be 0, got 1"),
            std::string::npos);
  const int64_t down[] = {0, 6, 5, 10};
  EXPECT_NE(offsetsError(down, 4, 10).find("offsets[2] = 5 < offsets[1] = 6"),
            std::string::npos);
  const int32_t negative[] = {0, -3, 10};
  EXPECT_NE(offsetsError(negative, 3, 10).find("offsets[1] = -3"),
            std::string::npos);
  const int64_t past[] = {0, 11, 10};
  EXPECT_NE(offsetsError(past, 3, 10).find("offsets[1] = 11 is past"),
            std::string::npos);
  const int64_t shortLast[] = {0, 4, 9};
  EXPECT_NE(offsetsError(shortLast, 3, 10).find("the last offset must be n"),
            std::string::npos);
}

TEST(KernelSpec, StrategyStrings) {
  KernelSpec s = scanSpec(1000);
  std::string error;
  ASSERT_TRUE(s.setStrategy("seg256n:4", error)) << error;
  EXPECT_EQ(s.variant, "seg256n");
  EXPECT_EQ(s.tilesPerWarp, 4);
  std::string withTiles = s.key();
  EXPECT_NE(withTiles.find(" variant=seg256n tiles=4"), std::string::npos)
      << withTiles;
  ASSERT_TRUE(s.setStrategy(":2", error)) << error;
  EXPECT_EQ(s.variant, "");
  EXPECT_EQ(s.tilesPerWarp, 2);
  ASSERT_TRUE(s.setStrategy("grid", error)) << error;
  EXPECT_EQ(s.variant, "grid");
  EXPECT_EQ(s.tilesPerWarp, 0);
  EXPECT_EQ(s.key().find("tiles="), std::string::npos);
  EXPECT_NE(cache::fileName(s, "sm_90"),
            cache::fileName(scanSpec(1000), "sm_90"));
  // Warps per block: in the key too, and reset by a strategy without them.
  ASSERT_TRUE(s.setStrategy("block:2:8", error)) << error;
  EXPECT_EQ(s.variant, "block");
  EXPECT_EQ(s.tilesPerWarp, 2);
  EXPECT_EQ(s.warpsPerBlock, 8);
  std::string withWarps = s.key();
  EXPECT_NE(withWarps.find(" variant=block tiles=2 warps=8"), std::string::npos)
      << withWarps;
  ASSERT_TRUE(s.setStrategy("block:2", error)) << error;
  EXPECT_EQ(s.warpsPerBlock, 0);
  EXPECT_NE(s.key(), withWarps);
  ASSERT_TRUE(s.setStrategy("lookback:4:16", error)) << error;
  EXPECT_EQ(s.variant, "lookback");
  EXPECT_EQ(s.tilesPerWarp, 4);
  EXPECT_EQ(s.warpsPerBlock, 16);
  EXPECT_TRUE(isWarpsPerBlock(0));
  EXPECT_TRUE(isWarpsPerBlock(16));
  EXPECT_FALSE(isWarpsPerBlock(12));
  EXPECT_FALSE(isWarpsPerBlock(32));
  EXPECT_FALSE(isWarpsPerBlock(-4));
  EXPECT_TRUE(takesWarpsPerBlock("lookback"));
  EXPECT_FALSE(takesWarpsPerBlock("grid"));
  for (const char *bad :
       {"seg256n:0", "seg256n:9", "seg256n:", ":12", ":x", "block:2:3",
        "block:2:32", "block:2:", "block::8", "block:2:8:1", "block:2:0",
        "block:2:08", "lookback:2:x", "lookback:2:-4"}) {
    KernelSpec t = scanSpec(1000);
    EXPECT_FALSE(t.setStrategy(bad, error)) << bad;
    EXPECT_NE(error.find("1..8"), std::string::npos) << error;
    EXPECT_EQ(t.key(), scanSpec(1000).key()) << "unchanged after " << bad;
  }
}

TEST(DiskCache, DefaultDirectoryFromEnvironment) {
  ScopedEnv a("TCUC_CACHE_DIR", "/c/tcuc");
  ScopedEnv b("XDG_CACHE_HOME", "/xdg");
  ScopedEnv c("HOME", "/home/u");
  EXPECT_EQ(cache::defaultDirectory(), "/c/tcuc");
  {
    ScopedEnv a2("TCUC_CACHE_DIR", nullptr);
    EXPECT_EQ(cache::defaultDirectory(), "/xdg/tcuc");
    ScopedEnv b2("XDG_CACHE_HOME", "");
    EXPECT_EQ(cache::defaultDirectory(), "/home/u/.cache/tcuc");
    ScopedEnv c2("HOME", nullptr);
    EXPECT_EQ(cache::defaultDirectory(), "");
    Runtime rt;
    EXPECT_EQ(rt.cacheDirectory(), "");
    EXPECT_FALSE(rt.diskCacheWarning().empty());
  }
  Runtime rt;
  EXPECT_EQ(rt.cacheDirectory(), "/c/tcuc");
}

TEST(DiskCache, StoreAndLoadRoundTrip) {
  TempDir dir;
  std::string path = dir.path + "/a/b/entry";
  std::string content = "hello\nkernel\n";
  ASSERT_TRUE(cache::store(path, content).ok());
  std::string back;
  EXPECT_EQ(cache::load(path, back), cache::LoadResult::Hit);
  EXPECT_EQ(back, content);
  std::string raw = readFile(path);
  EXPECT_EQ(raw.substr(0, 13), "tcuc-cache 1 ");
  EXPECT_TRUE(contains(raw, " 13\nhello")) << raw;
  // Only the entry: the temporary file was renamed into place.
  EXPECT_EQ(listDir(dir.path + "/a/b"), std::vector<std::string>{"entry"});
  EXPECT_EQ(cache::load(dir.path + "/missing", back), cache::LoadResult::Miss);
}

TEST(DiskCache, LoadRejectsDamage) {
  TempDir dir;
  std::string path = dir.path + "/entry";
  ASSERT_TRUE(cache::store(path, "0123456789").ok());
  std::string good = readFile(path);
  auto loadOf = [&](const std::string &bytes, std::string *why) {
    writeFile(path, bytes);
    std::string out;
    return cache::load(path, out, why);
  };
  std::string why;
  std::string flipped = good;
  flipped[flipped.size() - 3] ^= 1;
  EXPECT_EQ(loadOf(flipped, &why), cache::LoadResult::Corrupt);
  EXPECT_TRUE(contains(why, "hash")) << why;
  EXPECT_EQ(loadOf(good.substr(0, good.size() - 1), &why),
            cache::LoadResult::Corrupt);
  EXPECT_TRUE(contains(why, "length")) << why;
  EXPECT_EQ(loadOf(good + "x", &why), cache::LoadResult::Corrupt);
  EXPECT_EQ(loadOf("", &why), cache::LoadResult::Corrupt);
  EXPECT_EQ(loadOf("tcuc-cache 2 " + good.substr(13), &why),
            cache::LoadResult::Corrupt);
  EXPECT_EQ(loadOf("tcuc-cache 1 zz\n", &why), cache::LoadResult::Corrupt);
  EXPECT_EQ(loadOf(good, &why), cache::LoadResult::Hit);
}

/// The owner the tests give a "foreign" file: nobody (needs root to chown).
constexpr uid_t kNobody = 65534;

TEST(DiskCache, LoadRefusesFilesOthersCanWrite) {
  TempDir dir;
  std::string path = dir.path + "/entry";
  ASSERT_TRUE(cache::store(path, "0123456789").ok());
  std::string out, why;
  ASSERT_EQ(cache::load(path, out), cache::LoadResult::Hit);

  ASSERT_EQ(chmod(path.c_str(), 0666), 0);
  EXPECT_EQ(cache::load(path, out, &why), cache::LoadResult::Untrusted);
  EXPECT_TRUE(contains(why, "world-writable (mode 0666)")) << why;
  ASSERT_EQ(chmod(path.c_str(), 0644), 0);
  EXPECT_EQ(cache::load(path, out), cache::LoadResult::Hit);

  // A symbolic link could point anywhere: not followed.
  std::string link = dir.path + "/link";
  ASSERT_EQ(symlink(path.c_str(), link.c_str()), 0);
  EXPECT_EQ(cache::load(link, out, &why), cache::LoadResult::Untrusted);
  EXPECT_TRUE(contains(why, "symbolic link")) << why;

  // A directory where a file should be.
  ASSERT_EQ(mkdir((dir.path + "/sub").c_str(), 0755), 0);
  EXPECT_EQ(cache::load(dir.path + "/sub", out, &why),
            cache::LoadResult::Untrusted);
  EXPECT_TRUE(contains(why, "not a regular file")) << why;

  if (geteuid() != 0)
    GTEST_SKIP() << "giving a file to another user needs root";
  ASSERT_EQ(chown(path.c_str(), kNobody, kNobody), 0);
  EXPECT_EQ(cache::load(path, out, &why), cache::LoadResult::Untrusted);
  EXPECT_TRUE(contains(why, "owned by another user (uid 65534")) << why;
}

TEST(DiskCache, CheckDirectory) {
  TempDir dir;
  EXPECT_TRUE(cache::checkDirectory(dir.path).ok());
  EXPECT_TRUE(cache::checkDirectory(dir.path + "/not-yet").ok());
  writeFile(dir.path + "/file", "x");
  Status s = cache::checkDirectory(dir.path + "/file");
  EXPECT_TRUE(contains(s.message(), "is not a directory")) << s.message();
  ASSERT_EQ(chmod(dir.path.c_str(), 0777), 0);
  s = cache::checkDirectory(dir.path);
  EXPECT_TRUE(contains(s.message(), "world-writable (mode 0777)"))
      << s.message();
  // store() refuses it too: nothing would ever read the file back.
  EXPECT_FALSE(cache::store(dir.path + "/entry", "x").ok());
  ASSERT_EQ(chmod(dir.path.c_str(), 0700), 0);
}

TEST(KernelCache, WorldWritableDirectoryIsNeitherReadNorWritten) {
  TempDir dir;
  KernelSpec spec = scanSpec();
  std::string path = kernelCachePath(spec, "sm_90", dir.path);
  // A planted file with a valid header and hash: exactly what must not run.
  std::string planted = kernelFileFor(spec, "sm_90");
  planted.insert(planted.size() - 1, " planted");
  ASSERT_TRUE(cache::store(path, planted).ok());
  std::string stored = readFile(path);
  ASSERT_EQ(chmod(dir.path.c_str(), 0777), 0);

  FakeCompiler compiler;
  Runtime rt(optionsWith(dir.path, compiler.fn()));
  std::string text;
  Status s = rt.getKernelFile(spec, "sm_90", text);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(text, kernelFileFor(spec, "sm_90")); // compiled, not loaded
  EXPECT_EQ(compiler.calls, 1);
  EXPECT_EQ(rt.stats().diskHits, 0u);
  EXPECT_EQ(rt.stats().diskStores, 0u);
  EXPECT_EQ(rt.stats().diskUntrusted, 1u);
  EXPECT_TRUE(contains(rt.diskCacheWarning(), "world-writable"))
      << rt.diskCacheWarning();
  EXPECT_EQ(readFile(path), stored);

  // Without a compiler the error says why the cache was not used.
  setDefaultCompiler(nullptr);
  Runtime bare(optionsWith(dir.path, nullptr));
  s = bare.getKernelFile(spec, "sm_90", text);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(
      contains(s.message(), "refusing the kernel cache directory " + dir.path))
      << s.message();

  // Once only its owner can write it, it is used again.
  ASSERT_EQ(chmod(dir.path.c_str(), 0755), 0);
  Runtime fixed(optionsWith(dir.path, nullptr));
  ASSERT_TRUE(fixed.getKernelFile(spec, "sm_90", text).ok());
  EXPECT_EQ(text, planted);
}

// A kernel's cache entry that is a symbolic link (to anything, here a file
// the user does not want read) or a directory is refused, and the refusal
// is said: in diskCacheWarning() and once on stderr, not silently
// recompiled on every run.
TEST(KernelCache, RefusedEntriesAreReported) {
  for (bool link : {true, false}) {
    TempDir dir;
    KernelSpec spec = scanSpec();
    std::string path = kernelCachePath(spec, "sm_90", dir.path);
    std::string target = dir.path + "/elsewhere";
    if (link) {
      ASSERT_TRUE(cache::store(target, kernelFileFor(spec, "sm_90")).ok());
      ASSERT_EQ(symlink(target.c_str(), path.c_str()), 0);
    } else {
      ASSERT_EQ(mkdir(path.c_str(), 0755), 0);
    }
    FakeCompiler compiler;
    Runtime rt(optionsWith(dir.path, compiler.fn()));
    std::string text;
    testing::internal::CaptureStderr();
    Status s = rt.getKernelFile(spec, "sm_90", text);
    std::string err = testing::internal::GetCapturedStderr();
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(compiler.calls, 1); // compiled, the entry not trusted
    EXPECT_EQ(rt.stats().diskUntrusted, 1u);
    std::string why = link ? "a symbolic link" : "not a regular file";
    EXPECT_TRUE(contains(rt.diskCacheWarning(), why)) << rt.diskCacheWarning();
    EXPECT_TRUE(contains(rt.diskCacheWarning(), path)) << rt.diskCacheWarning();
    EXPECT_TRUE(contains(err, "tcuc: warning: ") && contains(err, why)) << err;
    // The entry itself is left alone (not ours to replace).
    struct stat st;
    ASSERT_EQ(lstat(path.c_str(), &st), 0);
    EXPECT_TRUE(link ? S_ISLNK(st.st_mode) : S_ISDIR(st.st_mode));
  }
}

TEST(KernelCache, DirectoryOfAnotherUserIsRefused) {
  if (geteuid() != 0)
    GTEST_SKIP() << "giving a directory to another user needs root";
  TempDir dir;
  KernelSpec spec = scanSpec();
  ASSERT_TRUE(cache::store(kernelCachePath(spec, "sm_90", dir.path), "x").ok());
  ASSERT_EQ(chown(dir.path.c_str(), kNobody, kNobody), 0);
  setDefaultCompiler(nullptr);
  Runtime rt(optionsWith(dir.path, nullptr));
  std::string text;
  Status s = rt.getKernelFile(spec, "sm_90", text);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "owned by another user (uid 65534"))
      << s.message();
  EXPECT_EQ(rt.stats().diskUntrusted, 1u);
  EXPECT_FALSE(
      storeKernelFile(spec, "sm_90", kernelFileFor(spec, "sm_90"), dir.path)
          .ok());
}

//===----------------------------------------------------------------------===//
// Kernel file cache through the runtime
//===----------------------------------------------------------------------===//

TEST(KernelCache, MissThenMemoryHitThenDiskHit) {
  TempDir dir;
  KernelSpec spec = scanSpec();
  FakeCompiler compiler;
  std::string first;
  {
    Runtime rt(optionsWith(dir.path, compiler.fn()));
    Status s = rt.getKernelFile(spec, "sm_90", first);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(first, kernelFileFor(spec, "sm_90"));
    EXPECT_EQ(compiler.calls, 1);
    EXPECT_EQ(rt.stats().diskStores, 1u);
    std::string again;
    ASSERT_TRUE(rt.getKernelFile(spec, "sm_90", again).ok());
    EXPECT_EQ(again, first);
    EXPECT_EQ(compiler.calls, 1); // memory hit
  }
  std::string path = kernelCachePath(spec, "sm_90", dir.path);
  std::string stored;
  ASSERT_EQ(cache::load(path, stored), cache::LoadResult::Hit);
  EXPECT_EQ(stored, first);

  FakeCompiler second;
  Runtime rt(optionsWith(dir.path, second.fn()));
  std::string text;
  ASSERT_TRUE(rt.getKernelFile(spec, "sm_90", text).ok());
  EXPECT_EQ(text, first);
  EXPECT_EQ(second.calls, 0);
  EXPECT_EQ(rt.stats().diskHits, 1u);
  EXPECT_EQ(rt.stats().compiles, 0u);
}

TEST(KernelCache, CorruptFileIsRecompiledAndRepaired) {
  TempDir dir;
  KernelSpec spec = scanSpec();
  std::string path = kernelCachePath(spec, "sm_90", dir.path);
  std::string want = kernelFileFor(spec, "sm_90");
  ASSERT_TRUE(cache::store(path, want).ok());
  std::string good = readFile(path);

  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x20;
  std::string badHeader = good;
  badHeader[0] = 'X';
  for (const std::string &damaged :
       {flipped, good.substr(0, good.size() / 2), badHeader, std::string()}) {
    writeFile(path, damaged);
    FakeCompiler compiler;
    Runtime rt(optionsWith(dir.path, compiler.fn()));
    std::string text;
    Status s = rt.getKernelFile(spec, "sm_90", text);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(text, want);
    EXPECT_EQ(compiler.calls, 1);
    EXPECT_EQ(rt.stats().diskCorrupt, 1u);
    EXPECT_EQ(readFile(path), good); // repaired
  }
}

TEST(KernelCache, StaleOrMisplacedFileIsRecompiled) {
  TempDir dir;
  KernelSpec spec = scanSpec();
  std::string path = kernelCachePath(spec, "sm_90", dir.path);
  // Intact files whose header does not match the key they are stored under.
  for (const std::string &wrong :
       {kernelFileFor(spec, "sm_90", "0.0.0-old"), kernelFileFor(spec, "sm_80"),
        kernelFileFor(scanSpec(7), "sm_90"),
        std::string("not a kernel file\n")}) {
    ASSERT_TRUE(cache::store(path, wrong).ok());
    FakeCompiler compiler;
    Runtime rt(optionsWith(dir.path, compiler.fn()));
    std::string text;
    ASSERT_TRUE(rt.getKernelFile(spec, "sm_90", text).ok());
    EXPECT_EQ(compiler.calls, 1);
    EXPECT_EQ(text, kernelFileFor(spec, "sm_90"));
    EXPECT_EQ(rt.stats().diskCorrupt, 1u);
  }
}

TEST(KernelCache, ArchIsPartOfTheKey) {
  TempDir dir;
  FakeCompiler compiler;
  Runtime rt(optionsWith(dir.path, compiler.fn()));
  std::string a, b;
  ASSERT_TRUE(rt.getKernelFile(scanSpec(), "sm_90", a).ok());
  ASSERT_TRUE(rt.getKernelFile(scanSpec(), "sm_80", b).ok());
  EXPECT_EQ(compiler.calls, 2);
  EXPECT_NE(a, b);
  EXPECT_EQ(listDir(dir.path).size(), 2u);
}

TEST(KernelCache, UnwritableDirectoryOnlyDisablesDiskCache) {
  TempDir dir;
  // A directory below a regular file can be neither created nor written,
  // even by root.
  writeFile(dir.path + "/file", "x");
  std::string cacheDir = dir.path + "/file/cache";
  FakeCompiler compiler;
  Runtime rt(optionsWith(cacheDir, compiler.fn()));
  KernelSpec spec = scanSpec();
  std::string text;
  Status s = rt.getKernelFile(spec, "sm_90", text);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(text, kernelFileFor(spec, "sm_90"));
  EXPECT_TRUE(contains(rt.diskCacheWarning(), cacheDir))
      << rt.diskCacheWarning();
  EXPECT_EQ(rt.stats().diskStores, 0u);
  // Other kernels still compile; the failed write is not retried.
  ASSERT_TRUE(rt.getKernelFile(scanSpec(5), "sm_90", text).ok());
  EXPECT_EQ(compiler.calls, 2);
  EXPECT_EQ(listDir(dir.path), std::vector<std::string>{"file"});
}

TEST(KernelCache, DiskCacheOff) {
  TempDir dir;
  FakeCompiler compiler;
  RuntimeOptions o = optionsWith(dir.path, compiler.fn());
  o.diskCache = false;
  for (int i = 0; i < 2; ++i) {
    Runtime rt(o);
    EXPECT_EQ(rt.cacheDirectory(), "");
    std::string text;
    ASSERT_TRUE(rt.getKernelFile(scanSpec(), "sm_90", text).ok());
  }
  EXPECT_EQ(compiler.calls, 2);
  EXPECT_TRUE(listDir(dir.path).empty());
}

//===----------------------------------------------------------------------===//
// The kernel library
//===----------------------------------------------------------------------===//

/// optionsWith(disk, compiler), reading the kernel library `lib`.
RuntimeOptions libraryOptions(const std::string &lib, const std::string &disk,
                              CompileFn compiler) {
  RuntimeOptions o = optionsWith(disk, std::move(compiler));
  o.kernelLibrary = true;
  o.libraryDir = lib;
  return o;
}

/// A CompileFn that must not be called.
CompileFn noCompiler() {
  return
      [](const KernelSpec &spec, const std::string &, std::string &) -> Status {
        ADD_FAILURE() << "compiled " << spec.key();
        return Status::error("no compiler in this test");
      };
}

TEST(KernelLibrary, DirectoryFromOptionsAndEnvironment) {
  {
    ScopedEnv env("TCUC_KERNEL_LIBRARY", nullptr);
    std::string d = cache::defaultLibraryDirectory();
    EXPECT_TRUE(d.size() > 18 &&
                d.compare(d.size() - 18, 18, "share/tcuc/kernels") == 0)
        << d;
    RuntimeOptions o;
    o.libraryDir = "/opt/lib";
    EXPECT_EQ(Runtime(o).libraryDirectory(), "/opt/lib");
    o.kernelLibrary = false;
    EXPECT_EQ(Runtime(o).libraryDirectory(), "");
  }
  ScopedEnv set("TCUC_KERNEL_LIBRARY", "/x/kernels");
  EXPECT_EQ(Runtime().libraryDirectory(), "/x/kernels");
  ScopedEnv empty("TCUC_KERNEL_LIBRARY", "");
  EXPECT_EQ(Runtime().libraryDirectory(), ""); // set and empty: none
}

TEST(KernelLibrary, ReadBeforeTheDiskCacheAndNeverWritten) {
  TempDir lib, disk;
  KernelSpec spec = segmentClassOf(scanSpec(100));
  ASSERT_TRUE(spec.runtimeSegment);
  std::string path = cache::filePath(lib.path, spec, "sm_90");
  ASSERT_TRUE(cache::store(path, kernelFileFor(spec, "sm_90")).ok());
  ASSERT_TRUE(cache::store(cache::binaryPath(path), std::string("\x7f"
                                                                "ELF\0x",
                                                                5))
                  .ok());
  // The disk cache holds another (valid) file for the key: not read.
  ASSERT_TRUE(cache::store(kernelCachePath(spec, "sm_90", disk.path),
                           kernelFileFor(spec, "sm_90") + "// from the disk\n")
                  .ok());
  RuntimeOptions o = libraryOptions(lib.path, disk.path, noCompiler());
  Runtime rt(o);
  std::string text;
  Status s = rt.getKernelFile(spec, "sm_90", text);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(text, kernelFileFor(spec, "sm_90"));
  EXPECT_EQ(rt.stats().libraryHits, 1u);
  EXPECT_EQ(rt.stats().diskHits, 0u);
  EXPECT_EQ(rt.stats().diskStores, 0u);
  EXPECT_EQ(listDir(lib.path).size(), 2u); // nothing added
  // Another arch is not in this library: the disk cache, then the compiler.
  FakeCompiler compiler;
  o.compiler = compiler.fn();
  Runtime rt2(o);
  ASSERT_TRUE(rt2.getKernelFile(spec, "sm_80", text).ok());
  EXPECT_EQ(compiler.calls, 1);
  EXPECT_EQ(rt2.stats().libraryHits, 0u);
  EXPECT_EQ(listDir(lib.path).size(), 2u);
}

TEST(KernelLibrary, DamagedOrForeignFilesAreMissesAndSaid) {
  TempDir lib, disk;
  KernelSpec spec = segmentClassOf(scanSpec(100));
  std::string path = cache::filePath(lib.path, spec, "sm_90");
  for (const std::string &bad :
       {std::string("tcuc-cache 1 0000000000000000 3\nabc"),
        kernelFileFor(spec, "sm_90", "0123456789abcdef"),
        kernelFileFor(scanSpec(100), "sm_90")}) {
    if (bad.rfind("tcuc-cache", 0) == 0)
      writeFile(path, bad);
    else
      ASSERT_TRUE(cache::store(path, bad).ok());
    FakeCompiler compiler;
    RuntimeOptions o = libraryOptions(lib.path, disk.path, compiler.fn());
    Runtime rt(o);
    std::string text;
    Status s = rt.getKernelFile(spec, "sm_90", text);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(compiler.calls + int(rt.stats().diskHits), 1);
    EXPECT_EQ(rt.stats().libraryHits, 0u);
    EXPECT_TRUE(contains(rt.diskCacheWarning(), "kernel library file ignored"))
        << rt.diskCacheWarning();
  }
}

TEST(KernelLibrary, DirectoryOthersCanWriteIsRefused) {
  TempDir lib, disk;
  KernelSpec spec = segmentClassOf(scanSpec(100));
  ASSERT_TRUE(cache::store(cache::filePath(lib.path, spec, "sm_90"),
                           kernelFileFor(spec, "sm_90"))
                  .ok());
  ASSERT_EQ(chmod(lib.path.c_str(), 0777), 0);
  FakeCompiler compiler;
  RuntimeOptions o = libraryOptions(lib.path, disk.path, compiler.fn());
  Runtime rt(o);
  std::string text;
  ASSERT_TRUE(rt.getKernelFile(spec, "sm_90", text).ok());
  EXPECT_EQ(compiler.calls, 1);
  EXPECT_EQ(rt.stats().libraryHits, 0u);
  EXPECT_TRUE(contains(rt.diskCacheWarning(),
                       "refusing the kernel library directory " + lib.path))
      << rt.diskCacheWarning();
}

#ifdef TCUC_TEST_KERNEL_LIBRARY_DIR
// The library this build made (cmake/TCUCKernelLibrary.cmake): a program
// that sees many sizes needs no compiler for any of them.
TEST(KernelLibrary, BuiltLibraryServesEverySizeWithoutACompiler) {
  RuntimeOptions o = optionsWith("", noCompiler());
  o.diskCache = false;
  o.kernelLibrary = true;
  o.libraryDir = TCUC_TEST_KERNEL_LIBRARY_DIR;
  if (access(o.libraryDir.c_str(), R_OK) != 0)
    GTEST_SKIP() << "the build has not made its kernel library ("
                 << o.libraryDir << ") yet: build everything first";
  Runtime rt(o);
  std::vector<KernelSpec> all = segmentClassKernels();
  EXPECT_EQ(all.size(), 44u); // 6 type pairs: 18 reduce, 26 scan classes
  for (const char *arch : {"sm_80", "sm_90"})
    for (const KernelSpec &spec : all) {
      std::string text, cubin;
      Status s = rt.getKernelFile(spec, arch, text);
      ASSERT_TRUE(s.ok()) << spec.key() << " " << arch << ": " << s.message();
      std::string path = cache::filePath(o.libraryDir, spec, arch);
      EXPECT_EQ(cache::load(cache::binaryPath(path), cubin) ==
                    cache::LoadResult::Hit,
                TCUC_TEST_KERNEL_LIBRARY_HAS_CUBINS)
          << path;
    }
  EXPECT_EQ(rt.stats().libraryHits, 2 * all.size());

  // 50 sizes of each op, as a program with ragged inputs would ask:
  // every one is a class kernel the library already holds.
  Runtime fresh(o);
  int asked = 0;
  for (int64_t s = 1; s <= 8192; s += (s < 40 ? 1 : s / 3 + 7))
    for (const KernelSpec &spec :
         {KernelSpec::reduce(s, DType::F16, DType::F32),
          KernelSpec::scan(s, DType::I8, DType::I32, false)}) {
      KernelSpec c = segmentClassOf(spec);
      ASSERT_TRUE(c.runtimeSegment) << spec.key();
      std::string text;
      ASSERT_TRUE(fresh.getKernelFile(c, "sm_90", text).ok()) << c.key();
      ++asked;
    }
  EXPECT_GE(asked, 100);
  EXPECT_EQ(fresh.stats().compiles, 0u);
  EXPECT_EQ(fresh.stats().libraryHits, 5u); // 3 reduce + 2 scan classes
}
#endif

TEST(KernelCache, NoCompilerExplainsHowToFillTheCache) {
  TempDir dir;
  setDefaultCompiler(nullptr);
  Runtime rt(optionsWith(dir.path, nullptr));
  KernelSpec spec = scanSpec();
  spec.inclusive = false;
  spec.variant = "grid";
  std::string text;
  Status s = rt.getKernelFile(spec, "sm_90", text);
  ASSERT_FALSE(s.ok());
  const std::string &m = s.message();
  EXPECT_TRUE(contains(m, "not in the kernel cache at " +
                              kernelCachePath(spec, "sm_90", dir.path)))
      << m;
  EXPECT_TRUE(contains(m, "no compiler")) << m;
  EXPECT_TRUE(contains(m, "tcuc compile --op scan --segment 1000 --dtype f16 "
                          "--out-dtype f32 --exclusive --variant grid "
                          "--arch sm_90 --cache-dir " +
                              dir.path))
      << m;
  // A decayed scan's command compiles its kernel (the decay's form).
  KernelSpec decayed = scanSpec();
  decayed.reverse = true;
  decayed.runtimeDecay = true;
  EXPECT_TRUE(contains(rt.getKernelFile(decayed, "sm_90", text).message(),
                       "--reverse --decay 0.5 --arch"));
  decayed.runtimeDecay = false;
  decayed.segmentDecays = true;
  EXPECT_TRUE(contains(rt.getKernelFile(decayed, "sm_90", text).message(),
                       "--reverse --decay segments --arch"));
  // A class kernel's command compiles the class (no variant: that would
  // pick the size's own kernel).
  KernelSpec stream = resolveSegmentClass(
      KernelSpec::scan(17, DType::F16, DType::F32, ScanMode{false}),
      SegmentKernelMode::Auto);
  ASSERT_TRUE(stream.runtimeSegment);
  EXPECT_TRUE(contains(rt.getKernelFile(stream, "sm_90", text).message(),
                       "`TCUC_SEGMENT_KERNELS=class tcuc compile --op scan "
                       "--segment 17 --dtype f16 --out-dtype f32 --exclusive "
                       "--arch sm_90"));
  KernelSpec packed = resolveSegmentClass(
      KernelSpec::scan(300, DType::BF16, DType::F32, ScanMode{true, true, 0.9}),
      SegmentKernelMode::Auto);
  ASSERT_EQ(packed.variant, "packed");
  EXPECT_TRUE(contains(rt.getKernelFile(packed, "sm_90", text).message(),
                       "`TCUC_SEGMENT_KERNELS=class tcuc compile --op scan "
                       "--segment 300 --dtype bf16 --out-dtype f32 --reverse "
                       "--decay 0.5 --arch sm_90"));

  // A damaged file is reported as such.
  std::string path = kernelCachePath(spec, "sm_90", dir.path);
  writeFile(path, "tcuc-cache 1 0000000000000000 3\nabc");
  s = rt.getKernelFile(spec, "sm_90", text);
  EXPECT_TRUE(contains(s.message(), "the cached file was ignored: " + path +
                                        ": content hash mismatch"))
      << s.message();

  // Filling the cache the way `tcuc compile --cache-dir` does fixes it.
  ASSERT_TRUE(
      storeKernelFile(spec, "sm_90", kernelFileFor(spec, "sm_90"), dir.path)
          .ok());
  ASSERT_TRUE(rt.getKernelFile(spec, "sm_90", text).ok());
  EXPECT_EQ(text, kernelFileFor(spec, "sm_90"));
}

TEST(KernelCache, DefaultCompilerIsUsedWhenOptionsHaveNone) {
  TempDir dir;
  FakeCompiler compiler;
  setDefaultCompiler(compiler.fn());
  Runtime rt(optionsWith(dir.path, nullptr));
  std::string text;
  Status s = rt.getKernelFile(scanSpec(), "sm_90", text);
  setDefaultCompiler(nullptr);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(compiler.calls, 1);
}

TEST(KernelCache, StoreKernelFileChecksTheFile) {
  TempDir dir;
  KernelSpec spec = scanSpec();
  EXPECT_TRUE(contains(
      storeKernelFile(spec, "sm_90", kernelFileFor(spec, "sm_80"), dir.path)
          .message(),
      "expected sm_90"));
  EXPECT_TRUE(contains(
      storeKernelFile(spec, "sm_90", "garbage", dir.path).message(), "line 1"));
  EXPECT_TRUE(listDir(dir.path).empty());
}

TEST(KernelCache, BadCompilerOutputIsAnErrorAndNotStored) {
  TempDir dir;
  int calls = 0;
  CompileFn wrongSpec = [&](const KernelSpec &, const std::string &arch,
                            std::string &out) {
    ++calls;
    out = kernelFileFor(scanSpec(3), arch);
    return Status::success();
  };
  Runtime rt(optionsWith(dir.path, wrongSpec));
  std::string text;
  Status s = rt.getKernelFile(scanSpec(), "sm_90", text);
  EXPECT_TRUE(contains(s.message(), "the compiler's output")) << s.message();
  EXPECT_TRUE(listDir(dir.path).empty());

  CompileFn failing = [](const KernelSpec &, const std::string &,
                         std::string &) {
    return Status::error("ptx emission failed");
  };
  Runtime rt2(optionsWith(dir.path, failing));
  s = rt2.getKernelFile(scanSpec(), "sm_90", text);
  EXPECT_TRUE(contains(s.message(), "compiling 'op=scan")) << s.message();
  EXPECT_TRUE(contains(s.message(), "ptx emission failed")) << s.message();
}

//===----------------------------------------------------------------------===//
// Concurrency
//===----------------------------------------------------------------------===//

TEST(KernelCache, ConcurrentSameKeyCompilesOnce) {
  TempDir dir;
  FakeCompiler compiler;
  compiler.delay = std::chrono::milliseconds(50);
  Runtime rt(optionsWith(dir.path, compiler.fn()));
  constexpr int kThreads = 16;
  std::vector<std::string> texts(kThreads);
  std::vector<int> ok(kThreads, 0);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      ok[i] = rt.getKernelFile(scanSpec(), "sm_90", texts[i]).ok();
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(compiler.calls, 1);
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_TRUE(ok[i]);
    EXPECT_EQ(texts[i], kernelFileFor(scanSpec(), "sm_90"));
  }
}

TEST(KernelCache, ConcurrentFailureIsSharedThenRetried) {
  TempDir dir;
  constexpr int kThreads = 8;
  std::atomic<int> calls{0}, arrived{0};
  CompileFn failing = [&](const KernelSpec &, const std::string &,
                          std::string &) {
    ++calls;
    // Let every thread reach the cache (and wait there) before failing.
    for (int i = 0; i < 5000 && arrived < kThreads; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return Status::error("no luck");
  };
  Runtime rt(optionsWith(dir.path, failing));
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&] {
      std::string text;
      ++arrived;
      if (!rt.getKernelFile(scanSpec(), "sm_90", text).ok())
        ++failures;
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(failures, kThreads);
  // The waiters share the one failure instead of compiling in turn.
  EXPECT_EQ(calls, 1);
  std::string text;
  EXPECT_FALSE(rt.getKernelFile(scanSpec(), "sm_90", text).ok());
  EXPECT_EQ(calls, 2); // failures are not cached
}

TEST(KernelCache, DifferentKeysCompileConcurrently) {
  TempDir dir;
  constexpr int kKeys = 4;
  std::mutex mu;
  std::condition_variable cv;
  int inside = 0, maxInside = 0, calls = 0;
  // Each compile waits (up to a timeout) until all of them are running at
  // once, which only happens if different keys do not serialise.
  CompileFn compiler = [&](const KernelSpec &spec, const std::string &arch,
                           std::string &out) {
    std::unique_lock<std::mutex> lock(mu);
    ++calls;
    maxInside = std::max(maxInside, ++inside);
    cv.notify_all();
    cv.wait_for(lock, std::chrono::seconds(5),
                [&] { return maxInside == kKeys; });
    --inside;
    out = kernelFileFor(spec, arch);
    return Status::success();
  };
  Runtime rt(optionsWith(dir.path, compiler));
  std::vector<std::thread> threads;
  for (int k = 0; k < kKeys; ++k)
    for (int rep = 0; rep < 4; ++rep)
      threads.emplace_back([&, k] {
        std::string text;
        EXPECT_TRUE(rt.getKernelFile(scanSpec(100 + k), "sm_90", text).ok());
        EXPECT_EQ(text, kernelFileFor(scanSpec(100 + k), "sm_90"));
      });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(calls, kKeys);
  EXPECT_EQ(maxInside, kKeys);
  EXPECT_EQ(listDir(dir.path).size(), size_t(kKeys));
}

TEST(KernelCache, ConcurrentRuntimesShareOneDirectory) {
  // Writers in different runtimes (as in different processes) race on the
  // same files; atomic renames leave every file whole.
  TempDir dir;
  FakeCompiler compiler;
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&] {
      Runtime rt(optionsWith(dir.path, compiler.fn()));
      for (int k = 0; k < 4; ++k) {
        std::string text;
        EXPECT_TRUE(rt.getKernelFile(scanSpec(200 + k), "sm_90", text).ok());
      }
    });
  for (std::thread &t : threads)
    t.join();
  std::vector<std::string> names = listDir(dir.path);
  EXPECT_EQ(names.size(), 4u); // no temporary files left behind
  for (int k = 0; k < 4; ++k) {
    std::string text;
    EXPECT_EQ(cache::load(kernelCachePath(scanSpec(200 + k), "sm_90", dir.path),
                          text),
              cache::LoadResult::Hit);
  }
}

//===----------------------------------------------------------------------===//
// On a GPU (skipped without one): hand-written PTX through the real driver
//===----------------------------------------------------------------------===//

namespace {

/// The five parameters of one memref buffer (docs/kernel-file.md).
std::string memrefParams(const std::string &name) {
  std::string s;
  for (int i = 0; i < 5; ++i)
    s += ".param .u64 " + name + std::to_string(i) + (i < 4 ? ", " : "");
  return s;
}

/// PTX entry `name`: dst[s] = sum of src[s*seg .. min(n, (s+1)*seg)) (f32),
/// for s < dst size, grid-stride over segments; with seg == 1 a copy. `src`
/// and `dst` pick buffers by index (0 in, 1 out, 2 the first scratch); n is
/// the size of buffer `src`.
std::string segmentSumEntry(const std::string &name, int64_t seg, int src,
                            int dst, int numBuffers) {
  std::string params;
  for (int b = 0; b < numBuffers; ++b)
    params +=
        (b ? ",\n  " : "  ") + memrefParams("b" + std::to_string(b) + "_");
  auto p = [](int buf, int field) {
    return "b" + std::to_string(buf) + "_" + std::to_string(field);
  };
  std::string S = std::to_string(seg);
  return ".visible .entry " + name + "(\n" + params +
         ")\n{\n"
         "  .reg .pred %p<4>;\n  .reg .b64 %rd<20>;\n  .reg .f32 %f<4>;\n"
         "  .reg .b32 %r<8>;\n"
         "  ld.param.u64 %rd1, [" +
         p(src, 1) +
         "];\n"
         "  ld.param.u64 %rd2, [" +
         p(src, 3) +
         "];\n"
         "  ld.param.u64 %rd3, [" +
         p(dst, 1) +
         "];\n"
         "  ld.param.u64 %rd4, [" +
         p(dst, 3) +
         "];\n"
         "  cvta.to.global.u64 %rd1, %rd1;\n"
         "  cvta.to.global.u64 %rd3, %rd3;\n"
         "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n"
         "  mov.u32 %r3, %tid.x;\n  mov.u32 %r4, %nctaid.x;\n"
         "  mul.wide.u32 %rd5, %r1, %r2;\n  cvt.u64.u32 %rd6, %r3;\n"
         "  add.s64 %rd5, %rd5, %rd6;\n  mul.wide.u32 %rd7, %r4, %r2;\n"
         "LOOP:\n  setp.ge.s64 %p1, %rd5, %rd4;\n  @%p1 bra DONE;\n"
         "  mul.lo.s64 %rd8, %rd5, " +
         S +
         ";\n"
         "  add.s64 %rd9, %rd8, " +
         S +
         ";\n  min.s64 %rd9, %rd9, %rd2;\n"
         "  mov.f32 %f1, 0f00000000;\n"
         "INNER:\n  setp.ge.s64 %p2, %rd8, %rd9;\n  @%p2 bra STORE;\n"
         "  shl.b64 %rd10, %rd8, 2;\n  add.s64 %rd11, %rd1, %rd10;\n"
         "  ld.global.f32 %f2, [%rd11];\n  add.f32 %f1, %f1, %f2;\n"
         "  add.s64 %rd8, %rd8, 1;\n  bra INNER;\n"
         "STORE:\n  shl.b64 %rd12, %rd5, 2;\n  add.s64 %rd13, %rd3, %rd12;\n"
         "  st.global.f32 [%rd13], %f1;\n  add.s64 %rd5, %rd5, %rd7;\n"
         "  bra LOOP;\nDONE:\n  ret;\n}\n";
}

/// A kernel file for an f32 -> f32 reduction that runs in two kernels
/// through a scratch buffer (sums into scratch, then a copy to out), which
/// exercises the parameter ABI, scratch sizing and launch order.
std::string twoPassReduceFile(const KernelSpec &spec, const std::string &arch,
                              const std::string &ptxBody = "") {
  std::string S = std::to_string(spec.segmentSize);
  // PTX names the architecture alone: "sm_90:h200" (a GPU model with tuned
  // rows, the H200) targets sm_90.
  std::string chip, model;
  splitTarget(arch, chip, model);
  return std::string(kKernelFileMagic) + "\n// tcuc.spec: " + spec.key() +
         "\n// tcuc.arch: " + arch + "\n// tcuc.version: " + version() +
         "\n// tcuc.build: " + buildId() +
         "\n// tcuc.block: 128\n// tcuc.scratch: f32 n " + S + " divu n " + S +
         " remu 0 ne add\n// tcuc.scratch: i8 0 1 sub" +
         "\n// tcuc.kernel: tcuc_k0\n// tcuc.kernel: tcuc_k1\n"
         ".version 7.8\n.target " +
         chip + "\n.address_size 64\n\n" +
         (ptxBody.empty()
              ? segmentSumEntry("tcuc_k0", spec.segmentSize, 0, 2, 4) +
                    segmentSumEntry("tcuc_k1", 1, 2, 1, 4)
              : ptxBody);
}

/// A compiler that makes twoPassReduceFile kernels and counts its calls.
CompileFn countingTwoPassCompiler(std::atomic<int> &compiles) {
  return [&compiles](const KernelSpec &spec, const std::string &arch,
                     std::string &out) {
    ++compiles;
    out = twoPassReduceFile(spec, arch);
    return Status::success();
  };
}

KernelSpec f32Reduce(int64_t segment) {
  return KernelSpec::reduce(segment, DType::F32, DType::F32);
}

/// Skips the test when this machine has no usable GPU.
#define REQUIRE_GPU(rt, arch)                                                  \
  do {                                                                         \
    Status gpu_ = (rt).deviceArch(arch);                                       \
    if (!gpu_.ok())                                                            \
      GTEST_SKIP() << "no GPU: " << gpu_.message();                            \
  } while (0)

RuntimeOptions gpuOptions(const std::string &dir, CompileFn compiler) {
  RuntimeOptions o;
  o.cacheDir = dir;
  o.compiler = std::move(compiler);
  return o;
}

/// Runs `spec` over n random f32 values and compares with a host loop.
void checkReduce(Runtime &rt, const KernelSpec &spec, int64_t n, void *stream) {
  std::vector<float> host(n);
  std::mt19937 rng(static_cast<unsigned>(n));
  for (float &x : host)
    x = float(int(rng() % 17) - 8); // small integers: exact sums
  int64_t outLen = spec.outputLength(n);
  void *in = nullptr, *out = nullptr;
  ASSERT_TRUE(rt.deviceAlloc(n * 4, in).ok());
  ASSERT_TRUE(rt.deviceAlloc(outLen * 4, out).ok());
  ASSERT_TRUE(rt.copyToDevice(in, host.data(), n * 4).ok());
  ASSERT_TRUE(rt.deviceMemset(out, 0xff, outLen * 4).ok());
  Status s =
      rt.reduce(in, out, n, spec.segmentSize, DType::F32, DType::F32, stream);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(rt.synchronize(stream).ok());
  std::vector<float> got(outLen);
  ASSERT_TRUE(rt.copyToHost(got.data(), out, outLen * 4).ok());
  int bad = 0;
  for (int64_t g = 0; g < outLen; ++g) {
    float want = 0;
    for (int64_t i = g * spec.segmentSize;
         i < std::min(n, (g + 1) * spec.segmentSize); ++i)
      want += host[i];
    if (got[g] != want && bad++ < 3)
      ADD_FAILURE() << "n=" << n << " segment " << g << ": got " << got[g]
                    << ", want " << want;
  }
  EXPECT_EQ(bad, 0);
  EXPECT_TRUE(rt.deviceFree(in).ok());
  EXPECT_TRUE(rt.deviceFree(out).ok());
}

} // namespace

TEST(Gpu, DeviceArchAndMemory) {
  Runtime rt;
  std::string arch;
  REQUIRE_GPU(rt, arch);
  EXPECT_EQ(arch.substr(0, 3), "sm_");
  std::printf("device arch: %s\n", arch.c_str());
  void *p = nullptr;
  ASSERT_TRUE(rt.deviceAlloc(1000, p).ok());
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(rt.deviceMemset(p, 0xab, 1000).ok());
  std::vector<unsigned char> back(1000);
  ASSERT_TRUE(rt.copyToHost(back.data(), p, 1000).ok());
  EXPECT_EQ(back[0], 0xab);
  EXPECT_EQ(back[999], 0xab);
  std::vector<unsigned char> src(1000);
  for (int i = 0; i < 1000; ++i)
    src[i] = static_cast<unsigned char>(i * 7);
  ASSERT_TRUE(rt.copyToDevice(p, src.data(), 1000).ok());
  ASSERT_TRUE(rt.copyToHost(back.data(), p, 1000).ok());
  EXPECT_EQ(back, src);
  EXPECT_TRUE(rt.deviceFree(p).ok());
  void *stream = nullptr;
  ASSERT_TRUE(rt.createStream(stream).ok());
  EXPECT_TRUE(rt.synchronize(stream).ok());
  EXPECT_TRUE(rt.destroyStream(stream).ok());
  EXPECT_TRUE(rt.synchronize(nullptr).ok());
}

TEST(Gpu, TwoPassKernelWithScratch) {
  TempDir dir;
  std::atomic<int> compiles{0};
  CompileFn compiler = countingTwoPassCompiler(compiles);
  Runtime rt(gpuOptions(dir.path, compiler));
  std::string arch;
  REQUIRE_GPU(rt, arch);
  KernelSpec spec = f32Reduce(100);
  void *stream = nullptr;
  ASSERT_TRUE(rt.createStream(stream).ok());
  // Growing, shrinking and growing scratch; n not a multiple of anything;
  // more elements than the resident grid covers in one pass.
  for (int64_t n :
       {int64_t(1), int64_t(99), int64_t(100003), int64_t(5), int64_t(3000017)})
    checkReduce(rt, spec, n, stream);
  checkReduce(rt, spec, 777, nullptr); // the legacy default stream
  EXPECT_EQ(compiles, 1);
  EXPECT_EQ(rt.stats().moduleLoads, 1u);
  const Kernel *k = nullptr;
  ASSERT_TRUE(rt.getKernel(spec, k).ok());
  EXPECT_EQ(k->file().kernels.size(), 2u);
  // n == 0 launches nothing.
  EXPECT_TRUE(rt.launch(*k, nullptr, nullptr, 0, stream).ok());
  EXPECT_FALSE(rt.launch(*k, nullptr, nullptr, 5, stream).ok());
  EXPECT_TRUE(rt.destroyStream(stream).ok());

  // A second runtime loads the cached file without compiling.
  Runtime rt2(gpuOptions(dir.path, compiler));
  checkReduce(rt2, spec, 4321, nullptr);
  EXPECT_EQ(compiles, 1);
  EXPECT_EQ(rt2.stats().diskHits, 1u);
}

/// `o` reading the build's kernel library (a runtime-only build has none
/// of its own: $TCUC_KERNEL_LIBRARY or the installed one).
RuntimeOptions withTestLibrary(RuntimeOptions o) {
#ifdef TCUC_TEST_KERNEL_LIBRARY_DIR
  o.libraryDir = TCUC_TEST_KERNEL_LIBRARY_DIR;
#endif
  return o;
}

/// Whether a cubin for kernels of `arch` loads on `rt`'s GPU: SASS runs on
/// chips of its major version only (an sm_80 cubin on an H100 asked for
/// sm_80 kernels, TCUC_KERNEL_ARCH, does not; the runtime then JIT-compiles
/// the PTX beside it).
bool cubinFits(Runtime &rt, const std::string &arch) {
  std::string chip;
  if (!rt.deviceChip(chip).ok())
    return false;
  auto major = [](const std::string &a) {
    return std::atoi(a.c_str() + 3) / 10;
  };
  return major(chip) == major(arch);
}

/// Skips the test when `rt` has no GPU (REQUIRE_GPU) or no readable kernel
/// library.
#define REQUIRE_GPU_AND_LIBRARY(rt, arch)                                      \
  do {                                                                         \
    REQUIRE_GPU(rt, arch);                                                     \
    if ((rt).libraryDirectory().empty() ||                                     \
        access((rt).libraryDirectory().c_str(), R_OK) != 0)                    \
      GTEST_SKIP() << "no kernel library at '" << (rt).libraryDirectory()      \
                   << "'";                                                     \
  } while (0)

// The size's class kernel, from the kernel library alone (the build's,
// or $TCUC_KERNEL_LIBRARY on a runtime-only build), loaded from its cubin
// where the library has one.
TEST(Gpu, ClassKernelFromTheLibraryWithoutACompiler) {
  RuntimeOptions o = gpuOptions("", noCompiler());
  o.diskCache = false;
  o.segmentKernels = SegmentKernelMode::Class;
  Runtime rt(withTestLibrary(o));
  std::string arch;
  REQUIRE_GPU_AND_LIBRARY(rt, arch);
  checkReduce(rt, f32Reduce(100), 100003, nullptr);
  checkReduce(rt, f32Reduce(257), 100003, nullptr); // another class
  EXPECT_EQ(rt.stats().libraryHits, 2u);
  EXPECT_EQ(rt.stats().compiles, 0u);
  EXPECT_EQ(rt.stats().moduleLoads, 2u);
  std::string cubin;
  KernelSpec c = segmentClassOf(f32Reduce(100));
  bool hasCubin =
      cache::load(
          cache::binaryPath(cache::filePath(rt.libraryDirectory(), c, arch)),
          cubin) == cache::LoadResult::Hit;
  EXPECT_EQ(rt.stats().binaryLoads, hasCubin && cubinFits(rt, arch) ? 2u : 0u);
}

// A cubin beside a disk cache file (`tcuc compile --cubin`) is loaded
// instead of the PTX, as the library's are: the library's file and cubin
// copied into a disk cache, the library off.
TEST(Gpu, CubinBesideADiskCacheFileIsLoaded) {
  RuntimeOptions probeOptions = gpuOptions("", noCompiler());
  probeOptions.diskCache = false;
  Runtime probe(withTestLibrary(probeOptions));
  std::string arch;
  REQUIRE_GPU_AND_LIBRARY(probe, arch);
  KernelSpec c = segmentClassOf(f32Reduce(100));
  std::string libFile = cache::filePath(probe.libraryDirectory(), c, arch);
  std::string text, cubin;
  if (cache::load(cache::binaryPath(libFile), cubin) != cache::LoadResult::Hit)
    GTEST_SKIP() << "the kernel library has no cubins (built without ptxas)";
  ASSERT_EQ(cache::load(libFile, text), cache::LoadResult::Hit);
  TempDir disk;
  std::string path = kernelCachePath(c, arch, disk.path);
  ASSERT_TRUE(cache::store(path, text).ok());
  ASSERT_TRUE(cache::store(cache::binaryPath(path), cubin).ok());
  RuntimeOptions o = gpuOptions(disk.path, noCompiler());
  o.kernelLibrary = false;
  o.segmentKernels = SegmentKernelMode::Class;
  Runtime rt(o);
  checkReduce(rt, f32Reduce(100), 100003, nullptr);
  EXPECT_EQ(rt.stats().diskHits, 1u);
  EXPECT_EQ(rt.stats().libraryHits, 0u);
  // A cubin the GPU cannot load is skipped for the PTX beside it.
  EXPECT_EQ(rt.stats().moduleLoads, 1u);
  EXPECT_EQ(rt.stats().binaryLoads, cubinFits(rt, arch) ? 1u : 0u);
}

// A runtime without a compiler (runtime-only builds) runs a per-size spec
// that no cache holds by its class kernel from the library, once looked up.
TEST(Gpu, PerSizeSpecWithoutACompilerRunsItsClassKernel) {
  if (defaultCompiler())
    GTEST_SKIP() << "this binary registers a compiler";
  TempDir dir; // an empty disk cache
  RuntimeOptions o = gpuOptions(dir.path, nullptr);
  o.segmentKernels = SegmentKernelMode::PerSize;
  Runtime rt(withTestLibrary(o));
  std::string arch;
  REQUIRE_GPU_AND_LIBRARY(rt, arch);
  checkReduce(rt, f32Reduce(100), 100003, nullptr);
  checkReduce(rt, f32Reduce(100), 100003, nullptr);
  EXPECT_EQ(rt.stats().classFallbacks, 1u);
  EXPECT_EQ(rt.stats().libraryHits, 1u);
  EXPECT_EQ(rt.stats().compiles, 0u);
  // Above the classes there is nothing to fall back on: the miss is said.
  const Kernel *kernel = nullptr;
  Status s = rt.getKernelFor(f32Reduce(10000), kernel);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "has no compiler")) << s.message();
}

TEST(Gpu, OutOfDeviceMemoryIsAnErrorNotACrash) {
  TempDir dir;
  std::atomic<int> compiles{0};
  Runtime rt(gpuOptions(dir.path, countingTwoPassCompiler(compiles)));
  std::string arch;
  REQUIRE_GPU(rt, arch);
  // More than any device has.
  void *huge = nullptr;
  Status s = rt.deviceAlloc(size_t(1) << 50, huge);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(huge, nullptr);
  EXPECT_TRUE(contains(s.message(), "CUDA_ERROR_OUT_OF_MEMORY")) << s.message();

  // Buffers and the loaded kernel first, then every byte left is taken: the
  // launch needs scratch (n / segment partial sums) and cannot get it.
  KernelSpec spec = f32Reduce(100);
  const int64_t n = 3000017;
  const Kernel *k = nullptr;
  ASSERT_TRUE(rt.getKernel(spec, k).ok());
  void *in = nullptr, *out = nullptr, *stream = nullptr;
  ASSERT_TRUE(rt.deviceAlloc(n * 4, in).ok());
  ASSERT_TRUE(rt.deviceAlloc(n * 4, out).ok());
  ASSERT_TRUE(rt.deviceMemset(in, 0, n * 4).ok());
  ASSERT_TRUE(rt.createStream(stream).ok());
  std::vector<void *> hog;
  for (size_t chunk = size_t(1) << 30; chunk >= 4096; chunk /= 4)
    for (void *p = nullptr; rt.deviceAlloc(chunk, p).ok(); p = nullptr)
      hog.push_back(p);
  std::printf("held %zu allocations\n", hog.size());
  s = rt.launch(*k, in, out, n, stream);
  if (s.ok()) // a launch that got through must still complete cleanly
    s = rt.synchronize(stream);
  EXPECT_FALSE(s.ok()) << "a launch needing scratch with no memory left";
  EXPECT_TRUE(contains(s.message(), "OUT_OF_MEMORY")) << s.message();
  std::printf("%s\n", s.message().c_str());
  for (void *p : hog)
    EXPECT_TRUE(rt.deviceFree(p).ok());
  // The runtime is not left broken: with memory back, the same launch works.
  s = rt.launch(*k, in, out, n, stream);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(rt.synchronize(stream).ok());
  EXPECT_TRUE(rt.destroyStream(stream).ok());
  EXPECT_TRUE(rt.deviceFree(in).ok());
  EXPECT_TRUE(rt.deviceFree(out).ok());
}

TEST(Gpu, ManyThreadsManyStreams) {
  TempDir dir;
  std::atomic<int> compiles{0};
  CompileFn compiler = countingTwoPassCompiler(compiles);
  Runtime rt(gpuOptions(dir.path, compiler));
  std::string arch;
  REQUIRE_GPU(rt, arch);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      void *stream = nullptr;
      // Threads 0-3 share the default stream, 4-7 have their own.
      if (t >= 4) {
        ASSERT_TRUE(rt.createStream(stream).ok());
      }
      for (int rep = 0; rep < 5; ++rep)
        checkReduce(rt, f32Reduce(t % 2 ? 64 : 1000),
                    int64_t(10000 + 997 * rep + 131 * t), stream);
      if (stream) {
        EXPECT_TRUE(rt.destroyStream(stream).ok());
      }
    });
  for (std::thread &th : threads)
    th.join();
  EXPECT_EQ(compiles, 2);
  EXPECT_EQ(rt.stats().moduleLoads, 2u);
}

TEST(Gpu, LoadErrorsExplainThemselves) {
  TempDir dir;
  KernelSpec broken = f32Reduce(10), missing = f32Reduce(11);
  CompileFn compiler = [&](const KernelSpec &spec, const std::string &arch,
                           std::string &out) {
    if (spec.segmentSize == 10) // PTX the JIT rejects
      out = twoPassReduceFile(spec, arch,
                              ".visible .entry tcuc_k0() { bogus.op; }\n");
    else // an entry the header names is not in the PTX
      out = twoPassReduceFile(
          spec, arch, segmentSumEntry("tcuc_k0", spec.segmentSize, 0, 2, 4));
    return Status::success();
  };
  Runtime rt(gpuOptions(dir.path, compiler));
  std::string arch;
  REQUIRE_GPU(rt, arch);
  const Kernel *k = nullptr;
  Status s = rt.getKernel(broken, k);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "cuModuleLoadDataEx")) << s.message();
  EXPECT_TRUE(contains(s.message(), "JIT error log")) << s.message();
  std::printf("%s\n", s.message().c_str());
  s = rt.getKernel(missing, k);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "cuModuleGetFunction(tcuc_k1)"))
      << s.message();
}
