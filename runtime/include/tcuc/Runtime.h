//===- Runtime.h - compile once, cache, launch tcuc kernels -----*- C++ -*-===//
//
// The tcuc runtime over the CUDA Driver API. It includes no CUDA header:
// device pointers are `void *` holding CUdeviceptr values (what cudaMalloc
// and cuMemAlloc return in the unified address space), streams are `void *`
// holding a CUstream / cudaStream_t (nullptr: the legacy default stream).
// libcuda.so.1 is loaded on first use; without it every GPU call returns a
// clear error.
//
// Kernels are found, in order, in the runtime's memory cache, in the kernel
// library installed with tcuc, in the disk cache (docs/runtime.md), or
// compiled by a CompileFn (registered by builds that have the compiler) and
// then stored on disk. Every call is
// thread-safe; a kernel is compiled and loaded at most once per runtime even
// when many threads ask for it at the same time.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_RUNTIME_H
#define TCUC_RUNTIME_H

#include "tcuc/KernelFile.h"
#include "tcuc/Spec.h"
#include "tcuc/Status.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace tcuc {

namespace cuda {
struct Driver;
} // namespace cuda

/// Makes the kernel file (docs/kernel-file.md) for `spec` on `arch`.
using CompileFn = std::function<Status(
    const KernelSpec &spec, const std::string &arch, std::string &kernelFile)>;

/// The compiler runtimes use when their options name none. Linking the
/// compiler (CMake TCUC::JIT, in-tree TCUCGPU) registers
/// tcuc::compileKernelFile at start-up, so kernels compile on first use; an
/// application that links only TCUC::Runtime has none, and then only
/// cached or library kernels run. Setting nullptr turns it off.
void setDefaultCompiler(CompileFn compiler);
CompileFn defaultCompiler();

struct RuntimeOptions {
  /// Disk cache directory; empty: cache::defaultDirectory().
  std::string cacheDir;
  /// Off: neither read nor write kernel files on disk.
  bool diskCache = true;
  /// Kernel library directory (read before the disk cache, never
  /// written); empty: cache::defaultLibraryDirectory().
  std::string libraryDir;
  /// Off: no kernel library.
  bool kernelLibrary = true;
  /// Per-size or class kernels for run, reduce and scan (Spec.h).
  SegmentKernelMode segmentKernels = SegmentKernelMode::FromEnvironment;
  /// Empty: defaultCompiler() at the time of the miss.
  CompileFn compiler;
  /// The CUDA driver library; empty: $TCUC_CUDA_DRIVER, else libcuda.so.1.
  std::string driverPath;
  /// The kernels to run, "sm_80" or "sm_90" (or any chip, as
  /// tcuc::kernelArchFor maps it); empty: $TCUC_KERNEL_ARCH, else the
  /// device's own (kernelArchFor of its compute capability). An older one
  /// than the device's is how a newer GPU is tested on the path an Ampere
  /// or Ada GPU takes; a newer one is an error.
  std::string kernelArch;
};

/// Counters, for tests and diagnostics.
struct RuntimeStats {
  uint64_t compiles = 0;      // CompileFn calls
  uint64_t diskHits = 0;      // kernel files read from the disk cache
  uint64_t diskStores = 0;    // kernel files written to the disk cache
  uint64_t diskCorrupt = 0;   // damaged or stale files ignored
  uint64_t diskUntrusted = 0; // refused: directory or file others can write
  uint64_t libraryHits = 0;   // kernel files read from the kernel library
  uint64_t moduleLoads = 0;   // cuModuleLoadDataEx calls that succeeded
  uint64_t binaryLoads = 0;   // of them, from a cubin (no PTX JIT)
  /// Per-size specs run by a class kernel for want of a compiler
  /// (getKernelFor).
  uint64_t classFallbacks = 0;
};

/// A loaded kernel: the module, its functions and its launch plan. Owned by
/// the Runtime that loaded it and valid as long as that Runtime lives.
class Kernel {
public:
  const KernelSpec &spec() const { return kernelSpec; }
  const KernelFile &file() const { return kernelFile; }

private:
  friend class Runtime;
  KernelSpec kernelSpec;
  KernelFile kernelFile;
  const cuda::Driver *driver = nullptr;
  void *module = nullptr;              // CUmodule
  std::vector<void *> functions;       // CUfunction, in launch order
  std::vector<int64_t> residentBlocks; // SMs x occupancy, per function
};

class Runtime {
public:
  explicit Runtime(RuntimeOptions options = {});
  /// Unloads this runtime's modules and frees its scratch memory. Work it
  /// launched must be finished (synchronize first).
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  /// The process-wide runtime with default options, made on first use and
  /// never destroyed (the driver may be gone during static destruction).
  static Runtime &global();

  /// The kernel architecture device 0 runs: "sm_90" from compute
  /// capability 9.0 on, "sm_80" for 8.x (tcuc::kernelArchFor), or the one
  /// RuntimeOptions::kernelArch asks for. An error for a GPU older than
  /// sm_80 (no mma.sync m16n8k16), naming it.
  Status deviceArch(std::string &arch);
  /// Device 0's own architecture, from its compute capability ("sm_86"):
  /// what a cubin must be built for to load there (same major version).
  Status deviceChip(std::string &chip);

  /// The kernel file for `spec` on `arch`, from memory, the kernel library,
  /// disk, or the compiler (then stored on disk). Needs no GPU.
  Status getKernelFile(const KernelSpec &spec, const std::string &arch,
                       std::string &kernelFile);

  /// The loaded kernel for `spec` on device 0 (getKernelFile for the
  /// device's arch, then cuModuleLoadDataEx; a JIT failure's message holds
  /// the JIT log).
  Status getKernel(const KernelSpec &spec, const Kernel *&kernel);

  /// The kernel that runs `spec` (one call's size): resolveSegmentClass
  /// under RuntimeOptions::segmentKernels. Where its own is in no cache and
  /// this runtime has no compiler (a runtime-only build), the class kernel from
  /// the kernel library runs it instead (counted in
  /// stats().classFallbacks), so a first call of any size up to 8192
  /// needs no compiler. What run, reduce and scan launch.
  Status getKernelFor(const KernelSpec &spec, const Kernel *&kernel);

  /// Enqueues `kernel` over `n` elements of `in` into
  /// `spec.outputLength(n)` elements of `out` on `stream`, without host
  /// synchronisation. n == 0 does nothing. Checked: n >= 0, non-null and
  /// element-aligned pointers, scratch sizes. Scratch memory comes from a
  /// grow-only buffer per stream (docs/runtime.md).
  Status launch(const Kernel &kernel, const void *in, void *out, int64_t n,
                void *stream = nullptr);
  /// launch with the segment size of this call: for a class kernel
  /// (spec().runtimeSegment) any size its variant takes (checked:
  /// runtimeSegmentRange), else the kernel's own size. launch() refuses a
  /// class kernel, and a kernel that takes the decay at launch.
  /// `decay`: for a kernel that takes it (spec().runtimeDecay) this
  /// launch's decay, required (checked: decayError); for any other kernel
  /// unset (NaN) or the kernel's own.
  /// `decays`: the per-segment decays (device, one float per segment) of
  /// a kernel that takes them (spec().segmentDecays), required there and
  /// not checked here (scan checks them); null for any other kernel.
  Status launchWithSegment(const Kernel &kernel, const void *in, void *out,
                           int64_t n, int64_t segment, void *stream = nullptr,
                           double decay = kKernelDecay,
                           const float *decays = nullptr);
  /// launchWithSegment's and launchOffsets' `decay` when not given: the
  /// kernel's own.
  static constexpr double kKernelDecay =
      std::numeric_limits<double>::quiet_NaN();
  /// launch for a kernel of segments from offsets (spec().offsetBits):
  /// `offsets` holds numSegments + 1 device offsets of that width (CSR:
  /// the first 0, nondecreasing, the last n; not checked here: reduceOffsets
  /// with `validate` does). The kernels read n from the last offset and
  /// clamp every offset, so bad offsets never make them read or write out
  /// of bounds (docs/algorithms.md#offsets). numSegments == 0 does nothing.
  Status launchOffsets(const Kernel &kernel, const void *in, void *out,
                       const void *offsets, int64_t numSegments,
                       void *stream = nullptr, double decay = kKernelDecay,
                       const float *decays = nullptr);

  /// getKernel + launch. Arguments are checked before the GPU is touched,
  /// so bad arguments fail the same way on machines without one.
  Status reduce(const void *in, void *out, int64_t n, int64_t segment,
                DType inType, DType outType, void *stream = nullptr,
                const std::string &variant = "");
  Status scan(const void *in, void *out, int64_t n, int64_t segment,
              DType inType, DType outType, bool inclusive,
              void *stream = nullptr, const std::string &variant = "");
  /// scan with a ScanMode: `{true, true}` is an inclusive reverse (suffix)
  /// scan.
  Status scan(const void *in, void *out, int64_t n, int64_t segment,
              DType inType, DType outType, ScanMode mode,
              void *stream = nullptr, const std::string &variant = "");
  /// `decays`: a spec with per-segment decays (spec.segmentDecays) takes
  /// them here, one float per segment on the device, checked first
  /// (copied to the host: a synchronisation on `stream`); all equal, they
  /// run as that one decay (scanOffsets alike).
  Status run(const KernelSpec &spec, const void *in, void *out, int64_t n,
             void *stream = nullptr, const float *decays = nullptr);
  /// Segments of any lengths from numSegments + 1 CSR offsets on the device
  /// (`offsetBits` 32 or 64): a reduction writes numSegments sums (0 for an
  /// empty segment), a scan n = offsets[numSegments] values. One kernel per
  /// (op, types, offset width, scan mode) serves any offsets. With
  /// `validate` the offsets are copied to the host and checked
  /// (offsetsError) before the launch: a clear error, at the cost of a
  /// synchronisation on `stream`.
  Status reduceOffsets(const void *in, void *out, const void *offsets,
                       int64_t numSegments, int offsetBits, DType inType,
                       DType outType, void *stream = nullptr,
                       bool validate = false);
  Status scanOffsets(const void *in, void *out, const void *offsets,
                     int64_t numSegments, int offsetBits, DType inType,
                     DType outType, bool inclusive, void *stream = nullptr,
                     bool validate = false);
  Status scanOffsets(const void *in, void *out, const void *offsets,
                     int64_t numSegments, int offsetBits, DType inType,
                     DType outType, ScanMode mode, void *stream = nullptr,
                     bool validate = false);

  /// Frees the scratch buffer kept for `stream` (call before destroying a
  /// stream this runtime launched multi-pass kernels on).
  Status releaseScratch(void *stream);

  /// Device memory on device 0, for drivers, tests and examples.
  Status deviceAlloc(size_t bytes, void *&ptr);
  Status deviceFree(void *ptr);
  Status copyToDevice(void *dst, const void *src, size_t bytes);
  Status copyToHost(void *dst, const void *src, size_t bytes);
  Status deviceMemset(void *ptr, unsigned char value, size_t bytes);
  /// Waits for `stream`; nullptr waits for all work of the device context.
  Status synchronize(void *stream);
  /// A new stream (cuStreamCreate, default flags) on device 0, and its end
  /// (which also frees the stream's scratch buffer).
  Status createStream(void *&stream);
  Status destroyStream(void *stream);

  /// The disk cache directory in use; empty when the disk cache is off.
  std::string cacheDirectory() const;
  /// The kernel library directory in use; empty when there is none.
  std::string libraryDirectory() const;
  /// Why the disk cache is not fully used (empty while it works): writing
  /// stopped at the first failed write, or the directory or a kernel's file
  /// was refused as untrusted (owned by another user, world-writable, a
  /// symbolic link, not a regular file; cache::checkDirectory, cache::load).
  /// The latest such reason; each is also said once on stderr.
  std::string diskCacheWarning() const;
  RuntimeStats stats() const;

private:
  struct Impl;
  struct LaunchArgs;
  /// Enqueues `kernel`'s launches over `args` (scratch from this stream's
  /// buffer): what every launch ends in.
  Status enqueueLaunch(const Kernel &kernel, const LaunchArgs &args,
                       void *stream);
  Status runOffsets(const KernelSpec &spec, const void *in, void *out,
                    const void *offsets, int64_t numSegments, void *stream,
                    bool validate, const float *decays = nullptr);
  /// Copies `count` per-segment decays to the host and checks each
  /// (decayError), naming the first bad one. Where all are equal, turns
  /// `spec` into that one decay's scan and `decays` to null.
  Status checkDecays(KernelSpec &spec, const float *&decays, int64_t count,
                     void *stream);
  std::unique_ptr<Impl> impl;
};

/// Device memory a launch of `file` over `n` elements takes from the
/// stream's scratch buffer (the sum of its scratch buffers, each rounded up
/// to the launch's 256-byte alignment).
Status scratchBytes(const KernelFile &file, int64_t n, uint64_t &bytes,
                    int64_t segment = 0);

/// Blocks a launch of `file`'s kernel `k` over `n` elements uses, given
/// `residentBlocks` of it fit on the device at once: a warp per work item
/// (tcuc.items) up to 64 waves of resident blocks; the resident blocks
/// when the file has no item counts. At least 1, at most INT_MAX.
int64_t launchGrid(const KernelFile &file, size_t k, int64_t residentBlocks,
                   int64_t n, int64_t segment = 0, int64_t offsets = 0);

/// Where the disk cache keeps the kernel for `spec` on `arch`; `cacheDir`
/// empty: cache::defaultDirectory().
std::string kernelCachePath(const KernelSpec &spec, const std::string &arch,
                            const std::string &cacheDir = "");

/// Checks `kernelFile` (header parses, spec, arch and build id match) and
/// writes it to the disk cache: what `tcuc compile --cache-dir` uses to fill
/// a cache for machines without the compiler.
Status storeKernelFile(const KernelSpec &spec, const std::string &arch,
                       const std::string &kernelFile,
                       const std::string &cacheDir = "");

/// Runtime::global() conveniences.
Status deviceArch(std::string &arch);
Status reduce(const void *in, void *out, int64_t n, int64_t segment,
              DType inType, DType outType, void *stream = nullptr,
              const std::string &variant = "");
Status scan(const void *in, void *out, int64_t n, int64_t segment, DType inType,
            DType outType, bool inclusive, void *stream = nullptr,
            const std::string &variant = "");
Status scan(const void *in, void *out, int64_t n, int64_t segment, DType inType,
            DType outType, ScanMode mode, void *stream = nullptr,
            const std::string &variant = "");
Status reduceOffsets(const void *in, void *out, const void *offsets,
                     int64_t numSegments, int offsetBits, DType inType,
                     DType outType, void *stream = nullptr,
                     bool validate = false);
Status scanOffsets(const void *in, void *out, const void *offsets,
                   int64_t numSegments, int offsetBits, DType inType,
                   DType outType, bool inclusive, void *stream = nullptr,
                   bool validate = false);
Status scanOffsets(const void *in, void *out, const void *offsets,
                   int64_t numSegments, int offsetBits, DType inType,
                   DType outType, ScanMode mode, void *stream = nullptr,
                   bool validate = false);
Status deviceAlloc(size_t bytes, void *&ptr);
Status deviceFree(void *ptr);
Status copyToDevice(void *dst, const void *src, size_t bytes);
Status copyToHost(void *dst, const void *src, size_t bytes);
Status deviceMemset(void *ptr, unsigned char value, size_t bytes);
Status synchronize(void *stream = nullptr);
Status createStream(void *&stream);
Status destroyStream(void *stream);

} // namespace tcuc

#endif // TCUC_RUNTIME_H
