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
  LowerTileTranspose(const TypeConverter &types, MLIRContext *ctx,
                     ExactIntCasts *exact)
      : OpConversionPattern(types, ctx), exact(exact) {}
  ExactIntCasts *exact; // null: not recorded

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
    // A pair of 16-bit slots is one 32-bit register: a bitcast of the
    // slots' 2-vector, not halves shifted and or-ed (which ptxas, CUDA 13.0,
    // kept as two PRMT a pair, 8 a tile: ncu, bench/results/
    // lagged-f16-0.6.24).
    Type i32 = rewriter.getI32Type();
    auto pairType = VectorType::get({2}, moved16);
    auto wordType = VectorType::get({1}, i32);
    SmallVector<Value> moved;
    for (int64_t q = 0; q < 4; ++q) {
      Value pair = vector::ShuffleOp::create(
          rewriter, loc, frag, frag, ArrayRef<int64_t>{2 * q, 2 * q + 1});
      Value word = vector::ExtractOp::create(
          rewriter, loc,
          vector::BitCastOp::create(rewriter, loc, wordType, pair), int64_t(0));
      moved.push_back(
          NVVM::InlinePtxOp::create(
              rewriter, loc, TypeRange{i32}, ValueRange{word}, ValueRange{},
              "movmatrix.sync.aligned.m8n8.trans.b16 $0, $1;", Value())
              .getResult(0));
    }
    auto pairOf = [&](int64_t q) -> Value {
      Value word = vector::FromElementsOp::create(rewriter, loc, wordType,
                                                  ValueRange{moved[q]});
      return vector::BitCastOp::create(rewriter, loc, pairType, word);
    };
    auto concat = [&](Value x, Value y) -> Value {
      int64_t n = cast<VectorType>(x.getType()).getNumElements();
      SmallVector<int64_t> mask(2 * n);
      for (int64_t i = 0; i < 2 * n; ++i)
        mask[i] = i;
      return vector::ShuffleOp::create(rewriter, loc, x, y, mask);
    };
    Value result =
        concat(concat(pairOf(0), pairOf(2)), concat(pairOf(1), pairOf(3)));
    if (narrow) {
      auto back =
          arith::FPToSIOp::create(rewriter, loc, fragmentType(elt), result);
      if (exact)
        exact->narrowings.insert(back);
      result = back;
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// tcu.positions: slot s of lane 4g + t is element (row(s), col(s)), a
/// lane value (g, or 2t) plus a constant of the slot.
struct LowerPositions : OpConversionPattern<PositionsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PositionsOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    bool rows = op.getDim() == TileLayout::Rows;
    bool quads = op.getOrder() == ElementOrder::Quads;
    bool lanes = op.getOrder() == ElementOrder::Lanes;
    LanePosition lane = getLanePosition(rewriter, loc);
    auto c = [&](int64_t v) {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    // Column 2t + j (j = s & 1 + 8 (s >> 2)) is line position 4t +
    // quadsPosition(j) in the quads order. In the lanes order lane 4g + t
    // holds place 8 (4g + t) + s: line 2g + t / 2, position 8 (t % 2) + s.
    Value first;
    if (lanes)
      first =
          rows ? arith::AddIOp::create(
                     rewriter, loc,
                     arith::MulIOp::create(rewriter, loc, lane.g, c(2)),
                     arith::DivUIOp::create(rewriter, loc, lane.t, c(2)))
                     .getResult()
               : arith::MulIOp::create(
                     rewriter, loc,
                     arith::RemUIOp::create(rewriter, loc, lane.t, c(2)), c(8))
                     .getResult();
    else
      first =
          rows ? lane.g
               : arith::MulIOp::create(rewriter, loc, lane.t, c(quads ? 4 : 2))
                     .getResult();
    first = arith::IndexCastOp::create(rewriter, loc, i32, first);
    // Slots at the same offset share one value, so what is computed from
    // it per slot is the same value too (and folded into one).
    DenseMap<int, Value> at{{0, first}};
    SmallVector<Value> slots;
    for (int s = 0; s < kSlots; ++s) {
      int off = lanes   ? (rows ? 0 : s)
                : rows  ? slotRow(0, s)
                : quads ? quadsPosition(slotCol(0, s))
                        : slotCol(0, s);
      Value &v = at[off];
      if (!v)
        v = arith::AddIOp::create(
            rewriter, loc, first,
            arith::ConstantIntOp::create(rewriter, loc, i32, off));
      slots.push_back(v);
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
        op, getTypeConverter()->convertType(op.getType()), slots);
    return success();
  }
};

} // namespace

void gpu_lowering::foldExactIntRoundTrips(Operation *root,
                                          const ExactIntCasts &exact) {
  root->walk([&](arith::SIToFPOp widen) {
    auto narrow = widen.getIn().getDefiningOp<arith::FPToSIOp>();
    if (!narrow || !exact.narrowings.contains(narrow) ||
        narrow.getIn().getType() != widen.getType())
      return;
    widen.replaceAllUsesWith(narrow.getIn());
    widen.erase();
    if (narrow->use_empty())
      narrow.erase();
  });
}

void gpu_lowering::populateFragmentPatterns(const TypeConverter &types,
                                            RewritePatternSet &patterns,
                                            ExactIntCasts *exact) {
  patterns.add<LowerRowSums, LowerTileExtract, LowerPositions>(
      types, patterns.getContext());
  patterns.add<LowerTileTranspose>(types, patterns.getContext(), exact);
}
