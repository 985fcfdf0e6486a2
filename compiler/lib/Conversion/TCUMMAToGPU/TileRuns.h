//===- TileRuns.h - runs of tile accesses one test can serve ----*- C++ -*-===//
//
// An analysis for convert-tcu-mma-to-gpu: consecutive tile loads (or
// stores) of a warp that one whole-run test, one L2 policy and one 64-bit
// address can serve, in the kernels whose work items allow it. The tile
// access patterns (TileAccessOps.cpp) lower each run as one.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUMMATOGPU_TILERUNS_H
#define TCUC_CONVERSION_TCUMMATOGPU_TILERUNS_H

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tcu::gpu_lowering {

/// Runs of tile accesses that one whole-run test can serve: loads (or
/// stores) of one block with the same buffer, layout, stride, line length,
/// limit, order and hint, whose bases lie a constant multiple of the vector
/// width above the first's, with only side-effect-free operations between
/// them, in kernels whose items allow it (kTileRunsAttr, set by the
/// variants where runs measured faster; docs/rationale.md). Such a run
/// tests its bounds and alignment, and makes its policy and 64-bit address,
/// once instead of once a tile. A load run is lowered at its first load
/// (the later loads move up to it), a store run at its last store (the
/// earlier stores move down to it; their values are all computed by then).
struct TileRuns {
  /// The runs of the kernels (gpu.func) in `root` that allow them
  /// (kTileRunsAttr).
  explicit TileRuns(Operation *root);

  /// A run's members after its first, with their offsets (elements past
  /// the first's base), keyed by the first load.
  DenseMap<Operation *, SmallVector<std::pair<LoadTileOp, int64_t>>> loads;
  /// A run's members, the first included (offset 0), keyed by the last
  /// store; `movedStores` holds every member but the last.
  DenseMap<Operation *, SmallVector<std::pair<StoreTileOp, int64_t>>> stores;
  DenseSet<Operation *> movedStores;

private:
  /// Whether two accesses differ in their bases only.
  static bool sameKind(LoadTileOp a, LoadTileOp b);
  static bool sameKind(StoreTileOp a, StoreTileOp b);

  void addRuns(Block *block);
};

} // namespace mlir::tcu::gpu_lowering

#endif // TCUC_CONVERSION_TCUMMATOGPU_TILERUNS_H
