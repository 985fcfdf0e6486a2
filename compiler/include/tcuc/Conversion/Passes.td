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

//===----------------------------------------------------------------------===//
// The GPU backend, in the order tcu-to-ptx runs it: tcu-outline-kernels,
// tcu-prefetch-chunks, tcu-transpose-mma-operands, convert-tcu-mma-to-gpu.
//===----------------------------------------------------------------------===//

def TCUOutlineKernels : Pass<"tcu-outline-kernels", "ModuleOp"> {
  let summary = "Outline the mma form's work items into GPU kernels with a launch plan";
  let description = [{
    Every function in the mma form becomes a `gpu.module @<name>_kernels`:
    each top-level `scf.parallel` is one `gpu.func` kernel in which a warp
    runs one work item at a time (grid-stride). A work item whose body has
    phases (nested `scf.parallel` loops over the warps of a block) or a
    block op (`tcu.block_prefix`, `tcu.block_lookback`,
    `tcu.block_lagged_lookback`) runs on a whole block: its phases become
    the warps' share of the loop followed by a block barrier. Per-item
    scratch lives in workgroup memory, top-level scratch becomes device
    buffers the runtime allocates, and every store is followed by a warp
    barrier (the warp's lanes share scratch and outputs). The host function
    is removed; the launch plan is kept on the gpu.module as `tcuc.block`,
    `tcuc.kernels`, `tcuc.scratch` and `tcuc.items` (docs/kernel-file.md).
    With `host-launch` the host function stays instead and launches the
    kernels itself: each work-item loop becomes a `gpu.launch_func` (one
    warp an item, at most 2^20 blocks), top-level scratch `gpu.alloc`.

    A loop's `tcu.min_blocks_per_sm` becomes its kernel's `nvvm.minctasm`,
    `tcu.max_registers` its `nvvm.maxnreg`, and `tcu.tile_runs` moves to
    the kernel; the loops directly around a
    phase of one iteration per warp (the block scans' chunk loops) are
    marked `tcu.chunk_loop` for tcu-prefetch-chunks. The kernels' bodies
    stay in the mma form.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"128",
           "Threads per block (a multiple of 32); each warp is one worker">,
    Option<"dependentLaunch", "dependent-launch", "bool", /*default=*/"false",
           "sm_90 and later: a plan of several kernels starts each kernel "
           "with griddepcontrol.launch_dependents and griddepcontrol.wait "
           "and is marked (tcuc.dependent_launch) so the runtime launches "
           "the kernels after the first as programmatic dependents, "
           "without the gap between launches">,
    Option<"hostLaunch", "host-launch", "bool", /*default=*/"false",
           "Keep the host function: each work-item loop becomes a "
           "gpu.launch_func of its kernel and top-level scratch gpu.alloc, "
           "for upstream's host lowering (gpu-to-llvm) instead of the tcuc "
           "runtime; its buffers must be device memory">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def TCUPrefetchChunks : Pass<"tcu-prefetch-chunks"> {
  let summary = "Load the next chunk's tiles one iteration early in the block scans' chunk loops";
  let description = [{
    Software-pipelines each `scf.for` marked `tcu.chunk_loop` (by
    tcu-outline-kernels: a loop whose iterations each end at a block
    barrier) by one iteration: every `tcu.load_tile` at the loop's top
    level whose operands come from the induction variable through pure
    index arithmetic, and whose buffer no op of the loop writes, is issued
    one iteration early and its tile carried in `iter_args` (the first
    iteration's loads move before the loop). A block so keeps its next
    chunk in flight while it waits at the barrier. The loads of an
    iteration the loop does not run get limit 0 and read nothing. The mark
    is removed. See docs/gpu.md, "Chunk prefetch".
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TCUTransposeMMAOperands : Pass<"tcu-transpose-mma-operands"> {
  let summary = "Re-express the right operands of tcu.mma as their transposes";
  let description = [{
    The `mma.sync` B fragment of X is the A-layout fragment of X^T, so the
    GPU lowering takes every product's right operand as its transpose. For
    each `tcu.mma` whose right operand is data (not a `tcu.matrix`), the
    transpose is built next to the data's definition: a `vector.transpose`
    of a 16-bit tile whose elements keep their places, or of an f16, bf16 or
    i8 tile a loop carries (`movmatrix` in registers); the same
    `tcu.load_tile` in the other layout for other loads; the `tcu.split`
    of the transposed load for a split load. The product then reads it and
    is marked `rhs_transposed`; originals nothing else uses are erased. A
    right operand that is none of these (an f32 tile computed in the
    kernel) is an error.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def ConvertTCUMMAToGPU : Pass<"convert-tcu-mma-to-gpu", "ModuleOp"> {
  let summary = "Lower the mma form inside GPU kernels to lane fragments and mma.sync";
  let description = [{
    The fragment conversion, after tcu-outline-kernels and
    tcu-transpose-mma-operands: inside a kernel a 16x16 tile is 8 elements
    per lane in the `mma.sync.m16n8k16` fragment layout (docs/gpu.md).
    `tcu.mma` becomes two `nvvm.mma.sync` (f16 or bf16 operands, f32
    accumulation; i8 operands run exactly as f16 products added to the i32
    accumulator), constant matrices are built in registers, tile loads and
    stores become per-lane masked accesses that never touch a masked-off
    address (consecutive tiles of a kernel with `tcu.tile_runs` share one
    whole-run test, one address and one L2 policy; the attribute is then
    removed), and the look-back ops
    become warp and block code. The products of a tile share one NaN/Inf
    check. Lower further with the upstream NVVM pipeline (see
    `tcu-to-ptx`).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // TCUC_CONVERSION_PASSES_TD
