//===- FakeCudaDriver.cpp - a CUDA driver that only answers queries -------===//
//
// Loaded by the runtime in place of libcuda.so.1 (RuntimeOptions::
// driverPath) so that tests on machines without a GPU see a device of any
// compute capability and name: $TCUC_FAKE_CC ("86" is 8.6) and
// $TCUC_FAKE_GPU. Everything past the device queries fails (no memory, no
// modules), as a driver without a usable device would. $TCUC_FAKE_ERROR=34
// makes every entry point fail with that code, cuGetErrorName included, as
// the CUDA toolkit's stub libcuda does (CUDA_ERROR_STUB_LIBRARY).
//
//===----------------------------------------------------------------------===//

#include <cstdlib>
#include <cstring>

namespace {
constexpr int kSuccess = 0, kNotSupported = 801;
/// The code every entry point fails with, or 0 ($TCUC_FAKE_ERROR).
int forcedError() {
  const char *v = std::getenv("TCUC_FAKE_ERROR");
  return v ? std::atoi(v) : 0;
}
int capability() {
  const char *v = std::getenv("TCUC_FAKE_CC");
  return v ? std::atoi(v) : 90;
}
} // namespace

extern "C" {
int cuInit(unsigned) { return forcedError(); }
int cuDeviceGetCount(int *count) {
  *count = 1;
  return kSuccess;
}
int cuDeviceGet(int *device, int) {
  *device = 0;
  return kSuccess;
}
int cuDeviceGetAttribute(int *value, int attribute, int) {
  switch (attribute) {
  case 75: // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
    *value = capability() / 10;
    return kSuccess;
  case 76: // ..._MINOR
    *value = capability() % 10;
    return kSuccess;
  case 16: // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    *value = 1;
    return kSuccess;
  }
  return kNotSupported;
}
int cuDeviceGetName(char *name, int length, int) {
  const char *v = std::getenv("TCUC_FAKE_GPU");
  std::strncpy(name, v ? v : "Fake GPU", length);
  return kSuccess;
}
int cuDevicePrimaryCtxRetain(void **context, int) {
  *context = reinterpret_cast<void *>(1);
  return kSuccess;
}
int cuCtxPushCurrent_v2(void *) { return kSuccess; }
int cuCtxPopCurrent_v2(void **) { return kSuccess; }
int cuCtxSynchronize() { return kSuccess; }
int cuModuleLoadDataEx(void **, const void *, unsigned, void *, void **) {
  return kNotSupported;
}
int cuModuleUnload(void *) { return kSuccess; }
int cuModuleGetFunction(void **, void *, const char *) { return kNotSupported; }
int cuLaunchKernel(void *, unsigned, unsigned, unsigned, unsigned, unsigned,
                   unsigned, unsigned, void *, void **, void **) {
  return kNotSupported;
}
int cuOccupancyMaxActiveBlocksPerMultiprocessor(int *, void *, int, size_t) {
  return kNotSupported;
}
int cuMemAlloc_v2(void **, size_t) { return kNotSupported; }
int cuMemFree_v2(void *) { return kNotSupported; }
int cuMemcpyHtoD_v2(void *, const void *, size_t) { return kNotSupported; }
int cuMemcpyDtoH_v2(void *, const void *, size_t) { return kNotSupported; }
int cuMemsetD8_v2(void *, unsigned char, size_t) { return kNotSupported; }
int cuStreamCreate(void **, unsigned) { return kNotSupported; }
int cuStreamDestroy_v2(void *) { return kNotSupported; }
int cuStreamSynchronize(void *) { return kSuccess; }
int cuGetErrorName(int, const char **name) {
  if (int e = forcedError())
    return e;
  *name = "CUDA_ERROR_NOT_SUPPORTED";
  return kSuccess;
}
int cuGetErrorString(int, const char **text) {
  if (int e = forcedError())
    return e;
  *text = "operation not supported (fake driver)";
  return kSuccess;
}
}
