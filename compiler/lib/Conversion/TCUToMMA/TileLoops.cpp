//===- TileLoops.cpp - the loops every variant walks tiles with -----------===//
//
// Groups of tiles in flight, work items taken a group at a time, segment
// and grid-chunk bounds, and run counts clipped to the input (TileLoops.h).
//
//===----------------------------------------------------------------------===//

#include "Variants.h"

#include "tcuc/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::detail;

static constexpr int64_t T = kTileSize;

ValueRange mlir::tcu::detail::forTileGroups(TileBuilder &tb, Value first,
                                            Value count, Value step,
                                            int64_t inFlight, Value end,
                                            ValueRange init,
                                            TileGroupBody body) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  std::optional<int64_t> f = getConstantIntValue(first),
                         n = getConstantIntValue(count),
                         st = getConstantIntValue(step);
  // A statically known run: no more tiles in flight than it has, and no
  // overrun checks when the groups divide it.
  bool exact = false;
  if (f && n && st && *st > 0) {
    int64_t tiles = *n > *f ? (*n - *f + *st - 1) / *st : 0;
    inFlight = std::max<int64_t>(1, std::min(inFlight, tiles));
    exact = tiles % inFlight == 0;
  }
  exact |= inFlight == 1;
  Value groupStep = arith::MulIOp::create(b, loc, step, tb.idx(inFlight));
  return tb.forLoop(
      first, count, groupStep, init,
      [&](Value t, ValueRange carried) -> SmallVector<Value> {
        SmallVector<Value> tiles, limits;
        for (int64_t i = 0; i < inFlight; ++i) {
          Value ti =
              i == 0
                  ? t
                  : tb.add(t, arith::MulIOp::create(b, loc, step, tb.idx(i)));
          Value limit = end;
          if (!exact) {
            // Past the run: limit 0 selects no element of the tile.
            Value inRun = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::slt, ti, count);
            limit = arith::SelectOp::create(b, loc, inRun, end, tb.idx(0));
          }
          tiles.push_back(ti);
          limits.push_back(limit);
        }
        return body(tiles, limits, carried);
      });
}

void mlir::tcu::detail::parallelGroups(
    TileBuilder &tb, Value count, int64_t perWarp,
    function_ref<void(ArrayRef<Value>)> body) {
  tb.parallel(tb.ceilDiv(count, perWarp), [&](Value g) {
    SmallVector<Value> items;
    Value first = tb.mul(g, perWarp);
    for (int64_t i = 0; i < perWarp; ++i)
      items.push_back(i == 0 ? first : tb.add(first, tb.idx(i)));
    body(items);
  });
}

int64_t mlir::tcu::detail::packedRows(const Collective &c) {
  return c.segmentSize / T;
}

void mlir::tcu::detail::parallelPackedTiles(
    TileBuilder &tb, const Collective &c,
    function_ref<void(ArrayRef<PackedTile>)> body) {
  int64_t perTile = T / packedRows(c);
  int64_t span = perTile * c.segmentSize;
  parallelGroups(
      tb, tb.ceilDiv(c.numSegments, perTile), c.tilesPerWarp,
      [&](ArrayRef<Value> groups) {
        SmallVector<PackedTile> tiles;
        for (Value g : groups) {
          Value base = tb.mul(g, span);
          tiles.push_back({g, base, tb.min(tb.add(base, tb.idx(span)), c.n)});
        }
        body(tiles);
      });
}

void mlir::tcu::detail::markTileRuns(TileBuilder &tb, scf::ParallelOp loop) {
  loop->setAttr(kTileRunsAttr, tb.builder().getUnitAttr());
}

Value mlir::tcu::detail::segmentEnd(TileBuilder &tb, const Collective &c,
                                    Value segBase) {
  return tb.min(tb.add(segBase, c.segment), c.n);
}

Value mlir::tcu::detail::segmentBase(TileBuilder &tb, const Collective &c,
                                     Value seg, int64_t per) {
  return tb.mul(seg, per == 1 ? c.segment : tb.mul(c.segment, per));
}

bool mlir::tcu::detail::walkHasLowerBound(const Collective &c) {
  // A walk at a lane phase starts at it (segmentWalk).
  if (c.lanePhase)
    return true;
  // Measured where it wins: long segments whose bases leave the 16-byte
  // vector grid (docs/rationale.md#aligned-walks). A runtime size keeps its
  // segment's own tiles.
  if (ShapedType::isDynamic(c.segmentSize) ||
      c.segmentSize < (c.isScan ? kAlignedWalkMinScanSegment
                                : kAlignedWalkMinReduceSegment))
    return false;
  Type elt = cast<MemRefType>(c.input.getType()).getElementType();
  int64_t vectorElements = 16 / getElementBytes(elt);
  return c.segmentSize % vectorElements != 0;
}

TileRange mlir::tcu::detail::segmentWalk(TileBuilder &tb, const Collective &c,
                                         Value segBase) {
  Value end = segmentEnd(tb, c, segBase);
  if (!walkHasLowerBound(c))
    return {segBase, end, Value()};
  // The tile at or below the segment's base at T*T·k; at a lane phase,
  // the nearest at or below it whose base is the phase mod 8 (the lanes'
  // chunks need no more: at most 7 elements below, no extra tile).
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value from = segBase;
  Value offset;
  if (c.lanePhase)
    offset = arith::AndIOp::create(
        b, loc,
        arith::SubIOp::create(b, loc, tb.add(segBase, tb.idx(8)), c.lanePhase),
        tb.idx(7));
  else
    offset = arith::RemUIOp::create(b, loc, segBase, tb.idx(T * T));
  Value origin = arith::SubIOp::create(b, loc, from, offset);
  return {origin, end, from};
}

Value mlir::tcu::detail::lanePhase(TileBuilder &tb, const Collective &c) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Type elt = cast<MemRefType>(c.input.getType()).getElementType();
  Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, c.input);
  Value first =
      arith::DivUIOp::create(b, loc, ptr, tb.idx(getElementBytes(elt)));
  Value phase =
      c.reverse ? tb.add(first, c.n)
                : arith::SubIOp::create(b, loc, tb.idx(0), first).getResult();
  return arith::AndIOp::create(b, loc, phase, tb.idx(7));
}

SegmentTiles mlir::tcu::detail::segmentTiles(TileBuilder &tb,
                                             const Collective &c, Value seg) {
  if (c.offsets)
    return offsetsSegmentTiles(tb, c, seg);
  TileRange walk = segmentWalk(tb, c, segmentBase(tb, c, seg));
  return {c, walk, segmentTileRuns(tb, c, walk)};
}

int64_t mlir::tcu::detail::walkSpan(const Collective &c) {
  if (c.lanePhase)
    return c.segmentSize + 7;
  return c.segmentSize + (walkHasLowerBound(c) ? T * T - 1 : 0);
}

Value mlir::tcu::detail::segmentTileRuns(TileBuilder &tb, const Collective &c,
                                         const TileRange &walk) {
  std::optional<int64_t> tiles;
  if (!ShapedType::isDynamic(c.segmentSize))
    tiles = tilesPerSegment(c);
  return clippedRuns(tb, tiles, T * T, walk.base, walk.end);
}

int64_t mlir::tcu::detail::tilesPerSegment(const Collective &c) {
  return (walkSpan(c) + T * T - 1) / (T * T);
}

Value mlir::tcu::detail::clippedRuns(TileBuilder &tb,
                                     std::optional<int64_t> count,
                                     int64_t width, Value base, Value end) {
  if (count && *count <= kUnclippedRuns)
    return tb.idx(*count);
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value left = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, end, base), tb.idx(0));
  Value runs = tb.ceilDiv(left, width);
  return count ? tb.min(runs, tb.idx(*count)) : runs;
}

int64_t mlir::tcu::detail::gridChunkLength(const Collective &c) {
  int64_t capped = (walkSpan(c) + kMaxGridChunks - 1) / kMaxGridChunks;
  capped = (capped + T * T - 1) / (T * T) * (T * T);
  return std::max(kGridChunk, capped);
}

int64_t mlir::tcu::detail::numGridChunks(const Collective &c) {
  int64_t length = gridChunkLength(c);
  return (walkSpan(c) + length - 1) / length;
}

Variant mlir::tcu::detail::partialsVariant(int64_t chunks) {
  return chunks > kGridChunk ? Variant::Grid : getDefaultVariant(chunks);
}

TileRange mlir::tcu::detail::gridChunkRange(TileBuilder &tb,
                                            const Collective &c, Value p) {
  OpBuilder &b = tb.builder();
  int64_t chunks = numGridChunks(c);
  Value seg = arith::DivUIOp::create(b, tb.location(), p, tb.idx(chunks));
  Value chunk = arith::RemUIOp::create(b, tb.location(), p, tb.idx(chunks));
  TileRange walk = segmentWalk(tb, c, tb.mul(seg, c.segmentSize));
  int64_t length = gridChunkLength(c);
  Value base = tb.add(walk.base, tb.mul(chunk, length));
  Value end = tb.min(tb.add(base, tb.idx(length)), walk.end);
  return {base, end, walk.from};
}
