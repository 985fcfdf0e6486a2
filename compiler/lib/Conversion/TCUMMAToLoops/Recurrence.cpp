//===- Recurrence.cpp - tcu.linear_recurrence on the CPU ------------------===//
//
// h = a·h + x over a tile, column by column with the 16 rows as one vector
// (the tiles transposed, so that a column is a vector). In tile order the
// rows continue each other: each row is first scanned from 0 alongside the
// products of its decays, then the h before each row follows from the
// rows in order, and each row is scanned again from it; the init enters
// each element times the product of the decays before it (f64, rounded
// once). A scalar decay and the heads become a tile of decays (0 at a
// head). Tiles in the lanes order are put in line order first, and the
// result back. A tile with NaN, Inf or huge values runs element by element
// instead, as the GPU's exact path does (docs/algorithms.md#decayed-nan-inf).
// tcu.all_finite is the same check.
//
//===----------------------------------------------------------------------===//

#include "Products.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;
using namespace mlir::tcu;

namespace {

constexpr int64_t T = kTileSize;

/// Whether the tile (f32, in line order) or `init` is NaN, Inf or so large
/// (|x| >= 2^100, |init| >= 2^121) that h could overflow in the tile: v ·
/// 2^28 · 0 is NaN exactly then.
Value needsExactPath(OpBuilder &b, Location loc, Value tile, Value init) {
  auto type = cast<VectorType>(tile.getType());
  auto splat = [&](float v) -> Value {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getF32FloatAttr(v)));
  };
  Value probe = arith::MulFOp::create(
      b, loc, arith::MulFOp::create(b, loc, tile, splat(0x1p28f)), splat(0));
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  Value sum = arith::MulFOp::create(
      b, loc,
      arith::MulFOp::create(
          b, loc, init,
          arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0x1p7f))),
      zero);
  for (int64_t r = 0; r < T; ++r)
    sum =
        arith::AddFOp::create(b, loc, sum,
                              vector::ReductionOp::create(
                                  b, loc, vector::CombiningKind::ADD,
                                  vector::ExtractOp::create(b, loc, probe, r)));
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, sum, sum);
}

/// The recurrence element by element in line order (row r, then column
/// c), as the sequential f32 loop runs it: h = a·h + x (a multiply, then
/// an add), h = x where the decay is NaN (a head), each row from `init`
/// with `rows`. `a` and `x` are transposed (a column is a vector of the
/// rows); returns the results' columns.
SmallVector<Value> sequential(OpBuilder &b, Location loc, Value a, Value x,
                              Value init, bool rows, bool exclusive) {
  Type f32 = b.getF32Type();
  VectorType column = loops::rowType(f32);
  SmallVector<Value> inits{init};
  inits.append(T,
               arith::ConstantOp::create(
                   b, loc, DenseElementsAttr::get(column, b.getZeroAttr(f32))));
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto loop = scf::ForOp::create(b, loc, index(0), index(T), index(1), inits);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value r = loop.getInductionVar();
  Value h = rows ? init : loop.getRegionIterArgs()[0];
  SmallVector<Value> yielded{Value()};
  for (int64_t c = 0; c < T; ++c) {
    auto at = [&](Value m) -> Value {
      Value col = vector::ExtractOp::create(b, loc, m, c);
      return vector::ExtractOp::create(b, loc, col, OpFoldResult(r));
    };
    Value xe = at(x), ae = at(a);
    Value next = arith::SelectOp::create(
        b, loc,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, ae, ae), xe,
        arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, ae, h),
                              xe));
    yielded.push_back(vector::InsertOp::create(b, loc, exclusive ? h : next,
                                               loop.getRegionIterArgs()[1 + c],
                                               OpFoldResult(r)));
    h = next;
  }
  yielded[0] = h;
  scf::YieldOp::create(b, loc, yielded);
  return SmallVector<Value>(loop.getResults().drop_front());
}

struct LowerLinearRecurrence : OpRewritePattern<LinearRecurrenceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LinearRecurrenceOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    Type f32 = b.getF32Type();
    VectorType tile = VectorType::get({T, T}, f32);
    VectorType column = loops::rowType(f32);
    auto transpose = [&](Value v) {
      return vector::TransposeOp::create(b, loc, v, ArrayRef<int64_t>{1, 0})
          .getResult();
    };
    Value source = op.getSource();
    if (cast<VectorType>(source.getType()).getElementType() != f32)
      source = arith::ExtFOp::create(b, loc, tile, source);
    bool lanes = op.getOrder() == ElementOrder::Lanes;
    // A scalar decay is every element's; a head's is 0.
    Value decays = op.getDecays();
    if (op.getScalarDecay())
      decays = vector::BroadcastOp::create(b, loc, tile, decays);
    // The exact path's decays: NaN marks a head (a decay is finite).
    Value marked = decays;
    if (Value heads = op.getHeads()) {
      auto splat = [&](float v) -> Value {
        return arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(tile, b.getF32FloatAttr(v)));
      };
      marked = arith::SelectOp::create(
          b, loc, heads, splat(std::numeric_limits<float>::quiet_NaN()),
          decays);
      decays = arith::SelectOp::create(b, loc, heads, splat(0.0f), decays);
    }
    if (lanes) {
      decays = loops::lanesTile(b, loc, decays, /*fromLanes=*/true);
      marked = loops::lanesTile(b, loc, marked, /*fromLanes=*/true);
      source = loops::lanesTile(b, loc, source, /*fromLanes=*/true);
    }
    Value a = transpose(decays), x = transpose(source);
    auto col = [&](Value m, int64_t c) {
      return vector::ExtractOp::create(b, loc, m, c).getResult();
    };
    auto mul = [&](Value p, Value q) {
      return arith::MulFOp::create(b, loc, p, q).getResult();
    };
    auto add = [&](Value p, Value q) {
      return arith::AddFOp::create(b, loc, p, q).getResult();
    };
    auto splat = [&](Value s) {
      return vector::BroadcastOp::create(b, loc, column, s).getResult();
    };
    Type f64 = b.getF64Type();
    VectorType wideColumn = loops::rowType(f64);
    auto wide = [&](Value v) {
      return arith::ExtFOp::create(b, loc, wideColumn, v).getResult();
    };
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    Value one = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(1.0));

    // rows: each row from `init`. In tile order the h before each row is
    // the recurrence from 0 (each row's from the row before, scanned from
    // 0, with its decays' product) and `init` enters every element with
    // the product of the decays up to it, kept in f64 and rounded once, as
    // the GPU rounds it (an f32 product of products, the same in every
    // tile, would drift a long walk's carries).
    bool tileOrder = !op.getRows();
    Value hin = splat(tileOrder ? zero : op.getInit());
    Value before = vector::BroadcastOp::create(b, loc, wideColumn, one);
    if (tileOrder) {
      Value h = splat(zero), p = before;
      for (int64_t c = 0; c < T; ++c) {
        h = add(mul(col(a, c), h), col(x, c));
        p = mul(p, wide(col(a, c)));
      }
      Value row = zero, rowBefore = one;
      for (int64_t r = 0; r < T; ++r) {
        hin = vector::InsertOp::create(b, loc, row, hin, r);
        before = vector::InsertOp::create(b, loc, rowBefore, before, r);
        Value pr = vector::ExtractOp::create(b, loc, p, r);
        Value hr = vector::ExtractOp::create(b, loc, h, r);
        row = add(mul(arith::TruncFOp::create(b, loc, f32, pr), row), hr);
        rowBefore = mul(rowBefore, pr);
      }
    }
    // The init's part of an element: its weight (the product of the
    // decays before the row and of the row's up to the element, or before
    // it when exclusive) times init.
    Value init = splat(op.getInit());
    auto withInit = [&](Value v, Value weight) {
      if (!tileOrder)
        return v;
      return add(v, mul(arith::TruncFOp::create(b, loc, column, weight), init));
    };
    auto scanned = [&]() -> SmallVector<Value> {
      SmallVector<Value> out;
      Value h = hin, weight = before;
      for (int64_t c = 0; c < T; ++c) {
        Value next = add(mul(col(a, c), h), col(x, c));
        Value nextWeight = tileOrder ? mul(weight, wide(col(a, c))) : weight;
        out.push_back(op.getExclusive() ? withInit(h, weight)
                                        : withInit(next, nextWeight));
        h = next;
        weight = nextWeight;
      }
      return out;
    };
    // Tiles with NaN, Inf or values that could overflow run element by
    // element, as the GPU's (the products above would meet 0·Inf).
    auto ifOp = scf::IfOp::create(b, loc, SmallVector<Type>(T, column),
                                  needsExactPath(b, loc, source, op.getInit()),
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, loc,
                           sequential(b, loc, transpose(marked), x,
                                      op.getInit(), op.getRows(),
                                      op.getExclusive()));
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc, scanned());
    }
    SmallVector<Value> out(ifOp.getResults());
    Value cols = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tile, b.getZeroAttr(f32)));
    for (int64_t c = 0; c < T; ++c)
      cols = vector::InsertOp::create(b, loc, out[c], cols, c);
    Value result = transpose(cols);
    if (lanes)
      result = loops::lanesTile(b, loc, result, /*fromLanes=*/false);
    b.replaceOp(op, result);
    return success();
  }
};

/// tcu.all_finite: the recurrence's check of the tile, negated.
struct LowerAllFinite : OpRewritePattern<AllFiniteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AllFiniteOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    Type f32 = b.getF32Type();
    Value source = op.getSource();
    if (cast<VectorType>(source.getType()).getElementType() != f32)
      source =
          arith::ExtFOp::create(b, loc, VectorType::get({T, T}, f32), source);
    Value scalar = op.getScalar()
                       ? op.getScalar()
                       : arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0))
                             .getResult();
    b.replaceOpWithNewOp<arith::XOrIOp>(
        op, needsExactPath(b, loc, source, scalar),
        arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
    return success();
  }
};

} // namespace

void mlir::tcu::loops::populateRecurrencePatterns(RewritePatternSet &patterns) {
  patterns.add<LowerLinearRecurrence, LowerAllFinite>(patterns.getContext());
}
