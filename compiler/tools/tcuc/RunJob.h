//===- RunJob.h - what `tcuc run` does around one kernel launch -*- C++ -*-===//
//
// Plain C++ (no LLVM/MLIR), shared by the full driver and the runtime-only
// driver a GPU machine without LLVM builds: make or read the input, run the
// kernel through a device-specific callback, check against the float64
// reference, report.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_TOOLS_TCUC_RUNJOB_H
#define TCUC_TOOLS_TCUC_RUNJOB_H

#include "tcuc/Spec.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tcuc::driver {

/// The exit codes of both drivers (docs/index.md, "Tools").
enum ExitCode : int {
  kExitOk = 0,
  /// --check found a result that does not match the reference.
  kExitCheckFailed = 1,
  /// A bad flag, spec, file or size: nothing ran.
  kExitUsage = 2,
  /// The input was accepted but the work failed: no usable GPU or driver
  /// (--device gpu), compiling, loading or running the kernel.
  kExitRuntime = 3,
};

/// `text` as a JSON string literal, quotes included.
std::string jsonString(const std::string &text);

/// Builds the spec from the driver's flag values (--op, --segment, --dtype,
/// --out-dtype, --exclusive, --reverse, --variant), checking what needs no
/// compiler: names, segment >= 1, --exclusive and --reverse only for scans.
/// Type combinations are the op verifier's. Shared by the full and the
/// runtime-only driver.
bool makeSpec(const std::string &op, int64_t segment, const std::string &dtype,
              const std::string &outDtype, bool exclusive, bool reverse,
              const std::string &variant, int64_t tilesPerWarp,
              int64_t warpsPerBlock, KernelSpec &spec, std::string &error);

struct RunRequest {
  KernelSpec spec;
  int64_t n = 0;
  uint64_t seed = 1;
  std::string inputFile, outputFile;
  bool check = false, json = false;
  /// "cpu" or "gpu" (reported only).
  std::string device;
  /// Why --device auto did not pick the GPU (reported); empty when it did or
  /// the device was given.
  std::string deviceFallback;
  /// Whether --device auto chose (deviceFallback is then reported, as null
  /// when the GPU was usable).
  bool autoDevice = false;
  /// The variant, tiles per warp and warps per block that ran, reported:
  /// the GPU kernel file's tcuc.strategy line or the CPU kernel's choice;
  /// empty / 0 where unknown (a kernel file without the line), then the
  /// spec's own or "default" (warps per block: 0 also for the variant's
  /// own rule).
  std::string variantName;
  int64_t tilesPerWarp = 0;
  int64_t warpsPerBlock = 0;
  /// Milliseconds spent compiling (or loading) the kernel, and how it came
  /// ("compiled", "read from the disk cache", "already loaded"), reported.
  double compileMs = 0;
  std::string kernelOrigin = "compiled";
  /// Whether a class kernel ran (the size passed at launch,
  /// TCUC_SEGMENT_KERNELS=class), reported.
  bool classKernel = false;
  /// With spec.offsetBits: the k+1 CSR offsets (checked: offsetsError), the
  /// last one n.
  std::vector<int64_t> offsets;
  /// With spec.segmentDecays: one decay per segment (--decay-file).
  std::vector<float> decays;
  /// Output elements: k with offsets for a reduction, else the spec's for n.
  int64_t outputLength() const;
  /// Whether messages also go to stderr as text: not when stderr carries the
  /// --json object (--output -), which then is all it holds.
  bool textOnStderr() const { return !(json && outputFile == "-"); }
};
/// Reports a failure and returns `code`: "tcuc run: <message>" on stderr and,
/// with --json, one object {"ok": false, "exit_code": code, "error": ...}
/// where the report goes (stdout, or stderr with --output -).
int reportFailure(const RunRequest &request, int code,
                  const std::string &message);

/// With --input and no --n (`nGiven` false): n from the file's size; with
/// both: the file must hold exactly n elements. False, with `error` saying
/// why, for an unreadable file, a size that is not a multiple of the
/// element size, or one that disagrees with --n.
bool inferInputCount(RunRequest &request, bool nGiven, std::string &error);

/// A progress line on stderr for work that may take over a second (compile,
/// the float64 reference): printed once the work has taken a second, when
/// stderr is a terminal; TCUC_PROGRESS=1 prints it at once whatever stderr
/// is, TCUC_PROGRESS=0 never. The destructor ends the work ("done in").
class Progress {
public:
  explicit Progress(std::string what);
  ~Progress();
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

private:
  struct State;
  State *state = nullptr;
};

/// Reads --offsets: raw little-endian int64, k+1 entries, checked
/// (offsetsError against their last entry, which is n; i32 kernels: each
/// below 2^31). False, with `error` naming the file and the first bad
/// entry, otherwise.
bool readOffsetsFile(const std::string &path, int offsetBits,
                     std::vector<int64_t> &offsets, std::string &error);
/// Reads --decay-file: raw little-endian float32, one decay per segment,
/// exactly `count` of them, each finite in [-1, 1] (decayError for
/// `input`); false, with `error` set, otherwise.
bool readDecaysFile(const std::string &path, int64_t count, DType input,
                    std::vector<float> &decays, std::string &error);

/// Runs the kernel on host buffers: `in` holds n elements, `out` the spec's
/// output length. Returns false with `error` set on failure; `ms` is the
/// time the kernel took (device time on the GPU).
using ExecuteFn = std::function<bool(const void *in, int64_t n, void *out,
                                     double &ms, std::string &error)>;

/// Refuses an element count larger than kMaxElements or whose host buffers
/// (input, output, and with --check the float64 reference) exceed this
/// machine's physical memory or what the address-space and data limits
/// (ulimit -v, -d) leave this process: a clear error naming the size
/// instead of an abort or the OOM killer half way. Both drivers call it
/// before compiling or loading.
bool checkHostMemory(const RunRequest &request, std::string &error);

/// Refuses empty --input/--output paths and an --output that names the
/// input file (it would replace the data being read). Both drivers call it
/// before compiling or loading.
bool checkFiles(const RunRequest &request, std::string &error);

/// Does the job; returns the process exit code (ExitCode). Messages go to
/// stdout/stderr.
int runJob(const RunRequest &request, const ExecuteFn &execute);

/// Executes on the GPU through the runtime (kernel from the runtime's cache,
/// or compiled by its registered compiler).
ExecuteFn gpuExecutor(const KernelSpec &spec,
                      const std::vector<float> *decays = nullptr);
/// The same for a kernel of segments from offsets (spec.offsetBits): the
/// offsets (k+1, checked) copied to the device in the kernel's width.
/// `offsets` must outlive the returned function.
ExecuteFn gpuOffsetsExecutor(const KernelSpec &spec,
                             const std::vector<int64_t> &offsets,
                             const std::vector<float> *decays = nullptr);

/// Loads (compiling on a cache miss) the GPU kernel of `request.spec`:
/// sets `request.compileMs`, `request.kernelOrigin` and, from the kernel
/// file, the strategy that runs.
bool loadGPUKernel(RunRequest &request, std::string &error);

/// Whether a GPU is usable (driver found, a device present); `why` says
/// why not ("no CUDA driver: ...", "cuInit: CUDA_ERROR_STUB_LIBRARY ...").
bool gpuUsable(std::string &why);

} // namespace tcuc::driver

#endif // TCUC_TOOLS_TCUC_RUNJOB_H
