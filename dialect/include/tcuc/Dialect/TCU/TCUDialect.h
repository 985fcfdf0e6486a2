//===- TCUDialect.h - tcu dialect -------------------------------*- C++ -*-===//

#ifndef TCUC_DIALECT_TCU_TCUDIALECT_H
#define TCUC_DIALECT_TCU_TCUDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tcuc/Dialect/TCU/TCUDialect.h.inc"

#endif // TCUC_DIALECT_TCU_TCUDIALECT_H
