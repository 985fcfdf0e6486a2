// RUN: tcuc-opt %s --tcu-share-collectives | FileCheck %s
// Identical collectives (op, attributes, operand types) become calls of one
// private function each; a collective that occurs once stays.

// CHECK-LABEL: func.func @f
// CHECK-NEXT: call @[[R:__tcu_collective[_0-9]*]](%arg0, %arg1) : (memref<?xf16>, memref<?xf32>) -> ()
// CHECK-NEXT: call @[[S:__tcu_collective[_0-9]*]](%arg0, %arg2)
// CHECK-NEXT: call @[[R]](%arg0, %arg1)
// Different attributes: its own.
// CHECK-NEXT: tcu.segmented_reduce <add> %arg0 into %arg1 segment_size 32
// CHECK-NEXT: call @[[S]](%arg0, %arg2)
// CHECK-NEXT: call @[[R]](%arg0, %arg1)
// CHECK-NEXT: return
func.func @f(%in: memref<?xf16>, %out: memref<?xf32>, %sc: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %in into %sc segment_size 1000 {variant = #tcu.variant<seg256n>} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<?xf16> -> memref<?xf32>
  tcu.segmented_reduce <add> %in into %out segment_size 32 : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %in into %sc segment_size 1000 {variant = #tcu.variant<seg256n>} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<?xf16> -> memref<?xf32>
  return
}

// Other operands of the same types share the function too.
// CHECK-LABEL: func.func @g
// CHECK-NEXT: call @[[R]](%arg1, %arg0)
func.func @g(%a: memref<?xf32>, %b: memref<?xf16>) {
  tcu.segmented_reduce <add> %b into %a segment_size 16 : memref<?xf16> -> memref<?xf32>
  return
}

// A symbol of that name already taken gets another.
func.func private @__tcu_collective()

// CHECK: func.func private @[[R]](%arg0: memref<?xf16>, %arg1: memref<?xf32>)
// CHECK-NEXT: tcu.segmented_reduce <add> %arg0 into %arg1 segment_size 16
// CHECK-NEXT: return
// CHECK: func.func private @[[S]](%arg0: memref<?xf16>, %arg1: memref<?xf32>)
// CHECK-NEXT: tcu.segmented_scan <add> inclusive %arg0 into %arg1 segment_size 1000 {variant = #tcu.variant<seg256n>}
