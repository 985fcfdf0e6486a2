// A stand-in for the CUDA toolkit's stub libcuda.so (lib64/stubs), which
// machines without an NVIDIA driver may find first: every entry point fails
// with CUDA_ERROR_STUB_LIBRARY (34), cuGetErrorName included, as the real
// stub does.
#define STUB(name)                                                             \
  extern "C" int name(...) { return 34; }
STUB(cuInit)
STUB(cuDeviceGetCount)
STUB(cuDeviceGet)
STUB(cuDeviceGetAttribute)
STUB(cuDeviceGetName)
STUB(cuDevicePrimaryCtxRetain)
STUB(cuCtxPushCurrent_v2)
STUB(cuCtxPopCurrent_v2)
STUB(cuCtxSynchronize)
STUB(cuModuleLoadDataEx)
STUB(cuModuleUnload)
STUB(cuModuleGetFunction)
STUB(cuLaunchKernel)
STUB(cuOccupancyMaxActiveBlocksPerMultiprocessor)
STUB(cuMemAlloc_v2)
STUB(cuMemFree_v2)
STUB(cuMemcpyHtoD_v2)
STUB(cuMemcpyDtoH_v2)
STUB(cuMemsetD8_v2)
STUB(cuStreamCreate)
STUB(cuStreamDestroy_v2)
STUB(cuStreamSynchronize)
STUB(cuGetErrorName)
STUB(cuGetErrorString)
