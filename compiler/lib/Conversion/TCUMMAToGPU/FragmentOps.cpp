//===- FragmentOps.cpp - tile operations across a warp's lanes ------------===//
//
// Operations whose result elements come from other lanes' slots (the
// fragment layout is in LaneFragments.h): row sums, extracting one element,
// and transposing a tile. Each is a few shuffles or movmatrix instructions,
// where a Tensor Core product would need split operands or a second load.
//
//===----------------------------------------------------------------------===//

#include "GPUPatterns.h"
#include "LaneFragments.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

namespace {

Value slotOf(OpBuilder &b, Location loc, Value fragment, int64_t s) {
  return vector::ExtractOp::create(b, loc, fragment, ArrayRef<int64_t>{s});
}

/// tcu.row_sums: a lane holds four elements of row g (slots 0, 1, 4, 5) and
/// four of row g + 8 (slots 2, 3, 6, 7); the four lanes 4g..4g+3 together
/// hold both rows. Each lane adds its four, then a butterfly over the four
/// lanes adds theirs. Partners add the same two values, so all four lanes
/// end with the same bits. With `block` < 16, the same within blocks.
struct LowerRowSums : OpConversionPattern<RowSumsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RowSumsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getSource();
    auto slot = [&](int64_t s) { return slotOf(rewriter, loc, x, s); };
    auto add = [&](Value a, Value b) {
      return buildAccumulatorAdd(rewriter, loc, a, b);
    };
    auto across = [&](Value v, int32_t offset) {
      return gpu::ShuffleOp::create(rewriter, loc, v, offset, /*width=*/32,
                                    gpu::ShuffleMode::XOR)
          .getShuffleResult();
    };
    int64_t block = op.getBlock();
    if (block == kTileSize) {
      Value lo = add(add(slot(0), slot(1)), add(slot(4), slot(5)));
      Value hi = add(add(slot(2), slot(3)), add(slot(6), slot(7)));
      for (int32_t offset : {1, 2}) {
        lo = add(lo, across(lo, offset));
        hi = add(hi, across(hi, offset));
      }
      rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
          op, x.getType(), ValueRange{lo, lo, hi, hi, lo, lo, hi, hi});
      return success();
    }
    // Blocks of 2, 4 or 8 columns: a lane's pair of columns (2t, 2t + 1)
    // of each row and half, then the lanes t ^ 1 (4 columns) and t ^ 2 (8).
    // Block 1 leaves every element as it is.
    SmallVector<Value> out;
    for (int64_t s = 0; s < kSlots; ++s)
      out.push_back(slot(s));
    if (block >= 2)
      for (int64_t s = 0; s < kSlots; s += 2) {
        Value pair = add(out[s], out[s + 1]);
        for (int32_t offset = 1; 2 * offset < block; offset *= 2)
          pair = add(pair, across(pair, offset));
        out[s] = out[s + 1] = pair;
      }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, x.getType(), out);
    return success();
  }
};

/// vector.extract of element (r, c) of a tile: the lane that holds it
/// (LaneFragments.h) shares its slot with a shuffle. 8- and 16-bit values
/// travel widened exactly to 32 bits.
struct LowerTileExtract : OpConversionPattern<vector::ExtractOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(vector::ExtractOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isTile(op.getSource().getType()))
      return failure();
    ArrayRef<int64_t> pos = op.getStaticPosition();
    if (op.hasDynamicPosition() || pos.size() != 2)
      return rewriter.notifyMatchFailure(op, "not one element at a constant "
                                             "position");
    LaneSlot at =
        laneSlotOf(static_cast<int>(pos[0]), static_cast<int>(pos[1]));
    Location loc = op.getLoc();
    Value x = slotOf(rewriter, loc, adaptor.getSource(), at.slot);
    Type elt = x.getType();
    Value wide = x;
    if (elt.isF16() || elt.isBF16())
      wide = arith::ExtFOp::create(rewriter, loc, rewriter.getF32Type(), x);
    else if (elt.isSignlessInteger(8))
      wide = arith::ExtSIOp::create(rewriter, loc, rewriter.getI32Type(), x);
    Value shared = gpu::ShuffleOp::create(rewriter, loc, wide, at.lane,
                                          /*width=*/32, gpu::ShuffleMode::IDX)
                       .getShuffleResult();
    if (shared.getType() != elt)
      shared =
          isa<FloatType>(elt)
              ? arith::TruncFOp::create(rewriter, loc, elt, shared).getResult()
              : arith::TruncIOp::create(rewriter, loc, elt, shared).getResult();
    rewriter.replaceOp(op, shared);
    return success();
  }
};

/// vector.transpose of a 16-bit or i8 tile. Register pair q of a fragment
/// is one 8x8 block in the layout `movmatrix` takes (lane 4g + t holds row
/// g, columns 2t and 2t+1): q = 0 rows 0-7 / cols 0-7, q = 1 rows 8-15 /
/// cols 0-7, q = 2 rows 0-7 / cols 8-15, q = 3 rows 8-15 / cols 8-15. Block
/// (i, j) of the transpose is block (j, i) transposed, so each pair goes
/// through movmatrix.trans and pairs 1 and 2 trade places: four
/// instructions instead of reloading the tile with one load per element.
/// i8 elements travel as f16 (exact for |x| <= 2048).
struct LowerTileTranspose : OpConversionPattern<vector::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(vector::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<VectorType>(op.getVector().getType());
    if (!isTile(type))
      return failure();
    Type elt = type.getElementType();
    bool narrow = elt.isSignlessInteger(8);
    if (!elt.isF16() && !elt.isBF16() && !narrow)
      return rewriter.notifyMatchFailure(op, "only 16-bit and i8 tiles "
                                             "transpose in registers");
    Location loc = op.getLoc();
    Value frag = adaptor.getVector();
    Type moved16 = elt;
    if (narrow) {
      moved16 = rewriter.getF16Type();
      frag =
          arith::SIToFPOp::create(rewriter, loc, fragmentType(moved16), frag);
    }
    Type i16 = rewriter.getI16Type(), i32 = rewriter.getI32Type();
    auto c32 = [&](int32_t v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI32IntegerAttr(v));
    };
    auto bits = [&](int64_t s) -> Value {
      Value h = arith::BitcastOp::create(rewriter, loc, i16,
                                         slotOf(rewriter, loc, frag, s));
      return arith::ExtUIOp::create(rewriter, loc, i32, h);
    };
    SmallVector<Value> moved;
    for (int64_t q = 0; q < 4; ++q) {
      Value pair = arith::OrIOp::create(
          rewriter, loc, bits(2 * q),
          arith::ShLIOp::create(rewriter, loc, bits(2 * q + 1), c32(16)));
      moved.push_back(
          NVVM::InlinePtxOp::create(
              rewriter, loc, TypeRange{i32}, ValueRange{pair}, ValueRange{},
              "movmatrix.sync.aligned.m8n8.trans.b16 $0, $1;", Value())
              .getResult(0));
    }
    SmallVector<Value> slots;
    for (int64_t q : {0, 2, 1, 3}) {
      Value w = moved[q];
      Value hi = arith::ShRUIOp::create(rewriter, loc, w, c32(16));
      for (Value half : {w, hi}) {
        Value h = arith::TruncIOp::create(rewriter, loc, i16, half);
        slots.push_back(arith::BitcastOp::create(rewriter, loc, moved16, h));
      }
    }
    Value result = vector::FromElementsOp::create(rewriter, loc,
                                                  fragmentType(moved16), slots);
    if (narrow) {
      auto back =
          arith::FPToSIOp::create(rewriter, loc, fragmentType(elt), result);
      back->setAttr(kExactIntAttr, rewriter.getUnitAttr());
      result = back;
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void gpu_lowering::foldExactIntRoundTrips(Operation *root) {
  root->walk([](arith::SIToFPOp widen) {
    auto narrow = widen.getIn().getDefiningOp<arith::FPToSIOp>();
    if (!narrow || !narrow->hasAttr(kExactIntAttr) ||
        narrow.getIn().getType() != widen.getType())
      return;
    widen.replaceAllUsesWith(narrow.getIn());
    widen.erase();
    if (narrow->use_empty())
      narrow.erase();
  });
}

void gpu_lowering::populateFragmentPatterns(const TypeConverter &types,
                                            RewritePatternSet &patterns) {
  patterns.add<LowerRowSums, LowerTileExtract, LowerTileTranspose>(
      types, patterns.getContext());
}
