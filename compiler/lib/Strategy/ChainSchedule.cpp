//===- ChainSchedule.cpp - schedules of the single-pass scans -------------===//
//
// Each rule below was measured on the H100 (sm_90) with n = 2^28; the
// numbers and what else was tried are in docs/rationale.md, section
// "The knobs and where each was decided" (#lagged-knobs), which names
// each rule's anchor.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Strategy/ChainSchedule.h"

using namespace mlir;
using namespace mlir::tcu;

namespace {

constexpr int64_t kMiB = int64_t(1) << 20;

/// The scan a schedule is chosen for.
struct ChainScan {
  Type in, out;
  int64_t tiles, warps;

  bool is(bool (Type::*inIs)() const, bool (Type::*outIs)() const) const {
    return (in.*inIs)() && (out.*outIs)();
  }
  bool f16ToF16() const { return is(&Type::isF16, &Type::isF16); }
  bool f16ToF32() const { return is(&Type::isF16, &Type::isF32); }
  bool bf16ToBF16() const { return is(&Type::isBF16, &Type::isBF16); }
  bool bf16ToF32() const { return is(&Type::isBF16, &Type::isF32); }
  bool i8Input() const { return in.isInteger(8); }
};

/// Wide shape: 16-bit float input, 4 tiles a warp or more, blocks of 8
/// warps. bf16 takes f16's table rows, so it gets this shape where f16 does.
bool wideShape(const ChainScan &s) {
  return (s.in.isF16() || s.in.isBF16()) && s.tiles >= 4 && s.warps == 8;
}

/// L2 prefetch ahead of the reduced chunk: 2 MB for f16 -> f32 and
/// i8 -> i32 (and bf16 -> f32 in the wide shape), 1 MB for f16 -> f16 at 4
/// tiles or more outside the wide shape, else none.
int64_t laggedPrefetchBytes(const ChainScan &s) {
  if (s.f16ToF32() || s.i8Input())
    return 2 * kMiB;
  if (s.bf16ToF32() && wideShape(s))
    return 2 * kMiB;
  if (s.f16ToF16() && s.tiles >= 4 && !wideShape(s))
    return 1 * kMiB;
  return 0;
}

/// The quads tile order: f16 -> f16 at 4 tiles or more, bf16 -> bf16 in
/// the wide shape.
bool laggedQuads(const ChainScan &s) {
  return (s.f16ToF16() && s.tiles >= 4) || (s.bf16ToBF16() && wideShape(s));
}

/// Warps an SM the quads kernels are held to (5 blocks of 4 warps).
constexpr int64_t kQuadsWarpsPerSM = 20;

/// Blocks an SM: 32 warps an SM for 16- and 8-bit input at 2 tiles or
/// fewer, 3 blocks in the wide shape, 20 warps for the quads order, else
/// ptxas's choice.
int64_t laggedBlocksPerSM(const ChainScan &s) {
  if (s.tiles <= 2 && !s.in.isF32())
    return 32 / s.warps;
  if (wideShape(s))
    return 3;
  if (laggedQuads(s) && s.warps <= kQuadsWarpsPerSM)
    return kQuadsWarpsPerSM / s.warps;
  return 0;
}

/// The lag: 6 MB beside a 2 MB prefetch, 9 MB in the wide shape, else
/// 8 MB (the plain default).
int64_t laggedLagBytes(const ChainScan &s) {
  if (laggedPrefetchBytes(s) >= 2 * kMiB)
    return 6 * kMiB;
  return wideShape(s) ? 9 * kMiB : kDefaultLagBytes;
}

/// bf16 -> bf16 walks tickets and shares items as f16 -> f16 does at 4
/// tiles or more.
bool bf16Walks(const ChainScan &s) { return s.bf16ToBF16() && s.tiles >= 4; }

/// Warp 0 finds a ticket's items for the block: f16 and 8-bit input,
/// bf16 -> f32, and bf16 -> bf16 where it walks.
bool laggedSharesItems(const ChainScan &s) {
  return s.in.isF16() || s.i8Input() || s.bf16ToF32() || bf16Walks(s);
}

/// Blocks walk tickets: f16 -> f16, 8-bit input and walking bf16 -> bf16,
/// in blocks of 2 warps or more.
bool laggedWalksTickets(const ChainScan &s) {
  return s.warps >= 2 && (s.f16ToF16() || s.i8Input() || bf16Walks(s));
}

} // namespace

ChainScheduleAttr mlir::tcu::chooseChainSchedule(MLIRContext *ctx,
                                                 Variant variant, Type input,
                                                 Type output,
                                                 int64_t tilesPerWarp,
                                                 int64_t warpsPerBlock) {
  if (variant == Variant::Lookback)
    return ChainScheduleAttr::get(ctx, /*prefetchBytes=*/2 * kMiB);
  if (variant != Variant::Lagged)
    return {};
  ChainScan s{input, output, tilesPerWarp,
              warpsPerBlock ? warpsPerBlock : kDefaultLaggedWarps};
  bool wide = wideShape(s);
  return ChainScheduleAttr::get(
      ctx, laggedPrefetchBytes(s), laggedLagBytes(s), laggedBlocksPerSM(s),
      laggedQuads(s), /*sum_first=*/wide, /*read_early=*/wide,
      laggedSharesItems(s), laggedWalksTickets(s), kDefaultWalkingWarps);
}
