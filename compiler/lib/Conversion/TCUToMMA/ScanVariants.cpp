//===- ScanVariants.cpp - the papers' segmented scan algorithms -----------===//
//
// One function per variant of tcu.segmented_scan, built from the tile steps
// of ScanTiles.h (notation there and in docs/algorithms.md). The
// single-pass variants, lookback and lagged, are in LookbackScan.cpp and
// LaggedScan.cpp.
//
//===----------------------------------------------------------------------===//

#include "ChainedScans.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::detail;

static constexpr int64_t T = kTileSize;

/// segment size); R = A·U scans every row at once. A warp takes
/// tiles_per_warp tiles of 16 segments and loads them all first.
static void scanSeg16(TileBuilder &tb, const Collective &c) {
  Value s = c.segment;
  parallelGroups(tb, tb.ceilDiv(c.numSegments, T), c.tilesPerWarp,
                 [&](ArrayRef<Value> groups) {
                   // A tile past the end starts at or past n: its load and
                   // store (limit n) select nothing.
                   SmallVector<Value> bases, loaded;
                   for (Value g : groups) {
                     bases.push_back(segmentBase(tb, c, g, T));
                     loaded.push_back(tb.loadTile(TileLayout::Rows, c.input,
                                                  bases.back(), s, s, c.n));
                   }
                   for (auto [base, a] : llvm::zip(bases, loaded)) {
                     Value r =
                         tb.mulByConst(a, rowScanMatrix(c), zeroCarry(tb, c));
                     tb.storeTile(r, c.output, base, s, s, c.n);
                   }
                 });
}

/// Scan256 (segment_size <= 256): one tile, R = A·U + (L·A)·Ones. A warp
/// takes tiles_per_warp segments and loads them all first.
static void scanSeg256(TileBuilder &tb, const Collective &c) {
  parallelGroups(tb, c.numSegments, c.tilesPerWarp, [&](ArrayRef<Value> segs) {
    // A segment past the end starts at or past n: its end (n) selects
    // nothing.
    SmallVector<Value> bases, ends, loaded;
    for (Value seg : segs) {
      bases.push_back(segmentBase(tb, c, seg));
      ends.push_back(segmentEnd(tb, c, bases.back()));
      loaded.push_back(loadScanTile(tb, c, bases.back(), ends.back()));
    }
    for (auto [base, end, a] : llvm::zip(bases, ends, loaded))
      scanLoadedTile(tb, c, a, base, end, zeroCarry(tb, c));
  });
}

/// Packed Scan256 (segment_size = 16m, m <= 16): a tile holds k =
/// floor(16 / m) whole segments of m rows each (row-major, rows past k·m
/// masked off), and L is cut into diagonal blocks of m rows, so L·A sums
/// only the earlier rows of each row's own segment: R = A·U + (L_m·A)·Ones
/// scans k segments at once. Loads and stores are whole tiles of
/// consecutive elements (seg16n reads 16-element lines a segment apart).
static void scanPacked(TileBuilder &tb, const Collective &c) {
  parallelPackedTiles(tb, c, [&](ArrayRef<PackedTile> tiles) {
    SmallVector<Value> loaded;
    for (const PackedTile &t : tiles)
      loaded.push_back(loadScanTile(tb, c, t.base, t.end));
    for (auto [t, a] : llvm::zip(tiles, loaded)) {
      Value r = scanTile(tb, c, a, zeroCarry(tb, c), packedRows(c)).first;
      storeScanTile(tb, c, r, t.base, t.end);
    }
  });
}

/// Scan256N: the segment's tiles in order, R = A·U + (L·A)·Ones + S.
/// Segments of one size or from offsets.
static void scanSeg256N(TileBuilder &tb, const Collective &c) {
  tb.parallel(c.numSegments, [&](Value seg) {
    SegmentTiles s = segmentTiles(tb, c, seg);
    scanTileRuns(tb, s.item, s.walk.base, s.runs, s.walk.end,
                 zeroCarry(tb, s.item), s.walk.from);
  });
}

/// Strided Scan16N: row i of a tile is 16 elements of segment i (leading
/// dimension = segment size); R = A·U + S, and the carry S += A·Ones (every
/// column of A·Ones is the row's total) moves along the segments. A warp
/// loads tiles_per_warp steps before it scans the first of them.
static void scanSeg16N(TileBuilder &tb, const Collective &c) {
  int64_t s = c.segmentSize;
  int64_t steps = (s + T - 1) / T;
  tb.parallel(tb.ceilDiv(c.numSegments, T), [&](Value g) {
    Value groupBase = tb.mul(g, T * s);
    // Row 0 starts first: no row has an element at a step past its end.
    forTileGroups(tb, tb.idx(0), clippedRuns(tb, steps, T, groupBase, c.n),
                  tb.idx(1), c.tilesPerWarp, c.n, {zeroCarry(tb, c)},
                  [&](ArrayRef<Value> js, ArrayRef<Value> limits,
                      ValueRange carried) -> SmallVector<Value> {
                    SmallVector<Value> bases, lineLengths, loaded;
                    for (auto [j, limit] : llvm::zip(js, limits)) {
                      Value jT = tb.mul(j, T);
                      bases.push_back(tb.add(groupBase, jT));
                      lineLengths.push_back(arith::SubIOp::create(
                          tb.builder(), tb.location(), tb.idx(s), jT));
                      loaded.push_back(tb.loadTile(TileLayout::Rows, c.input,
                                                   bases.back(), tb.idx(s),
                                                   lineLengths.back(), limit));
                    }
                    Value carry = carried[0];
                    for (auto [base, lineLength, limit, a] :
                         llvm::zip(bases, lineLengths, limits, loaded)) {
                      Value r = tb.mulByConst(a, rowScanMatrix(c), carry);
                      tb.storeTile(r, c.output, base, tb.idx(s), lineLength,
                                   limit);
                      carry = tb.mulByConst(a, MatrixKind::Ones, carry);
                    }
                    return {carry};
                  });
  });
}

int64_t mlir::tcu::detail::blockScanWarps(int64_t segmentSize,
                                          Type inputElement) {
  int64_t perWarp = int64_t(1)
                    << (inputElement.getIntOrFloatBitWidth() == 16 ? 13 : 16);
  int64_t warps = 4;
  while (warps < 16 && segmentSize / perWarp >= 2 * warps)
    warps *= 2;
  return warps;
}

/// Block level: the W warps of a block (warps_per_block, else blockScanWarps)
/// share one segment and walk it chunk by chunk (scanChunkInBlock), the
/// segment's carry passed along. Unlike seg256n, a segment's loads are
/// spread over W warps, which evens out the waves when segments are few and
/// long. The
/// totals are double-buffered by chunk parity: a warp may store the next
/// chunk's total while another still reads this chunk's.
void mlir::tcu::detail::scanBlock(TileBuilder &tb, const Collective &c) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  int64_t warps = c.warpsPerBlock ? c.warpsPerBlock
                                  : blockScanWarps(c.segmentSize,
                                                   inputElementType(c.input));
  int64_t chunkLength = warps * c.tilesPerWarp * T * T;
  int64_t chunks = (walkSpan(c) + chunkLength - 1) / chunkLength;
  Type acc = TileBuilder::accumulatorFor(inputElementType(c.input));
  tb.parallel(c.numSegments, [&](Value seg) {
    // Per-block scratch (shared memory on the GPU; a heap buffer on the
    // CPU, see reduceBlock).
    Value totals =
        memref::AllocOp::create(b, loc, MemRefType::get({2 * warps}, acc));
    TileRange walk = segmentWalk(tb, c, tb.mul(seg, c.segmentSize));
    Value count = clippedRuns(tb, chunks, chunkLength, walk.base, walk.end);
    tb.forLoop(tb.idx(0), count, tb.idx(1), {zeroScalar(tb, acc)},
               [&](Value i, ValueRange carried) -> SmallVector<Value> {
                 Value chunkBase = tb.add(walk.base, tb.mul(i, chunkLength));
                 Value parity = arith::RemUIOp::create(b, loc, i, tb.idx(2));
                 return {scanChunkInBlock(tb, c, totals, tb.mul(parity, warps),
                                          warps, chunkBase, walk.end, walk.from,
                                          carried[0])};
               });
    memref::DeallocOp::create(b, loc, totals);
  });
}

/// total, pass 2 scans those totals per segment (exclusive, with the same
/// algorithms), pass 3 scans every chunk starting from its prefix.
static void scanGrid(TileBuilder &tb, const Collective &c) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  int64_t chunks = numGridChunks(c);
  int64_t chunkTiles = gridChunkLength(c) / (T * T);
  Type acc = TileBuilder::accumulatorFor(inputElementType(c.input));
  auto scratchType = MemRefType::get({ShapedType::kDynamic}, acc);
  Value numPartials = tb.mul(c.numSegments, chunks);
  Value totals =
      memref::AllocOp::create(b, loc, scratchType, ValueRange{numPartials});
  Value prefix =
      memref::AllocOp::create(b, loc, scratchType, ValueRange{numPartials});

  tb.parallel(numPartials, [&](Value p) {
    TileRange chunk = gridChunkRange(tb, c, p);
    Value v = reduceTiles(tb, c.input, chunk.base, tb.idx(0), chunkTiles,
                          tb.idx(1), chunk.end, c.tilesPerWarp, chunk.from);
    storeTotal(tb, v, totals, p);
  });

  emitScan(tb, partialsScan(tb, c, totals, prefix, chunks, numPartials),
           partialsVariant(chunks));

  tb.parallel(numPartials, [&](Value p) {
    TileRange chunk = gridChunkRange(tb, c, p);
    Value start = memref::LoadOp::create(b, loc, prefix, p);
    scanTiles(tb, c, chunk.base, chunkTiles, chunk.end,
              tb.broadcast(start, acc), chunk.from);
  });
  memref::DeallocOp::create(b, loc, totals);
  memref::DeallocOp::create(b, loc, prefix);
}

void mlir::tcu::detail::emitScan(TileBuilder &tb, const Collective &c,
                                 Variant variant) {
  switch (variant) {
  case Variant::Seg16:
    return scanSeg16(tb, c);
  case Variant::Seg256:
    return scanSeg256(tb, c);
  case Variant::Seg256N:
    return scanSeg256N(tb, c);
  case Variant::Seg16N:
    return scanSeg16N(tb, c);
  case Variant::Block:
    return scanBlock(tb, c);
  case Variant::Grid:
    return scanGrid(tb, c);
  case Variant::Packed:
    return scanPacked(tb, c);
  case Variant::Lookback:
    return scanLookback(tb, c);
  case Variant::Lagged:
    return scanLagged(tb, c);
  case Variant::Stream:
    return scanStream(tb, c);
  case Variant::MatMulScan:
    return scanMatMul(tb, c);
  case Variant::Balanced:
    return scanBalanced(tb, c);

  case Variant::Seg16NStrided:
  case Variant::Seg16NCoalesced:
    break;
  }
  llvm_unreachable("variant checked by the verifier");
}
