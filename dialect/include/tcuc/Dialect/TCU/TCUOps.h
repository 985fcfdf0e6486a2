//===- TCUOps.h - tcu operations and attributes -----------------*- C++ -*-===//

#ifndef TCUC_DIALECT_TCU_TCUOPS_H
#define TCUC_DIALECT_TCU_TCUOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tcuc/Dialect/TCU/TCUDialect.h"
#include "tcuc/Dialect/TCU/TCUEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tcuc/Dialect/TCU/TCUAttrs.h.inc"

namespace mlir {
namespace tcu {
/// The accumulator type for an input element type: f32 for f16/bf16/f32,
/// i32 for i8. Returns null for element types tcu does not accept.
Type getAccumulatorType(Type inputElementType);

/// Number of segments of `numElements` elements cut into segments of
/// `segmentSize` (ceil division; 0 for 0 elements). Requires segmentSize >= 1
/// and numElements >= 0.
int64_t getNumSegments(int64_t numElements, int64_t segmentSize);
} // namespace tcu
} // namespace mlir

#define GET_OP_CLASSES
#include "tcuc/Dialect/TCU/TCUOps.h.inc"

#endif // TCUC_DIALECT_TCU_TCUOPS_H
