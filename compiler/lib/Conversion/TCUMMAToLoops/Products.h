//===- Products.h - the CPU backend's products ------------------*- C++ -*-===//
//
// tcu.matrix, tcu.mma and tcu.split of convert-tcu-mma-to-loops
// (Products.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUMMATOLOOPS_PRODUCTS_H
#define TCUC_CONVERSION_TCUMMATOLOOPS_PRODUCTS_H

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcu::loops {

/// One tile row (kTileSize elements of `elt`): the unit the CPU backend's
/// loops load, combine and store.
inline VectorType rowType(Type elt) {
  return VectorType::get({kTileSize}, elt);
}

/// The 256 elements of `tile` reordered: element i (16 row + col) of the
/// result is element from(i) of `tile` (the lanes order: tcu::lanesPlace
/// of (i / 16, i % 16) into it, tcu::lanesElement out of it).
Value permuteTile(OpBuilder &b, Location loc, Value tile, int (*from)(int));

/// A tile in the lanes order from one in line order (fromLanes: false),
/// or back (true).
Value lanesTile(OpBuilder &b, Location loc, Value tile, bool fromLanes);

/// Replaces each split f32 product chain and i32 digit (Horner) chain with
/// a named matrix in `root` by one product of the unsplit tile: IEEE sums
/// where the parts would lose bits (values below 2^-110), and adds instead
/// of the digits' multiplies. Runs before the patterns.
void lowerSplitChains(Operation *root);

/// tcu.matrix (a constant), tcu.mma (selected sums or a contraction) and
/// tcu.split (its parts).
void populateProductPatterns(RewritePatternSet &patterns);

/// tcu.offset_heads and tcu.store_segment_ends (OffsetsOps.cpp).
void populateOffsetsPatterns(RewritePatternSet &patterns);

void populateRecurrencePatterns(RewritePatternSet &patterns);

} // namespace mlir::tcu::loops

#endif // TCUC_CONVERSION_TCUMMATOLOOPS_PRODUCTS_H
