//===- KernelFile.h - the tcuc kernel file and its header -------*- C++ -*-===//
//
// The text file `tcuc compile` writes and the runtime loads: PTX preceded by
// a `// tcuc...` header that is the launch plan (docs/kernel-file.md). Plain
// C++, so the compiler can check what it writes with the same parser the
// runtime uses.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_KERNELFILE_H
#define TCUC_KERNELFILE_H

#include "tcuc/Spec.h"
#include "tcuc/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tcuc {

/// The first line of every kernel file.
inline constexpr const char *kKernelFileMagic = "// tcuc kernel file 1";

/// A scratch buffer's element count: a postfix expression over `n` (and `s`,
/// a class kernel's runtime segment size, and `o`, an offsets kernel's
/// count of offsets, k+1) with signed 64-bit arithmetic
/// (docs/kernel-file.md lists the tokens).
class SizeExpr {
public:
  /// Parses and checks `text` (tokens separated by single spaces): unknown
  /// tokens, stack underflow and leftover values are errors.
  static Status parse(std::string_view text, SizeExpr &expr);

  /// Evaluates for input length `n` and segment size `segment` (the value
  /// of `s`). Errors: overflow, division by zero, `divu`/`remu` on a
  /// negative value.
  Status evaluate(int64_t n, int64_t &value, int64_t segment = 0,
                  int64_t offsets = 0) const;

  const std::string &text() const { return source; }

private:
  enum class Op {
    Const,
    N,
    S,
    O,
    Add,
    Sub,
    Mul,
    DivU,
    RemU,
    MinS,
    MaxS,
    Ne,
    Eq
  };
  struct Token {
    Op op;
    int64_t value; // Const only.
  };
  std::vector<Token> tokens;
  size_t maxDepth = 0;
  std::string source;
};

/// Bytes per element of a scratch buffer whose element type is `name`: a
/// DType name, or "i64" (the words of a single-pass look-back); 0 for any
/// other name.
size_t scratchElementBytes(std::string_view name);

/// One `tcuc.scratch` line.
struct ScratchBuffer {
  std::string type = "f32"; // one scratchElementBytes knows
  SizeExpr count;
};

/// A parsed kernel file.
struct KernelFile {
  std::string specKey; // tcuc.spec
  std::string arch;    // tcuc.arch, "sm_90"
  std::string version; // tcuc.version: the release that wrote it
  std::string build;   // tcuc.build: the build id of its kernels
  int blockSize = 0;   // tcuc.block
  /// tcuc.strategy: the variant, tiles per warp and warps per block
  /// (0: the variant's own) the compiler chose or the spec fixed, as
  /// tcu-select-strategy left them; what `tcuc run` reports. Optional: an
  /// empty variant when the line is absent.
  std::string variant;
  int tilesPerWarp = 0;
  int warpsPerBlock = 0;
  std::vector<ScratchBuffer> scratch;
  /// tcuc.launch: dependent. The kernels after the first may start as
  /// programmatic dependents of the one before (sm_90: each begins with
  /// griddepcontrol.wait); otherwise they run one after another.
  bool dependentLaunch = false;
  std::vector<std::string> kernels; // launch order
  /// tcuc.items: each kernel's count of work items (one warp each), in
  /// launch order; empty when the compiler could not express them.
  std::vector<SizeExpr> items;
  /// tcuc.segment: runtime MIN MAX. The kernels take the segment size as a
  /// parameter after the buffers in and out, any size in [min, max] (a
  /// class kernel); absent (false): the size is compiled in.
  bool runtimeSegment = false;
  int64_t segmentMin = 0, segmentMax = 0;
  /// tcuc.offsets: i32 or i64 (32, 64). The kernels take the k+1 CSR
  /// offsets as a buffer after in and out, and read n from the last one;
  /// absent (0): segments of one size.
  int offsetBits = 0;
  /// `tcuc.decay: runtime`: the kernels take a decayed scan's decay as an
  /// f32 parameter after the buffers and the segment size
  /// (KernelSpec::runtimeDecay).
  bool runtimeDecay = false;
  /// `tcuc.decay: segments`: the kernels take a scan's per-segment decays,
  /// an f32 buffer after in, out and the offsets
  /// (KernelSpec::segmentDecays).
  bool segmentDecays = false;
  /// The whole file (header and PTX): what the driver's PTX JIT loads.
  std::string text;
  /// Not part of the file: the cubin (SASS for `arch`) the kernel library
  /// holds beside it, loaded instead of `text` when the driver takes it;
  /// empty otherwise.
  std::string binary;
};

/// Parses the header of a kernel file (the PTX is kept as is, not checked).
/// Errors name the line and what is wrong: a missing or repeated field, an
/// unknown field, a bad block size (not a positive multiple of 32, at most
/// 1024), a bad arch, element type, kernel name or size expression, item
/// counts that are not one per kernel.
Status parseKernelFile(std::string_view text, KernelFile &file);

/// The header lines of `file` (everything but `text`), in the order
/// parseKernelFile reads them: what the compiler writes in front of the PTX,
/// so the format has one writer and one reader, both here.
std::string formatKernelFileHeader(const KernelFile &file);

/// Checks that `file` is the kernel for `spec` on `arch` made by a tcuc of
/// build id `build` (tcuc::buildId()), and that a class kernel's sizes are
/// its variant's (runtimeSegmentRange); the error says which field differs.
/// The release (tcuc.version) is not compared: kernels of the same build id
/// are the same kernels.
Status checkKernelFile(const KernelFile &file, const KernelSpec &spec,
                       const std::string &arch, const std::string &build);

} // namespace tcuc

#endif // TCUC_KERNELFILE_H
