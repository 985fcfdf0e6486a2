//===- Device.cpp - device queries and memory helpers ---------------------===//

#include "RuntimeImpl.h"

#include <cstdint>
#include <cstdlib>

using namespace tcuc;
using namespace tcuc::cuda;

namespace {

CUdeviceptr dptr(const void *p) {
  return CUdeviceptr(reinterpret_cast<uintptr_t>(p));
}

/// Runs `fn(driver)` with device 0's context current.
template <typename Fn> Status withDevice(const std::string &driverPath, Fn fn) {
  const Driver *d = nullptr;
  if (Status s = getDriver(driverPath, d); !s)
    return s;
  ScopedContext ctx(*d);
  if (!ctx.status())
    return ctx.status();
  return fn(*d);
}

} // namespace

Status Runtime::deviceArch(std::string &arch) {
  {
    std::lock_guard<std::mutex> lock(impl->mu);
    if (!impl->arch.empty()) {
      arch = impl->arch;
      return Status::success();
    }
  }
  const Driver *d = nullptr;
  if (Status s = impl->driver(d); !s)
    return s;
  int major = 0, minor = 0;
  Status s = d->check(
      d->cuDeviceGetAttribute(
          &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->device),
      "cuDeviceGetAttribute(compute capability)");
  if (s)
    s = d->check(
        d->cuDeviceGetAttribute(
            &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->device),
        "cuDeviceGetAttribute(compute capability)");
  if (!s)
    return s;
  // The model picks a tuned table of its own where there is one; a name the
  // driver does not give only loses that.
  char name[256] = {};
  std::string model;
  if (d->cuDeviceGetName(name, sizeof(name) - 1, d->device) == 0)
    model = gpuModelOf(name);
  // The kernels a chip runs (sm_80 PTX, JIT-compiled by the driver, for
  // sm_86/87/89; sm_90 PTX from Hopper on): docs/gpus.md.
  std::string chip = "sm_" + std::to_string(major * 10 + minor), why;
  std::string own = kernelArchFor(chip, &why);
  std::string label =
      (name[0] ? "GPU '" + std::string(name) + "' (" : "GPU (") + chip + ")";
  if (own.empty())
    return Status::error(label + ": " + why);
  std::string asked = impl->options.kernelArch;
  const char *variable = "RuntimeOptions::kernelArch";
  if (asked.empty())
    if (const char *v = std::getenv("TCUC_KERNEL_ARCH"); v && *v) {
      asked = v;
      variable = "TCUC_KERNEL_ARCH";
    }
  std::string kernelArch = own;
  if (!asked.empty()) {
    kernelArch = kernelArchFor(asked, &why);
    if (kernelArch.empty())
      return Status::error(std::string(variable) + ": " + why);
    // Two kernel architectures: only sm_90 is newer than another.
    if (kernelArch == "sm_90" && own == "sm_80")
      return Status::error(std::string(variable) + "=" + asked + " asks for " +
                           kernelArch + " kernels, newer than " + label +
                           " runs (" + own + ")");
  }
  std::lock_guard<std::mutex> lock(impl->mu);
  if (impl->arch.empty()) { // another thread may have been first
    // A model's tuned rows are for its own architecture's kernels.
    impl->tunedGpu = hasTunedRows(model) && kernelArch == own ? model : "";
    impl->arch = kernelArch;
    impl->chip = chip;
  }
  arch = impl->arch;
  return Status::success();
}

Status Runtime::deviceChip(std::string &chip) {
  std::string arch;
  if (Status s = deviceArch(arch); !s)
    return s;
  std::lock_guard<std::mutex> lock(impl->mu);
  chip = impl->chip;
  return Status::success();
}

Status Runtime::deviceAlloc(size_t bytes, void *&ptr) {
  ptr = nullptr;
  if (bytes == 0)
    return Status::success();
  return withDevice(impl->options.driverPath, [&](const Driver &d) {
    CUdeviceptr p = 0;
    Status s =
        d.check(d.cuMemAlloc(&p, bytes),
                ("cuMemAlloc(" + std::to_string(bytes) + " bytes)").c_str());
    if (s)
      ptr = reinterpret_cast<void *>(uintptr_t(p));
    return s;
  });
}

Status Runtime::deviceFree(void *ptr) {
  if (!ptr)
    return Status::success();
  return withDevice(impl->options.driverPath, [&](const Driver &d) {
    return d.check(d.cuMemFree(dptr(ptr)), "cuMemFree");
  });
}

Status Runtime::copyToDevice(void *dst, const void *src, size_t bytes) {
  if (bytes == 0)
    return Status::success();
  if (!dst || !src)
    return Status::error("copyToDevice: null pointer");
  return withDevice(impl->options.driverPath, [&](const Driver &d) {
    return d.check(d.cuMemcpyHtoD(dptr(dst), src, bytes), "cuMemcpyHtoD");
  });
}

Status Runtime::copyToHost(void *dst, const void *src, size_t bytes) {
  if (bytes == 0)
    return Status::success();
  if (!dst || !src)
    return Status::error("copyToHost: null pointer");
  return withDevice(impl->options.driverPath, [&](const Driver &d) {
    return d.check(d.cuMemcpyDtoH(dst, dptr(src), bytes), "cuMemcpyDtoH");
  });
}

Status Runtime::deviceMemset(void *ptr, unsigned char value, size_t bytes) {
  if (bytes == 0)
    return Status::success();
  if (!ptr)
    return Status::error("deviceMemset: null pointer");
  return withDevice(impl->options.driverPath, [&](const Driver &d) {
    return d.check(d.cuMemsetD8(dptr(ptr), value, bytes), "cuMemsetD8");
  });
}

Status Runtime::synchronize(void *stream) {
  return withDevice(impl->options.driverPath, [&](const Driver &d) {
    if (!stream)
      return d.check(d.cuCtxSynchronize(), "cuCtxSynchronize");
    return d.check(d.cuStreamSynchronize(static_cast<CUstream>(stream)),
                   "cuStreamSynchronize");
  });
}

Status Runtime::createStream(void *&stream) {
  stream = nullptr;
  return withDevice(impl->options.driverPath, [&](const Driver &d) {
    CUstream s = nullptr;
    Status st = d.check(d.cuStreamCreate(&s, 0), "cuStreamCreate");
    if (st)
      stream = s;
    return st;
  });
}

Status Runtime::destroyStream(void *stream) {
  if (!stream)
    return Status::success();
  if (Status s = releaseScratch(stream); !s)
    return s;
  return withDevice(impl->options.driverPath, [&](const Driver &d) {
    return d.check(d.cuStreamDestroy(static_cast<CUstream>(stream)),
                   "cuStreamDestroy");
  });
}

//===----------------------------------------------------------------------===//
// Runtime::global() conveniences
//===----------------------------------------------------------------------===//

Status tcuc::deviceArch(std::string &arch) {
  return Runtime::global().deviceArch(arch);
}
Status tcuc::reduce(const void *in, void *out, int64_t n, int64_t segment,
                    DType inType, DType outType, void *stream,
                    const std::string &variant) {
  return Runtime::global().reduce(in, out, n, segment, inType, outType, stream,
                                  variant);
}
Status tcuc::scan(const void *in, void *out, int64_t n, int64_t segment,
                  DType inType, DType outType, bool inclusive, void *stream,
                  const std::string &variant) {
  return Runtime::global().scan(in, out, n, segment, inType, outType, inclusive,
                                stream, variant);
}
Status tcuc::scan(const void *in, void *out, int64_t n, int64_t segment,
                  DType inType, DType outType, ScanMode mode, void *stream,
                  const std::string &variant) {
  return Runtime::global().scan(in, out, n, segment, inType, outType, mode,
                                stream, variant);
}
Status tcuc::deviceAlloc(size_t bytes, void *&ptr) {
  return Runtime::global().deviceAlloc(bytes, ptr);
}
Status tcuc::deviceFree(void *ptr) { return Runtime::global().deviceFree(ptr); }
Status tcuc::copyToDevice(void *dst, const void *src, size_t bytes) {
  return Runtime::global().copyToDevice(dst, src, bytes);
}
Status tcuc::copyToHost(void *dst, const void *src, size_t bytes) {
  return Runtime::global().copyToHost(dst, src, bytes);
}
Status tcuc::deviceMemset(void *ptr, unsigned char value, size_t bytes) {
  return Runtime::global().deviceMemset(ptr, value, bytes);
}
Status tcuc::synchronize(void *stream) {
  return Runtime::global().synchronize(stream);
}
Status tcuc::createStream(void *&stream) {
  return Runtime::global().createStream(stream);
}
Status tcuc::destroyStream(void *stream) {
  return Runtime::global().destroyStream(stream);
}
