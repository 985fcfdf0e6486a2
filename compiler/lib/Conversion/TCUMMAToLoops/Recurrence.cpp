//===- Recurrence.cpp - tcu.linear_recurrence on the CPU ------------------===//
//
// h = a·h + x over a tile, column by column with the 16 rows as one vector
// (the tiles transposed, so that a column is a vector). In tile order the
// rows continue each other: each row is first scanned from 0 alongside the
// products of its decays, then the h before each row follows from the
// rows in order, and each row is scanned again from it.
//
//===----------------------------------------------------------------------===//

#include "Products.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tcu;

namespace {

constexpr int64_t T = kTileSize;

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
    Value a = transpose(op.getDecays()), x = transpose(source);
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
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0f));

    // The h before each row: `init`, or in tile order each row's from the
    // row before (scanned from 0, with its decays' product).
    Value hin = splat(op.getInit());
    if (!op.getRows()) {
      Value h = splat(zero), p = splat(one);
      for (int64_t c = 0; c < T; ++c) {
        h = add(mul(col(a, c), h), col(x, c));
        p = mul(p, col(a, c));
      }
      Value row = op.getInit();
      for (int64_t r = 0; r < T; ++r) {
        hin = vector::InsertOp::create(b, loc, row, hin, r);
        Value pr = vector::ExtractOp::create(b, loc, p, r);
        Value hr = vector::ExtractOp::create(b, loc, h, r);
        row = add(mul(pr, row), hr);
      }
    }
    SmallVector<Value> out;
    Value h = hin;
    for (int64_t c = 0; c < T; ++c) {
      Value next = add(mul(col(a, c), h), col(x, c));
      out.push_back(op.getExclusive() ? h : next);
      h = next;
    }
    Value cols = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tile, b.getZeroAttr(f32)));
    for (int64_t c = 0; c < T; ++c)
      cols = vector::InsertOp::create(b, loc, out[c], cols, c);
    b.replaceOp(op, transpose(cols));
    return success();
  }
};

} // namespace

void mlir::tcu::loops::populateRecurrencePatterns(RewritePatternSet &patterns) {
  patterns.add<LowerLinearRecurrence>(patterns.getContext());
}
