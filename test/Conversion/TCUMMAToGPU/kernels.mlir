// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse --tcu-outline-kernels --tcu-prefetch-chunks --tcu-transpose-mma-operands --convert-tcu-mma-to-gpu | FileCheck %s

// Reduction16: one kernel, no scratch; a warp per group of 16 segments in a
// grid-stride loop; P·A as mma.sync on f16 with the data as B^T; per-lane
// masked loads; the row of sums stored by the lanes that hold row 0.
// CHECK-LABEL: gpu.module @seg16_kernels
// The work items (one warp each: groups of 16 segments) as an expression of
// n, from which the runtime sizes the grid.
// CHECK-SAME: tcuc.block = 128 : i64, tcuc.items = ["n 16 divu n 16 remu 0 ne add 16 divu n 16 divu n 16 remu 0 ne add 16 remu 0 ne add"], tcuc.kernels = [@seg16_k0], tcuc.scratch = []
// CHECK: gpu.func @seg16_k0(%[[IN:.*]]: memref<?xf16>, %[[OUT:.*]]: memref<?xf32>) kernel
// CHECK: gpu.thread_id x
// CHECK: gpu.block_id x
// CHECK: gpu.grid_dim x
// CHECK: scf.for
// CHECK: gpu.lane_id
// Whole tiles load 4 consecutive elements of a segment per vector (the load
// is order <line>), unmasked; the rest of the tiles mask each element.
// CHECK: memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: scf.if %{{.*}} -> (f16, f16, f16, f16, f16, f16, f16, f16)
// CHECK: vector.load %[[IN]][%{{.*}}] {alignment = 8 : i64} : memref<?xf16>, vector<4xf16>
// CHECK: } else {
// CHECK: scf.if
// CHECK-NEXT: memref.load %[[IN]]
// CHECK: nvvm.mma.sync
// CHECK-SAME: shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME: (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: nvvm.mma.sync
// The accumulator is zero: the mma's sums are the product's, nothing added.
// CHECK-NOT: arith.addf {{.*}} : vector<8xf32>
// CHECK: memref.store {{.*}}, %[[OUT]]
// CHECK: nvvm.bar.warp.sync
// CHECK: gpu.return
func.func @seg16(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<?xf16> -> memref<?xf32>
  return
}

// Block level: the per-segment partials become this warp's slice of a
// workgroup buffer (4 warps x 256 f32); f32 data is split into bf16 parts,
// whose register pairs are the mma's i32 operands as bitcasts (no shifts).
// CHECK-LABEL: gpu.module @block_kernels
// CHECK: gpu.func @block_k0(%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>) workgroup(%[[WG:.*]] : memref<1024xf32, #gpu.address_space<workgroup>>) kernel
// CHECK: memref.subview %[[WG]][%{{.*}}] [256] [1]
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK: %[[BPAIR:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1] : vector<8xbf16>, vector<8xbf16>
// CHECK-NEXT: %[[BWORDS:.*]] = vector.bitcast %[[BPAIR]] : vector<2xbf16> to vector<1xi32>
// CHECK-NEXT: vector.extract %[[BWORDS]][0] : i32 from vector<1xi32>
// CHECK-NOT: arith.shli
// CHECK: nvvm.mma.sync
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<bf16>
// CHECK-NOT: memref.alloc
// CHECK: gpu.return
func.func @block(%in: memref<?xf32>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 5000 {variant = #tcu.variant<block>} : memref<?xf32> -> memref<?xf32>
  return
}

// Block-level scan: work items are blocks (one per segment; the runtime
// counts items in warps, hence "4 mul"), the block is the item's 4 warps
// (known_block_size, so ptxas fits a block's registers), the totals are one
// workgroup buffer for the block, and the phase (one iteration per warp,
// as tcu.block_prefix needs) is its body run by every warp, with
// tcu.block_prefix's barrier inside and one after it. The chunk loop is
// pipelined: the first chunk's tiles load before it, and each iteration
// loads the next chunk's tiles before it reaches the barrier, carrying them
// (vector<8xf16> fragments) to the next iteration, where the carried
// tile's first use is its first register pair (for L·A's movmatrix).
// CHECK-LABEL: gpu.module @block_scan_kernels
// CHECK-SAME: tcuc.block = 128 : i64, tcuc.items = ["n 5000 divu n 5000 remu 0 ne add 4 mul"]
// CHECK: gpu.func @block_scan_k0({{.*}}) workgroup(%[[WG:.*]] : memref<8xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[GRID:.*]] = gpu.grid_dim x
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32
// CHECK: scf.for %{{.*}} = %[[BID]] to %{{.*}} step %[[GRID]]
// CHECK-NOT: scf.for
// CHECK: vector.load %{{.*}} : memref<?xf16>, vector<2xf16>
// CHECK: %{{.*}}:2 = scf.for %{{.*}} = %c0 to %c5 step %c1 iter_args(%{{.*}} = %{{.*}}, %[[TILE:.*]] = %{{.*}}) -> (f32, vector<8xf16>)
// CHECK: vector.shuffle %[[TILE]], %[[TILE]] [0, 1] : vector<8xf16>, vector<8xf16>
// CHECK: vector.load %{{.*}} : memref<?xf16>, vector<2xf16>
// CHECK: nvvm.mma.sync
// CHECK: memref.store %{{.*}}, %[[WG]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[WG]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[WG]]
// CHECK: scf.yield %{{.*}}, %{{.*}} : f32, vector<8xf16>
// CHECK-NOT: scf.parallel
// CHECK: gpu.return
func.func @block_scan(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 5000 {variant = #tcu.variant<block>} : memref<?xf16> -> memref<?xf32>
  return
}

// Grid level: three kernels (chunk totals, their scan, the chunk scans) and
// two device scratch buffers whose length the runtime evaluates from n:
// ceil(n / 5000) * 2 chunks. i8 products run as exact f16 products added to
// the i32 accumulator.
// CHECK-LABEL: gpu.module @grid_kernels
// CHECK-SAME: tcuc.items = ["n 5000 divu n 5000 remu 0 ne add 2 mul", "n 5000 divu n 5000 remu 0 ne add 16 divu n 5000 divu n 5000 remu 0 ne add 16 remu 0 ne add", "n 5000 divu n 5000 remu 0 ne add 2 mul"]
// CHECK-SAME: tcuc.kernels = [@grid_k0, @grid_k1, @grid_k2]
// CHECK-SAME: tcuc.scratch = {{\[}}[i32, "n 5000 divu n 5000 remu 0 ne add 2 mul"], [i32, "n 5000 divu n 5000 remu 0 ne add 2 mul"]]
// CHECK: gpu.func @grid_k0(%{{.*}}: memref<?xi8>, %{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi32>) kernel
// CHECK: arith.sitofp {{.*}} : vector<8xi8> to vector<8xf16>
// CHECK: nvvm.mma.sync
// CHECK: arith.fptosi {{.*}} : vector<8xf32> to vector<8xi32>
// CHECK: gpu.func @grid_k1
// CHECK: gpu.func @grid_k2
// CHECK-NOT: func.func
func.func @grid(%in: memref<?xi8>, %out: memref<?xi32>) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 5000 {variant = #tcu.variant<grid>} : memref<?xi8> -> memref<?xi32>
  return
}

// An i8 tile transposed in registers travels as f16 through movmatrix; its
// narrowing back to i8 (marked exact) and the mma's widening to f16 again
// are both dropped: the mma takes the moved f16 fragment (the round trip
// cost about 30 instructions a tile). Each moved register is a bitcast
// pair of slots (no shifts, which ptxas kept as two PRMT a pair), and the
// moved pairs 0, 2, 1, 3 concatenate into the transpose.
// CHECK-LABEL: gpu.module @i8_transpose_kernels
// CHECK: %[[WIDE:.*]] = arith.sitofp %{{.*}} : vector<8xi8> to vector<8xf16>
// CHECK: %[[PAIR:.*]] = vector.shuffle %[[WIDE]], %[[WIDE]] [0, 1] : vector<8xf16>, vector<8xf16>
// CHECK-NEXT: %[[WORDS:.*]] = vector.bitcast %[[PAIR]] : vector<2xf16> to vector<1xi32>
// CHECK-NEXT: %[[WORD:.*]] = vector.extract %[[WORDS]][0] : i32 from vector<1xi32>
// CHECK-NEXT: %[[Q0:.*]] = nvvm.inline_ptx "movmatrix.sync.aligned.m8n8.trans.b16 $0, $1;" ro(%[[WORD]] : i32) -> i32
// CHECK-NOT: arith.shli
// CHECK: %[[Q0W:.*]] = vector.from_elements %[[Q0]] : vector<1xi32>
// CHECK: %[[Q0P:.*]] = vector.bitcast %[[Q0W]] : vector<1xi32> to vector<2xf16>
// CHECK: vector.shuffle %[[Q0P]], %{{.*}} [0, 1, 2, 3] : vector<2xf16>, vector<2xf16>
// CHECK: %[[MOVED:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf16>, vector<4xf16>
// CHECK-NOT: arith.fptosi %[[MOVED]]
// CHECK: vector.extract %[[MOVED]]
// CHECK: nvvm.mma.sync
// CHECK: gpu.return
func.func @i8_transpose(%in: memref<?xi8>, %out: memref<?xi32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 4096 {variant = #tcu.variant<block>, tiles_per_warp = 1, warps_per_block = 4} : memref<?xi8> -> memref<?xi32>
  return
}

// Work-efficient 256N: the loop's tiles are summed whole (order <tile>),
// so each lane of a whole tile loads 8 consecutive elements as one 16-byte
// vector; a ragged tile masks each element.
// CHECK-LABEL: gpu.module @seg256n_kernels
// CHECK: gpu.func @seg256n_k0(%[[IN:.*]]: memref<?xf16>, %{{.*}}: memref<?xf32>) kernel
// CHECK: scf.if %{{.*}} -> (f16, f16, f16, f16, f16, f16, f16, f16)
// CHECK: vector.load %[[IN]][%{{.*}}] {alignment = 16 : i64} : memref<?xf16>, vector<8xf16>
// CHECK-NOT: vector.load
// CHECK: } else {
// CHECK: scf.if
// CHECK-NEXT: memref.load %[[IN]]
// CHECK: nvvm.mma.sync
func.func @seg256n(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 4096 {variant = #tcu.variant<seg256n>} : memref<?xf16> -> memref<?xf32>
  return
}

// Packed reduction of 128-element segments (8 lines of 16 as tile
// columns): Ones·A without a NaN check (no vote), row_sums over blocks of 8
// columns: a lane's pair, then the lanes t ^ 1 and t ^ 2 (no shuffle by 4:
// that would cross blocks); column c of row 0 stored at c / 8 when 8
// divides it.
// CHECK-LABEL: gpu.module @packed_columns_kernels
// CHECK-NOT: nvvm.vote.sync
// CHECK: nvvm.mma.sync
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.vote.sync
// CHECK: %[[PAIR:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: %[[X1:.*]], %{{.*}} = gpu.shuffle  xor %[[PAIR]], %c1_i32
// CHECK: %[[S1:.*]] = arith.addf %[[PAIR]], %[[X1]] : f32
// CHECK: %[[X2:.*]], %{{.*}} = gpu.shuffle  xor %[[S1]], %c2_i32
// CHECK: arith.addf %[[S1]], %[[X2]] : f32
// CHECK-NOT: gpu.shuffle  xor %{{.*}}, %c4_i32
// CHECK: %[[REM:.*]] = arith.remui %[[COL:.*]], %c8
// CHECK: arith.cmpi eq, %[[REM]], %c0
// CHECK: arith.divui %[[COL]], %c8
// CHECK: memref.store
// CHECK: gpu.return
func.func @packed_columns(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 128 {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  return
}

// Scan256: R = A·U + (L·A)·Ones. L·A's right operand is A transposed: each
// register pair of A goes to movmatrix as one i32, a bitcast of the pair.
// Both products meet a 0/1 matrix with
// zeros, so a NaN or Inf in the tile takes the exact path; one check serves
// both (the vote covers the tile in either layout): the lane's four f16
// pairs times 0 chained through packed fmas, NaN exactly when an element is
// not finite, then one vote.sync, whose result both products branch on.
// CHECK-LABEL: gpu.module @scan256_kernels
// CHECK: %[[T0:.*]] = vector.shuffle %[[A:.*]], %[[A]] [0, 1] : vector<8xf16>, vector<8xf16>
// CHECK-NEXT: vector.bitcast %[[T0]] : vector<2xf16> to vector<1xi32>
// CHECK: %[[P0:.*]] = vector.shuffle %[[A]], %[[A]] [0, 1] : vector<8xf16>, vector<8xf16>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[P0]], %[[ZERO:.*]] : vector<2xf16>
// CHECK-NEXT: %[[P1:.*]] = vector.shuffle %[[A]], %[[A]] [2, 3]
// CHECK-NEXT: %[[F1:.*]] = llvm.intr.fma(%[[P1]], %[[ZERO]], %[[M]]) : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> vector<2xf16>
// CHECK: llvm.intr.fma
// CHECK: %[[F3:.*]] = llvm.intr.fma
// CHECK-NEXT: %[[LO:.*]] = vector.extract %[[F3]][0]
// CHECK-NEXT: %[[HI:.*]] = vector.extract %[[F3]][1]
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[LO]], %[[HI]] : f16
// CHECK-NEXT: %[[NAN:.*]] = arith.cmpf uno, %[[SUM]], %[[SUM]] : f16
// CHECK: %[[BAD:.*]] = nvvm.vote.sync  any %{{.*}}, %[[NAN]] -> i1
// CHECK-NEXT: scf.if %[[BAD]] -> (vector<8xf32>) {
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.vote.sync
// CHECK: scf.if %[[BAD]] -> (vector<8xf32>) {
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.vote.sync
// CHECK: gpu.return
func.func @scan256(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 256 {variant = #tcu.variant<seg256>} : memref<?xf16> -> memref<?xf32>
  return
}

// Look-back scan: a first kernel zeroes the state words (scratch of i64
// sized by n); the block kernel's lane 0 of warp 0 draws the ticket with a
// relaxed atomic and shares it (shuffles, then the block's buffer and a
// barrier); warp 0 also prefetches a later chunk's input into L2, a line a
// lane. In the chunk's phase tcu.block_lookback stores the warp's total,
// meets the block at a barrier, and warp 0 loads its Fenwick children with
// relaxed 64-bit loads (a lane per bit of its position), voting until none
// is 0, adds them over the lanes with xor shuffles and publishes its word,
// then reads and adds its prefix's words the same way; it stores the
// chunk's prefix after the 4 totals; a second barrier, then every warp
// reads it.
// CHECK-LABEL: gpu.module @lookback_kernels
// CHECK-SAME: tcuc.block = 128 : i64
// CHECK-SAME: tcuc.kernels = [@lookback_k0, @lookback_k1], tcuc.scratch = {{\[\[}}i64,
// CHECK: gpu.func @lookback_k0
// CHECK: vector.store %{{.*}} : memref<?xi64>, vector<16xi64>
// CHECK: gpu.func @lookback_k1({{.*}}) workgroup(%[[TOTALS:.*]] : memref<5xf32, #gpu.address_space<workgroup>>, %[[TICKET:.*]] : memref<1xi64, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: nvvm.inline_ptx "{ .reg .b64 g; cvta.to.global.u64 g, $1; atom.relaxed.gpu.global.add.u64 $0, [g], $2; }"
// CHECK: memref.store %{{.*}}, %[[TICKET]][%c0]
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32_i64
// CHECK: nvvm.inline_ptx "prefetch.L2 [$0];"
// CHECK: gpu.barrier
// CHECK: memref.load %[[TICKET]][%c0]
// CHECK: nvvm.mma.sync
// CHECK: memref.store %{{.*}}, %[[TOTALS]]
// CHECK: gpu.barrier
// CHECK: scf.while
// CHECK: nvvm.inline_ptx "ld.relaxed.gpu.b64 $0, [$1];"
// CHECK: nvvm.vote.sync  any
// CHECK: gpu.shuffle  xor
// CHECK: nvvm.inline_ptx "st.relaxed.gpu.b64 [$0], $1;"
// CHECK: scf.while
// CHECK: gpu.shuffle  xor
// CHECK: memref.store %{{.*}}, %[[TOTALS]][%[[SLOT:.*]]] :
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load %[[TOTALS]][%[[SLOT]]]
// CHECK: gpu.return
func.func @lookback(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lookback>, warps_per_block = 4, schedule = #tcu.chain_schedule<prefetch_bytes = 2097152>} : memref<?xf16> -> memref<?xf32>
  return
}

// Lagged scan: the block's chunk loads carry their L2 hints as inline PTX
// (the reduced chunk's 16-byte loads evict_last, then an evict_last L2
// prefetch of the input 2 MB further on, a line a lane, the scanned chunk's
// evict_first, its output streamed with .cs; a whole tile's accesses in one
// PTX block at constant offsets from one address); tcu.block_lagged_lookback
// stores each warp's two totals and meets the block at a barrier; the last
// warp, if the block has a chunk to complete that ends a group of 16, reads
// up to 128 aggregates (4 a lane) and the older children's words and stores
// the chunk's Fenwick word,
// while warp 0, if it has a chunk to publish, sums the reduce totals and
// stores them as that chunk's aggregate word (no wait), and if it has a
// chunk to scan, reads that chunk's prefix words (relaxed loads, voting
// until none is 0) and stores their sum after the 8 totals; a second
// barrier, then every warp reads it and stores its tiles. The kernel asks
// for 8 blocks an SM (.minnctapersm: 1 tile a warp). With f32 output warp 0
// shares the ticket and 10 of its items' fields (11 words).
// CHECK-LABEL: gpu.module @lagged_kernels
// CHECK-SAME: tcuc.block = 128 : i64
// CHECK-SAME: tcuc.kernels = [@lagged_k0, @lagged_k1], tcuc.scratch = {{\[\[}}i64,
// CHECK: gpu.func @lagged_k1({{.*}}) workgroup(%[[TOTALS:.*]] : memref<9xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<11xi64, #gpu.address_space<workgroup>>)
// CHECK-SAME: nvvm.minctasm = 8 : i32
// CHECK: nvvm.inline_ptx "{ .reg .b64 g; cvta.to.global.u64 g, $1; atom.relaxed.gpu.global.add.u64 $0, [g], $2; }"
// CHECK: nvvm.inline_ptx "{ .reg .b64 g, pol; cvta.to.global.u64 g, $4; createpolicy.fractional.L2::evict_last.b64 pol, 1.0; ld.global.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [g], pol; }"
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32_i64
// CHECK: nvvm.inline_ptx "{ .reg .b64 g; cvta.to.global.u64 g, $0; prefetch.global.L2::evict_last [g]; }"
// CHECK: nvvm.inline_ptx "{ .reg .b64 g, pol; cvta.to.global.u64 g, $4; createpolicy.fractional.L2::evict_first.b64 pol, 1.0; ld.global.L2::cache_hint.b32 $0, [g], pol; ld.global.L2::cache_hint.b32 $1, [g+256], pol; ld.global.L2::cache_hint.b32 $2, [g+16], pol; ld.global.L2::cache_hint.b32 $3, [g+272], pol; }"
// CHECK: memref.store %{{.*}}, %[[TOTALS]]
// The prefix slot after the 8 totals.
// CHECK: arith.addi %c0, %c8_{{[0-9]+}} : index
// CHECK: memref.store %{{.*}}, %[[TOTALS]]
// CHECK: gpu.barrier
// The last warp completes a word only where its item ends a group of 16
// (p + 1 = 0 mod 16): 4 aggregates a lane and a child, in one loop (a
// second one only for chains of 2^39 items or more).
// CHECK: arith.andi %{{.*}}, %c15_i64 : i64
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %{{.*}}, %c3_{{[0-9]+}} : index
// CHECK-NEXT: %[[ENDS:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT: %[[CMP:.*]] = arith.andi %[[ENDS]], %[[LAST]] : i1
// CHECK-NEXT: scf.if %[[CMP]] {
// CHECK: scf.while ({{.*}}) : (i64, i64, i64, i64, i64)
// CHECK-COUNT-5: nvvm.inline_ptx "ld.relaxed.gpu.b64 $0, [$1];"
// CHECK: scf.if %{{.*}} -> (f32)
// CHECK: scf.while ({{.*}}) : (i64) -> i64
// Two words an item of word number w: its Fenwick word, completed later,
// at 2w ...
// CHECK: %[[FW:.*]] = arith.muli %{{.*}}, %c2_i64{{[_0-9]*}} : i64
// CHECK-NEXT: arith.index_cast %[[FW]] : i64 to index
// CHECK-NOT: ld.relaxed
// CHECK: nvvm.inline_ptx "st.relaxed.gpu.b64 [$0], $1;"
// ... and its aggregate at 2w - 1.
// CHECK: scf.if
// CHECK: %[[AW:.*]] = arith.muli %{{.*}}, %c2_i64{{[_0-9]*}} : i64
// CHECK-NEXT: arith.constant -1 : i64
// CHECK-NEXT: arith.addi %[[AW]], %c-1_i64{{[_0-9]*}} : i64
// CHECK: nvvm.inline_ptx "st.relaxed.gpu.b64 [$0], $1;"
// CHECK: scf.while
// CHECK: nvvm.inline_ptx "ld.relaxed.gpu.b64 $0, [$1];"
// CHECK: memref.store %{{.*}}, %[[TOTALS]][%[[SLOT:.*]]] :
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load %[[TOTALS]][%[[SLOT]]]
// CHECK-NOT: ld.relaxed
// CHECK: nvvm.inline_ptx "{ .reg .b64 g; cvta.to.global.u64 g, $0; st.global.cs.v2.b32 [g], {$1, $2}; st.global.cs.v2.b32 [g+512], {$3, $4}; st.global.cs.v2.b32 [g+32], {$5, $6}; st.global.cs.v2.b32 [g+544], {$7, $8}; }"
// CHECK: gpu.return
func.func @lagged(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, tiles_per_warp = 1, warps_per_block = 4, schedule = #tcu.chain_schedule<prefetch_bytes = 2097152, lag_bytes = 6291456, blocks_per_sm = 8, share_items = true>} : memref<?xf16> -> memref<?xf32>
  return
}

// The wide lagged shape (f16 -> f16, 4 tiles of 8 warps, 3 blocks an SM):
// right after its reduced run's sum warp 0 reads the scanned chunk's prefix
// words once (one relaxed load a lane, no loop); before the exchange barrier
// it leaves their sum (xor butterflies) and whether all were published (a
// vote) beside the totals, which alternate between two halves of 2 x 8 + 2
// slots by ticket parity. After the barrier, a branch on that flag (the same
// in every warp): where set, warp 0 publishes the reduced chunk's aggregate
// and every warp takes the sum with no second barrier; else warp 0 looks
// back and the block meets again.
// CHECK-LABEL: gpu.func @lagged_early_k1
// CHECK-SAME: workgroup(%[[T:.*]] : memref<36xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<22xi64, #gpu.address_space<workgroup>>)
// CHECK-SAME: nvvm.minctasm = 3 : i32
// The block's first ticket, then (in warp 1, after its loads) the next.
// CHECK: atom.relaxed.gpu.global.add.u64
// CHECK: atom.relaxed.gpu.global.add.u64
// CHECK: %[[GIVEN:.*]] = scf.if %{{.*}} -> (i64) {
// CHECK-NEXT: scf.if %{{.*}} -> (i64) {
// CHECK-NOT: scf.while
// CHECK: nvvm.inline_ptx "ld.relaxed.gpu.b64 $0, [$1];"
// CHECK-NOT: gpu.barrier
// CHECK: arith.shrui %[[GIVEN]], %c32_i64
// CHECK: %[[ANY:.*]] = nvvm.vote.sync  any
// CHECK-NEXT: %[[READY:.*]] = arith.xori %[[ANY]], %true : i1
// CHECK: gpu.shuffle  xor
// CHECK: memref.store %{{.*}}, %[[T]][%[[SUM:.*]]] :
// CHECK: arith.select %[[READY]]
// CHECK-NEXT: memref.store %{{.*}}, %[[T]][%[[FLAG:.*]]] :
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: %[[F:.*]] = memref.load %[[T]][%[[FLAG]]]
// CHECK: %[[SET:.*]] = arith.cmpf one, %[[F]]
// CHECK-NEXT: scf.if %[[SET]] -> (f32) {
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.inline_ptx "st.relaxed.gpu.b64 [$0], $1;"
// CHECK-NOT: gpu.barrier
// CHECK: memref.load %[[T]][%[[SUM]]]
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK: scf.while
// CHECK: gpu.barrier
// CHECK: gpu.return
func.func @lagged_early(%in: memref<?xf16>, %out: memref<?xf16>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1048576 {variant = #tcu.variant<lagged>, tiles_per_warp = 4, warps_per_block = 8, schedule = #tcu.chain_schedule<lag_bytes = 9437184, blocks_per_sm = 3, quads = true, sum_first = true, read_early = true, share_items = true, walk_tickets = true>} : memref<?xf16> -> memref<?xf16>
  return
}

// Lagged scan with 8-bit input (and f16 -> f16): its blocks walk tickets.
// At most 8192 warps, 2048 blocks of 4 (the item count ends in `2048
// mins`); two slots of a ticket and its 10 fields (22 words)
// in workgroup memory. Warp 0 draws a block's first ticket into slot
// 0 before the loop and the block meets at a barrier; each iteration of the
// scf.while then reads its ticket, and after the reduced chunk's loads and
// L2 prefetch warp 1 draws the next ticket into slot (j + 1) % 2 before it
// loads the scanned chunk; the iteration ends at the block's barrier.
// CHECK-LABEL: gpu.module @lagged_walking_kernels
// CHECK-SAME: 2048 mins 4 mul"]
// CHECK: gpu.func @lagged_walking_k1({{.*}}) workgroup(%{{.*}} : memref<9xi32, #gpu.address_space<workgroup>>, %[[SLOTS:.*]] : memref<22xi64, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32
// CHECK: scf.for %{{.*}} = %block_id_x to %{{.*}} step %grid_dim_x
// CHECK: nvvm.inline_ptx "{ .reg .b64 g; cvta.to.global.u64 g, $1; atom.relaxed.gpu.global.add.u64 $0, [g], $2; }"
// CHECK: memref.store %{{.*}}, %[[SLOTS]][%c0]
// CHECK: gpu.barrier
// CHECK-NEXT: scf.while (%[[J:.*]] = %c0)
// CHECK: prefetch.global.L2::evict_last
// CHECK: %[[DRAWER:.*]] = arith.cmpi eq, %[[WARP]], %c1 : index
// CHECK-NEXT: scf.if %[[DRAWER]]
// CHECK-NEXT: arith.remui %{{.*}}, %c2 : index
// CHECK: nvvm.inline_ptx "{ .reg .b64 g; cvta.to.global.u64 g, $1; atom.relaxed.gpu.global.add.u64 $0, [g], $2; }"
// CHECK: memref.store %{{.*}}, %[[SLOTS]][
// CHECK: createpolicy.fractional.L2::evict_first
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield %{{.*}} : index
// CHECK: gpu.return
func.func @lagged_walking(%in: memref<?xi8>, %out: memref<?xi32>) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, tiles_per_warp = 1, warps_per_block = 4, schedule = #tcu.chain_schedule<prefetch_bytes = 2097152, lag_bytes = 6291456, blocks_per_sm = 8, share_items = true, walk_tickets = true>} : memref<?xi8> -> memref<?xi32>
  return
}

// Lagged scan with one warp a block: the one-iteration phases fold away,
// and the block op alone makes the items blocks, of one warp (tcuc.block =
// 32; the item count ends in `1 mul`; the workgroup buffers are the block's
// whole, not per-warp slices). As warp items of the module's default
// 4-warp blocks, four tickets met at each other's barriers and hung on the
// GPU. One ticket a block: no second warp to walk with.
// CHECK-LABEL: gpu.module @lagged_one_warp_kernels attributes {tcuc.block = 32 : i64
// CHECK-SAME: 1 mul"]
// CHECK: gpu.func @lagged_one_warp_k1({{.*}}) workgroup(%{{.*}} : memref<3xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<11xi64, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>
// CHECK: scf.for %{{.*}} = %block_id_x to %{{.*}} step %grid_dim_x
// CHECK-NOT: subview
// CHECK: gpu.barrier
// CHECK: gpu.return
func.func @lagged_one_warp(%in: memref<?xf16>, %out: memref<?xf16>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, tiles_per_warp = 1, warps_per_block = 1, schedule = #tcu.chain_schedule<blocks_per_sm = 32, share_items = true>} : memref<?xf16> -> memref<?xf16>
  return
}
