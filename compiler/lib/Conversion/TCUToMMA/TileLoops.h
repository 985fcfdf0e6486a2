//===- TileLoops.h - the loops every variant walks tiles with ---*- C++ -*-===//
//
// Loops over groups of tiles kept in flight, work items taken a group at a
// time by one warp, and the bounds of segments, runs and grid chunks:
// shared by the reductions and the scans (TileLoops.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUTOMMA_TILELOOPS_H
#define TCUC_CONVERSION_TCUTOMMA_TILELOOPS_H

#include "TileBuilder.h"

namespace mlir::tcu::detail {

/// A loop over the tiles t = first, first + step, ... < count that takes
/// `inFlight` of them per iteration: `body` gets each tile's index and the
/// limit its accesses must respect, `end` or, for a tile past `count` (the
/// last iteration's overrun), a limit that masks every element.
using TileGroupBody = function_ref<SmallVector<Value>(
    ArrayRef<Value> tiles, ArrayRef<Value> limits, ValueRange carried)>;
ValueRange forTileGroups(TileBuilder &tb, Value first, Value count, Value step,
                         int64_t inFlight, Value end, ValueRange init,
                         TileGroupBody body);
/// Independent items [0, count) taken `perWarp` at a time by one parallel
/// iteration (one warp on the GPU): body gets the indices g*perWarp + i,
/// i < perWarp, so a warp can issue every item's loads before it computes
/// any of them. The last group may run past `count`: the body masks those
/// items (their loads and stores have limits that select nothing).
void parallelGroups(TileBuilder &tb, Value count, int64_t perWarp,
                    function_ref<void(ArrayRef<Value> items)> body);
/// One packed tile (segment_size = 16m, m <= 16): k = floor(16 / m) whole
/// segments of m rows each, the span = k·S consecutive elements from
/// base = tile·span, none at or past end = min(base + span, n).
struct PackedTile {
  Value index, base, end;
};
/// Rows per segment (m) of the packed variants.
int64_t packedRows(const Collective &c);
/// parallelGroups over the packed tiles, `tiles_per_warp` at a time. A tile
/// past the last segment starts at or past n: its end selects nothing.
void parallelPackedTiles(TileBuilder &tb, const Collective &c,
                         function_ref<void(ArrayRef<PackedTile>)> body);
/// Lets the GPU lowering join the tile loads (stores) of one block whose
/// bases differ by constants into runs, each tested for bounds and
/// alignment and addressed once (kTileRunsAttr; TileRuns in
/// TCUMMAToGPU/TileRuns.cpp): the reduce walks' groups (reduceTiles) and the
/// lagged scan's runs.
void markTileRuns(TileBuilder &tb, scf::ParallelOp loop);
/// The end of the segment starting at `segBase`, clipped to the input.
Value segmentEnd(TileBuilder &tb, const Collective &c, Value segBase);
/// The first element of segment `seg` (of group `seg` of `per` segments):
/// seg · per · S, with S the constant or the runtime segment size.
Value segmentBase(TileBuilder &tb, const Collective &c, Value seg,
                  int64_t per = 1);
/// Elements [base, end) of a walk over tiles of 256 consecutive elements,
/// none below `from` (null: no lower bound) read or written.
struct TileRange {
  Value base, end, from;
};
/// The walk over the segment starting at `segBase`
/// (docs/algorithms.md#aligned-walks): where walkHasLowerBound, its tiles
/// start at segBase rounded down to a multiple of 256 (at a lane phase:
/// down to the phase mod 8), so that wherever segments begin every whole
/// tile of the walk is aligned in the buffer and moves as vectors, and
/// `from` = segBase masks the elements below the segment; elsewhere the
/// tiles start at segBase, no `from`.
TileRange segmentWalk(TileBuilder &tb, const Collective &c, Value segBase);
/// Segments shorter than these keep their own tiles: the tile a walk adds
/// costs more than the vector accesses gain (rationale.md#aligned-walks).
constexpr int64_t kAlignedWalkMinReduceSegment = 2048;
constexpr int64_t kAlignedWalkMinScanSegment = 4096;
/// One segment's tiles as seg256n walks them: the collective as the work
/// item sees it, the tiles' range and their count (clipped).
struct SegmentTiles {
  Collective item;
  TileRange walk;
  Value runs;
};
/// Segment `seg` of `c`: of its size (segmentWalk, segmentTileRuns), or from
/// c.offsets (offsetsSegmentTiles).
SegmentTiles segmentTiles(TileBuilder &tb, const Collective &c, Value seg);
/// Segment `seg` from c.offsets (OffsetsWalk.cpp): its bounds read and
/// clamped, its tiles from off[seg] rounded down to 256 with `from`, and
/// the input (a scan's output too) viewed as long as the last offset says.
SegmentTiles offsetsSegmentTiles(TileBuilder &tb, const Collective &c,
                                 Value seg);
/// The collective as a work item over c.offsets sees it: n is the last
/// offset (clamped to the buffer), the input (a scan's output too) viewed
/// as that long.
Collective offsetsItem(TileBuilder &tb, const Collective &c);
/// off[i] as an index, of the mirrored view in a reverse scan (n - off[k -
/// i], n the work item's: offsetsItem).
Value readOffset(TileBuilder &tb, const Collective &c, Value i);
/// off[i] as an index, clamped into [lo, end]: offsets the kernel does not
/// check can make it compute nonsense, never read or write out of bounds.
Value clampedOffset(TileBuilder &tb, const Collective &c, Value i, Value lo,
                    Value end);
/// Whether segmentWalk starts below the segment: a constant segment size of
/// at least kAlignedWalkMin{Reduce,Scan}Segment that leaves segment bases
/// off the 16-byte vector grid of the input (not a multiple of 8 f16 or
/// bf16, 16 i8 or 4 f32 elements).
bool walkHasLowerBound(const Collective &c);

/// The residue mod 8 a lanes-order scan's tile bases take so that each
/// lane's eight consecutive logical elements are one aligned 8-element
/// chunk of the input: forward, -(the input's aligned address in elements)
/// mod 8; reverse, where they mirror to physical n' - 1 - i, (that address
/// + n') mod 8. The output is assumed as aligned
/// (docs/algorithms.md#lane-phase).
Value lanePhase(TileBuilder &tb, const Collective &c);
/// The elements a segment's walk spans at most (constant sizes only): S,
/// plus 255 where it may begin below the segment (7 at a lane phase).
int64_t walkSpan(const Collective &c);
/// Number of 256-element tiles a segment's walk spans (constant sizes
/// only).
int64_t tilesPerSegment(const Collective &c);
/// The tiles of `walk`: clippedRuns of tilesPerSegment for a constant size,
/// of no known count for a runtime one.
Value segmentTileRuns(TileBuilder &tb, const Collective &c,
                      const TileRange &walk);
/// Runs of a loop over a segment: up to `count` runs (tiles, steps) of
/// `width` elements from `base`, clipped to those that start before `end`.
/// A segment far longer than the input then costs work in proportion to the
/// input, not to the segment size (segment 2^40 + 3 over 5000 elements
/// looped 2^32 empty tiles: a hang). Up to kUnclippedRuns runs stay a
/// constant count, as before: every tuned kernel (the longest, seg256n scans
/// of 2^18, loop 1024 tiles) is unchanged, and a segment longer than the
/// input wastes at most that many masked runs. Without a `count` (a runtime
/// segment size), the runs before `end`.
Value clippedRuns(TileBuilder &tb, std::optional<int64_t> count, int64_t width,
                  Value base, Value end);
constexpr int64_t kUnclippedRuns = 4096;
/// Elements per chunk of the grid variants: kGridChunk, or more (a
/// multiple of 256) once the segment's walk would have over
/// kMaxGridChunks.
int64_t gridChunkLength(const Collective &c);
/// Number of gridChunkLength-element chunks a segment's walk is cut into.
int64_t numGridChunks(const Collective &c);
/// The variant for the grid variants' second pass over `chunks` partials
/// per segment: the grid again while one warp would stream more than one
/// chunk of partials (the whole array of 2^28 has 65536), else the default.
Variant partialsVariant(int64_t chunks);
/// Grid partial `p`: chunk p % chunks of segment p / chunks's walk.
TileRange gridChunkRange(TileBuilder &tb, const Collective &c, Value p);

} // namespace mlir::tcu::detail

#endif // TCUC_CONVERSION_TCUTOMMA_TILELOOPS_H
