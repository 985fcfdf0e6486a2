//===- Spec.cpp - kernel specs and element types --------------------------===//

#include "tcuc/Spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

using namespace tcuc;

std::optional<DType> tcuc::parseDType(std::string_view name) {
  if (name == "f16")
    return DType::F16;
  if (name == "bf16")
    return DType::BF16;
  if (name == "f32")
    return DType::F32;
  if (name == "i8")
    return DType::I8;
  if (name == "i32")
    return DType::I32;
  return std::nullopt;
}

const char *tcuc::dtypeName(DType t) {
  switch (t) {
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::I8:
    return "i8";
  case DType::I32:
    return "i32";
  }
  return "?";
}

size_t tcuc::dtypeBytes(DType t) {
  switch (t) {
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::I8:
    return 1;
  }
  return 0;
}

std::string tcuc::segmentSizeError(int64_t segment) {
  if (segment < 1)
    return "segment size must be >= 1, got " + std::to_string(segment);
  if (segment > kMaxElements)
    return "segment size must be <= 2^47 (" + std::to_string(kMaxElements) +
           "), got " + std::to_string(segment);
  return "";
}

std::string tcuc::decayError(double decay, DType in) {
  // Checked on every scan launch (getKernelFor): text only on an error.
  auto text = [decay] {
    char t[32];
    std::snprintf(t, sizeof t, "%.9g", decay);
    return std::string(t);
  };
  if (!std::isfinite(decay))
    return "decay must be finite, got " + text();
  if (decay == 1.0)
    return "";
  if (decay < -1.0 || decay > 1.0)
    return "decay must lie in [-1, 1], got " + text();
  if (in != DType::F16 && in != DType::BF16 && in != DType::F32)
    return std::string("a decayed scan takes f16, bf16 or f32 input, got ") +
           dtypeName(in) + " (integer sums have no decay)";
  return "";
}

std::string tcuc::elementCountError(int64_t n) {
  if (n < 0)
    return "element count must be >= 0, got " + std::to_string(n);
  if (n > kMaxElements)
    return "element count " + std::to_string(n) +
           " exceeds the largest supported, 2^47 (more than any device "
           "holds)";
  return "";
}

bool tcuc::isWarpsPerBlock(int64_t warps) {
  return warps >= 0 && warps <= kMaxWarpsPerBlock && !(warps & (warps - 1));
}

bool tcuc::splitTarget(std::string_view target, std::string &arch,
                       std::string &gpu) {
  size_t colon = target.find(':');
  std::string_view a = target.substr(0, colon);
  std::string_view g =
      colon == std::string_view::npos ? "" : target.substr(colon + 1);
  // sm_<digits>, optionally with an arch-specific suffix letter (sm_90a).
  size_t i = 3;
  if (a.size() < 4 || a.substr(0, 3) != "sm_")
    return false;
  while (i < a.size() && std::isdigit(static_cast<unsigned char>(a[i])))
    ++i;
  if (i == 3 ||
      !(i == a.size() ||
        (i + 1 == a.size() && std::islower(static_cast<unsigned char>(a[i])))))
    return false;
  if (colon != std::string_view::npos &&
      (g.empty() || !std::all_of(g.begin(), g.end(), [](char c) {
         return std::islower(static_cast<unsigned char>(c)) ||
                std::isdigit(static_cast<unsigned char>(c));
       })))
    return false;
  arch = std::string(a);
  gpu = std::string(g);
  return true;
}

std::string tcuc::kernelArchFor(std::string_view chip, std::string *why) {
  std::string arch, gpu;
  unsigned version = 0;
  auto fail = [&](const std::string &reason) {
    if (why)
      *why = reason;
    return std::string();
  };
  if (!splitTarget(chip, arch, gpu) || !gpu.empty())
    return fail("'" + std::string(chip) +
                "' is not a GPU architecture (expected sm_<digits>, e.g. "
                "sm_80, sm_86, sm_90, sm_120)");
  for (char c : arch.substr(3))
    if (std::isdigit(static_cast<unsigned char>(c)))
      version = version * 10 + unsigned(c - '0');
  // The kernels' mma.sync m16n8k16 (f16, bf16, i8 operands) is sm_80's.
  if (version < 80)
    return fail(arch + " is older than tcuc supports: its kernels need "
                       "mma.sync m16n8k16, sm_80 (Ampere) or newer");
  return version >= 90 ? "sm_90" : "sm_80";
}

std::string tcuc::kernelTargetFor(std::string_view target, std::string *why) {
  std::string arch, gpu;
  if (!splitTarget(target, arch, gpu)) {
    if (why)
      *why = "'" + std::string(target) +
             "' is not a GPU target (expected sm_<digits>, optionally "
             ":MODEL, e.g. sm_86 or sm_90:h200)";
    return "";
  }
  std::string kernelArch = kernelArchFor(arch, why);
  if (kernelArch.empty() || gpu.empty())
    return kernelArch;
  return kernelArch + ":" + gpu;
}

std::string tcuc::gpuModelOf(std::string_view deviceName) {
  std::string word;
  auto isModel = [](const std::string &w) {
    size_t i = 0;
    while (i < w.size() && std::isalpha(static_cast<unsigned char>(w[i])))
      ++i;
    return i > 0 && i < w.size() &&
           std::all_of(w.begin() + i, w.end(), [](char c) {
             return std::isdigit(static_cast<unsigned char>(c));
           });
  };
  for (size_t i = 0; i <= deviceName.size(); ++i) {
    char c = i < deviceName.size() ? deviceName[i] : ' ';
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      continue;
    }
    if (isModel(word))
      return word;
    word.clear();
  }
  return "";
}

// Part of the kernels' build id (this file is hashed): a model added here
// changes the targets, and so the cache keys, of its default kernels.
const std::vector<std::string_view> &tcuc::tunedGpuModels() {
  // Rows made by `tcuc tune --arch MODEL` and built in.
  static const std::vector<std::string_view> models = {"h200"};
  return models;
}

bool tcuc::hasTunedRows(std::string_view gpu) {
  const std::vector<std::string_view> &models = tunedGpuModels();
  return !gpu.empty() &&
         std::find(models.begin(), models.end(), gpu) != models.end();
}

bool tcuc::usesTunedTable(const KernelSpec &spec) {
  if (spec.runtimeSegment)
    return false; // a class kernel's strategy is its class's
  return spec.variant.empty() || spec.tilesPerWarp == 0 ||
         (takesWarpsPerBlock(spec.variant) && spec.warpsPerBlock == 0);
}

std::string tcuc::kernelTarget(const KernelSpec &spec, const std::string &arch,
                               const std::string &tunedGpu) {
  return !tunedGpu.empty() && usesTunedTable(spec) ? arch + ":" + tunedGpu
                                                   : arch;
}

bool tcuc::takesWarpsPerBlock(std::string_view variant) {
  return variant == "block" || variant == "lookback" || variant == "lagged";
}

// Part of the kernels' build id (cmake/TCUCBuildId.cmake hashes this file):
// the ranges shape the verifier and the kernel files.
bool tcuc::runtimeSegmentRange(std::string_view variant, bool isScan,
                               int64_t &min, int64_t &max) {
  min = 1;
  if (variant == "seg16")
    max = 16;
  else if (variant == "seg256")
    max = 256;
  else if (variant == "seg256n" || (variant == "seg16n_strided" && !isScan))
    max = kMaxElements;
  else if (variant == "stream" && isScan) {
    min = 16;
    max = kMaxStreamSegment;
  } else if (variant == "packed" && isScan) { // decayed scans only
    min = kMinPackedClassSegment;
    max = kMaxPackedDecayedSegment;
  } else
    return false;
  return true;
}

std::string tcuc::runtimeSegmentError(std::string_view variant, bool isScan,
                                      int64_t segment) {
  int64_t lo = 0, hi = 0;
  bool takes = runtimeSegmentRange(variant, isScan, lo, hi);
  if (takes && segment >= lo && segment <= hi)
    return "";
  return "segment size " + std::to_string(segment) + " is outside what " +
         "variant '" + std::string(variant) + "' takes at launch" +
         (takes ? " [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"
                : std::string(" (none)"));
}

template <typename T>
static std::string offsetsErrorOf(const T *offsets, size_t count, int64_t n) {
  if (count == 0)
    return "offsets must hold k+1 >= 1 entries (the first 0, the last n), "
           "got none";
  if (!offsets)
    return "offsets pointer is null";
  if (offsets[0] != 0)
    return "offsets[0] must be 0, got " + std::to_string(offsets[0]);
  for (size_t i = 1; i < count; ++i) {
    int64_t v = offsets[i], prev = offsets[i - 1];
    if (v < prev)
      return "offsets must not decrease: offsets[" + std::to_string(i) +
             "] = " + std::to_string(v) + " < offsets[" +
             std::to_string(i - 1) + "] = " + std::to_string(prev);
    if (v > n)
      return "offsets[" + std::to_string(i) + "] = " + std::to_string(v) +
             " is past the input's " + std::to_string(n) + " elements";
  }
  if (offsets[count - 1] != n)
    return "the last offset must be n = " + std::to_string(n) + ", got " +
           std::to_string(offsets[count - 1]) +
           (count == 1 ? " (no segments for a non-empty input)" : "");
  return "";
}

std::string tcuc::offsetsError(const int64_t *offsets, size_t count,
                               int64_t n) {
  return offsetsErrorOf(offsets, count, n);
}

std::string tcuc::offsetsError(const int32_t *offsets, size_t count,
                               int64_t n) {
  return offsetsErrorOf(offsets, count, n);
}

bool tcuc::isFloat(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32;
}

std::string KernelSpec::key() const {
  std::string k = isScan ? "op=scan" : "op=reduce";
  if (offsetBits)
    k += " offsets=i" + std::to_string(offsetBits);
  else
    k += " segment=" + (runtimeSegment ? std::string("runtime")
                                       : std::to_string(segmentSize));
  k += std::string(" in=") + dtypeName(input);
  k += std::string(" out=") + dtypeName(output);
  k += isScan ? (inclusive ? " inclusive=1" : " inclusive=0") : "";
  // Only when set: forward keys (and the kernel library's) stay as they were.
  if (isScan && reverse)
    k += " reverse=1";
  if (isScan && segmentDecays) {
    k += " decay=segments";
  } else if (isScan && runtimeDecay) {
    k += " decay=runtime";
  } else if (isScan && decay != 1.0) {
    char text[64];
    std::snprintf(text, sizeof text, " decay=%a", decay);
    k += text;
  }
  k += " variant=" + (variant.empty() ? std::string("default") : variant);
  if (tilesPerWarp > 0)
    k += " tiles=" + std::to_string(tilesPerWarp);
  if (warpsPerBlock > 0)
    k += " warps=" + std::to_string(warpsPerBlock);
  return k;
}

bool KernelSpec::setStrategy(std::string_view strategy, std::string &error) {
  size_t colon = strategy.find(':');
  std::string_view name = strategy.substr(0, colon);
  int tiles = 0, warps = 0;
  auto fail = [&] {
    error = "strategy '" + std::string(strategy) +
            "': expected VARIANT, VARIANT:TILES, :TILES or "
            "VARIANT:TILES:WARPS with TILES (tiles per warp) in 1.." +
            std::to_string(kMaxTilesPerWarp) +
            " and WARPS (warps per block) 1, 2, 4, 8 or 16";
    return false;
  };
  if (colon != std::string_view::npos) {
    std::string_view rest = strategy.substr(colon + 1);
    size_t second = rest.find(':');
    std::string_view digits = rest.substr(0, second);
    if (digits.size() != 1 || digits[0] < '1' ||
        digits[0] > '0' + kMaxTilesPerWarp)
      return fail();
    tiles = digits[0] - '0';
    if (second != std::string_view::npos) {
      std::string_view w = rest.substr(second + 1);
      if (w.empty() || w.size() > 2 || (w.size() == 2 && w[0] == '0'))
        return fail();
      for (char ch : w) {
        if (ch < '0' || ch > '9')
          return fail();
        warps = warps * 10 + (ch - '0');
      }
      if (warps == 0 || !isWarpsPerBlock(warps))
        return fail();
    }
  }
  variant = std::string(name);
  tilesPerWarp = tiles;
  warpsPerBlock = warps;
  return true;
}

int64_t KernelSpec::outputLength(int64_t n) const {
  return outputLength(n, segmentSize);
}

int64_t KernelSpec::outputLength(int64_t n, int64_t segment) const {
  if (isScan || n <= 0)
    return n < 0 ? 0 : n;
  return n / segment + (n % segment != 0);
}

KernelSpec KernelSpec::reduce(int64_t segment, DType in, DType out,
                              std::string variant) {
  KernelSpec spec;
  spec.isScan = false;
  spec.segmentSize = segment;
  spec.input = in;
  spec.output = out;
  spec.variant = std::move(variant);
  return spec;
}

KernelSpec KernelSpec::scan(int64_t segment, DType in, DType out,
                            bool inclusive, std::string variant) {
  KernelSpec spec = reduce(segment, in, out, std::move(variant));
  spec.isScan = true;
  spec.inclusive = inclusive;
  return spec;
}

KernelSpec KernelSpec::scan(int64_t segment, DType in, DType out, ScanMode mode,
                            std::string variant) {
  KernelSpec spec = scan(segment, in, out, mode.inclusive, std::move(variant));
  spec.reverse = mode.reverse;
  spec.decay = mode.decay;
  spec.segmentDecays = mode.decays != nullptr;
  return spec;
}
