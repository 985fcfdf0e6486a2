//===- BalancedOffsets.cpp - segments from offsets, load-balanced ---------===//
//
// The `balanced` variant (docs/algorithms.md#balanced): the input is cut
// into kBalancedItems equal runs of whole tiles, a one-warp block each,
// whatever the segments' lengths, so a tiny segment costs no warp of its
// own and a huge one is spread over every warp it covers. A warp walks its
// run's tiles once; the segment heads inside a tile (tcu.offset_heads)
// become masks on the tile products (SegmentedTile.cpp), and what crosses
// runs, the sum of the segment open at a run's end, passes along a
// look-back chain that starts wherever a segment does (tcu.block_lookback
// with `publish`).
//
// A run [b0, b1) is read in two parts: the lead [b0, h), the part of the
// segment open at b0 (h its end, or b0 where a segment starts there), and
// the body [h, b1), whose segments all start in the run. The body is
// scanned from a zero carry and its segments' sums (a reduction) or values
// (a scan) stored at once; the lead needs the chain's prefix, so its sum
// is published first (where the run holds no head) and a scan walks it
// again once the prefix is known.
//
//===----------------------------------------------------------------------===//

#include "ChainedScans.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tcu;

namespace mlir::tcu::detail {

static constexpr int64_t T = kTileSize;

/// The number of offsets in off[0 .. count) at or below x (sorted offsets:
/// a binary search, warp-uniform).
static Value offsetsAtOrBelow(TileBuilder &tb, const Collective &it,
                              Value count, Value x) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Type index = b.getIndexType();
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{index, index}, ValueRange{tb.idx(0), count},
      [&](OpBuilder &ob, Location l, ValueRange a) {
        Value more = arith::CmpIOp::create(ob, l, arith::CmpIPredicate::sgt,
                                           a[1], tb.idx(0));
        scf::ConditionOp::create(ob, l, more, a);
      },
      [&](OpBuilder &ob, Location l, ValueRange a) {
        Value half = arith::DivUIOp::create(ob, l, a[1], tb.idx(2));
        Value mid = arith::AddIOp::create(ob, l, a[0], half);
        // (`ob` is tb's builder, placed in the loop body.)
        Value v = readOffset(tb, it, mid);
        Value atOrBelow =
            arith::CmpIOp::create(ob, l, arith::CmpIPredicate::sle, v, x);
        Value rest = arith::SubIOp::create(ob, l, a[1], half);
        Value lo = arith::SelectOp::create(
            ob, l, atOrBelow, arith::AddIOp::create(ob, l, mid, tb.idx(1)),
            a[0]);
        Value len = arith::SelectOp::create(
            ob, l, atOrBelow, arith::SubIOp::create(ob, l, rest, tb.idx(1)),
            half);
        scf::YieldOp::create(ob, l, ValueRange{lo, len});
      });
  return loop.getResult(0);
}

/// One run's bounds and its place among the segments.
struct Run {
  Value item;       // the run's ticket
  Value length;     // elements per run (a multiple of 256)
  Value b0, b1;     // its elements
  Value seg;        // sA, the segment holding b0 (or the last one)
  Value h;          // the lead's end: the first head at or after b0, or b1
  Value open;       // sA began before b0 (the lead needs the chain's prefix)
  Value chainStart; // the run holding sA's head
};

/// The run with ticket q of `it` (n its input length, k >= 1 segments).
static Run runOf(TileBuilder &tb, const Collective &it, Value q) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  using P = arith::CmpIPredicate;
  Run r;
  r.item = q;
  Value tiles = tb.ceilDiv(it.n, T * T);
  // (At least one tile: an empty input still has runs to divide by.)
  r.length = tb.mul(arith::MaxSIOp::create(
                        b, loc, tb.ceilDiv(tiles, kBalancedItems), tb.idx(1)),
                    T * T);
  r.b0 = tb.min(tb.mul(q, r.length), it.n);
  r.b1 = tb.min(tb.add(r.b0, r.length), it.n);
  Value k = it.numSegments;
  Value last = arith::SubIOp::create(b, loc, k, tb.idx(1));
  Value below = offsetsAtOrBelow(tb, it, tb.add(k, tb.idx(1)), r.b0);
  // The last offset at or below b0 opens sA (clamped to a segment).
  r.seg = tb.min(
      arith::MaxSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, below, tb.idx(1)), tb.idx(0)),
      last);
  Value start = clampedOffset(tb, it, r.seg, tb.idx(0), r.b0);
  Value next = clampedOffset(tb, it, tb.add(r.seg, tb.idx(1)), r.b0, r.b1);
  r.open = arith::CmpIOp::create(b, loc, P::slt, start, r.b0);
  r.h = arith::SelectOp::create(b, loc, r.open, next, r.b0);
  r.chainStart = arith::DivUIOp::create(b, loc, start, r.length);
  return r;
}

/// The sum of `tiles` tiles from `base` (nothing at or past `end`),
/// tiles_per_warp in flight, in every element of an accumulator tile.
static Value tilesSum(TileBuilder &tb, const Collective &it, Value base,
                      Value tiles, Value end) {
  return tb.rowSums(reduceTileRuns(tb, it.input, base, tb.idx(0), tiles,
                                   tb.idx(1), end, it.tilesPerWarp));
}

/// The sum of elements [b0, h) (the lead), a scalar of the accumulator
/// type.
static Value leadSum(TileBuilder &tb, const Collective &it, const Run &r) {
  Value tiles = tb.ceilDiv(
      arith::SubIOp::create(tb.builder(), tb.location(), r.h, r.b0), T * T);
  return tb.element(tilesSum(tb, it, r.b0, tiles, r.h), 0, 0);
}

/// The next head at or after `base`: off[lo] (the first offset not yet
/// passed) clamped into [base, b1 + 1], b1 + 1 when none is left (no head
/// before b1, and no segment ends at b1).
static Value nextHead(TileBuilder &tb, const Collective &it, const Run &r,
                      Value lo, Value base) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value k = it.numSegments;
  Value beyond = tb.add(r.b1, tb.idx(1));
  return arith::SelectOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, lo, k),
      clampedOffset(tb, it, tb.min(lo, k), base, beyond), beyond);
}

/// The tiles from `base` (< b1) before the next head `head`, or every one
/// left where no head lies before b1: a stretch of one segment. A
/// reduction's stretch also stops before the tile of the last element of a
/// segment that ends in the run, where that segment's sum is written.
static Value headlessTiles(TileBuilder &tb, const Collective &it, const Run &r,
                           Value head, Value base) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  using P = arith::CmpIPredicate;
  Value rest = tb.ceilDiv(arith::SubIOp::create(b, loc, r.b1, base), T * T);
  Value lead = arith::SubIOp::create(b, loc, head, base);
  Value before =
      it.isScan ? lead : arith::SubIOp::create(b, loc, lead, tb.idx(1));
  Value reaches =
      arith::CmpIOp::create(b, loc, it.isScan ? P::sge : P::sgt, head, r.b1);
  return arith::SelectOp::create(
      b, loc, reaches, rest,
      arith::DivUIOp::create(b, loc, before, tb.idx(T * T)));
}

/// Walks the body [h, b1) from a zero carry. Where the next head lies past
/// the current tile, the tiles before it are one segment's stretch:
/// `bulk(base, tiles, carry)` reads them (tiles_per_warp in flight) and
/// returns the carry after them, so long segments stream as the lead
/// does. Otherwise the tile is read alone, its heads read
/// before its load is issued (measured faster than the other order:
/// docs/rationale.md#balanced); `visit(R, base, limit, extras)` gets its
/// segmented scan and returns the next `extras` (loop-carried from
/// `extras0`). Returns the carry at b1 (the sum of the segment open there,
/// from its head or from h) and the extras.
static SmallVector<Value> walkBody(
    TileBuilder &tb, const Collective &it, const Run &r, ValueRange extras0,
    function_ref<Value(Value base, Value tiles, Value carry)> bulk,
    function_ref<SmallVector<Value>(Value, Value, Value, ValueRange)> visit) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  using P = arith::CmpIPredicate;
  Type index = b.getIndexType();
  Value first =
      tb.mul(arith::DivUIOp::create(b, loc, r.h, tb.idx(T * T)), T * T);
  Value hi = tb.add(it.numSegments, tb.idx(1));
  SmallVector<Value> init{first, zeroCarry(tb, it), r.seg};
  llvm::append_range(init, extras0);
  SmallVector<Type> types;
  for (Value v : init)
    types.push_back(v.getType());
  auto loop = scf::WhileOp::create(
      b, loc, types, init,
      [&](OpBuilder &ob, Location l, ValueRange a) {
        Value more = arith::CmpIOp::create(ob, l, P::slt, a[0], r.b1);
        scf::ConditionOp::create(ob, l, more, a);
      },
      [&](OpBuilder &ob, Location l, ValueRange a) {
        Value base = a[0], carry = a[1], lo = a[2];
        ValueRange extras = a.drop_front(3);
        // At least one tile without a head (a reduction's: nor the last
        // element of a segment) lies ahead when the next head is past it.
        Value head = nextHead(tb, it, r, lo, base);
        Value headless = arith::CmpIOp::create(
            ob, l, P::sge, head,
            tb.add(base, tb.idx(it.isScan ? T * T : T * T + 1)));
        auto ifOp = scf::IfOp::create(ob, l, TypeRange(types), headless,
                                      /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard guard(ob);
          ob.setInsertionPointToStart(ifOp.thenBlock());
          Value stretch = headlessTiles(tb, it, r, head, base);
          SmallVector<Value> next{tb.add(base, tb.mul(stretch, T * T)),
                                  bulk(base, stretch, carry), lo};
          llvm::append_range(next, extras);
          scf::YieldOp::create(ob, l, next);
          ob.setInsertionPointToStart(ifOp.elseBlock());
          auto heads = OffsetHeadsOp::create(
              ob, l, tb.tileType(ob.getI32Type()), index, index, it.offsets, lo,
              hi, base, it.reverse ? it.n : Value());
          Value tile = loadScanTile(tb, it, base, r.b1, /*from=*/r.h);
          auto [rTile, carried] =
              segmentedScanTile(tb, it, tile, heads.getRows(), heads.getMost(),
                                carry, /*endsOnly=*/!it.isScan);
          SmallVector<Value> other{tb.add(base, tb.idx(T * T)), carried,
                                   heads.getNext()};
          llvm::append_range(
              other, visit(rTile, base,
                           tb.min(tb.add(base, tb.idx(T * T)), r.b1), extras));
          scf::YieldOp::create(ob, l, other);
        }
        scf::YieldOp::create(ob, l, ifOp.getResults());
      });
  SmallVector<Value> results{loop.getResult(1)};
  llvm::append_range(results, loop.getResults().drop_front(3));
  return results;
}

/// The chain step: publishes the run's aggregate (the sum of the segment
/// open at b1: from its head where the run holds one, else the lead's
/// sum) and returns the sum of the earlier runs' part of sA.
static Value lookBack(TileBuilder &tb, const Collective &it, const Run &r,
                      Value state, Value totals, Value tail, Value lead) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Type acc = TileBuilder::accumulatorFor(inputElementType(it.input));
  Value hasHead =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r.h, r.b1);
  Value aggregate = arith::SelectOp::create(b, loc, hasHead, tail, lead);
  // Words are 1-based (word 0 is the ticket counter).
  Value word = tb.add(r.item, tb.idx(1));
  Value first = tb.add(r.chainStart, tb.idx(1));
  Value publish = arith::SelectOp::create(b, loc, hasHead, word, first);
  auto op = BlockLookbackOp::create(
      b, loc, acc, acc, aggregate, totals, tb.idx(0), tb.idx(0),
      b.getI64IntegerAttr(1), state, word, first, publish);
  return op.getChunkPrefix();
}

/// The chain's state and a run's exchange buffer (tcu.block_lookback's,
/// per item: allocated at the item's top level, where the GPU lowering
/// gives it workgroup memory).
struct Chain {
  Value state, totals;
};

/// The runs: a ticket each (tcu.ticket: a run waits only on runs drawn
/// before it), `body` for those with elements (or the first, which writes
/// the empty segments of an empty input), none for k = 0.
static void forEachRun(
    TileBuilder &tb, const Collective &c,
    function_ref<void(const Collective &, const Run &, const Chain &)> body) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  using P = arith::CmpIPredicate;
  Value state = zeroedChainState(tb, tb.idx(kBalancedItems + 1));
  Type acc = TileBuilder::accumulatorFor(inputElementType(c.input));
  tb.parallel(tb.idx(kBalancedItems), [&](Value) {
    Value totals = memref::AllocOp::create(b, loc, MemRefType::get({2}, acc));
    Value q = TicketOp::create(b, loc, b.getIndexType(), state, tb.idx(0));
    Collective it = offsetsItem(tb, c);
    Run r = runOf(tb, it, q);
    Value active = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, P::sgt, it.numSegments, tb.idx(0)),
        arith::OrIOp::create(
            b, loc, arith::CmpIOp::create(b, loc, P::slt, r.b0, it.n),
            arith::CmpIOp::create(b, loc, P::eq, q, tb.idx(0))));
    auto ifOp = scf::IfOp::create(b, loc, active);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      body(it, r, Chain{state, totals});
    }
    memref::DeallocOp::create(b, loc, totals);
  });
  memref::DeallocOp::create(b, loc, state);
}

void reduceBalanced(TileBuilder &tb, const Collective &collective) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Collective c = withQuadsFor16Bit(collective);
  c.inclusive = true;
  forEachRun(tb, c, [&](const Collective &it, const Run &r, const Chain &ch) {
    Value lead = leadSum(tb, it, r);
    // Segments after sA (all of them in the first run) end in the body.
    Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          r.item, tb.idx(0));
    Value written = arith::SelectOp::create(
        b, loc, isFirst, tb.idx(0),
        arith::SelectOp::create(b, loc, r.open, tb.add(r.seg, tb.idx(1)),
                                r.seg));
    Value k = it.numSegments;
    SmallVector<Value> walked = walkBody(
        tb, it, r, {written},
        [&](Value base, Value tiles, Value carry) {
          return addAcc(tb, carry, tilesSum(tb, it, base, tiles, r.b1));
        },
        [&](Value rTile, Value base, Value limit,
            ValueRange w) -> SmallVector<Value> {
          return {StoreSegmentEndsOp::create(
              b, loc, b.getIndexType(), rTile, it.offsets, w[0], k, base,
              tb.add(limit, tb.idx(1)), it.output, it.scanOrder)};
        });
    Value tail = walked[0];
    // The empty segments at b1 (a body of no tiles leaves them): their
    // sums are 0, whatever the tile.
    StoreSegmentEndsOp::create(
        b, loc, b.getIndexType(), tb.zeroAcc(inputElementType(it.input)),
        it.offsets, walked[1], k, r.b1, tb.add(r.b1, tb.idx(1)), it.output);
    Value prefix =
        lookBack(tb, it, r, ch.state, ch.totals, tb.element(tail, 0, 0), lead);
    // sA, if it ends in this run, has the chain's prefix plus the lead.
    Value end = clampedOffset(tb, it, tb.add(r.seg, tb.idx(1)), r.b0, it.n);
    Value ends = arith::AndIOp::create(
        b, loc, r.open,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end, r.b1));
    Value sum = tb.broadcast(addAcc(tb, prefix, lead), prefix.getType());
    tb.storeRow(
        sum, 0, it.output, r.seg,
        arith::SelectOp::create(b, loc, ends, tb.add(r.seg, tb.idx(1)), r.seg));
  });
}

void scanBalanced(TileBuilder &tb, const Collective &collective) {
  Collective c = withQuadsFor16Bit(collective);
  forEachRun(tb, c, [&](const Collective &it, const Run &r, const Chain &ch) {
    Value lead = leadSum(tb, it, r);
    Value tail = walkBody(
        tb, it, r, {},
        [&](Value base, Value tiles, Value carry) {
          return scanTileRuns(tb, it, base, tiles, r.b1, carry, r.h);
        },
        [&](Value rTile, Value base, Value limit,
            ValueRange) -> SmallVector<Value> {
          storeScanTile(tb, it, rTile, base, limit,
                        /*from=*/r.h);
          return {};
        })[0];
    Value prefix =
        lookBack(tb, it, r, ch.state, ch.totals, tb.element(tail, 0, 0), lead);
    // The lead again, now from the chain's prefix (0 where sA starts at
    // b0: the lead is empty then).
    Value tiles = tb.ceilDiv(
        arith::SubIOp::create(tb.builder(), tb.location(), r.h, r.b0), T * T);
    scanTileRuns(tb, it, r.b0, tiles, r.h,
                 tb.broadcast(prefix, prefix.getType()));
  });
}

} // namespace mlir::tcu::detail
