//===- ReduceVariants.cpp - segmented reduction algorithms ----------------===//
//
// Notation (docs/algorithms.md): a tile A is 16x16; P has ones in row 0, so
// P·A puts the column sums of A in row 0, and V·PT sums row 0 of V into
// V[0][0]; that last step is tcu.row_sums (f32/i32 adds,
// docs/design.md#precision), not a split product. `tb.mulConst(P, A, V)` emits
// `V + P·A` as tcu.mma.
//
// The code multiplies by Ones where the paper has P: row 0 of Ones·A is
// P·A's row 0 (the other rows repeat it, and only row 0 is ever read), but
// Ones has no zero entry, so no 0·NaN or 0·Inf can arise: NaN and Inf
// propagate as IEEE adds without the per-product check and exact path that
// products with zeros need on the GPU (docs/algorithms.md, "NaN and Inf").
// Only the packed variant, whose rows are different segments, keeps P with
// blocks.
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

Value mlir::tcu::detail::reduceTiles(TileBuilder &tb, Value src, Value base,
                                     Value first, int64_t count, Value step,
                                     Value end, int64_t inFlight, Value from) {
  return reduceTileRuns(tb, src, base, first,
                        clippedRuns(tb, count, T * T, base, end), step, end,
                        inFlight, from);
}

Value mlir::tcu::detail::reduceTileRuns(TileBuilder &tb, Value src, Value base,
                                        Value first, Value runs, Value step,
                                        Value end, int64_t inFlight,
                                        Value from) {
  Type elt = cast<MemRefType>(src.getType()).getElementType();
  return forTileGroups(
      tb, first, runs, step, inFlight, end, {tb.zeroAcc(elt)},
      [&](ArrayRef<Value> tiles, ArrayRef<Value> limits,
          ValueRange carried) -> SmallVector<Value> {
        // Every load first, then the products: the loads are in flight
        // together. Every element is summed into one total: any order.
        SmallVector<Value> loaded;
        // Consecutive tiles (step 1: seg256n, the grid's chunks) are
        // written at constant offsets from the first: LLVM addresses a
        // ragged group's masked path better so
        // (docs/rationale.md#reduce-constant-offsets).
        bool consecutive = isConstantIntValue(step, 1);
        Value first = tb.add(base, tb.mul(tiles.front(), T * T));
        for (auto [i, t, limit] : llvm::enumerate(tiles, limits)) {
          Value at = i == 0        ? first
                     : consecutive ? tb.add(first, tb.idx(int64_t(i) * T * T))
                                   : tb.add(base, tb.mul(t, T * T));
          loaded.push_back(tb.loadTile(TileLayout::Rows, src, at, tb.idx(T),
                                       tb.idx(T), limit, ElementOrder::Tile,
                                       from));
        }
        Value v = carried[0];
        for (Value a : loaded)
          v = tb.mulConst(MatrixKind::Ones, a, v);
        return {v};
      })[0];
}
void mlir::tcu::detail::storeTotal(TileBuilder &tb, Value v, Value dest,
                                   Value index, bool accumulate, Value bound) {
  // (V·PT)[0][0] is the sum of row 0 of V: tcu.row_sums gives it with f32
  // (i32) adds instead of a split into three (five) products. The row
  // store's limit keeps it to column 0 (index + 1), and to nothing at or
  // past `bound`.
  Value r = tb.rowSums(v);
  Value limit = tb.add(index, tb.idx(1));
  tb.storeRow(r, 0, dest, index, bound ? tb.min(limit, bound) : limit,
              accumulate);
}
/// Reduction16 (segment_size <= 16): one tile holds 16 segments, column j =
/// segment j (column-major load, line length = segment size); V = P·A and
/// row 0 of V is the 16 segment sums. A warp takes tiles_per_warp groups of
/// 16 segments and loads all their tiles first.
static void reduceSeg16(TileBuilder &tb, const Collective &c) {
  parallelGroups(tb, tb.ceilDiv(c.numSegments, T), c.tilesPerWarp,
                 [&](ArrayRef<Value> groups) {
                   // A line is a segment, summed whole: order free within
                   // it. A group past the end loads and stores nothing
                   // (limits n and numSegments).
                   SmallVector<Value> loaded;
                   for (Value g : groups)
                     loaded.push_back(tb.loadTile(
                         TileLayout::Cols, c.input, segmentBase(tb, c, g, T),
                         c.segment, c.segment, c.n, ElementOrder::Line));
                   for (auto [g, a] : llvm::zip(groups, loaded)) {
                     Value v =
                         tb.mulConst(MatrixKind::Ones, a, tb.zeroAccLike(a));
                     tb.storeRow(v, 0, c.output, tb.mul(g, T), c.numSegments);
                   }
                 });
}

/// Reduction256 (segment_size <= 256): the segment is one row-major tile;
/// V = P·A, R = V·PT (as row_sums), R[0][0] is the sum. A warp takes
/// tiles_per_warp segments and loads all their tiles first.
static void reduceSeg256(TileBuilder &tb, const Collective &c) {
  int64_t k = c.tilesPerWarp;
  parallelGroups(tb, c.numSegments, k, [&](ArrayRef<Value> segs) {
    // The tile is summed whole: any order. A segment past the end starts
    // at or past n, so its load selects nothing.
    SmallVector<Value> loaded;
    for (Value seg : segs) {
      Value base = segmentBase(tb, c, seg);
      loaded.push_back(tb.loadTile(TileLayout::Rows, c.input, base, tb.idx(T),
                                   tb.idx(T), segmentEnd(tb, c, base),
                                   ElementOrder::Tile));
    }
    for (auto [seg, a] : llvm::zip(segs, loaded)) {
      Value v = tb.mulConst(MatrixKind::Ones, a, tb.zeroAccLike(a));
      // Only a group of several can run past the last segment.
      storeTotal(tb, v, c.output, seg, /*accumulate=*/false,
                 k > 1 ? c.numSegments : Value());
    }
  });
}

/// Packed Reduction256 (segment_size = 16m, m <= 16): a tile holds k =
/// floor(16 / m) whole segments (the 256 consecutive elements from
/// g·k·S; elements past k·S masked off), so every load is a whole tile of
/// consecutive elements, where the strided variants read 16-element lines
/// a segment apart.
/// - m a power of two (S = 16, 32, 64, 128): line j of 16 elements is tile
///   column j, so segment i is columns [i·m, (i+1)·m). V = Ones·A has the
///   16 line sums in row 0; row_sums with blocks of m columns adds each
///   segment's, and row 0's columns 0, m, 2m, ... are stored. Ones has no
///   zero entry, so no 0 · NaN can arise and the product needs no NaN
///   check (P with blocks, below, has zeros).
/// - otherwise: line j is row j, segment i is rows [i·m, (i+1)·m); P with
///   blocks of m columns (row i: ones in columns [i·m, (i+1)·m)) gives
///   V = P_m·A, whose row i holds the column sums of segment i; row_sums
///   puts its total in every column, and column 0 of rows 0..k-1 is stored
///   (a line of one element per row).
static void reducePacked(TileBuilder &tb, const Collective &c) {
  int64_t rows = packedRows(c), perTile = T / rows;
  bool asColumns = llvm::isPowerOf2_64(rows);
  parallelPackedTiles(tb, c, [&](ArrayRef<PackedTile> tiles) {
    // A line lies in one segment, summed whole: order free within it. A
    // tile past the last one loads nothing, and its first segment is at
    // or past numSegments: it stores nothing.
    SmallVector<Value> loaded;
    for (const PackedTile &t : tiles)
      loaded.push_back(
          tb.loadTile(asColumns ? TileLayout::Cols : TileLayout::Rows, c.input,
                      t.base, tb.idx(T), tb.idx(T), t.end, ElementOrder::Line));
    for (auto [t, a] : llvm::zip(tiles, loaded)) {
      Value first = tb.mul(t.index, perTile);
      Value limit = tb.min(tb.add(first, tb.idx(perTile)), c.numSegments);
      if (asColumns) {
        Value v = tb.mulConst(MatrixKind::Ones, a, tb.zeroAccLike(a));
        tb.storeRow(tb.rowSums(v, rows), 0, c.output, first, limit,
                    /*accumulate=*/false, /*step=*/rows);
        continue;
      }
      Value v = tb.mulConst(MatrixKind::P, a, tb.zeroAccLike(a), rows);
      tb.storeTile(tb.rowSums(v), c.output, first, tb.idx(1), tb.idx(1), limit);
    }
  });
}

/// Work-efficient Reduction256N: V += P·A_i over the segment's tiles, then a
/// single R = V·PT (as row_sums). Segments of one size or from offsets.
static void reduceSeg256N(TileBuilder &tb, const Collective &c) {
  auto loop = tb.parallel(c.numSegments, [&](Value seg) {
    SegmentTiles s = segmentTiles(tb, c, seg);
    Value v =
        reduceTileRuns(tb, s.item.input, s.walk.base, tb.idx(0), s.runs,
                       tb.idx(1), s.walk.end, c.tilesPerWarp, s.walk.from);
    storeTotal(tb, v, s.item.output, seg);
  });
  // Tile runs: docs/rationale.md#reduce-tile-runs.
  markTileRuns(tb, loop);
}

/// Strided Reduction16N over the part [offset, offset + length) of each
/// segment: a tile holds 16 segments as columns (leading dimension =
/// segment size), 16 elements of each per step; V += P·A_j, with
/// tiles_per_warp steps loaded before they are multiplied.
/// `length` (index) is the part's length: a constant, or the runtime
/// segment size.
static void reduceStrided(TileBuilder &tb, const Collective &c, Value group,
                          int64_t offset, Value length, bool accumulate) {
  Value groupBase = tb.add(segmentBase(tb, c, group, T), tb.idx(offset));
  // Line 0 starts first: no line has an element at a step past its end,
  // which bounds the steps where the length is not a constant.
  std::optional<int64_t> steps;
  Value end = c.n;
  if (std::optional<int64_t> known = getConstantIntValue(length))
    steps = (*known + T - 1) / T;
  else
    end = tb.min(tb.add(groupBase, length), c.n);
  Type elt = cast<MemRefType>(c.input.getType()).getElementType();
  Value v = forTileGroups(
      tb, tb.idx(0), clippedRuns(tb, steps, T, groupBase, end), tb.idx(1),
      c.tilesPerWarp, c.n, {tb.zeroAcc(elt)},
      [&](ArrayRef<Value> js, ArrayRef<Value> limits,
          ValueRange carried) -> SmallVector<Value> {
        SmallVector<Value> loaded;
        for (auto [j, limit] : llvm::zip(js, limits)) {
          Value jT = tb.mul(j, T);
          Value lineLength =
              arith::SubIOp::create(tb.builder(), tb.location(), length, jT);
          // Lines are segments: order free within each.
          loaded.push_back(tb.loadTile(TileLayout::Cols, c.input,
                                       tb.add(groupBase, jT), c.segment,
                                       lineLength, limit, ElementOrder::Line));
        }
        Value v = carried[0];
        for (Value a : loaded)
          v = tb.mulConst(MatrixKind::Ones, a, v);
        return {v};
      })[0];
  tb.storeRow(v, 0, c.output, tb.mul(group, T), c.numSegments, accumulate);
}

static void reduceSeg16NStrided(TileBuilder &tb, const Collective &c) {
  tb.parallel(tb.ceilDiv(c.numSegments, T), [&](Value g) {
    reduceStrided(tb, c, g, 0, c.segment, /*accumulate=*/false);
  });
}

/// Coalesced Reduction16N: each segment's whole 256-element chunks are
/// reduced as in 256N (coalesced rows), the remainder of 16 segments at a
/// time as in the strided variant, added onto the chunk sums.
static void reduceSeg16NCoalesced(TileBuilder &tb, const Collective &c) {
  int64_t full = (c.segmentSize / (T * T)) * (T * T);
  int64_t rest = c.segmentSize - full;
  tb.parallel(tb.ceilDiv(c.numSegments, T), [&](Value g) {
    if (full > 0) {
      Value first = tb.mul(g, T);
      Value last = tb.min(tb.add(first, tb.idx(T)), c.numSegments);
      tb.forLoop(first, last, tb.idx(1), {},
                 [&](Value seg, ValueRange) -> SmallVector<Value> {
                   Value base = tb.mul(seg, c.segmentSize);
                   Value end = tb.min(tb.add(base, tb.idx(full)), c.n);
                   Value v =
                       reduceTiles(tb, c.input, base, tb.idx(0), full / (T * T),
                                   tb.idx(1), end, c.tilesPerWarp);
                   storeTotal(tb, v, c.output, seg);
                   return {};
                 });
    }
    if (rest > 0)
      reduceStrided(tb, c, g, full, tb.idx(rest), /*accumulate=*/full > 0);
  });
}

/// Block level: W warps share a segment (warps_per_block, else
/// kBlockWarps), warp w taking tiles w, w + W, ...; each leaves row 0 of its
/// V_w as row w of a partials tile (block shared memory), and P·T then ·PT
/// (row_sums) sums them.
static void reduceBlock(TileBuilder &tb, const Collective &c) {
  int64_t tiles = tilesPerSegment(c);
  int64_t stride = c.warpsPerBlock ? c.warpsPerBlock : kBlockWarps;
  // Warps that own at least one tile: warp w takes tiles w, w + W, ...
  int64_t warps = std::min(tiles, stride);
  Type elt = cast<MemRefType>(c.input.getType()).getElementType();
  Type acc = TileBuilder::accumulatorFor(elt);
  OpBuilder &b = tb.builder();
  tb.parallel(c.numSegments, [&](Value seg) {
    // Per-block scratch (shared memory on the GPU). A heap buffer, not an
    // alloca: canonicalization hoists allocas out of alloca_scope into the
    // loop body, where nothing would release them (a stack overflow with
    // a million segments).
    Value partials = memref::AllocOp::create(b, tb.location(),
                                             MemRefType::get({T * T}, acc));
    TileRange walk = segmentWalk(tb, c, tb.mul(seg, c.segmentSize));
    tb.forLoop(tb.idx(0), tb.idx(warps), tb.idx(1), {},
               [&](Value w, ValueRange) -> SmallVector<Value> {
                 Value v = reduceTiles(tb, c.input, walk.base, w, tiles,
                                       tb.idx(stride), walk.end, c.tilesPerWarp,
                                       walk.from);
                 Value row = tb.mul(w, T);
                 tb.storeRow(v, 0, partials, row, tb.add(row, tb.idx(T)));
                 return {};
               });
    // Only the rows of warps that ran were written.
    Value p = tb.loadTile(TileLayout::Rows, partials, tb.idx(0), tb.idx(T),
                          tb.idx(T), tb.idx(warps * T));
    Value colSums = tb.mulConst(MatrixKind::Ones, p, tb.zeroAcc(acc));
    storeTotal(tb, colSums, c.output, seg);
    memref::DeallocOp::create(b, tb.location(), partials);
  });
}

/// Grid level: the segment is cut into chunks (gridChunkLength), one warp
/// each; pass 1 writes each chunk's sum to a scratch buffer, pass 2
/// reduces the partials of each segment (segments of ceil(S / chunk)).
static void reduceGrid(TileBuilder &tb, const Collective &c) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  int64_t chunks = numGridChunks(c);
  Type elt = cast<MemRefType>(c.input.getType()).getElementType();
  Type acc = TileBuilder::accumulatorFor(elt);
  Value numPartials = tb.mul(c.numSegments, chunks);
  Value scratch = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, acc),
      ValueRange{numPartials});

  auto loop = tb.parallel(numPartials, [&](Value p) {
    TileRange chunk = gridChunkRange(tb, c, p);
    Value v = reduceTiles(tb, c.input, chunk.base, tb.idx(0),
                          gridChunkLength(c) / (T * T), tb.idx(1), chunk.end,
                          c.tilesPerWarp, chunk.from);
    storeTotal(tb, v, scratch, p);
  });
  markTileRuns(tb, loop);

  Collective second = c;
  second.input = scratch;
  second.segmentSize = chunks;
  second.segment = tb.idx(chunks);
  second.n = numPartials;
  emitReduce(tb, second, partialsVariant(chunks));
  memref::DeallocOp::create(b, loc, scratch);
}

void mlir::tcu::detail::emitReduce(TileBuilder &tb, const Collective &c,
                                   Variant variant) {
  switch (variant) {
  case Variant::Seg16:
    return reduceSeg16(tb, c);
  case Variant::Seg256:
    return reduceSeg256(tb, c);
  case Variant::Seg256N:
    return reduceSeg256N(tb, c);
  case Variant::Seg16NStrided:
    return reduceSeg16NStrided(tb, c);
  case Variant::Seg16NCoalesced:
    return reduceSeg16NCoalesced(tb, c);
  case Variant::Block:
    return reduceBlock(tb, c);
  case Variant::Grid:
    return reduceGrid(tb, c);
  case Variant::Packed:
    return reducePacked(tb, c);
  case Variant::Balanced:
    return reduceBalanced(tb, c);
  case Variant::Seg16N:
  case Variant::Lookback:
  case Variant::Lagged:
  case Variant::Stream:
  case Variant::MatMulScan:
    break;
  }
  llvm_unreachable("variant checked by the verifier");
}
