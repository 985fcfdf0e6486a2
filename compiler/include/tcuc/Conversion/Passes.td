//===- Passes.td - tcuc conversion passes ------------------*- tablegen -*-===//

#ifndef TCUC_CONVERSION_PASSES_TD
#define TCUC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTCUToMMA : Pass<"convert-tcu-to-mma", "ModuleOp"> {
  let summary = "Lower tcu collectives to the mma form (P·A, A·U, L·A tiles)";
  let description = [{
    Replaces every `tcu.segmented_reduce` and `tcu.segmented_scan` by the
    algorithm its `variant` names (or the default for its segment size):
    loops over segments and 16x16 tiles in which the Tensor Core work is
    explicit as `tcu.mma` on the named matrices `tcu.matrix <P|PT|U|Ustrict|L|Ones>`,
    tiles move through masked `tcu.load_tile` / `tcu.store_tile` /
    `tcu.store_row`, and f32/i32 intermediates fed back into a product go
    through `tcu.split`. Independent work items (segments, groups of 16
    segments, grid chunks) are `scf.parallel` iterations. See
    docs/algorithms.md for each variant.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
}

def ConvertTCUMMAToLoops : Pass<"convert-tcu-mma-to-loops", "ModuleOp"> {
  let summary = "Lower the mma form to CPU code (vector, scf, arith, memref)";
  let description = [{
    The CPU backend: executes the same mma-form algorithm on the CPU with
    Tensor Core numerics. `tcu.mma` becomes a 16x16x16 `vector.contract`
    over operands widened exactly to f32 (or i32), accumulating in f32 (i32);
    the operand rounding already happened where the IR shows it (loads of
    f16/bf16/i8 data, `tcu.split`). Tile loads and stores become 16 masked
    vector loads/stores each, so nothing outside the masked elements is
    touched; `tcu.row_sums` is a row reduction. The result lowers to LLVM
    with the upstream passes (see the `tcu-to-cpu` pipeline).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def ConvertTCUMMAToGPU : Pass<"convert-tcu-mma-to-gpu", "ModuleOp"> {
  let summary = "Lower the mma form to GPU kernels on mma.sync (the GPU backend)";
  let description = [{
    Every function in the mma form becomes a `gpu.module @<name>_kernels`:
    each top-level `scf.parallel` is one `gpu.func` kernel in which a warp
    runs one work item at a time (grid-stride), per-item scratch lives in
    workgroup memory and top-level scratch becomes device buffers the
    runtime allocates. The launch plan is kept on the gpu.module as
    `tcuc.block`, `tcuc.kernels` and `tcuc.scratch` (docs/kernel-file.md).

    Inside a kernel a 16x16 tile is 8 elements per lane in the
    `mma.sync.m16n8k16` fragment layout (docs/gpu.md): `tcu.mma` becomes two
    `nvvm.mma.sync` (f16 or bf16 operands, f32 accumulation; i8 operands run
    exactly as f16 products added to the i32 accumulator), constant matrices
    are built in registers, and tile loads and stores become per-lane masked
    accesses that never touch a masked-off address. The host function is
    removed. Lower further with the upstream NVVM pipeline (see `tcu-to-ptx`).
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"128",
           "Threads per block (a multiple of 32); each warp is one worker">,
    Option<"prefetchChunks", "prefetch-chunks", "bool", /*default=*/"true",
           "In the chunk loops of block work items, load the next chunk's "
           "tiles one iteration early (before the block barrier)">,
    Option<"dependentLaunch", "dependent-launch", "bool", /*default=*/"false",
           "sm_90 and later: a plan of several kernels starts each kernel "
           "with griddepcontrol.launch_dependents and griddepcontrol.wait "
           "and is marked (tcuc.dependent_launch) so the runtime launches "
           "the kernels after the first as programmatic dependents, "
           "without the gap between launches">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // TCUC_CONVERSION_PASSES_TD
