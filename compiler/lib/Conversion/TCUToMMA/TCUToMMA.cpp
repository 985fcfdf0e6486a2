//===- TCUToMMA.cpp - convert-tcu-to-mma ----------------------------------===//
//
// Rewrites each tcu collective into the algorithm of its variant
// (ReduceVariants.cpp, ScanVariants.cpp, LookbackScan.cpp, LaggedScan.cpp),
// tuned only by what tcu-select-strategy left on the op.
//
//===----------------------------------------------------------------------===//

#include "Variants.h"

#include "tcuc/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcu {
#define GEN_PASS_DEF_CONVERTTCUTOMMA
#include "tcuc/Conversion/Passes.h.inc"
} // namespace mlir::tcu

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::detail;

namespace {

/// Makes `c` a reverse scan: the forward algorithm runs on the mirrored
/// view of n' = n rounded up to a multiple of the segment size S elements
/// (n' = n when n <= S, one segment; n' = n with offsets), logical index L
/// being element n' - 1 - L and the n' - n logical elements below n' - n
/// zero padding. The logical segments then begin at multiples of S: they
/// are the physical ones reversed (docs/algorithms.md#reverse-scans).
void mirror(TileBuilder &tb, Collective &c) {
  c.reverse = true;
  // With offsets n comes from the last one: each work item mirrors its
  // views (offsetsItem), and the offsets are read mirrored (readOffset).
  if (c.offsets)
    return;
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value n = c.n, s = c.segment;
  // pad = (S - n mod S) mod S, only with two segments or more (n > S): a
  // segment longer than the input must not make n' (the work and the
  // scratch) S. [n > S] is max(min(n - S, 1), 0): the kernel file's size
  // expressions have no select.
  Value rest =
      arith::SubIOp::create(b, loc, s, arith::RemUIOp::create(b, loc, n, s));
  Value pad = arith::RemUIOp::create(b, loc, rest, s);
  Value several = arith::MaxSIOp::create(
      b, loc, tb.min(arith::SubIOp::create(b, loc, n, s), tb.idx(1)),
      tb.idx(0));
  c.n = tb.add(n, tb.mul(pad, several));
  tb.setMirror(arith::SubIOp::create(b, loc, c.n, tb.idx(1)),
               {c.input, c.output});
}

/// The operands of `op` as the emitters want them.
template <typename OpTy>
Collective describe(TileBuilder &tb, OpTy op, bool inclusive) {
  Collective c;
  c.input = op.getInput();
  c.output = op.getOutput();
  c.n = memref::DimOp::create(tb.builder(), tb.location(), c.input, 0);
  if (Value offsets = op.getOffsets()) {
    // k+1 offsets, k segments (none for an empty offsets buffer).
    c.segmentSize = ShapedType::kDynamic;
    c.offsets = offsets;
    Value entries =
        memref::DimOp::create(tb.builder(), tb.location(), offsets, 0);
    c.numSegments = arith::MaxSIOp::create(
        tb.builder(), tb.location(),
        arith::SubIOp::create(tb.builder(), tb.location(), entries, tb.idx(1)),
        tb.idx(0));
  } else if (Value size = op.getDynamicSegmentSize()) {
    // A runtime size: only the variants that take one (the verifier).
    c.segmentSize = ShapedType::kDynamic;
    c.segment = size;
    c.numSegments = tb.ceilDiv(c.n, size);
  } else {
    c.segmentSize = op.getSegmentSize();
    c.segment = tb.idx(c.segmentSize);
    c.numSegments = tb.ceilDiv(c.n, c.segmentSize);
  }
  c.isScan = std::is_same_v<OpTy, SegmentedScanOp>;
  c.inclusive = inclusive;
  c.tilesPerWarp = op.getTilesPerWarpOrDefault();
  // f32 data, and sums of it, can hold values the split parts lose.
  tb.setSplitsCheckTiny(op.getInputType().getElementType().isF32());
  c.warpsPerBlock = op.getWarpsPerBlockOrZero();
  if constexpr (std::is_same_v<OpTy, SegmentedScanOp>) {
    c.schedule = op.getScheduleAttr();
    if (std::optional<double> a = op.getDecayFactor())
      c.decay = static_cast<float>(*a); // an f32 attribute: exact
    c.decayValue = op.getDecayValue();
    c.decays = op.getDecays();
    c.decayRecurrence =
        op.getDecays() || op.getDecayForm() == DecayForm::Recurrence;
    c.walkSchedule = op.getWalkScheduleAttr();
    if (op.getReverse())
      mirror(tb, c);
  }
  return c;
}

struct LowerSegmentedReduce : OpRewritePattern<SegmentedReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SegmentedReduceOp op,
                                PatternRewriter &rewriter) const override {
    TileBuilder tb(rewriter, op.getLoc());
    // (Offsets: the verifier allows seg256n only, which reads them.)
    emitReduce(tb,
               describe(tb, op, /*inclusive=*/false), // unused by reductions
               op.getVariantOrDefault());
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerSegmentedScan : OpRewritePattern<SegmentedScanOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SegmentedScanOp op,
                                PatternRewriter &rewriter) const override {
    TileBuilder tb(rewriter, op.getLoc());
    Collective c = describe(tb, op, op.getInclusive());
    if (op.isDecayed())
      scanDecayed(tb, c, op.getVariantOrDefault());
    else
      emitScan(tb, c, op.getVariantOrDefault());
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertTCUToMMAPass
    : tcu::impl::ConvertTCUToMMABase<ConvertTCUToMMAPass> {
  void runOnOperation() override {
    // A decayed scan has a form in a few variants only; without a variant
    // (no tcu-select-strategy) the default for its size must be one.
    WalkResult unsupported = getOperation()->walk([](SegmentedScanOp op) {
      if (!op.isDecayed() || isDecayVariant(op.getVariantOrDefault()))
        return WalkResult::advance();
      op.emitOpError() << "decayed scans are implemented for variants "
                          "'seg16', 'seg256', 'packed', 'seg256n' and 'grid' "
                          "only, got variant '"
                       << stringifyVariant(op.getVariantOrDefault()) << "'";
      return WalkResult::interrupt();
    });
    if (unsupported.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateTCUToMMAPatterns(patterns);
    // Each collective is rewritten once, where it stands; no folding of the
    // produced IR here (canonicalize runs after, in the pipelines).
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace

void mlir::tcu::populateTCUToMMAPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerSegmentedReduce, LowerSegmentedScan>(patterns.getContext());
}
