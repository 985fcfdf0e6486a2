//===- MatMulScan.cpp - Zouzias and McColl's scan in the TCU model --------===//
//
// MatMulScan (Zouzias and McColl, "A Parallel Scan Algorithm in the Tensor
// Core Unit Model"; docs/algorithms.md#matmulscan) scans n elements with
// s x s products in depth 2·log_s(n): an up-sweep of batched
// products with L_s over groups of s at stride s^t, then a down-sweep that
// adds each group's prefix into the group below. With s = 16 one 256-element
// tile holds two of its levels, so here a level is a tile:
//
//   up-sweep   t_k[j] = total of tile j of level k (Ones·A, row 0 summed)
//              level k+1 is the array t_k, segment by segment;
//   top        a level whose segments fit one tile (<= 256 entries):
//              R = A·U + (L·A)·Ones (the seg256 scan)
//   down-sweep level k scanned tile by tile from its exclusive prefix,
//              R = A·U + (L·A)·Ones + S, S = prefix_{k+1}[j] broadcast.
//
// The paper keeps the up-sweep's partial prefixes in place and the
// down-sweep adds to them (two reads, two writes of the data); this form
// recomputes the tile's scan in the down-sweep instead (two reads, one
// write), with the same products per level.
//
//===----------------------------------------------------------------------===//

#include "ScanTiles.h"
#include "TileLoops.h"
#include "Variants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::detail;

static constexpr int64_t T = kTileSize;

/// Tile p of the level: tile p mod tiles of segment p / tiles's walk.
static TileRange levelTile(TileBuilder &tb, const Collective &c, int64_t tiles,
                           Value p) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value seg = arith::DivUIOp::create(b, loc, p, tb.idx(tiles));
  Value tile = arith::RemUIOp::create(b, loc, p, tb.idx(tiles));
  TileRange walk = segmentWalk(tb, c, tb.mul(seg, c.segmentSize));
  Value base = tb.add(walk.base, tb.mul(tile, T * T));
  return {base, tb.min(tb.add(base, tb.idx(T * T)), walk.end), walk.from};
}

void mlir::tcu::detail::scanMatMul(TileBuilder &tb, const Collective &c) {
  if (c.segmentSize <= T * T)
    return emitScan(tb, c, Variant::Seg256);
  int64_t tiles = tilesPerSegment(c);
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Type acc = TileBuilder::accumulatorFor(inputElementType(c.input));
  auto levelType = MemRefType::get({ShapedType::kDynamic}, acc);
  // Every segment has `tiles` entries in the next level (0 for a tile
  // past a short last segment), so level k+1's segments are `tiles` long.
  Value count = tb.mul(c.numSegments, tiles);
  Value totals = memref::AllocOp::create(b, loc, levelType, ValueRange{count});
  Value prefix = memref::AllocOp::create(b, loc, levelType, ValueRange{count});

  // Up-sweep: a warp takes tiles_per_warp tiles; a group's overrun past
  // `count` reads nothing (its end precedes its base) and stores nothing.
  // Each total is one element: warps store them in any order.
  parallelGroups(tb, count, c.tilesPerWarp, [&](ArrayRef<Value> ps) {
    for (Value p : ps) {
      TileRange t = levelTile(tb, c, tiles, p);
      Value v = reduceTiles(tb, c.input, t.base, tb.idx(0), 1, tb.idx(1), t.end,
                            1, t.from);
      storeTotal(tb, v, totals, p, /*accumulate=*/false,
                 c.tilesPerWarp > 1 ? count : Value());
    }
  });

  scanMatMul(tb, partialsScan(tb, c, totals, prefix, tiles, count));

  // Down-sweep: each tile scanned from its exclusive prefix.
  Collective one = c;
  one.tilesPerWarp = 1;
  Value last = arith::SubIOp::create(b, loc, count, tb.idx(1));
  parallelGroups(tb, count, c.tilesPerWarp, [&](ArrayRef<Value> ps) {
    for (Value p : ps) {
      TileRange t = levelTile(tb, c, tiles, p);
      Value start = memref::LoadOp::create(b, loc, prefix, tb.min(p, last));
      scanTiles(tb, one, t.base, 1, t.end, tb.broadcast(start, acc), t.from);
    }
  });
  memref::DeallocOp::create(b, loc, totals);
  memref::DeallocOp::create(b, loc, prefix);
}
