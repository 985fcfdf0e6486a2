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

} // namespace mlir::tcu::detail

#endif // TCUC_CONVERSION_TCUTOMMA_VARIANTS_H
