//===- CudaDriver.cpp - dlopen libcuda.so.1, device 0's context -----------===//

#include "CudaDriver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

using namespace tcuc;
using namespace tcuc::cuda;

namespace {
struct KnownResult {
  CUresult code;
  const char *name, *text;
};
/// The common CUresult codes (cuda.h), named when the driver cannot name
/// them itself: a stub libcuda answers cuGetErrorName with an error too.
constexpr KnownResult kKnownResults[] = {
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of device memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "driver not initialized"},
    {4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {34, "CUDA_ERROR_STUB_LIBRARY",
     "this libcuda is the CUDA toolkit's stub, not an NVIDIA driver: "
     "install the driver or set TCUC_CUDA_DRIVER to the real libcuda.so.1"},
    {35, "CUDA_ERROR_INSUFFICIENT_DRIVER",
     "the installed NVIDIA driver is older than this CUDA version"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE",
     "the device is busy or unavailable (exclusive compute mode?)"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {102, "CUDA_ERROR_DEVICE_NOT_LICENSED", "device not licensed"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "invalid kernel image"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid context"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image for this GPU"},
    {218, "CUDA_ERROR_INVALID_PTX", "PTX JIT compilation failed"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "PTX JIT compiler not found"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the PTX needs a newer driver"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {600, "CUDA_ERROR_NOT_READY", "device not ready"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "illegal memory access"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY", "system not yet initialized"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
     "the kernel driver and libcuda versions differ"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
     "forward compatibility not supported on this device"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};
} // namespace

Status Driver::check(CUresult r, const char *what) const {
  if (r == CUDA_SUCCESS)
    return Status::success();
  const KnownResult *known = nullptr;
  for (const KnownResult &k : kKnownResults)
    if (k.code == r)
      known = &k;
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
    name = known ? known->name : "CUDA error";
  // Our text for a stub library: the driver's would not say what to do.
  if (known && r == 34)
    text = known->text;
  else if (cuGetErrorString(r, &text) != CUDA_SUCCESS || !text)
    text = known ? known->text : "no description";
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
