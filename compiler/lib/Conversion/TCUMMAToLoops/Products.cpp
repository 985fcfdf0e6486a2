//===- Products.cpp - tcu.matrix, tcu.mma and tcu.split on the CPU
//---------===//
//
// The products of convert-tcu-mma-to-loops: operands widened exactly to
// f32/i32 and one 16x16x16 vector.contract, as the Tensor Core computes;
// a product with a named 0/1 matrix or a mask matrix instead adds up the
// selected rows (NaN and Inf reach only the outputs that sum them), and
// split f32 / i32 chains are computed as one product of the unsplit tile.
//
//===----------------------------------------------------------------------===//

#include "Products.h"

#include "tcuc/Conversion/DecayPowers.h"
#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tcu;
using loops::rowType;

namespace {

constexpr int64_t T = kTileSize;

/// The entries of a 16x16 0/1 matrix, row-major.
using ZeroOne = std::array<std::array<bool, T>, T>;

struct LowerMatrix : OpRewritePattern<MatrixOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatrixOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getType();
    Type elt = type.getElementType();
    SmallVector<Attribute> values;
    for (int r = 0; r < T; ++r)
      for (int c = 0; c < T; ++c) {
        int v = matrixEntry(op.getKind(), r, c, op.getBlock());
        values.push_back(isa<FloatType>(elt)
                             ? Attribute(rewriter.getFloatAttr(elt, v))
                             : Attribute(rewriter.getIntegerAttr(elt, v)));
      }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, DenseElementsAttr::get(type, values));
    return success();
  }
};

/// A decay matrix is a constant tile of its entries (the products with it
/// are contractions: its entries are not 0/1, except where a = 0); with a
/// decay given at run time, a tile of entries computed from constant tiles
/// of its powers (tcuc/Conversion/DecayPowers.h).
struct LowerDecayMatrix : OpRewritePattern<DecayMatrixOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DecayMatrixOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getType();
    if (Value a = op.getDecayValue()) {
      SmallVector<int32_t> powers;
      SmallVector<bool> valid;
      for (int r = 0; r < T; ++r)
        for (int c = 0; c < T; ++c) {
          std::optional<int> k = DecayMatrixOp::power(op.getKind(), r, c);
          powers.push_back(k.value_or(0));
          valid.push_back(k.has_value());
        }
      Location loc = op.getLoc();
      Value k = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(type.clone(rewriter.getI32Type()),
                                 ArrayRef<int32_t>(powers)));
      Value has = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(type.clone(rewriter.getI1Type()),
                                 ArrayRef<bool>(valid)));
      rewriter.replaceOp(
          op, decay_powers::buildEntries(
                  rewriter, loc, a, k, has, static_cast<int64_t>(op.getPart()),
                  static_cast<int64_t>(op.getScale()), type.getElementType()));
      return success();
    }
    SmallVector<Attribute> values;
    for (int r = 0; r < T; ++r)
      for (int c = 0; c < T; ++c)
        values.push_back(
            rewriter.getFloatAttr(type.getElementType(), op.getEntry(r, c)));
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, DenseElementsAttr::get(type, values));
    return success();
  }
};

/// The entries of `v` when it is a named matrix or a constant 0/1 tile.
std::optional<ZeroOne> zeroOneEntries(Value v) {
  ZeroOne e{};
  if (auto m = v.getDefiningOp<MatrixOp>()) {
    for (int r = 0; r < T; ++r)
      for (int c = 0; c < T; ++c)
        e[r][c] = matrixEntry(m.getKind(), r, c, m.getBlock()) != 0;
    return e;
  }
  DenseElementsAttr dense;
  if (!matchPattern(v, m_Constant(&dense)))
    return std::nullopt;
  if (isa<FloatType>(dense.getElementType())) {
    auto values = dense.getValues<APFloat>();
    for (int r = 0; r < T; ++r)
      for (int c = 0; c < T; ++c) {
        APFloat x = values[r * T + c];
        if (!x.isZero() && !x.isExactlyValue(1.0))
          return std::nullopt;
        e[r][c] = !x.isZero();
      }
    return e;
  }
  auto values = dense.getValues<APInt>();
  for (int r = 0; r < T; ++r)
    for (int c = 0; c < T; ++c) {
      APInt x = values[r * T + c];
      if (!x.isZero() && !x.isOne())
        return std::nullopt;
      e[r][c] = x.isOne();
    }
  return e;
}

/// K · X + acc for a 0/1 matrix K, X a widened f32 or i32 tile: row r is
/// acc's row r plus, in order of k, the rows k of X that K(r, k) selects.
/// K is a constant (`k`, row-major) or a mask matrix (`mask`, the i1 tile
/// of tcu::matchMaskMatrix). Floats add as IEEE adds would, so a NaN or Inf
/// reaches only the outputs that sum it (a contraction's 0 · NaN would
/// reach every output); i32 sums are K · X + acc modulo 2^32, as a
/// contraction computes it, in a fraction of the code (a contraction's 4096
/// multiplies made an i8 grid scan take 12 s in LLVM's code generator).
Value selectedRowSums(OpBuilder &b, Location loc, const ZeroOne *k, Value mask,
                      Value x, Value acc) {
  auto tile = cast<VectorType>(acc.getType());
  bool isFloat = isa<FloatType>(tile.getElementType());
  auto add = [&](Value p, Value q) {
    return buildAccumulatorAdd(b, loc, p, q);
  };
  // Floats start from -0 (-0 + x == x for every x) and add acc last.
  Value skip = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(rowType(tile.getElementType()),
                             isFloat ? Attribute(b.getF32FloatAttr(-0.0))
                                     : Attribute(b.getI32IntegerAttr(0))));
  auto rowMask = VectorType::get({T}, b.getI1Type());
  Value out = acc;
  for (int r = 0; r < T; ++r) {
    auto accRow = [&] {
      return vector::ExtractOp::create(b, loc, acc, int64_t(r)).getResult();
    };
    Value sum = isFloat ? skip : accRow();
    for (int i = 0; i < T; ++i) {
      if (k && !(*k)[r][i])
        continue;
      Value xi = vector::ExtractOp::create(b, loc, x, int64_t(i));
      if (!k)
        xi = arith::SelectOp::create(
            b, loc,
            vector::BroadcastOp::create(
                b, loc, rowMask,
                vector::ExtractOp::create(b, loc, mask,
                                          ArrayRef<int64_t>{r, i})),
            xi, skip);
      sum = add(sum, xi);
    }
    out = vector::InsertOp::create(b, loc, isFloat ? add(sum, accRow()) : sum,
                                   out, int64_t(r));
  }
  return out;
}

/// K · X + acc (`constOnLeft`) or X · K + acc as selected row sums, X
/// already widened to the accumulator's type: X · K = (K^T · X^T)^T.
Value selectedSumsProduct(OpBuilder &b, Location loc, const ZeroOne &k,
                          bool constOnLeft, Value x, Value acc) {
  if (constOnLeft)
    return selectedRowSums(b, loc, &k, Value(), x, acc);
  ZeroOne kt;
  for (int r = 0; r < T; ++r)
    for (int c = 0; c < T; ++c)
      kt[r][c] = k[c][r];
  auto transpose = [&](Value v) -> Value {
    return vector::TransposeOp::create(b, loc, v, ArrayRef<int64_t>{1, 0});
  };
  return transpose(
      selectedRowSums(b, loc, &kt, Value(), transpose(x), transpose(acc)));
}

/// The i32 counterpart: TileBuilder::product splits an i32 tile into five
/// i8 digits and combines their products by Horner's rule (r = K·d4; r =
/// (r << 7) + K·d_k for k = 3..0; acc + r), exact modulo 2^32. On the CPU
/// K·x modulo 2^32 is the selected rows' i32 sums directly: the digits'
/// extraction and the shifts cost LLVM's code generator seconds (an i8
/// whole-array scan: 3.5 s to compile).
void lowerDigitProducts(Operation *root) {
  SmallVector<SplitOp> splits;
  root->walk([&](SplitOp op) {
    if (op.getSource().getType().getElementType().isSignlessInteger(32) &&
        op.getNumResults() == 5)
      splits.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (SplitOp split : splits) {
    // Follow the chain from the top digit's product.
    SmallVector<Operation *> chain;
    auto productOf = [&](Value digit) -> MMAOp {
      if (!digit.hasOneUse())
        return MMAOp();
      return dyn_cast<MMAOp>(*digit.getUsers().begin());
    };
    MMAOp m = productOf(split.getResult(4));
    if (!m)
      continue;
    bool constOnLeft = m.getRhs() == split.getResult(4);
    Value matrix = constOnLeft ? m.getLhs() : m.getRhs();
    std::optional<ZeroOne> k = zeroOneEntries(matrix);
    if (!k)
      continue;
    bool ok = true;
    chain.push_back(m);
    for (int d = 3; d >= 0 && ok; --d) {
      auto shift = m->hasOneUse()
                       ? dyn_cast<arith::ShLIOp>(*m->getUsers().begin())
                       : arith::ShLIOp();
      MMAOp next = productOf(split.getResult(d));
      ok =
          shift && next && shift->hasOneUse() && next.getAcc() == shift &&
          (constOnLeft ? next.getRhs() : next.getLhs()) == split.getResult(d) &&
          zeroOneEntries(constOnLeft ? next.getLhs() : next.getRhs()) == k;
      if (ok) {
        chain.push_back(shift);
        chain.push_back(next);
        m = next;
      }
    }
    if (!ok)
      continue;
    // The chain starts from a zero accumulator; `acc + r` follows it unless
    // canonicalization folded a zero acc away.
    auto add = m->hasOneUse() ? dyn_cast<arith::AddIOp>(*m->getUsers().begin())
                              : arith::AddIOp();
    Operation *result = add ? add.getOperation() : m.getOperation();
    Value acc = !add                            ? chain.front()->getOperand(2)
                : add.getLhs() == m.getResult() ? add.getRhs()
                                                : add.getLhs();
    rewriter.setInsertionPoint(result);
    Value sums = selectedSumsProduct(rewriter, result->getLoc(), *k,
                                     constOnLeft, split.getSource(), acc);
    rewriter.replaceOp(result, sums);
    if (add)
      rewriter.eraseOp(m);
    chain.pop_back();
    for (Operation *op : llvm::reverse(chain))
      rewriter.eraseOp(op);
  }
}

/// A split f32 product (tcu::matchSplitProduct) as one product of the
/// unsplit tile: each output is the f32 sum of the X elements it selects,
/// in order of k, plus the chain's accumulator. The same numbers the parts
/// give wherever they hold X whole, and IEEE sums where they cannot (values
/// below 2^-110, whose bits below 2^-133 no bf16 part holds). Replaces the
/// chain's products.
void lowerSplitProducts(Operation *root) {
  SmallVector<MMAOp> lasts;
  root->walk([&](MMAOp op) {
    if (auto chain = matchSplitProduct(op);
        chain && chain->split.getSource().getType().getElementType().isF32())
      lasts.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (MMAOp last : lasts) {
    std::optional<SplitProduct> chain = matchSplitProduct(last);
    Value matrix = chain->constOnLeft ? last.getLhs() : last.getRhs();
    std::optional<ZeroOne> k = zeroOneEntries(matrix);
    SmallVector<Operation *> earlier;
    for (auto m = last.getAcc().getDefiningOp<MMAOp>(); m;
         m = m == chain->first ? MMAOp() : m.getAcc().getDefiningOp<MMAOp>())
      earlier.push_back(m);
    rewriter.setInsertionPoint(last);
    rewriter.replaceOp(last, selectedSumsProduct(rewriter, last.getLoc(), *k,
                                                 chain->constOnLeft,
                                                 chain->split.getSource(),
                                                 chain->first.getAcc()));
    for (Operation *m : earlier)
      rewriter.eraseOp(m);
  }
  lowerDigitProducts(root);
}

struct LowerMMA : OpRewritePattern<MMAOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MMAOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorType accType = op.getAcc().getType();
    Type acc = accType.getElementType();
    auto widen = [&](Value v) -> Value {
      auto wide = VectorType::get({T, T}, acc);
      if (isa<FloatType>(acc))
        return arith::ExtFOp::create(rewriter, loc, wide, v);
      return arith::ExtSIOp::create(rewriter, loc, wide, v);
    };
    bool constOnLeft = static_cast<bool>(zeroOneEntries(op.getLhs()));
    if (auto k = zeroOneEntries(constOnLeft ? op.getLhs() : op.getRhs())) {
      rewriter.replaceOp(op, selectedSumsProduct(
                                 rewriter, loc, *k, constOnLeft,
                                 widen(constOnLeft ? op.getRhs() : op.getLhs()),
                                 op.getAcc()));
      return success();
    }
    if (Value mask = matchMaskMatrix(op.getLhs())) {
      rewriter.replaceOp(op, selectedRowSums(rewriter, loc, nullptr, mask,
                                             widen(op.getRhs()), op.getAcc()));
      return success();
    }
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr i, j, k;
    bindDims(ctx, i, j, k);
    SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {i, k}, ctx),
                                   AffineMap::get(3, 0, {k, j}, ctx),
                                   AffineMap::get(3, 0, {i, j}, ctx)};
    auto par =
        vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel);
    auto red =
        vector::IteratorTypeAttr::get(ctx, vector::IteratorType::reduction);
    rewriter.replaceOpWithNewOp<vector::ContractionOp>(
        op, widen(op.getLhs()), widen(op.getRhs()), op.getAcc(),
        rewriter.getAffineMapArrayAttr(maps),
        rewriter.getArrayAttr({par, par, red}));
    return success();
  }
};

struct LowerSplit : OpRewritePattern<SplitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SplitOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       buildSplitParts(rewriter, op.getLoc(), op.getSource()));
    return success();
  }
};

} // namespace

void mlir::tcu::loops::lowerSplitChains(Operation *root) {
  lowerSplitProducts(root);
}

void mlir::tcu::loops::populateProductPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerMatrix, LowerDecayMatrix, LowerMMA, LowerSplit>(
      patterns.getContext());
}
