// RUN: tcuc-opt %s --split-input-file --tcu-transpose-mma-operands | FileCheck %s

// A 16-bit load whose elements keep their places is transposed in
// registers; the product reads the transpose and says so.
// CHECK-LABEL: func.func @fixed_order
// CHECK: %[[A:.*]] = tcu.load_tile <rows>
// CHECK-NEXT: %[[T:.*]] = vector.transpose %[[A]], [1, 0] : vector<16x16xf16> to vector<16x16xf16>
// CHECK: tcu.mma %{{.*}}, %[[T]], %{{.*}} rhs_transposed :
func.func @fixed_order(%in: memref<?xf16>, %b: index, %n: index, %acc: vector<16x16xf32>, %l: vector<16x16xf16>) -> vector<16x16xf32> {
  %c16 = arith.constant 16 : index
  %a = tcu.load_tile <rows> %in[%b] stride %c16 line %c16 limit %n : memref<?xf16> -> vector<16x16xf16>
  %r = tcu.mma %l, %a, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
  return %r : vector<16x16xf32>
}

// -----

// A load whose order is free is loaded again in the other layout; the
// original, used by nothing else, is erased. A constant matrix on the right
// is built transposed by the lowering: left as it is.
// CHECK-LABEL: func.func @line_order
// CHECK-NOT: tcu.load_tile <rows>
// CHECK: %[[T:.*]] = tcu.load_tile <cols> %{{.*}} order <line>
// CHECK: %[[R:.*]] = tcu.mma %{{.*}}, %[[T]], %{{.*}} rhs_transposed :
// CHECK: tcu.mma %{{.*}}, %{{.*}}, %[[R]] :
func.func @line_order(%in: memref<?xf16>, %b: index, %n: index, %acc: vector<16x16xf32>, %l: vector<16x16xf16>) -> vector<16x16xf32> {
  %c16 = arith.constant 16 : index
  %a = tcu.load_tile <rows> %in[%b] stride %c16 line %c16 limit %n order <line> : memref<?xf16> -> vector<16x16xf16>
  %r = tcu.mma %l, %a, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
  %u = tcu.matrix <U> : vector<16x16xf16>
  %s = tcu.mma %l, %u, %r : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
  return %s : vector<16x16xf32>
}

// -----

// A split load: the split of the load in the other layout (split is
// elementwise), each part the transpose of the original's.
// CHECK-LABEL: func.func @split_load
// CHECK: %[[T:.*]] = tcu.load_tile <cols> %{{.*}} : memref<?xf32> -> vector<16x16xf32>
// CHECK-NEXT: %[[P:.*]]:3 = tcu.split %[[T]]
// CHECK: tcu.mma %{{.*}}, %[[P]]#0, %{{.*}} rhs_transposed :
// CHECK: tcu.mma %{{.*}}, %[[P]]#1, %{{.*}} rhs_transposed :
func.func @split_load(%in: memref<?xf32>, %b: index, %n: index, %acc: vector<16x16xf32>, %l: vector<16x16xbf16>) -> vector<16x16xf32> {
  %c16 = arith.constant 16 : index
  %a = tcu.load_tile <rows> %in[%b] stride %c16 line %c16 limit %n : memref<?xf32> -> vector<16x16xf32>
  %p:3 = tcu.split %a : vector<16x16xf32> -> vector<16x16xbf16>, vector<16x16xbf16>, vector<16x16xbf16>
  %r = tcu.mma %l, %p#0, %acc : vector<16x16xbf16>, vector<16x16xbf16> into vector<16x16xf32>
  %s = tcu.mma %l, %p#1, %r : vector<16x16xbf16>, vector<16x16xbf16> into vector<16x16xf32>
  return %s : vector<16x16xf32>
}

// -----

// A tile a loop carries: transposed at the start of the loop's body.
// CHECK-LABEL: func.func @carried
// CHECK: scf.for %{{.*}} iter_args(%[[X:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK-NEXT: %[[T:.*]] = vector.transpose %[[X]], [1, 0] : vector<16x16xi8> to vector<16x16xi8>
// CHECK-NEXT: tcu.mma %{{.*}}, %[[T]], %{{.*}} rhs_transposed :
func.func @carried(%x0: vector<16x16xi8>, %l: vector<16x16xi8>, %acc: vector<16x16xi32>, %k: index) -> vector<16x16xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %k step %c1 iter_args(%x = %x0, %s = %acc) -> (vector<16x16xi8>, vector<16x16xi32>) {
    %p = tcu.mma %l, %x, %s : vector<16x16xi8>, vector<16x16xi8> into vector<16x16xi32>
    scf.yield %x, %p : vector<16x16xi8>, vector<16x16xi32>
  }
  return %r#1 : vector<16x16xi32>
}
