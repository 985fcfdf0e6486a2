//===- ScanVariants.cpp - segmented scan algorithms -----------------------===//
//
// Notation (docs/algorithms.md): a tile A is 16x16, row-major (row i holds
// elements 16i..16i+15). A·U is each row's inclusive scan (A·Ustrict the
// exclusive one); L·A holds, in row i, the column sums of the rows above i,
// and (L·A)·Ones broadcasts their total along row i (tcu.row_sums: f32/i32
// adds on the accumulator, DESIGN §4). A carry tile S holds the sum of
// everything before the tile in every element.
//
//===----------------------------------------------------------------------===//

#include "Variants.h"

#include "tcuc/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::detail;

static constexpr int64_t T = kTileSize;

/// The matrix that scans a tile's rows (A · it), for rows loaded in
/// `order` (fixed or quads).
static MatrixKind rowScanMatrix(const Collective &c,
                                ElementOrder order = ElementOrder::Fixed) {
  if (order == ElementOrder::Quads)
    return c.inclusive ? MatrixKind::UQuads : MatrixKind::UstrictQuads;
  return c.inclusive ? MatrixKind::U : MatrixKind::Ustrict;
}

static Type inputElementType(Value buffer) {
  return cast<MemRefType>(buffer.getType()).getElementType();
}

/// The 16x16 tile of consecutive elements from `base` (none at or past
/// `end`), rows in c.scanOrder (fixed, or quads: Collective::scanOrder).
static Value loadScanTile(TileBuilder &tb, const Collective &c, Value base,
                          Value end) {
  return tb.loadTile(TileLayout::Rows, c.input, base, tb.idx(T), tb.idx(T), end,
                     c.scanOrder);
}

/// Stores a tile scanned from loadScanTile's tile back in the same order.
static void storeScanTile(TileBuilder &tb, const Collective &c, Value r,
                          Value base, Value end) {
  tb.storeTile(r, c.output, base, tb.idx(T), tb.idx(T), end, c.scanOrder);
}

/// x + y for accumulator scalars or tiles (f32 or i32 elements).
static Value addAcc(TileBuilder &tb, Value x, Value y) {
  return buildAccumulatorAdd(tb.builder(), tb.location(), x, y);
}

/// Scan256 of the loaded tile `a` with carry S: R = A·U + (L·A)·Ones + S
/// ((L·A)·Ones is tcu.row_sums of L·A, f32/i32 adds). Returns R and the
/// carry for the next tile: S plus the tile's total in every element,
/// which is R[15][15] of an inclusive scan, and R[15][15] + A[15][15] of an
/// exclusive one (masked-off elements are 0, so this holds for partial
/// tiles too).
static std::pair<Value, Value> scanTile(TileBuilder &tb, const Collective &c,
                                        Value a, Value carry,
                                        int64_t block = T) {
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

/// scanTile, with R stored row-major at `base` (nothing at or past `end`);
/// returns the next carry.
static Value scanLoadedTile(TileBuilder &tb, const Collective &c, Value a,
                            Value base, Value end, Value carry) {
  auto [r, next] = scanTile(tb, c, a, carry);
  storeScanTile(tb, c, r, base, end);
  return next;
}

/// Scan256N over `count` consecutive tiles from `base`, starting from
/// `carry`: each tile as scanLoadedTile, the carry passed along. A warp
/// loads c.tilesPerWarp tiles before it scans the first of them.
static void scanTiles(TileBuilder &tb, const Collective &c, Value base,
                      int64_t count, Value end, Value carry) {
  forTileGroups(tb, tb.idx(0), clippedRuns(tb, count, T * T, base, end),
                tb.idx(1), c.tilesPerWarp, end, {carry},
                [&](ArrayRef<Value> tiles, ArrayRef<Value> limits,
                    ValueRange carried) -> SmallVector<Value> {
                  SmallVector<Value> bases, loaded;
                  for (auto [t, limit] : llvm::zip(tiles, limits)) {
                    bases.push_back(tb.add(base, tb.mul(t, T * T)));
                    loaded.push_back(loadScanTile(tb, c, bases.back(), limit));
                  }
                  Value s = carried[0];
                  for (size_t i = 0; i < loaded.size(); ++i)
                    s = scanLoadedTile(tb, c, loaded[i], bases[i], limits[i],
                                       s);
                  return {s};
                });
}

static Value zeroCarry(TileBuilder &tb, const Collective &c) {
  return tb.zeroAcc(inputElementType(c.input));
}

/// Scan16 (segment_size <= 16): row i of a tile is segment i (line length =
/// segment size); R = A·U scans every row at once. A warp takes
/// tiles_per_warp tiles of 16 segments and loads them all first.
static void scanSeg16(TileBuilder &tb, const Collective &c) {
  int64_t s = c.segmentSize;
  parallelGroups(
      tb, tb.ceilDiv(c.numSegments, T), c.tilesPerWarp,
      [&](ArrayRef<Value> groups) {
        // A tile past the end starts at or past n: its load and
        // store (limit n) select nothing.
        SmallVector<Value> bases, loaded;
        for (Value g : groups) {
          bases.push_back(tb.mul(g, T * s));
          loaded.push_back(tb.loadTile(TileLayout::Rows, c.input, bases.back(),
                                       tb.idx(s), tb.idx(s), c.n));
        }
        for (auto [base, a] : llvm::zip(bases, loaded)) {
          Value r = tb.mulByConst(a, rowScanMatrix(c), zeroCarry(tb, c));
          tb.storeTile(r, c.output, base, tb.idx(s), tb.idx(s), c.n);
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
      bases.push_back(tb.mul(seg, c.segmentSize));
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
static void scanSeg256N(TileBuilder &tb, const Collective &c) {
  int64_t tiles = tilesPerSegment(c);
  tb.parallel(c.numSegments, [&](Value seg) {
    Value base = tb.mul(seg, c.segmentSize);
    scanTiles(tb, c, base, tiles, segmentEnd(tb, c, base), zeroCarry(tb, c));
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

static Value zeroScalar(TileBuilder &tb, Type acc) {
  return arith::ConstantOp::create(tb.builder(), tb.location(), acc,
                                   tb.builder().getZeroAttr(acc));
}

namespace {
/// A chunk's place in a look-back chain (tcu.block_lookback's operands):
/// the state words, the chunk's word and the chain's first word.
struct ChainLink {
  Value state, item, first;
};
} // namespace

/// One warp's run of k = tiles_per_warp tiles of a chunk scanned by the
/// warps of a block, from `runBase` (tiles past `end` load as zeros and
/// store nothing): loads the run, scans each tile from 0 (R_t, the tile
/// totals summed into the run's total), then `exchange(run total)` (a
/// block op: a barrier on the GPU) returns the value the run starts from,
/// and each tile is stored as R_t + (that start + the run's tiles before
/// t). The loaded tiles and R stay in registers across the exchange: the
/// input is read once. `afterLoads`, where given, runs once the run's loads
/// are issued, before its tiles are scanned.
static void scanWarpRun(TileBuilder &tb, const Collective &c, Value runBase,
                        Value end, function_ref<Value(Value)> exchange,
                        function_ref<void()> afterLoads = nullptr) {
  int64_t k = c.tilesPerWarp;
  Type acc = TileBuilder::accumulatorFor(inputElementType(c.input));
  SmallVector<Value> bases, loaded, scanned, before;
  for (int64_t t = 0; t < k; ++t) {
    bases.push_back(tb.add(runBase, tb.idx(t * T * T)));
    loaded.push_back(loadScanTile(tb, c, bases.back(), end));
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
    storeScanTile(tb, c, addAcc(tb, r, shift), base, end);
  }
}

/// One chunk of W·k tiles from `chunkBase` (k = tiles_per_warp), scanned by
/// the W warps of a block, warp w taking the chunk's w-th run of k tiles
/// (scanWarpRun), in one phase (a nested scf.parallel over the warps):
/// tcu.block_prefix exchanges the run totals through totals[offset ..]
/// and gives the warp the totals of the warps before it, so the run starts
/// from carry + that prefix. After the phase every warp reads the W totals:
/// returns carry plus their sum (the same adds in the same order in every
/// warp).
///
/// With `link` (the look-back scan) the chunk is one item of a chain: no
/// carry comes in, tcu.block_lookback exchanges the run totals instead and
/// also gives the chunk's prefix, the sum of the chain's earlier chunks,
/// which takes the carry's place; nothing is returned.
static Value scanChunkInBlock(TileBuilder &tb, const Collective &c,
                              Value totals, Value offset, int64_t warps,
                              Value chunkBase, Value end, Value carry,
                              const ChainLink *link = nullptr) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  int64_t k = c.tilesPerWarp;
  Type acc = TileBuilder::accumulatorFor(inputElementType(c.input));
  tb.parallel(tb.idx(warps), [&](Value w) {
    Value runBase = tb.add(chunkBase, tb.mul(w, k * T * T));
    scanWarpRun(tb, c, runBase, end, [&](Value runTotal) -> Value {
      if (link) {
        auto op = BlockLookbackOp::create(b, loc, acc, acc, runTotal, totals,
                                          offset, w, b.getI64IntegerAttr(warps),
                                          link->state, link->item, link->first);
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
/// chunk's total while another still reads this chunk's.
static void scanBlock(TileBuilder &tb, const Collective &c) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  int64_t warps = c.warpsPerBlock ? c.warpsPerBlock
                                  : blockScanWarps(c.segmentSize,
                                                   inputElementType(c.input));
  int64_t chunkLength = warps * c.tilesPerWarp * T * T;
  int64_t chunks = (c.segmentSize + chunkLength - 1) / chunkLength;
  Type acc = TileBuilder::accumulatorFor(inputElementType(c.input));
  tb.parallel(c.numSegments, [&](Value seg) {
    // Per-block scratch (shared memory on the GPU; a heap buffer on the
    // CPU, see reduceBlock).
    Value totals =
        memref::AllocOp::create(b, loc, MemRefType::get({2 * warps}, acc));
    Value segBase = tb.mul(seg, c.segmentSize);
    Value end = segmentEnd(tb, c, segBase);
    Value count = clippedRuns(tb, chunks, chunkLength, segBase, end);
    tb.forLoop(tb.idx(0), count, tb.idx(1), {zeroScalar(tb, acc)},
               [&](Value i, ValueRange carried) -> SmallVector<Value> {
                 Value chunkBase = tb.add(segBase, tb.mul(i, chunkLength));
                 Value parity = arith::RemUIOp::create(b, loc, i, tb.idx(2));
                 return {scanChunkInBlock(tb, c, totals, tb.mul(parity, warps),
                                          warps, chunkBase, end, carried[0])};
               });
    memref::DeallocOp::create(b, loc, totals);
  });
}

/// The state of a ticketed chain of chunks (the look-back and lagged
/// scans), `words` i64 words, all 0 (zeroed by a first kernel on the GPU):
/// word 0 the ticket counter, then the chunks' words.
static Value zeroedChainState(TileBuilder &tb, Value words) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Type i64 = b.getI64Type();
  // 16 words per zeroing iteration, so the buffer is a multiple of 16.
  constexpr int64_t kZeroWidth = 16;
  Value groups = tb.ceilDiv(words, kZeroWidth);
  Value state = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, i64),
      ValueRange{tb.mul(groups, kZeroWidth)});
  auto zerosType = VectorType::get({kZeroWidth}, i64);
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(zerosType, b.getI64IntegerAttr(0)));
  tb.parallel(groups, [&](Value g) {
    vector::StoreOp::create(b, loc, zeros, state,
                            ValueRange{tb.mul(g, kZeroWidth)});
  });
  return state;
}

/// A phase of a block item in which only warp 0 works. (A phase of one
/// iteration would not do: canonicalization inlines single-iteration
/// loops, and every warp would run the body.)
static void inFirstWarp(TileBuilder &tb, int64_t warps,
                        function_ref<void()> body) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  tb.parallel(tb.idx(warps), [&](Value w) {
    Value isFirst =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, w, tb.idx(0));
    auto ifOp = scf::IfOp::create(b, loc, isFirst);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    body();
  });
}

/// Draws a ticket (tcu.ticket on state[0]) and stores it at slots[at],
/// then the values `derive`, if given, computes from it at slots[at + 1],
/// ... (index values, stored as i64). The caller picks the warp.
static void drawTicketInto(TileBuilder &tb, Value state, Value slots, Value at,
                           function_ref<SmallVector<Value>(Value)> derive) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  auto store = [&](Value v, int64_t i) {
    memref::StoreOp::create(
        b, loc, arith::IndexCastOp::create(b, loc, b.getI64Type(), v), slots,
        tb.add(at, tb.idx(i)));
  };
  Value q = TicketOp::create(b, loc, b.getIndexType(), state, tb.idx(0));
  store(q, 0);
  if (!derive)
    return;
  for (auto [i, v] : llvm::enumerate(derive(q)))
    store(v, 1 + i);
}

/// Index values `count` of them stored at slots[at], ... by drawTicketInto.
static SmallVector<Value> readTicketSlots(TileBuilder &tb, Value slots,
                                          Value at, int64_t count) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; ++i)
    values.push_back(arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        memref::LoadOp::create(b, loc, slots, tb.add(at, tb.idx(i)))));
  return values;
}

/// Draws a ticket in warp 0 and shares it with the block through a small
/// buffer, together with the `derived` index values `derive` computes from
/// it in warp 0 right after the draw (the chunk a ticket names: its 64-bit
/// divisions and bounds then cost one warp's instructions, not every
/// warp's; the other warps wait at the barrier after the draw either way;
/// `derive` may also be warp 0's own work and derive nothing, as the
/// look-back scan's prefetch). Returns the ticket, then those values.
static SmallVector<Value>
drawTicket(TileBuilder &tb, int64_t warps, Value state, int64_t derived = 0,
           function_ref<SmallVector<Value>(Value)> derive = nullptr) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value slot = memref::AllocOp::create(
      b, loc, MemRefType::get({1 + derived}, b.getI64Type()));
  inFirstWarp(tb, warps, [&] {
    drawTicketInto(tb, state, slot, tb.idx(0), [&](Value q) {
      SmallVector<Value> values = derive ? derive(q) : SmallVector<Value>();
      assert(values.size() == size_t(derived) && "derive's count");
      return values;
    });
  });
  SmallVector<Value> shared = readTicketSlots(tb, slot, tb.idx(0), 1 + derived);
  memref::DeallocOp::create(b, loc, slot);
  return shared;
}

/// How many chunks of `chunkLength` elements hold `bytes` of the input: at
/// least one. (The look-back and lagged scans size their prefetch distance
/// and their lag in bytes of input.)
static int64_t chunksOfInput(const Collective &c, int64_t chunkLength,
                             int64_t bytes) {
  int64_t chunkBytes = chunkLength * getElementBytes(inputElementType(c.input));
  return std::max<int64_t>(1, bytes / chunkBytes);
}

/// How many chunks ahead of its own a lookback block prefetches into L2:
/// 2 MB of input. Measured on the H100 (2026-11-24,
/// bench/results/lookback-prefetch): f16->f32 whole array 0.539 -> 0.591 of
/// the copy ceiling at 4 tiles, 16 warps; 1, 2 and 4 MB the same, 8 MB and
/// more lose it again (the lines are evicted before their chunk is drawn).
static int64_t lookbackPrefetchChunks(const Collective &c,
                                      int64_t chunkLength) {
  return chunksOfInput(c, chunkLength, int64_t(2) << 20);
}

/// Prefetches the input of chunk `item` (a global chunk number, as a
/// ticket) into L2, if there is such a chunk.
static void prefetchChunk(TileBuilder &tb, const Collective &c, Value item,
                          Value items, Value perSegment, int64_t chunkLength) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  auto ifOp = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, item, items));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value seg = arith::DivUIOp::create(b, loc, item, perSegment);
  Value segBase = tb.mul(seg, c.segmentSize);
  Value base =
      tb.add(segBase, tb.mul(arith::RemUIOp::create(b, loc, item, perSegment),
                             chunkLength));
  Value end =
      tb.min(tb.add(base, tb.idx(chunkLength)), segmentEnd(tb, c, segBase));
  // A chunk past the input (the last segment cut short) has no elements.
  Value count = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, end, base), tb.idx(0));
  PrefetchOp::create(b, loc, c.input, base, count);
}

namespace {
/// Chunk `item` of a ticketed chain over every segment's chunks (the
/// look-back and lagged scans): its elements [base, end), its state word
/// and its segment's first word (word 0 is the ticket counter, so the
/// words start at 1).
struct ChainChunk {
  Value base, end, word, first;

  /// The fields in order, to share them through drawTicket.
  SmallVector<Value> fields() const { return {base, end, word, first}; }
  static constexpr int64_t kFields = 4;
  static ChainChunk of(ArrayRef<Value> f) { return {f[0], f[1], f[2], f[3]}; }
};
} // namespace

/// The chunk `item` of a chain whose segments have `perSegment` chunks each
/// (laggedItemDivisor: possibly the constant chunks of a whole segment).
static ChainChunk chainChunk(TileBuilder &tb, const Collective &c, Value item,
                             Value perSegment, int64_t chunkLength) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value seg = arith::DivUIOp::create(b, loc, item, perSegment);
  Value chunk = arith::RemUIOp::create(b, loc, item, perSegment);
  Value segBase = tb.mul(seg, c.segmentSize);
  return {tb.add(segBase, tb.mul(chunk, chunkLength)),
          segmentEnd(tb, c, segBase), tb.add(item, tb.idx(1)),
          tb.add(arith::MulIOp::create(b, loc, seg, perSegment), tb.idx(1))};
}

/// Single pass with a decoupled look-back (after Merrill & Garland): a
/// segment is cut into chunks of W · k tiles (W = warps_per_block, else
/// kLookbackWarps), a block each. The block draws its chunk with
/// tcu.ticket (chunks in claim order: it only waits on chunks that running
/// blocks hold) and scans it in one phase as the block scan scans its
/// chunks (scanChunkInBlock); there tcu.block_lookback publishes the
/// chunk's word and gives the sum of the segment's earlier chunks, from
/// which the chunk is stored. The input crosses DRAM once, as in the block
/// scan, but any number of blocks share a segment. The state words (a
/// ticket counter, then a word per chunk: see tcu.block_lookback) are
/// zeroed by a first kernel. Chunks past the input are never made: a
/// segment longer than the input has only the input's chunks. Having drawn
/// chunk q, warp 0 asks for chunk q + D's input to be brought into L2
/// (tcu.prefetch, D chunks = 2 MB), so DRAM keeps streaming while blocks
/// wait at their look-backs and a chunk's own loads mostly hit L2.
///
/// A ticket per run of 8 chunks, walked in order with the next chunk's
/// loads in flight (the block scan's prefetch), measured 0.01-0.09 of the
/// copy ceiling on the H100 (2026-11-24, bench/results/lookback-fenwick):
/// a run's first chunk waits on the previous run's last chunk, which its
/// block reaches only after its own earlier chunks' look-backs, so the runs
/// form one serial wavefront.
static void scanLookback(TileBuilder &tb, const Collective &c) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  int64_t warps = c.warpsPerBlock ? c.warpsPerBlock : kLookbackWarps;
  int64_t chunkLength = warps * c.tilesPerWarp * T * T;
  if (c.segmentSize <= chunkLength)
    return scanBlock(tb, c);
  int64_t chunks = (c.segmentSize + chunkLength - 1) / chunkLength;
  Type acc = TileBuilder::accumulatorFor(inputElementType(c.input));
  Value perSegment = tb.min(tb.idx(chunks), tb.ceilDiv(c.n, chunkLength));
  Value items = arith::MulIOp::create(b, loc, c.numSegments, perSegment);
  int64_t ahead = lookbackPrefetchChunks(c, chunkLength);
  Value state = zeroedChainState(tb, tb.add(items, tb.idx(1)));
  tb.parallel(items, [&](Value) {
    // The warps' totals and, after them, the chunk's prefix.
    Value totals =
        memref::AllocOp::create(b, loc, MemRefType::get({warps + 1}, acc));
    // One warp draws the chunk.
    Value q = drawTicket(tb, warps, state, 0, [&](Value q) {
      prefetchChunk(tb, c, tb.add(q, tb.idx(ahead)), items, perSegment,
                    chunkLength);
      return SmallVector<Value>();
    })[0];
    ChainChunk chunk = chainChunk(tb, c, q, perSegment, chunkLength);
    ChainLink link{state, chunk.word, chunk.first};
    scanChunkInBlock(tb, c, totals, tb.idx(0), warps, chunk.base, chunk.end,
                     Value(), &link);
    memref::DeallocOp::create(b, loc, totals);
  });
  memref::DeallocOp::create(b, loc, state);
}

/// Whether a lagged scan has the wide shape: 16-bit float input, 4 tiles
/// a warp or more in blocks of 8 warps (chunks of 8192 elements and more, 16
/// KB of input). bf16 takes f16's table rows (CostModel.cpp), so it gets
/// this shape where f16 does; ptxas gives its kernels the same 80
/// registers with no spills (113-114 and 2 blocks an SM without the rule). Such
/// a kernel is held to 3 blocks an SM (laggedBlocksPerSM: 24 warps at 80
/// registers) and sums its reduced run before it scans (scanLagged); f16
/// -> f16 then lags 9 MB with no prefetch. Its hand-written prototype's best
/// f16 -> f16 shape was this one (256 threads, 32 elements a thread, 3 blocks
/// an SM, 10 MB lag: 0.914, bench/results/lagged-scan-prototype); in tcuc, 4
/// tiles of 8 warps had measured 0.696 at 110 registers (2 blocks an SM) in
/// tile-runs' sweep. Measured on the H100 (2026-11-26,
/// bench/results/lagged-8warps, tcuc 0.6.27 plus switches, n = 2^28, G
/// elements/s, 3 alternating rounds): f16->f16 lagged:4:8 at 3 blocks 646-654
/// against lagged:4:4's 629-632 (the default then), best with a 9 MB lag and no
/// prefetch (653.5-657.9; 8 / 10 / 11 / 12 MB 649-651 / 650-654 / 649-651 /
/// 622-628; the 1 MB prefetch -0.8%, 512 KB -1.2%); held to 4 blocks (64
/// registers, 44 bytes of spills) 602-611; uncapped (110 registers, 2 blocks)
/// 570-572. f16->f32 lagged:4:8 at 3 blocks with its 6 MB lag and 2 MB prefetch
/// 480.3-482.4 against lagged:4:4's 472.0-472.9 (without the prefetch and
/// at 9 MB 466.5-466.8). i8->i32 at 8 warps (lagged:4:8 at 3 blocks,
/// 408-411; lagged:2:8, 401-402) stays behind its grid scan (422-445).
static bool laggedWideShape(const Collective &c) {
  Type in = inputElementType(c.input);
  return (in.isF16() || in.isBF16()) && c.tilesPerWarp >= 4 &&
         c.warpsPerBlock == 8;
}

/// Whether warp 0 of a lagged block reads the scanned chunk's prefix words
/// early, once, right after its reduced run's sum (tcu.lagged_prefix), so
/// that where all of them were published the block meets once a ticket
/// instead of twice (tcu.block_lagged_lookback ... given): the wide shape,
/// whose reduced sum comes before its scan. Measured on the H100
/// (2026-11-26, bench/results/lagged-groups, n = 2^28, G elements/s at 2^22
/// / whole, 3 alternating rounds), with the Fenwick words kept only at the
/// ends of groups of 16 items and completed in one round trip from up to
/// 128 aggregates: f16->f16 679.8 / 676.6-678.4 against 0.6.29's
/// 654.6-656.4 / 653.4-655.0 (+3.6%), f16->f32 484.4-485.5 / 483.5-484.5
/// against 481.5-482.2 / 480.4-480.7 (+0.7%); the same read right after
/// the loads spilled 28-44 bytes (at 0.6.28 it measured 5% slower).
static bool laggedReadsEarly(const Collective &c) { return laggedWideShape(c); }

/// How many bytes of input ahead of the chunk it reduces a lagged block
/// asks to be brought into L2 (tcu.prefetch, evict_last; at least one
/// chunk): 2 MB for f16 -> f32 and i8 -> i32, 1 MB for f16 -> f16 at 4
/// tiles a warp or more, else none. Measured on the H100 (2026-11-25,
/// bench/results/lagged-prefetch, 2 tiles, 4 warps): f16->f32 0.790 ->
/// 0.836 of the copy ceiling at 2^22 and whole (1 MB the same, 4 MB and a
/// prefetch without evict_last 0.5% lower); i8->i32 +8% with both kernels
/// held to 80 registers. f16 -> f16 at lagged:4:4 (tcuc 0.6.25, 2026-11-26,
/// bench/results/lagged-f16-0.6.24 run 7, three alternating rounds, G
/// elements/s): 1 MB with the 8 MB lag 620.4-624.3 against 614.3-618.7
/// without (+0.7-0.9% at 2^22, 2^24 and whole; +1.0% in tile-runs run 11),
/// with a 10 MB lag 617.1-620.0, 2 MB with a 6 MB lag -4.5% (run 11).
/// Re-timed with 0.6.27's quads tiles, L2 then being the busy unit
/// (bench/results/quads-0.6.27 run 6): none -1.3%, none with a 6 MB lag
/// -7.6%, 512 KB -0.5% against 1 MB. At 2
/// tiles ptxas (CUDA 13.0, sm_90) gave the f16 -> f16 kernel with the
/// prefetch more registers (91 instead of 63; held to 64 or 72 it measured
/// 1% and 5% slower, and with tcuc 0.6.15's kernel held to 64 registers the
/// same as without: 0.639 / 0.634 against 0.633 / 0.636 at 2^22 / whole,
/// bench/results/run20-lagged-complete/f16-f16-prefetch); bf16 -> f32 96
/// instead of 80 and f32 146 instead of 128 (not measured). Which kernels
/// gain belongs in the tuned table, as a strategy knob, once the sweeps
/// measure it. The wide f16 -> f16 shape (laggedWideShape) prefetches
/// nothing: 1 MB measured 0.8% slower there. bf16 -> f32 in the wide shape
/// (tcuc 0.6.29) prefetches as f16 -> f32: 2 MB, with the 6 MB lag. Measured
/// on the H100 (2026-11-26, bench/results/bf16-0.6.28 run 6, 3 alternating
/// rounds, G elements/s at 2^22 / whole): 481.1-481.9 / 481.1-481.3 against
/// 466.3-468.2 / 466.8-468.1 with no prefetch and the 9 MB lag (+3%; 80
/// registers, no spills either way); the other bf16 shapes were not timed.
static int64_t laggedPrefetchBytes(const Collective &c) {
  Type in = inputElementType(c.input);
  Type out = cast<MemRefType>(c.output.getType()).getElementType();
  if ((in.isF16() && out.isF32()) || (in.isInteger(8) && out.isInteger(32)))
    return int64_t(2) << 20;
  if (in.isBF16() && out.isF32() && laggedWideShape(c))
    return int64_t(2) << 20;
  if (in.isF16() && out.isF16() && c.tilesPerWarp >= 4 && !laggedWideShape(c))
    return int64_t(1) << 20;
  return 0;
}

/// The lagged scan's tile order (Collective::scanOrder): quads for f16 ->
/// f16 at 4 tiles a warp or more, fixed elsewhere. Measured on the H100
/// (2026-11-26, bench/results/quads-0.6.27, tcuc 0.6.26 with and without
/// quads, G elements/s, 3 alternating rounds): f16->f16 at 2^22, 2^24 and
/// whole 629.7-633.4 against 618.6-624.3 (+1.5%), with the kernel held to
/// 5 blocks an SM (96 registers; uncapped ptxas took 102, 4 blocks, and it
/// measured 3.3% slower); f16->f32 the same either way (472.0-473.3), so
/// it keeps the fixed order. ncu at 2^28: the fixed order used 21.2 of 32
/// bytes a loaded sector (L1 hit 36%) and 16 of 32 a stored one, quads
/// 31.6 and 31.8, but L2 stayed 90-91% busy. Quads in every 16-bit scan
/// (uncapped registers; ptxas changed most kernels' registers by -1 to +9)
/// measured the same or 1-3% slower at the smaller sizes (f16->f16 at
/// 64-256 -1.3%, f16->f32 at 4096 -3% and at 2^17-2^21 -1.5%; run 3).
/// bf16 -> bf16 in the wide shape (laggedWideShape; tcuc 0.6.29) too:
/// measured on the H100 (2026-11-26, bench/results/bf16-0.6.28 run 6, 3
/// alternating rounds, G elements/s at 2^22 / whole) 652.6-654.6 /
/// 650.9-652.0 against 621.4-623.4 / 619.7-622.0 (+5%; 80 registers, no
/// spills either way); bf16 -> bf16 at 4 tiles of other warps was not
/// timed and keeps the fixed order.
static ElementOrder laggedScanOrder(const Collective &c) {
  Type in = inputElementType(c.input);
  Type out = cast<MemRefType>(c.output.getType()).getElementType();
  bool quads = (in.isF16() && out.isF16() && c.tilesPerWarp >= 4) ||
               (in.isBF16() && out.isBF16() && laggedWideShape(c));
  return quads ? ElementOrder::Quads : ElementOrder::Fixed;
}

/// The warps an SM the quads lagged kernel is held to (kMinBlocksPerSMAttr):
/// the 5 blocks of 4 warps the fixed order's kernel had at 96 registers.
static constexpr int64_t kQuadsLaggedWarpsPerSM = 20;

/// The blocks an SM a lagged kernel (of c.warpsPerBlock warps) is held to
/// (kMinBlocksPerSMAttr, ptxas's .minnctapersm), 0 for ptxas's own choice.
/// 16- and 8-bit input at 2 tiles a warp or fewer: 32 warps an SM (64
/// registers a thread), the kernel being held back by the blocks an SM
/// keeps in flight. Measured on the H100 (2026-11-25,
/// bench/results/lagged-complete-warp): f16->f32 at 2 tiles and 4 warps
/// took 73 registers (7 blocks an SM), 0.789 of the copy ceiling; held to
/// 64 (8 blocks, 8 bytes of spills) 0.863; f16->f16 0.597 -> 0.636 and
/// i8->i32 0.559 -> 0.624 the same way; bf16->f32 (80 registers without,
/// 68 bytes of spills with) the same either way (0.905 / 0.903 ms at
/// 2^28). At 4 tiles 64 registers spill 200-250 bytes and lose a third,
/// and 6 blocks of 4 warps an SM (80 registers, 44 bytes of spills with the
/// tile runs) measured 6-7% slower for f16 input than ptxas's own 96
/// registers (5 blocks) (bench/results/tile-runs). The wide f16 shape
/// (laggedWideShape): 3 blocks of 8 warps (80 registers). Quads tiles
/// otherwise: the fixed order's 20 warps an SM (5 blocks of 4 warps at 96
/// registers, where ptxas took 102 and kept 4 blocks; laggedScanOrder);
/// blocks of more than 20 warps keep ptxas's choice. f32 input would spill
/// 250-390 bytes at 2 tiles (not measured): no target.
static int64_t laggedBlocksPerSM(const Collective &c) {
  int64_t warps = c.warpsPerBlock;
  Type elt = inputElementType(c.input);
  if (c.tilesPerWarp <= 2 && !elt.isF32())
    return 32 / warps;
  if (laggedWideShape(c))
    return 3;
  if (c.scanOrder == ElementOrder::Quads && warps <= kQuadsLaggedWarpsPerSM)
    return kQuadsLaggedWarpsPerSM / warps;
  return 0;
}

/// laggedPrefetchBytes in chunks (0: no prefetch).
static int64_t laggedPrefetchChunks(const Collective &c, int64_t chunkLength) {
  int64_t bytes = laggedPrefetchBytes(c);
  return bytes ? chunksOfInput(c, chunkLength, bytes) : 0;
}

/// How far the lagged scan's scanning trails its reducing, in chunks: 8 MB
/// of input (6 MB with a 2 MB prefetch), at least one chunk. Measured with
/// the hand-written prototype on the H100 (2026-11-24,
/// bench/results/lagged-scan-prototype): 8-10 MB was best for all three
/// operations; at 12 MB the scanned chunks' lines start to leave the 50 MB
/// L2 before they are read again. With the prefetch (H100, 2026-11-25,
/// bench/results/lagged-prefetch, f16->f32 at 2 tiles): 6 MB 0.844, 5 and
/// 7 MB 0.839-0.843, 8 MB 0.831-0.833, 4 MB 0.774-0.780, 12 MB 0.73 (the
/// prefetched lines take L2 room too). f16 -> f16's 1 MB prefetch keeps
/// 8 MB (10 MB measured 0.2-0.9% slower, bench/results/lagged-f16-0.6.24);
/// the wide shape without a prefetch (f16 -> f16, measured, and bf16 ->
/// bf16, not timed apart) 9 MB (laggedWideShape).
static int64_t laggedChunks(const Collective &c, int64_t chunkLength) {
  bool prefetches2MB = laggedPrefetchBytes(c) >= (int64_t(2) << 20);
  int64_t megabytes = prefetches2MB ? 6 : laggedWideShape(c) ? 9 : 8;
  return chunksOfInput(c, chunkLength, megabytes << 20);
}

/// Whether a bf16 -> bf16 lagged scan walks tickets and shares its items'
/// fields as f16 -> f16 does (laggedWalksTickets, laggedSharesItems): at 4
/// tiles a warp or more. Measured on the H100 (2026-11-26,
/// bench/results/lagged-8warps run 9, `tcuc run`'s warm launch, median of 7
/// processes, two rounds, n = 2^28): lagged:4:4 0.484-0.486 ms one ticket a
/// block, 0.451-0.452 walking and sharing (+7.5%); lagged:4:8 (the wide
/// shape) 0.502-0.504 one ticket a block, 0.462-0.463 walking, 0.450-0.451
/// walking and sharing.
static bool laggedBF16Walks(const Collective &c) {
  Type in = inputElementType(c.input);
  Type out = cast<MemRefType>(c.output.getType()).getElementType();
  return in.isBF16() && out.isBF16() && c.tilesPerWarp >= 4;
}

/// Whether warp 0 of a lagged block finds where the ticket's three items
/// lie (their 64-bit divisions into segment and chunk, bases, ends and
/// words: about 160 of the 613 instructions a warp and ticket of tcuc
/// 0.6.16's f16->f16 kernel) once for the block and shares them with the
/// ticket, instead of every warp finding them after the ticket is shared.
/// Measured on the H100 (2026-11-25, bench/results/shared-ticket, lagged
/// 2:4, four A/B calls): f16->f32 +1.3-1.6% (defaults from 2^22: 0.883 ->
/// 0.889-0.891 of the copy ceiling), bf16->f32 +3.5-4% (0.82-0.84 ->
/// 0.79-0.80 ms at 2^28); f16->f16 -2.3-3.1% and i8->i32 -0.8-1.6%, so
/// those keep the old form. (ptxas -v
/// at 64 registers, spill stores: f16->f32 8 -> 0 bytes, f16->f16 8 -> 16,
/// i8->i32 16 -> 8, bf16->f32 50 -> 20.) Since tcuc 0.6.22 for f16->f16
/// and 8-bit input too: sharing now also divides by a constant
/// (laggedItemDivisor), and with it their walking blocks (warp 1 finds the
/// next ticket's fields) measured f16->f16 +4% (537-543 -> 560-564 G
/// elements/s) and i8->i32 +5.5% (398-399 -> 419-422) (H100, 2026-11-26,
/// bench/results/shared-constant-0.6.21; ptxas -v at 64 registers: 0 bytes
/// of spills instead of 4, 12 instead of 16). So: f16 and 8-bit input, and
/// bf16 with f32 output (f32 -> f32, 121 -> 127 registers with it, was not
/// timed), and bf16 -> bf16 at 4 tiles a warp or more, with the walking
/// blocks (laggedBF16Walks; at 2 tiles it spilled 32 bytes, not timed).
static bool laggedSharesItems(const Collective &c) {
  Type in = inputElementType(c.input);
  Type out = cast<MemRefType>(c.output.getType()).getElementType();
  return in.isF16() || in.isInteger(8) || (in.isBF16() && out.isF32()) ||
         laggedBF16Walks(c);
}

/// What a lagged scan divides its items by to split them into segment and
/// chunk: the chunks of a whole segment, ceil(S / chunkLength), a constant
/// (a multiply and shifts), where the items' fields are shared
/// (laggedSharesItems: found by warp 0 alone while the block waits for it);
/// else `perSegment`, min(that, ceil(n / chunkLength)), a runtime value (a
/// 64-bit division routine). Exact either way: the two differ only when
/// n < S, where there is one segment and every item is below both. Measured
/// on the H100 (2026-11-26, bench/results/constant-division-0.6.20, f16->f32
/// lagged:2:4, 4 runs each alternating): 442.3-444.0 -> 448.4-450.6 G
/// elements/s (+1.4%), ptxas -v at 64 registers 0 bytes of spills either
/// way. Where every warp finds the fields (f16->f16, i8) ptxas spills more
/// with the constant (24 bytes instead of 4, 56 instead of 16), and 0.6.16's
/// kernels measured 10-15% slower with it
/// (bench/results/fewer-instructions): they keep the runtime divisor.
/// (bf16->f32 shares its fields too: the same 16 bytes of spills either way;
/// not timed.)
static Value laggedItemDivisor(TileBuilder &tb, const Collective &c,
                               Value perSegment, int64_t chunkLength) {
  if (!laggedSharesItems(c))
    return perSegment;
  return tb.idx((c.segmentSize + chunkLength - 1) / chunkLength);
}

/// Whether a lagged block walks tickets until they run out, each drawn
/// during the ticket before it (one warp issues the atomic right after its
/// loads), instead of drawing one ticket at its start and waiting for it
/// at a barrier. Measured on the H100 (2026-11-26,
/// bench/results/ticket-walk, lagged 2:4, n = 2^28, against the one-ticket
/// blocks in the same call, G elements/s): f16->f16 +6.5% (501-506 ->
/// 534-538), i8->i32 +3.5% (379-382 -> 392-395); f16->f32 -6% (442-443 ->
/// 414-417). ptxas (CUDA 13.0, sm_90) takes 10-16 more registers for the
/// walking kernel (uncapped 62 -> 72 for f16->f32, 75 -> 91 for f16->f16),
/// which at the 64-register target spills 24-44 bytes where f16->f32
/// spilled none. Those spills were the generic-address ticket atomic's
/// (LowerTicket); with the global one (tcuc 0.6.20) f16->f32 walking spills
/// none and still measured -6% (414-420 against 442-444, H100, 2026-11-26,
/// bench/results/global-atomics), so the spills were not what it lost to.
/// So: f16 -> f16, 8-bit integer input and bf16 -> bf16 at 4 tiles a warp
/// or more (laggedBF16Walks; f32 and bf16 -> f32 were not timed and keep the
/// one-ticket blocks), in blocks of at least 2 warps (warp 1 draws; one warp
/// has nothing to overlap the draw with).
static bool laggedWalksTickets(const Collective &c, int64_t warps) {
  Type in = inputElementType(c.input);
  Type out = cast<MemRefType>(c.output.getType()).getElementType();
  return warps >= 2 &&
         ((in.isF16() && out.isF16()) || in.isInteger(8) || laggedBF16Walks(c));
}

/// The warps of the block items of a lagged scan whose blocks walk tickets
/// (8192 / W blocks of W warps): more than fit on the GPU at once (32 warps
/// an SM at the lagged kernels' occupancy target: 4224 on an H100 with 132
/// SMs, computed), since blocks that start after the tickets have run out
/// only draw one ticket each and stop, while blocks that are never launched
/// leave SMs idle. Timed at 2048 blocks of 4 warps and 1024 of 8
/// (bench/results/ticket-walk, defaults-0.6.18); other W were not timed.
static constexpr int64_t kLaggedWalkingWarps = 8192;

/// Lagged single pass (bench/prototypes/lagged_scan.cu has the schedule
/// worked out by hand): chunks of W · k tiles (W = warps_per_block, else
/// kLaggedWarps), over every segment in one ticket order. The block with
/// ticket t does two things at once: it reduces chunk t (read from DRAM)
/// and publishes the chunk's total, and it scans chunk t - D (D chunks =
/// 8 MB of input, 6 MB with a 2 MB prefetch, at most half the chunks), whose
/// input it read D tickets ago (so it mostly comes from L2) and whose
/// predecessors' totals were published about D tickets ago (so its look-back
/// rarely waits). The look-back scan instead holds its chunk while it waits for
/// its own prefix, and the grid scan reads the input twice from DRAM. Both
/// loads are issued before either is used: each warp loads its run of chunk t
/// and its run of chunk t - D, sums the first with Ones·A products and
/// scans the second as the block scan does (scanWarpRun), and
/// tcu.block_lagged_lookback exchanges both totals at one barrier,
/// publishes chunk t's aggregate, gives chunk t - D's prefix (from the
/// Fenwick words of tcu.block_lookback's tree) and completes chunk t - E's
/// Fenwick word. There are as many tickets as chunks plus D: the first D
/// tickets only reduce, the last D only scan. A block draws one ticket, or
/// (laggedWalksTickets) walks tickets until they run out, each drawn
/// during the ticket before it. The state (a ticket counter, two
/// words per chunk) is zeroed by a first kernel and stays proportional to
/// the chunks, not to n.
static void scanLagged(TileBuilder &tb, const Collective &given) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  int64_t warps = given.warpsPerBlock ? given.warpsPerBlock : kLaggedWarps;
  int64_t k = given.tilesPerWarp;
  int64_t chunkLength = warps * k * T * T;
  if (given.segmentSize <= chunkLength)
    return scanBlock(tb, given);
  Collective c = given;
  c.warpsPerBlock = warps;
  c.scanOrder = laggedScanOrder(c);
  int64_t chunks = (c.segmentSize + chunkLength - 1) / chunkLength;
  Type elt = inputElementType(c.input);
  Type acc = TileBuilder::accumulatorFor(elt);
  Value perSegment = tb.min(tb.idx(chunks), tb.ceilDiv(c.n, chunkLength));
  Value items = arith::MulIOp::create(b, loc, c.numSegments, perSegment);
  int64_t ahead = laggedPrefetchChunks(c, chunkLength);
  // Half the chunks at most: a smaller input still overlaps its reads
  // and scans (and tests that path).
  Value lag =
      tb.min(tb.idx(laggedChunks(c, chunkLength)), tb.ceilDiv(items, 2));
  // Item t - E's Fenwick word is completed by ticket t: E = D / 2 (at
  // least 1) leaves D - E tickets before the scan of an item reads the
  // words of the items before it.
  Value completeLag = arith::MaxUIOp::create(
      b, loc, tb.idx(1), arith::DivUIOp::create(b, loc, lag, tb.idx(2)));
  // Where warp 0 reads the prefix's words early, the block meets once a
  // ticket when they were all published, so a ticket's totals can be
  // overwritten by the next ticket's before every warp has read them: the
  // tickets alternate two buffers.
  bool early = laggedReadsEarly(c);
  int64_t totalsWidth = early ? 2 * warps + 2 : 2 * warps + 1;
  Value state = zeroedChainState(
      tb, tb.add(arith::MulIOp::create(b, loc, items, tb.idx(2)), tb.idx(1)));
  Value tickets = tb.add(items, lag);
  bool walks = laggedWalksTickets(c, warps);
  Value blockItems =
      walks ? tb.min(tickets, tb.idx(kLaggedWalkingWarps / warps)) : tickets;
  auto blocks = tb.parallel(blockItems, [&](Value) {
    // The warps' scan totals, then their reduce totals, then the prefix.
    Value totals = memref::AllocOp::create(
        b, loc, MemRefType::get({early ? 2 * totalsWidth : totalsWidth}, acc));
    // Which of its three items ticket t has: it reduces chunk t, scans
    // chunk t - lag and completes chunk t - completeLag's word.
    using P = arith::CmpIPredicate;
    struct Roles {
      Value reduces, scans, completes;
    };
    auto rolesOf = [&](Value t) {
      return Roles{arith::CmpIOp::create(b, loc, P::ult, t, items),
                   arith::CmpIOp::create(b, loc, P::uge, t, lag),
                   arith::AndIOp::create(
                       b, loc,
                       arith::CmpIOp::create(b, loc, P::uge, t, completeLag),
                       arith::CmpIOp::create(b, loc, P::ult, t,
                                             tb.add(items, completeLag)))};
    };
    // A block without a chunk to reduce (to scan) takes chunk 0 with no
    // elements: its loads select nothing.
    Value divisor = laggedItemDivisor(tb, c, perSegment, chunkLength);
    auto chunkOr0 = [&](Value has, Value item) {
      ChainChunk chunk = chainChunk(
          tb, c, arith::SelectOp::create(b, loc, has, item, tb.idx(0)), divisor,
          chunkLength);
      chunk.end = arith::SelectOp::create(b, loc, has, chunk.end, chunk.base);
      return chunk;
    };
    // The reduced and scanned items' fields, then the completed item's word
    // and first word (its elements are not read).
    auto itemFields = [&](Value t, const Roles &r) {
      ChainChunk completed =
          chunkOr0(r.completes, arith::SubIOp::create(b, loc, t, completeLag));
      SmallVector<Value> fields = chunkOr0(r.reduces, t).fields();
      llvm::append_range(
          fields,
          chunkOr0(r.scans, arith::SubIOp::create(b, loc, t, lag)).fields());
      fields.append({completed.word, completed.first});
      return fields;
    };
    // Warp 0 draws the ticket and, where that measured faster, finds the
    // items' fields once for the block; else every warp finds them.
    bool share = laggedSharesItems(c);
    auto sharedFields = [&](Value t) { return itemFields(t, rolesOf(t)); };
    int64_t derived = share ? 2 * ChainChunk::kFields + 2 : 0;
    // One ticket's work: `drawn` is the ticket, then its fields where they
    // are shared. `drawNext(w)`, where given, runs in every warp w right
    // after the warp has issued its loads.
    auto ticketBody = [&](ArrayRef<Value> drawn,
                          function_ref<void(Value)> drawNext, Value parity) {
      Value totalsOffset = early ? tb.mul(parity, totalsWidth) : tb.idx(0);
      // (Named values: lambdas below capture them, and C++17 lambdas cannot
      // capture structured bindings.)
      Value t = drawn[0];
      Roles roles = rolesOf(t);
      Value reduces = roles.reduces, scans = roles.scans,
            completes = roles.completes;
      SmallVector<Value> fields =
          share ? SmallVector<Value>(ArrayRef(drawn).drop_front())
                : itemFields(t, roles);
      ChainChunk reduced = ChainChunk::of(ArrayRef(fields).slice(0, 4));
      ChainChunk scanned = ChainChunk::of(ArrayRef(fields).slice(4, 4));
      Value completedWord = fields[8], completedFirst = fields[9];
      tb.parallel(tb.idx(warps), [&](Value w) {
        Value runOffset = tb.mul(w, k * T * T);
        // The reduced run's loads first: all of them in flight together. Its
        // lines stay in L2 for the scan D tickets later (evict_last), which
        // reads them for the last time (evict_first) and streams its output.
        auto oldHints =
            tb.setCacheHints(CacheHint::EvictLast, CacheHint::Normal);
        SmallVector<Value> loaded;
        for (int64_t i = 0; i < k; ++i)
          loaded.push_back(tb.loadTile(
              TileLayout::Rows, c.input,
              tb.add(reduced.base, tb.add(runOffset, tb.idx(i * T * T))),
              tb.idx(T), tb.idx(T), reduced.end, ElementOrder::Tile));
        if (ahead) {
          // The warp's run of the input `ahead` chunks further on: the chunk
          // ticket t + ahead reduces where segments are whole chunks (a hint:
          // elsewhere it is near it), kept in L2 until its scan reads it.
          // Issued after this chunk's loads, the placement measured (ptxas -v
          // for f16->f32: 64 registers here and before the loads, 69 at the
          // ticket in warp 0, 68-93 at the block's end).
          Value from =
              tb.min(tb.add(reduced.base,
                            tb.add(runOffset, tb.idx(ahead * chunkLength))),
                     c.n);
          Value to = tb.min(tb.add(from, tb.idx(k * T * T)), c.n);
          Value count = arith::SelectOp::create(
              b, loc, reduces, arith::SubIOp::create(b, loc, to, from),
              tb.idx(0));
          PrefetchOp::create(b, loc, c.input, from, count)
              .setCache(CacheHint::EvictLast);
        }
        if (drawNext)
          drawNext(w);
        tb.setCacheHints(CacheHint::EvictFirst, CacheHint::Streaming);
        // The reduced run's total: summed at the exchange, or, in the wide
        // shape, right after the scanned run's loads, so that the loaded
        // tiles' registers are free during the scan: that shape needs it to
        // fit 80 registers (ptxas -v, CUDA 13.0, sm_90, f16->f16
        // lagged:4:8: no spills with it, 68 bytes without). At 4 warps it
        // measured 2.5% slower for f16->f16 at 6 blocks an SM (80
        // registers; bench/results/quads-0.6.27 run 2): those keep the sum
        // at the exchange.
        auto sumReduced = [&] {
          Value v = tb.zeroAcc(elt);
          for (Value a : loaded)
            v = tb.mulConst(MatrixKind::Ones, a, v);
          return tb.element(tb.rowSums(v), 0, 0);
        };
        bool sumsFirst = laggedWideShape(c);
        Value reduceTotal, given;
        // Warp 0's early read of the scanned chunk's prefix words
        // (tcu.lagged_prefix); the other warps pass a published 0.
        auto readEarly = [&] {
          auto ifOp = scf::IfOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, w,
                                    tb.idx(0)),
              [&](OpBuilder &, Location) {
                scf::YieldOp::create(
                    b, loc,
                    LaggedPrefixOp::create(b, loc, b.getI64Type(), state,
                                           scanned.word, scanned.first, scans)
                        .getResult());
              },
              [&](OpBuilder &, Location) {
                scf::YieldOp::create(
                    b, loc,
                    Value(arith::ConstantOp::create(
                        b, loc, b.getI64IntegerAttr(int64_t(1) << 32))));
              });
          given = ifOp.getResult(0);
        };
        scanWarpRun(
            tb, c, tb.add(scanned.base, runOffset), scanned.end,
            [&](Value runTotal) -> Value {
              if (!sumsFirst)
                reduceTotal = sumReduced();
              auto op = BlockLaggedLookbackOp::create(
                  b, loc, acc, acc, runTotal, reduceTotal, totals, totalsOffset,
                  w, b.getI64IntegerAttr(warps), state, reduced.word,
                  reduced.first, reduces, completedWord, completedFirst,
                  completes, scanned.word, scanned.first, scans, given);
              return addAcc(tb, op.getChunkPrefix(), op.getPrefix());
            },
            [&] {
              if (sumsFirst)
                reduceTotal = sumReduced();
              if (early)
                readEarly();
            });
        tb.setCacheHints(oldHints.first, oldHints.second);
      });
    };
    if (!walks) {
      ticketBody(drawTicket(tb, warps, state, derived,
                            share ? function_ref<SmallVector<Value>(Value)>(
                                        sharedFields)
                                  : nullptr),
                 nullptr, tb.idx(0));
      memref::DeallocOp::create(b, loc, totals);
      return;
    }
    // The block walks tickets until they run out. Warp 0 draws the first;
    // each later one is drawn during the ticket before it by warp 1 (one-warp
    // blocks draw one ticket each: laggedWalksTickets), right after its loads,
    // and left (with its fields, where shared) in one of two slots: ticket j of
    // the block reads slot j % 2, which the draw during ticket j - 1 wrote
    // before that ticket's last barrier, and which the next write (during
    // ticket j + 1) follows by at least ticket j's barriers. (A block given a
    // second block item, on a grid smaller than the items, draws that item's
    // first ticket into slot 0 while its other warps may still read slot 0 to
    // leave the loop: both tickets are past the last, so every warp leaves.)
    assert(warps >= 2 && "laggedWalksTickets needs a second warp");
    int64_t width = 1 + derived;
    Value slots = memref::AllocOp::create(
        b, loc, MemRefType::get({2 * width}, b.getI64Type()));
    auto slot = [&](Value j) {
      return tb.mul(arith::RemUIOp::create(b, loc, j, tb.idx(2)), width);
    };
    function_ref<SmallVector<Value>(Value)> derive = nullptr;
    if (share)
      derive = sharedFields;
    auto drawInto = [&](Value at) {
      drawTicketInto(tb, state, slots, at, derive);
    };
    inFirstWarp(tb, warps, [&] { drawInto(tb.idx(0)); });
    scf::WhileOp::create(
        b, loc, TypeRange{b.getIndexType()}, ValueRange{tb.idx(0)},
        [&](OpBuilder &, Location, ValueRange j) {
          Value t = readTicketSlots(tb, slots, slot(j[0]), 1)[0];
          scf::ConditionOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t,
                                    tickets),
              j);
        },
        [&](OpBuilder &, Location, ValueRange j) {
          Value at = slot(j[0]);
          Value next = tb.add(j[0], tb.idx(1));
          ticketBody(
              readTicketSlots(tb, slots, at, width),
              [&](Value w) {
                auto ifOp = scf::IfOp::create(
                    b, loc,
                    arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, w,
                                          tb.idx(1)));
                OpBuilder::InsertionGuard guard(b);
                b.setInsertionPointToStart(ifOp.thenBlock());
                drawInto(slot(next));
              },
              arith::RemUIOp::create(b, loc, j[0], tb.idx(2)));
          scf::YieldOp::create(b, loc, ValueRange{next});
        });
    memref::DeallocOp::create(b, loc, slots);
    memref::DeallocOp::create(b, loc, totals);
  });
  if (int64_t blocksPerSM = laggedBlocksPerSM(c))
    blocks->setAttr(kMinBlocksPerSMAttr, b.getI64IntegerAttr(blocksPerSM));
  // A warp's runs of reduced, scanned and stored tiles, each tested and
  // addressed once (kTileRunsAttr). Measured on the H100 (2026-11-26,
  // bench/results/tile-runs, lagged:2:4, 3 rounds alternating, G
  // elements/s): f16->f32 449-452 -> 459-463 (+2.4%), f16->f16 558-574 ->
  // 572-598 (+2.5-4%), i8->i32 418-428 -> 424-439 (+2.5%). The block scans
  // (block:4:16 f16, block:4:8 i8 at 65536-2^20) measured slower with them:
  // loads alone -0.5-2%, stores alone -7% (f16->f16) and -12% (i8->i32),
  // f16->f32 level: they keep one test a tile. (ncu, block:4:16 f16->f16
  // at 2^18: a store run issues the run's 16 4-byte stores a warp back to
  // back and the block's 16 warps, leaving one barrier together, stall on
  // the full load/store queue, 17% of the stall samples, though it runs
  // 5.8% fewer instructions; this kernel's 5 blocks of 4 warps issue the
  // same stores without that stall; bench/results/lagged-f16-0.6.24.)
  markTileRuns(tb, blocks);
  memref::DeallocOp::create(b, loc, state);
}

/// Grid level (reduce-then-scan over blocks): pass 1 writes each chunk's
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
    auto [base, end] = gridChunkRange(tb, c, p);
    Value v = reduceTiles(tb, c.input, base, tb.idx(0), chunkTiles, tb.idx(1),
                          end, c.tilesPerWarp);
    storeTotal(tb, v, totals, p);
  });

  Collective second = c;
  second.input = totals;
  second.output = prefix;
  second.segmentSize = chunks;
  second.n = numPartials;
  second.inclusive = false;
  emitScan(tb, second, partialsVariant(chunks));

  tb.parallel(numPartials, [&](Value p) {
    auto [base, end] = gridChunkRange(tb, c, p);
    Value start = memref::LoadOp::create(b, loc, prefix, p);
    scanTiles(tb, c, base, chunkTiles, end, tb.broadcast(start, acc));
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

  case Variant::Seg16NStrided:
  case Variant::Seg16NCoalesced:
    break;
  }
  llvm_unreachable("variant checked by the verifier");
}
