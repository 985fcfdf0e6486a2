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
/// Adds the tcu dialect and the upstream dialects tcu kernels are compiled
/// with (to PTX or for the CPU), with their lowering interfaces.
void registerTCUCKernelDialects(DialectRegistry &registry);

/// The kernel dialects, plus what a pipeline from upstream IR needs around
/// tcu: linalg (tcu-raise-linalg), tensor and bufferization, and the
/// one-shot-bufferize models of tcu, arith, func, linalg and tensor.
void registerTCUCDialects(DialectRegistry &registry);

/// Registers tcuc's passes and the upstream passes its pipelines use, so
/// they can be named on a command line (tcuc-opt, or the embedder's tool).
void registerTCUCPasses();
} // namespace mlir::tcu

#endif // TCUC_INITALL_H
