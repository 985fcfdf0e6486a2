//===- TCUDialect.cpp - tcu dialect registration --------------------------===//

#include "tcuc/Dialect/TCU/TCUDialect.h"
#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
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
