//===- Passes.td - tcuc front-door transforms --------------*- tablegen -*-===//

#ifndef TCUC_TRANSFORMS_PASSES_TD
#define TCUC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TCURaiseLinalg : Pass<"tcu-raise-linalg"> {
  let summary = "Rewrite innermost-dimension sum reductions written in linalg "
                "to tcu collectives";
  let description = [{
    Finds `linalg.reduce` and the equivalent `linalg.generic` that sum the
    innermost dimension of one input, on tensors or memrefs of any rank
    (the leading dimensions are segments, the innermost one, which must be
    static, is the segment size), and rewrites each to a tcu collective on
    the flattened operands: `tcu.reduce` (tensors; one-shot-bufferize
    turns it into `tcu.segmented_reduce`) or `tcu.segmented_reduce`
    (memrefs with the identity layout).

    Matched bodies (the accumulations tcu computes: f32 or i32, rounded once
    at the store):
    - f16 or bf16 input: `arith.extf` to f32, then `arith.addf` with an f32
      accumulator;
    - f32 input: `arith.addf` with an f32 accumulator;
    - i8 input: `arith.extsi` to i32, then `arith.addi` with an i32
      accumulator.
    The operands of the add may come in either order.

    linalg adds into the init: when the init is a `linalg.fill` of zero
    (tensors: its producer; memrefs: the op right before), tcu writes the
    result directly; otherwise the tcu result is added to the init with
    `linalg.add`.

    Everything else is left as it is: other combiners or types (f16
    accumulation, say), reductions over other dimensions or several,
    several inputs, a dynamic innermost size, memrefs with other layouts.
    With `explain`, each such linalg reduction gets a remark saying why it
    was not raised, and each raised one a remark saying what it became.
    Scans have no upstream front door (linalg has no scan; `vector.scan`
    works on register values, not buffers): write `tcu.scan` or
    `tcu.segmented_scan` directly.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect", "::mlir::tensor::TensorDialect",
    "::mlir::tcu::TCUDialect"
  ];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark for every linalg reduction: raised, or why not">
  ];
}

def TCUShareCollectives : Pass<"tcu-share-collectives", "ModuleOp"> {
  let summary = "Lower identical collectives once: each becomes a call to one "
                "private function";
  let description = [{
    Every `tcu.segmented_reduce` / `tcu.segmented_scan` that occurs more
    than once in the module with the same attributes and operand types is
    replaced by a `func.call` of one private function
    (`@__tcu_collective_N(%input, %output)`) that holds the collective, so
    the lowering that follows (and LLVM after it) compiles it once, not once
    per occurrence: a module of 5,000 identical collectives then costs what
    one does. A collective that occurs once stays where it is. The CPU
    pipeline (`tcu-to-cpu`) runs it after `tcu-select-strategy`; the GPU
    pipeline does not (each function becomes its own kernels there).
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // TCUC_TRANSFORMS_PASSES_TD
