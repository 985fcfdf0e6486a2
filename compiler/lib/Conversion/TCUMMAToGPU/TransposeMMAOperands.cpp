//===- TransposeMMAOperands.cpp - right operands as their transposes ------===//
//
// tcu-transpose-mma-operands: the mma.sync B fragment of X is the A-layout
// fragment of X^T (LaneFragments.h), so before the fragment conversion
// every tcu.mma's right operand that is data (not a constant matrix) is
// re-expressed as its transpose, built next to its definition: a 16-bit
// tile whose elements keep their places, or one a loop carries, is
// transposed in registers (vector.transpose, movmatrix on the GPU), other
// loads are loaded again in the other layout (`rows` as `cols`).
//
//===----------------------------------------------------------------------===//

#include "GPUPatterns.h"

#include "tcuc/Conversion/Passes.h"
#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::tcu {
#define GEN_PASS_DEF_TCUTRANSPOSEMMAOPERANDS
#include "tcuc/Conversion/Passes.h.inc"
} // namespace mlir::tcu

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

namespace {

/// Whether a tile of `elt` can be transposed in registers (movmatrix moves
/// 16-bit elements; i8 travels as f16, exactly).
bool transposesInRegisters(Type elt) {
  return elt.isF16() || elt.isBF16() || elt.isSignlessInteger(8);
}

/// vector.transpose of the tile `v`, right after its definition (at the
/// start of its block for a block argument: a tile carried by a loop).
Value registerTranspose(Value v) {
  OpBuilder b(v.getContext());
  if (Operation *def = v.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
  return vector::TransposeOp::create(b, v.getLoc(), v, ArrayRef<int64_t>{1, 0});
}

/// The transpose of `v`, built next to its definition:
/// - a 16-bit tile load whose elements keep their places: a
///   vector.transpose of it (movmatrix in registers: the load itself is
///   4-byte pairs, where a `cols` load would be one 2-byte load per
///   element);
/// - any other tile load: the load with the other layout (its element
///   order is free, or 32-bit elements would need two movmatrix a pair);
/// - tcu.split of such a load: the split of the transposed load (split is
///   elementwise); a split of anything else: its parts transposed;
/// - any other 16-bit or i8 tile (a tile a loop carries): a
///   vector.transpose.
FailureOr<Value> transposed(Value v, DenseMap<Value, Value> &memo) {
  if (Value t = memo.lookup(v))
    return t;
  Operation *def = v.getDefiningOp();
  Type elt = cast<VectorType>(v.getType()).getElementType();
  OpBuilder b(v.getContext());
  if (auto load = dyn_cast_or_null<LoadTileOp>(def)) {
    if (load.getOrder() == ElementOrder::Fixed && (elt.isF16() || elt.isBF16()))
      return memo[v] = registerTranspose(v);
    // A quads load's order is fixed too, and it has no `cols` form.
    if (load.getOrder() == ElementOrder::Quads) {
      if (!transposesInRegisters(elt))
        return failure();
      return memo[v] = registerTranspose(v);
    }
    b.setInsertionPointAfter(load);
    auto flipped = cast<LoadTileOp>(b.clone(*load));
    flipped.setLayout(load.getLayout() == TileLayout::Rows ? TileLayout::Cols
                                                           : TileLayout::Rows);
    return memo[v] = flipped.getResult();
  }
  if (auto split = dyn_cast_or_null<SplitOp>(def)) {
    if (isa_and_nonnull<LoadTileOp>(split.getSource().getDefiningOp())) {
      FailureOr<Value> source = transposed(split.getSource(), memo);
      if (failed(source))
        return failure();
      b.setInsertionPointAfter(split);
      auto parts =
          SplitOp::create(b, split.getLoc(), split.getResultTypes(), *source);
      parts.setCheckTiny(split.getCheckTiny());
      for (auto [orig, part] :
           llvm::zip(split.getResults(), parts.getResults()))
        memo[orig] = part;
      return memo.lookup(v);
    }
  }
  if (transposesInRegisters(elt))
    return memo[v] = registerTranspose(v);
  return failure();
}

LogicalResult transposeRightOperands(Operation *root) {
  DenseMap<Value, Value> memo;
  WalkResult r = root->walk([&](MMAOp mma) {
    // Constant matrices are built transposed by the lowering.
    if (mma.getRhs().getDefiningOp<MatrixOp>() ||
        mma.getRhs().getDefiningOp<DecayMatrixOp>())
      return WalkResult::advance();
    FailureOr<Value> t = transposed(mma.getRhs(), memo);
    if (failed(t)) {
      mma.emitOpError("right operand must be a constant matrix, loaded "
                      "data (possibly split) or a 16-bit or i8 tile to lower "
                      "to mma.sync");
      return WalkResult::interrupt();
    }
    mma.getRhsMutable().assign(*t);
    mma.setRhsTransposed(true);
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return failure();
  // Originals now used by nothing (a tile only ever used as a right operand)
  // are erased here rather than lowered for nothing and dropped by a later
  // canonicalize. A split goes before the load it reads.
  SetVector<Operation *> defs;
  for (auto &entry : memo)
    if (Operation *def = entry.first.getDefiningOp())
      defs.insert(def);
  SmallVector<Operation *> originals = defs.takeVector();
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *&op : originals)
      if (op && op->use_empty()) {
        op->erase();
        op = nullptr;
        erased = true;
      }
  }
  return success();
}

struct TCUTransposeMMAOperandsPass
    : tcu::impl::TCUTransposeMMAOperandsBase<TCUTransposeMMAOperandsPass> {
  void runOnOperation() override {
    if (failed(transposeRightOperands(getOperation())))
      signalPassFailure();
  }
};

} // namespace
