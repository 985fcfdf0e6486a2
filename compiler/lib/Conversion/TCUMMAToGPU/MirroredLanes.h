//===- MirroredLanes.h - mirrored lanes-order tiles as vectors --*- C++ -*-===//
//
// A reverse scan reads and writes its tiles mirrored (`mirror %m`: logical
// element i is physical m - i). In the lanes (or tile) order a lane's eight
// slots are then eight consecutive physical elements, backwards; these
// helpers move them as aligned vectors (MirroredLanes.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUMMATOGPU_MIRROREDLANES_H
#define TCUC_CONVERSION_TCUMMATOGPU_MIRROREDLANES_H

#include "mlir/IR/Builders.h"

namespace mlir::tcu::gpu_lowering {

/// Where a mirrored tile lies: 256 logical elements from `base` (whole
/// lines of 16, 16 apart), the lane's slot 0 at logical `laneStart`
/// (base + 8 * lane), read or written in [from, limit) (`from` may be
/// null) through `mirror`.
struct MirroredTile {
  Value buffer, base, laneStart, from, limit, mirror;
};

/// The 8 slots of a mirrored tile load (in the buffer's element type):
/// aligned vector loads where the whole tile lies inside the buffer and
/// [from, limit), else `elementwise` (the per-element masked path).
SmallVector<Value>
loadMirroredLanes(OpBuilder &b, Location loc, const MirroredTile &tile,
                  function_ref<SmallVector<Value>(OpBuilder &, Location)>
                      elementwise);

/// Stores `slots` (8, in the buffer's element type) of a mirrored tile:
/// aligned vector stores where the whole tile is inside, with the
/// neighbouring lane's slots shuffled in where the tile is not aligned;
/// else `elementwise`.
void storeMirroredLanes(OpBuilder &b, Location loc, const MirroredTile &tile,
                        ArrayRef<Value> slots,
                        function_ref<void(OpBuilder &, Location)> elementwise);

} // namespace mlir::tcu::gpu_lowering

#endif // TCUC_CONVERSION_TCUMMATOGPU_MIRROREDLANES_H
