// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse --tcu-outline-kernels --tcu-prefetch-chunks --tcu-transpose-mma-operands --convert-tcu-mma-to-gpu | FileCheck %s

// A product of an f32 tile is split into three bf16 parts (each the rest
// with its low 16 bits cleared: the top binade splits finitely) and three
// mma.sync. A tile that holds a value below 2^-110 (whose bits below 2^-133
// no bf16 part keeps; f32 subnormals among them) takes the exact path on
// the unsplit f32 tile, from the chain's own accumulator: one unsigned
// compare of |x|'s bits - 1 a lane element, one vote, also for the Ones
// products of a reduction, which need no NaN check (issue 44).

// CHECK-LABEL: gpu.module @reduce_f32_kernels
// CHECK: memref.global "private" @tcuc_exact_tiles_f32 : memref<{{[0-9]+}}xf32, 3>
// CHECK: gpu.func
// CHECK: %[[MASK:.*]] = arith.constant dense<-65536> : vector<8xi32>
// CHECK-COUNT-3: arith.andi %{{.*}}, %[[MASK]] : vector<8xi32>
// CHECK: arith.cmpi ult, %{{.*}}, %c142606335_i32
// CHECK: %[[TINY:.*]] = nvvm.vote.sync  any %{{.*}}, %{{.*}} -> i1
// CHECK: scf.if %[[TINY]] -> (vector<8xf32>)
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<{{[0-9]+}}xf32, 3>
// CHECK: } else {
// CHECK: nvvm.mma.sync
func.func @reduce_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 16 {variant = #tcu.variant<seg16>} : memref<?xf32> -> memref<?xf32>
  return
}

// A scan's L·A of f32 data: the tiny check or'ed with the NaN/Inf check of
// hi.
// CHECK-LABEL: gpu.module @scan_f32_kernels
// CHECK: nvvm.vote.sync  any
// CHECK: nvvm.vote.sync  any
// CHECK: arith.ori
// CHECK: scf.if
func.func @scan_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 256 {variant = #tcu.variant<seg256>} : memref<?xf32> -> memref<?xf32>
  return
}
