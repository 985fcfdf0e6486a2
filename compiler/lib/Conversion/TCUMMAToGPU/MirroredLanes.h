//===- MirroredLanes.h - mirrored lanes-order tiles as vectors --*- C++ -*-===//
//
// A reverse scan reads and writes its tiles mirrored (`mirror %m`: logical
// element i is physical m - i). In the lanes (or tile) order a lane's eight
// slots are then eight consecutive physical elements, backwards; these
// helpers move them as one aligned vector where they are one chunk
// (MirroredLanes.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUMMATOGPU_MIRROREDLANES_H
#define TCUC_CONVERSION_TCUMMATOGPU_MIRROREDLANES_H

#include "mlir/IR/Builders.h"

namespace mlir::tcu::gpu_lowering {

/// A lane of a mirrored tile: its slot 0 at logical `laneStart`, read or
/// written in [from, limit) (`from` may be null) through `mirror`.
struct MirroredTile {
  Value buffer, laneStart, from, limit, mirror;
};

/// The lane's 8 slots of a mirrored tile load (in the buffer's element
/// type): one aligned vector load where the lane's chunk is aligned and
/// inside the buffer (slots outside [from, limit) zeroed), else
/// `elementwise` (the per-element masked path).
SmallVector<Value> loadMirroredLanes(
    OpBuilder &b, Location loc, const MirroredTile &tile,
    function_ref<SmallVector<Value>(OpBuilder &, Location)> elementwise);

/// Stores the lane's `slots` (8, in the buffer's element type) of a
/// mirrored tile: one aligned vector store where its chunk is aligned,
/// inside the buffer and wholly in [from, limit), else `elementwise`.
void storeMirroredLanes(OpBuilder &b, Location loc, const MirroredTile &tile,
                        ArrayRef<Value> slots,
                        function_ref<void(OpBuilder &, Location)> elementwise);

} // namespace mlir::tcu::gpu_lowering

#endif // TCUC_CONVERSION_TCUMMATOGPU_MIRROREDLANES_H
