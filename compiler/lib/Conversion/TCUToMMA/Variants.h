//===- Variants.h - the papers' algorithms as mma-form emitters -*- C++ -*-===//
//
// ReduceVariants.cpp holds every reduction algorithm and ScanVariants.cpp the
// papers' scans, one function per variant (the single-pass scans:
// ChainedScans.h). Each emits, at the builder's insertion point, the loops
// and tile products that compute the collective `c`.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUTOMMA_VARIANTS_H
#define TCUC_CONVERSION_TCUTOMMA_VARIANTS_H

#include "TileLoops.h"

namespace mlir::tcu::detail {

/// Warps that share one segment in the block-level reduction without
/// warps_per_block (their partials fill one tile row or column; the block
/// scan uses blockScanWarps).
constexpr int64_t kBlockWarps = 16;
/// Warps that share one segment in the block-level scan without
/// warps_per_block (the phases of a nested scf.parallel; the GPU kernel's
/// block is that many warps): segment / 2^13 for 16-bit inputs and
/// segment / 2^16 for the others, rounded down to a power of two and
/// clamped to [4, 16] (docs/rationale.md#block-scan-warps).
int64_t blockScanWarps(int64_t segmentSize, Type inputElement);
/// Warps of a block that scan one chunk in the look-back scan without
/// warps_per_block: a chunk is that many warps times tiles_per_warp tiles.
constexpr int64_t kLookbackWarps = kDefaultLookbackWarps;
/// Warps of a block in the lagged scan without warps_per_block
/// (docs/rationale.md#lagged-warps).
constexpr int64_t kLaggedWarps = kDefaultLaggedWarps;
/// Elements of a segment one warp handles in the grid-level variants, at
/// least (16 tiles: enough streaming per warp to amortize its partial).
constexpr int64_t kGridChunk = 4096;
/// Chunks of one segment, at most: a longer segment takes longer chunks,
/// so the partials (scratch memory) stay within 65536 per segment whatever
/// the segment length (docs/rationale.md#grid-chunks).
constexpr int64_t kMaxGridChunks = 65536;

/// Elements of one work item of the streaming variant, at most, unless one
/// segment is longer: the item holds floor(this / segment_size) whole
/// segments (docs/rationale.md#stream-items).
constexpr int64_t kStreamItemElements = 4096;

/// Runs of the balanced variant: the input is cut into this many equal
/// runs of whole tiles, a one-warp block each (docs/rationale.md#balanced).
constexpr int64_t kBalancedItems = 8192;
void emitReduce(TileBuilder &tb, const Collective &c, Variant variant);
/// Segments from offsets, load-balanced (BalancedOffsets.cpp).
void reduceBalanced(TileBuilder &tb, const Collective &c);
void scanBalanced(TileBuilder &tb, const Collective &c);
void emitScan(TileBuilder &tb, const Collective &c, Variant variant);
/// A decayed scan (c.decay != 1) in `variant`, seg16 or seg256
/// (isDecayVariant; DecayedScan.cpp).
void scanDecayed(TileBuilder &tb, const Collective &c, Variant variant);

// Steps shared by the reductions and the scans' reduce-then-scan variants
// (defined in ReduceVariants.cpp).

/// V = sum of P·A_t (as Ones·A_t) over the tiles t = first, first + step,
/// ... < count of 256 consecutive elements from `base`, reading nothing at
/// or past `end` (count is clipped there: clippedRuns), nor below `from`
/// where given; `inFlight` tiles are loaded before they are multiplied.
Value reduceTiles(TileBuilder &tb, Value src, Value base, Value first,
                  int64_t count, Value step, Value end, int64_t inFlight,
                  Value from = nullptr);
/// The same over `runs` tiles, already clipped (segmentTileRuns).
Value reduceTileRuns(TileBuilder &tb, Value src, Value base, Value first,
                     Value runs, Value step, Value end, int64_t inFlight,
                     Value from = nullptr);
/// dest[index] (+)= (V·PT)[0][0], the sum of row 0 of V (tcu.row_sums);
/// with `bound`, nothing if index >= bound (a group's overrun).
void storeTotal(TileBuilder &tb, Value v, Value dest, Value index,
                bool accumulate = false, Value bound = nullptr);

} // namespace mlir::tcu::detail

#endif // TCUC_CONVERSION_TCUTOMMA_VARIANTS_H
