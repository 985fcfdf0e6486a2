//===- SegmentedTile.cpp - a tile's scan with segment heads anywhere ------===//
//
// The tile step of the `balanced` variant: the scan of 256 consecutive
// elements whose segment heads may lie anywhere, several to a row
// (docs/algorithms.md#balanced). The stream scan's step (StreamScan.cpp)
// takes at most one head a row; here a row's pieces are classes: an
// element's class is the number of heads at or left of it in its row
// (H·U, counted on the Tensor Core), class 0 continues the segment open at
// the row's start, and class j >= 1 is the piece from the row's j-th head.
// Each class's scan is one product of the masked tile with U, so nothing is
// a difference of prefixes and no sum cancels.
//
//===----------------------------------------------------------------------===//

#include "ScanTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcu;

namespace mlir::tcu::detail {

static constexpr int64_t T = kTileSize;

namespace {

/// Elementwise helpers on tiles.
struct Tiles {
  TileBuilder &tb;
  OpBuilder &b;
  Location loc;

  VectorType tile(Type elt) { return tb.tileType(elt); }
  Value splat(Type elt, double v) {
    Attribute a = isa<FloatType>(elt)
                      ? Attribute(b.getFloatAttr(elt, v))
                      : Attribute(b.getIntegerAttr(elt, int64_t(v)));
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(tile(elt), a));
  }
  /// where(mask, 1, 0) in `elt`: exact in every operand type.
  Value ones(Value mask, Type elt) {
    return arith::SelectOp::create(b, loc, mask, splat(elt, 1), splat(elt, 0));
  }
  Value keep(Value mask, Value x) {
    auto type = cast<VectorType>(x.getType());
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    return arith::SelectOp::create(b, loc, mask, x, zero);
  }
  Value icmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value fcmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value mma(Value lhs, Value rhs, Value acc) {
    return MMAOp::create(b, loc, acc.getType(), lhs, rhs, acc);
  }
  /// M·X + acc for a 0/1 mask M (i1 tile) and data X: one product for
  /// f16, bf16 and i8 data (M in X's type), three for f32 (X split into
  /// exact bf16 parts, M as bf16; the small parts first).
  Value maskTimes(Value mask, Value data, Value acc, bool checkTiny) {
    Type elt = cast<VectorType>(data.getType()).getElementType();
    if (!elt.isF32())
      return mma(ones(mask, elt), data, acc);
    Type bf16 = b.getBF16Type();
    auto split = SplitOp::create(
        b, loc, TypeRange(SmallVector<Type>(3, tile(bf16))), data);
    if (checkTiny)
      split.setCheckTiny(true);
    Value m = ones(mask, bf16);
    Value r = acc;
    for (int i = 2; i >= 0; --i)
      r = mma(m, split.getResult(i), r);
    return r;
  }
};

} // namespace

/// The tile with heads (most >= 1).
static std::pair<Value, Value> headsTile(TileBuilder &tb, const Collective &c,
                                         Value a, Value rows, Value most,
                                         Value carry) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  using IP = arith::CmpIPredicate;
  using FP = arith::CmpFPredicate;
  Tiles t{tb, b, loc};
  Type elt = inputElementType(c.input);
  Type f16 = b.getF16Type(), f32 = b.getF32Type(), i32 = b.getI32Type();
  VectorType i32Tile = t.tile(i32);
  Value row = PositionsOp::create(b, loc, i32Tile, TileLayout::Rows,
                                  ElementOrder::Fixed);
  Value col = PositionsOp::create(b, loc, i32Tile, TileLayout::Cols,
                                  ElementOrder::Fixed);
  // An element's place in its row: its column, or where the quads order
  // took it from.
  Value place = c.scanOrder == ElementOrder::Quads
                    ? PositionsOp::create(b, loc, i32Tile, TileLayout::Cols,
                                          ElementOrder::Quads)
                          .getResult()
                    : col;
  Value head = t.icmp(
      IP::ne,
      arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, rows, place),
                            t.splat(i32, 1)),
      t.splat(i32, 0));
  // Class: heads at or left of the element in its row (exact small
  // integers in f32); a row's head count in every column.
  MatrixKind scanU =
      c.scanOrder == ElementOrder::Quads ? MatrixKind::UQuads : MatrixKind::U;
  Value zero32 = t.splat(f32, 0);
  Value cls = tb.mulByConst(t.ones(head, f16), scanU, zero32);
  Value rowHeads = tb.rowSums(t.ones(head, f32));
  // cnt(r): rows above r with a head; cnt(q + 1): rows up to q with one.
  Value headRow = t.fcmp(FP::OGT, rowHeads, zero32);
  Value cntRow = tb.mulConst(MatrixKind::L, t.ones(headRow, f16), zero32);
  Value cntCol = tb.mulConst(
      MatrixKind::Ones, t.ones(t.both(headRow, t.icmp(IP::sle, row, col)), f16),
      zero32);
  // L_seg (r, q): q < r and no head in the rows between, so row q's last
  // piece runs on into row r's class 0.
  Value lowerSeg =
      t.both(t.icmp(IP::slt, col, row), t.fcmp(FP::OEQ, cntRow, cntCol));
  Value before = t.fcmp(FP::OEQ, cntRow, zero32);
  Value tail = t.fcmp(FP::OEQ, cls, rowHeads);
  Value zeroAcc = tb.zeroAcc(elt);
  Value above = t.maskTimes(lowerSeg, t.keep(tail, a), zeroAcc, elt.isF32());
  Value prefix = tb.mulByConst(above, MatrixKind::Ones, t.keep(before, carry));
  MatrixKind u = rowScanMatrix(c, c.scanOrder);
  Value whole = tb.mulByConst(a, u, prefix);
  // Class j >= 1: the row's piece from its j-th head, one product each.
  ValueRange pieces = tb.forLoop(
      tb.idx(1), tb.add(most, tb.idx(1)), tb.idx(1), {whole},
      [&](Value j, ValueRange r) -> SmallVector<Value> {
        Value jf = arith::UIToFPOp::create(
            b, loc, f32, arith::IndexCastOp::create(b, loc, i32, j));
        Value mine = t.fcmp(
            FP::OEQ, cls, vector::BroadcastOp::create(b, loc, t.tile(f32), jf));
        Value piece = tb.mulByConst(t.keep(mine, a), u, zeroAcc);
        return {arith::SelectOp::create(b, loc, mine, piece, r[0])};
      });
  Value result = pieces[0];
  // The segment open at the tile's end: its last element's value (plus the
  // element itself for an exclusive scan).
  Value total = tb.element(result, T - 1, T - 1);
  if (!c.inclusive)
    total = addAcc(tb, total, tb.element(a, T - 1, T - 1));
  return {result, tb.broadcast(total, total.getType())};
}

std::pair<Value, Value> segmentedScanTile(TileBuilder &tb, const Collective &c,
                                          Value a, Value rows, Value most,
                                          Value carry, bool endsOnly) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value noHead =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, most, tb.idx(0));
  Type carryType = carry.getType();
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{carryType, carryType}, noHead,
                                /*withElseRegion=*/true);
  {
    // No head: the plain Scan256 tile, or for a reduction (which reads
    // only the value at a segment's last element, here the tile's last)
    // the carry plus the tile's sum.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    std::pair<Value, Value> plain;
    if (endsOnly) {
      Value sums = tb.rowSums(tb.mulConst(
          MatrixKind::Ones, a, tb.zeroAcc(inputElementType(c.input))));
      Value next = addAcc(tb, carry, sums);
      plain = {next, next};
    } else {
      plain = scanTile(tb, c, a, carry);
    }
    scf::YieldOp::create(b, loc, ValueRange{plain.first, plain.second});
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.elseBlock());
    auto [r, next] = headsTile(tb, c, a, rows, most, carry);
    scf::YieldOp::create(b, loc, ValueRange{r, next});
  }
  return {ifOp.getResult(0), ifOp.getResult(1)};
}

} // namespace mlir::tcu::detail
