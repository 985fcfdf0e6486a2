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
// of the shuffles), and each lane runs its elements from the h before it;
// with one decay for the tile the lanes scan h alone (the decay over a run
// is a power of it, or 0 past a head: a ballot says where the heads are).
// Tiles with NaN, Inf or huge values take the exact path instead
// (RecurrenceExactPath.cpp).
//
//===----------------------------------------------------------------------===//

#include "GPUPatterns.h"
#include "LaneFragments.h"
#include "WarpBuilder.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
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

/// The lanes-order recurrence with one decay `a` (f32, the same in every
/// lane) and `heads` (i1 per slot, or none): the decay over a run of
/// 8·2^k elements is a^(8·2^k) where the run holds no head and 0 where it
/// does, so no product is shuffled. The powers are squared in f64 and
/// rounded once, as the general form's products are; where the heads lie
/// is one ballot, and the 32 lanes scan X alone.
SmallVector<Value> uniformLanesRecurrence(RecurrenceBuilder &r, Value a,
                                          ArrayRef<Value> heads,
                                          ArrayRef<Value> x, Value init,
                                          bool exclusive) {
  OpBuilder &b = r.b;
  Location loc = r.loc;
  WarpBuilder w{b, loc};
  using P = arith::CmpIPredicate;
  auto step = [&](Value h, int64_t s) {
    Value next = LLVM::FMAOp::create(b, loc, a, h, x[s]);
    return heads.empty() ? next : r.select(heads[s], x[s], next);
  };
  Value own = x[0];
  for (int64_t s = 1; s < kSlots; ++s)
    own = step(own, s);

  // pow[k] = a^(8·2^k), k = 0..4.
  Value power = r.wide(a);
  for (int i = 0; i < 3; ++i)
    power = r.mul(power, power);
  SmallVector<Value> pow{power};
  for (int k = 1; k < 5; ++k)
    pow.push_back(r.mul(pow.back(), pow.back()));

  Value laneIdx = arith::AddIOp::create(b, loc, r.laneOfGroup(0), r.t);
  Value lane = arith::IndexCastOp::create(b, loc, b.getI32Type(), laneIdx);
  Value mask, seen;
  if (!heads.empty()) {
    Value any = heads[0];
    for (int64_t s = 1; s < kSlots; ++s)
      any = arith::OrIOp::create(b, loc, any, heads[s]);
    mask = NVVM::VoteSyncOp::create(b, loc, b.getI32Type(), w.i32(-1), any,
                                    NVVM::VoteSyncKind::ballot);
    // This lane's bit at the top, the later lanes' shifted out.
    seen = arith::ShLIOp::create(
        b, loc, mask, arith::SubIOp::create(b, loc, w.i32(31), lane));
  }
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  for (int k = 0; k < 5; ++k) {
    int32_t span = 1 << k;
    Value before = r.up(own, span);
    Value decay = r.narrow(pow[k]);
    if (seen) // no head in the span's lanes: its top `span` bits clear
      decay =
          r.select(w.cmp(P::ult, seen, w.i32(1 << (32 - span))), decay, zero);
    Value joined = LLVM::FMAOp::create(b, loc, decay, before, own);
    own = r.select(r.atLeast(laneIdx, span), joined, own);
  }
  // The h before the lane: init times a^(8·lane) (0 after a head) plus
  // the lanes' before it.
  Value weight = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(1.0));
  for (int bit = 0; bit < 5; ++bit) {
    Value set = w.cmp(
        P::ne, arith::AndIOp::create(b, loc, lane, w.i32(1 << bit)), w.i32(0));
    weight = r.select(set, r.mul(weight, pow[bit]), weight);
  }
  Value initWeight = r.narrow(weight);
  if (mask) {
    Value below = arith::SubIOp::create(
        b, loc, arith::ShLIOp::create(b, loc, w.i32(1), lane), w.i32(1));
    Value headBefore =
        w.cmp(P::ne, arith::AndIOp::create(b, loc, mask, below), w.i32(0));
    initWeight = r.select(headBefore, zero, initWeight);
  }
  Value hasLeft = r.atLeast(laneIdx, 1);
  Value h = LLVM::FMAOp::create(b, loc, initWeight, init,
                                r.select(hasLeft, r.up(own, 1), zero));
  SmallVector<Value> out;
  for (int64_t s = 0; s < kSlots; ++s) {
    Value next = step(h, s);
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
    SmallVector<Value> x, heads, decays;
    Value scalar = op.getScalarDecay() ? adaptor.getDecays() : Value();
    for (int64_t s = 0; s < kSlots; ++s) {
      Value v = vector::ExtractOp::create(rewriter, loc, adaptor.getSource(),
                                          ArrayRef<int64_t>{s});
      if (v.getType() != f32)
        v = arith::ExtFOp::create(rewriter, loc, f32, v);
      x.push_back(v);
      if (adaptor.getHeads())
        heads.push_back(vector::ExtractOp::create(
            rewriter, loc, adaptor.getHeads(), ArrayRef<int64_t>{s}));
      if (!scalar)
        decays.push_back(vector::ExtractOp::create(
            rewriter, loc, adaptor.getDecays(), ArrayRef<int64_t>{s}));
    }
    // A warp whose tile holds NaN, Inf or huge values runs it element by
    // element (RecurrenceExactPath.cpp): the compositions below would meet
    // 0*Inf at a head's zero decay or an underflowed power.
    Value init = adaptor.getInit();
    SmallVector<Type> types(kSlots, f32);
    auto ifOp = scf::IfOp::create(
        rewriter, loc, types,
        needsExactRecurrence(rewriter, loc, adaptor.getSource(), init),
        /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(
          rewriter, loc,
          buildSequentialRecurrence(rewriter, loc, op, x,
                                    scalar ? SmallVector<Value>(kSlots, scalar)
                                           : decays,
                                    heads, init));
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(
          rewriter, loc,
          shuffledRecurrence(op, r, pos, x, scalar, decays, heads, init));
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, fragmentType(f32),
                                                        ifOp.getResults());
    return success();
  }

  /// The recurrence by compositions scanned over the lanes (finite data).
  static SmallVector<Value>
  shuffledRecurrence(LinearRecurrenceOp op, RecurrenceBuilder &r,
                     const LanePosition &pos, ArrayRef<Value> x, Value scalar,
                     ArrayRef<Value> decays, ArrayRef<Value> heads,
                     Value init) {
    OpBuilder &rewriter = r.b;
    Location loc = r.loc;
    if (scalar && op.getOrder() == ElementOrder::Lanes)
      return uniformLanesRecurrence(r, scalar, heads, x, init,
                                    op.getExclusive());
    // Otherwise every element's decay, 0 at a head.
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getF32FloatAttr(0.0f));
    SmallVector<Value> a;
    for (int64_t s = 0; s < kSlots; ++s) {
      Value d = scalar ? scalar : decays[s];
      a.push_back(heads.empty() ? d : r.select(heads[s], zero, d));
    }
    if (op.getOrder() == ElementOrder::Lanes)
      return lanesRecurrence(r, a, x, init, op.getExclusive());
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
    return out;
  }
};

/// tcu.all_finite: the recurrence's check of the warp's elements, negated.
struct LowerAllFinite : OpConversionPattern<AllFiniteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllFiniteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value scalar = adaptor.getScalar()
                       ? adaptor.getScalar()
                       : arith::ConstantOp::create(rewriter, loc,
                                                   rewriter.getF32FloatAttr(0))
                             .getResult();
    Value bad =
        needsExactRecurrence(rewriter, loc, adaptor.getSource(), scalar);
    rewriter.replaceOpWithNewOp<arith::XOrIOp>(
        op, bad,
        arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true)));
    return success();
  }
};

} // namespace

void gpu_lowering::populateRecurrencePatterns(const TypeConverter &types,
                                              RewritePatternSet &patterns) {
  patterns.add<LowerLinearRecurrence, LowerAllFinite>(types,
                                                      patterns.getContext());
}
