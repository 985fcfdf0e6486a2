//===- CostModel.cpp - tuned table first, analytic rule second ------------===//
//
// What the H100 sweep (bench/, 2026-11-22) showed, and so what this encodes:
// - short segments want the variants that put 16 segments in one tile
//   (seg16, seg16n_strided, seg16n): one warp then reads 256 consecutive
//   elements per tile instead of one segment's 16..255 elements with the
//   rest of the tile masked off;
// - mid-size segments want the work-efficient seg256n (one warp streams a
//   segment);
// - once there are too few segments to give every warp slot of the GPU
//   work, the grid variant (segments split across blocks, partials reduced
//   or scanned by a second kernel) wins: 1.03x over seg256n for a reduce at
//   2^14 (16384 segments), 137x at 2^24 (16 segments), in the first sweep
//   (bench/results/history/2026-11-22-run1-before-cost-model.md).
// The table holds the measured winner per power-of-two segment size at
// n = 2^28; a segment between rows takes the next larger row.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Strategy/CostModel.h"

#include "llvm/ADT/ArrayRef.h"

using namespace mlir;
using namespace mlir::tcu;

namespace {

struct TunedRow {
  const char *arch, *op, *input, *output;
  int64_t segment;
  const char *variant;
  int64_t tilesPerWarp;
};

#define TCUC_TUNED(arch, op, in, out, segment, variant, tiles)                 \
  {arch, op, in, out, segment, variant, tiles},
const TunedRow kTunedRows[] = {
#include "TunedTables.inc"
};
#undef TCUC_TUNED

/// Warp slots of an H100-class GPU (132 SMs x 64 warps); below this many
/// segments one-warp-per-segment variants leave the GPU idle.
constexpr int64_t kWarpSlots = 132 * 64;

/// Table element types for a query's: bf16 behaves as f16 (same width, same
/// mma), other combinations have no row.
std::string tableType(const std::string &t) { return t == "bf16" ? "f16" : t; }

std::optional<StrategyChoice> fromTable(const StrategyQuery &q,
                                        const std::string &arch) {
  const char *op = q.isScan ? "scan" : "reduce";
  std::string in = tableType(q.input), out = tableType(q.output);
  const TunedRow *pick = nullptr, *last = nullptr;
  for (const TunedRow &r : kTunedRows) {
    if (arch != r.arch || llvm::StringRef(op) != r.op || in != r.input ||
        out != r.output)
      continue;
    last = &r;
    if (!pick && r.segment >= q.segmentSize)
      pick = &r;
  }
  if (!pick)
    pick = last; // larger than every row: the largest row's choice
  if (!pick)
    return std::nullopt;
  std::optional<Variant> v = symbolizeVariant(pick->variant);
  if (!v || !isVariantApplicable(*v, q.isScan, q.segmentSize))
    return std::nullopt;
  // A variant fixed by the user takes the row's tiles only if the row
  // measured that variant.
  if (q.variant && *q.variant != *v)
    return std::nullopt;
  return StrategyChoice{*v, pick->tilesPerWarp,
                        "tuned " + arch + " table, " + op + " " + in + "->" +
                            out + " segment row " +
                            std::to_string(pick->segment)};
}

StrategyChoice analytic(const StrategyQuery &q) {
  int64_t s = q.segmentSize;
  auto pick = [](Variant v, const char *why) {
    return StrategyChoice{v, 1, std::string("analytic: ") + why};
  };
  if (q.variant)
    return pick(*q.variant, "variant given; one tile in flight");
  if (q.isScan) {
    if (s <= 64)
      return pick(Variant::Seg16N, "segment <= 64: 16 segments per tile");
    if (s <= 256)
      return pick(Variant::Seg256, "segment <= 256: one tile per segment");
    if (s <= 65536)
      return pick(Variant::Seg256N, "segment <= 65536: a warp per segment");
    return pick(Variant::Grid, "segment > 65536: segments split over blocks");
  }
  if (s <= 16)
    return pick(Variant::Seg16, "segment <= 16: 16 segments per tile");
  if (s <= 128)
    return pick(Variant::Seg16NStrided,
                "segment <= 128: 16 segments per tile, strided");
  if (s <= 256)
    return pick(Variant::Seg16NCoalesced,
                "segment <= 256: whole 256-chunks, strided rest");
  if (s <= 8192)
    return pick(Variant::Seg256N, "segment <= 8192: a warp per segment");
  return pick(Variant::Grid, "segment > 8192: segments split over blocks");
}

} // namespace

std::string mlir::tcu::elementTypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isInteger(8))
    return "i8";
  if (type.isInteger(32))
    return "i32";
  return "";
}

StrategyChoice mlir::tcu::selectStrategy(const StrategyQuery &q) {
  // No table for an arch yet: use the sm_90 one (the only GPU measured so
  // far), then the analytic rule.
  std::optional<StrategyChoice> choice = fromTable(q, q.arch);
  if (!choice && q.arch != "sm_90")
    if ((choice = fromTable(q, "sm_90")))
      choice->reason += " (no " + q.arch + " table)";
  if (!choice)
    choice = analytic(q);
  // A known, small n: too few segments to occupy the GPU one warp each.
  // The 4096-element floor (shorter segments are not worth splitting) is a
  // judgement, not a measurement: the sweep runs n = 2^28 only.
  if (q.n && choice->variant != Variant::Grid && q.segmentSize > 4096) {
    int64_t segments = *q.n / q.segmentSize + (*q.n % q.segmentSize != 0);
    if (segments < kWarpSlots && !q.variant)
      return StrategyChoice{Variant::Grid, choice->tilesPerWarp,
                            "n = " + std::to_string(*q.n) + " gives " +
                                std::to_string(segments) +
                                " segments, fewer than the GPU's warp slots"};
  }
  return *choice;
}
