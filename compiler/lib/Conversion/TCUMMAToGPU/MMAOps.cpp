//===- MMAOps.cpp - products, constant matrices and arith on fragments ----===//
//
// tcu.mma as mma.sync (with the exact path for data holding NaN or Inf
// where a product meets a 0/1 matrix), tcu.matrix built in registers,
// tcu.split and elementwise tile arithmetic applied to each lane's 8
// elements, and tcu.block_prefix with a block barrier.
//
//===----------------------------------------------------------------------===//

#include "GPUPatterns.h"
#include "LaneFragments.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

/// The check `build` makes of `fragment`, reused from `cache` where one
/// dominates `at`.
static Value cachedCheck(DenseMap<Value, Value> &cache, OpBuilder &b,
                         Location loc, Value fragment, Operation *at,
                         Value (*build)(OpBuilder &, Location, Value)) {
  if (Value bad = cache.lookup(fragment)) {
    Operation *def = bad.getDefiningOp();
    Operation *ancestor = def->getBlock()->findAncestorOpInBlock(*at);
    if (ancestor && def->isBeforeInBlock(ancestor))
      return bad;
  }
  return cache[fragment] = build(b, loc, fragment);
}

Value FiniteChecks::get(OpBuilder &b, Location loc, Value fragment,
                        Operation *at) {
  return cachedCheck(byFragment, b, loc, fragment, at, anyNonFinite);
}

Value FiniteChecks::getTiny(OpBuilder &b, Location loc, Value fragment,
                            Operation *at) {
  return cachedCheck(tinyByFragment, b, loc, fragment, at, anyTiny);
}

namespace {

struct LowerMatrix : OpConversionPattern<MatrixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatrixOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       buildMatrixFragment(rewriter, op.getLoc(), op.getKind(),
                                           op.getBlock(), false,
                                           op.getType().getElementType()));
    return success();
  }
};

struct LowerMMA : OpConversionPattern<MMAOp> {
  LowerMMA(const TypeConverter &types, MLIRContext *ctx, FiniteChecks *checks)
      : OpConversionPattern(types, ctx), checks(checks) {}
  FiniteChecks *checks; // null: no sharing

  LogicalResult
  matchAndRewrite(MMAOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value rhsT;
    auto rhsMatrix = op.getRhs().getDefiningOp<MatrixOp>();
    if (rhsMatrix)
      rhsT = buildMatrixFragment(rewriter, loc, rhsMatrix.getKind(),
                                 rhsMatrix.getBlock(), true,
                                 rhsMatrix.getType().getElementType());
    else if (op.getRhsTransposed())
      rhsT = adaptor.getRhs();
    else
      return rewriter.notifyMatchFailure(op, "right operand not transposed");
    Value lhs = adaptor.getLhs(), acc = adaptor.getAcc();
    auto lhsMatrix = op.getLhs().getDefiningOp<MatrixOp>();
    MatrixOp matrix = lhsMatrix ? lhsMatrix : rhsMatrix;
    if (!matrix || !isa<FloatType>(op.getLhs().getType().getElementType())) {
      rewriter.replaceOp(op, buildMMA(rewriter, loc, lhs, rhsT, acc));
      return success();
    }
    // A product with a 0/1 matrix must add up the selected elements as IEEE
    // adds would: a NaN or Inf elsewhere in the tile must not reach outputs
    // that do not sum it, which the Tensor Core does (0 · NaN = NaN). Tiles
    // whose data are all finite (checked by the warp) take the mma; the
    // others the exact selected sums (docs/algorithms.md, "NaN and Inf").
    bool constOnLeft = static_cast<bool>(lhsMatrix);
    Value data = constOnLeft ? rhsT : lhs;
    // The last of a split f32 product's three: its tile takes the exact
    // path, summing X's f32 elements from the chain's own accumulator, also
    // where X holds values too small to split whole (the bf16 parts lose
    // their bits below 2^-133), which needs a check even beside Ones.
    if (std::optional<SplitProduct> chain = matchSplitProduct(op)) {
      Value x = rewriter.getRemappedValue(chain->split.getSource());
      Value acc0 = rewriter.getRemappedValue(chain->first.getAcc());
      if (x && acc0 &&
          chain->split.getSource().getType().getElementType().isF32()) {
        Value bad = checks ? checks->getTiny(rewriter, loc, x, op)
                           : anyTiny(rewriter, loc, x);
        if (matrix.getKind() != MatrixKind::Ones)
          bad =
              arith::OrIOp::create(rewriter, loc, bad,
                                   checks ? checks->get(rewriter, loc, data, op)
                                          : anyNonFinite(rewriter, loc, data));
        auto ifOp = scf::IfOp::create(
            rewriter, loc, bad,
            [&](OpBuilder &t, Location l) {
              scf::YieldOp::create(t, l,
                                   buildSelectedSums(t, l, op, matrix.getKind(),
                                                     matrix.getBlock(),
                                                     constOnLeft, x, acc0));
            },
            [&](OpBuilder &e, Location l) {
              scf::YieldOp::create(e, l, buildMMA(e, l, lhs, rhsT, acc));
            });
        rewriter.replaceOp(op, ifOp.getResults());
        return success();
      }
    }
    // The lower parts of a tcu.split are finite by construction (a NaN or
    // Inf stays in `hi`): no check, the mma.
    auto part = dyn_cast<OpResult>(constOnLeft ? op.getRhs() : op.getLhs());
    if (part && isa<SplitOp>(part.getOwner()) && part.getResultNumber() > 0) {
      rewriter.replaceOp(op, buildMMA(rewriter, loc, lhs, rhsT, acc));
      return success();
    }
    // Ones has no zero entry: every output is a sum of 1·x terms, so a NaN
    // or Inf reaches exactly the outputs that sum it, as IEEE adds do (the
    // reductions' Ones·A, the scans' carries A·Ones). No check needed.
    if (matrix.getKind() == MatrixKind::Ones) {
      rewriter.replaceOp(op, buildMMA(rewriter, loc, lhs, rhsT, acc));
      return success();
    }
    // The check reads the tile in A layout where the data is a transposed
    // tile: the same fragment its product on the other side checks.
    Value checked = data;
    if (constOnLeft)
      if (auto t = op.getRhs().getDefiningOp<vector::TransposeOp>())
        if (Value source = rewriter.getRemappedValue(t.getVector()))
          checked = source;
    Value bad = checks ? checks->get(rewriter, loc, checked, op)
                       : anyNonFinite(rewriter, loc, checked);
    auto ifOp = scf::IfOp::create(
        rewriter, loc, bad,
        [&](OpBuilder &t, Location l) {
          scf::YieldOp::create(t, l,
                               buildSelectedSums(t, l, op, matrix.getKind(),
                                                 matrix.getBlock(), constOnLeft,
                                                 data, acc));
        },
        [&](OpBuilder &e, Location l) {
          scf::YieldOp::create(e, l, buildMMA(e, l, lhs, rhsT, acc));
        });
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct LowerSplit : OpConversionPattern<SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildSplitParts(rewriter, op.getLoc(), adaptor.getSource()));
    return success();
  }
};

/// tcu.block_prefix: the warps of the block meet at a barrier between the
/// stores and the loads (every warp runs one iteration of the phase: the
/// outlining checks it).
struct LowerBlockPrefix : OpConversionPattern<BlockPrefixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockPrefixOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(op, lowerBlockPrefix(rewriter, op, [&] {
                         gpu::BarrierOp::create(rewriter, loc);
                       }));
    return success();
  }
};

/// Elementwise arith ops and broadcasts on tiles act on each lane's slots
/// the same way: rebuild them on the fragment type.
struct LowerElementwise : ConversionPattern {
  LowerElementwise(const TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1 || !isTile(op->getResult(0).getType()))
      return failure();
    Type type = getTypeConverter()->convertType(op->getResult(0).getType());
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
      if (!dense || !dense.isSplat())
        return rewriter.notifyMatchFailure(op, "non-splat tile constant");
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, DenseElementsAttr::get(cast<ShapedType>(type),
                                     dense.getSplatValue<Attribute>()));
      return success();
    }
    if (auto bc = dyn_cast<vector::BroadcastOp>(op)) {
      if (isa<VectorType>(bc.getSource().getType()))
        return rewriter.notifyMatchFailure(op, "vector broadcast source");
      rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type, operands[0]);
      return success();
    }
    if (op->getDialect()->getNamespace() != "arith" || op->getNumRegions())
      return failure();
    OperationState state(op->getLoc(), op->getName().getStringRef(), operands,
                         type, op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

} // namespace

void gpu_lowering::populateMMAPatterns(const TypeConverter &types,
                                       RewritePatternSet &patterns,
                                       FiniteChecks *checks) {
  patterns.add<LowerMatrix, LowerSplit, LowerBlockPrefix, LowerElementwise>(
      types, patterns.getContext());
  patterns.add<LowerMMA>(types, patterns.getContext(), checks);
}
