//===- TCUBase.td - tcu dialect definition and attributes --*- tablegen -*-===//
//
// The tcu dialect: segmented reductions and scans that tcuc lowers to Tensor
// Core matrix products.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_DIALECT_TCU_TCUBASE_TD
#define TCUC_DIALECT_TCU_TCUBASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def TCU_Dialect : Dialect {
  let name = "tcu";
  let cppNamespace = "::mlir::tcu";
  let summary = "Segmented reduction and scan collectives for Tensor Cores";
  let description = [{
    The `tcu` dialect holds the collective operations that tcuc compiles to
    Tensor Core kernels: `tcu.segmented_reduce` and `tcu.segmented_scan`.
    Both read a 1-D input buffer cut into consecutive segments of
    `segment_size` elements (the last segment may be shorter) and write one
    result per segment (reduce) or one result per element (scan).

    Element types: `f16`, `bf16` and `f32` inputs accumulate in `f32`; `i8`
    inputs are read as signed two's-complement bytes and accumulate exactly
    in `i32`. Lengths may be static or dynamic.

    Later passes lower these operations to the "mma form", in which the
    Tensor Core matrix products (P·A, A·U, L·A) of Dakkak et al. are explicit.
  }];
  let useDefaultAttributePrinterParser = 1;
}

def TCU_CombinerKind : I32EnumAttr<"CombinerKind",
    "how a segment's elements are combined", [
      I32EnumAttrCase<"Add", 0, "add">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcu";
  let description = [{
    The binary operation a collective folds over each segment. Only `add`
    exists today; the enum is where `min` and `max` will be added.
  }];
}

def TCU_CombinerKindAttr : EnumAttr<TCU_Dialect, TCU_CombinerKind, "kind"> {
  let summary = "combiner of a segmented collective";
  let description = [{
    Selects the combining operation of a `tcu` collective, written
    `#tcu.kind<add>` (or `<add>` inside an operation).
  }];
  let assemblyFormat = "`<` $value `>`";
}

#endif // TCUC_DIALECT_TCU_TCUBASE_TD
