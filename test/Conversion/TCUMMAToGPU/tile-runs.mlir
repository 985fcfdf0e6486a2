// RUN: tcuc-opt %s --tcu-outline-kernels --tcu-prefetch-chunks --tcu-transpose-mma-operands --convert-tcu-mma-to-gpu --canonicalize | FileCheck %s

// Runs of tile accesses (TileRuns in TCUMMAToGPU.cpp), in kernels whose
// items carry tcu.tile_runs (the lagged scan's; the reduce walks', seg256n and
// the grid's chunks).

// A warp's run of two tile loads 256 elements apart (the lagged scan's
// reduced run): one test of the whole run (both tiles' bounds and
// alignment, one scf.if for the 16 slots) and one PTX block with one
// policy and one address for both tiles' 16-byte loads.
// CHECK-LABEL: gpu.func @run_k0
// CHECK: scf.if %{{.*}} -> (f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16, f16)
// CHECK: nvvm.inline_ptx "{ .reg .b64 g, pol; cvta.to.global.u64 g, $8; createpolicy.fractional.L2::evict_last.b64 pol, 1.0; ld.global.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [g], pol; ld.global.L2::cache_hint.v4.b32 {$4, $5, $6, $7}, [g+512], pol; }"
// CHECK-NOT: nvvm.inline_ptx "{ .reg .b64 g, pol;
// CHECK: nvvm.mma.sync
func.func @run(%in: memref<?xf16>, %out: memref<?xf32>) {
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
    %a = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
    %next = arith.addi %base, %c256 : index
    %b = tcu.load_tile <rows> %in[%next] stride %c16 line %c16 limit %n order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
    %ones = tcu.matrix <Ones> : vector<16x16xf16>
    %p = tcu.mma %a, %ones, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    %q = tcu.mma %b, %ones, %p : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    tcu.store_tile %q, %out[%base] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
    scf.reduce
  } {tcu.tile_runs}
  return
}

// Bases as `base + t * 256` and `base + (t + 1) * 256`: the difference is
// the constant 256 through the product by a constant, so the two loads
// form one run, as above.
// CHECK-LABEL: gpu.func @scaled_run_k0
// CHECK: nvvm.inline_ptx "{ .reg .b64 g, pol; cvta.to.global.u64 g, $8; createpolicy.fractional.L2::evict_last.b64 pol, 1.0; ld.global.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [g], pol; ld.global.L2::cache_hint.v4.b32 {$4, $5, $6, $7}, [g+512], pol; }"
// CHECK-NOT: nvvm.inline_ptx "{ .reg .b64 g, pol;
func.func @scaled_run(%in: memref<?xf16>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %in, %c0 : memref<?xf16>
  %base = memref.dim %out, %c0 : memref<?xf32>
  %zero = arith.constant dense<0.0> : vector<16x16xf32>
  scf.parallel (%w) = (%c0) to (%c64) step (%c1) {
    %t = arith.muli %w, %c2 : index
    %ta = arith.muli %t, %c256 : index
    %at = arith.addi %base, %ta : index
    %a = tcu.load_tile <rows> %in[%at] stride %c16 line %c16 limit %n order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
    %u = arith.addi %t, %c1 : index
    %ub = arith.muli %u, %c256 : index
    %bt = arith.addi %base, %ub : index
    %b = tcu.load_tile <rows> %in[%bt] stride %c16 line %c16 limit %n order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
    %ones = tcu.matrix <Ones> : vector<16x16xf16>
    %p = tcu.mma %a, %ones, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    %q = tcu.mma %b, %ones, %p : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    tcu.store_tile %q, %out[%at] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
    scf.reduce
  } {tcu.tile_runs}
  return
}

// Not a run: `t * 256` and `t * 512` differ by t * 256, not a constant.
// CHECK-LABEL: gpu.func @scaled_not_run_k0
// CHECK-COUNT-2: ld.global.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [g], pol; }"
// CHECK-NOT: [g+512]
func.func @scaled_not_run(%in: memref<?xf16>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %in, %c0 : memref<?xf16>
  %zero = arith.constant dense<0.0> : vector<16x16xf32>
  scf.parallel (%w) = (%c0) to (%c64) step (%c1) {
    %at = arith.muli %w, %c256 : index
    %a = tcu.load_tile <rows> %in[%at] stride %c16 line %c16 limit %n order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
    %bt = arith.muli %w, %c512 : index
    %b = tcu.load_tile <rows> %in[%bt] stride %c16 line %c16 limit %n order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
    %ones = tcu.matrix <Ones> : vector<16x16xf16>
    %p = tcu.mma %a, %ones, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    %q = tcu.mma %b, %ones, %p : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    tcu.store_tile %q, %out[%at] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
    scf.reduce
  } {tcu.tile_runs}
  return
}

// Not a run: a store between the loads (the second cannot move above it),
// and bases whose difference is not a constant: each load tests and loads
// its own tile.
// CHECK-LABEL: gpu.func @not_runs_k0
// CHECK-COUNT-3: ld.global.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [g], pol; }"
// CHECK-NOT: [g+512]
func.func @not_runs(%in: memref<?xf16>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %in, %c0 : memref<?xf16>
  %k = memref.dim %out, %c0 : memref<?xf32>
  %zero = arith.constant dense<0.0> : vector<16x16xf32>
  scf.parallel (%w) = (%c0) to (%c64) step (%c1) {
    %base = arith.muli %w, %c512 : index
    %a = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
    tcu.store_tile %zero, %out[%base] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
    %next = arith.addi %base, %c256 : index
    %b = tcu.load_tile <rows> %in[%next] stride %c16 line %c16 limit %n order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
    %other = arith.addi %base, %k : index
    %c = tcu.load_tile <rows> %in[%other] stride %c16 line %c16 limit %n order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
    %ones = tcu.matrix <Ones> : vector<16x16xf16>
    %p = tcu.mma %a, %ones, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    %q = tcu.mma %b, %ones, %p : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    %r = tcu.mma %c, %ones, %q : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    tcu.store_tile %r, %out[%base] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
    scf.reduce
  } {tcu.tile_runs}
  return
}

// A run of two tile stores 256 elements apart (the lagged scan's output):
// lowered at the second (the first moves down past the pure arithmetic
// and the warp barrier after it), one whole-run test, one PTX block with
// both tiles' stores from one address; the masked path stores 16 slots.
// CHECK-LABEL: gpu.func @store_run_k0
// CHECK-COUNT-1: st.global.cs.v2.b32 [g], {$1, $2}; st.global.cs.v2.b32 [g+512], {$3, $4}; st.global.cs.v2.b32 [g+32], {$5, $6}; st.global.cs.v2.b32 [g+544], {$7, $8}; st.global.cs.v2.b32 [g+1024], {$9, $10}; st.global.cs.v2.b32 [g+1536], {$11, $12}; st.global.cs.v2.b32 [g+1056], {$13, $14}; st.global.cs.v2.b32 [g+1568], {$15, $16}; }"
// CHECK-NOT: st.global.cs
// CHECK-COUNT-16: memref.store
// CHECK-NOT: memref.store
// CHECK: gpu.return
func.func @store_run(%in: memref<?xf16>, %out: memref<?xf32>) {
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
    %a = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n : memref<?xf16> -> vector<16x16xf16>
    %ones = tcu.matrix <Ones> : vector<16x16xf16>
    %p = tcu.mma %a, %ones, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    tcu.store_tile %p, %out[%base] stride %c16 line %c16 limit %n cache <streaming> : vector<16x16xf32> -> memref<?xf32>
    %q = arith.addf %p, %p : vector<16x16xf32>
    %next = arith.addi %base, %c256 : index
    tcu.store_tile %q, %out[%next] stride %c16 line %c16 limit %n cache <streaming> : vector<16x16xf32> -> memref<?xf32>
    scf.reduce
  } {tcu.tile_runs}
  return
}

// Without tcu.tile_runs (the block scans': slower with runs) each tile
// tests and stores alone.
// CHECK-LABEL: gpu.func @no_runs_k0
// CHECK-COUNT-2: st.global.cs.v2.b32 [g], {$1, $2}; st.global.cs.v2.b32 [g+512], {$3, $4}; st.global.cs.v2.b32 [g+32], {$5, $6}; st.global.cs.v2.b32 [g+544], {$7, $8}; }"
// CHECK-NOT: [g+1024]
// CHECK: gpu.return
func.func @no_runs(%in: memref<?xf16>, %out: memref<?xf32>) {
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
    %a = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n : memref<?xf16> -> vector<16x16xf16>
    %ones = tcu.matrix <Ones> : vector<16x16xf16>
    %p = tcu.mma %a, %ones, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    tcu.store_tile %p, %out[%base] stride %c16 line %c16 limit %n cache <streaming> : vector<16x16xf32> -> memref<?xf32>
    %q = arith.addf %p, %p : vector<16x16xf32>
    %next = arith.addi %base, %c256 : index
    tcu.store_tile %q, %out[%next] stride %c16 line %c16 limit %n cache <streaming> : vector<16x16xf32> -> memref<?xf32>
    scf.reduce
  }
  return
}

// Loads with the same lower bound (`from`: an aligned segment walk's) form
// a run: its first tile is the lowest, so one test against `from` holds
// for both, and one PTX block loads them. A load with another `from` does
// not join it.
// CHECK-LABEL: gpu.func @from_run_k0
// CHECK: ld.global.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [g], pol; ld.global.L2::cache_hint.v4.b32 {$4, $5, $6, $7}, [g+512], pol; }"
// CHECK: ld.global.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [g], pol; }"
// CHECK-NOT: [g+512]
func.func @from_run(%in: memref<?xf16>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %c768 = arith.constant 768 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %n = memref.dim %in, %c0 : memref<?xf16>
  %zero = arith.constant dense<0.0> : vector<16x16xf32>
  scf.parallel (%w) = (%c0) to (%c64) step (%c1) {
    %base = arith.muli %w, %c768 : index
    %from = arith.addi %base, %c100 : index
    %a = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n from %from order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
    %next = arith.addi %base, %c256 : index
    %b = tcu.load_tile <rows> %in[%next] stride %c16 line %c16 limit %n from %from order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
    %last = arith.addi %base, %c512 : index
    %c = tcu.load_tile <rows> %in[%last] stride %c16 line %c16 limit %n from %base order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
    %ones = tcu.matrix <Ones> : vector<16x16xf16>
    %p = tcu.mma %a, %ones, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    %q = tcu.mma %b, %ones, %p : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    %r = tcu.mma %c, %ones, %q : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    tcu.store_tile %r, %out[%base] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
    scf.reduce
  } {tcu.tile_runs}
  return
}
