//===- GPUPatterns.h - the conversion patterns of the GPU backend -*- C++ -*-=//
//
// convert-tcu-mma-to-gpu's patterns, by family: tile accesses
// (TileAccessOps.cpp), products (MMAOps.cpp), operations across the lanes of a
// fragment (FragmentOps.cpp), and the single-pass look-back
// (TicketPrefetchOps.cpp, BlockLookbackOps.cpp, LaggedLookbackOps.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUMMATOGPU_GPUPATTERNS_H
#define TCUC_CONVERSION_TCUMMATOGPU_GPUPATTERNS_H

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tcu::gpu_lowering {

struct TileRuns;

/// Whether `t` is a 16x16 tile (which the conversion turns into a fragment).
bool isTile(Type t);

/// The slots of a tile access (tcu.load_tile in `layout`, or a store's
/// rows) that hold consecutive positions of one line, in position order:
/// the accesses a whole tile can make as one vector each.
SmallVector<SmallVector<int, 8>, 8> slotGroups(TileLayout layout,
                                               ElementOrder order);

/// tcu.load_tile, tcu.store_tile, tcu.store_row and tcu.gather as per-lane
/// accesses that never touch a masked-off address; the tile runs in `runs` (if
/// given) are lowered as one each (TileAccessOps.cpp).
void populateTileAccessPatterns(const TypeConverter &types,
                                RewritePatternSet &patterns,
                                const TileRuns *runs);

/// The finite checks already built, by the fragment they checked (in A
/// layout). A tile that meets two named matrices (a scan's L·A and A·U)
/// needs one check: the vote covers the warp's 256 elements in either
/// layout. Filled in program order by one conversion; a check is reused only
/// where it dominates.
struct FiniteChecks {
  DenseMap<Value, Value> byFragment;
  /// Per check_tiny tcu.split: whether the lane's elements lose bits in the
  /// parts (an i1, before the warp's vote), then the chain's verdict (voted,
  /// with the NaN/Inf check), which its later products follow.
  DenseMap<Operation *, Value> lossyBySplit, badByChain;

  /// The check of `fragment` for a product at `at`.
  Value get(OpBuilder &b, Location loc, Value fragment, Operation *at);
};

/// tcu.mma (mma.sync, with the exact path for NaN and Inf next to a 0/1
/// matrix), tcu.matrix, tcu.split, tcu.block_prefix and elementwise arith
/// on tiles (MMAOps.cpp). `checks`, if given, shares the finite checks of
/// one conversion between its products; null: each checks its own data.
void populateMMAPatterns(const TypeConverter &types,
                         RewritePatternSet &patterns, FiniteChecks *checks);

/// The arith.fptosi ops one conversion built whose operands hold integers
/// that fit their result type exactly (an i8 tile's transpose, moved as
/// f16), so that foldExactIntRoundTrips may drop the conversions back.
struct ExactIntCasts {
  SmallPtrSet<Operation *, 8> narrowings;
};

/// Replaces every arith.sitofp in `root` of an arith.fptosi in `exact` by
/// the fptosi's operand where their float types match, and the fptosi too
/// once it has no other use: the i8 transpose narrows its f16 fragment to
/// i8 and the mma widens it again (about 30 instructions a tile for
/// nothing).
void foldExactIntRoundTrips(Operation *root, const ExactIntCasts &exact);

/// tcu.row_sums (lane sums, then shuffles across the row's four lanes),
/// vector.extract of one tile element (a shuffle from the lane holding it)
/// and vector.transpose of a 16-bit tile (movmatrix, in registers); an i8
/// tile's transpose records its exact narrowing in `exact` (if given).
void populateFragmentPatterns(const TypeConverter &types,
                              RewritePatternSet &patterns,
                              ExactIntCasts *exact);

/// tcu.linear_recurrence: compositions of (a, x) pairs scanned across the
/// lanes with shuffles (RecurrenceOps.cpp).
void populateRecurrencePatterns(const TypeConverter &types,
                                RewritePatternSet &patterns);

/// tcu.ticket (one lane's atomic add, shared by shuffle) and tcu.prefetch
/// (the lanes' L2 prefetches of a range) (TicketPrefetchOps.cpp).
void populateTicketPrefetchPatterns(const TypeConverter &types,
                                    RewritePatternSet &patterns);

/// tcu.block_lookback: block barriers around warp 0's look-back over a
/// Fenwick tree of the chain (FenwickChain.h) (BlockLookbackOps.cpp).
void populateBlockLookbackPatterns(const TypeConverter &types,
                                   RewritePatternSet &patterns);

/// tcu.block_lagged_lookback and tcu.lagged_prefix, the lagged scan's
/// look-back (LaggedLookbackOps.cpp).
void populateLaggedLookbackPatterns(const TypeConverter &types,
                                    RewritePatternSet &patterns);

/// tcu.offset_heads and tcu.store_segment_ends (OffsetsOps.cpp).
void populateOffsetsPatterns(const TypeConverter &types,
                             RewritePatternSet &patterns);

/// The bytes `count` elements of `buffer` take (an i64).
Value byteCount(OpBuilder &b, Location loc, Value buffer, Value count);
/// The generic address (an i64) of element `index` of a 1-D buffer.
Value elementAddress(OpBuilder &b, Location loc, Value buffer, Value index);

/// Whether an access of `bytes` can carry `hint` as PTX (not `normal`;
/// 2, 4, 8 or 16 bytes) (CacheHints.cpp).
bool canHint(CacheHint hint, int64_t bytes);
/// buffer[index + offset ..] as `type` (a vector of canHint's bytes) for
/// each of `offsets` (constants, in elements), loaded with `hint` by one
/// PTX block from one address.
SmallVector<Value> hintedLoads(OpBuilder &b, Location loc, CacheHint hint,
                               VectorType type, Value buffer, Value index,
                               ArrayRef<int64_t> offsets);
/// Stores each of `values` (vectors of one type) at buffer[index + its
/// offset ..] with `hint`, as hintedLoads does.
void hintedStores(OpBuilder &b, Location loc, CacheHint hint, ValueRange values,
                  Value buffer, Value index, ArrayRef<int64_t> offsets);

} // namespace mlir::tcu::gpu_lowering

#endif // TCUC_CONVERSION_TCUMMATOGPU_GPUPATTERNS_H
