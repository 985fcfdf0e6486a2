//===- jit_latency.cpp - how long a kernel takes to become launchable -----===//
//
// The JIT latency of bench/ (docs/performance.md):
//  - compile: spec -> kernel file (MLIR pipeline + LLVM NVPTX), in-process,
//    only in builds with the compiler; the first spec also pays one-time
//    set-up (MLIR context, dialects, LLVM target);
//  - load: kernel file on disk -> loaded module (read, hash check, the
//    driver's PTX JIT in cuModuleLoadDataEx), a fresh runtime each time,
//    only with a GPU;
//  - warm: Runtime::getKernel of a loaded kernel (the memory-cache hit every
//    launch takes), averaged over many calls.
// Cold = compile + load. Prints one line per measurement.
//
// With --library DIR, the cold start a user of the installed kernel library
// sees instead (docs/performance.md#jit-latency): for every class kernel, a
// fresh runtime that reads only DIR (no disk cache, no compiler) makes the
// first call (library read, module load from the cubin or PTX, launch,
// synchronize), then a warm call; the context is made before, as in a
// program that already uses the GPU.
//
//   tcuc-jit-latency CACHE_DIR
//   tcuc-jit-latency --library DIR
//
//===----------------------------------------------------------------------===//

#include "tcuc/Runtime.h"
#ifdef TCUC_JIT_LATENCY_WITH_COMPILER
#include "tcuc/GPU/KernelCompiler.h"
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace tcuc;

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

std::vector<KernelSpec> specs() {
  std::vector<KernelSpec> out;
  auto add = [&](bool scan, int64_t segment, DType in, DType outType) {
    out.push_back(scan ? KernelSpec::scan(segment, in, outType, true)
                       : KernelSpec::reduce(segment, in, outType));
  };
  add(false, 16, DType::F16, DType::F32);
  add(false, 1024, DType::F16, DType::F32);
  add(false, 1 << 20, DType::F16, DType::F32);
  add(true, 16, DType::F16, DType::F32);
  add(true, 1024, DType::F16, DType::F32);
  add(true, 1 << 20, DType::F16, DType::F32);
  add(true, 1024, DType::F16, DType::F16);
  add(true, 1024, DType::I8, DType::I32);
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/// The --library measurement; returns the exit code.
int libraryLatency(const std::string &dir) {
  std::string arch;
  if (Status s = deviceArch(arch); !s) {
    std::fprintf(stderr, "--library needs a GPU: %s\n", s.message().c_str());
    return 1;
  }
  // One buffer pair for every spec: 2^20 elements of the widest type.
  constexpr int64_t kN = 1 << 20;
  void *in = nullptr, *out = nullptr;
  auto t0 = std::chrono::steady_clock::now();
  if (Status s = deviceAlloc(kN * 4, in); !s)
    return std::fprintf(stderr, "%s\n", s.message().c_str()), 1;
  std::printf("context + first allocation %.1f ms (not counted below)\n",
              msSince(t0));
  if (Status s = deviceAlloc(kN * 4, out); !s)
    return std::fprintf(stderr, "%s\n", s.message().c_str()), 1;
  if (Status s = deviceMemset(in, 0, kN * 4); !s)
    return 1;
  std::vector<double> coldMs;
  double worstWarmUs = 0;
  for (const KernelSpec &spec : segmentClassKernels()) {
    RuntimeOptions options;
    options.libraryDir = dir;
    options.diskCache = false;
    options.compiler = [](const KernelSpec &s, const std::string &,
                          std::string &) {
      return Status::error("not in the library: " + s.key());
    };
    Runtime rt(options);
    // A size inside the class that is not its smallest where it can be.
    int64_t lo = 0, hi = 0;
    runtimeSegmentRange(spec.variant, spec.isScan, lo, hi);
    int64_t segment = std::min<int64_t>(hi, std::max<int64_t>(lo, 100));
    if (spec.variant == "seg16")
      segment = 10;
    auto call = [&]() -> Status {
      const Kernel *kernel = nullptr;
      if (Status s = rt.getKernel(spec, kernel); !s)
        return s;
      if (Status s = rt.launchWithSegment(*kernel, in, out, kN, segment); !s)
        return s;
      return rt.synchronize(nullptr);
    };
    auto c0 = std::chrono::steady_clock::now();
    if (Status s = call(); !s) {
      std::fprintf(stderr, "%s: %s\n", spec.key().c_str(), s.message().c_str());
      return 1;
    }
    coldMs.push_back(msSince(c0));
    // Warm: the memory-cache hit every call takes, averaged.
    constexpr int kCalls = 100000;
    const Kernel *kernel = nullptr;
    auto w0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kCalls; ++i)
      if (Status s = rt.getKernel(spec, kernel); !s)
        return 1;
    double warmUs = msSince(w0) * 1000.0 / kCalls;
    worstWarmUs = std::max(worstWarmUs, warmUs);
    std::printf("library %-62s S=%-5lld first call %7.2f ms (%s)  warm %.3f "
                "us\n",
                spec.key().c_str(), (long long)segment, coldMs.back(),
                rt.stats().binaryLoads ? "cubin" : "PTX JIT", warmUs);
  }
  std::printf("library: %zu class kernels on %s, first call median %.2f ms, "
              "max %.2f ms; warm max %.3f us\n",
              coldMs.size(), arch.c_str(), median(coldMs),
              *std::max_element(coldMs.begin(), coldMs.end()), worstWarmUs);
  (void)deviceFree(in);
  (void)deviceFree(out);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::string(argv[1]) == "--library")
    return libraryLatency(argv[2]);
  std::string arg = argc == 2 ? argv[1] : "";
  if (arg == "--help" || arg == "-h") {
    std::printf(
        "usage: %s CACHE_DIR\n"
        "       %s --library DIR\n\n"
        "How long a kernel takes to become launchable (docs/performance.md):\n"
        "compile (spec -> kernel file, in builds with the compiler), load\n"
        "(kernel file -> loaded module, with a GPU) and warm (a memory-cache\n"
        "hit). Compiled kernels are stored in CACHE_DIR, which the loads\n"
        "read. --library DIR: the first call (module load and launch) and a\n"
        "warm call of every class kernel from the kernel library DIR alone\n"
        "(a GPU is needed).\n",
        argv[0], argv[0]);
    return 0;
  }
  // A leading '-' is an option this tool does not have, not a directory.
  if (argc != 2 || arg.empty() || arg[0] == '-') {
    std::fprintf(stderr, "usage: %s CACHE_DIR (--help for more)\n", argv[0]);
    return 2;
  }
  std::string cacheDir = arg;
  std::vector<KernelSpec> all = specs();

#ifdef TCUC_JIT_LATENCY_WITH_COMPILER
  std::vector<double> compileMs;
  for (const KernelSpec &spec : all) {
    std::string file;
    auto t0 = std::chrono::steady_clock::now();
    if (Status s = compileKernelFile(spec, "sm_90", file); !s) {
      std::fprintf(stderr, "compile %s: %s\n", spec.key().c_str(),
                   s.message().c_str());
      return 1;
    }
    compileMs.push_back(msSince(t0));
    std::printf("compile %-60s %8.1f ms\n", spec.key().c_str(),
                compileMs.back());
    if (Status s = storeKernelFile(spec, "sm_90", file, cacheDir); !s) {
      std::fprintf(stderr, "store: %s\n", s.message().c_str());
      return 1;
    }
  }
  std::printf("compile: first %.1f ms (with one-time set-up), median of the "
              "rest %.1f ms\n",
              compileMs.front(),
              median({compileMs.begin() + 1, compileMs.end()}));
#endif

  std::string arch;
  if (Status s = deviceArch(arch); !s) {
    std::printf("load, warm: skipped (%s)\n", s.message().c_str());
    return 0;
  }
  std::vector<double> loadMs;
  for (const KernelSpec &spec : all) {
    RuntimeOptions options;
    options.cacheDir = cacheDir;
    Runtime rt(options); // fresh: nothing in memory
    const Kernel *kernel = nullptr;
    auto t0 = std::chrono::steady_clock::now();
    if (Status s = rt.getKernel(spec, kernel); !s) {
      std::fprintf(stderr, "load %s: %s\n", spec.key().c_str(),
                   s.message().c_str());
      return 1;
    }
    loadMs.push_back(msSince(t0));
    std::printf("load    %-60s %8.2f ms\n", spec.key().c_str(), loadMs.back());

    constexpr int kCalls = 200000;
    auto w0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kCalls; ++i)
      if (Status s = rt.getKernel(spec, kernel); !s)
        return 1;
    std::printf("warm    %-60s %8.3f us\n", spec.key().c_str(),
                msSince(w0) * 1000.0 / kCalls);
  }
  std::printf("load: median %.2f ms, max %.2f ms\n", median(loadMs),
              *std::max_element(loadMs.begin(), loadMs.end()));
  return 0;
}
