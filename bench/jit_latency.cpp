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
//   tcuc-jit-latency CACHE_DIR
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

} // namespace

int main(int argc, char **argv) {
  std::string arg = argc == 2 ? argv[1] : "";
  if (arg == "--help" || arg == "-h") {
    std::printf(
        "usage: %s CACHE_DIR\n\n"
        "How long a kernel takes to become launchable (docs/performance.md):\n"
        "compile (spec -> kernel file, in builds with the compiler), load\n"
        "(kernel file -> loaded module, with a GPU) and warm (a memory-cache\n"
        "hit). Compiled kernels are stored in CACHE_DIR, which the loads\n"
        "read.\n",
        argv[0]);
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
