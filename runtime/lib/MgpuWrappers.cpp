//===- MgpuWrappers.cpp - MLIR's GPU host ABI over tcuc's driver ----------===//
//
// libtcuc_mgpu.so: the `mgpu*` entry points that upstream's host lowering
// (gpu-to-llvm, and the gpu.binary translation) calls, implemented on the
// CUDA driver tcuc loads at run time (CudaDriver.cpp), so that host code
// from `tcu-to-ptx{host-launch}` runs with neither the CUDA toolkit nor
// MLIR's own CUDA runtime library (Debian ships none). The host code has
// no error channel: a failure prints the driver's message and aborts.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace tcuc;
using namespace tcuc::cuda;

namespace {

/// The driver, loaded once (getDriver's lock and lookup stay off the
/// launch path); a process without one stops here.
const Driver &driver() {
  static const Driver *loaded = [] {
    const Driver *d = nullptr;
    if (Status s = getDriver("", d); !s) {
      std::fprintf(stderr, "tcuc_mgpu: %s\n", s.message().c_str());
      std::abort();
    }
    return d;
  }();
  return *loaded;
}

/// Runs `call` with the driver's context current; aborts on an error.
template <typename Fn> void run(const char *what, Fn call) {
  const Driver &d = driver();
  ScopedContext ctx(d);
  Status s = ctx.status();
  if (s)
    s = d.check(call(d), what);
  if (!s) {
    std::fprintf(stderr, "tcuc_mgpu: %s\n", s.message().c_str());
    std::abort();
  }
}

} // namespace

extern "C" {

/// A gpu.binary of PTX text (format `isa`), NUL-terminated.
void *mgpuModuleLoadJIT(void *data, int /*optLevel*/) {
  CUmodule module = nullptr;
  run("cuModuleLoadDataEx", [&](const Driver &d) {
    return d.cuModuleLoadDataEx(&module, data, 0, nullptr, nullptr);
  });
  return module;
}

/// A gpu.binary of a cubin (format `bin`).
void *mgpuModuleLoad(void *data, size_t /*size*/) {
  return mgpuModuleLoadJIT(data, 0);
}

/// Called from a global destructor at exit, when the driver may already
/// be shut down (CUDA_ERROR_DEINITIALIZED): best effort, never an abort.
void mgpuModuleUnload(void *module) {
  const Driver *d = nullptr;
  if (!getDriver("", d))
    return;
  ScopedContext ctx(*d);
  if (ctx.status())
    (void)d->cuModuleUnload(static_cast<CUmodule>(module));
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  CUfunction function = nullptr;
  run("cuModuleGetFunction", [&](const Driver &d) {
    return d.cuModuleGetFunction(&function, static_cast<CUmodule>(module),
                                 name);
  });
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedBytes, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  run("cuLaunchKernel", [&](const Driver &d) {
    return d.cuLaunchKernel(
        static_cast<CUfunction>(function), unsigned(gridX), unsigned(gridY),
        unsigned(gridZ), unsigned(blockX), unsigned(blockY), unsigned(blockZ),
        unsigned(sharedBytes), static_cast<CUstream>(stream), params, extra);
  });
}

void *mgpuStreamCreate() {
  CUstream stream = nullptr;
  run("cuStreamCreate",
      [&](const Driver &d) { return d.cuStreamCreate(&stream, 0); });
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  run("cuStreamDestroy", [&](const Driver &d) {
    return d.cuStreamDestroy(static_cast<CUstream>(stream));
  });
}

void mgpuStreamSynchronize(void *stream) {
  run("cuStreamSynchronize", [&](const Driver &d) {
    return d.cuStreamSynchronize(static_cast<CUstream>(stream));
  });
}

/// Device memory (stream-ordered allocation is not used: the lowering
/// waits for the stream around it). Managed memory is not offered.
void *mgpuMemAlloc(uint64_t bytes, void * /*stream*/, bool hostShared) {
  if (hostShared) {
    std::fprintf(stderr, "tcuc_mgpu: gpu.alloc host_shared is not supported "
                         "(allocate device memory)\n");
    std::abort();
  }
  CUdeviceptr ptr = 0;
  if (bytes)
    run("cuMemAlloc",
        [&](const Driver &d) { return d.cuMemAlloc(&ptr, bytes); });
  return reinterpret_cast<void *>(uintptr_t(ptr));
}

void mgpuMemFree(void *ptr, void * /*stream*/) {
  if (!ptr)
    return;
  run("cuMemFree", [&](const Driver &d) {
    return d.cuMemFree(CUdeviceptr(reinterpret_cast<uintptr_t>(ptr)));
  });
}

} // extern "C"
