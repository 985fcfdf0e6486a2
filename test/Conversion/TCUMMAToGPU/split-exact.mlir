// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse --tcu-outline-kernels --tcu-prefetch-chunks --tcu-transpose-mma-operands --convert-tcu-mma-to-gpu | FileCheck %s

// A product of an f32 tile is split into three bf16 parts (each the rest
// with its low 16 bits cleared: the top binade splits finitely) and three
// mma.sync. Where the collective's input is f32 (tcu.split check_tiny), a
// tile holding a value below 2^-110, whose low bits no part keeps (f32
// subnormals among them), is summed unsplit on the exact path: the split
// or-reduces the low 16 bits of the rest each lo was cut from (nonzero
// exactly where bits are lost), the chain's first product votes on it and
// branches, and the later products pass its result on. Also for the Ones
// products of a reduction, which need no NaN check (issue 44).

// CHECK-LABEL: gpu.module @reduce_f32_kernels
// CHECK: memref.global "private" @tcuc_exact_tiles_f32 : memref<{{[0-9]+}}xf32, 3>
// CHECK: gpu.func
// CHECK: %[[MASK:.*]] = arith.constant dense<-65536> : vector<8xi32>
// CHECK: arith.andi %{{.*}}, %[[MASK]] : vector<8xi32>
// CHECK: %[[REST:.*]] = vector.reduction <or>, %{{.*}} : vector<8xi32> into i32
// CHECK: arith.andi %[[REST]], %c65535_i32
// CHECK: %[[BAD:.*]] = nvvm.vote.sync  any %{{.*}}, %{{.*}} -> i1
// CHECK: scf.if %[[BAD]] -> (vector<8xf32>) {
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<{{[0-9]+}}xf32, 3>
// CHECK: } else {
// CHECK: nvvm.mma.sync
// CHECK: scf.if %[[BAD]] -> (vector<8xf32>) {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK: nvvm.mma.sync
// CHECK: scf.if %[[BAD]] -> (vector<8xf32>) {
func.func @reduce_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 16 {variant = #tcu.variant<seg16>} : memref<?xf32> -> memref<?xf32>
  return
}

// f16 input: its partial sums always split exactly (multiples of 2^-24):
// no check, no f32 exact path (the block reduction's partials here).
// CHECK-LABEL: gpu.module @reduce_f16_block_kernels
// CHECK-NOT: tcuc_exact_tiles_f32
// CHECK-NOT: nvvm.vote.sync
// CHECK: gpu.return
func.func @reduce_f16_block(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 100000 {variant = #tcu.variant<block>} : memref<?xf16> -> memref<?xf32>
  return
}
