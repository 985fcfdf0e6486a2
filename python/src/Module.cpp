//===- Module.cpp - the tcuc._tcuc extension ------------------------------===//
//
// The narrow native layer of the Python package: runs one segmented reduce
// or scan on raw pointers, on the GPU through the runtime (device 0, the
// caller's stream) or on the CPU through the CPU backend. Array libraries,
// shapes, dtypes and autograd are the Python layer's (tcuc/_core.py); this
// layer checks what it is given again, so a bad call is an exception, never
// a crash.
//
//===----------------------------------------------------------------------===//

#include "tcuc/DiskCache.h"
#include "tcuc/Runtime.h"
#include "tcuc/Spec.h"

#ifdef TCUC_PYTHON_HAS_COMPILER
#include "tcuc/CPU/CPUExecutor.h"
#endif

#include <pybind11/pybind11.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace py = pybind11;
using namespace tcuc;

namespace {

DType dtypeOf(const std::string &name) {
  if (auto t = parseDType(name))
    return *t;
  throw py::value_error("tcuc: unknown element type '" + name + "'");
}

/// The spec of one call; `segment` is ignored with offsets.
KernelSpec specOf(bool isScan, int64_t segment, int offsetBits,
                  const std::string &inType, const std::string &outType,
                  bool inclusive, bool reverse, double decay) {
  DType in = dtypeOf(inType), out = dtypeOf(outType);
  KernelSpec spec = isScan ? KernelSpec::scan(segment, in, out, inclusive)
                           : KernelSpec::reduce(segment, in, out);
  if (offsetBits != 0 && offsetBits != 32 && offsetBits != 64)
    throw py::value_error("tcuc: offsets are int32 or int64");
  spec.offsetBits = offsetBits;
  if (reverse) {
    if (!isScan)
      throw py::value_error("tcuc: reverse applies to scans only");
    spec.reverse = true;
  }
  if (decay != 1.0) {
    if (!isScan)
      throw py::value_error("tcuc: decay applies to scans only");
    if (std::string e = decayError(decay, in); !e.empty())
      throw py::value_error("tcuc: " + e);
    spec.decay = decay;
  }
  return spec;
}

void check(const Status &s) {
  if (!s)
    throw std::runtime_error("tcuc: " + s.message());
}

/// GPU: the process-wide runtime (device 0), enqueued on `stream` without a
/// host synchronisation (per-segment decays are checked by the Python layer
/// first, decays_error, unless the caller skips validation).
void runGPU(const KernelSpec &spec, uintptr_t in, uintptr_t out, int64_t n,
            uintptr_t offsets, int64_t numSegments, uintptr_t stream,
            const float *decays) {
  Runtime &rt = Runtime::global();
  void *s = reinterpret_cast<void *>(stream);
  const Kernel *kernel = nullptr;
  if (spec.offsetBits) {
    if (numSegments == 0)
      return;
    if (!offsets)
      throw py::value_error("tcuc: offsets pointer is null");
    check(rt.getKernelFor(spec, kernel));
    check(rt.launchOffsets(*kernel, reinterpret_cast<const void *>(in),
                           reinterpret_cast<void *>(out),
                           reinterpret_cast<const void *>(offsets), numSegments,
                           s, spec.decay, decays));
    return;
  }
  if (!decays) {
    check(rt.run(spec, reinterpret_cast<const void *>(in),
                 reinterpret_cast<void *>(out), n, s));
    return;
  }
  if (n == 0)
    return;
  check(rt.getKernelFor(spec, kernel));
  check(rt.launchWithSegment(*kernel, reinterpret_cast<const void *>(in),
                             reinterpret_cast<void *>(out), n, spec.segmentSize,
                             s, spec.decay, decays));
}

#ifdef TCUC_PYTHON_HAS_COMPILER
/// With TCUC_PRECOMPILE_DIR set, every CPU call also compiles the GPU
/// kernels the same call would load on a GPU of TCUC_PRECOMPILE_TARGET
/// (default sm_90; "sm_90:h200" for an H200) into that kernel cache: how a
/// GPU machine without the compiler is given the kernels a workload needs
/// (scripts/python-gpu-tests.sh, docs/python.md).
void precompileForGPU(const KernelSpec &spec) {
  // Read once: this runs on every CPU call.
  static const char *dir = std::getenv("TCUC_PRECOMPILE_DIR");
  if (!dir || !*dir)
    return;
  const char *env = std::getenv("TCUC_PRECOMPILE_TARGET");
  std::string target = env && *env ? env : "sm_90", arch, gpu;
  if (!splitTarget(target, arch, gpu))
    throw py::value_error("tcuc: TCUC_PRECOMPILE_TARGET '" + target +
                          "' is not sm_XY[:model]");
  static Runtime &rt = *new Runtime([&] {
    RuntimeOptions o;
    o.cacheDir = dir;
    return o;
  }());
  // The spec itself and the class kernel the runtime may run it with.
  for (const KernelSpec &s : {spec, resolveSegmentClass(spec)}) {
    std::string file;
    check(rt.getKernelFile(s, kernelTarget(s, arch, gpu), file));
  }
}

/// CPU: kernels compiled once per process (and kept on disk,
/// CPUKernel::cached), then run on host buffers.
void runCPU(const KernelSpec &spec, uintptr_t in, uintptr_t out, int64_t n,
            int64_t outLength, uintptr_t offsets, int64_t numSegments,
            const float *decays) {
  // Never destroyed: at exit LLVM's own state may be gone before them.
  static std::mutex &mutex = *new std::mutex;
  static auto &kernels = *new std::map<std::string, std::unique_ptr<CPUKernel>>;
  KernelSpec resolved = resolveSegmentClass(spec);
  if (std::string e = segmentSizeError(spec.segmentSize);
      !e.empty() && !spec.offsetBits)
    throw py::value_error("tcuc: " + e);
  CPUKernel *kernel = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto &slot = kernels[resolved.key()];
    if (!slot) {
      std::string origin, error;
      slot = CPUKernel::cached(resolved, origin, error);
      if (!slot) {
        kernels.erase(resolved.key());
        throw std::runtime_error("tcuc: compiling the CPU kernel for '" +
                                 resolved.key() + "' failed:\n" + error);
      }
    }
    kernel = slot.get();
  }
  precompileForGPU(spec);
  std::string error;
  bool ok = spec.offsetBits
                ? kernel->runOffsets(reinterpret_cast<const void *>(in), n,
                                     reinterpret_cast<void *>(out), outLength,
                                     reinterpret_cast<const void *>(offsets),
                                     numSegments + 1, error, spec.decay, decays)
                : kernel->run(reinterpret_cast<const void *>(in), n,
                              reinterpret_cast<void *>(out), outLength,
                              spec.segmentSize, error, spec.decay, decays);
  if (!ok)
    throw std::runtime_error("tcuc: " + error);
}
#endif

} // namespace

PYBIND11_MODULE(_tcuc, m) {
  m.doc() = "tcuc's native layer (use the functions of the tcuc package)";
  m.attr("version") = tcuc::version();
  m.attr("build_id") = tcuc::buildId();
#ifdef TCUC_PYTHON_HAS_COMPILER
  m.attr("has_compiler") = true;
#else
  m.attr("has_compiler") = false;
#endif
  // The kernel library of the build tree this module was built in (the
  // package's own, tcuc/kernels, comes first: tcuc/__init__.py).
  m.attr("build_kernel_library") = TCUC_PYTHON_BUILD_KERNEL_LIBRARY;

  m.def(
      "run",
      [](const std::string &device, bool isScan, uintptr_t in, uintptr_t out,
         int64_t n, int64_t outLength, int64_t segment, uintptr_t offsets,
         int64_t numSegments, int offsetBits, const std::string &inType,
         const std::string &outType, bool inclusive, bool reverse,
         uintptr_t stream, double decay, uintptr_t decaysPtr,
         int64_t decaysCount) {
        KernelSpec spec = specOf(isScan, offsetBits ? 16 : segment, offsetBits,
                                 inType, outType, inclusive, reverse, decay);
        if (n < 0 || outLength < 0 || numSegments < 0)
          throw py::value_error("tcuc: negative size");
        if (!offsetBits && spec.outputLength(n, segment) != outLength)
          throw py::value_error("tcuc: output has " +
                                std::to_string(outLength) +
                                " elements, the call writes " +
                                std::to_string(spec.outputLength(n, segment)));
        const float *decays = reinterpret_cast<const float *>(decaysPtr);
        if (decays) {
          if (!isScan || decay != 1.0)
            throw py::value_error("tcuc: per-segment decays apply to scans "
                                  "without a decay of their own");
          if (!isFloat(spec.input))
            throw py::value_error("tcuc: decayed scans take float input");
          if (!offsetBits && segment < 1)
            throw py::value_error("tcuc: segment size must be >= 1");
          int64_t segments =
              offsetBits ? numSegments : n / segment + (n % segment != 0);
          if (decaysCount != segments)
            throw py::value_error("tcuc: " + std::to_string(decaysCount) +
                                  " decays for " + std::to_string(segments) +
                                  " segments");
          spec.segmentDecays = true;
        }
        py::gil_scoped_release release;
        if (device == "cuda")
          return runGPU(spec, in, out, n, offsets, numSegments, stream, decays);
#ifdef TCUC_PYTHON_HAS_COMPILER
        if (device == "cpu") {
          if (n == 0 && (!offsetBits || numSegments == 0))
            return;
          return runCPU(spec, in, out, n, outLength, offsets, numSegments,
                        decays);
        }
#else
        if (device == "cpu")
          throw std::runtime_error(
              "tcuc: this tcuc was built without the compiler (runtime "
              "only), so it has no CPU backend: use CUDA arrays, or build "
              "the package with the compiler");
#endif
        throw py::value_error("tcuc: unknown device '" + device + "'");
      },
      py::arg("device"), py::arg("is_scan"), py::arg("input"),
      py::arg("output"), py::arg("n"), py::arg("output_length"),
      py::arg("segment"), py::arg("offsets"), py::arg("num_segments"),
      py::arg("offset_bits"), py::arg("in_type"), py::arg("out_type"),
      py::arg("inclusive"), py::arg("reverse"), py::arg("stream"),
      py::arg("decay") = 1.0, py::arg("decays") = 0,
      py::arg("decays_count") = 0,
      "Runs one call on raw pointers (internal); `decays`: one float per "
      "segment on the call's device, or 0.");

  m.def(
      "decays_error",
      [](uintptr_t decays, int64_t count) {
        const float *d = reinterpret_cast<const float *>(decays);
        for (int64_t j = 0; j < count; ++j)
          if (std::string e = decayError(d[j], DType::F32); !e.empty())
            return "decay[" + std::to_string(j) + "]: " + e;
        return std::string();
      },
      "Why host per-segment decays (float32) cannot run, or ''.");

  m.def(
      "offsets_error",
      [](uintptr_t offsets, int64_t count, int bits, int64_t n) {
        if (count < 1)
          return std::string("offsets need at least one entry (k+1 for k "
                             "segments)");
        return bits == 32
                   ? offsetsError(reinterpret_cast<const int32_t *>(offsets),
                                  size_t(count), n)
                   : offsetsError(reinterpret_cast<const int64_t *>(offsets),
                                  size_t(count), n);
      },
      "Why host offsets are not CSR offsets of n elements, or ''.");

  m.def(
      "device_arch",
      [] {
        std::string arch;
        check(Runtime::global().deviceArch(arch));
        return arch;
      },
      "The kernel architecture device 0 runs ('sm_80', 'sm_90').");

  m.def(
      "stats",
      [] {
        RuntimeStats s = Runtime::global().stats();
        py::dict d;
        d["compiles"] = s.compiles;
        d["disk_hits"] = s.diskHits;
        d["library_hits"] = s.libraryHits;
        d["module_loads"] = s.moduleLoads;
        d["binary_loads"] = s.binaryLoads;
        d["class_fallbacks"] = s.classFallbacks;
        return d;
      },
      "The GPU runtime's counters (compiles, cache and library hits).");
}
