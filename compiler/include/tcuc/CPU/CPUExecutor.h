//===- CPUExecutor.h - run a tcuc kernel on the CPU -------------*- C++ -*-===//
//
// JIT-compiles a KernelSpec through the tcu-to-cpu pipeline (the same mma
// form the GPU runs) with MLIR's ExecutionEngine and calls it on host
// buffers.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CPU_CPUEXECUTOR_H
#define TCUC_CPU_CPUEXECUTOR_H

#include "tcuc/Pipelines/KernelSource.h"

#include <memory>
#include <string>

namespace tcuc {
class CPUKernel {
public:
  /// Compiles `spec`; null with `error` set when the spec is rejected or
  /// compilation fails (diagnostics included). With `keepObject`, object()
  /// then holds the machine code, for a disk cache (load()).
  static std::unique_ptr<CPUKernel>
  compile(const KernelSpec &spec, std::string &error, bool keepObject = false);
  /// The kernel of `spec` from the object code a compile() on this host (same
  /// tcuc build, CPU and features) kept, with the strategy it chose; null
  /// with `error` set when the JIT cannot link it.
  static std::unique_ptr<CPUKernel>
  load(const KernelSpec &spec, const std::string &object,
       const std::string &variant, int64_t tilesPerWarp, int64_t warpsPerBlock,
       std::string &error);
  /// The kernel of `spec` from the disk cache where it holds one (the GPU
  /// kernels' directory, cpu/ below it, the same checked and trusted
  /// files), else compiled and stored there; `origin` says which ("read
  /// from the disk cache" or "compiled"). TCUC_CPU_CACHE=0 compiles every
  /// time. What `tcuc run --device cpu` and the Python package use.
  static std::unique_ptr<CPUKernel>
  cached(const KernelSpec &spec, std::string &origin, std::string &error);
  /// The object code compile() kept (empty otherwise).
  const std::string &object() const { return objectCode; }
  /// What identifies this host's code generation in a cache key: the CPU,
  /// its features and the LLVM version.
  static std::string hostKey();
  ~CPUKernel();

  /// Runs on `n` input elements; `out` holds the output length for `n`
  /// (ceil(n / segment) for reductions, n for scans). `segment` is the
  /// segment size of a class kernel (spec.runtimeSegment; ignored
  /// otherwise); false, with `error` set, for one outside its range.
  /// `decay`: the decay of a kernel that takes it at launch
  /// (spec.runtimeDecay; checked by decayError), ignored otherwise.
  /// `decays`: one per segment for a kernel that takes them
  /// (spec.segmentDecays; required there, checked by decayError).
  bool run(const void *in, int64_t n, void *out, int64_t outLength,
           int64_t segment, std::string &error, double decay = 1.0,
           const float *decays = nullptr);
  /// Runs a kernel of segments from offsets (spec.offsetBits): `offsets`
  /// holds `count` = k+1 entries of that width, `out` k sums (reduce) or n
  /// values (scan). The kernel clamps what it reads; the caller checks the
  /// offsets first (offsetsError). False, with `error` set, for a kernel
  /// compiled without offsets.
  bool runOffsets(const void *in, int64_t n, void *out, int64_t outLength,
                  const void *offsets, int64_t count, std::string &error,
                  double decay = 1.0, const float *decays = nullptr);

  /// The strategy tcu-select-strategy chose for it (as a kernel file's
  /// tcuc.strategy line: tiles per warp 1 on the CPU unless the spec fixed
  /// them, warps per block 0 unless fixed).
  const std::string &variant() const { return chosenVariant; }
  int64_t tilesPerWarp() const { return chosenTiles; }
  int64_t warpsPerBlock() const { return chosenWarps; }

private:
  CPUKernel() = default;
  std::string chosenVariant, objectCode;
  int64_t chosenTiles = 1, chosenWarps = 0;
  bool runtimeSegment = false, isScan = false, runtimeDecay = false,
       segmentDecays = false;
  /// Whether `decays` (count of them) suit this kernel, else `error`.
  bool checkDecays(const float *decays, int64_t count, std::string &error);
  DType input = DType::F16;
  int offsetBits = 0;
  struct Impl;
  std::unique_ptr<Impl> impl;
};
} // namespace tcuc

#endif // TCUC_CPU_CPUEXECUTOR_H
