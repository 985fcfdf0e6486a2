//===- LookbackScan.cpp - the single-pass scan with decoupled look-back ---===//
//
// The `lookback` variant of tcu.segmented_scan.
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
/// (tcu.prefetch, D chunks = schedule.prefetch_bytes; none without a
/// schedule), so DRAM keeps streaming while blocks wait at their look-backs
/// and a chunk's own loads mostly hit L2. One ticket a chunk, not a run of
/// chunks: docs/rationale.md#lookback-fenwick.
void scanLookback(TileBuilder &tb, const Collective &c) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  int64_t warps = c.warpsPerBlock ? c.warpsPerBlock : kLookbackWarps;
  int64_t chunkLength = warps * c.tilesPerWarp * T * T;
  if (c.segmentSize <= chunkLength)
    return scanBlock(tb, c);
  Type acc = TileBuilder::accumulatorFor(inputElementType(c.input));
  ChainItems chain = chainItems(tb, c, chunkLength);
  Value perSegment = chain.perSegment, items = chain.items;
  int64_t ahead = prefetchChunksOf(c, c.schedule, chunkLength);
  Value state = zeroedChainState(tb, tb.add(items, tb.idx(1)));
  tb.parallel(items, [&](Value) {
    // The warps' totals and, after them, the chunk's prefix.
    Value totals =
        memref::AllocOp::create(b, loc, MemRefType::get({warps + 1}, acc));
    // One warp draws the chunk.
    Value q = drawTicket(tb, warps, state, 0, [&](Value q) {
      if (ahead)
        prefetchChunk(tb, c, tb.add(q, tb.idx(ahead)), items, perSegment,
                      chunkLength);
      return SmallVector<Value>();
    })[0];
    ChainChunk chunk = chainChunk(tb, c, q, perSegment, chunkLength);
    ChainLink link{state, chunk.word, chunk.first};
    scanChunkInBlock(tb, c, totals, tb.idx(0), warps, chunk.base, chunk.end,
                     chunk.from, Value(), &link);
    memref::DeallocOp::create(b, loc, totals);
  });
  memref::DeallocOp::create(b, loc, state);
}

} // namespace mlir::tcu::detail
