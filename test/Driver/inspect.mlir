// The driver describes each collective after parsing and verifying.
// RUN: tcuc inspect %s | FileCheck %s
// RUN: not tcuc inspect %S/Inputs/invalid-op.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tcuc inspect %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// Input errors exit 2 (docs/index.md, Tools), not 1 (a --check mismatch).
// RUN: tcuc inspect %S/Inputs/invalid-op.mlir 2>/dev/null; test $? -eq 2
// RUN: tcuc inspect %t.does-not-exist.mlir 2>/dev/null; test $? -eq 2
// Tensor IR parses (tensor dialect registered) and its collectives count.
// RUN: tcuc inspect %S/Inputs/tensor-collectives.mlir | FileCheck %s --check-prefix=TENSOR
// RUN: not tcuc 2>&1 | FileCheck %s --check-prefix=NOSUB
// RUN: tcuc --help | FileCheck %s --check-prefix=HELP

// CHECK: parsed and verified
// CHECK: ran pipeline: canonicalize, cse
// CHECK: tcu.segmented_reduce at
// CHECK-NEXT: reduce of 1000 x f16 in segments of 16, accumulate f32, store f32
// CHECK-NEXT: segments: 63 (62 full, last holds 8); output elements: 63
// CHECK-NEXT: traffic: reads 2000 B, writes 252 B
// CHECK: tcu.segmented_scan at
// CHECK-NEXT: exclusive scan of n (dynamic) x i8 in segments of 48, accumulate i32, store i32
// CHECK: 2 tcu collective(s) found

// BAD: error: 'tcu.segmented_reduce' op segment_size must be >= 1, got 0
// BAD: did not parse or verify
// MISSING: tcuc inspect: cannot open input file
// NOSUB: no subcommand given
// HELP: inspect FILE
// HELP: Exit codes: 0 ok, 1 --check mismatch, 2 usage or input error, 3

// TENSOR: tcu.reduce at
// TENSOR-NEXT: reduce of 1000 x f16 in segments of 16, accumulate f32, store f32
// TENSOR-NEXT: segments: 63 (62 full, last holds 8); output elements: 63
// TENSOR: tcu.scan at
// TENSOR-NEXT: exclusive scan of 1000 x f16 in segments of 256, accumulate f32, store f32
// TENSOR: 2 tcu collective(s) found (1 more before the pipeline, removed as unused)

func.func @a(%in: memref<1000xf16>, %out: memref<63xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<1000xf16> -> memref<63xf32>
  return
}
func.func @b(%in: memref<?xi8>, %out: memref<?xi32>) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 48 : memref<?xi8> -> memref<?xi32>
  return
}
