//===- Passes.h - tcuc front-door transforms --------------------*- C++ -*-===//

#ifndef TCUC_TRANSFORMS_PASSES_H
#define TCUC_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith {
class ArithDialect;
} // namespace arith
namespace func {
class FuncDialect;
} // namespace func
namespace linalg {
class LinalgDialect;
} // namespace linalg
namespace memref {
class MemRefDialect;
} // namespace memref
namespace tensor {
class TensorDialect;
} // namespace tensor
namespace tcu {
class TCUDialect;

#define GEN_PASS_DECL
#include "tcuc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcuc/Transforms/Passes.h.inc"
} // namespace tcu
} // namespace mlir

#endif // TCUC_TRANSFORMS_PASSES_H
