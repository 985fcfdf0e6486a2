//===- TCUDialect.cpp - tcu dialect registration --------------------------===//

#include "tcuc/Dialect/TCU/TCUDialect.h"
#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tcu;

#include "tcuc/Dialect/TCU/TCUDialect.cpp.inc"
#include "tcuc/Dialect/TCU/TCUEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tcuc/Dialect/TCU/TCUAttrs.cpp.inc"

void TCUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tcuc/Dialect/TCU/TCUOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tcuc/Dialect/TCU/TCUAttrs.cpp.inc"
      >();
}

/// Checks that `op` is one of `owners` (op names: the dialect checks by name
/// so that it needs none of the GPU dialect).
static LogicalResult verifyOwner(Operation *op, StringRef attr,
                                 ArrayRef<StringRef> owners) {
  if (llvm::is_contained(owners, op->getName().getStringRef()))
    return success();
  return op->emitOpError() << "may not carry '" << attr << "' (only "
                           << llvm::join(owners, " or ") << ")";
}

LogicalResult TCUDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  if (name == getTileRunsAttrName() || name == getChunkLoopAttrName()) {
    if (!isa<UnitAttr>(value))
      return op->emitOpError() << "'" << name << "' must be a unit attribute";
    if (name == getTileRunsAttrName())
      return verifyOwner(op, name, {"scf.parallel", "gpu.func"});
    return verifyOwner(op, name, {"scf.for"});
  }
  if (name == getMinBlocksPerSMAttrName() ||
      name == getMaxRegistersAttrName()) {
    auto count = dyn_cast<IntegerAttr>(value);
    if (!count || !count.getType().isSignlessInteger(64))
      return op->emitOpError() << "'" << name << "' must be an i64";
    // An SM holds at most 32 blocks (sm_80, sm_90).
    auto [low, high] =
        name == getMinBlocksPerSMAttrName()
            ? std::pair<int64_t, int64_t>{1, 32}
            : std::pair<int64_t, int64_t>{kMinRegisterCap, kMaxRegisterCap};
    if (count.getInt() < low || count.getInt() > high)
      return op->emitOpError() << "'" << name << "' must be in [" << low << ", "
                               << high << "], got " << count.getInt();
    return verifyOwner(op, name, {"scf.parallel"});
  }
  return op->emitOpError() << "unknown tcu attribute '" << name << "'";
}
