//===- Passes.h - tcuc conversion passes ------------------------*- C++ -*-===//

#ifndef TCUC_CONVERSION_PASSES_H
#define TCUC_CONVERSION_PASSES_H

#include "tcuc/Dialect/TCU/TCUDialect.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;
namespace arith {
class ArithDialect;
}
namespace cf {
class ControlFlowDialect;
}
namespace gpu {
class GPUDialect;
}
namespace LLVM {
class LLVMDialect;
}
namespace NVVM {
class NVVMDialect;
}
namespace memref {
class MemRefDialect;
}
namespace scf {
class SCFDialect;
}
namespace vector {
class VectorDialect;
}
} // namespace mlir

namespace mlir::tcu {
#define GEN_PASS_DECL
#include "tcuc/Conversion/Passes.h.inc"

/// Patterns that rewrite tcu collectives into the mma form.
void populateTCUToMMAPatterns(RewritePatternSet &patterns);
/// Patterns that rewrite the mma form into CPU-executable vector code.
void populateTCUMMAToLoopsPatterns(RewritePatternSet &patterns);

/// The launch plan tcu-outline-kernels leaves on each gpu.module:
/// threads per block, kernels in launch order, device scratch buffers as
/// [element type, element count as an RPN expression over n] pairs, and
/// (when every kernel's is an expression of n) each kernel's count of work
/// items, one per warp, which sizes its grid (docs/kernel-file.md).
constexpr llvm::StringLiteral kPlanBlockAttr = "tcuc.block";
constexpr llvm::StringLiteral kPlanKernelsAttr = "tcuc.kernels";
constexpr llvm::StringLiteral kPlanScratchAttr = "tcuc.scratch";
constexpr llvm::StringLiteral kPlanItemsAttr = "tcuc.items";
/// Present when the kernels after the first may be launched as programmatic
/// dependents of the one before (they wait for it themselves).
constexpr llvm::StringLiteral kPlanDependentLaunchAttr =
    "tcuc.dependent_launch";

/// On an scf.parallel of the mma form whose items are blocks: how many of
/// its blocks an SM should hold at once, the occupancy its variant was
/// measured at. tcu-outline-kernels gives the kernel `.minnctapersm`
/// (nvvm.minctasm), so ptxas keeps a thread's registers within
/// 65536 / (blocks x threads a block). An i64 in [1, 32], verified by the
/// tcu dialect.
constexpr llvm::StringLiteral kMinBlocksPerSMAttr =
    TCUDialect::getMinBlocksPerSMAttrName();

/// On an scf.parallel of the mma form: the registers a thread of its
/// kernel may use (a decayed walk's `max_registers`); tcu-outline-kernels
/// gives the kernel `.maxnreg` (nvvm.maxnreg). An i64 in [24, 255],
/// verified by the tcu dialect.
constexpr llvm::StringLiteral kMaxRegistersAttr =
    TCUDialect::getMaxRegistersAttrName();

/// On an scf.parallel of the mma form (a unit attribute): its tile loads
/// and stores may be lowered in runs (convert-tcu-mma-to-gpu: consecutive
/// tiles of a warp share one whole-run test, one address and one L2
/// policy). Set by the variants where that measured faster;
/// tcu-outline-kernels carries it to the kernel. Verified by the tcu
/// dialect (a unit attribute of scf.parallel or gpu.func).
constexpr llvm::StringLiteral kTileRunsAttr = TCUDialect::getTileRunsAttrName();

/// Patterns that rewrite the mma form inside GPU kernels into per-lane
/// fragments and mma.sync (tiles converted by `types`), after
/// tcu-transpose-mma-operands. Here every product with a 0/1 matrix checks
/// its own data for NaN/Inf; the convert-tcu-mma-to-gpu pass also shares
/// one check between the products of a tile (a cache that lives for one
/// conversion), and lowers the tile runs of kernels with kTileRunsAttr;
/// these patterns lower each tile access alone.
void populateTCUMMAToGPUPatterns(TypeConverter &types,
                                 RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "tcuc/Conversion/Passes.h.inc"
} // namespace mlir::tcu

#endif // TCUC_CONVERSION_PASSES_H
