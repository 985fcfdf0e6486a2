// The matrix structure of every scan variant in the mma form.
// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse | FileCheck %s

// Scan16: row i of a row-major tile is segment i; R = A·U.
// CHECK-LABEL: func @seg16
// CHECK: %[[A:.*]] = tcu.load_tile <rows> %{{.*}} stride %c7 line %c7
// CHECK: %[[U:.*]] = tcu.matrix <U> : vector<16x16xf16>
// CHECK: %[[R:.*]] = tcu.mma %[[A]], %[[U]], %{{.*}}
// CHECK: tcu.store_tile %[[R]], %{{.*}} stride %c7 line %c7
func.func @seg16(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 7 {variant = #tcu.variant<seg16>} : memref<?xf16> -> memref<?xf32>
  return
}

// Exclusive scans use the strictly upper Ustrict instead of U.
// CHECK-LABEL: func @seg16_exclusive
// CHECK: tcu.matrix <Ustrict>
// CHECK-NOT: tcu.matrix <U>
func.func @seg16_exclusive(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 16 : memref<?xf16> -> memref<?xf32>
  return
}

// Scan256: R = A·U + (L·A)·Ones; L·A is f32, so ·Ones is row_sums (f32
// adds, no split products).
// CHECK-LABEL: func @seg256
// CHECK: %[[A:.*]] = tcu.load_tile <rows>
// CHECK: %[[L:.*]] = tcu.matrix <L> : vector<16x16xf16>
// CHECK: %[[LA:.*]] = tcu.mma %[[L]], %[[A]], %{{.*}}
// CHECK-NOT: tcu.split
// CHECK: %[[Y:.*]] = tcu.row_sums %[[LA]] : vector<16x16xf32>
// CHECK: %[[U:.*]] = tcu.matrix <U> : vector<16x16xf16>
// CHECK: %[[R:.*]] = tcu.mma %[[A]], %[[U]], %[[Y]]
// CHECK: tcu.store_tile %[[R]]
func.func @seg256(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 256 : memref<?xf16> -> memref<?xf32>
  return
}

// Scan256N: the carry S is added to (L·A)·Ones, and the next carry is
// R[15][15] (an inclusive scan's last element: S plus the tile's total)
// everywhere.
// CHECK-LABEL: func @seg256n
// CHECK: scf.for %{{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (vector<16x16xf32>)
// CHECK: tcu.matrix <L>
// CHECK: %[[Y:.*]] = tcu.row_sums
// CHECK: %[[X:.*]] = arith.addf %[[Y]], %[[S]]
// CHECK: tcu.matrix <U>
// CHECK: %[[R:.*]] = tcu.mma %{{.*}}, %{{.*}}, %[[X]]
// CHECK: %[[LAST:.*]] = vector.extract %[[R]][15, 15]
// CHECK: %[[NEXT:.*]] = vector.broadcast %[[LAST]]
// CHECK: tcu.store_tile %[[R]]
// CHECK: scf.yield %[[NEXT]]
func.func @seg256n(%in: memref<?xbf16>, %out: memref<?xbf16>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1000 : memref<?xbf16> -> memref<?xbf16>
  return
}

// Strided 16N: rows are 16 segments; R = A·U + S; S += A·Ones.
// CHECK-LABEL: func @seg16n
// CHECK: scf.for %{{.*}} iter_args(%[[S:.*]] = %{{.*}})
// CHECK: %[[A:.*]] = tcu.load_tile <rows> %{{.*}} stride %c48 line
// CHECK: tcu.mma %[[A]], %{{.*}}, %[[S]] : vector<16x16xi8>, vector<16x16xi8> into vector<16x16xi32>
// CHECK: tcu.store_tile
// CHECK: %[[ONES:.*]] = tcu.matrix <Ones> : vector<16x16xi8>
// CHECK: %[[NEXT:.*]] = tcu.mma %[[A]], %[[ONES]], %[[S]]
// CHECK: scf.yield %[[NEXT]]
func.func @seg16n(%in: memref<?xi8>, %out: memref<?xi32>) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 48 {variant = #tcu.variant<seg16n>} : memref<?xi8> -> memref<?xi32>
  return
}

// Block level: a segment of 5000 is 20 tiles, walked by 4 warps in chunks
// of 4 tiles (1 per warp), in one phase per chunk: each warp scans its
// tile from 0 (A·U + (L·A)·Ones), tcu.block_prefix exchanges the warps'
// totals through the block's 8 (2 x 4, by chunk parity) and gives each
// warp the sum of the warps before it, and the tile is stored as R + the
// chunk's carry + that prefix. After the phase every warp sums the 4
// totals into the next carry.
// CHECK-LABEL: func @block
// CHECK: scf.parallel
// CHECK: %[[TOTALS:.*]] = memref.alloc() : memref<8xf32>
// CHECK: scf.for %[[I:.*]] = %c0 to %c5 step %c1 iter_args(%[[CARRY:.*]] = %cst
// CHECK: %[[PARITY:.*]] = arith.remui %[[I]], %c2
// CHECK: %[[OFF:.*]] = arith.muli %[[PARITY]], %c4
// CHECK: scf.parallel (%[[W:.*]]) = (%c0) to (%c4) step (%c1)
// CHECK: tcu.load_tile <rows>
// CHECK: tcu.matrix <L>
// CHECK: tcu.row_sums
// CHECK: tcu.matrix <U>
// CHECK: %[[TOTAL:.*]] = vector.extract %{{.*}}[15, 15]
// CHECK: %[[BEFORE:.*]] = tcu.block_prefix %[[TOTAL]], %[[TOTALS]][%[[OFF]]], %[[W]] of 4 : memref<8xf32>, f32
// CHECK: %[[START:.*]] = arith.addf %[[CARRY]], %[[BEFORE]]
// CHECK: vector.broadcast
// CHECK: arith.addf %{{.*}} : vector<16x16xf32>
// CHECK: tcu.store_tile
// CHECK: memref.load %[[TOTALS]]
// CHECK: %[[ALL:.*]] = arith.addf
// CHECK: scf.yield
// CHECK: memref.dealloc %[[TOTALS]]
// The block scan's tiles are tested one by one (tile runs measured slower).
// CHECK-NOT: tcu.tile_runs
// CHECK: return
func.func @block(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 5000 {variant = #tcu.variant<block>} : memref<?xf16> -> memref<?xf32>
  return
}

// Longer segments give the block more warps (blockScanWarps): for 16-bit
// inputs 8 at 65536 and 16 from 2^17, for the others 8 at 2^19 and 16 from
// 2^20 (the totals buffer holds 2 W entries).
// CHECK-LABEL: func @block_warps
// CHECK: memref.alloc() : memref<16xf32>
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c8) step (%c1)
// CHECK: memref.alloc() : memref<32xf32>
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c16) step (%c1)
// CHECK: memref.alloc() : memref<8xi32>
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c4) step (%c1)
// CHECK: memref.alloc() : memref<16xi32>
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c8) step (%c1)
// CHECK: memref.alloc() : memref<32xi32>
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c16) step (%c1)
func.func @block_warps(%in: memref<?xf16>, %out: memref<?xf32>, %in8: memref<?xi8>, %out8: memref<?xi32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<block>} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %in into %out segment_size 524288 {variant = #tcu.variant<block>} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> exclusive %in8 into %out8 segment_size 65536 {variant = #tcu.variant<block>} : memref<?xi8> -> memref<?xi32>
  tcu.segmented_scan <add> exclusive %in8 into %out8 segment_size 524288 {variant = #tcu.variant<block>} : memref<?xi8> -> memref<?xi32>
  tcu.segmented_scan <add> exclusive %in8 into %out8 segment_size 16777216 {variant = #tcu.variant<block>} : memref<?xi8> -> memref<?xi32>
  return
}

// warps_per_block overrides the rule (which gives 8 at f16 65536 and 4 at
// i8 65536, above), for the reduction too (16 without it).
// CHECK-LABEL: func @block_warps_given
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c2) step (%c1)
// CHECK: memref.alloc() : memref<32xi32>
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c16) step (%c1)
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: scf.for %{{.*}} = %{{.*}} to %c256 step %c4
func.func @block_warps_given(%in: memref<?xf16>, %out: memref<?xf32>, %in8: memref<?xi8>, %out8: memref<?xi32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<block>, warps_per_block = 2} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> exclusive %in8 into %out8 segment_size 65536 {variant = #tcu.variant<block>, warps_per_block = 16} : memref<?xi8> -> memref<?xi32>
  tcu.segmented_reduce <add> %in into %out segment_size 65536 {variant = #tcu.variant<block>, warps_per_block = 4} : memref<?xf16> -> memref<?xf32>
  return
}

// Grid level: chunk totals, an exclusive scan of them (segments of
// ceil(5000 / 4096) = 2 partials), then every chunk from its prefix.
// CHECK-LABEL: func @grid
// CHECK: %[[TOTALS:.*]] = memref.alloc
// CHECK: %[[PREFIX:.*]] = memref.alloc
// CHECK: tcu.store_row %{{.*}}[0], %[[TOTALS]]
// CHECK: tcu.load_tile <rows> %[[TOTALS]][%{{.*}}] stride %c2 line %c2
// CHECK: tcu.matrix <Ustrict>
// CHECK: tcu.store_tile %{{.*}}, %[[PREFIX]]
// CHECK: memref.load %[[PREFIX]]
// CHECK: tcu.matrix <U> : vector<16x16xf16>
func.func @grid(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 5000 {variant = #tcu.variant<grid>} : memref<?xf16> -> memref<?xf32>
  return
}

// An exclusive scan's next carry adds the tile's last element, which
// A·Ustrict leaves out of R[15][15].
// CHECK-LABEL: func @seg256n_exclusive
// CHECK: %[[A:.*]] = tcu.load_tile <rows>
// CHECK: %[[R:.*]] = tcu.mma %[[A]], %{{.*}}, %{{.*}} : vector<16x16xi8>, vector<16x16xi8> into vector<16x16xi32>
// CHECK-DAG: %[[LAST:.*]] = vector.extract %[[R]][15, 15]
// CHECK-DAG: %[[A15:.*]] = vector.extract %[[A]][15, 15] : i8 from vector<16x16xi8>
// CHECK: %[[WIDE:.*]] = arith.extsi %[[A15]] : i8 to i32
// CHECK: %[[TOTAL:.*]] = arith.addi %[[LAST]], %[[WIDE]]
// CHECK: vector.broadcast %[[TOTAL]]
func.func @seg256n_exclusive(%in: memref<?xi8>, %out: memref<?xi32>) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 1000 {variant = #tcu.variant<seg256n>} : memref<?xi8> -> memref<?xi32>
  return
}

// Packed (segment 64 = 4 rows): four segments a tile, L cut into diagonal
// blocks of 4 rows so L·A sums only within a segment; a tile is 256
// consecutive elements (rows of 16, 256 apart).
// CHECK-LABEL: func @packed
// CHECK: %[[BASE:.*]] = arith.muli %{{.*}}, %c256
// CHECK: %[[A:.*]] = tcu.load_tile <rows> %{{.*}}[%[[BASE]]] stride %c16 line %c16
// CHECK: %[[L:.*]] = tcu.matrix <L> block 4 : vector<16x16xf16>
// CHECK: %[[LA:.*]] = tcu.mma %[[L]], %[[A]], %{{.*}}
// CHECK: tcu.row_sums %[[LA]]
// CHECK: tcu.matrix <U> : vector<16x16xf16>
func.func @packed(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 64 {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  return
}

// Look-back (single pass): chunks of 4 warps x 1 tile (1024 elements), so a
// segment of 65536 is a chain of 64 chunks. A first kernel zeroes the state
// words (a ticket counter, then one per chunk); each block item draws its
// chunk (warp 0's ticket, shared through the block's buffer), scans it as
// the block scan does, and tcu.block_lookback exchanges the warps' totals
// (4, then the chunk's prefix: 5 entries) and gives the chunk's prefix,
// which takes the carry's place. The chain's first item is the segment's
// first chunk (item numbers start at 1: word 0 is the ticket counter).
// CHECK-LABEL: func @lookback
// CHECK: %[[PER:.*]] = arith.minsi %{{.*}}, %c64
// CHECK: %[[ITEMS:.*]] = arith.muli %{{.*}}, %[[PER]]
// CHECK: %[[STATE:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: scf.parallel
// CHECK: vector.store %{{.*}}, %[[STATE]][%{{.*}}] : memref<?xi64>, vector<16xi64>
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%[[ITEMS]]) step (%c1)
// CHECK: %[[TOTALS:.*]] = memref.alloc() : memref<5xf32>
// CHECK: %[[TICKET:.*]] = memref.alloc() : memref<1xi64>
// CHECK: scf.parallel (%[[W0:.*]]) = (%c0) to (%c4) step (%c1)
// CHECK: arith.cmpi eq, %[[W0]], %c0
// CHECK: %[[DRAWN:.*]] = tcu.ticket %[[STATE]][%c0]
// CHECK: memref.store %{{.*}}, %[[TICKET]][%c0]
// The input of the chunk 2 MB ahead (1024 chunks of 1024 f16) into L2.
// CHECK: %[[AHEAD:.*]] = arith.addi %[[DRAWN]], %c1024
// CHECK: arith.cmpi ult, %[[AHEAD]], %[[ITEMS]]
// CHECK: %[[ASEG:.*]] = arith.divui %[[AHEAD]], %[[PER]]
// CHECK: %[[ASEGBASE:.*]] = arith.muli %[[ASEG]], %c65536
// CHECK: %[[ACHUNK:.*]] = arith.remui %[[AHEAD]], %[[PER]]
// CHECK: %[[AOFF:.*]] = arith.muli %[[ACHUNK]], %c1024
// CHECK: %[[ABASE:.*]] = arith.addi %[[ASEGBASE]], %[[AOFF]]
// CHECK: tcu.prefetch %arg0[%[[ABASE]]], %{{.*}} : memref<?xf16>
// CHECK: %[[Q:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[SEG:.*]] = arith.divui %[[Q]], %[[PER]]
// CHECK: %[[ITEM:.*]] = arith.addi %[[Q]], %c1
// CHECK: %[[FIRST0:.*]] = arith.muli %[[SEG]], %[[PER]]
// CHECK: %[[FIRST:.*]] = arith.addi %[[FIRST0]], %c1
// CHECK: scf.parallel (%[[W:.*]]) = (%c0) to (%c4) step (%c1)
// CHECK: tcu.load_tile
// CHECK: %[[BEFORE:.*]], %[[CHUNK:.*]] = tcu.block_lookback %{{.*}}, %[[TOTALS]][%c0], %[[W]] of 4, %[[STATE]][%[[ITEM]]] first %[[FIRST]] : memref<5xf32>, memref<?xi64>, f32
// CHECK: arith.addf %[[CHUNK]], %[[BEFORE]]
// CHECK: tcu.store_tile
// CHECK: memref.dealloc %[[STATE]]
func.func @lookback(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lookback>, warps_per_block = 4, schedule = #tcu.chain_schedule<prefetch_bytes = 2097152>} : memref<?xf16> -> memref<?xf32>
  return
}

// Lagged single pass: chunks of 4 warps x 1 tile (1024 elements); the lag
// is 6 MB of input (3072 chunks of 2 KB; 8 MB where the scan does not
// prefetch, as with f16 output), at most half the chunks. A first
// kernel zeroes the state words; the grid is the chunks plus the lag. The
// block's ticket t reduces chunk t (if t < chunks: evict_last loads of any
// element order, summed by a Ones·A product) and scans chunk t - lag (if
// t >= lag: evict_first loads, streaming stores); one
// tcu.block_lagged_lookback exchanges both totals, publishes chunk t,
// completes chunk t - E's look-back word (E = max(1, lag / 2)) and gives
// chunk t - lag's prefix. The state holds two words a chunk and the ticket. A block without a chunk to reduce (scan)
// takes chunk 0 with an empty range. After its loads of chunk t each warp
// asks for its run of the input 2 MB further on (1024 chunks) to be
// brought into L2 (evict_last; f16 -> f32 and i8 -> i32 only), clipped to
// the input, and to nothing without a chunk to reduce.
// CHECK-LABEL: func @lagged
// CHECK: %[[PER:.*]] = arith.minsi %{{.*}}, %c64
// CHECK: %[[ITEMS:.*]] = arith.muli %{{.*}}, %[[PER]]
// CHECK: %[[LAG:.*]] = arith.minsi %{{.*}}, %c3072
// CHECK: %[[HALF:.*]] = arith.divui %[[LAG]], %c2
// CHECK: %[[E:.*]] = arith.maxui %[[HALF]], %c1
// CHECK: %[[WORDS:.*]] = arith.muli %[[ITEMS]], %c2
// CHECK: arith.addi %[[WORDS]], %c1
// CHECK: %[[STATE:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: vector.store %{{.*}}, %[[STATE]][%{{.*}}] : memref<?xi64>, vector<16xi64>
// CHECK: %[[GRID:.*]] = arith.addi %[[ITEMS]], %[[LAG]]
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%[[GRID]]) step (%c1)
// CHECK: %[[TOTALS:.*]] = memref.alloc() : memref<9xf32>
// With f32 output, warp 0 draws the ticket and finds the items' fields
// once for the block (segment t / 64 and chunk t % 64 of each item: the
// constant chunks of a whole segment, not PER, which equals it wherever
// there are two segments) and shares them: the ticket, the reduced and
// scanned items' base, end, word and first word, the completed item's
// word and first word.
// CHECK: %[[SHARED:.*]] = memref.alloc() : memref<11xi64>
// CHECK: scf.parallel (%[[W0:.*]]) = (%c0) to (%c4) step (%c1)
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[W0]], %c0
// CHECK: scf.if %[[IS0]]
// CHECK: %[[T0:.*]] = tcu.ticket %[[STATE]][%c0]
// CHECK: memref.store %{{.*}}, %[[SHARED]][%c0]
// CHECK: arith.subi %[[T0]], %[[E]]
// CHECK-NOT: arith.divui %{{.*}}, %[[PER]]
// CHECK: arith.divui %{{.*}}, %c64
// CHECK: arith.select %{{.*}}, %[[T0]], %c0
// CHECK: arith.divui %{{.*}}, %c64
// CHECK: arith.subi %[[T0]], %[[LAG]]
// CHECK: arith.divui %{{.*}}, %c64
// CHECK-NOT: arith.divui %{{.*}}, %[[PER]]
// CHECK: memref.store %{{.*}}, %[[SHARED]][%c10]
// CHECK: }
// CHECK: scf.reduce
// Every warp then reads them (no division left outside warp 0).
// CHECK: %[[T64:.*]] = memref.load %[[SHARED]][%c0]
// CHECK: %[[T:.*]] = arith.index_cast %[[T64]] : i64 to index
// CHECK: %[[RBASE:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[REND:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[RWORD:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: arith.index_cast %{{.*}} : i64 to index
// CHECK: arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[SEND:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[SWORD:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[CWORD:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: memref.dealloc %[[SHARED]]
// CHECK-NOT: arith.divui
// CHECK: %[[REDUCES:.*]] = arith.cmpi ult, %[[T]], %[[ITEMS]]
// CHECK: %[[SCANS:.*]] = arith.cmpi uge, %[[T]], %[[LAG]]
// CHECK: %[[CEND:.*]] = arith.addi %[[ITEMS]], %[[E]]
// CHECK: %[[CBELOW:.*]] = arith.cmpi ult, %[[T]], %[[CEND]]
// CHECK: %[[CFROM:.*]] = arith.cmpi uge, %[[T]], %[[E]]
// CHECK: %[[COMPLETES:.*]] = arith.andi %[[CFROM]], %[[CBELOW]]
// CHECK: scf.parallel (%[[W:.*]]) = (%c0) to (%c4) step (%c1)
// CHECK: %[[A:.*]] = tcu.load_tile <rows> %arg0[%{{.*}}] stride %c16 line %c16 limit %[[REND]] order <tile> cache <evict_last>
// CHECK: %[[AHEAD:.*]] = arith.addi %{{.*}}, %c1048576 : index
// CHECK: %[[FROM:.*]] = arith.minsi %{{.*}}, %[[DIM:.*]] : index
// CHECK: %[[TO0:.*]] = arith.addi %[[FROM]], %c256 : index
// CHECK: %[[TO:.*]] = arith.minsi %[[TO0]], %[[DIM]] : index
// CHECK: %[[COUNT:.*]] = arith.subi %[[TO]], %[[FROM]] : index
// CHECK: %[[PCOUNT:.*]] = arith.select %[[REDUCES]], %[[COUNT]], %c0 : index
// CHECK: tcu.prefetch %arg0[%[[FROM]]], %[[PCOUNT]] cache <evict_last> : memref<?xf16>
// CHECK: %[[B:.*]] = tcu.load_tile <rows> %arg0[%[[SAT:.*]]] stride %c16 line %c16 limit %[[SEND]] cache <evict_first>
// CHECK: tcu.mma %{{.*}}, %[[B]], %{{.*}}
// CHECK: %[[ONES:.*]] = tcu.matrix <Ones>
// CHECK: tcu.mma %[[ONES]], %[[A]], %{{.*}}
// CHECK: %[[BEFORE:.*]], %[[CHUNK:.*]] = tcu.block_lagged_lookback %{{.*}}, %{{.*}}, %[[TOTALS]][%c0], %[[W]] of 4, %[[STATE]] publish[%[[RWORD]]] first %{{.*}} if %[[REDUCES]], complete[%[[CWORD]]] first %{{.*}} if %[[COMPLETES]], prefix[%[[SWORD]]] first %{{.*}} if %[[SCANS]] : memref<9xf32>, memref<?xi64>, f32
// CHECK: arith.addf %[[CHUNK]], %[[BEFORE]]
// CHECK: tcu.store_tile %{{.*}}, %arg1[%[[SAT]]] stride %c16 line %c16 limit %[[SEND]] cache <streaming>
// At 2 tiles a warp or fewer the blocks ask for 32 warps an SM (8 of 4);
// their tile accesses may go in runs (tcu.tile_runs).
// CHECK: } {tcu.min_blocks_per_sm = 8 : i64, tcu.tile_runs}
// CHECK-NEXT: memref.dealloc %[[STATE]]
func.func @lagged(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, tiles_per_warp = 1, warps_per_block = 4, schedule = #tcu.chain_schedule<prefetch_bytes = 2097152, lag_bytes = 6291456, blocks_per_sm = 8, share_items = true>} : memref<?xf16> -> memref<?xf32>
  return
}

// At 4 tiles of 4 warps no occupancy is asked for (64 registers spill
// there).
// f16 -> f32 keeps the fixed order at 4 tiles (quads measured the same).
// CHECK-LABEL: func @lagged_four_tiles
// CHECK-NOT: order <quads>
// CHECK: tcu.matrix <U>
// CHECK-NOT: order <quads>
// CHECK: tcu.block_lagged_lookback
// CHECK-NOT: tcu.min_blocks_per_sm
// CHECK: } {tcu.tile_runs}
// CHECK: return
func.func @lagged_four_tiles(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, tiles_per_warp = 4, warps_per_block = 4, schedule = #tcu.chain_schedule<prefetch_bytes = 2097152, lag_bytes = 6291456, share_items = true>} : memref<?xf16> -> memref<?xf32>
  return
}

// With f16 output at fewer than 4 tiles a warp the lagged scan prefetches
// nothing (ptxas gave that kernel 91 registers instead of 63 with it:
// ScanVariants.cpp), and its lag is 8 MB (4096 chunks of 2 KB). Its blocks walk tickets (at most 8192
// warps, 2048 blocks of 4): warp 0 draws the first into slot 0 of two, then each ticket j
// read from slot j % 2 runs while it is below the tickets' count, and warp
// 1 draws the next into slot (j + 1) % 2 right after its loads. Each slot
// holds the ticket and its items' 10 fields (shared since tcuc 0.6.22, found
// by the drawing warp with divisions by the constant 64 chunks a segment):
// slot j starts at 11 (j % 2), and no warp divides after reading it.
// CHECK-LABEL: func @lagged_f16_out
// CHECK: %[[LAG:.*]] = arith.minsi %{{.*}}, %c4096
// CHECK: %[[TICKETS:.*]] = arith.addi %{{.*}}, %[[LAG]]
// CHECK: %[[BLOCKS:.*]] = arith.minsi %[[TICKETS]], %c2048
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%[[BLOCKS]])
// CHECK: %[[SLOTS:.*]] = memref.alloc() : memref<22xi64>
// CHECK: tcu.ticket
// CHECK-NEXT: arith.index_cast
// CHECK-NEXT: memref.store %{{.*}}, %[[SLOTS]][%c0]
// CHECK: arith.divui %{{.*}}, %c64
// CHECK: memref.store %{{.*}}, %[[SLOTS]][%c10]
// CHECK: scf.while (%[[J:.*]] = %c0)
// CHECK: %[[AT:.*]] = arith.remui %[[J]], %c2
// CHECK: %[[AT11:.*]] = arith.muli %[[AT]], %c11
// CHECK: %[[T:.*]] = memref.load %[[SLOTS]][%[[AT11]]]
// CHECK: %[[TI:.*]] = arith.index_cast %[[T]]
// CHECK: %[[MORE:.*]] = arith.cmpi ult, %[[TI]], %[[TICKETS]]
// CHECK: scf.condition(%[[MORE]]) %[[J]]
// CHECK: ^bb0(%[[JJ:.*]]: index):
// CHECK: %[[NEXT:.*]] = arith.addi %[[JJ]], %c1
// CHECK-NOT: arith.divui
// CHECK: scf.parallel (%[[W:.*]]) = (%c0) to (%c4)
// CHECK: tcu.load_tile
// CHECK: %[[DRAWER:.*]] = arith.cmpi eq, %[[W]], %c1
// CHECK: scf.if %[[DRAWER]]
// CHECK: %[[NEXTAT:.*]] = arith.remui %[[NEXT]], %c2
// CHECK: %[[NEXTAT11:.*]] = arith.muli %[[NEXTAT]], %c11
// CHECK: tcu.ticket
// CHECK: memref.store %{{.*}}, %[[SLOTS]][%[[NEXTAT11]]]
// CHECK: arith.divui %{{.*}}, %c64
// CHECK: tcu.block_lagged_lookback
// CHECK: scf.yield %[[NEXT]]
// CHECK: memref.dealloc %[[SLOTS]]
// CHECK-NOT: tcu.prefetch
// CHECK: return
func.func @lagged_f16_out(%in: memref<?xf16>, %out: memref<?xf16>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, tiles_per_warp = 1, warps_per_block = 4, schedule = #tcu.chain_schedule<blocks_per_sm = 8, share_items = true, walk_tickets = true>} : memref<?xf16> -> memref<?xf16>
  return
}

// With f16 output at 4 tiles a warp (the default shape from 2^22) the
// lagged scan prefetches 1 MB ahead (128 chunks of 8 KB: 524288 elements
// past the warp's run of the reduced chunk, evict_last, after that chunk's
// loads) and keeps the 8 MB lag (1024 chunks). Its scanned tiles are
// loaded, scanned (UQuads) and stored in the quads order, and its blocks
// held to 5 an SM (20 warps).
// CHECK-LABEL: func @lagged_f16_out_four_tiles
// CHECK-NOT: tcu.lagged_prefix
// CHECK: arith.minsi %{{.*}}, %c1024
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] {{.*}} order <tile> cache <evict_last>
// CHECK: %[[AHEAD:.*]] = arith.addi %{{.*}}, %c524288
// CHECK: tcu.prefetch %arg0[%{{.*}}], %{{.*}} cache <evict_last>
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] {{.*}} order <quads> cache <evict_first>
// CHECK-NOT: tcu.matrix <U>
// CHECK: tcu.matrix <UQuads>
// CHECK-NOT: tcu.lagged_prefix
// CHECK: tcu.block_lagged_lookback {{.*}} : memref<9xf32>
// CHECK: tcu.store_tile %{{.*}}, %arg1[%{{.*}}] {{.*}} order <quads> cache <streaming>
// CHECK: tcu.min_blocks_per_sm = 5
// CHECK: return
func.func @lagged_f16_out_four_tiles(%in: memref<?xf16>, %out: memref<?xf16>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1048576 {variant = #tcu.variant<lagged>, tiles_per_warp = 4, warps_per_block = 4, schedule = #tcu.chain_schedule<prefetch_bytes = 1048576, blocks_per_sm = 5, quads = true, share_items = true, walk_tickets = true>} : memref<?xf16> -> memref<?xf16>
  return
}

// The wide f16 shape (4 tiles, 8 warps: chunks of 8192 elements, 16 KB):
// f16 -> f16 lags 9 MB (576 chunks) and prefetches nothing; each warp sums
// its reduced run (Ones·A) right after the scanned run's loads, before the
// first L·A, and the blocks are held to 3 an SM (24 warps). Right after
// that sum warp 0 reads the scanned chunk's prefix words (tcu.lagged_prefix,
// the others a published 0, 1 << 32) and hands them to the look-back
// (`given`), so the block meets once where they were all published; the
// totals (2 x 8 + 2 slots) alternate between two halves by ticket parity.
// CHECK-LABEL: func @lagged_f16_out_eight_warps
// CHECK: arith.minsi %{{.*}}, %c576
// CHECK-NOT: tcu.prefetch
// CHECK: %[[TOTALS:.*]] = memref.alloc() : memref<36xf32>
// CHECK: %[[PARITY:.*]] = arith.remui %{{.*}}, %c2 : index
// CHECK: %[[HALF:.*]] = arith.muli %[[PARITY]], %c18 : index
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] {{.*}} order <tile> cache <evict_last>
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] {{.*}} order <quads> cache <evict_first>
// CHECK: tcu.matrix <Ones>
// CHECK: tcu.row_sums
// CHECK-NEXT: vector.extract %{{.*}}[0, 0]
// CHECK-NEXT: arith.cmpi eq, %{{.*}}, %c0 : index
// CHECK-NEXT: %[[GIVEN:.*]] = scf.if %{{.*}} -> (i64) {
// CHECK-NEXT: tcu.lagged_prefix %{{.*}}[%[[ITEM:.*]]] first %{{.*}} if %{{.*}} : memref<?xi64>
// CHECK: } else {
// CHECK-NEXT: scf.yield %c4294967296_i64 : i64
// CHECK: tcu.matrix <L>
// CHECK: tcu.matrix <UQuads>
// CHECK: tcu.block_lagged_lookback {{.*}}, %[[TOTALS]][%[[HALF]]], %{{.*}} of 8, {{.*}} prefix[%[[ITEM]]] {{.*}} given %[[GIVEN]] : memref<36xf32>
// CHECK: tcu.store_tile %{{.*}}, %arg1[%{{.*}}] {{.*}} order <quads> cache <streaming>
// CHECK: tcu.min_blocks_per_sm = 3
// CHECK: return
func.func @lagged_f16_out_eight_warps(%in: memref<?xf16>, %out: memref<?xf16>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1048576 {variant = #tcu.variant<lagged>, tiles_per_warp = 4, warps_per_block = 8, schedule = #tcu.chain_schedule<lag_bytes = 9437184, blocks_per_sm = 3, quads = true, sum_first = true, read_early = true, share_items = true, walk_tickets = true>} : memref<?xf16> -> memref<?xf16>
  return
}

// f16 -> f32 in the wide shape keeps its 6 MB lag (384 chunks) and 2 MB
// prefetch (128 chunks of 16 KB: 1048576 elements ahead) and the fixed
// order; it sums first and is held to 3 blocks an SM too.
// CHECK-LABEL: func @lagged_eight_warps
// CHECK: arith.minsi %{{.*}}, %c384
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] {{.*}} order <tile> cache <evict_last>
// CHECK: arith.addi %{{.*}}, %c1048576
// CHECK: tcu.prefetch %arg0[%{{.*}}], %{{.*}} cache <evict_last>
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] {{.*}} cache <evict_first>
// CHECK: tcu.row_sums
// CHECK-NEXT: vector.extract %{{.*}}[0, 0]
// CHECK: tcu.lagged_prefix
// CHECK: tcu.matrix <L>
// CHECK-NOT: tcu.matrix <UQuads>
// CHECK: tcu.matrix <U>
// CHECK: tcu.block_lagged_lookback {{.*}} of 8, {{.*}} given
// CHECK: tcu.min_blocks_per_sm = 3
// CHECK: return
func.func @lagged_eight_warps(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1048576 {variant = #tcu.variant<lagged>, tiles_per_warp = 4, warps_per_block = 8, schedule = #tcu.chain_schedule<prefetch_bytes = 2097152, lag_bytes = 6291456, blocks_per_sm = 3, sum_first = true, read_early = true, share_items = true>} : memref<?xf16> -> memref<?xf32>
  return
}

// bf16 -> bf16 at 4 tiles a warp: blocks that walk tickets with shared
// fields (slots of 2 x 11 words), as f16 -> f16's, in the wide shape
// (9 MB lag, no prefetch, sum first, 3 blocks an SM), and since tcuc 0.6.29
// its scanned tiles in the quads order, as f16 -> f16's.
// CHECK-LABEL: func @lagged_bf16_out_eight_warps
// CHECK: arith.minsi %{{.*}}, %c576
// CHECK-NOT: tcu.prefetch
// CHECK: memref.alloc() : memref<22xi64>
// CHECK: scf.while
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] {{.*}} order <tile> cache <evict_last>
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] {{.*}} order <quads> cache <evict_first>
// CHECK: tcu.row_sums
// CHECK-NEXT: vector.extract %{{.*}}[0, 0]
// CHECK: tcu.lagged_prefix
// CHECK: tcu.matrix <L>
// CHECK: tcu.matrix <UQuads>
// CHECK: tcu.block_lagged_lookback {{.*}} of 8, {{.*}} given
// CHECK: tcu.store_tile %{{.*}}, %arg1[%{{.*}}] {{.*}} order <quads> cache <streaming>
// CHECK: tcu.min_blocks_per_sm = 3
// CHECK: return
func.func @lagged_bf16_out_eight_warps(%in: memref<?xbf16>, %out: memref<?xbf16>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1048576 {variant = #tcu.variant<lagged>, tiles_per_warp = 4, warps_per_block = 8, schedule = #tcu.chain_schedule<lag_bytes = 9437184, blocks_per_sm = 3, quads = true, sum_first = true, read_early = true, share_items = true, walk_tickets = true>} : memref<?xbf16> -> memref<?xbf16>
  return
}

// bf16 -> bf16 at 4 tiles of 4 warps (not the wide shape; not timed with
// quads) keeps the fixed order.
// CHECK-LABEL: func @lagged_bf16_out_four_warps
// CHECK-NOT: order <quads>
// CHECK-NOT: tcu.matrix <UQuads>
// CHECK: tcu.block_lagged_lookback {{.*}} of 4,
// CHECK-NOT: order <quads>
// CHECK: return
func.func @lagged_bf16_out_four_warps(%in: memref<?xbf16>, %out: memref<?xbf16>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1048576 {variant = #tcu.variant<lagged>, tiles_per_warp = 4, warps_per_block = 4, schedule = #tcu.chain_schedule<share_items = true, walk_tickets = true>} : memref<?xbf16> -> memref<?xbf16>
  return
}

// bf16 -> f32 in the wide shape prefetches as f16 -> f32 does (tcuc 0.6.29):
// the 6 MB lag (384 chunks) and 2 MB ahead (1048576 elements), fixed order.
// CHECK-LABEL: func @lagged_bf16_eight_warps
// CHECK: arith.minsi %{{.*}}, %c384
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] {{.*}} order <tile> cache <evict_last>
// CHECK: arith.addi %{{.*}}, %c1048576
// CHECK: tcu.prefetch %arg0[%{{.*}}], %{{.*}} cache <evict_last>
// CHECK-NOT: tcu.matrix <UQuads>
// CHECK: tcu.block_lagged_lookback {{.*}} of 8,
// CHECK: tcu.min_blocks_per_sm = 3
// CHECK: return
func.func @lagged_bf16_eight_warps(%in: memref<?xbf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1048576 {variant = #tcu.variant<lagged>, tiles_per_warp = 4, warps_per_block = 8, schedule = #tcu.chain_schedule<prefetch_bytes = 2097152, lag_bytes = 6291456, blocks_per_sm = 3, sum_first = true, read_early = true, share_items = true>} : memref<?xbf16> -> memref<?xf32>
  return
}

// bf16 -> f32 at 4 tiles of 4 warps: no prefetch (not timed with one) and
// the 8 MB lag (1024 chunks of 8 KB).
// CHECK-LABEL: func @lagged_bf16_four_warps
// CHECK: arith.minsi %{{.*}}, %c1024
// CHECK-NOT: tcu.prefetch
// CHECK: tcu.block_lagged_lookback {{.*}} of 4,
// CHECK: return
func.func @lagged_bf16_four_warps(%in: memref<?xbf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1048576 {variant = #tcu.variant<lagged>, tiles_per_warp = 4, warps_per_block = 4, schedule = #tcu.chain_schedule<share_items = true>} : memref<?xbf16> -> memref<?xf32>
  return
}

// At 2 tiles a warp bf16 -> bf16 keeps one ticket a block (no scf.while).
// CHECK-LABEL: func @lagged_bf16_out_two_tiles
// CHECK-NOT: scf.while
// CHECK: tcu.block_lagged_lookback
// CHECK: return
func.func @lagged_bf16_out_two_tiles(%in: memref<?xbf16>, %out: memref<?xbf16>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1048576 {variant = #tcu.variant<lagged>, tiles_per_warp = 2, warps_per_block = 4, schedule = #tcu.chain_schedule<blocks_per_sm = 8>} : memref<?xbf16> -> memref<?xbf16>
  return
}

// The lowering takes every tuning choice from the schedule: without one
// (or with #tcu.chain_schedule<>) a lagged scan is the plain algorithm: no
// prefetch, the fixed order, no occupancy target, one ticket a block.
// CHECK-LABEL: func @lagged_plain
// CHECK-NOT: tcu.prefetch
// CHECK-NOT: order <quads>
// CHECK-NOT: scf.while
// CHECK: tcu.block_lagged_lookback
// CHECK-NOT: tcu.prefetch
// CHECK: } {tcu.tile_runs}
// CHECK: return
func.func @lagged_plain(%in: memref<?xf16>, %out: memref<?xf16>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1048576 {variant = #tcu.variant<lagged>, tiles_per_warp = 4, warps_per_block = 4} : memref<?xf16> -> memref<?xf16>
  return
}

// A schedule's fields, each read as given.
// CHECK-LABEL: func @lagged_fields
// CHECK: scf.while
// CHECK: tcu.prefetch %arg0[%{{.*}}], %{{.*}} cache <evict_last>
// CHECK: order <quads>
// CHECK: } {tcu.min_blocks_per_sm = 7 : i64, tcu.tile_runs}
// CHECK: return
func.func @lagged_fields(%in: memref<?xf16>, %out: memref<?xf16>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1048576 {variant = #tcu.variant<lagged>, tiles_per_warp = 4, warps_per_block = 4, schedule = #tcu.chain_schedule<prefetch_bytes = 65536, blocks_per_sm = 7, quads = true, walk_tickets = true>} : memref<?xf16> -> memref<?xf16>
  return
}

// The streaming scan: items of 40 whole segments of 100 (4000 elements)
// walk tiles at multiples of 256, the first from the tile holding the
// item's start, after one L2 prefetch of the item. 16-bit tiles move in
// the quads order (UQuads scans their rows). A row's elements right of its
// head take (A∘post)·U, the others A·U plus the rows above in their
// segment, L_seg·A_tail (L_seg and the masks compare rows' values with
// columns: one remainder a row, as a multiply-high by floor(2^32 / S) and
// one correction, of the row start clamped at 0), and the carry where their row's segment
// began in an earlier tile. Loads and stores skip the elements before the
// item (`from`).
// CHECK-LABEL: func @stream
// CHECK: scf.parallel
// CHECK: %[[START:.*]] = arith.muli %{{.*}}, %c4000 : index
// CHECK: tcu.prefetch
// CHECK: scf.for {{.*}} iter_args(%[[CARRY:.*]] = %{{.*}}) -> (vector<16x16xf32>)
// CHECK: %[[A:.*]] = tcu.load_tile <rows> %{{.*}} stride %c16 line %c16 limit %{{.*}} from %[[START]] order <quads>
// CHECK: %[[ROW:.*]] = tcu.positions <rows> : vector<16x16xi32>
// CHECK: %[[COL:.*]] = tcu.positions <cols> : vector<16x16xi32>
// CHECK: %[[PLACE:.*]] = tcu.positions <cols> order <quads> : vector<16x16xi32>
// CHECK: %[[ROWSTART:.*]] = arith.addi %{{.*}} : vector<16x16xi32>
// CHECK: %[[CLAMPED:.*]] = arith.maxsi %[[ROWSTART]], %{{.*}} : vector<16x16xi32>
// CHECK: %[[WIDE:.*]] = arith.extui %[[CLAMPED]] : vector<16x16xi32> to vector<16x16xi64>
// CHECK: %[[PROD:.*]] = arith.muli %[[WIDE]], %{{.*}} : vector<16x16xi64>
// CHECK: arith.shrui %[[PROD]], %{{.*}} : vector<16x16xi64>
// CHECK-NOT: arith.rem
// CHECK: %[[POST:.*]] = arith.cmpi sge, %[[PLACE]], %{{.*}} : vector<16x16xi32>
// CHECK: %[[TAIL:.*]] = arith.cmpi sge, %[[PLACE]], %{{.*}} : vector<16x16xi32>
// CHECK: %[[APOST:.*]] = arith.select %[[POST]], %[[A]], %{{.*}} : vector<16x16xi1>, vector<16x16xf16>
// CHECK: %[[ATAIL:.*]] = arith.select %[[TAIL]], %[[A]], %{{.*}} : vector<16x16xi1>, vector<16x16xf16>
// CHECK: %[[LSEG:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<16x16xi1>, vector<16x16xf16>
// CHECK: %[[LA:.*]] = tcu.mma %[[LSEG]], %[[ATAIL]], %{{.*}}
// CHECK: %[[C:.*]] = arith.select %{{.*}}, %[[CARRY]], %{{.*}} : vector<16x16xi1>, vector<16x16xf32>
// CHECK: %[[ROWS:.*]] = tcu.row_sums %[[LA]] : vector<16x16xf32>
// CHECK: %[[PREFIX:.*]] = arith.addf %[[ROWS]], %[[C]]
// CHECK: %[[U:.*]] = tcu.matrix <UQuads> : vector<16x16xf16>
// CHECK: %[[X:.*]] = tcu.mma %[[A]], %[[U]], %[[PREFIX]]
// CHECK: %[[Y:.*]] = tcu.mma %[[APOST]], %[[U]], %{{.*}}
// CHECK: %[[R:.*]] = arith.select %[[POST]], %[[Y]], %[[X]]
// CHECK: tcu.store_tile %[[R]], %{{.*}} from %[[START]] order <quads>
func.func @stream(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 {variant = #tcu.variant<stream>, tiles_per_warp = 1 : i64} : memref<?xf16> -> memref<?xf32>
  return
}

// A runtime segment size: the streaming scan's items of
// max(1, 4096 / S) segments, and its i32 segment size, come from %s; the
// rows' remainders' floor(2^32 / S) is divided once, before the loops.
// CHECK-LABEL: func @stream_runtime
// CHECK-SAME: %[[S:[a-z0-9]+]]: index
// CHECK: %[[PER:.*]] = arith.divui %c4096, %[[S]]
// CHECK: %[[K:.*]] = arith.maxsi %[[PER]], %c1
// CHECK: %[[SPAN:.*]] = arith.muli %[[K]], %[[S]]
// CHECK: %[[S32:.*]] = arith.index_cast %[[S]] : index to i32
// CHECK: %[[S64:.*]] = arith.extui %[[S32]] : i32 to i64
// CHECK: %[[MAGIC:.*]] = arith.divui %c4294967296_i64, %[[S64]] : i64
// CHECK: arith.trunci %[[MAGIC]] : i64 to i32
// CHECK: scf.parallel
// CHECK-NOT: arith.divui
// CHECK: arith.muli %{{.*}}, %[[SPAN]]
// CHECK: tcu.positions
func.func @stream_runtime(%in: memref<?xf16>, %out: memref<?xf32>, %s: index) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s {variant = #tcu.variant<stream>, tiles_per_warp = 1} : memref<?xf16> -> memref<?xf32>
  return
}

// MatMulScan (segment 70000 = 274 tiles): up-sweep, level 0's tile totals
// (Ones·A, row 0 summed; one element each, limit p + 1) into T0, then T0's (f32: split parts) into T1 (2
// per segment); the top scans T1 in one tile (L·A, Ustrict: exclusive) into
// P1; down-sweep, T0's tiles scanned from P1 into P0, the input's from P0
// into the output (A·U + (L·A)·Ones + S).
// CHECK-LABEL: func @matmulscan
// CHECK: %[[T0:.*]] = memref.alloc
// CHECK: %[[P0:.*]] = memref.alloc
// CHECK: scf.parallel
// CHECK: %[[A:.*]] = tcu.load_tile <rows> %arg0
// CHECK: %[[ONES:.*]] = tcu.matrix <Ones> : vector<16x16xf16>
// CHECK: %[[V:.*]] = tcu.mma %[[ONES]], %[[A]]
// CHECK: %[[SUMS:.*]] = tcu.row_sums %[[V]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[P:.*]], %c1
// CHECK: tcu.store_row %[[SUMS]][0], %[[T0]][%[[P]]] limit %[[NEXT]]
// CHECK: %[[T1:.*]] = memref.alloc
// CHECK: %[[P1:.*]] = memref.alloc
// CHECK: tcu.load_tile <rows> %[[T0]]
// CHECK: tcu.matrix <Ones> : vector<16x16xbf16>
// CHECK: tcu.store_row %{{.*}}[0], %[[T1]]
// CHECK: tcu.load_tile <rows> %[[T1]]
// CHECK: tcu.matrix <L>
// CHECK: tcu.matrix <Ustrict>
// CHECK: tcu.store_tile %{{.*}}, %[[P1]]
// CHECK: memref.load %[[P1]]
// CHECK: tcu.load_tile <rows> %[[T0]]
// CHECK: tcu.matrix <Ustrict>
// CHECK: tcu.store_tile %{{.*}}, %[[P0]]
// CHECK: memref.load %[[P0]]
// CHECK: %[[B:.*]] = tcu.load_tile <rows> %arg0
// CHECK: %[[L:.*]] = tcu.matrix <L> : vector<16x16xf16>
// CHECK: tcu.mma %[[L]], %[[B]]
// CHECK: %[[U:.*]] = tcu.matrix <U> : vector<16x16xf16>
// CHECK: tcu.mma %[[B]], %[[U]]
// CHECK: tcu.store_tile %{{.*}}, %arg1
func.func @matmulscan(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 70000 {variant = #tcu.variant<matmulscan>} : memref<?xf16> -> memref<?xf32>
  return
}

// Aligned walk (segment 4097 >= 4096, not a multiple of 8 f16): the tiles
// start at the segment's base rounded down to a multiple of 256 and run
// over up to 4097 + 255 elements (17 tiles); `from` keeps the loads and
// stores off the elements below the segment.
// CHECK-LABEL: func @seg256n_aligned_walk
// CHECK: %[[BASE:.*]] = arith.muli %{{.*}}, %c4097
// CHECK: %[[OFF:.*]] = arith.remui %[[BASE]], %c256
// CHECK: %[[ORIGIN:.*]] = arith.subi %[[BASE]], %[[OFF]]
// CHECK: scf.for %{{.*}} = %c0 to %c17
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] stride %c16 line %c16 limit %{{.*}} from %[[BASE]]
// CHECK: tcu.store_tile %{{.*}}, %arg1[%{{.*}}] stride %c16 line %c16 limit %{{.*}} from %[[BASE]]
func.func @seg256n_aligned_walk(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 4097 {variant = #tcu.variant<seg256n>} : memref<?xf16> -> memref<?xf32>
  return
}

// A size on the vector grid (4104 = 8 · 513 f16) keeps the segment's own
// tiles: no lower bound.
// CHECK-LABEL: func @seg256n_own_tiles
// CHECK-NOT: arith.remui %{{.*}}, %c256
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] stride %c16 line %c16 limit %{{[0-9]+}} :
// CHECK-NOT: arith.remui %{{.*}}, %c256
// CHECK: tcu.store_tile %{{.*}} limit %{{[0-9]+}} :
// CHECK: return
func.func @seg256n_own_tiles(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 4104 {variant = #tcu.variant<seg256n>} : memref<?xf16> -> memref<?xf32>
  return
}

// Scans keep their own tiles below 4096 (reductions walk from 2048).
// CHECK-LABEL: func @seg256n_scan_below_walks
// CHECK-NOT: {{limit %[0-9a-z_]+ from}}
// CHECK: return
func.func @seg256n_scan_below_walks(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 2049 {variant = #tcu.variant<seg256n>} : memref<?xf16> -> memref<?xf32>
  return
}

// A scan over offsets with seg256n: each segment's tiles as seg256n scans them, from its
// begin (i32 offsets, sign-extended and clamped) with the carry starting at
// 0; input and output viewed as long as the last offset says.
// CHECK-LABEL: func @offsets_scan
// CHECK: scf.parallel
// CHECK: memref.load %arg1[%{{.*}}] : memref<?xi32>
// CHECK: arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[IN:.*]] = memref.reinterpret_cast %arg0
// CHECK: %[[OUT:.*]] = memref.reinterpret_cast %arg2
// CHECK: scf.for
// CHECK: tcu.load_tile <rows> %[[IN]][%{{.*}}] stride %c16 line %c16 limit %{{.*}} from %{{.*}}
// CHECK: tcu.store_tile %{{.*}}, %[[OUT]]
func.func @offsets_scan(%in: memref<?xf16>, %off: memref<?xi32>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out offsets %off {variant = #tcu.variant<seg256n>} : memref<?xf16>, memref<?xi32> -> memref<?xf32>
  return
}

// A scan over offsets, balanced: the body's tiles are stored as they are
// scanned (from h: nothing of the lead), the lead once the chain gave its
// prefix, as Scan256N tiles from it (exclusive: U strict).
// CHECK-LABEL: func @offsets_balanced_scan
// CHECK: tcu.ticket
// CHECK: scf.for
// The body's walk: a stretch without heads scanned from the carry and
// stored tile by tile, or one tile with heads.
// CHECK: scf.while
// CHECK: scf.if {{.*}} -> (index, vector<16x16xf32>, index)
// CHECK: scf.for
// CHECK: tcu.matrix <UstrictQuads>
// CHECK: tcu.store_tile {{.*}} from %{{.*}} order <quads>
// CHECK: } else {
// CHECK-NEXT: tcu.offset_heads %arg1
// CHECK: tcu.matrix <UstrictQuads>
// CHECK: tcu.store_tile {{.*}} from %{{.*}} order <quads>
// CHECK: tcu.block_lookback {{.*}} publish
// CHECK: scf.for
// CHECK: tcu.store_tile
func.func @offsets_balanced_scan(%in: memref<?xf16>, %off: memref<?xi32>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> exclusive %in into %out offsets %off : memref<?xf16>, memref<?xi32> -> memref<?xf32>
  return
}
