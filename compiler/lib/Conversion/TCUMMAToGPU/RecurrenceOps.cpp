//===- RecurrenceOps.cpp - tcu.linear_recurrence on a warp's lanes --------===//
//
// h = a·h + x over a tile in row-major order, on CUDA cores. The pairs
// (a, x) compose associatively: (a1, x1) then (a2, x2) is
// (a1·a2, a2·x1 + x2), so the recurrence is a scan of pairs. A lane holds
// two adjacent columns of each half row (LaneFragments.h): it composes
// them, the four lanes of a row scan their compositions with shuffles,
// the rows' totals are scanned across the eight lane groups, and each
// element is then h_in·A + X from its prefix composition (A, X). In the
// lanes order (#tcu.order<lanes>) a lane's eight elements are consecutive:
// it composes them in turn, the 32 lanes scan their compositions (a third
// of the shuffles), and each lane runs its elements from the h before it.
//
//===----------------------------------------------------------------------===//

#include "GPUPatterns.h"
#include "LaneFragments.h"
#include "WarpBuilder.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

namespace {

/// The composition (A, X) of a run of elements: h after the run is
/// A·(h before it) + X. A, a product of decays, is kept in f64 and rounded
/// to f32 where it is used: rounded on every level of the scan in f32, the
/// same a^k would carry the same error into every tile of a segment, and a
/// long walk would accumulate it.
struct Affine {
  Value a, x; // f64, f32
};

struct RecurrenceBuilder {
  OpBuilder &b;
  Location loc;
  Value g, t; // index: the lane's group (row) and place in it

  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value narrow(Value v) {
    return v.getType().isF64()
               ? arith::TruncFOp::create(b, loc, b.getF32Type(), v).getResult()
               : v;
  }
  Value wide(Value v) {
    return arith::ExtFOp::create(b, loc, b.getF64Type(), v);
  }
  /// A·h + X, one rounding (fma: half the roundings of a multiply and an
  /// add on every level of the scan).
  Value apply(Affine f, Value h) {
    return LLVM::FMAOp::create(b, loc, narrow(f.a), h, f.x);
  }
  /// `first`, then `second`.
  Affine then(Affine first, Affine second) {
    return {mul(first.a, second.a), apply(second, first.x)};
  }
  Value shuffle32(Value v, Value offset, gpu::ShuffleMode mode) {
    WarpBuilder w{b, loc};
    return gpu::ShuffleOp::create(b, loc, v, offset, w.i32(32), mode)
        .getShuffleResult();
  }
  /// A shuffle of an f32, or of an f64 as its two 32-bit halves.
  Value shuffle(Value v, Value offset, gpu::ShuffleMode mode) {
    if (!v.getType().isF64())
      return shuffle32(v, offset, mode);
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    Value bits = arith::BitcastOp::create(b, loc, i64, v);
    Value c32 = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32));
    Value lo = arith::TruncIOp::create(b, loc, i32, bits);
    Value hi = arith::TruncIOp::create(
        b, loc, i32, arith::ShRUIOp::create(b, loc, bits, c32));
    lo = arith::ExtUIOp::create(b, loc, i64, shuffle32(lo, offset, mode));
    hi = arith::ExtUIOp::create(b, loc, i64, shuffle32(hi, offset, mode));
    Value joined = arith::OrIOp::create(b, loc, lo,
                                        arith::ShLIOp::create(b, loc, hi, c32));
    return arith::BitcastOp::create(b, loc, b.getF64Type(), joined);
  }
  Value up(Value v, int32_t lanes) {
    return shuffle(v, WarpBuilder{b, loc}.i32(lanes), gpu::ShuffleMode::UP);
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value atLeast(Value position, int64_t v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, position,
                                 arith::ConstantIndexOp::create(b, loc, v));
  }
  /// `f` of the lane `lane` (an index) in every lane.
  Affine fromLane(Affine f, Value lane) {
    Value l = arith::IndexCastOp::create(b, loc, b.getI32Type(), lane);
    return {shuffle(f.a, l, gpu::ShuffleMode::IDX),
            shuffle(f.x, l, gpu::ShuffleMode::IDX)};
  }
  /// The inclusive scan of `f` over the lanes at `stride`, 2·stride, ...
  /// apart, `count` of them (`position` the lane's place among them).
  Affine scan(Affine f, Value position, int32_t stride, int64_t count) {
    for (int64_t k = 1; k < count; k *= 2) {
      int32_t lanes = static_cast<int32_t>(k) * stride;
      Affine before{up(f.a, lanes), up(f.x, lanes)};
      Affine joined = then(before, f);
      Value has = atLeast(position, k);
      f = {select(has, joined.a, f.a), select(has, joined.x, f.x)};
    }
    return f;
  }
  /// The same scan, exclusive: the lane at place 0 gets the identity.
  Affine exclusiveOf(Affine inclusive, Value position, int32_t stride) {
    Value one = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(1.0));
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    Value has = atLeast(position, 1);
    return {select(has, up(inclusive.a, stride), one),
            select(has, up(inclusive.x, stride), zero)};
  }
  /// The index of the lane at place `place` of this lane's row group.
  Value laneOfGroup(int64_t place) {
    Value four = arith::ConstantIndexOp::create(b, loc, 4);
    return arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, g, four),
                                 arith::ConstantIndexOp::create(b, loc, place));
  }
};

/// A half row's view: the pairs of columns (2t, 2t+1) and (8+2t, 9+2t) of
/// one row, slots `base`, base+1, base+4, base+5 (base 0: row g, 2: g+8).
struct RowScan {
  Affine left, right; // prefix compositions to columns 2t+1 and 9+2t
  Affine leftHalf;    // the composition of columns 0..7
  Affine total;       // of the whole row
};

/// The recurrence over a tile in the lanes order: slot s of lane l is
/// element 8l + s, so a lane's composition is its slots' in turn, the h
/// before a lane is `init` through the exclusive scan of the lanes', and
/// each slot follows the one before it.
SmallVector<Value> lanesRecurrence(RecurrenceBuilder &r, ArrayRef<Value> a,
                                   ArrayRef<Value> x, Value init,
                                   bool exclusive) {
  Affine own{r.wide(a[0]), x[0]};
  for (int64_t s = 1; s < kSlots; ++s)
    own = r.then(own, {r.wide(a[s]), x[s]});
  Value lane = arith::AddIOp::create(r.b, r.loc, r.laneOfGroup(0), r.t);
  Affine before = r.exclusiveOf(r.scan(own, lane, 1, 32), lane, 1);
  Value h = r.apply(before, init);
  SmallVector<Value> out;
  for (int64_t s = 0; s < kSlots; ++s) {
    Value next = r.apply({a[s], x[s]}, h);
    out.push_back(exclusive ? h : next);
    h = next;
  }
  return out;
}

struct LowerLinearRecurrence : OpConversionPattern<LinearRecurrenceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LinearRecurrenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    LanePosition pos = getLanePosition(rewriter, loc);
    RecurrenceBuilder r{rewriter, loc, pos.g, pos.t};
    SmallVector<Value> a, x;
    for (int64_t s = 0; s < kSlots; ++s) {
      a.push_back(vector::ExtractOp::create(rewriter, loc, adaptor.getDecays(),
                                            ArrayRef<int64_t>{s}));
      Value v = vector::ExtractOp::create(rewriter, loc, adaptor.getSource(),
                                          ArrayRef<int64_t>{s});
      if (v.getType() != f32)
        v = arith::ExtFOp::create(rewriter, loc, f32, v);
      x.push_back(v);
    }
    if (op.getOrder() == ElementOrder::Lanes) {
      rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
          op, fragmentType(f32),
          lanesRecurrence(r, a, x, adaptor.getInit(), op.getExclusive()));
      return success();
    }
    auto pair = [&](int64_t s) {
      return r.then({r.wide(a[s]), x[s]}, {r.wide(a[s + 1]), x[s + 1]});
    };
    auto rowScan = [&](int64_t base) {
      RowScan row;
      row.left = r.scan(pair(base), pos.t, 1, 4);
      row.leftHalf = r.fromLane(row.left, r.laneOfGroup(3));
      row.right = r.then(row.leftHalf, r.scan(pair(base + 4), pos.t, 1, 4));
      row.total = r.fromLane(row.right, r.laneOfGroup(3));
      return row;
    };
    RowScan rows[2] = {rowScan(0), rowScan(2)};

    // The h before each row: `init`, or in tile order the rows' totals
    // scanned over the groups (rows 0..7, then 8..15 after row 7).
    Value init = adaptor.getInit();
    Value before[2] = {init, init};
    if (!op.getRows()) {
      Affine upper = r.scan(rows[0].total, pos.g, 4, 8);
      before[0] = r.apply(r.exclusiveOf(upper, pos.g, 4), init);
      Value lastUpper = r.apply(
          r.fromLane(upper, arith::ConstantIndexOp::create(rewriter, loc, 28)),
          init);
      Affine lower = r.scan(rows[1].total, pos.g, 4, 8);
      before[1] = r.apply(r.exclusiveOf(lower, pos.g, 4), lastUpper);
    }

    SmallVector<Value> out(kSlots);
    for (int half = 0; half < 2; ++half) {
      int64_t s = 2 * half;
      const RowScan &row = rows[half];
      Value hin = before[half];
      Value hOdd = r.apply(row.left, hin); // column 2t + 1
      Value hasLeft = r.atLeast(pos.t, 1);
      Value hPrev = r.select(hasLeft, r.up(hOdd, 1), hin); // column 2t - 1
      Value hEven = r.apply({a[s], x[s]}, hPrev);
      Value h7 = r.apply(row.leftHalf, hin);
      Value hOddR = r.apply(row.right, hin); // column 9 + 2t
      Value hPrevR = r.select(hasLeft, r.up(hOddR, 1), h7);
      Value hEvenR = r.apply({a[s + 4], x[s + 4]}, hPrevR);
      if (op.getExclusive()) {
        out[s] = hPrev;
        out[s + 1] = hEven;
        out[s + 4] = hPrevR;
        out[s + 5] = hEvenR;
      } else {
        out[s] = hEven;
        out[s + 1] = hOdd;
        out[s + 4] = hEvenR;
        out[s + 5] = hOddR;
      }
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, fragmentType(f32),
                                                        out);
    return success();
  }
};

} // namespace

void gpu_lowering::populateRecurrencePatterns(const TypeConverter &types,
                                              RewritePatternSet &patterns) {
  patterns.add<LowerLinearRecurrence>(types, patterns.getContext());
}
