//===- StreamScan.cpp - the streaming segmented scan ----------------------===//
//
// Every tile is 256 consecutive elements at a multiple of 256, wherever
// segments begin and end; the boundaries become masks on the tile products
// (docs/algorithms.md#the-streaming-scan-stream). With segment_size S >= 16 a
// tile row holds at most one segment head, so a row's segmented scan is its
// plain scan (A·U) left of the head and the scan of the data from the head
// on ((A∘H)·U) right of it: no difference of prefixes, so no cancellation.
// The rows above carry in through a boundary-masked L (L_seg·A_tail), and
// the tiles before through a running carry, as in Scan256N.
//
// A warp's work item is m = max(1, floor(kStreamItemElements / S)) whole
// segments, so no carry crosses items; its first and last tiles may hold a
// neighbour's elements, which it masks to zero on load and never stores.
//
//===----------------------------------------------------------------------===//

#include "ScanTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcu;

namespace mlir::tcu::detail {

static constexpr int64_t T = kTileSize;

namespace {

/// Elementwise i32 and select helpers on tiles.
struct TileArith {
  OpBuilder &b;
  Location loc;
  VectorType i32Tile;

  Value splat(Value scalar) {
    return vector::BroadcastOp::create(b, loc, i32Tile, scalar);
  }
  Value splat(int32_t v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(i32Tile, b.getI32IntegerAttr(v)));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  /// x mod s for 0 <= x < 2^32, with magic = floor(2^32 / s) computed once
  /// outside the loops: q = mulhi(x, magic) is floor(x / s) or one less, so
  /// one conditional subtraction finishes it. A division by a runtime s
  /// per tile costs about 17 instructions a row on the GPU (the reciprocal
  /// recomputed each time); this, 5.
  Value remByMagic(Value x, Value s, Value magic) {
    auto wide = VectorType::get(i32Tile.getShape(), b.getI64Type());
    auto ext = [&](Value v) {
      return arith::ExtUIOp::create(b, loc, wide, v).getResult();
    };
    Value product = arith::MulIOp::create(b, loc, ext(x), ext(magic));
    Value high = arith::ShRUIOp::create(
        b, loc, product,
        arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(wide, b.getI64IntegerAttr(32))));
    Value q = arith::TruncIOp::create(b, loc, i32Tile, high);
    Value r = sub(x, arith::MulIOp::create(b, loc, q, s));
    return arith::SelectOp::create(b, loc, cmp(arith::CmpIPredicate::uge, r, s),
                                   sub(r, s), r);
  }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  /// where(mask, x, 0) for a tile x.
  Value keep(Value mask, Value x) {
    auto type = cast<VectorType>(x.getType());
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    return arith::SelectOp::create(b, loc, mask, x, zero);
  }
};

/// The boundary facts of one tile, as i1 tiles over its elements.
struct TileBoundaries {
  Value post;     // its segment's head is in its row, at or left of it
  Value tail;     // in the segment that is open at its row's end
  Value before;   // its row's first element's segment began before the tile
                  // (the row's elements left of its head take the carry)
  Value lowerSeg; // L_seg: (r, q) with q < r and row q's end in the segment
                  // open at row r's start
};

/// `off` (i32) is the tile's first element minus the item's first, a
/// segment head; `seg` (i32) the segment size, >= 16, so a row holds at
/// most one head; `magic` (i32) floor(2^32 / seg). Each fact is a comparison of
/// an element's column with a value of its row (or, for L_seg, of a row's value
/// with a column's): the GPU computes the row values for the two rows a lane
/// holds, not per element.
TileBoundaries tileBoundaries(TileArith &t, Value off, Value seg, Value magic,
                              ElementOrder order) {
  using P = arith::CmpIPredicate;
  Value row = PositionsOp::create(t.b, t.loc, t.i32Tile, TileLayout::Rows,
                                  ElementOrder::Fixed);
  Value col = PositionsOp::create(t.b, t.loc, t.i32Tile, TileLayout::Cols,
                                  ElementOrder::Fixed);
  // The element's place in its line: its column, or where the quads order
  // took it from.
  Value place =
      order == ElementOrder::Quads
          ? PositionsOp::create(t.b, t.loc, t.i32Tile, TileLayout::Cols, order)
                .getResult()
          : col;
  Value offs = t.splat(off), segs = t.splat(seg), zero = t.splat(0);
  Value magics = t.splat(magic);
  auto shl4 = [&](Value x) {
    return arith::ShLIOp::create(t.b, t.loc, x, t.splat(4)).getResult();
  };
  auto pick = [&](Value c, Value x, Value y) {
    return arith::SelectOp::create(t.b, t.loc, c, x, y).getResult();
  };
  // Per row: its first element's place in the item and distance from its
  // segment's head; the column of the row's head (16 and more: none). The
  // row that holds the item's first element (start <= 0) has it there.
  // Rows that start before the item (start < 0: zeros, loaded below
  // `from`) take distance 0: their head is their start, so they neither
  // take the carry nor reach into L_seg.
  Value rowStart = t.add(offs, shl4(row));
  Value rowD = t.remByMagic(arith::MaxSIOp::create(t.b, t.loc, rowStart, zero),
                            segs, magics);
  Value headCol = pick(t.cmp(P::sle, rowStart, zero), t.sub(zero, rowStart),
                       pick(t.cmp(P::eq, rowD, zero), zero, t.sub(segs, rowD)));
  Value hasHead = t.cmp(P::slt, headCol, t.splat(T));
  Value tailCol = pick(hasHead, headCol, zero);
  Value rowHead = t.sub(rowStart, rowD); // the head of the row's first
  TileBoundaries f;
  f.post = t.cmp(P::sge, place, headCol);
  f.tail = t.cmp(P::sge, place, tailCol);
  f.before = t.cmp(P::slt, rowHead, offs);
  // Element (r, q) of L_seg: row r's first element's head is at or before
  // row q's last element (q < r, so their segments are the same).
  Value qEnd = t.add(t.add(offs, shl4(col)), t.splat(T - 1));
  f.lowerSeg = t.both(t.cmp(P::slt, col, row), t.cmp(P::sle, rowHead, qEnd));
  return f;
}

} // namespace

/// One tile: R = post ? (A∘post)·U : A·U + (L_seg·A_tail)·Ones + carry
/// (carry only where the segment began before the tile). Returns R and the
/// next carry (R's last element, plus A's for an exclusive scan).
static std::pair<Value, Value> streamTile(TileBuilder &tb, const Collective &c,
                                          Value a, Value off, Value seg,
                                          Value magic, Value carry) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Type elt = inputElementType(c.input);
  TileArith t{b, loc, VectorType::get({T, T}, b.getI32Type())};
  TileBoundaries f = tileBoundaries(t, off, seg, magic, c.scanOrder);
  // (The load zeroed the elements before the item: `from`.)
  Value aPost = t.keep(f.post, a);
  Value aTail = t.keep(f.tail, a);
  // L_seg in the operand type: 1 or 0, exact in every operand type.
  auto opTile = tb.tileType(elt);
  Value one = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          opTile, isa<FloatType>(elt) ? Attribute(b.getFloatAttr(elt, 1.0))
                                      : Attribute(b.getIntegerAttr(elt, 1))));
  Value lowerSeg = t.keep(f.lowerSeg, one);
  Value above = MMAOp::create(b, loc, tb.zeroAcc(elt).getType(), lowerSeg,
                              aTail, tb.zeroAcc(elt));
  Value prefix =
      tb.mulByConst(above, MatrixKind::Ones, t.keep(f.before, carry));
  MatrixKind u = rowScanMatrix(c, c.scanOrder);
  Value whole = tb.mulByConst(a, u, prefix);
  Value fromHead = tb.mulByConst(aPost, u, tb.zeroAcc(elt));
  Value r = arith::SelectOp::create(b, loc, f.post, fromHead, whole);
  // (Position 15 of a line is its column 15 in the quads order too.)
  Value total = tb.element(r, T - 1, T - 1);
  if (!c.inclusive)
    total = addAcc(tb, total, tb.element(a, T - 1, T - 1));
  return {r, tb.broadcast(total, total.getType())};
}

void scanStream(TileBuilder &tb, const Collective &collective) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  // 16-bit tiles move in the quads order: a lane loads and stores four
  // consecutive elements of a row (whole 32-byte sectors), where the fixed
  // order moves pairs (docs/rationale.md#stream-quads).
  Collective c = withQuadsFor16Bit(collective);
  // Segments per item (k) and the item's span (folded to constants for a
  // constant size); the size as i32 (at most kMaxStreamSegment).
  Value k = arith::MaxSIOp::create(
      b, loc, tb.idx(1),
      arith::DivUIOp::create(b, loc, tb.idx(kStreamItemElements), c.segment));
  Value items = tb.ceilDiv(c.numSegments, k);
  Value span = tb.mul(k, c.segment);
  Value seg = arith::IndexCastOp::create(b, loc, b.getI32Type(), c.segment);
  // floor(2^32 / S), once (TileArith::remByMagic).
  Value magic = arith::TruncIOp::create(
      b, loc, b.getI32Type(),
      arith::DivUIOp::create(
          b, loc,
          arith::ConstantIntOp::create(b, loc, b.getI64Type(), 1LL << 32),
          arith::ExtUIOp::create(b, loc, b.getI64Type(), seg)));
  parallelGroups(tb, items, 1, [&](ArrayRef<Value> group) {
    Value start = tb.mul(group.front(), span);
    Value end = tb.min(tb.add(start, span), c.n);
    // Tiles at multiples of 256 from the one holding `start`.
    Value first =
        tb.mul(arith::DivUIOp::create(b, loc, start, tb.idx(T * T)), T * T);
    Value length = arith::SubIOp::create(b, loc, end, first);
    Value count = tb.ceilDiv(length, T * T);
    // The item's input is asked of L2 at once: its tiles are walked in
    // order, one in flight, so each load would otherwise wait for DRAM
    // alone (docs/rationale.md#stream-prefetch). A segment longer than an
    // item: its first item's worth only.
    tb.prefetch(c.input, first,
                tb.min(length, tb.idx(kStreamItemElements + 2 * T * T)));
    forTileGroups(tb, tb.idx(0), count, tb.idx(1), c.tilesPerWarp, end,
                  {zeroCarry(tb, c)},
                  [&](ArrayRef<Value> tiles, ArrayRef<Value> limits,
                      ValueRange carried) -> SmallVector<Value> {
                    SmallVector<Value> bases, loaded;
                    for (auto [i, limit] : llvm::zip(tiles, limits)) {
                      bases.push_back(tb.add(first, tb.mul(i, T * T)));
                      loaded.push_back(loadScanTile(tb, c, bases.back(), limit,
                                                    /*from=*/start));
                    }
                    Value s = carried[0];
                    for (auto [base, a, limit] :
                         llvm::zip(bases, loaded, limits)) {
                      Value off = arith::IndexCastOp::create(
                          b, loc, b.getI32Type(),
                          arith::SubIOp::create(b, loc, base, start));
                      auto [r, next] = streamTile(tb, c, a, off, seg, magic, s);
                      storeScanTile(tb, c, r, base, limit, /*from=*/start);
                      s = next;
                    }
                    return {s};
                  });
  });
}

} // namespace mlir::tcu::detail
