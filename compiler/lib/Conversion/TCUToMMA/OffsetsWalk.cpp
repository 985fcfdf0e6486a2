//===- OffsetsWalk.cpp - a segment's tiles from an offsets buffer ---------===//
//
// Segments of any lengths, given as k+1 CSR offsets: segment s is
// input[off[s] .. off[s+1]). seg256n gives each segment one parallel
// iteration (a warp on the GPU) that walks its tiles from the tile at
// off[s] rounded down to a multiple of 256, the elements below off[s]
// masked (so whole tiles move as vectors wherever segments begin):
// docs/algorithms.md#offsets. The input ends at its last offset (clamped
// to the buffer), so a launch needs no n.
//
//===----------------------------------------------------------------------===//

#include "TileLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tcu;

namespace mlir::tcu::detail {

static constexpr int64_t T = kTileSize;

/// off[i] as stored, an index.
static Value storedOffset(TileBuilder &tb, Value offsets, Value i) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value raw = memref::LoadOp::create(b, loc, offsets, ValueRange{i});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), raw);
}

Value readOffset(TileBuilder &tb, const Collective &c, Value i) {
  if (!c.reverse)
    return storedOffset(tb, c.offsets, i);
  // The mirrored view's offsets: n - off[k - i] (n: the work item's).
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value stored = storedOffset(tb, c.offsets,
                              arith::SubIOp::create(b, loc, c.numSegments, i));
  return arith::SubIOp::create(b, loc, c.n, stored);
}

/// off[i] as an index, clamped into [lo, end]: offsets the kernel does not
/// check can make it compute nonsense, never read or write out of bounds.
Value clampedOffset(TileBuilder &tb, const Collective &c, Value i, Value lo,
                    Value end) {
  Value v = readOffset(tb, c, i);
  return tb.min(arith::MaxSIOp::create(tb.builder(), tb.location(), v, lo),
                end);
}

/// The input's end: its last offset, within the buffer. A caller that
/// knows only the offsets (the runtime's offsets API: n is off[k], on the
/// device) passes the input buffer as long as it may be; n comes from the
/// offsets then.
static Value inputEnd(TileBuilder &tb, const Collective &c) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value count = memref::DimOp::create(b, loc, c.offsets, 0);
  Value last = arith::SubIOp::create(b, loc, count, tb.idx(1));
  // As stored, also for a reverse scan (whose mirrored view needs it).
  Value v = storedOffset(tb, c.offsets, last);
  return tb.min(arith::MaxSIOp::create(b, loc, v, tb.idx(0)), c.n);
}

/// `buffer` seen as its first `n` elements: the tile accesses test whole
/// tiles against the buffer's length (whole-vector loads), so it must be
/// the length the offsets give, not the one a caller without n passes.
static Value firstElements(TileBuilder &tb, Value buffer, Value n) {
  OpBuilder &b = tb.builder();
  auto type = cast<MemRefType>(buffer.getType());
  auto view = MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  return memref::ReinterpretCastOp::create(
      b, tb.location(), view, buffer, OpFoldResult(b.getIndexAttr(0)),
      ArrayRef<OpFoldResult>{n}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

/// The collective as one work item sees it: input (and a scan's output)
/// cut to the n the offsets give.
static Collective withInputEnd(TileBuilder &tb, const Collective &c, Value n) {
  Collective item = c;
  item.n = n;
  item.input = firstElements(tb, c.input, n);
  if (c.isScan)
    item.output = firstElements(tb, c.output, n);
  // A reverse scan: the views mirrored about the item's n (n' = n).
  if (c.reverse)
    tb.setMirror(
        arith::SubIOp::create(tb.builder(), tb.location(), n, tb.idx(1)),
        {item.input, item.output});
  return item;
}

/// The walk over segment `seg`: its tiles from off[seg] rounded down to a
/// multiple of 256, nothing below off[seg] or at or past off[seg+1] read.
static TileRange offsetsWalk(TileBuilder &tb, const Collective &c, Value seg) {
  Value n = c.n;
  Value begin = clampedOffset(tb, c, seg, tb.idx(0), n);
  Value end = clampedOffset(tb, c, tb.add(seg, tb.idx(1)), begin, n);
  Value offset =
      arith::RemUIOp::create(tb.builder(), tb.location(), begin, tb.idx(T * T));
  Value origin =
      arith::SubIOp::create(tb.builder(), tb.location(), begin, offset);
  return {origin, end, begin};
}

Collective offsetsItem(TileBuilder &tb, const Collective &c) {
  return withInputEnd(tb, c, inputEnd(tb, c));
}

SegmentTiles offsetsSegmentTiles(TileBuilder &tb, const Collective &c,
                                 Value seg) {
  Collective item = offsetsItem(tb, c);
  TileRange walk = offsetsWalk(tb, item, seg);
  return {item, walk,
          clippedRuns(tb, std::nullopt, T * T, walk.base, walk.end)};
}

} // namespace mlir::tcu::detail
