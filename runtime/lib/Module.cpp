//===- Module.cpp - load kernel files into CUDA modules -------------------===//

#include "RuntimeImpl.h"

#include <algorithm>
#include <climits>

using namespace tcuc;
using namespace tcuc::cuda;

namespace {

/// cuModuleLoadDataEx of a PTX text or a cubin, with the JIT's logs
/// captured, so an image the driver rejects explains itself.
Status loadModule(const Driver &d, const std::string &image, CUmodule &module) {
  constexpr size_t kLogBytes = 16384;
  std::string errorLog(kLogBytes, '\0'), infoLog(kLogBytes, '\0');
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog.data(), reinterpret_cast<void *>(kLogBytes),
                    infoLog.data(), reinterpret_cast<void *>(kLogBytes)};
  CUresult r = d.cuModuleLoadDataEx(&module, image.c_str(), 4, options, values);
  if (r == CUDA_SUCCESS)
    return Status::success();
  // The logs are NUL-terminated within their buffers.
  errorLog.resize(std::min(errorLog.find('\0'), kLogBytes));
  infoLog.resize(std::min(infoLog.find('\0'), kLogBytes));
  std::string msg = d.check(r, "cuModuleLoadDataEx").message();
  if (!errorLog.empty())
    msg += "\nJIT error log:\n" + errorLog;
  if (!infoLog.empty())
    msg += "\nJIT info log:\n" + infoLog;
  return Status::error(msg);
}

} // namespace

Status Runtime::getKernel(const KernelSpec &spec, const Kernel *&kernel) {
  std::string arch;
  if (Status s = deviceArch(arch); !s)
    return s;
  // The target names the GPU model where its own tuned rows choose the
  // strategy (kernelTarget), so its kernels are cached apart. (tunedGpu is
  // fixed once deviceArch has answered.)
  if (!impl->tunedGpu.empty())
    arch = kernelTarget(spec, arch, impl->tunedGpu);
  const KernelFile *file = nullptr;
  Status s = impl->files.get(
      spec.key() + "|" + arch,
      [&](KernelFile &f) { return impl->makeKernelFile(spec, arch, f); }, file);
  if (!s)
    return s;

  return impl->kernels.get(
      spec.key() + "|" + arch,
      [&](Kernel &k) -> Status {
        const Driver *d = nullptr;
        if (Status s = impl->driver(d); !s)
          return s;
        ScopedContext ctx(*d);
        if (!ctx.status())
          return ctx.status();
        CUmodule module = nullptr;
        // A library cubin skips the PTX JIT; a driver that refuses it (too
        // old for the ptxas that made it) still gets the PTX.
        bool fromBinary =
            !file->binary.empty() && loadModule(*d, file->binary, module).ok();
        if (!fromBinary)
          if (Status s = loadModule(*d, file->text, module); !s)
            return s.withContext("loading the kernel for '" + spec.key() +
                                 "' on " + arch);
        int sms = 0;
        if (Status s = d->check(
                d->cuDeviceGetAttribute(
                    &sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d->device),
                "cuDeviceGetAttribute(SM count)");
            !s) {
          (void)d->cuModuleUnload(module);
          return s;
        }
        k.kernelSpec = spec;
        k.kernelFile = *file;
        k.kernelFile.binary.clear(); // loaded; the file cache keeps it
        k.driver = d;
        k.module = module;
        for (const std::string &name : file->kernels) {
          CUfunction fn = nullptr;
          int perSM = 0;
          Status s = d->check(d->cuModuleGetFunction(&fn, module, name.c_str()),
                              ("cuModuleGetFunction(" + name + ")").c_str());
          if (s)
            s = d->check(d->cuOccupancyMaxActiveBlocksPerMultiprocessor(
                             &perSM, fn, file->blockSize, 0),
                         "cuOccupancyMaxActiveBlocksPerMultiprocessor");
          if (!s) {
            (void)d->cuModuleUnload(module);
            k.module = nullptr;
            return s.withContext("kernel file for '" + spec.key() + "'");
          }
          k.functions.push_back(fn);
          // A persistent grid: what fits on the device at once (at least one
          // block even if the driver reports no occupancy).
          int64_t blocks = int64_t(std::max(sms, 1)) * std::max(perSM, 1);
          k.residentBlocks.push_back(std::min<int64_t>(blocks, INT_MAX));
        }
        std::lock_guard<std::mutex> lock(impl->mu);
        ++impl->stats.moduleLoads;
        impl->stats.binaryLoads += fromBinary;
        return Status::success();
      },
      kernel);
}
