//===- CAPI.cpp - the C interface (tcuc.h) over Runtime::global() ---------===//

#include "tcuc/tcuc.h"

#include "tcuc/Runtime.h"

#include <string>

using namespace tcuc;

namespace {

thread_local std::string lastError;

int finish(const Status &s) {
  if (!s) {
    lastError = s.message();
    return -1;
  }
  lastError.clear();
  return 0;
}

/// The element types named by the C arguments.
Status parseTypes(const char *inName, const char *outName, DType &in,
                  DType &out) {
  std::optional<DType> i = parseDType(inName ? inName : "");
  std::optional<DType> o = parseDType(outName ? outName : "");
  if (!i)
    return Status::error(std::string("unknown input type \"") +
                         (inName ? inName : "") + "\"");
  if (!o)
    return Status::error(std::string("unknown output type \"") +
                         (outName ? outName : "") + "\"");
  in = *i;
  out = *o;
  return Status::success();
}

} // namespace

extern "C" int tcuc_reduce(const void *in, void *out, int64_t n,
                           int64_t segment, const char *in_type,
                           const char *out_type, void *stream,
                           const char *variant) {
  DType i, o;
  if (Status s = parseTypes(in_type, out_type, i, o); !s)
    return finish(s);
  return finish(Runtime::global().reduce(in, out, n, segment, i, o, stream,
                                         variant ? variant : ""));
}

/// The ScanMode of tcuc_*_ex flags; an error for unknown bits.
static Status parseScanFlags(int flags, ScanMode &mode) {
  if (flags & ~(TCUC_SCAN_EXCLUSIVE | TCUC_SCAN_REVERSE))
    return Status::error("scan flags must be TCUC_SCAN_EXCLUSIVE (1) and/or "
                         "TCUC_SCAN_REVERSE (2), got " +
                         std::to_string(flags));
  mode.inclusive = !(flags & TCUC_SCAN_EXCLUSIVE);
  mode.reverse = flags & TCUC_SCAN_REVERSE;
  return Status::success();
}

extern "C" int tcuc_scan(const void *in, void *out, int64_t n, int64_t segment,
                         const char *in_type, const char *out_type,
                         int inclusive, void *stream, const char *variant) {
  return tcuc_scan_ex(in, out, n, segment, in_type, out_type,
                      inclusive ? 0 : TCUC_SCAN_EXCLUSIVE, stream, variant);
}

/// tcuc_scan_ex, tcuc_scan_decayed and tcuc_scan_segment_decays: flags,
/// types, then the runtime.
static int scanByFlags(const void *in, void *out, int64_t n, int64_t segment,
                       const char *in_type, const char *out_type, int flags,
                       double decay, void *stream, const char *variant,
                       const float *decays = nullptr) {
  DType i, o;
  ScanMode mode;
  if (Status s = parseScanFlags(flags, mode); !s)
    return finish(s);
  if (Status s = parseTypes(in_type, out_type, i, o); !s)
    return finish(s);
  mode.decay = decay;
  mode.decays = decays;
  return finish(Runtime::global().scan(in, out, n, segment, i, o, mode, stream,
                                       variant ? variant : ""));
}

extern "C" int tcuc_scan_ex(const void *in, void *out, int64_t n,
                            int64_t segment, const char *in_type,
                            const char *out_type, int flags, void *stream,
                            const char *variant) {
  return scanByFlags(in, out, n, segment, in_type, out_type, flags, 1.0, stream,
                     variant);
}

extern "C" int tcuc_scan_decayed(const void *in, void *out, int64_t n,
                                 int64_t segment, const char *in_type,
                                 const char *out_type, int flags, double decay,
                                 void *stream) {
  return scanByFlags(in, out, n, segment, in_type, out_type, flags, decay,
                     stream, nullptr);
}

extern "C" int tcuc_scan_segment_decays(const void *in, void *out, int64_t n,
                                        int64_t segment, const char *in_type,
                                        const char *out_type, int flags,
                                        const float *decays, void *stream) {
  if (!decays)
    return finish(Status::error("decays pointer is null"));
  return scanByFlags(in, out, n, segment, in_type, out_type, flags, 1.0, stream,
                     nullptr, decays);
}

/// "i32" -> 32, "i64" -> 64.
static Status parseOffsetType(const char *name, int &bits) {
  std::string t = name ? name : "";
  if (t != "i32" && t != "i64")
    return Status::error("offset_type must be \"i32\" or \"i64\", got \"" + t +
                         "\"");
  bits = t == "i32" ? 32 : 64;
  return Status::success();
}

/// The type names of an offsets call.
static Status parseOffsetsCall(const char *offset_type, const char *in_type,
                               const char *out_type, int &bits, DType &i,
                               DType &o) {
  if (Status s = parseOffsetType(offset_type, bits); !s)
    return s;
  return parseTypes(in_type, out_type, i, o);
}

extern "C" int tcuc_reduce_offsets(const void *in, void *out,
                                   const void *offsets, int64_t num_segments,
                                   const char *offset_type, const char *in_type,
                                   const char *out_type, void *stream) {
  DType i, o;
  int bits = 0;
  if (Status s = parseOffsetsCall(offset_type, in_type, out_type, bits, i, o);
      !s)
    return finish(s);
  return finish(Runtime::global().reduceOffsets(in, out, offsets, num_segments,
                                                bits, i, o, stream));
}

extern "C" int tcuc_scan_offsets(const void *in, void *out, const void *offsets,
                                 int64_t num_segments, const char *offset_type,
                                 const char *in_type, const char *out_type,
                                 int inclusive, void *stream) {
  return tcuc_scan_offsets_ex(in, out, offsets, num_segments, offset_type,
                              in_type, out_type,
                              inclusive ? 0 : TCUC_SCAN_EXCLUSIVE, stream);
}

extern "C" int tcuc_scan_offsets_ex(const void *in, void *out,
                                    const void *offsets, int64_t num_segments,
                                    const char *offset_type,
                                    const char *in_type, const char *out_type,
                                    int flags, void *stream) {
  return tcuc_scan_offsets_decayed(in, out, offsets, num_segments, offset_type,
                                   in_type, out_type, flags, /*decay=*/1.0,
                                   stream);
}

/// tcuc_scan_offsets_decayed and tcuc_scan_offsets_segment_decays.
static int scanOffsetsByFlags(const void *in, void *out, const void *offsets,
                              int64_t num_segments, const char *offset_type,
                              const char *in_type, const char *out_type,
                              int flags, double decay, const float *decays,
                              void *stream) {
  DType i, o;
  int bits = 0;
  ScanMode mode;
  if (Status s = parseScanFlags(flags, mode); !s)
    return finish(s);
  if (Status s = parseOffsetsCall(offset_type, in_type, out_type, bits, i, o);
      !s)
    return finish(s);
  mode.decay = decay;
  mode.decays = decays;
  return finish(Runtime::global().scanOffsets(in, out, offsets, num_segments,
                                              bits, i, o, mode, stream));
}

extern "C" int
tcuc_scan_offsets_decayed(const void *in, void *out, const void *offsets,
                          int64_t num_segments, const char *offset_type,
                          const char *in_type, const char *out_type, int flags,
                          double decay, void *stream) {
  return scanOffsetsByFlags(in, out, offsets, num_segments, offset_type,
                            in_type, out_type, flags, decay, nullptr, stream);
}

extern "C" int
tcuc_scan_offsets_segment_decays(const void *in, void *out, const void *offsets,
                                 int64_t num_segments, const char *offset_type,
                                 const char *in_type, const char *out_type,
                                 int flags, const float *decays, void *stream) {
  if (!decays)
    return finish(Status::error("decays pointer is null"));
  return scanOffsetsByFlags(in, out, offsets, num_segments, offset_type,
                            in_type, out_type, flags, 1.0, decays, stream);
}

extern "C" int tcuc_validate_offsets(const void *offsets, int64_t num_segments,
                                     const char *offset_type, int64_t n) {
  int bits = 0;
  if (Status s = parseOffsetType(offset_type, bits); !s)
    return finish(s);
  if (num_segments < 0)
    return finish(Status::error("num_segments must be >= 0, got " +
                                std::to_string(num_segments)));
  size_t count = size_t(num_segments) + 1;
  std::string e =
      bits == 32
          ? offsetsError(static_cast<const int32_t *>(offsets), count, n)
          : offsetsError(static_cast<const int64_t *>(offsets), count, n);
  return finish(e.empty() ? Status::success() : Status::error(e));
}

extern "C" int tcuc_prepare(const char *op, int64_t segment,
                            const char *in_type, const char *out_type,
                            int inclusive, const char *variant, int64_t n,
                            uint64_t *scratch_bytes, int *num_kernels) {
  return tcuc_prepare_ex(op, segment, in_type, out_type,
                         inclusive ? 0 : TCUC_SCAN_EXCLUSIVE, variant, n,
                         scratch_bytes, num_kernels);
}

extern "C" int tcuc_prepare_ex(const char *op, int64_t segment,
                               const char *in_type, const char *out_type,
                               int flags, const char *variant, int64_t n,
                               uint64_t *scratch_bytes, int *num_kernels) {
  ScanMode mode;
  if (Status s = parseScanFlags(flags, mode); !s)
    return finish(s);
  std::string opName = op ? op : "";
  if (opName != "reduce" && opName != "scan")
    return finish(Status::error("op must be \"reduce\" or \"scan\", got \"" +
                                opName + "\""));
  if (opName == "reduce" && mode.reverse)
    return finish(Status::error("TCUC_SCAN_REVERSE applies to \"scan\" only"));
  if (std::string e = segmentSizeError(segment); !e.empty())
    return finish(Status::error(e));
  DType i, o;
  if (Status s = parseTypes(in_type, out_type, i, o); !s)
    return finish(s);
  KernelSpec spec = opName == "scan" ? KernelSpec::scan(segment, i, o, mode)
                                     : KernelSpec::reduce(segment, i, o);
  std::string error;
  if (!spec.setStrategy(variant ? variant : "", error))
    return finish(Status::error(error));
  // The kernel tcuc_reduce / tcuc_scan will run (getKernelFor).
  const Kernel *kernel = nullptr;
  if (Status s = Runtime::global().getKernelFor(spec, kernel); !s)
    return finish(s);
  if (scratch_bytes) {
    uint64_t bytes = 0;
    if (Status s = scratchBytes(kernel->file(), n, bytes, segment); !s)
      return finish(s);
    *scratch_bytes = bytes;
  }
  if (num_kernels)
    *num_kernels = int(kernel->file().kernels.size());
  return finish(Status::success());
}

extern "C" const char *tcuc_last_error(void) { return lastError.c_str(); }
