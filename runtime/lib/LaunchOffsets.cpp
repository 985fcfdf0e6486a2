//===- LaunchOffsets.cpp - launches of segments from offsets --------------===//
//
// The offsets API (reduceOffsets, scanOffsets, launchOffsets): one kernel of
// an (op, types, offset width, scan mode) for any CSR offsets. The kernels
// read n from the last offset on the device, so a launch needs no n and no
// host synchronisation unless the caller asks for validation.
//
//===----------------------------------------------------------------------===//

#include "RuntimeImpl.h"

#include <vector>

using namespace tcuc;

namespace {
/// The checks of an offsets launch that need no driver.
Status checkOffsetsArguments(const KernelSpec &spec, const void *in,
                             const void *out, const void *offsets,
                             int64_t numSegments) {
  if (spec.offsetBits != 32 && spec.offsetBits != 64)
    return Status::error("offset width must be 32 or 64 bits, got " +
                         std::to_string(spec.offsetBits));
  if (numSegments < 0 || numSegments >= kMaxElements)
    return Status::error("number of segments must be in 0..2^47, got " +
                         std::to_string(numSegments));
  if (!offsets)
    return Status::error("offsets pointer is null");
  if (reinterpret_cast<uintptr_t>(offsets) % (spec.offsetBits / 8) != 0)
    return Status::error("offsets pointer is not aligned to i" +
                         std::to_string(spec.offsetBits));
  return checkBufferPointers(spec, in, out);
}
} // namespace

Runtime::LaunchArgs Runtime::LaunchArgs::forOffsets(const KernelSpec &spec,
                                                    const void *in, void *out,
                                                    const void *offsets,
                                                    int64_t numSegments) {
  // n is the last offset, on the device: the buffers are described as long
  // as any may be, and the kernels clamp every offset to that.
  LaunchArgs args{in, out, kMaxElements,
                  spec.isScan ? kMaxElements : numSegments, 0};
  args.offsets = offsets;
  args.numOffsets = numSegments + 1;
  return args;
}

Status Runtime::launchOffsets(const Kernel &kernel, const void *in, void *out,
                              const void *offsets, int64_t numSegments,
                              void *stream, double decay, const float *decays) {
  const KernelSpec &spec = kernel.spec();
  if (!spec.offsetBits || kernel.file().offsetBits != spec.offsetBits)
    return Status::error("launchOffsets: kernel '" + spec.key() +
                         "' does not take offsets");
  LaunchArgs args = LaunchArgs::forOffsets(spec, in, out, offsets, numSegments);
  if (Status s = launchDecay(spec, decay, args.decay); !s)
    return s;
  if (Status s = checkDecaysPointer(spec, decays); !s)
    return s;
  args.decays = decays;
  args.numDecays = numSegments;
  if (Status s = checkOffsetsArguments(spec, in, out, offsets, numSegments); !s)
    return s;
  if (numSegments == 0)
    return Status::success();
  return enqueueLaunch(kernel, args, stream);
}

Status Runtime::runOffsets(const KernelSpec &given, const void *in, void *out,
                           const void *offsets, int64_t numSegments,
                           void *stream, bool validate, const float *decays) {
  if (Status s = checkOffsetsArguments(given, in, out, offsets, numSegments);
      !s)
    return s;
  KernelSpec spec = given;
  if (given.segmentDecays || decays)
    if (Status s = checkDecays(spec, decays, numSegments, stream); !s)
      return s;
  if (validate) {
    // n is the last offset: what is checked is the rest of the rules.
    size_t count = size_t(numSegments) + 1, width = spec.offsetBits / 8;
    std::vector<uint8_t> host(count * width);
    if (Status s = synchronize(stream); !s)
      return s;
    if (Status s = copyToHost(host.data(), offsets, host.size()); !s)
      return s.withContext("validating the offsets");
    auto error = [&](auto *off) {
      return offsetsError(off, count, off[count - 1]);
    };
    std::string e = spec.offsetBits == 32
                        ? error(reinterpret_cast<const int32_t *>(host.data()))
                        : error(reinterpret_cast<const int64_t *>(host.data()));
    if (!e.empty())
      return Status::error(e);
  }
  if (numSegments == 0)
    return Status::success();
  const Kernel *kernel = nullptr;
  if (Status s = getKernelFor(spec, kernel); !s)
    return s;
  // (Arguments checked above; getKernelFor checked the file against the
  // spec, offsets included.)
  LaunchArgs args = LaunchArgs::forOffsets(spec, in, out, offsets, numSegments);
  if (Status s = launchDecay(kernel->spec(), spec.decay, args.decay); !s)
    return s;
  args.decays = decays;
  args.numDecays = numSegments;
  return enqueueLaunch(*kernel, args, stream);
}

Status Runtime::reduceOffsets(const void *in, void *out, const void *offsets,
                              int64_t numSegments, int offsetBits, DType inType,
                              DType outType, void *stream, bool validate) {
  KernelSpec spec = KernelSpec::reduce(1, inType, outType);
  spec.offsetBits = offsetBits;
  return runOffsets(spec, in, out, offsets, numSegments, stream, validate);
}

Status Runtime::scanOffsets(const void *in, void *out, const void *offsets,
                            int64_t numSegments, int offsetBits, DType inType,
                            DType outType, bool inclusive, void *stream,
                            bool validate) {
  return scanOffsets(in, out, offsets, numSegments, offsetBits, inType, outType,
                     ScanMode{inclusive, false}, stream, validate);
}

Status Runtime::scanOffsets(const void *in, void *out, const void *offsets,
                            int64_t numSegments, int offsetBits, DType inType,
                            DType outType, ScanMode mode, void *stream,
                            bool validate) {
  KernelSpec spec = KernelSpec::scan(1, inType, outType, mode);
  spec.offsetBits = offsetBits;
  return runOffsets(spec, in, out, offsets, numSegments, stream, validate,
                    mode.decays);
}

Status tcuc::reduceOffsets(const void *in, void *out, const void *offsets,
                           int64_t numSegments, int offsetBits, DType inType,
                           DType outType, void *stream, bool validate) {
  return Runtime::global().reduceOffsets(in, out, offsets, numSegments,
                                         offsetBits, inType, outType, stream,
                                         validate);
}

Status tcuc::scanOffsets(const void *in, void *out, const void *offsets,
                         int64_t numSegments, int offsetBits, DType inType,
                         DType outType, bool inclusive, void *stream,
                         bool validate) {
  return Runtime::global().scanOffsets(in, out, offsets, numSegments,
                                       offsetBits, inType, outType, inclusive,
                                       stream, validate);
}

Status tcuc::scanOffsets(const void *in, void *out, const void *offsets,
                         int64_t numSegments, int offsetBits, DType inType,
                         DType outType, ScanMode mode, void *stream,
                         bool validate) {
  return Runtime::global().scanOffsets(in, out, offsets, numSegments,
                                       offsetBits, inType, outType, mode,
                                       stream, validate);
}
