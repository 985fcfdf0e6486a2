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

// tcu.split: f32 into three bf16 parts, each the rest with its low 16 bits
// cleared (rounded toward zero, so f32's top binade splits finitely); a NaN
// keeps its value in hi.
// CHECK-LABEL: func.func @split(
// CHECK: %[[MASK:.*]] = arith.constant dense<-65536> : vector<16x16xi32>
// CHECK: %[[BITS:.*]] = arith.bitcast %arg0 : vector<16x16xf32> to vector<16x16xi32>
// CHECK: %[[HI:.*]] = arith.andi %[[BITS]], %[[MASK]]
// CHECK: %[[HIF:.*]] = arith.bitcast %[[HI]] : vector<16x16xi32> to vector<16x16xf32>
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %arg0, %arg0
// CHECK: %[[KEEP:.*]] = arith.select %[[NAN]], %arg0, %[[HIF]]
// CHECK: arith.truncf %[[KEEP]] : vector<16x16xf32> to vector<16x16xbf16>
// CHECK-COUNT-2: arith.andi %{{.*}}, %[[MASK]]
// CHECK-NOT: tcu.split
// CHECK: return

func.func @split(%x: vector<16x16xf32>) -> (vector<16x16xbf16>, vector<16x16xbf16>, vector<16x16xbf16>) {
  %h, %m, %l = tcu.split %x : vector<16x16xf32> -> vector<16x16xbf16>, vector<16x16xbf16>, vector<16x16xbf16>
  return %h, %m, %l : vector<16x16xbf16>, vector<16x16xbf16>, vector<16x16xbf16>
}

// A product of a split f32 tile is one product of the unsplit tile: the
// f32 sums of the selected elements (exact where the parts could not hold
// a value below 2^-110); the parts' products are gone.
// CHECK-LABEL: func.func @split_product(
// CHECK-NOT: vector.contract
// CHECK: %[[R0:.*]] = vector.extract %arg0[0] : vector<16xf32>
// CHECK: %[[R1:.*]] = vector.extract %arg0[1] : vector<16xf32>
// CHECK: arith.addf %[[R0]], %[[R1]]
// CHECK: vector.extract %arg0[15]
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @split_product(%x: vector<16x16xf32>, %acc: vector<16x16xf32>) -> vector<16x16xf32> {
  %h, %m, %l = tcu.split %x : vector<16x16xf32> -> vector<16x16xbf16>, vector<16x16xbf16>, vector<16x16xbf16>
  %k0 = tcu.matrix <Ones> : vector<16x16xbf16>
  %r0 = tcu.mma %k0, %l, %acc : vector<16x16xbf16>, vector<16x16xbf16> into vector<16x16xf32>
  %k1 = tcu.matrix <Ones> : vector<16x16xbf16>
  %r1 = tcu.mma %k1, %m, %r0 : vector<16x16xbf16>, vector<16x16xbf16> into vector<16x16xf32>
  %k2 = tcu.matrix <Ones> : vector<16x16xbf16>
  %r2 = tcu.mma %k2, %h, %r1 : vector<16x16xbf16>, vector<16x16xbf16> into vector<16x16xf32>
  return %r2 : vector<16x16xf32>
}

// -----

// A mask matrix on the left (1 where the i1 tile holds, else 0: the
// streaming scan's L_seg) sums the selected rows with selects and adds, as
// IEEE adds would, not as a contraction (0 · NaN would reach every output).
// CHECK-LABEL: func @mask_matrix
// CHECK-NOT: vector.contract
// CHECK: arith.select %{{.*}} : vector<16xi1>, vector<16xf32>
// CHECK: arith.addf %{{.*}} : vector<16xf32>
// CHECK-NOT: vector.contract
func.func @mask_matrix(%m: vector<16x16xi1>, %x: vector<16x16xf16>) -> vector<16x16xf32> {
  %one = arith.constant dense<1.0> : vector<16x16xf16>
  %zero = arith.constant dense<0.0> : vector<16x16xf16>
  %acc = arith.constant dense<0.0> : vector<16x16xf32>
  %k = arith.select %m, %one, %zero : vector<16x16xi1>, vector<16x16xf16>
  %r = tcu.mma %k, %x, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
  return %r : vector<16x16xf32>
}
