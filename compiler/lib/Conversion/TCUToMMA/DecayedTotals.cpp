//===- DecayedTotals.cpp - decayed walks' tile loop and chunk totals ------===//
//
// The tile loop every decayed walk runs (DecayedScan.cpp), with the
// walk_schedule's L2 prefetches, and the decayed total of a grid chunk,
// which the grid's first pass needs alone
// (docs/algorithms.md#decayed-grid-totals).
//
//===----------------------------------------------------------------------===//

#include "ScanTiles.h"
#include "TileLoops.h"

#include "tcuc/Conversion/DecayPowers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tcu;

namespace mlir::tcu::detail {

static constexpr int64_t T = kTileSize;

int64_t prefetchTiles(const Collective &c) {
  return c.walkSchedule ? c.walkSchedule.getPrefetchTiles() : 0;
}

void prefetchTilesAhead(TileBuilder &tb, const Collective &c, Value base,
                        Value first, int64_t count, Value end) {
  OpBuilder &b = tb.builder();
  Value start = tb.min(tb.add(base, tb.mul(first, T * T)), end);
  Value stop = tb.min(tb.add(start, tb.idx(count * T * T)), end);
  tb.prefetch(c.input, start,
              arith::SubIOp::create(b, tb.location(), stop, start));
}

Value walkDecayedTiles(TileBuilder &tb, const Collective &c, Value base,
                       Value runs, Value end, Value from, Value init,
                       WalkStep step) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  // The first group's tiles are loaded at once: the start asks for the
  // tiles after them.
  int64_t ahead = prefetchTiles(c);
  if (ahead > c.tilesPerWarp)
    prefetchTilesAhead(tb, c, base, tb.idx(c.tilesPerWarp),
                       ahead - c.tilesPerWarp, end);
  return forTileGroups(
      tb, tb.idx(0), runs, tb.idx(1), c.tilesPerWarp, end, {init},
      [&](ArrayRef<Value> tiles, ArrayRef<Value> limits,
          ValueRange carried) -> SmallVector<Value> {
        if (ahead)
          prefetchTilesAhead(tb, c, base, tb.add(tiles[0], tb.idx(ahead)),
                             tiles.size(), end);
        LoadedTiles group = loadWalkTiles(tb, c, base, tiles, limits, from);
        Value value = carried[0];
        for (auto [t, tileBase, limit, a] :
             llvm::zip(tiles, group.bases, limits, group.tiles)) {
          Value next = step(tileBase, limit, a, value);
          // A group's tiles past the run (an odd run, two in flight) are
          // zeros that would still change the value: they keep it.
          value = arith::SelectOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, t, runs),
              next, value);
        }
        return {value};
      })[0];
}

Value decayWeights(TileBuilder &tb, const Collective &c, Value decay) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Type i32 = b.getI32Type();
  VectorType f32Tile = tb.tileType(b.getF32Type()), i32Tile = tb.tileType(i32);
  // Rounded once from f64 and (as the grid's chunk decay) never 0 for a
  // nonzero decay, so that an Inf stays Inf.
  Value place = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(
          b, loc,
          PositionsOp::create(b, loc, i32Tile, TileLayout::Rows, c.scanOrder),
          arith::ConstantOp::create(
              b, loc, DenseElementsAttr::get(i32Tile, b.getI32IntegerAttr(T)))),
      PositionsOp::create(b, loc, i32Tile, TileLayout::Cols, c.scanOrder));
  Value exponent = arith::SubIOp::create(
      b, loc,
      arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(i32Tile, b.getI32IntegerAttr(T * T - 1))),
      place);
  return decay_powers::keepNonzero(
      b, loc,
      arith::TruncFOp::create(
          b, loc, f32Tile, decay_powers::buildPower(b, loc, decay, exponent)),
      decay);
}

Value decayedTilesTotal(TileBuilder &tb, const Collective &c, Value decay,
                        Value weights, Value base, Value runs, Value end,
                        Value from) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Type f32 = b.getF32Type();
  VectorType f32Tile = tb.tileType(f32);
  if (!weights)
    weights = decayWeights(tb, c, decay);
  Value step =
      tb.broadcast(decay_powers::buildChunkPower(b, loc, decay, T * T), f32);
  Value sums =
      walkDecayedTiles(tb, c, base, runs, end, from, tb.zeroAcc(f32),
                       [&](Value, Value, Value x, Value acc) -> Value {
                         if (x.getType() != f32Tile)
                           x = arith::ExtFOp::create(b, loc, f32Tile, x);
                         return arith::AddFOp::create(
                             b, loc, arith::MulFOp::create(b, loc, acc, step),
                             arith::MulFOp::create(b, loc, x, weights));
                       });
  // The partial sums added in the tile's order (a recurrence with decay 1).
  Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1));
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  Value total = LinearRecurrenceOp::create(b, loc, f32Tile, one, sums, zero,
                                           Value(), /*rows=*/false,
                                           /*exclusive=*/false, c.scanOrder);
  return tb.element(total, T - 1, T - 1);
}

} // namespace mlir::tcu::detail
