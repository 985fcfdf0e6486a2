//===- InitAll.h - register tcuc dialects and passes ------------*- C++ -*-===//
//
// The one place that says which dialects and passes a tcuc tool (or a
// pipeline that embeds tcuc) needs.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_INITALL_H
#define TCUC_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tcu {
/// Adds the tcu dialect and the upstream dialects tcuc reads or produces.
void registerTCUCDialects(DialectRegistry &registry);

/// Registers tcuc's passes and the upstream passes its pipelines use, so
/// they can be named on a command line (tcuc-opt, or the embedder's tool).
void registerTCUCPasses();
} // namespace mlir::tcu

#endif // TCUC_INITALL_H
