//===- Passes.h - tcuc strategy passes --------------------------*- C++ -*-===//

#ifndef TCUC_STRATEGY_PASSES_H
#define TCUC_STRATEGY_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::tcu {
#define GEN_PASS_DECL
#include "tcuc/Strategy/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcuc/Strategy/Passes.h.inc"
} // namespace mlir::tcu

#endif // TCUC_STRATEGY_PASSES_H
