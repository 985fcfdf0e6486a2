// RUN: tcuc-opt %s --convert-tcu-mma-to-loops --canonicalize | FileCheck %s

// tcu.mma on the CPU: data times data is one 16x16x16 vector.contract over
// operands widened exactly (f16 -> f32, i8 -> i32), accumulating in the
// accumulator's type, as the Tensor Core does.

// CHECK-LABEL: func.func @data_f16
// CHECK-DAG: %[[A:.*]] = arith.extf %arg0 : vector<16x16xf16> to vector<16x16xf32>
// CHECK-DAG: %[[B:.*]] = arith.extf %arg1 : vector<16x16xf16> to vector<16x16xf32>
// CHECK: vector.contract {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} %[[A]], %[[B]], %arg2 : vector<16x16xf32>, vector<16x16xf32> into vector<16x16xf32>
// CHECK-NOT: tcu.mma
func.func @data_f16(%a: vector<16x16xf16>, %b: vector<16x16xf16>, %acc: vector<16x16xf32>) -> vector<16x16xf32> {
  %r = tcu.mma %a, %b, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
  return %r : vector<16x16xf32>
}

// CHECK-LABEL: func.func @data_i8
// CHECK-DAG: arith.extsi %arg0 : vector<16x16xi8> to vector<16x16xi32>
// CHECK-DAG: arith.extsi %arg1 : vector<16x16xi8> to vector<16x16xi32>
// CHECK: vector.contract {{.*}} into vector<16x16xi32>
func.func @data_i8(%a: vector<16x16xi8>, %b: vector<16x16xi8>, %acc: vector<16x16xi32>) -> vector<16x16xi32> {
  %r = tcu.mma %a, %b, %acc : vector<16x16xi8>, vector<16x16xi8> into vector<16x16xi32>
  return %r : vector<16x16xi32>
}

// A float product with a named 0/1 matrix adds up the rows it selects
// instead (from -0, which canonicalization folds away), so NaN and Inf
// reach only the outputs whose sums include them. P · A: row 0 is the sum
// of A's rows in order plus acc's row 0.
// CHECK-LABEL: func.func @p_times_data
// CHECK-NOT: vector.contract
// CHECK: %[[WIDE:.*]] = arith.extf %arg0
// CHECK: %[[R0:.*]] = vector.extract %[[WIDE]][0]
// CHECK: %[[R1:.*]] = vector.extract %[[WIDE]][1]
// CHECK: arith.addf %[[R0]], %[[R1]]
// CHECK: vector.extract %[[WIDE]][15]
// CHECK: %[[ACC0:.*]] = vector.extract %arg1[0]
// CHECK: arith.addf %{{.*}}, %[[ACC0]]
// CHECK-NOT: vector.contract
// CHECK: return
func.func @p_times_data(%a: vector<16x16xf16>, %acc: vector<16x16xf32>) -> vector<16x16xf32> {
  %p = tcu.matrix <P> : vector<16x16xf16>
  %r = tcu.mma %p, %a, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
  return %r : vector<16x16xf32>
}

// A · U = (U^T · A^T)^T: the same row sums on the transposes.
// CHECK-LABEL: func.func @data_times_u
// CHECK-NOT: vector.contract
// CHECK: vector.transpose
// CHECK: vector.transpose %{{.*}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK-NOT: vector.contract
// CHECK: return
func.func @data_times_u(%a: vector<16x16xbf16>, %acc: vector<16x16xf32>) -> vector<16x16xf32> {
  %u = tcu.matrix <U> : vector<16x16xbf16>
  %r = tcu.mma %a, %u, %acc : vector<16x16xbf16>, vector<16x16xbf16> into vector<16x16xf32>
  return %r : vector<16x16xf32>
}

// Integer products with a named matrix are row sums too (exact modulo
// 2^32, as the contraction; adds instead of 4096 multiplies): L · A's row 2
// is acc's row 2 + A's rows 0 and 1.
// CHECK-LABEL: func.func @i8_times_l
// CHECK-NOT: vector.contract
// CHECK: %[[WIDE:.*]] = arith.extsi %arg0
// CHECK: vector.extract %arg1[2]
// CHECK-NEXT: vector.extract %[[WIDE]][0]
// CHECK-NEXT: arith.addi
// CHECK-NEXT: vector.extract %[[WIDE]][1]
// CHECK-NEXT: arith.addi
// CHECK-NOT: vector.contract
// CHECK: return
func.func @i8_times_l(%a: vector<16x16xi8>, %acc: vector<16x16xi32>) -> vector<16x16xi32> {
  %l = tcu.matrix <L> : vector<16x16xi8>
  %r = tcu.mma %l, %a, %acc : vector<16x16xi8>, vector<16x16xi8> into vector<16x16xi32>
  return %r : vector<16x16xi32>
}

// A named matrix that feeds no float product is a constant of 0s and 1s:
// L has ones strictly below the diagonal.
// CHECK-LABEL: func.func @matrix_constant
// CHECK: arith.constant dense<"0x0000000000000000000000000000000001000000
// CHECK-SAME: : vector<16x16xi8>
func.func @matrix_constant() -> vector<16x16xi8> {
  %l = tcu.matrix <L> : vector<16x16xi8>
  return %l : vector<16x16xi8>
}

// tcu.split: f32 into three bf16 parts, i32 into five i8 digits.
// CHECK-LABEL: func.func @split
// CHECK: arith.truncf %arg0 : vector<16x16xf32> to vector<16x16xbf16>
// CHECK-NOT: tcu.split
// CHECK: return
func.func @split(%x: vector<16x16xf32>) -> (vector<16x16xbf16>, vector<16x16xbf16>, vector<16x16xbf16>) {
  %h, %m, %l = tcu.split %x : vector<16x16xf32> -> vector<16x16xbf16>, vector<16x16xbf16>, vector<16x16xbf16>
  return %h, %m, %l : vector<16x16xbf16>, vector<16x16xbf16>, vector<16x16xbf16>
}
