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

/// Warps that share one segment in the block-level variants (their partials
/// fill one tile row or column).
constexpr int64_t kBlockWarps = 16;
/// Elements of a segment one block handles in the grid-level variants.
constexpr int64_t kGridChunk = 4096;

void emitReduce(TileBuilder &tb, const Collective &c, Variant variant);
void emitScan(TileBuilder &tb, const Collective &c, Variant variant);

// Steps shared by the reductions and the scans' reduce-then-scan variants
// (defined in ReduceVariants.cpp).

/// V = sum of P·A_t over the tiles t = first, first + step, ... < count of
/// 256 consecutive elements from `base`, reading nothing at or past `end`.
Value reduceTiles(TileBuilder &tb, Value src, Value base, Value first,
                  Value count, Value step, Value end);
/// dest[index] (+)= (V·PT)[0][0], the sum of row 0 of V.
void storeTotal(TileBuilder &tb, Value v, Value dest, Value index,
                bool accumulate = false);
/// The end of the segment starting at `segBase`, clipped to the input.
Value segmentEnd(TileBuilder &tb, const Collective &c, Value segBase);
/// Number of 256-element tiles a segment spans.
int64_t tilesPerSegment(const Collective &c);
/// Number of kGridChunk-element chunks a segment is cut into.
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
