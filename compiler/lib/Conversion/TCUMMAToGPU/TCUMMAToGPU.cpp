//===- TCUMMAToGPU.cpp - convert-tcu-mma-to-gpu: tiles to lane fragments --===//
//
// The last step of the GPU backend, after tcu-outline-kernels (kernels),
// tcu-prefetch-chunks and tcu-transpose-mma-operands (right operands as
// their transposes): tiles become per-lane fragments (vector<16x16xT> ->
// vector<8xT>, LaneFragments.h): tcu.mma -> mma.sync.m16n8k16, loads and
// stores -> per-lane accesses that never touch masked-off addresses,
// tcu.split -> the same arithmetic as on the CPU applied to the lane's 8
// elements, the look-back ops -> warp and block code. One dialect
// conversion, so that the products of a tile share one finite check and
// the tile runs found beforehand (TileRuns) are lowered together.
//
//===----------------------------------------------------------------------===//

#include "GPUPatterns.h"
#include "LaneFragments.h"
#include "TileRuns.h"

#include "tcuc/Conversion/Passes.h"
#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tcu {
#define GEN_PASS_DEF_CONVERTTCUMMATOGPU
#include "tcuc/Conversion/Passes.h.inc"
} // namespace mlir::tcu

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

namespace {

void populatePatterns(TypeConverter &types, RewritePatternSet &patterns,
                      FiniteChecks *checks, const TileRuns *runs,
                      ExactIntCasts *exact);

struct ConvertTCUMMAToGPUPass
    : tcu::impl::ConvertTCUMMAToGPUBase<ConvertTCUMMAToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // The right operands must be transposes already (or constant
    // matrices, built transposed here).
    WalkResult transposed = module.walk([](MMAOp mma) {
      if (mma.getRhs().getDefiningOp<MatrixOp>() ||
          mma.getRhs().getDefiningOp<DecayMatrixOp>() || mma.getRhsTransposed())
        return WalkResult::advance();
      mma.emitOpError("right operand must be a constant matrix or a "
                      "transpose (run tcu-transpose-mma-operands first)");
      return WalkResult::interrupt();
    });
    if (transposed.wasInterrupted())
      return signalPassFailure();

    TypeConverter types;
    types.addConversion([](Type t) { return t; });
    types.addConversion([](VectorType t) -> Type {
      return isTile(t) ? fragmentType(t.getElementType()) : t;
    });
    ConversionTarget target(*ctx);
    target.addIllegalOp<
        MatrixOp, DecayMatrixOp, MMAOp, SplitOp, LoadTileOp, StoreTileOp,
        StoreRowOp, GatherOp, RowSumsOp, LinearRecurrenceOp, AllFiniteOp,
        BlockPrefixOp, TicketOp, PrefetchOp, BlockLookbackOp,
        BlockLaggedLookbackOp, LaggedPrefixOp, PositionsOp, OffsetHeadsOp,
        StoreSegmentEndsOp, SegmentedReduceOp, SegmentedScanOp>();
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return types.isLegal(op); });
    RewritePatternSet patterns(ctx);
    FiniteChecks checks;
    ExactIntCasts exact;
    const TileRuns &runs = getAnalysis<TileRuns>();
    // A run's earlier stores are lowered (and erased) by its last one.
    target.addDynamicallyLegalOp<StoreTileOp>(
        [&](StoreTileOp op) { return runs.movedStores.contains(op); });
    populatePatterns(types, patterns, &checks, &runs, &exact);
    scf::populateSCFStructuralTypeConversionsAndLegality(types, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    foldExactIntRoundTrips(module, exact);
    // The kernels' tile runs are lowered: the fact is spent.
    module.walk(
        [](gpu::GPUFuncOp kernel) { kernel->removeAttr(kTileRunsAttr); });
  }
};

/// The patterns, with `checks` shared by the products of one conversion
/// (null: each product checks its own data).
void populatePatterns(TypeConverter &types, RewritePatternSet &patterns,
                      FiniteChecks *checks, const TileRuns *runs,
                      ExactIntCasts *exact) {
  populateTileAccessPatterns(types, patterns, runs);
  populateMMAPatterns(types, patterns, checks);
  populateFragmentPatterns(types, patterns, exact);
  populateRecurrencePatterns(types, patterns);
  populateTicketPrefetchPatterns(types, patterns);
  populateBlockLookbackPatterns(types, patterns);
  populateLaggedLookbackPatterns(types, patterns);
  populateOffsetsPatterns(types, patterns);
}

} // namespace

void mlir::tcu::populateTCUMMAToGPUPatterns(TypeConverter &types,
                                            RewritePatternSet &patterns) {
  populatePatterns(types, patterns, /*checks=*/nullptr, /*runs=*/nullptr,
                   /*exact=*/nullptr);
}

bool gpu_lowering::isTile(Type t) {
  auto v = dyn_cast<VectorType>(t);
  return v && v.getShape() == ArrayRef<int64_t>{kTileSize, kTileSize};
}
