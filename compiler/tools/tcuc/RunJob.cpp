//===- RunJob.cpp - what `tcuc run` does around one kernel launch ---------===//

#include "RunJob.h"

#include "tcuc/Reference/Reference.h"
#include "tcuc/Runtime.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace tcuc;
using namespace tcuc::driver;

namespace {
std::string format(const char *spec, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, spec, v);
  return buf;
}

/// Device buffers released on every path.
struct DeviceBuffer {
  void *ptr = nullptr;
  ~DeviceBuffer() {
    if (ptr)
      (void)deviceFree(ptr);
  }
};
} // namespace

bool tcuc::driver::makeSpec(const std::string &op, int64_t segment,
                            const std::string &dtype,
                            const std::string &outDtype, bool exclusive,
                            bool reverse, const std::string &variant,
                            int64_t tilesPerWarp, int64_t warpsPerBlock,
                            KernelSpec &spec, std::string &error) {
  if (op != "reduce" && op != "scan") {
    error = "unknown --op '" + op + "' (expected reduce or scan)";
    return false;
  }
  spec.isScan = op == "scan";
  if (std::string e = segmentSizeError(segment); !e.empty()) {
    error = "--segment: " + e;
    return false;
  }
  spec.segmentSize = segment;
  auto in = parseDType(dtype);
  if (!in || *in == DType::I32) {
    error = "unknown --dtype '" + dtype + "' (expected f16, bf16, f32 or i8)";
    return false;
  }
  spec.input = *in;
  spec.output = isFloat(*in) ? DType::F32 : DType::I32;
  if (!outDtype.empty()) {
    auto out = parseDType(outDtype);
    if (!out) {
      error = "unknown --out-dtype '" + outDtype + "'";
      return false;
    }
    spec.output = *out;
  }
  if (exclusive && !spec.isScan) {
    error = "--exclusive applies to --op scan only";
    return false;
  }
  spec.inclusive = !exclusive;
  if (reverse && !spec.isScan) {
    error = "--reverse applies to --op scan only";
    return false;
  }
  spec.reverse = reverse;
  // No --variant: the compiler's default for the segment size; the spec
  // (the cache key) says "default" in both drivers.
  spec.variant = variant;
  if (tilesPerWarp < 0 || tilesPerWarp > kMaxTilesPerWarp) {
    error = "--tiles-per-warp must be in 1.." +
            std::to_string(kMaxTilesPerWarp) +
            " (0: the compiler's choice), got " + std::to_string(tilesPerWarp);
    return false;
  }
  spec.tilesPerWarp = int(tilesPerWarp);
  if (!isWarpsPerBlock(warpsPerBlock)) {
    error = "--warps-per-block must be 1, 2, 4, 8 or 16 (0: the compiler's "
            "choice), got " +
            std::to_string(warpsPerBlock);
    return false;
  }
  if (warpsPerBlock && !takesWarpsPerBlock(variant)) {
    error = "--warps-per-block applies to --variant block, lookback or "
            "lagged only";
    return false;
  }
  spec.warpsPerBlock = int(warpsPerBlock);
  return true;
}

bool tcuc::driver::gpuUsable(std::string &why) {
  std::string arch;
  Status s = deviceArch(arch);
  why = s.message();
  return s.ok();
}

std::string tcuc::driver::jsonString(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

int tcuc::driver::reportFailure(const RunRequest &request, int code,
                                const std::string &message) {
  if (request.textOnStderr())
    std::fprintf(stderr, "tcuc run: %s\n", message.c_str());
  if (request.json) {
    std::FILE *report = request.outputFile == "-" ? stderr : stdout;
    std::fprintf(report, "{\"ok\": false, \"exit_code\": %d, \"error\": %s}\n",
                 code, jsonString(message).c_str());
    std::fflush(report);
  }
  return code;
}

bool tcuc::driver::inferInputCount(RunRequest &request, bool nGiven,
                                   std::string &error) {
  if (request.inputFile.empty())
    return true;
  const std::string &path = request.inputFile;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    error = "--input '" + path + "': cannot read: " + std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode))
    return true; // a pipe or device: its size is not known up front
  uint64_t bytes = uint64_t(st.st_size);
  size_t width = dtypeBytes(request.spec.input);
  std::string holds =
      "--input '" + path + "' holds " + std::to_string(bytes) + " bytes";
  if (bytes % width != 0) {
    error = holds + ", not a whole number of " + dtypeName(request.spec.input) +
            " elements (" + std::to_string(width) + " bytes each)";
    return false;
  }
  int64_t count = int64_t(bytes / width);
  if (nGiven && count != request.n) {
    error = holds + ", " + std::to_string(count) + " elements of " +
            dtypeName(request.spec.input) + ", not --n " +
            std::to_string(request.n) + " (leave --n out: the file gives it)";
    return false;
  }
  if (count == 0) {
    error = "--input '" + path + "' is empty (no elements to run)";
    return false;
  }
  request.n = count;
  return true;
}

struct Progress::State {
  std::string what;
  std::mutex mu;
  std::condition_variable cv;
  bool done = false, printed = false;
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
  std::thread waiter;

  void print() {
    std::fprintf(stderr, "tcuc run: %s...\n", what.c_str());
    std::fflush(stderr);
    printed = true;
  }
};

Progress::Progress(std::string what) {
  const char *env = std::getenv("TCUC_PROGRESS");
  std::string mode = env ? env : "";
  if (mode == "0" || (mode != "1" && !::isatty(STDERR_FILENO)))
    return;
  state = new State();
  state->what = std::move(what);
  if (mode == "1") {
    state->print();
    return;
  }
  // On a terminal only work that takes a second says so.
  state->waiter = std::thread([s = state] {
    std::unique_lock<std::mutex> lock(s->mu);
    if (!s->cv.wait_for(lock, std::chrono::seconds(1), [s] { return s->done; }))
      s->print();
  });
}

Progress::~Progress() {
  if (!state)
    return;
  {
    std::lock_guard<std::mutex> lock(state->mu);
    state->done = true;
  }
  state->cv.notify_all();
  if (state->waiter.joinable())
    state->waiter.join();
  if (state->printed)
    std::fprintf(stderr, "tcuc run: %s: done in %.1f s\n", state->what.c_str(),
                 std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - state->start)
                     .count());
  delete state;
}

bool tcuc::driver::loadGPUKernel(RunRequest &request, std::string &error) {
  RuntimeStats before = Runtime::global().stats();
  auto start = std::chrono::steady_clock::now();
  const Kernel *kernel = nullptr;
  Status s = Runtime::global().getKernelFor(request.spec, kernel);
  request.compileMs = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  error = s.message();
  if (!s.ok())
    return false;
  RuntimeStats after = Runtime::global().stats();
  request.kernelOrigin =
      after.compiles > before.compiles         ? "compiled"
      : after.libraryHits > before.libraryHits ? "read from the kernel library"
      : after.diskHits > before.diskHits       ? "read from the disk cache"
                                               : "already loaded";
  request.classKernel = kernel->spec().runtimeSegment;
  const KernelFile &file = kernel->file();
  if (!file.variant.empty()) {
    request.variantName = file.variant;
    request.tilesPerWarp = file.tilesPerWarp;
    request.warpsPerBlock = file.warpsPerBlock;
  }
  return true;
}

/// A warm-up `launch` (module load, scratch), then the timed one over an
/// output poisoned again (an element the kernel never writes shows up),
/// then `wrote` bytes of the output to `out`.
static bool warmThenTime(const std::function<Status()> &launch, void *dOut,
                         size_t outBytes, size_t wrote, void *out, double &ms,
                         std::string &error) {
  Status s;
  if (!(s = launch()) || !(s = synchronize(nullptr)) ||
      !(s = deviceMemset(dOut, 0xff, outBytes)) ||
      !(s = synchronize(nullptr))) {
    error = s.message();
    return false;
  }
  auto t0 = std::chrono::steady_clock::now();
  if (!(s = launch()) || !(s = synchronize(nullptr))) {
    error = s.message();
    return false;
  }
  ms = std::chrono::duration<double, std::milli>(
           std::chrono::steady_clock::now() - t0)
           .count();
  if (wrote && !(s = copyToHost(out, dOut, wrote))) {
    error = s.message();
    return false;
  }
  return true;
}

/// `decays` (or nothing) on the device, in `buffer`.
static Status decaysToDevice(const std::vector<float> *decays,
                             DeviceBuffer &buffer) {
  if (!decays)
    return Status::success();
  size_t bytes = std::max<size_t>(decays->size() * sizeof(float), 1);
  if (Status s = deviceAlloc(bytes, buffer.ptr); !s)
    return s;
  return copyToDevice(buffer.ptr, decays->data(),
                      decays->size() * sizeof(float));
}

ExecuteFn tcuc::driver::gpuExecutor(const KernelSpec &spec,
                                    const std::vector<float> *decays) {
  return [spec, decays](const void *in, int64_t n, void *out, double &ms,
                        std::string &error) {
    const Kernel *kernel = nullptr;
    Status s = Runtime::global().getKernelFor(spec, kernel);
    if (!s) {
      error = s.message();
      return false;
    }
    size_t inBytes = size_t(n) * dtypeBytes(spec.input);
    size_t outBytes = size_t(spec.outputLength(n)) * dtypeBytes(spec.output);
    DeviceBuffer dIn, dOut, dDecays;
    if (!(s = deviceAlloc(inBytes, dIn.ptr)) ||
        !(s = deviceAlloc(outBytes, dOut.ptr)) ||
        !(s = copyToDevice(dIn.ptr, in, inBytes)) ||
        !(s = decaysToDevice(decays, dDecays))) {
      error = s.message();
      return false;
    }
    return warmThenTime(
        [&] {
          return Runtime::global().launchWithSegment(
              *kernel, dIn.ptr, dOut.ptr, n, spec.segmentSize, nullptr,
              spec.decay, static_cast<const float *>(dDecays.ptr));
        },
        dOut.ptr, outBytes, outBytes, out, ms, error);
  };
}

ExecuteFn tcuc::driver::gpuOffsetsExecutor(const KernelSpec &spec,
                                           const std::vector<int64_t> &offsets,
                                           const std::vector<float> *decays) {
  return [spec, &offsets, decays](const void *in, int64_t n, void *out,
                                  double &ms, std::string &error) {
    const Kernel *kernel = nullptr;
    Status s = Runtime::global().getKernelFor(spec, kernel);
    if (!s) {
      error = s.message();
      return false;
    }
    int64_t k = int64_t(offsets.size()) - 1;
    std::vector<int32_t> narrow;
    const void *host = offsets.data();
    size_t offBytes = offsets.size() * 8;
    if (spec.offsetBits == 32) {
      narrow.assign(offsets.begin(), offsets.end());
      host = narrow.data();
      offBytes = narrow.size() * 4;
    }
    size_t inBytes = std::max<size_t>(size_t(n) * dtypeBytes(spec.input), 1);
    size_t outBytes = std::max<size_t>(
        size_t(spec.isScan ? n : k) * dtypeBytes(spec.output), 1);
    DeviceBuffer dIn, dOut, dOff, dDecays;
    if (!(s = deviceAlloc(inBytes, dIn.ptr)) ||
        !(s = deviceAlloc(outBytes, dOut.ptr)) ||
        !(s = deviceAlloc(offBytes, dOff.ptr)) ||
        !(s = copyToDevice(dIn.ptr, in, size_t(n) * dtypeBytes(spec.input))) ||
        !(s = copyToDevice(dOff.ptr, host, offBytes)) ||
        !(s = decaysToDevice(decays, dDecays))) {
      error = s.message();
      return false;
    }
    return warmThenTime(
        [&] {
          return Runtime::global().launchOffsets(
              *kernel, dIn.ptr, dOut.ptr, dOff.ptr, k, nullptr, spec.decay,
              static_cast<const float *>(dDecays.ptr));
        },
        dOut.ptr, outBytes,
        size_t(spec.isScan ? n : k) * dtypeBytes(spec.output), out, ms, error);
  };
}

bool tcuc::driver::checkFiles(const RunRequest &request, std::string &error) {
  if (!request.outputFile.empty() && request.outputFile != "-" &&
      !request.inputFile.empty() &&
      ref::sameFile(request.inputFile, request.outputFile)) {
    error = "--output '" + request.outputFile + "' is the input file '" +
            request.inputFile + "' (it would replace the data being read)";
    return false;
  }
  return true;
}

/// Bytes this process may still map: the smaller of RLIMIT_AS less what it
/// has mapped already and RLIMIT_DATA less its data, or "unlimited".
static uint64_t addressSpaceLeft() {
  uint64_t left = ~uint64_t(0);
  long page = sysconf(_SC_PAGESIZE);
  // /proc/self/statm: total mapped pages, resident, shared, text, lib,
  // data + stack, dirty.
  unsigned long long size = 0, resident = 0, shared = 0, text = 0, lib = 0,
                     data = 0;
  if (std::FILE *f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%llu %llu %llu %llu %llu %llu", &size, &resident,
                    &shared, &text, &lib, &data) != 6)
      size = data = 0;
    std::fclose(f);
  }
  auto leftUnder = [&](int resource, uint64_t used) {
    struct rlimit r;
    if (getrlimit(resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY)
      return;
    uint64_t limit = uint64_t(r.rlim_cur);
    left = std::min(left, limit > used ? limit - used : 0);
  };
  leftUnder(RLIMIT_AS, uint64_t(size) * uint64_t(page));
  leftUnder(RLIMIT_DATA, uint64_t(data) * uint64_t(page));
  return left;
}

bool tcuc::driver::checkHostMemory(const RunRequest &request,
                                   std::string &error) {
  int64_t n = request.n;
  if (std::string e = elementCountError(n); !e.empty()) {
    error = "--n: " + e;
    return false;
  }
  const KernelSpec &spec = request.spec;
  uint64_t bytes = uint64_t(n) * dtypeBytes(spec.input) +
                   uint64_t(request.outputLength()) * dtypeBytes(spec.output);
  // The check keeps float64 references and magnitudes per output element,
  // and a sequential f32 result.
  if (request.check)
    bytes += uint64_t(request.outputLength()) * (8 + 8 + 4);
  uint64_t physical =
      uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
  std::string need = "--n " + std::to_string(n) + " needs " +
                     std::to_string(bytes >> 20) +
                     " MiB of host memory (input, output" +
                     (request.check ? ", reference" : "") + "), ";
  if (bytes > physical) {
    error = need + "more than this machine's " +
            std::to_string(physical >> 20) + " MiB";
    return false;
  }
  if (uint64_t left = addressSpaceLeft(); bytes > left) {
    error = need + "more than the " + std::to_string(left >> 20) +
            " MiB this process's limits leave it (ulimit -v / -d)";
    return false;
  }
  return true;
}

int tcuc::driver::runJob(const RunRequest &request, const ExecuteFn &execute) {
  const KernelSpec &spec = request.spec;
  int64_t n = request.n;
  int64_t outLength = request.outputLength();
  std::string error;
  std::vector<uint8_t> input;
  if (!request.inputFile.empty()) {
    if (!ref::readRawFile(request.inputFile, spec.input, n, input, &error))
      return reportFailure(request, kExitUsage, error);
  } else {
    input = ref::makeRandomInput(spec.input, n, request.seed);
  }
  // Poisoned (NaN, or -1 for i32), as the GPU executor poisons its buffer:
  // an element the kernel never writes fails the check.
  std::vector<uint8_t> output(size_t(outLength) * dtypeBytes(spec.output),
                              0xff);
  double runMs = 0;
  if (!execute(input.data(), n, output.data(), runMs, error))
    return reportFailure(request, kExitRuntime,
                         "running the kernel failed: " + error);
  // Fault injection for the tests of exit code 1: a correct kernel never
  // fails --check, so one output element is changed (exponent / high bit).
  if (std::getenv("TCUC_TEST_CORRUPT_OUTPUT") && !output.empty())
    output[dtypeBytes(spec.output) - 1] ^= 0x40;
  if (!request.outputFile.empty() &&
      !ref::writeRawFile(request.outputFile, output.data(), output.size(),
                         &error))
    return reportFailure(request, kExitUsage, error);

  bool ok = true;
  double bound = 0;
  ref::ErrorStats stats, seqStats;
  int64_t segment = spec.segmentSize;
  if (request.check) {
    Progress progress("computing the float64 reference");
    const std::vector<int64_t> &offsets = request.offsets;
    bool csr = spec.offsetBits != 0;
    // A decayed scan is judged against its recurrence, with the f32 decay
    // the kernel uses.
    double decay = static_cast<float>(spec.decay);
    bool decayed = spec.isScan && spec.decay != 1.0;
    bool incl = spec.inclusive, rev = spec.reverse;
    const void *x = input.data();
    std::vector<double> reference, mass;
    std::vector<float> seq;
    if (spec.isScan && spec.segmentDecays) {
      // Each segment against its own recurrence (as one segment of offsets
      // [0, length]).
      std::vector<int64_t> bounds = offsets;
      if (!csr)
        for (int64_t b = 0; b <= n; b += segment)
          bounds.push_back(std::min(b, n));
      if (!csr && bounds.back() != n)
        bounds.push_back(n);
      size_t bytes = dtypeBytes(spec.input);
      for (size_t j = 0; j + 1 < bounds.size(); ++j) {
        int64_t len = bounds[j + 1] - bounds[j];
        if (len == 0)
          continue;
        const void *part = static_cast<const char *>(x) + bounds[j] * bytes;
        std::vector<int64_t> one{0, len};
        double a = request.decays[j];
        auto r = ref::referenceDecayedScanOffsets(spec.input, part, one, a,
                                                  incl, rev);
        auto m = ref::absoluteMassDecayedOffsets(spec.input, part, one, a, incl,
                                                 rev);
        auto q = ref::sequentialF32DecayedScanOffsets(spec.input, part, one, a,
                                                      incl, rev);
        reference.insert(reference.end(), r.begin(), r.end());
        mass.insert(mass.end(), m.begin(), m.end());
        seq.insert(seq.end(), q.begin(), q.end());
      }
    } else if (decayed && csr) {
      reference = ref::referenceDecayedScanOffsets(spec.input, x, offsets,
                                                   decay, incl, rev);
      mass = ref::absoluteMassDecayedOffsets(spec.input, x, offsets, decay,
                                             incl, rev);
      seq = ref::sequentialF32DecayedScanOffsets(spec.input, x, offsets, decay,
                                                 incl, rev);
    } else if (decayed) {
      reference = ref::referenceDecayedScan(spec.input, x, n, segment, decay,
                                            incl, rev);
      mass =
          ref::absoluteMassDecayed(spec.input, x, n, segment, decay, incl, rev);
      seq = ref::sequentialF32DecayedScan(spec.input, x, n, segment, decay,
                                          incl, rev);
    } else if (csr) {
      reference =
          ref::referenceOffsets(spec.input, x, offsets, spec.isScan, incl, rev);
      mass = ref::absoluteMassOffsets(spec.input, x, offsets, spec.isScan, incl,
                                      rev);
      seq = ref::sequentialF32Offsets(spec.input, x, offsets, spec.isScan, incl,
                                      rev);
    } else if (spec.isScan) {
      reference = ref::referenceScan(spec.input, x, n, segment, incl, rev);
      mass = ref::absoluteMass(spec.input, x, n, segment, true, incl, rev);
      seq = ref::sequentialF32Scan(spec.input, x, n, segment, incl, rev);
    } else {
      reference = ref::referenceReduce(spec.input, x, n, segment);
      mass = ref::absoluteMass(spec.input, x, n, segment, false, false);
      seq = ref::sequentialF32Reduce(spec.input, x, n, segment);
    }
    stats = ref::compare(spec.output, output.data(), reference, mass);
    seqStats = ref::compareF32(seq, reference, mass);
    ok = ref::withinTolerance(spec.output, stats, seqStats);
    bound = ref::relErrBound(spec.output, seqStats);
  }

  // With --output -, standard output carries the data: the report goes to
  // standard error.
  std::FILE *report = request.outputFile == "-" ? stderr : stdout;
  const char *op = spec.isScan ? "scan" : "reduce";
  const char *mode =
      spec.isScan ? (spec.inclusive ? "inclusive" : "exclusive") : "reduce";
  // The text report says "inclusive reverse"; JSON keeps `mode` as it was
  // and adds `reverse`.
  std::string modeText = std::string(mode) + (spec.reverse ? " reverse" : "");
  // A decayed scan says its decay (the f32 the kernel used); JSON gains
  // `decay` only then, so plain runs' reports are unchanged.
  bool decayedRun = spec.isScan && (spec.decay != 1.0 || spec.segmentDecays);
  std::string decayText =
      spec.segmentDecays ? std::string("\"segments\"")
      : decayedRun ? format("%.9g", double(static_cast<float>(spec.decay)))
                   : std::string();
  if (decayedRun)
    modeText += spec.segmentDecays ? std::string(" decays per segment")
                                   : " decay " + decayText;
  std::string variant = !request.variantName.empty() ? request.variantName
                        : spec.variant.empty()       ? "default"
                                                     : spec.variant;
  // 0 (JSON) / "default": a kernel file without a tcuc.strategy line.
  int64_t tiles =
      request.tilesPerWarp ? request.tilesPerWarp : spec.tilesPerWarp;
  std::string tilesText = tiles ? std::to_string(tiles) + " tile(s) per warp"
                                : std::string("default tiles per warp");
  int64_t warps =
      request.warpsPerBlock ? request.warpsPerBlock : spec.warpsPerBlock;
  if (warps)
    tilesText += ", " + std::to_string(warps) + " warps per block";
  if (request.json) {
    // Only what was computed: no error figures without --check, no fallback
    // reason unless --device auto chose.
    std::string checked;
    if (request.check)
      checked = ", \"rel_err\": " + format("%.3e", stats.relErr) +
                ", \"rel_err_bound\": " + format("%.3e", bound) +
                ", \"max_abs_err\": " + format("%.3e", stats.maxAbsErr) +
                ", \"seq_f32_rel_err\": " + format("%.3e", seqStats.relErr) +
                ", \"mismatches\": " + std::to_string(stats.mismatches);
    if (decayedRun)
      checked += ", \"decay\": " + decayText;
    std::string fallback;
    if (request.autoDevice)
      fallback =
          ", \"device_fallback\": " +
          (request.deviceFallback.empty() ? std::string("null")
                                          : jsonString(request.deviceFallback));
    std::fprintf(
        report,
        "{\"ok\": %s, \"exit_code\": %d, \"checked\": %s, \"op\": \"%s\", "
        "\"mode\": \"%s\", \"reverse\": %s, \"segment\": %" PRId64
        ", \"n\": %" PRId64
        ", \"dtype\": \"%s\", \"out_dtype\": \"%s\", \"device\": \"%s\"%s, "
        "\"variant\": \"%s\", \"tiles_per_warp\": %" PRId64
        ", \"warps_per_block\": %" PRId64 "%s, \"ms\": %.3f, \"compile_ms\": "
        "%.1f, \"kernel\": \"%s\", \"segment_kernel\": \"%s\", \"offsets\": "
        "%s, \"segments\": %" PRId64 "}\n",
        ok ? "true" : "false", ok ? kExitOk : kExitCheckFailed,
        request.check ? "true" : "false", op, mode,
        spec.reverse ? "true" : "false", spec.offsetBits ? int64_t(0) : segment,
        n, dtypeName(spec.input), dtypeName(spec.output),
        request.device.c_str(), fallback.c_str(), variant.c_str(), tiles, warps,
        checked.c_str(), runMs, request.compileMs, request.kernelOrigin.c_str(),
        request.classKernel ? "class" : "size",
        spec.offsetBits == 32   ? "\"i32\""
        : spec.offsetBits == 64 ? "\"i64\""
                                : "null",
        spec.offsetBits ? int64_t(request.offsets.size()) - 1
                        : (n + segment - 1) / segment);
  } else {
    std::string segments =
        spec.offsetBits
            ? std::to_string(request.offsets.size() - 1) + " segments from i" +
                  std::to_string(spec.offsetBits) + " offsets"
            : "segment " + std::to_string(segment);
    std::fprintf(report,
                 "tcuc run: %s (%s) of %" PRId64 " x %s -> %s, %s"
                 ", variant %s%s, %s, device %s\n"
                 "  kernel %s in %.1f ms, ran in %.3f ms\n",
                 op, modeText.c_str(), n, dtypeName(spec.input),
                 dtypeName(spec.output), segments.c_str(), variant.c_str(),
                 request.classKernel ? " (class kernel: size at launch)" : "",
                 tilesText.c_str(), request.device.c_str(),
                 request.kernelOrigin.c_str(), request.compileMs, runMs);
    if (request.check) {
      // The verdict's rule beside its numbers: float outputs pass with no
      // mismatch (a non-finite output where the sum is finite, or the
      // other way) and rel_err within the bound; i32 outputs with no
      // element different.
      std::string relErr = "rel_err " + format("%.3e", stats.relErr);
      if (isFloat(spec.output))
        relErr +=
            (stats.relErr <= bound ? " <= " : " > ") + format("%.3e", bound);
      std::fprintf(report,
                   "  check: %s (%s, sequential f32 %.3e, max_abs_err "
                   "%.3e, mismatches %" PRId64 ")\n",
                   ok ? "PASS" : "FAIL", relErr.c_str(), seqStats.relErr,
                   stats.maxAbsErr, stats.mismatches);
    }
  }
  std::fflush(report);
  if (!ok && request.textOnStderr())
    std::fprintf(stderr,
                 "tcuc run: result does not match the reference (worst "
                 "element %" PRId64 ")\n",
                 stats.worstIndex);
  return ok ? kExitOk : kExitCheckFailed;
}

int64_t tcuc::driver::RunRequest::outputLength() const {
  if (spec.offsetBits && !spec.isScan)
    return offsets.empty() ? 0 : int64_t(offsets.size()) - 1;
  return spec.outputLength(n);
}

/// The bytes of the file `path` given by `flag`, or false with `error`.
static bool readFileBytes(const char *flag, const std::string &path,
                          std::vector<uint8_t> &bytes, std::string &error) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = std::string(flag) + ": cannot open '" + path + "'";
    return false;
  }
  uint8_t buf[1 << 16];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0)
    bytes.insert(bytes.end(), buf, buf + got);
  bool readError = std::ferror(f);
  std::fclose(f);
  if (readError) {
    error = std::string(flag) + ": cannot read '" + path + "'";
    return false;
  }
  return true;
}

bool tcuc::driver::readDecaysFile(const std::string &path, int64_t count,
                                  DType input, std::vector<float> &decays,
                                  std::string &error) {
  std::vector<uint8_t> bytes;
  if (!readFileBytes("--decay-file", path, bytes, error))
    return false;
  if (bytes.size() != size_t(count) * 4) {
    error = "--decay-file: '" + path + "' holds " +
            std::to_string(bytes.size()) + " bytes, expected " +
            std::to_string(count) + " decays (one per segment, raw " +
            "little-endian float32: " + std::to_string(count * 4) + " bytes)";
    return false;
  }
  decays.resize(size_t(count));
  for (size_t i = 0; i < decays.size(); ++i) {
    uint32_t v = 0;
    for (int b = 3; b >= 0; --b)
      v = (v << 8) | bytes[i * 4 + size_t(b)];
    std::memcpy(&decays[i], &v, sizeof v);
    if (std::string e = decayError(decays[i], input); !e.empty()) {
      error = "--decay-file: decay " + std::to_string(i) + ": " + e;
      return false;
    }
  }
  return true;
}

bool tcuc::driver::readOffsetsFile(const std::string &path, int offsetBits,
                                   std::vector<int64_t> &offsets,
                                   std::string &error) {
  std::vector<uint8_t> bytes;
  if (!readFileBytes("--offsets", path, bytes, error))
    return false;
  if (bytes.size() % 8 != 0) {
    error = "--offsets: '" + path + "' holds " + std::to_string(bytes.size()) +
            " bytes, not a multiple of 8 (raw little-endian int64 offsets)";
    return false;
  }
  offsets.resize(bytes.size() / 8);
  for (size_t i = 0; i < offsets.size(); ++i) {
    uint64_t v = 0;
    for (int b = 7; b >= 0; --b)
      v = (v << 8) | bytes[i * 8 + size_t(b)];
    offsets[i] = int64_t(v);
  }
  int64_t n = offsets.empty() ? 0 : offsets.back();
  if (!offsets.empty() && n > kMaxElements) {
    error = "--offsets: the last offset (n) is " + std::to_string(n) +
            ", more than " + std::to_string(kMaxElements) + " elements";
    return false;
  }
  if (std::string e = offsetsError(offsets.data(), offsets.size(), n);
      !e.empty()) {
    error = "--offsets '" + path + "': " + e;
    return false;
  }
  if (offsetBits == 32 && n > INT32_MAX) {
    error = "--offsets: n = " + std::to_string(n) +
            " does not fit i32 offsets (--offset-type i64)";
    return false;
  }
  return true;
}
