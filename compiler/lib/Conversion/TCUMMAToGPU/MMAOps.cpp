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
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

Value FiniteChecks::get(OpBuilder &b, Location loc, Value fragment,
                        Operation *at) {
  if (Value bad = byFragment.lookup(fragment)) {
    Operation *def = bad.getDefiningOp();
    Operation *ancestor = def->getBlock()->findAncestorOpInBlock(*at);
    if (ancestor && def->isBeforeInBlock(ancestor))
      return bad;
  }
  return byFragment[fragment] = anyNonFinite(b, loc, fragment);
}

namespace {

/// The tile whose finite check decides `v`'s: through transposes (the same
/// elements) and selects that put zeros in (x finite makes select(m, x, 0)
/// finite; a NaN masked off only sends the tile to the exact path), so the
/// streaming scan's masked copies of a loaded tile share its one check.
Value finiteSource(Value v) {
  while (true) {
    if (auto t = v.getDefiningOp<vector::TransposeOp>()) {
      v = t.getVector();
      continue;
    }
    if (auto s = v.getDefiningOp<arith::SelectOp>())
      if (matchPattern(s.getFalseValue(), m_AnyZeroFloat())) {
        v = s.getTrueValue();
        continue;
      }
    return v;
  }
}

/// The converted fragment of finiteSource(v), or `fallback` where it has
/// none.
Value checkedFragment(ConversionPatternRewriter &rewriter, Value v,
                      Value fallback) {
  Value source = finiteSource(v);
  if (source == v)
    return fallback;
  Value remapped = rewriter.getRemappedValue(source);
  return remapped ? remapped : fallback;
}

/// The product `op` (operands lhs, rhsT, acc) as mma.sync where the data
/// tile `dataOp` (its fragment `data`) is finite in every lane, else as
/// `exact` builds it: the check (shared through `checks`) and the branch.
Value exactOrMMA(ConversionPatternRewriter &rewriter, Location loc,
                 Operation *op, Value dataOp, Value data, Value lhs, Value rhsT,
                 Value acc, FiniteChecks *checks,
                 function_ref<Value(OpBuilder &, Location)> exact) {
  Value checked = checkedFragment(rewriter, dataOp, data);
  Value bad = checks ? checks->get(rewriter, loc, checked, op)
                     : anyNonFinite(rewriter, loc, checked);
  auto ifOp = scf::IfOp::create(
      rewriter, loc, bad,
      [&](OpBuilder &t, Location l) {
        scf::YieldOp::create(t, l, exact(t, l));
      },
      [&](OpBuilder &e, Location l) {
        scf::YieldOp::create(e, l, buildMMA(e, l, lhs, rhsT, acc));
      });
  return ifOp.getResult(0);
}

/// Where a product sits in a chain of split products
/// (tcu::matchSplitProduct): position 0 is the first (the lowest part's).
struct ChainMember {
  SplitProduct chain;
  unsigned position;
};

std::optional<ChainMember> splitChainMember(MMAOp op) {
  bool constOnLeft = static_cast<bool>(op.getLhs().getDefiningOp<MatrixOp>());
  auto part = dyn_cast<OpResult>(constOnLeft ? op.getRhs() : op.getLhs());
  auto split = part ? dyn_cast<SplitOp>(part.getOwner()) : SplitOp();
  if (!split)
    return std::nullopt;
  // Part p's product is followed by p more (the higher parts').
  MMAOp last = op;
  for (unsigned p = part.getResultNumber(); p > 0; --p) {
    if (!last->hasOneUse())
      return std::nullopt;
    auto next = dyn_cast<MMAOp>(*last->user_begin());
    if (!next || next.getAcc() != last.getResult())
      return std::nullopt;
    last = next;
  }
  std::optional<SplitProduct> chain = matchSplitProduct(last);
  if (!chain || chain->split != split)
    return std::nullopt;
  return ChainMember{*chain, split.getNumResults() - 1 -
                                 unsigned(part.getResultNumber())};
}

/// vote.sync.any over the warp.
Value voteAny(OpBuilder &b, Location loc, Value mine) {
  Value all = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(-1));
  return NVVM::VoteSyncOp::create(b, loc, b.getI1Type(), all, mine,
                                  NVVM::VoteSyncKind::any);
}

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

/// A decay matrix (decayed scans) as a left operand or an f32 weight tile;
/// as a right operand LowerMMA builds its transpose.
struct LowerDecayMatrix : OpConversionPattern<DecayMatrixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DecayMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, buildDecayFragment(rewriter, op.getLoc(), op,
                                              adaptor.getDecayValue(),
                                              /*transposed=*/false));
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
    else if (auto decay = op.getRhs().getDefiningOp<DecayMatrixOp>())
      rhsT = buildDecayFragment(
          rewriter, loc, decay,
          decay.getDecayValue()
              ? rewriter.getRemappedValue(decay.getDecayValue())
              : Value(),
          /*transposed=*/true);
    else if (op.getRhsTransposed())
      rhsT = adaptor.getRhs();
    else
      return rewriter.notifyMatchFailure(op, "right operand not transposed");
    Value lhs = adaptor.getLhs(), acc = adaptor.getAcc();
    auto lhsMatrix = op.getLhs().getDefiningOp<MatrixOp>();
    MatrixOp matrix = lhsMatrix ? lhsMatrix : rhsMatrix;
    bool isFloat = isa<FloatType>(op.getLhs().getType().getElementType());
    // A mask matrix on the left (the streaming scan's L_seg) selects as a
    // named matrix does: tiles with NaN or Inf take the exact sums, with
    // the selection read from the mask's lanes.
    if (Value mask = matchMaskMatrix(op.getLhs()); mask && isFloat) {
      rewriter.replaceOp(
          op, exactOrMMA(rewriter, loc, op, op.getRhs(), rhsT, lhs, rhsT, acc,
                         checks, [&](OpBuilder &t, Location l) {
                           return buildMaskedSums(t, l, op, lhs, rhsT, acc);
                         }));
      return success();
    }
    if (!matrix || !isFloat) {
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
    // The products of a check_tiny split (f32 input): the tile is checked
    // once, at the first product, for values the parts lose (below 2^-110)
    // and, beside a matrix with zeros, for NaN and Inf; such a tile is
    // summed unsplit there, on the exact path, and the chain's later
    // products pass its result on. Checked first, the unsplit tile and the
    // chain's accumulator need not live past the first product.
    if (auto member = splitChainMember(op);
        member && member->chain.split.getCheckTiny()) {
      SplitOp split = member->chain.split;
      Value bad;
      if (member->position == 0) {
        Value x = rewriter.getRemappedValue(split.getSource());
        Value lossy = checks ? checks->lossyBySplit.lookup(split) : Value();
        bad = lossy ? voteAny(rewriter, loc, lossy) : anyTiny(rewriter, loc, x);
        if (matrix.getKind() != MatrixKind::Ones)
          bad = arith::OrIOp::create(
              rewriter, loc, bad,
              anyNonFinite(rewriter, loc,
                           rewriter.getRemappedValue(split.getResult(0))));
        if (checks)
          checks->badByChain[split] = bad;
        auto ifOp = scf::IfOp::create(
            rewriter, loc, bad,
            [&](OpBuilder &t, Location l) {
              scf::YieldOp::create(t, l,
                                   buildSelectedSums(t, l, op, matrix.getKind(),
                                                     matrix.getBlock(),
                                                     constOnLeft, x, acc));
            },
            [&](OpBuilder &e, Location l) {
              scf::YieldOp::create(e, l, buildMMA(e, l, lhs, rhsT, acc));
            });
        rewriter.replaceOp(op, ifOp.getResults());
        return success();
      }
      bad = checks ? checks->badByChain.lookup(split) : Value();
      if (bad) {
        auto ifOp = scf::IfOp::create(
            rewriter, loc, bad,
            [&](OpBuilder &t, Location l) { scf::YieldOp::create(t, l, acc); },
            [&](OpBuilder &e, Location l) {
              scf::YieldOp::create(e, l, buildMMA(e, l, lhs, rhsT, acc));
            });
        rewriter.replaceOp(op, ifOp.getResults());
        return success();
      }
      return rewriter.notifyMatchFailure(
          op, "a later product of a check_tiny split needs the shared checks");
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
    rewriter.replaceOp(
        op,
        exactOrMMA(rewriter, loc, op, constOnLeft ? op.getRhs() : op.getLhs(),
                   data, lhs, rhsT, acc, checks, [&](OpBuilder &t, Location l) {
                     return buildSelectedSums(t, l, op, matrix.getKind(),
                                              matrix.getBlock(), constOnLeft,
                                              data, acc);
                   }));
    return success();
  }
};

struct LowerSplit : OpConversionPattern<SplitOp> {
  LowerSplit(const TypeConverter &types, MLIRContext *ctx, FiniteChecks *checks)
      : OpConversionPattern(types, ctx), checks(checks) {}
  FiniteChecks *checks; // null: the products check the source themselves

  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value rest;
    SmallVector<Value> parts =
        buildSplitParts(rewriter, loc, adaptor.getSource(), &rest);
    if (checks && op.getCheckTiny()) {
      // The lane's elements lose bits exactly where the rest `lo` was cut
      // from has low 16 bits: one or-reduction and one test a lane, cheaper
      // than testing every element's range (anyTiny).
      Type i32 = rewriter.getI32Type();
      Value low = vector::ReductionOp::create(rewriter, loc,
                                              vector::CombiningKind::OR, rest);
      checks->lossyBySplit[op] = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne,
          arith::AndIOp::create(
              rewriter, loc, low,
              arith::ConstantOp::create(rewriter, loc,
                                        rewriter.getI32IntegerAttr(0xFFFF))),
          arith::ConstantOp::create(rewriter, loc, i32,
                                    rewriter.getI32IntegerAttr(0)));
    }
    rewriter.replaceOp(op, parts);
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

/// Whether an elementwise op computes or consumes an i1 tile.
bool involvesMasks(Operation *op) {
  auto isMask = [](Type t) {
    auto v = dyn_cast<VectorType>(t);
    return v && v.getElementType().isInteger(1);
  };
  return llvm::any_of(op->getOperandTypes(), isMask) ||
         llvm::any_of(op->getResultTypes(), isMask);
}

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
    if (!involvesMasks(op)) {
      OperationState state(op->getLoc(), op->getName().getStringRef(), operands,
                           type, op->getAttrs());
      rewriter.replaceOp(op, rewriter.create(state)->getResults());
      return success();
    }
    // Masks (i1 tiles: comparisons, their logic, selects) slot by slot: as
    // vector<8xi1> the NVPTX back end packs them into integers and tests
    // each bit with shifts; as scalars they are predicates.
    Location loc = op->getLoc();
    Type elt = cast<VectorType>(type).getElementType();
    SmallVector<Value> slots;
    for (int64_t s = 0; s < kSlots; ++s) {
      SmallVector<Value> scalars;
      for (Value v : operands)
        scalars.push_back(isa<VectorType>(v.getType())
                              ? vector::ExtractOp::create(rewriter, loc, v,
                                                          ArrayRef<int64_t>{s})
                                    .getResult()
                              : v);
      OperationState state(loc, op->getName().getStringRef(), scalars, elt,
                           op->getAttrs());
      slots.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, slots);
    return success();
  }
};

} // namespace

void gpu_lowering::populateMMAPatterns(const TypeConverter &types,
                                       RewritePatternSet &patterns,
                                       FiniteChecks *checks) {
  patterns
      .add<LowerMatrix, LowerDecayMatrix, LowerBlockPrefix, LowerElementwise>(
          types, patterns.getContext());
  patterns.add<LowerMMA, LowerSplit>(types, patterns.getContext(), checks);
}
