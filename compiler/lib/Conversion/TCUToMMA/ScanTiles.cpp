//===- ScanTiles.cpp - the scans' tile steps ------------------------------===//
//
// Notation (docs/algorithms.md): a tile A is 16x16, row-major (row i holds
// elements 16i..16i+15). A·U is each row's inclusive scan (A·Ustrict the
// exclusive one); L·A holds, in row i, the column sums of the rows above i,
// and (L·A)·Ones broadcasts their total along row i (tcu.row_sums: f32/i32
// adds on the accumulator, docs/design.md#precision). A carry tile S holds the
// sum of everything before the tile in every element.
//
//===----------------------------------------------------------------------===//

#include "ScanTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tcu;

namespace mlir::tcu::detail {

static constexpr int64_t T = kTileSize;

MatrixKind rowScanMatrix(const Collective &c, ElementOrder order) {
  if (order == ElementOrder::Quads)
    return c.inclusive ? MatrixKind::UQuads : MatrixKind::UstrictQuads;
  return c.inclusive ? MatrixKind::U : MatrixKind::Ustrict;
}

Type inputElementType(Value buffer) {
  return cast<MemRefType>(buffer.getType()).getElementType();
}

Value loadScanTile(TileBuilder &tb, const Collective &c, Value base, Value end,
                   Value from) {
  return tb.loadTile(TileLayout::Rows, c.input, base, tb.idx(T), tb.idx(T), end,
                     c.scanOrder, from);
}

void storeScanTile(TileBuilder &tb, const Collective &c, Value r, Value base,
                   Value end, Value from) {
  tb.storeTile(r, c.output, base, tb.idx(T), tb.idx(T), end, c.scanOrder, from);
}

Collective withQuadsFor16Bit(const Collective &c) {
  Collective out = c;
  Type elt = inputElementType(c.input);
  if (elt.isF16() || elt.isBF16())
    out.scanOrder = ElementOrder::Quads;
  return out;
}

Value addAcc(TileBuilder &tb, Value x, Value y) {
  return buildAccumulatorAdd(tb.builder(), tb.location(), x, y);
}

std::pair<Value, Value> scanTile(TileBuilder &tb, const Collective &c, Value a,
                                 Value carry, int64_t block) {
  Type elt = inputElementType(c.input);
  Value above = tb.mulConst(MatrixKind::L, a, tb.zeroAcc(elt), block);
  Value prefix = tb.mulByConst(above, MatrixKind::Ones, carry);
  Value r = tb.mulByConst(a, rowScanMatrix(c, c.scanOrder), prefix);
  // (Position 15 of a line is its column 15 in the quads order too.)
  Value total = tb.element(r, T - 1, T - 1);
  if (!c.inclusive)
    total = addAcc(tb, total, tb.element(a, T - 1, T - 1));
  return {r, tb.broadcast(total, total.getType())};
}

Value scanLoadedTile(TileBuilder &tb, const Collective &c, Value a, Value base,
                     Value end, Value carry, Value from) {
  auto [r, next] = scanTile(tb, c, a, carry);
  storeScanTile(tb, c, r, base, end, from);
  return next;
}

void scanTiles(TileBuilder &tb, const Collective &c, Value base, int64_t count,
               Value end, Value carry, Value from) {
  scanTileRuns(tb, c, base, clippedRuns(tb, count, T * T, base, end), end,
               carry, from);
}

LoadedTiles loadWalkTiles(TileBuilder &tb, const Collective &c, Value base,
                          ArrayRef<Value> tiles, ArrayRef<Value> limits,
                          Value from) {
  LoadedTiles group;
  for (auto [t, limit] : llvm::zip(tiles, limits)) {
    group.bases.push_back(tb.add(base, tb.mul(t, T * T)));
    group.tiles.push_back(loadScanTile(tb, c, group.bases.back(), limit, from));
  }
  return group;
}

Value scanTileRuns(TileBuilder &tb, const Collective &c, Value base, Value runs,
                   Value end, Value carry, Value from) {
  return forTileGroups(
      tb, tb.idx(0), runs, tb.idx(1), c.tilesPerWarp, end, {carry},
      [&](ArrayRef<Value> tiles, ArrayRef<Value> limits,
          ValueRange carried) -> SmallVector<Value> {
        LoadedTiles group = loadWalkTiles(tb, c, base, tiles, limits, from);
        Value s = carried[0];
        for (auto [tileBase, limit, a] :
             llvm::zip(group.bases, limits, group.tiles))
          s = scanLoadedTile(tb, c, a, tileBase, limit, s, from);
        return {s};
      })[0];
}

Collective partialsScan(TileBuilder &tb, const Collective &c, Value totals,
                        Value prefix, int64_t perSegment, Value count) {
  Collective next = c;
  next.input = totals;
  next.output = prefix;
  next.segmentSize = perSegment;
  next.segment = tb.idx(perSegment);
  next.n = count;
  next.inclusive = false;
  return next;
}

Value zeroCarry(TileBuilder &tb, const Collective &c) {
  return tb.zeroAcc(inputElementType(c.input));
}

Value zeroScalar(TileBuilder &tb, Type acc) {
  return arith::ConstantOp::create(tb.builder(), tb.location(), acc,
                                   tb.builder().getZeroAttr(acc));
}

void scanWarpRun(TileBuilder &tb, const Collective &c, Value runBase, Value end,
                 Value from, function_ref<Value(Value)> exchange,
                 function_ref<void()> afterLoads) {
  int64_t k = c.tilesPerWarp;
  Type acc = TileBuilder::accumulatorFor(inputElementType(c.input));
  SmallVector<Value> bases, loaded, scanned, before;
  for (int64_t t = 0; t < k; ++t) {
    bases.push_back(tb.add(runBase, tb.idx(t * T * T)));
    loaded.push_back(loadScanTile(tb, c, bases.back(), end, from));
  }
  if (afterLoads)
    afterLoads();
  // before[t]: the run's tiles before t (none for the first: no add of
  // 0, which f32 keeps, -0 + 0 being +0).
  Value runTotal;
  for (Value a : loaded) {
    auto [r, next] = scanTile(tb, c, a, zeroCarry(tb, c));
    Value total = tb.element(next, 0, 0);
    scanned.push_back(r);
    before.push_back(runTotal);
    runTotal = runTotal ? addAcc(tb, runTotal, total) : total;
  }
  Value start = exchange(runTotal);
  for (auto [base, r, sum] : llvm::zip(bases, scanned, before)) {
    Value shift = tb.broadcast(sum ? addAcc(tb, start, sum) : start, acc);
    storeScanTile(tb, c, addAcc(tb, r, shift), base, end, from);
  }
}

Value scanChunkInBlock(TileBuilder &tb, const Collective &c, Value totals,
                       Value offset, int64_t warps, Value chunkBase, Value end,
                       Value from, Value carry, const ChainLink *link) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  int64_t k = c.tilesPerWarp;
  Type acc = TileBuilder::accumulatorFor(inputElementType(c.input));
  tb.parallel(tb.idx(warps), [&](Value w) {
    Value runBase = tb.add(chunkBase, tb.mul(w, k * T * T));
    scanWarpRun(tb, c, runBase, end, from, [&](Value runTotal) -> Value {
      if (link) {
        auto op = BlockLookbackOp::create(b, loc, acc, acc, runTotal, totals,
                                          offset, w, b.getI64IntegerAttr(warps),
                                          link->state, link->item, link->first,
                                          /*publish=*/Value());
        return addAcc(tb, op.getChunkPrefix(), op.getPrefix());
      }
      Value prefix = BlockPrefixOp::create(
          b, loc, acc, runTotal, totals, offset, w, b.getI64IntegerAttr(warps));
      return addAcc(tb, carry, prefix);
    });
  });
  if (link)
    return Value();
  Value next = carry;
  for (int64_t w = 0; w < warps; ++w)
    next = addAcc(
        tb, next,
        memref::LoadOp::create(b, loc, totals, tb.add(offset, tb.idx(w))));
  return next;
}

/// Block level: the W warps of a block (warps_per_block, else blockScanWarps)
/// share one segment and walk it chunk by chunk (scanChunkInBlock), the
/// segment's carry passed along. Unlike seg256n, a segment's loads are
/// spread over W warps, which evens out the waves when segments are few and
/// long. The
/// totals are double-buffered by chunk parity: a warp may store the next

} // namespace mlir::tcu::detail
