//===- CAPI.cpp - the C interface (tcuc.h) over Runtime::global() ---------===//

#include "tcuc/tcuc.h"

#include "tcuc/Runtime.h"

#include <string>

using namespace tcuc;

namespace {

thread_local std::string lastError;

int fail(const std::string &message) {
  lastError = message;
  return -1;
}

bool reject(const std::string &message) {
  lastError = message;
  return false;
}

int finish(const Status &s) {
  if (!s)
    return fail(s.message());
  lastError.clear();
  return 0;
}

/// Builds a spec from the C arguments; false (lastError set) on bad names.
bool makeSpec(const char *op, int64_t segment, const char *inType,
              const char *outType, int inclusive, const char *variant,
              KernelSpec &spec) {
  std::string opName = op ? op : "";
  if (opName != "reduce" && opName != "scan")
    return reject("op must be \"reduce\" or \"scan\", got \"" + opName + "\"");
  std::optional<DType> in = parseDType(inType ? inType : "");
  std::optional<DType> out = parseDType(outType ? outType : "");
  if (!in)
    return reject(std::string("unknown input type \"") +
                  (inType ? inType : "") + "\"");
  if (!out)
    return reject(std::string("unknown output type \"") +
                  (outType ? outType : "") + "\"");
  spec.isScan = opName == "scan";
  spec.segmentSize = segment;
  spec.input = *in;
  spec.output = *out;
  spec.inclusive = !spec.isScan || inclusive != 0;
  spec.variant = variant ? variant : "";
  return true;
}

} // namespace

extern "C" int tcuc_reduce(const void *in, void *out, int64_t n,
                           int64_t segment, const char *in_type,
                           const char *out_type, void *stream,
                           const char *variant) {
  KernelSpec spec;
  if (!makeSpec("reduce", segment, in_type, out_type, 1, variant, spec))
    return -1;
  return finish(Runtime::global().run(spec, in, out, n, stream));
}

extern "C" int tcuc_scan(const void *in, void *out, int64_t n, int64_t segment,
                         const char *in_type, const char *out_type,
                         int inclusive, void *stream, const char *variant) {
  KernelSpec spec;
  if (!makeSpec("scan", segment, in_type, out_type, inclusive, variant, spec))
    return -1;
  return finish(Runtime::global().run(spec, in, out, n, stream));
}

extern "C" int tcuc_prepare(const char *op, int64_t segment,
                            const char *in_type, const char *out_type,
                            int inclusive, const char *variant, int64_t n,
                            uint64_t *scratch_bytes, int *num_kernels) {
  KernelSpec spec;
  if (!makeSpec(op, segment, in_type, out_type, inclusive, variant, spec))
    return -1;
  if (segment < 1)
    return fail("segment size must be >= 1, got " + std::to_string(segment));
  const Kernel *kernel = nullptr;
  if (Status s = Runtime::global().getKernel(spec, kernel); !s)
    return finish(s);
  if (scratch_bytes) {
    uint64_t bytes = 0;
    if (Status s = scratchBytes(kernel->file(), n, bytes); !s)
      return finish(s);
    *scratch_bytes = bytes;
  }
  if (num_kernels)
    *num_kernels = int(kernel->file().kernels.size());
  return finish(Status::success());
}

extern "C" const char *tcuc_last_error(void) { return lastError.c_str(); }
