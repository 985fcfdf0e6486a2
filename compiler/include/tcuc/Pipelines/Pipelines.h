//===- Pipelines.h - tcuc pass pipelines ------------------------*- C++ -*-===//

#ifndef TCUC_PIPELINES_PIPELINES_H
#define TCUC_PIPELINES_PIPELINES_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::tcu {
/// tcu collectives -> mma form -> CPU vector code -> LLVM dialect, ready for
/// the ExecutionEngine or mlir-runner. Functions keep a C interface
/// (`_mlir_ciface_<name>`) when they carry `llvm.emit_c_interface`.
void buildTCUToCPUPipeline(OpPassManager &pm);

/// Registers the pipelines above with the pass registry (`--tcu-to-cpu`).
void registerTCUCPipelines();
} // namespace mlir::tcu

#endif // TCUC_PIPELINES_PIPELINES_H
