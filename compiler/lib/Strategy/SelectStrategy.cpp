//===- SelectStrategy.cpp - the tcu-select-strategy pass ------------------===//

#include "tcuc/Strategy/ChainSchedule.h"
#include "tcuc/Strategy/CostModel.h"
#include "tcuc/Strategy/Passes.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/MemoryBuffer.h"

namespace mlir::tcu {
#define GEN_PASS_DEF_TCUSELECTSTRATEGY
#include "tcuc/Strategy/Passes.h.inc"
} // namespace mlir::tcu

using namespace mlir;
using namespace mlir::tcu;

namespace {

/// Tiles in flight in a balanced walk's stretches without heads.
constexpr int64_t kBalancedTilesInFlight = 2;

/// Gives a single-pass scan without a schedule the one its variant, types,
/// tiles and warps call for (ChainSchedule.h).
void scheduleChain(SegmentedScanOp op) {
  std::optional<Variant> variant = op.getVariant();
  if (op.getScheduleAttr() || !variant)
    return;
  if (ChainScheduleAttr schedule = chooseChainSchedule(
          op.getContext(), *variant, op.getInputType().getElementType(),
          op.getOutputType().getElementType(), op.getTilesPerWarpOrDefault(),
          op.getWarpsPerBlockOrZero()))
    op.setScheduleAttr(schedule);
}

template <typename OpT>
void choose(OpT op, bool isScan, const std::string &chip,
            const std::string &gpu, bool explain, bool chooseTiles,
            ArrayRef<TunedRow> table) {
  if (op.getVariant() && (op.getTilesPerWarp() || !chooseTiles))
    return;
  // A runtime segment size: the tables are per size, so the variant is the
  // one that takes every size (or the one given), with one tile per warp.
  // Offsets likewise: one kernel for any segment lengths.
  if (op.hasRuntimeSegmentSize() || op.hasOffsets()) {
    op.setVariant(op.getVariantOrDefault());
    // The balanced walk keeps that many tiles in flight where it streams a
    // stretch without heads (docs/rationale.md#balanced).
    if (!op.getTilesPerWarp() && chooseTiles)
      op.setTilesPerWarp(
          *op.getVariant() == Variant::Balanced ? kBalancedTilesInFlight : 1);
    if (explain)
      op.emitRemark() << "variant " << stringifyVariant(*op.getVariant())
                      << ", " << op.getTilesPerWarpOrDefault()
                      << " tile(s) per warp: "
                      << (op.hasOffsets()
                              ? "segments from offsets (one kernel for any "
                                "lengths)"
                              : "runtime segment size (one kernel for every "
                                "size the variant takes)");
    return;
  }
  StrategyQuery q;
  if (auto v = op.getVariant())
    q.variant = *v;
  q.isScan = isScan;
  q.input = elementTypeName(op.getInputType().getElementType());
  q.output = elementTypeName(op.getOutputType().getElementType());
  q.segmentSize = op.getSegmentSize();
  if (op.getInputType().hasStaticShape())
    q.n = op.getInputType().getNumElements();
  q.arch = chip;
  q.gpu = gpu;
  StrategyChoice c = selectStrategy(q, table);
  op.setVariant(c.variant);
  if (!op.getTilesPerWarp() && chooseTiles)
    op.setTilesPerWarp(c.tilesPerWarp);
  // The row's warps per block were measured with its variant (a row gives
  // them only to a variant that takes them).
  if (!op.getWarpsPerBlock() && chooseTiles && c.warpsPerBlock)
    op.setWarpsPerBlock(c.warpsPerBlock);
  if (explain) {
    InFlightDiagnostic remark = op.emitRemark();
    remark << "variant " << stringifyVariant(c.variant) << ", "
           << op.getTilesPerWarpOrDefault() << " tile(s) per warp";
    if (op.getWarpsPerBlock())
      remark << ", " << *op.getWarpsPerBlock() << " warps per block";
    remark << ": " << c.reason;
  }
}

/// A decayed scan has a form in the variants of isDecayVariant only, whatever
/// the table says of plain scans: seg16 (16), seg256 (256) and packed (any
/// other S up to tcuc::defaultPackedDecayedSegment); seg256n for longer,
/// runtime-size and offsets segments, and the grid (many warps a segment)
/// for a constant S of at least kDecayedGridMinSegment,
/// kDecayedTilesInFlight tiles loaded before the first is scanned
/// (docs/rationale.md#decayed-scans).
constexpr int64_t kDecayedTilesInFlight = 2;
constexpr int64_t kDecayedGridMinSegment = 131072;
/// The sizes whose segments fill whole tile rows (seg16) or whole tiles
/// (seg256); the others take `packed` (whole segments packed into a warp's
/// run of tiles, one tile loaded at a time: two in flight measured slower),
/// which measured faster than a row or a tile a segment at 7..13 and
/// 192..255 (docs/rationale.md#packed-decayed-scans) and than the walk up
/// to 768, 960 for one decay of 16-bit input
/// (docs/rationale.md#packed-classes).
constexpr int64_t kDecayedSeg16Segment = 16;
constexpr int64_t kDecayedSeg256Segment = 256;

/// The tiles on CUDA cores where the matrices' products cost more than
/// the recurrence: f32 data (nine products a matrix), every variant whose
/// tiles run in the lanes order (packed, seg256, seg256n, the grid) and
/// per-segment decays (no shared matrix); the Tensor Core matrices for
/// 16-bit seg16, a product a row (docs/rationale.md#one-decay-on-cuda-cores).
DecayForm decayFormFor(SegmentedScanOp op, Variant v) {
  bool matrices = !op.getDecays() &&
                  !op.getInputType().getElementType().isF32() &&
                  v == Variant::Seg16;
  return matrices ? DecayForm::Matrices : DecayForm::Recurrence;
}

/// How a decayed scan's warps walk (#tcu.walk_schedule), measured on the
/// H200 (docs/rationale.md#walk-schedule): seg256n walks prefetch two
/// tiles ahead (the next pair of tiles in flight), but reverse 16-bit ones
/// (slower at 769..1001) and the grid (slower); reverse packed groups of
/// a constant S prefetch (16-bit: the whole group at its start, f32: two
/// tiles ahead); the packed class kernel (a runtime S: more registers than
/// the per-size one) is capped at 56 registers but forward with
/// per-segment decays (it spilled), and reverse 16-bit with per-segment
/// decays prefetches its group instead (the cap and the prefetch together
/// were slower).
constexpr int64_t kWalkPrefetchTiles = 2;
constexpr int64_t kPackedF32PrefetchTiles = 2;
constexpr int64_t kPackedClassRegisters = 56;

WalkScheduleAttr walkScheduleFor(SegmentedScanOp op, Variant v) {
  bool reverse = op.getReverse();
  bool f32 = op.getInputType().getElementType().isF32();
  int64_t prefetch = 0, registers = 0;
  if (v == Variant::Seg256N && (!reverse || f32)) {
    prefetch = kWalkPrefetchTiles;
  } else if (v == Variant::Packed && !op.hasRuntimeSegmentSize()) {
    if (reverse)
      prefetch = f32 ? kPackedF32PrefetchTiles : tcu::kPackedGroupTiles;
  } else if (v == Variant::Packed) {
    if (reverse && op.getDecays() && !f32)
      prefetch = tcu::kPackedGroupTiles;
    else if (reverse || !op.getDecays())
      registers = kPackedClassRegisters;
  }
  if (!prefetch && !registers)
    return {};
  return WalkScheduleAttr::get(op.getContext(), prefetch, registers);
}

LogicalResult chooseDecayed(SegmentedScanOp op, bool explain) {
  if (std::optional<Variant> given = op.getVariant()) {
    // The variant is checked by the verifier; the form follows it.
    if (!op.getDecayForm())
      op.setDecayForm(decayFormFor(op, *given));
    if (!op.getWalkSchedule())
      if (WalkScheduleAttr schedule = walkScheduleFor(op, *given))
        op.setWalkScheduleAttr(schedule);
    return success();
  }
  // Per-segment decays take the same variants (their tiles scan on CUDA
  // cores: docs/algorithms.md#per-segment-decays).
  bool sixteenBit = op.getInputType().getElementTypeBitWidth() == 16;
  bool walk = op.hasRuntimeSegmentSize() || op.hasOffsets() ||
              op.getSegmentSize() > tcuc::defaultPackedDecayedSegment(
                                        sixteenBit, bool(op.getDecays()));
  bool grid = !op.hasRuntimeSegmentSize() && !op.hasOffsets() &&
              op.getSegmentSize() >= kDecayedGridMinSegment;
  int64_t size = op.getSegmentSize();
  Variant v = grid                            ? Variant::Grid
              : walk                          ? Variant::Seg256N
              : size == kDecayedSeg16Segment  ? Variant::Seg16
              : size != kDecayedSeg256Segment ? Variant::Packed
                                              : Variant::Seg256;
  op.setVariant(v);
  if (!op.getTilesPerWarp() && walk)
    op.setTilesPerWarp(kDecayedTilesInFlight);
  if (!op.getDecayForm())
    op.setDecayForm(decayFormFor(op, v));
  if (!op.getWalkSchedule())
    if (WalkScheduleAttr schedule = walkScheduleFor(op, v))
      op.setWalkScheduleAttr(schedule);
  if (explain) {
    InFlightDiagnostic remark = op.emitRemark();
    remark << "variant " << stringifyVariant(v) << ", "
           << op.getTilesPerWarpOrDefault()
           << " tile(s) per warp: a decayed scan (decay "
           << (op.getDecays()       ? std::string("per segment")
               : op.getDecayValue() ? std::string("given at run time")
                                    : formatDecay(float(*op.getDecayFactor())))
           << ") has a form in seg16, seg256, packed, seg256n and "
              "grid only; tiles by "
           << stringifyDecayForm(*op.getDecayForm());
    if (WalkScheduleAttr schedule = op.getWalkScheduleAttr())
      remark << "; walk schedule " << schedule
             << " (docs/rationale.md#walk-schedule)";
  }
  return success();
}

struct TCUSelectStrategyPass
    : tcu::impl::TCUSelectStrategyBase<TCUSelectStrategyPass> {
  using Base::Base;
  void runOnOperation() override {
    // The rows view the file's text: it lives as long as they do.
    std::unique_ptr<llvm::MemoryBuffer> text;
    std::vector<TunedRow> rows;
    if (!table.empty()) {
      auto file = llvm::MemoryBuffer::getFile(table);
      std::string error;
      if (!file)
        error = file.getError().message();
      else if ((text = std::move(*file)))
        parseTunedTable(text->getBuffer(), rows, error);
      if (!error.empty()) {
        getOperation()->emitError()
            << "tcu-select-strategy: tuned table '" << table << "': " << error;
        return signalPassFailure();
      }
    }
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      if (auto r = dyn_cast<SegmentedReduceOp>(op))
        choose(r, /*isScan=*/false, chip, gpu, explain, chooseTiles, rows);
      else if (auto s = dyn_cast<SegmentedScanOp>(op)) {
        if (s.isDecayed()) {
          failed |= mlir::failed(chooseDecayed(s, explain));
          return;
        }
        choose(s, /*isScan=*/true, chip, gpu, explain, chooseTiles, rows);
        scheduleChain(s);
      }
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace

std::optional<StrategyChoice> mlir::tcu::getChosenStrategy(Operation *root) {
  std::optional<StrategyChoice> chosen;
  int collectives = 0;
  auto read = [&](auto op) {
    ++collectives;
    if (std::optional<Variant> v = op.getVariant())
      chosen = StrategyChoice{*v, op.getTilesPerWarpOrDefault(),
                              op.getWarpsPerBlockOrZero(), ""};
  };
  root->walk([&](Operation *op) {
    if (auto r = dyn_cast<SegmentedReduceOp>(op))
      read(r);
    else if (auto s = dyn_cast<SegmentedScanOp>(op))
      read(s);
  });
  if (collectives != 1)
    return std::nullopt;
  return chosen;
}
