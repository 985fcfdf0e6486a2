//===- SegmentClasses.cpp - one kernel per class of segment sizes ---------===//
//
// The runtime's counterpart of CUB's policies: a size is mapped to a class
// whose kernel takes the size at launch (docs/runtime.md "Segment classes";
// the measured reasons for the bounds: docs/rationale.md#segment-classes).
//
//===----------------------------------------------------------------------===//

#include "tcuc/Spec.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

using namespace tcuc;

namespace {

/// The longest segment a class kernel takes: its variants give a segment
/// (the stream scan an item of whole segments) to one warp, which a few
/// long segments leave without parallelism; longer ones keep the per-size
/// kernels (block, grid, look-back), which split a segment over warps.
constexpr int64_t kMaxClassSegment = 8192;

/// TCUC_SEGMENT_KERNELS (class, size or auto; unset: auto), read once.
SegmentKernelMode environmentMode() {
  static const SegmentKernelMode mode = [] {
    const char *v = std::getenv("TCUC_SEGMENT_KERNELS");
    std::string_view s = v ? v : "";
    if (s == "class")
      return SegmentKernelMode::Class;
    if (s == "size")
      return SegmentKernelMode::PerSize;
    if (!s.empty() && s != "auto")
      std::fprintf(stderr,
                   "tcuc: warning: TCUC_SEGMENT_KERNELS=%s is not class, "
                   "size or auto; using auto\n",
                   v);
    return SegmentKernelMode::Auto;
  }();
  return mode;
}

/// The class variant for a default-strategy spec, or null.
const char *classVariant(const KernelSpec &spec) {
  int64_t s = spec.segmentSize;
  if (s < 1 || s > kMaxClassSegment)
    return nullptr;
  if (s <= 15)
    return "seg16";
  // The streaming scan takes 16-bit and i8 input (f32: the verifier).
  if (spec.isScan && spec.input != DType::F32)
    return "stream";
  if (s == 16)
    return "seg16";
  // Reductions: 16 segments a tile up to 256 (one segment a tile, seg256,
  // leaves most of each product idle there), then a warp a segment.
  if (!spec.isScan)
    return s <= 256 ? "seg16n_strided" : "seg256n";
  return s <= 256 ? "seg256" : "seg256n";
}

} // namespace

/// SegmentKernelMode::Auto: the size's class kernel where that is the
/// streaming scan and the size is not a multiple of 16 (where the per-size
/// variants place segments badly on 16-wide tile rows:
/// docs/rationale.md#auto-classes), or a decayed scan's packed or seg256n
/// class (one kernel for every size past 256 in each);
/// elsewhere `spec` itself.
static KernelSpec autoSegmentClassOf(const KernelSpec &spec) {
  KernelSpec c = segmentClassOf(spec);
  bool stream = c.runtimeSegment && c.variant == "stream";
  bool decayed = c.runtimeSegment && (spec.decay != 1.0 || spec.segmentDecays);
  return (stream && spec.segmentSize % 16 != 0) || decayed ? c : spec;
}

KernelSpec tcuc::segmentClassOf(const KernelSpec &spec) {
  // Offsets kernels already serve every length. A decayed scan's class
  // is packed for 256 < S <= defaultPackedDecayedSegment, seg256n on to
  // 131072 (its decayed forms: docs/algorithms.md); shorter and longer
  // ones keep their size's kernel
  // (seg16, seg256, and from 131072 on the grid: tcu-select-strategy's
  // kDecayedGridMinSegment).
  // Per-segment decays alike.
  bool decayed = spec.isScan && (spec.decay != 1.0 || spec.segmentDecays);
  if (spec.runtimeSegment || spec.offsetBits || !spec.variant.empty() ||
      spec.tilesPerWarp || spec.warpsPerBlock ||
      (decayed && (spec.segmentSize >= 131072 || spec.segmentSize <= 256)))
    return spec;
  // Decayed scans take f16, bf16 or f32 input.
  bool sixteenBit = dtypeBytes(spec.input) == 2;
  bool packs = spec.segmentSize <=
               defaultPackedDecayedSegment(sixteenBit, spec.segmentDecays);
  const char *variant =
      decayed ? (packs ? "packed" : "seg256n") : classVariant(spec);
  if (!variant)
    return spec;
  KernelSpec c = spec;
  c.runtimeSegment = true;
  c.variant = variant;
  return c;
}

KernelSpec tcuc::resolveSegmentClass(const KernelSpec &spec,
                                     SegmentKernelMode mode) {
  if (mode == SegmentKernelMode::FromEnvironment)
    mode = environmentMode();
  KernelSpec chosen = mode == SegmentKernelMode::Class ? segmentClassOf(spec)
                      : mode == SegmentKernelMode::PerSize
                          ? spec
                          : autoSegmentClassOf(spec);
  // A decayed scan's kernel takes the decay at launch: one kernel for
  // every decay (docs/rationale.md#runtime-decays).
  if (chosen.isScan && chosen.decay != 1.0 && !chosen.segmentDecays)
    chosen.runtimeDecay = true;
  return chosen;
}

/// The (input, output) types tcuc compiles: 16-bit input to f32 or to its
/// own type, f32 to f32, i8 to i32.
static constexpr std::pair<DType, DType> kTypePairs[] = {
    {DType::F16, DType::F32},  {DType::F16, DType::F16},
    {DType::BF16, DType::F32}, {DType::BF16, DType::BF16},
    {DType::F32, DType::F32},  {DType::I8, DType::I32}};

std::vector<KernelSpec> tcuc::offsetsKernels() {
  std::vector<KernelSpec> out;
  for (auto [in, outType] : kTypePairs)
    for (int mode = 0; mode < 3; ++mode) // reduce, inclusive, exclusive
      for (int bits : {32, 64}) {
        KernelSpec spec = mode == 0
                              ? KernelSpec::reduce(1, in, outType)
                              : KernelSpec::scan(1, in, outType, mode == 1);
        spec.offsetBits = bits;
        out.push_back(spec);
      }
  return out;
}

std::vector<KernelSpec> tcuc::segmentClassKernels() {
  std::vector<KernelSpec> out;
  for (auto [in, outType] : kTypePairs) {
    for (int mode = 0; mode < 3; ++mode) { // reduce, inclusive, exclusive
      KernelSpec spec = mode == 0 ? KernelSpec::reduce(1, in, outType)
                                  : KernelSpec::scan(1, in, outType, mode == 1);
      std::vector<std::string> seen;
      for (int64_t s = 1; s <= kMaxClassSegment; ++s) {
        spec.segmentSize = s;
        KernelSpec c = segmentClassOf(spec);
        if (!c.runtimeSegment ||
            std::find(seen.begin(), seen.end(), c.variant) != seen.end())
          continue;
        seen.push_back(c.variant); // c.segmentSize: the class's smallest
        out.push_back(c);
      }
    }
  }
  return out;
}
