//===- Variants.h - the papers' algorithms as mma-form emitters -*- C++ -*-===//
//
// ReduceVariants.cpp holds every reduction algorithm, ScanVariants.cpp every
// scan, one function per variant. Each emits, at the builder's insertion
// point, the loops and tile products that compute the collective `c`.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUTOMMA_VARIANTS_H
#define TCUC_CONVERSION_TCUTOMMA_VARIANTS_H

#include "TileBuilder.h"

namespace mlir::tcu::detail {

/// Warps that share one segment in the block-level reduction without
/// warps_per_block (their partials fill one tile row or column; the block
/// scan uses blockScanWarps).
constexpr int64_t kBlockWarps = 16;
/// Warps that share one segment in the block-level scan without
/// warps_per_block (the phases of a
/// nested scf.parallel; the GPU kernel's block is that many warps):
/// segment / 2^13 for 16-bit inputs and segment / 2^16 for the others,
/// rounded down to a power of two and clamped to [4, 16]. Measured on the
/// H100 (2026-11-24, bench/results/block-warps) with the chunk prefetch,
/// W = 4/8/16 at 65536-2^22: f16 inputs gained from more warps (f16->f32
/// at 65536: 0.944 with 4, 0.980 with 16; 0.966 / 0.970 for f16->f32 /
/// f16->f16 with 8), i8 inputs lost (65536: 0.916 with 4, 0.766 with 16),
/// so each keeps its own rule. Below 65536 only W = 4 was measured.
int64_t blockScanWarps(int64_t segmentSize, Type inputElement);
/// Warps of a block that scan one chunk in the look-back scan without
/// warps_per_block: a chunk is that many warps times tiles_per_warp tiles.
constexpr int64_t kLookbackWarps = 16;
/// Warps of a block in the lagged scan without warps_per_block: 4 measured
/// faster than 8 and 16 for all three scans at every tile count (H100,
/// 2026-11-25, bench/results/run16-lagged-window: whole array at 2 tiles,
/// f16->f32 0.792 with 4 warps, 0.678 with 8, 0.457 with 16).
constexpr int64_t kLaggedWarps = 4;
/// Elements of a segment one warp handles in the grid-level variants, at
/// least (16 tiles: enough streaming per warp to amortize its partial).
constexpr int64_t kGridChunk = 4096;
/// Chunks of one segment, at most: a longer segment takes longer chunks,
/// so the partials (scratch memory) stay within 65536 per segment whatever
/// the segment length. A cap of 8192 measured slower on the whole array of
/// 2^28 (8192 chunks of 32768): 0.78 of the read ceiling at 1 tile per
/// warp, where 65536 chunks of 4096 ran at 0.86 (H100, 2026-11-22). One
/// wave of long chunks over the warp slots, with its tail, is a guess at
/// why, not a measurement.
constexpr int64_t kMaxGridChunks = 65536;

void emitReduce(TileBuilder &tb, const Collective &c, Variant variant);
void emitScan(TileBuilder &tb, const Collective &c, Variant variant);

// Steps shared by the reductions and the scans' reduce-then-scan variants
// (defined in ReduceVariants.cpp).

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
/// V = sum of P·A_t (as Ones·A_t) over the tiles t = first, first + step,
/// ... < count of 256 consecutive elements from `base`, reading nothing at
/// or past `end` (count is clipped there: clippedRuns); `inFlight` tiles are
/// loaded before they are multiplied.
Value reduceTiles(TileBuilder &tb, Value src, Value base, Value first,
                  int64_t count, Value step, Value end, int64_t inFlight);
/// Lets the GPU lowering join the tile loads (stores) of one block whose
/// bases differ by constants into runs, each tested for bounds and
/// alignment and addressed once (kTileRunsAttr; TileRuns in TCUMMAToGPU.cpp):
/// the reduce walks' groups (reduceTiles) and the lagged scan's runs.
void markTileRuns(TileBuilder &tb, scf::ParallelOp loop);
/// dest[index] (+)= (V·PT)[0][0], the sum of row 0 of V (tcu.row_sums);
/// nothing if index is at or past `limit` (default: index + 1, always
/// stored).
void storeTotal(TileBuilder &tb, Value v, Value dest, Value index,
                bool accumulate = false, Value limit = nullptr);
/// The end of the segment starting at `segBase`, clipped to the input.
Value segmentEnd(TileBuilder &tb, const Collective &c, Value segBase);
/// Number of 256-element tiles a segment spans.
int64_t tilesPerSegment(const Collective &c);
/// Runs of a loop over a segment: up to `count` runs (tiles, steps) of
/// `width` elements from `base`, clipped to those that start before `end`.
/// A segment far longer than the input then costs work in proportion to the
/// input, not to the segment size (segment 2^40 + 3 over 5000 elements
/// looped 2^32 empty tiles: a hang). Up to kUnclippedRuns runs stay a
/// constant count, as before: every tuned kernel (the longest, seg256n scans
/// of 2^18, loop 1024 tiles) is unchanged, and a segment longer than the
/// input wastes at most that many masked runs.
Value clippedRuns(TileBuilder &tb, int64_t count, int64_t width, Value base,
                  Value end);
constexpr int64_t kUnclippedRuns = 4096;
/// Elements per chunk of the grid variants: kGridChunk, or more (a
/// multiple of 256) once the segment would have over kMaxGridChunks.
int64_t gridChunkLength(const Collective &c);
/// Number of gridChunkLength-element chunks a segment is cut into.
int64_t numGridChunks(const Collective &c);
/// The variant for the grid variants' second pass over `chunks` partials
/// per segment: the grid again while one warp would stream more than one
/// chunk of partials (the whole array of 2^28 has 65536), else the default.
Variant partialsVariant(int64_t chunks);
/// [base, end) of grid partial `p`: chunk p % chunks of segment p / chunks.
std::pair<Value, Value> gridChunkRange(TileBuilder &tb, const Collective &c,
                                       Value p);

} // namespace mlir::tcu::detail

#endif // TCUC_CONVERSION_TCUTOMMA_VARIANTS_H
