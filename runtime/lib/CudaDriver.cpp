//===- CudaDriver.cpp - dlopen libcuda.so.1, device 0's context -----------===//

#include "CudaDriver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

using namespace tcuc;
using namespace tcuc::cuda;

Status Driver::check(CUresult r, const char *what) const {
  if (r == CUDA_SUCCESS)
    return Status::success();
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
    name = "CUDA error";
  if (cuGetErrorString(r, &text) != CUDA_SUCCESS || !text)
    text = "no description";
  return Status::error(std::string(what) + ": " + name + " (" + text +
                       ", code " + std::to_string(r) + ")");
}

namespace {

struct Loaded {
  Status status;
  std::unique_ptr<Driver> driver;
};

template <typename Fn>
bool resolve(void *lib, const char *symbol, Fn &fn, std::string &missing) {
  fn = reinterpret_cast<Fn>(dlsym(lib, symbol));
  if (!fn)
    missing = symbol;
  return fn != nullptr;
}

Loaded load(const std::string &path) {
  Loaded result;
  // RTLD_LOCAL: the driver's symbols must not satisfy anyone else's lookups.
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    result.status = Status::error("no CUDA driver: could not load " + path +
                                  " (" + (why ? why : "unknown reason") + ")");
    return result;
  }
  auto d = std::make_unique<Driver>();
  std::string missing;
  bool ok =
      resolve(lib, "cuInit", d->cuInit, missing) &&
      resolve(lib, "cuDeviceGetCount", d->cuDeviceGetCount, missing) &&
      resolve(lib, "cuDeviceGet", d->cuDeviceGet, missing) &&
      resolve(lib, "cuDeviceGetAttribute", d->cuDeviceGetAttribute, missing) &&
      resolve(lib, "cuDeviceGetName", d->cuDeviceGetName, missing) &&
      resolve(lib, "cuDevicePrimaryCtxRetain", d->cuDevicePrimaryCtxRetain,
              missing) &&
      resolve(lib, "cuCtxPushCurrent_v2", d->cuCtxPushCurrent, missing) &&
      resolve(lib, "cuCtxPopCurrent_v2", d->cuCtxPopCurrent, missing) &&
      resolve(lib, "cuCtxSynchronize", d->cuCtxSynchronize, missing) &&
      resolve(lib, "cuModuleLoadDataEx", d->cuModuleLoadDataEx, missing) &&
      resolve(lib, "cuModuleUnload", d->cuModuleUnload, missing) &&
      resolve(lib, "cuModuleGetFunction", d->cuModuleGetFunction, missing) &&
      resolve(lib, "cuLaunchKernel", d->cuLaunchKernel, missing) &&
      resolve(lib, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
              d->cuOccupancyMaxActiveBlocksPerMultiprocessor, missing) &&
      resolve(lib, "cuMemAlloc_v2", d->cuMemAlloc, missing) &&
      resolve(lib, "cuMemFree_v2", d->cuMemFree, missing) &&
      resolve(lib, "cuMemcpyHtoD_v2", d->cuMemcpyHtoD, missing) &&
      resolve(lib, "cuMemcpyDtoH_v2", d->cuMemcpyDtoH, missing) &&
      resolve(lib, "cuMemsetD8_v2", d->cuMemsetD8, missing) &&
      resolve(lib, "cuStreamCreate", d->cuStreamCreate, missing) &&
      resolve(lib, "cuStreamDestroy_v2", d->cuStreamDestroy, missing) &&
      resolve(lib, "cuStreamSynchronize", d->cuStreamSynchronize, missing) &&
      resolve(lib, "cuGetErrorName", d->cuGetErrorName, missing) &&
      resolve(lib, "cuGetErrorString", d->cuGetErrorString, missing);
  if (!ok) {
    result.status = Status::error("CUDA driver " + path + " has no " + missing +
                                  " (driver too old?)");
    return result;
  }
  // Optional: without it every kernel launches after the one before ends.
  d->cuLaunchKernelEx = reinterpret_cast<decltype(d->cuLaunchKernelEx)>(
      dlsym(lib, "cuLaunchKernelEx"));

  if (Status s = d->check(d->cuInit(0), "cuInit"); !s) {
    result.status = Status::error("no usable CUDA driver: " + s.message());
    return result;
  }
  int count = 0;
  if (Status s = d->check(d->cuDeviceGetCount(&count), "cuDeviceGetCount");
      !s) {
    result.status = s;
    return result;
  }
  if (count <= 0) {
    result.status = Status::error("no CUDA device");
    return result;
  }
  if (Status s = d->check(d->cuDeviceGet(&d->device, 0), "cuDeviceGet"); !s) {
    result.status = s;
    return result;
  }
  // The primary context is the one the CUDA runtime API uses too, so
  // pointers and streams from cudaMalloc/cudaStreamCreate work here.
  if (Status s = d->check(d->cuDevicePrimaryCtxRetain(&d->context, d->device),
                          "cuDevicePrimaryCtxRetain");
      !s) {
    result.status = s;
    return result;
  }
  // The library handle and the context stay for the life of the process:
  // unloading at exit races with other static destructors using the driver.
  result.driver = std::move(d);
  return result;
}

} // namespace

Status tcuc::cuda::getDriver(const std::string &path, const Driver *&driver) {
  static std::mutex mu;
  // Leaked on purpose (see above); holds one entry per distinct path.
  static auto *loaded = new std::map<std::string, Loaded>();

  std::string resolved = path;
  if (resolved.empty()) {
    const char *env = std::getenv("TCUC_CUDA_DRIVER");
    resolved = env && *env ? env : "libcuda.so.1";
  }
  std::lock_guard<std::mutex> lock(mu);
  auto it = loaded->find(resolved);
  if (it == loaded->end())
    it = loaded->emplace(resolved, load(resolved)).first;
  if (!it->second.status)
    return it->second.status;
  driver = it->second.driver.get();
  return Status::success();
}

ScopedContext::ScopedContext(const Driver &d) : driver(d) {
  pushStatus = d.check(d.cuCtxPushCurrent(d.context), "cuCtxPushCurrent");
}

ScopedContext::~ScopedContext() {
  if (pushStatus) {
    CUcontext popped = nullptr;
    (void)driver.cuCtxPopCurrent(&popped);
  }
}
