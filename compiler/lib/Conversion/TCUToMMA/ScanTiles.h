//===- ScanTiles.h - the scans' tile steps ----------------------*- C++ -*-===//
//
// The steps every scan variant is made of: a tile's scan with a carry
// (R = A·U + (L·A)·Ones + S), a run of tiles, and a chunk scanned by the
// warps of a block with its run totals exchanged at one barrier. The
// paper's variants (ScanVariants.cpp) and the single-pass scans
// (LookbackScan.cpp, LaggedScan.cpp) are built from them.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUTOMMA_SCANTILES_H
#define TCUC_CONVERSION_TCUTOMMA_SCANTILES_H

#include "Variants.h"

namespace mlir::tcu::detail {

/// The element type of a buffer.
Type inputElementType(Value buffer);
/// The matrix that scans a tile's rows (A · it), for rows loaded in
/// `order` (fixed or quads).
MatrixKind rowScanMatrix(const Collective &c,
                         ElementOrder order = ElementOrder::Fixed);
/// The 16x16 tile of consecutive elements from `base` (none at or past
/// `end`, nor, given `from`, below it), rows in c.scanOrder (fixed, or
/// quads: Collective::scanOrder).
Value loadScanTile(TileBuilder &tb, const Collective &c, Value base, Value end,
                   Value from = nullptr);
/// The tiles of a walk's group (forTileGroups' `tiles`, 256 elements each
/// from `base`), each loaded by loadScanTile within its limit: their bases
/// and tiles, all loads issued before any tile is used.
struct LoadedTiles {
  SmallVector<Value> bases, tiles;
};
LoadedTiles loadWalkTiles(TileBuilder &tb, const Collective &c, Value base,
                          ArrayRef<Value> tiles, ArrayRef<Value> limits,
                          Value from);
/// The walk_schedule's prefetch distance of a decayed walk, in tiles (0:
/// none).
int64_t prefetchTiles(const Collective &c);
/// Asks L2 for the tiles of [base, end) numbered [first, first + count)
/// (clipped to end): the walk_schedule's prefetch ahead of a warp's loads.
void prefetchTilesAhead(TileBuilder &tb, const Collective &c, Value base,
                        Value first, int64_t count, Value end);
/// The decayed walks' loop over `runs` tiles from `base` (none at or past
/// `end`, nor below `from`): tiles_per_warp tiles loaded before the first
/// is used, tiles ahead prefetched as the walk_schedule asks; `step` gives
/// the value after a tile (its base, limit and loaded tile) from the value
/// before it, `init` first. Returns the value after the last tile.
using WalkStep =
    function_ref<Value(Value tileBase, Value limit, Value tile, Value before)>;
Value walkDecayedTiles(TileBuilder &tb, const Collective &c, Value base,
                       Value runs, Value end, Value from, Value init,
                       WalkStep step);
/// The f32 tile of decay^(255 - place), place = 16 line + position of
/// each element in c.scanOrder: decayedTilesTotal's weights.
Value decayWeights(TileBuilder &tb, const Collective &c, Value decay);
/// The decayed total of `runs` tiles from `base` (none at or past `end`,
/// nor below `from`): h after their last element, h = decay * h + x from
/// 0, `decay` an f32. Each element is weighted by decay^(255 - place)
/// (`weights`, decayWeights' tile, built here where null) and each tile's
/// partial sums by decay^256 before the next tile's: two f32 operations
/// an element instead of a scan. Padding zeros after the last element
/// would still decay it: exact where the last tile ends at `end`
/// (docs/algorithms.md#decayed-grid-totals).
Value decayedTilesTotal(TileBuilder &tb, const Collective &c, Value decay,
                        Value weights, Value base, Value runs, Value end,
                        Value from);
/// Stores a tile scanned from loadScanTile's tile back in the same order.
void storeScanTile(TileBuilder &tb, const Collective &c, Value r, Value base,
                   Value end, Value from = nullptr);
/// `c` with its scan tiles in the quads order where the input is 16-bit (a
/// lane then moves four consecutive elements of a row, whole 32-byte
/// sectors: docs/rationale.md#stream-quads); other inputs as they are.
Collective withQuadsFor16Bit(const Collective &c);
/// x + y for accumulator scalars or tiles (f32 or i32 elements).
Value addAcc(TileBuilder &tb, Value x, Value y);
/// An all-zero carry tile for c's input.
Value zeroCarry(TileBuilder &tb, const Collective &c);
/// A zero scalar of the accumulator type `acc`.
Value zeroScalar(TileBuilder &tb, Type acc);

/// Scan256 of the loaded tile `a` with carry S: R = A·U + (L·A)·Ones + S
/// ((L·A)·Ones is tcu.row_sums of L·A, f32/i32 adds). Returns R and the
/// carry for the next tile: S plus the tile's total in every element,
/// which is R[15][15] of an inclusive scan, and R[15][15] + A[15][15] of an
/// exclusive one (masked-off elements are 0, so this holds for partial
/// tiles too). `block` cuts L into diagonal blocks (the packed variant).
std::pair<Value, Value> scanTile(TileBuilder &tb, const Collective &c, Value a,
                                 Value carry, int64_t block = kTileSize);
/// The scan of the loaded tile `a` (in c.scanOrder) whose segment heads
/// may lie anywhere (SegmentedTile.cpp): `rows` is tcu.offset_heads's
/// tile of each row's head mask and `most` (index) the most heads in a
/// row; `carry` continues the segment open at the tile's start. Returns R
/// and the carry of the segment open at its end (as scanTile's). A tile
/// without heads is a plain scanTile; with `endsOnly` (a reduction, which
/// reads R only at segments' last elements) just the carry plus its sum.
std::pair<Value, Value> segmentedScanTile(TileBuilder &tb, const Collective &c,
                                          Value a, Value rows, Value most,
                                          Value carry, bool endsOnly);
/// scanTile, with R stored row-major at `base` (nothing at or past `end`,
/// nor below `from` where given); returns the next carry.
Value scanLoadedTile(TileBuilder &tb, const Collective &c, Value a, Value base,
                     Value end, Value carry, Value from = nullptr);
/// Scan256N over `count` consecutive tiles from `base`, starting from
/// `carry`: each tile as scanLoadedTile, the carry passed along (elements
/// below `from` read as 0 and are not stored). A warp loads c.tilesPerWarp
/// tiles before it scans the first of them.
void scanTiles(TileBuilder &tb, const Collective &c, Value base, int64_t count,
               Value end, Value carry, Value from = nullptr);
/// The same over `runs` tiles, already clipped (segmentTileRuns); returns
/// the carry after the last.
Value scanTileRuns(TileBuilder &tb, const Collective &c, Value base, Value runs,
                   Value end, Value carry, Value from = nullptr);

/// A chunk's place in a look-back chain (tcu.block_lookback's operands):
/// the state words, the chunk's word and the chain's first word.
struct ChainLink {
  Value state, item, first;
};

/// One warp's run of k = tiles_per_warp tiles of a chunk scanned by the
/// warps of a block, from `runBase` (tiles past `end` load as zeros and
/// store nothing): loads the run, scans each tile from 0 (R_t, the tile
/// totals summed into the run's total), then `exchange(run total)` (a
/// block op: a barrier on the GPU) returns the value the run starts from,
/// and each tile is stored as R_t + (that start + the run's tiles before
/// t). The loaded tiles and R stay in registers across the exchange: the
/// input is read once. `afterLoads`, where given, runs once the run's loads
/// are issued, before its tiles are scanned. Nothing below `from` (where
/// given) is read or stored.
void scanWarpRun(TileBuilder &tb, const Collective &c, Value runBase, Value end,
                 Value from, function_ref<Value(Value)> exchange,
                 function_ref<void()> afterLoads = nullptr);
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
Value scanChunkInBlock(TileBuilder &tb, const Collective &c, Value totals,
                       Value offset, int64_t warps, Value chunkBase, Value end,
                       Value from, Value carry,
                       const ChainLink *link = nullptr);
/// The streaming scan (StreamScan.cpp): items of whole segments,
/// kStreamItemElements elements or one segment, in tiles of 256
/// consecutive elements whatever the segment size (>= 16).
void scanStream(TileBuilder &tb, const Collective &c);
/// The exclusive scan that gives reduce-then-scan its prefixes: `totals`
/// holds `perSegment` partials for each segment of `c` (`count` in all),
/// scanned segment by segment into `prefix`.
Collective partialsScan(TileBuilder &tb, const Collective &c, Value totals,
                        Value prefix, int64_t perSegment, Value count);
/// MatMulScan (MatMulScan.cpp): an up-sweep of tile totals and a down-sweep
/// of tile scans, level by level, a tile being 256 entries of a level.
void scanMatMul(TileBuilder &tb, const Collective &c);

/// The block-level scan (ScanVariants.cpp); the single-pass scans fall
/// back to it for a segment that fits in one of their chunks.
void scanBlock(TileBuilder &tb, const Collective &c);

} // namespace mlir::tcu::detail

#endif // TCUC_CONVERSION_TCUTOMMA_SCANTILES_H
