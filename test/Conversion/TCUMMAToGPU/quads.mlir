// RUN: tcuc-opt %s --tcu-outline-kernels --tcu-prefetch-chunks --tcu-transpose-mma-operands --convert-tcu-mma-to-gpu --canonicalize | FileCheck %s

// Tiles in the quads element order (#tcu.order<quads>): a lane's four
// elements of a row are consecutive in memory, so a whole tile moves as
// two 8-byte accesses a lane (rows g and g + 8: 128 elements = 256 bytes
// apart), a run of two tiles as one PTX block. The left-hand L·A needs A
// transposed: a quads load is moved with movmatrix (4 a tile), not loaded
// again in the other layout. The stores write f16 in the same order.
// CHECK-LABEL: gpu.func @quads_k0
// CHECK: nvvm.inline_ptx "{ .reg .b64 g, pol; cvta.to.global.u64 g, $8; createpolicy.fractional.L2::evict_first.b64 pol, 1.0; ld.global.L2::cache_hint.v2.b32 {$0, $1}, [g], pol; ld.global.L2::cache_hint.v2.b32 {$2, $3}, [g+256], pol; ld.global.L2::cache_hint.v2.b32 {$4, $5}, [g+512], pol; ld.global.L2::cache_hint.v2.b32 {$6, $7}, [g+768], pol; }"
// CHECK-NOT: ld.global
// CHECK-COUNT-4: movmatrix.sync.aligned.m8n8.trans.b16
// CHECK-NOT: movmatrix
// CHECK: nvvm.inline_ptx "{ .reg .b64 g; cvta.to.global.u64 g, $0; st.global.cs.v2.b32 [g], {$1, $2}; st.global.cs.v2.b32 [g+256], {$3, $4}; st.global.cs.v2.b32 [g+512], {$5, $6}; st.global.cs.v2.b32 [g+768], {$7, $8}; }"
func.func @quads(%in: memref<?xf16>, %out: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %in, %c0 : memref<?xf16>
  %zero = arith.constant dense<0.0> : vector<16x16xf32>
  scf.parallel (%w) = (%c0) to (%c64) step (%c1) {
    %base = arith.muli %w, %c512 : index
    %a = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n order <quads> cache <evict_first> : memref<?xf16> -> vector<16x16xf16>
    %next = arith.addi %base, %c256 : index
    %b = tcu.load_tile <rows> %in[%next] stride %c16 line %c16 limit %n order <quads> cache <evict_first> : memref<?xf16> -> vector<16x16xf16>
    %l = tcu.matrix <L> : vector<16x16xf16>
    %u = tcu.matrix <UQuads> : vector<16x16xf16>
    %p = tcu.mma %l, %a, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    %r = tcu.mma %a, %u, %p : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    %s = tcu.mma %b, %u, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    tcu.store_tile %r, %out[%base] stride %c16 line %c16 limit %n order <quads> cache <streaming> : vector<16x16xf32> -> memref<?xf16>
    tcu.store_tile %s, %out[%next] stride %c16 line %c16 limit %n order <quads> cache <streaming> : vector<16x16xf32> -> memref<?xf16>
    scf.reduce
  } {tcu.tile_runs}
  return
}
