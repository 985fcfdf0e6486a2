//===- ChainedScans.h - the single-pass scans' ticketed chain ---*- C++ -*-===//
//
// The look-back scan (LookbackScan.cpp) and the lagged scan (LaggedScan.cpp)
// run in one pass: blocks draw tickets, each naming a chunk of a chain over
// every segment's chunks, and pass totals along the chain through i64 state
// words. This is what they share: the state, the ticket drawing, where a
// ticket's chunk lies, and the L2 prefetch of a later chunk.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUTOMMA_CHAINEDSCANS_H
#define TCUC_CONVERSION_TCUTOMMA_CHAINEDSCANS_H

#include "ScanTiles.h"

namespace mlir::tcu::detail {

/// The state of a ticketed chain of chunks, `words` i64 words, all 0
/// (zeroed by a first kernel on the GPU): word 0 the ticket counter, then
/// the chunks' words.
Value zeroedChainState(TileBuilder &tb, Value words);

/// A phase of a block item in which only warp 0 works. (A phase of one
/// iteration would not do: canonicalization inlines single-iteration
/// loops, and every warp would run the body.)
void inFirstWarp(TileBuilder &tb, int64_t warps, function_ref<void()> body);

/// Draws a ticket (tcu.ticket on state[0]) and stores it at slots[at],
/// then the values `derive`, if given, computes from it at slots[at + 1],
/// ... (index values, stored as i64). The caller picks the warp.
void drawTicketInto(TileBuilder &tb, Value state, Value slots, Value at,
                    function_ref<SmallVector<Value>(Value)> derive);
/// Index values `count` of them stored at slots[at], ... by drawTicketInto.
SmallVector<Value> readTicketSlots(TileBuilder &tb, Value slots, Value at,
                                   int64_t count);
/// Draws a ticket in warp 0 and shares it with the block through a small
/// buffer, together with the `derived` index values `derive` computes from
/// it in warp 0 right after the draw (the chunk a ticket names: its 64-bit
/// divisions and bounds then cost one warp's instructions, not every
/// warp's; the other warps wait at the barrier after the draw either way;
/// `derive` may also be warp 0's own work and derive nothing, as the
/// look-back scan's prefetch). Returns the ticket, then those values.
SmallVector<Value>
drawTicket(TileBuilder &tb, int64_t warps, Value state, int64_t derived = 0,
           function_ref<SmallVector<Value>(Value)> derive = nullptr);

/// How many chunks of `chunkLength` elements hold `bytes` of the input: at
/// least one. (The schedules give prefetch distances and lags in bytes.)
int64_t chunksOfInput(const Collective &c, int64_t chunkLength, int64_t bytes);
/// The schedule's prefetch distance in chunks; 0 (none) without one.
int64_t prefetchChunksOf(const Collective &c, ChainScheduleAttr schedule,
                         int64_t chunkLength);

/// A chain's items: every segment's chunks of `chunkLength` elements
/// (`perSegment` a segment, clipped to the input), `items` in all.
struct ChainItems {
  Value perSegment, items;
};
ChainItems chainItems(TileBuilder &tb, const Collective &c,
                      int64_t chunkLength);

/// Prefetches the input of chunk `item` (a global chunk number, as a
/// ticket) into L2, if there is such a chunk.
void prefetchChunk(TileBuilder &tb, const Collective &c, Value item,
                   Value items, Value perSegment, int64_t chunkLength);

/// Chunk `item` of a ticketed chain over every segment's walk
/// (segmentWalk): its elements [base, end) (none below `from`), its state
/// word and its segment's first word (word 0 is the ticket counter, so the
/// words start at 1).
struct ChainChunk {
  Value base, end, from, word, first;

  /// The fields in order, to share them through drawTicket (`from` only
  /// where the walk has one: walkHasLowerBound).
  SmallVector<Value> fields() const {
    SmallVector<Value> f{base, end, word, first};
    if (from)
      f.push_back(from);
    return f;
  }
  static int64_t fieldCount(bool hasFrom) { return hasFrom ? 5 : 4; }
  static ChainChunk of(ArrayRef<Value> f, bool hasFrom) {
    return {f[0], f[1], hasFrom ? f[4] : Value(), f[2], f[3]};
  }
};

/// The chunk `item` of a chain whose segments have `perSegment` chunks each
/// (a runtime value, or the constant chunks of a whole segment).
ChainChunk chainChunk(TileBuilder &tb, const Collective &c, Value item,
                      Value perSegment, int64_t chunkLength);

/// The look-back and lagged scans (LookbackScan.cpp, LaggedScan.cpp).
void scanLookback(TileBuilder &tb, const Collective &c);
void scanLagged(TileBuilder &tb, const Collective &c);

} // namespace mlir::tcu::detail

#endif // TCUC_CONVERSION_TCUTOMMA_CHAINEDSCANS_H
