//===- KernelOutlining.h - mma-form loops to GPU kernels --------*- C++ -*-===//
//
// tcu-outline-kernels, the first step of the GPU backend. Every top-level
// `scf.parallel` of a host function becomes one `gpu.func` kernel in which
// each warp takes work items in a grid-stride loop; the host function itself
// becomes a launch plan (kernel order, scratch buffers) on the gpu.module,
// which `tcuc compile` writes into the kernel file header
// (docs/kernel-file.md) for the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUMMATOGPU_KERNELOUTLINING_H
#define TCUC_CONVERSION_TCUMMATOGPU_KERNELOUTLINING_H

#include "tcuc/Conversion/Passes.h"
#include "tcuc/Dialect/TCU/TCUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tcu::gpu_lowering {

/// Marks an scf.for of a kernel (a unit attribute) directly around a phase
/// of one iteration per warp: every iteration ends at a block barrier that
/// all warps of the block reach (the block scan's chunk loop). Set by
/// tcu-outline-kernels; tcu-prefetch-chunks pipelines these loops' tile
/// loads and removes the mark.
constexpr llvm::StringLiteral kChunkLoopAttr =
    TCUDialect::getChunkLoopAttrName();

/// Replaces `func` (arguments: rank-1 memrefs, the first one the input whose
/// length is `n`) by a gpu.module `@<func>_kernels` of kernels launched with
/// `blockSize` threads. Work items are warps; per-item scratch allocations
/// become slices of workgroup memory, top-level ones device scratch buffers.
/// The chunk loops of block items get kChunkLoopAttr. With
/// `dependentLaunch` (sm_90) a plan of several kernels is marked for
/// programmatic dependent launch and each kernel starts with the
/// griddepcontrol steps that make it safe.
LogicalResult outlineKernels(func::FuncOp func, int64_t blockSize,
                             bool dependentLaunch, bool hostLaunch = false);

/// A top-level work-item loop of a host function and the kernel it became.
struct KernelLaunch {
  scf::ParallelOp loop;
  StringRef kernel;
  bool blockItems; // a work item is a block, not a warp
};

/// With host-launch (HostLaunch.cpp): replaces each launch's loop in `func`
/// by a gpu.launch_func of its kernel in `module` with `kernelArgs` (the
/// function's arguments, then its top-level scratch, which becomes
/// gpu.alloc), `blockSize` threads a block.
LogicalResult launchFromHost(func::FuncOp func, gpu::GPUModuleOp module,
                             ArrayRef<KernelLaunch> launches,
                             ArrayRef<Value> kernelArgs, int64_t blockSize);

/// Software-pipelines `loop` by one iteration for its tile loads: each
/// tcu.load_tile at the loop's top level whose operands are computed (pure
/// ops) from the induction variable and values defined above the loop, and
/// whose buffer no op of the loop writes, is issued one iteration early,
/// its tile carried in iter_args (the first iteration's loads move before
/// the loop). The loads of an iteration the loop does not run get limit 0
/// and read nothing. Buffers are compared as values: two arguments that
/// alias at run time are not seen (the block scan stays correct in place,
/// since a chunk's stores never touch the next chunk's elements). On a GPU
/// this keeps a block's next chunk in flight while it waits at its
/// barrier.
void prefetchChunkLoads(scf::ForOp loop);

} // namespace mlir::tcu::gpu_lowering

#endif // TCUC_CONVERSION_TCUMMATOGPU_KERNELOUTLINING_H
