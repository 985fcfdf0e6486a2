//===- RuntimeImpl.h - the state behind tcuc::Runtime -----------*- C++ -*-===//

#ifndef TCUC_RUNTIME_RUNTIMEIMPL_H
#define TCUC_RUNTIME_RUNTIMEIMPL_H

#include "CudaDriver.h"
#include "OnceMap.h"
#include "tcuc/Runtime.h"

#include <atomic>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tcuc {

/// One stream's scratch memory. Its mutex is held from taking the buffer
/// until the kernels using it are enqueued, so a concurrent grow (which frees
/// the old buffer) cannot slip in between.
struct StreamScratch {
  std::mutex mu;
  cuda::CUdeviceptr ptr = 0;
  size_t bytes = 0;
};

struct Runtime::Impl {
  RuntimeOptions options;
  /// Empty when the disk cache is off (by option, or no directory known).
  std::string cacheDir;
  /// Empty when there is no kernel library (by option or environment).
  std::string libraryDir;

  /// Guards the fields below it.
  mutable std::mutex mu;
  RuntimeStats stats;
  bool diskWrites = true;
  std::string diskWarning;
  /// The kernel architecture device 0 runs (kernelArchFor its own, or the
  /// one RuntimeOptions::kernelArch / TCUC_KERNEL_ARCH ask for), once known.
  std::string arch;
  std::string chip; // device 0's own ("sm_86"), set with `arch`
  /// Device 0's GPU model (tcuc::gpuModelOf its name) where the built-in
  /// table has rows for it (hasTunedRows), else empty. Written once, before
  /// `arch` (under `mu`): whoever has read a non-empty `arch` reads it
  /// without the lock.
  std::string tunedGpu;

  /// "key|arch" -> kernel file; "key|arch" -> loaded kernel.
  OnceMap<KernelFile> files;
  OnceMap<Kernel> kernels;
  /// Per-size spec key -> the class kernel that runs it for want of a
  /// compiler (getKernelFor), so the miss is not looked up again per call.
  std::mutex fallbackMu;
  std::unordered_map<std::string, const Kernel *> fallbacks;
  std::atomic<bool> anyFallback{false}; // `fallbacks` is not empty

  std::mutex scratchMu; // guards the map, not the buffers
  std::unordered_map<void *, std::unique_ptr<StreamScratch>> scratch;

  /// Set once this runtime has loaded the driver: until then it owns no
  /// module or device memory, and its destructor must not start CUDA.
  std::atomic<const cuda::Driver *> usedDriver{nullptr};

  Status driver(const cuda::Driver *&d) {
    Status s = cuda::getDriver(options.driverPath, d);
    if (s)
      usedDriver = d;
    return s;
  }
  /// The kernel library's file for `spec` on `arch` (with its cubin when
  /// there is one), checked like a disk cache file; false on a miss or a
  /// file that fails the checks (warned once).
  bool readLibrary(const KernelSpec &spec, const std::string &arch,
                   KernelFile &file);
  /// Kernel library, disk cache, then compiler (then disk store).
  Status makeKernelFile(const KernelSpec &spec, const std::string &arch,
                        KernelFile &file);
  void noteDiskWriteFailure(const Status &s);
  /// Sets diskWarning and prints it, unless it is already the warning.
  /// Call with `mu` held.
  void warnDisk(std::string message);
  /// The cache directory failed cache::checkDirectory: nothing is read from
  /// or written to it (warned once per distinct reason).
  void noteDiskRefused(const Status &s);
  /// The stream's scratch entry (made on first use). Entries are never
  /// removed while the runtime lives, so references stay valid.
  StreamScratch &scratchFor(void *stream);
  StreamScratch *findScratch(void *stream);
};

} // namespace tcuc

namespace tcuc {
/// The input and output pointers of a launch: non-null and aligned to
/// their element types (Launch.cpp).
Status checkBufferPointers(const KernelSpec &spec, const void *in,
                           const void *out);

/// The f32 decay a launch of `kernel` passes, from the caller's `decay`
/// (launchWithSegment's rules), or an error (Launch.cpp).
Status launchDecay(const KernelSpec &kernel, double decay, float &value);
/// Whether `decays` suits `kernel`: given (aligned to float) exactly when
/// it takes per-segment decays (Launch.cpp).
Status checkDecaysPointer(const KernelSpec &kernel, const float *decays);

/// One launch's buffers and sizes (enqueueLaunch).
struct Runtime::LaunchArgs {
  const void *in;
  void *out;
  int64_t n, outLength, segment;
  /// An offsets kernel's offsets (device) and their count, k+1.
  const void *offsets = nullptr;
  int64_t numOffsets = 0;
  /// The decay of a kernel that takes it at launch (file.runtimeDecay).
  float decay = 1.0f;
  /// The per-segment decays (device, numDecays of them) of a kernel that
  /// takes them (file.segmentDecays).
  const void *decays = nullptr;
  int64_t numDecays = 0;
  /// An offsets kernel's launch over numSegments > 0 segments
  /// (LaunchOffsets.cpp).
  static LaunchArgs forOffsets(const KernelSpec &spec, const void *in,
                               void *out, const void *offsets,
                               int64_t numSegments);
};

} // namespace tcuc

#endif // TCUC_RUNTIME_RUNTIMEIMPL_H
