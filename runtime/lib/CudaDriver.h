//===- CudaDriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The runtime includes no CUDA header and links no CUDA library, so that it
// builds on any machine with a C++ compiler. The few driver types and entry
// points it uses are declared here (matching cuda.h's ABI) and resolved with
// dlopen/dlsym from libcuda.so.1 the first time a GPU is needed.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_RUNTIME_CUDADRIVER_H
#define TCUC_RUNTIME_CUDADRIVER_H

#include "tcuc/Status.h"

#include <cstddef>
#include <string>

namespace tcuc::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_JIT_INFO_LOG_BUFFER = 3;
inline constexpr int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
inline constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

/// cuLaunchKernelEx's configuration (cuda.h's CUlaunchAttribute_st and
/// CUlaunchConfig_st: the attribute's value is a 64-byte union, 8-byte
/// aligned, after the 4-byte id and its padding).
inline constexpr int CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;
struct CUlaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    int programmaticStreamSerializationAllowed;
    void *alignment;
  } value;
};
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};
// cuda.h's layout on 64-bit targets (checked against CUDA 13.0's cuda.h).
static_assert(sizeof(CUlaunchAttribute) == 72 &&
                  offsetof(CUlaunchAttribute, value) == 8,
              "CUlaunchAttribute layout");
static_assert(sizeof(CUlaunchConfig) == 56 &&
                  offsetof(CUlaunchConfig, hStream) == 32 &&
                  offsetof(CUlaunchConfig, attrs) == 40 &&
                  offsetof(CUlaunchConfig, numAttrs) == 48,
              "CUlaunchConfig layout");

/// Entry points of libcuda.so.1. The `_v2` symbols are the ABI cuda.h maps
/// the plain names to since CUDA 3.2/4.0 (64-bit sizes and pointers).
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxPushCurrent)(CUcontext);  // cuCtxPushCurrent_v2
  CUresult (*cuCtxPopCurrent)(CUcontext *); // cuCtxPopCurrent_v2
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction,
                                                          int, size_t);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);               // _v2
  CUresult (*cuMemFree)(CUdeviceptr);                          // _v2
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t); // _v2
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);       // _v2
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);  // _v2
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream); // cuStreamDestroy_v2
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  /// CUDA 12.0 and later; null with an older driver (kernels then launch
  /// one after another).
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **,
                               void **) = nullptr;

  /// Device 0 and its primary context, retained for the life of the process.
  CUdevice device = 0;
  CUcontext context = nullptr;

  /// "cuLaunchKernel: CUDA_ERROR_INVALID_VALUE (invalid argument)", or ok
  /// for CUDA_SUCCESS.
  Status check(CUresult r, const char *what) const;
};

/// The driver at `path` (empty: $TCUC_CUDA_DRIVER, else "libcuda.so.1"),
/// loaded, initialised, with device 0's primary context retained. Loaded once
/// per path for the life of the process; a failure is remembered too, so a
/// machine without a GPU answers every call with the same message.
Status getDriver(const std::string &path, const Driver *&driver);

/// Makes the driver's context current on this thread for one scope and
/// restores the caller's afterwards (the caller may use its own contexts).
class ScopedContext {
public:
  explicit ScopedContext(const Driver &d);
  ~ScopedContext();
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;
  /// Whether the push succeeded; calls must not run otherwise.
  const Status &status() const { return pushStatus; }

private:
  const Driver &driver;
  Status pushStatus;
};

} // namespace tcuc::cuda

#endif // TCUC_RUNTIME_CUDADRIVER_H
