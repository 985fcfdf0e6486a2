//===- Launch.cpp - argument checks, scratch memory, kernel launches ------===//

#include "RuntimeImpl.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

using namespace tcuc;
using namespace tcuc::cuda;

namespace {

/// TCUC_SERIAL_LAUNCH=1: every kernel of a plan waits for the one before
/// to end (no programmatic dependent launch), read once.
bool serialLaunchRequested() {
  static const bool serial = [] {
    const char *v = std::getenv("TCUC_SERIAL_LAUNCH");
    return v && std::string_view(v) == "1";
  }();
  return serial;
}

/// The checks every launch makes before touching the driver, for a call of
/// segment size `segment` (a class kernel's: one its variant takes).
Status checkArguments(const KernelSpec &spec, int64_t segment, const void *in,
                      const void *out, int64_t n) {
  if (std::string e = segmentSizeError(segment); !e.empty())
    return Status::error(e);
  if (spec.runtimeSegment)
    if (std::string e = runtimeSegmentError(spec.variant, spec.isScan, segment);
        !e.empty())
      return Status::error(e);
  if (std::string e = elementCountError(n); !e.empty())
    return Status::error(e);
  if (n == 0)
    return Status::success();
  return checkBufferPointers(spec, in, out);
}

/// A rank-1 memref descriptor, passed as five kernel parameters
/// (docs/kernel-file.md).
struct MemRef {
  uint64_t allocated;
  uint64_t aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};

/// Scratch buffers start at this alignment inside the per-stream allocation.
constexpr uint64_t kScratchAlign = 256;

/// Per-thread default stream handle (CU_STREAM_PER_THREAD): a different
/// stream on each thread, so it gets a scratch buffer per thread.
void *const kPerThreadStream = reinterpret_cast<void *>(uintptr_t(2));

} // namespace

Status tcuc::checkBufferPointers(const KernelSpec &spec, const void *in,
                                 const void *out) {
  if (!in)
    return Status::error("input pointer is null");
  if (!out)
    return Status::error("output pointer is null");
  auto misaligned = [](const void *p, DType t) {
    return reinterpret_cast<uintptr_t>(p) % dtypeBytes(t) != 0;
  };
  if (misaligned(in, spec.input))
    return Status::error(std::string("input pointer is not aligned to its "
                                     "element type ") +
                         dtypeName(spec.input));
  if (misaligned(out, spec.output))
    return Status::error(std::string("output pointer is not aligned to its "
                                     "element type ") +
                         dtypeName(spec.output));
  return Status::success();
}

/// The scratch map's key for `stream`.
static void *scratchKey(void *stream) {
  static thread_local char perThreadKey;
  return stream == kPerThreadStream ? &perThreadKey : stream;
}

StreamScratch &Runtime::Impl::scratchFor(void *stream) {
  std::lock_guard<std::mutex> lock(scratchMu);
  std::unique_ptr<StreamScratch> &s = scratch[scratchKey(stream)];
  if (!s)
    s = std::make_unique<StreamScratch>();
  return *s;
}

StreamScratch *Runtime::Impl::findScratch(void *stream) {
  std::lock_guard<std::mutex> lock(scratchMu);
  auto it = scratch.find(scratchKey(stream));
  return it == scratch.end() ? nullptr : it->second.get();
}

/// Element counts and byte offsets of `file`'s scratch buffers inside one
/// allocation of `total` bytes for input length `n`. A count <= 0 means the
/// buffer is not needed for this n (it gets 0 elements).
static Status layoutScratch(const KernelFile &file, int64_t n, int64_t segment,
                            int64_t *counts, uint64_t *offsets, uint64_t &total,
                            int64_t numOffsets = 0) {
  total = 0;
  for (size_t i = 0; i < file.scratch.size(); ++i) {
    const ScratchBuffer &buf = file.scratch[i];
    int64_t count = 0;
    if (Status s = buf.count.evaluate(n, count, segment, numOffsets); !s)
      return s.withContext("scratch buffer " + std::to_string(i));
    count = std::max<int64_t>(count, 0);
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(uint64_t(count), scratchElementBytes(buf.type),
                               &bytes) ||
        bytes > (uint64_t(1) << 48))
      return Status::error("scratch buffer " + std::to_string(i) + " of " +
                           std::to_string(count) + " elements is too large");
    counts[i] = count;
    offsets[i] = total;
    total += (bytes + kScratchAlign - 1) / kScratchAlign * kScratchAlign;
  }
  return Status::success();
}

Status tcuc::scratchBytes(const KernelFile &file, int64_t n, uint64_t &bytes,
                          int64_t segment) {
  std::vector<int64_t> counts(file.scratch.size());
  std::vector<uint64_t> offsets(file.scratch.size());
  return layoutScratch(file, std::max<int64_t>(n, 0), segment, counts.data(),
                       offsets.data(), bytes);
}

int64_t tcuc::launchGrid(const KernelFile &file, size_t k,
                         int64_t residentBlocks, int64_t n, int64_t segment,
                         int64_t offsets) {
  // Any grid is correct: the kernels grid-stride over their work items, one
  // warp each. With the item count known, launch a warp per item, up to
  // kMaxWaves waves of what is resident: blocks that finish make room for
  // new ones, which keeps more loads in flight than resident warps looping
  // (docs/rationale.md#work-item-grids). Without it, the resident blocks
  // (a persistent grid), at most a warp per 32 elements.
  constexpr int64_t kMaxWaves = 64;
  int64_t warps = std::max(file.blockSize / 32, 1);
  int64_t resident = std::max<int64_t>(residentBlocks, 1);
  int64_t grid = std::min<int64_t>(resident, n / 32 + (n % 32 != 0));
  int64_t items = 0;
  if (k < file.items.size() &&
      file.items[k].evaluate(n, items, segment, offsets) && items >= 0)
    grid = std::min(items / warps + (items % warps != 0), resident * kMaxWaves);
  return std::clamp<int64_t>(grid, 1, INT_MAX);
}

Status Runtime::launch(const Kernel &kernel, const void *in, void *out,
                       int64_t n, void *stream) {
  if (kernel.spec().runtimeSegment)
    return Status::error("launch: kernel '" + kernel.spec().key() +
                         "' takes the segment size at launch "
                         "(launchWithSegment)");
  if (kernel.spec().runtimeDecay)
    return Status::error("launch: kernel '" + kernel.spec().key() +
                         "' takes the decay at launch (launchWithSegment)");
  return launchWithSegment(kernel, in, out, n, kernel.spec().segmentSize,
                           stream);
}

Status tcuc::launchDecay(const KernelSpec &spec, double decay, float &value) {
  value = 1.0f;
  bool given = !std::isnan(decay);
  if (spec.runtimeDecay) {
    if (!given)
      return Status::error("launch: kernel '" + spec.key() +
                           "' takes the decay at launch: pass it");
    if (std::string e = decayError(decay, spec.input); !e.empty())
      return Status::error(e);
    value = static_cast<float>(decay);
    return Status::success();
  }
  if (given && decay != (spec.isScan ? spec.decay : 1.0))
    return Status::error("launch: kernel '" + spec.key() +
                         "' has its decay compiled in; it cannot run another");
  return Status::success();
}

Status tcuc::checkDecaysPointer(const KernelSpec &spec, const float *decays) {
  if (spec.segmentDecays && !decays)
    return Status::error("launch: kernel '" + spec.key() +
                         "' takes per-segment decays: pass them");
  if (!spec.segmentDecays && decays)
    return Status::error("launch: kernel '" + spec.key() +
                         "' takes no per-segment decays");
  if (decays && reinterpret_cast<uintptr_t>(decays) % alignof(float) != 0)
    return Status::error("decays pointer is not aligned to float");
  return Status::success();
}

Status Runtime::launchWithSegment(const Kernel &kernel, const void *in,
                                  void *out, int64_t n, int64_t segment,
                                  void *stream, double decay,
                                  const float *decays) {
  const KernelSpec &spec = kernel.spec();
  float decayValue;
  if (Status s = launchDecay(spec, decay, decayValue); !s)
    return s;
  if (Status s = checkDecaysPointer(spec, decays); !s)
    return s;
  // An offsets kernel's third parameter is its offsets buffer.
  if (spec.offsetBits)
    return Status::error("launch: kernel '" + spec.key() +
                         "' takes offsets (launchOffsets)");
  if (!spec.runtimeSegment && segment != spec.segmentSize)
    return Status::error(
        "launch: kernel '" + spec.key() + "' is compiled for segment size " +
        std::to_string(spec.segmentSize) + ", got " + std::to_string(segment));
  // (The file's tcuc.segment agrees with the spec: checkKernelFile.)
  if (Status s = checkArguments(spec, segment, in, out, n); !s)
    return s;
  if (n == 0)
    return Status::success();
  LaunchArgs args{in, out, n, spec.outputLength(n, segment), segment};
  args.decay = decayValue;
  args.decays = decays;
  args.numDecays = n / segment + (n % segment != 0); // one per segment
  return enqueueLaunch(kernel, args, stream);
}

Status Runtime::enqueueLaunch(const Kernel &kernel, const LaunchArgs &args,
                              void *stream) {
  const KernelFile &file = kernel.file();
  const void *in = args.in;
  void *out = args.out;
  int64_t n = args.n, segment = args.segment;
  if (!kernel.driver || kernel.functions.size() != file.kernels.size())
    return Status::error("launch: the kernel was not loaded by a runtime");

  // Buffers: in, out, the offsets (an offsets kernel), then the scratch
  // buffers at offsets in one allocation. A class kernel takes the segment
  // size between out and the scratch.
  // The first scratch buffer.
  size_t first = 2 + (args.offsets ? 1 : 0) + (file.segmentDecays ? 1 : 0);
  size_t numBuffers = first + file.scratch.size();
  int64_t segmentParam = segment;
  float decayParam = args.decay;
  MemRef localDescs[8];
  void *localParams[8 * 5 + 2];
  std::vector<MemRef> heapDescs;
  std::vector<void *> heapParams;
  MemRef *descs = localDescs;
  void **params = localParams;
  if (numBuffers > 8) {
    heapDescs.resize(numBuffers);
    heapParams.resize(numBuffers * 5 + 2);
    descs = heapDescs.data();
    params = heapParams.data();
  }
  auto ptr = [](const void *p) {
    return uint64_t(reinterpret_cast<uintptr_t>(p));
  };
  descs[0] = {ptr(in), ptr(in), 0, n, 1};
  descs[1] = {ptr(out), ptr(out), 0, args.outLength, 1};
  if (args.offsets)
    descs[2] = {ptr(args.offsets), ptr(args.offsets), 0, args.numOffsets, 1};
  if (file.segmentDecays)
    descs[first - 1] = {ptr(args.decays), ptr(args.decays), 0, args.numDecays,
                        1};
  int64_t counts[8];
  uint64_t offsets[8];
  std::vector<int64_t> heapCounts;
  std::vector<uint64_t> heapOffsets;
  int64_t *count = counts;
  uint64_t *offset = offsets;
  if (file.scratch.size() > 8) {
    heapCounts.resize(file.scratch.size());
    heapOffsets.resize(file.scratch.size());
    count = heapCounts.data();
    offset = heapOffsets.data();
  }
  uint64_t scratchBytes = 0;
  if (Status s = layoutScratch(file, n, segment, count, offset, scratchBytes,
                               args.numOffsets);
      !s)
    return s;
  for (size_t i = 0; i < file.scratch.size(); ++i) {
    // The offset is patched to a pointer once the allocation is known.
    descs[first + i] = {offset[i], offset[i], 0, count[i], 1};
    if (count[i] == 0)
      descs[first + i].allocated = descs[first + i].aligned = UINT64_MAX;
  }
  for (size_t b = 0, p = 0; b < numBuffers; ++b) {
    params[p++] = &descs[b].allocated;
    params[p++] = &descs[b].aligned;
    params[p++] = &descs[b].offset;
    params[p++] = &descs[b].size;
    params[p++] = &descs[b].stride;
    if (b == 1 && file.runtimeSegment)
      params[p++] = &segmentParam;
    // The decay follows the function's buffers (before the scratch).
    if (b + 1 == first && file.runtimeDecay)
      params[p++] = &decayParam;
  }
  const Driver &d = *kernel.driver;
  ScopedContext ctx(d);
  if (!ctx.status())
    return ctx.status();
  CUstream cuStream = static_cast<CUstream>(stream);

  // Kernels after the first start as programmatic dependents of the one
  // before when the file allows it (each waits for its predecessor itself:
  // docs/kernel-file.md), which removes the gap between launches.
  // TCUC_SERIAL_LAUNCH=1 turns it off.
  bool dependent =
      file.dependentLaunch && d.cuLaunchKernelEx && !serialLaunchRequested();
  auto enqueue = [&]() -> Status {
    for (size_t k = 0; k < kernel.functions.size(); ++k) {
      int64_t grid = launchGrid(file, k, kernel.residentBlocks[k], n, segment,
                                args.numOffsets);
      auto f = static_cast<CUfunction>(kernel.functions[k]);
      CUresult r;
      bool ex = dependent && k > 0;
      if (ex) {
        CUlaunchAttribute attr{};
        attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        attr.value.programmaticStreamSerializationAllowed = 1;
        CUlaunchConfig config{
            unsigned(grid), 1,     1, unsigned(file.blockSize), 1, 1, 0,
            cuStream,       &attr, 1};
        r = d.cuLaunchKernelEx(&config, f, params, nullptr);
      } else {
        r = d.cuLaunchKernel(f, unsigned(grid), 1, 1, unsigned(file.blockSize),
                             1, 1, 0, cuStream, params, nullptr);
      }
      if (r != CUDA_SUCCESS)
        return d.check(r, ((ex ? "cuLaunchKernelEx(" : "cuLaunchKernel(") +
                           file.kernels[k] + ")")
                              .c_str());
    }
    return Status::success();
  };

  if (scratchBytes == 0) {
    for (size_t i = 0; i < file.scratch.size(); ++i)
      descs[first + i].allocated = descs[first + i].aligned = 0;
    return enqueue();
  }

  StreamScratch &sc = impl->scratchFor(stream);
  std::lock_guard<std::mutex> lock(sc.mu);
  if (sc.bytes < scratchBytes) {
    // The old buffer may still be in use by work queued on this stream.
    if (sc.ptr) {
      if (Status s = d.check(d.cuStreamSynchronize(cuStream),
                             "cuStreamSynchronize (growing scratch)");
          !s)
        return s;
      (void)d.cuMemFree(sc.ptr);
      sc.ptr = 0;
      sc.bytes = 0;
    }
    // Grow geometrically so a slowly rising n reallocates rarely.
    size_t want = std::max<uint64_t>(scratchBytes, 2 * uint64_t(sc.bytes));
    CUdeviceptr p = 0;
    if (Status s = d.check(d.cuMemAlloc(&p, want), "cuMemAlloc (scratch)"); !s)
      return s;
    sc.ptr = p;
    sc.bytes = want;
  }
  for (size_t i = 0; i < file.scratch.size(); ++i) {
    MemRef &m = descs[first + i];
    uint64_t p = m.allocated == UINT64_MAX ? 0 : sc.ptr + m.allocated;
    m.allocated = m.aligned = p;
  }
  return enqueue();
}

Status Runtime::getKernelFor(const KernelSpec &spec, const Kernel *&kernel) {
  if (spec.isScan)
    if (std::string e = decayError(spec.decay, spec.input); !e.empty())
      return Status::error(e);
  KernelSpec chosen = resolveSegmentClass(spec, impl->options.segmentKernels);
  // Only runtimes without a compiler ever record a fallback: the others
  // skip the lock and the key on every call.
  if (!chosen.runtimeSegment && impl->anyFallback.load()) {
    std::lock_guard<std::mutex> lock(impl->fallbackMu);
    auto it = impl->fallbacks.find(chosen.key());
    if (it != impl->fallbacks.end()) {
      kernel = it->second;
      return Status::success();
    }
  }
  Status s = getKernel(chosen, kernel);
  if (s || chosen.runtimeSegment || impl->options.compiler || defaultCompiler())
    return s;
  // No compiler can make the per-size kernel: its class kernel, where the
  // library (or a cache) has it, computes the same call.
  KernelSpec c = segmentClassOf(spec);
  const Kernel *classKernel = nullptr;
  if (!c.runtimeSegment || !getKernel(c, classKernel))
    return s;
  {
    std::lock_guard<std::mutex> lock(impl->fallbackMu);
    impl->fallbacks.emplace(chosen.key(), classKernel);
    impl->anyFallback = true;
  }
  {
    std::lock_guard<std::mutex> lock(impl->mu);
    ++impl->stats.classFallbacks;
  }
  kernel = classKernel;
  return Status::success();
}

Status Runtime::checkDecays(KernelSpec &spec, const float *&decays,
                            int64_t count, void *stream) {
  if (Status s = checkDecaysPointer(spec, decays); !s)
    return s;
  if (spec.decay != 1.0)
    return Status::error("a scan takes one decay or per-segment decays, "
                         "not both");
  if (!spec.isScan || !isFloat(spec.input))
    return Status::error(std::string("per-segment decays apply to scans of "
                                     "f16, bf16 or f32 input, got ") +
                         (spec.isScan ? dtypeName(spec.input) : "a reduction"));
  std::vector<float> host(size_t(std::max<int64_t>(count, 0)));
  if (host.empty())
    return Status::success();
  if (Status s = synchronize(stream); !s)
    return s;
  if (Status s = copyToHost(host.data(), decays, host.size() * sizeof(float));
      !s)
    return s.withContext("checking the decays");
  for (size_t j = 0; j < host.size(); ++j)
    if (std::string e = decayError(host[j], spec.input); !e.empty())
      return Status::error("decays[" + std::to_string(j) + "]: " + e);
  // One decay for every segment: the one-decay kernels, which also split
  // long segments over warps (docs/rationale.md#uniform-segment-decays).
  if (std::all_of(host.begin(), host.end(),
                  [&](float a) { return a == host[0]; })) {
    spec.segmentDecays = false;
    spec.decay = host[0];
    decays = nullptr;
  }
  return Status::success();
}

Status Runtime::run(const KernelSpec &given, const void *in, void *out,
                    int64_t n, void *stream, const float *decays) {
  if (given.offsetBits)
    return Status::error("spec '" + given.key() +
                         "' takes offsets: reduceOffsets / scanOffsets");
  if (Status s = checkArguments(given, given.segmentSize, in, out, n); !s)
    return s;
  if (n == 0)
    return Status::success();
  KernelSpec spec = given;
  if (spec.segmentDecays || decays)
    if (Status s = checkDecays(
            spec, decays, n / spec.segmentSize + (n % spec.segmentSize != 0),
            stream);
        !s)
      return s;
  const Kernel *kernel = nullptr;
  if (Status s = getKernelFor(spec, kernel); !s)
    return s;
  return launchWithSegment(*kernel, in, out, n, spec.segmentSize, stream,
                           spec.decay, decays);
}

Status Runtime::reduce(const void *in, void *out, int64_t n, int64_t segment,
                       DType inType, DType outType, void *stream,
                       const std::string &variant) {
  KernelSpec spec = KernelSpec::reduce(segment, inType, outType);
  std::string error;
  if (!spec.setStrategy(variant, error))
    return Status::error(error);
  return run(spec, in, out, n, stream);
}

Status Runtime::scan(const void *in, void *out, int64_t n, int64_t segment,
                     DType inType, DType outType, bool inclusive, void *stream,
                     const std::string &variant) {
  return scan(in, out, n, segment, inType, outType, ScanMode{inclusive, false},
              stream, variant);
}

Status Runtime::scan(const void *in, void *out, int64_t n, int64_t segment,
                     DType inType, DType outType, ScanMode mode, void *stream,
                     const std::string &variant) {
  KernelSpec spec = KernelSpec::scan(segment, inType, outType, mode);
  std::string error;
  if (!spec.setStrategy(variant, error))
    return Status::error(error);
  return run(spec, in, out, n, stream, mode.decays);
}

Status Runtime::releaseScratch(void *stream) {
  StreamScratch *sc = impl->findScratch(stream);
  if (!sc)
    return Status::success();
  // The entry stays in the map (a launch may hold it); only the memory goes.
  std::lock_guard<std::mutex> lock(sc->mu);
  if (!sc->ptr)
    return Status::success();
  const Driver *d = nullptr;
  if (Status s = impl->driver(d); !s)
    return s;
  ScopedContext ctx(*d);
  if (!ctx.status())
    return ctx.status();
  Status s = d->check(d->cuStreamSynchronize(static_cast<CUstream>(stream)),
                      "cuStreamSynchronize");
  if (s)
    s = d->check(d->cuMemFree(sc->ptr), "cuMemFree (scratch)");
  sc->ptr = 0;
  sc->bytes = 0;
  return s;
}
