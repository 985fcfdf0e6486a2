// The matrix structure of every reduction variant in the mma form.
// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse | FileCheck %s

// Reduction16: column j of a column-major tile is segment j; V = P·A and row
// 0 of V holds 16 segment sums. P·A is computed as Ones·A (same row 0, no
// zero entries: no NaN/Inf check on the GPU).
// CHECK-LABEL: func @seg16
// CHECK: scf.parallel
// Each line is one segment, summed whole: its order is free.
// CHECK: %[[A:.*]] = tcu.load_tile <cols> %{{.*}} stride %c7 line %c7 limit %{{.*}} order <line>
// CHECK: %[[P:.*]] = tcu.matrix <Ones> : vector<16x16xf16>
// CHECK: %[[V:.*]] = tcu.mma %[[P]], %[[A]], %{{.*}} : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
// CHECK: tcu.store_row %[[V]][0]
// CHECK-NOT: tcu.mma
func.func @seg16(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 7 {variant = #tcu.variant<seg16>} : memref<?xf16> -> memref<?xf32>
  return
}

// Reduction256: V = P·A, then R = V·PT as f32 row sums of V (no split
// products).
// CHECK-LABEL: func @seg256
// The tile is summed whole: the order of all its elements is free.
// CHECK: %[[A:.*]] = tcu.load_tile <rows> %{{.*}} stride %c16 line %c16 limit %{{.*}} order <tile>
// CHECK: %[[P:.*]] = tcu.matrix <Ones> : vector<16x16xbf16>
// CHECK: %[[V:.*]] = tcu.mma %[[P]], %[[A]], %{{.*}} : vector<16x16xbf16>
// CHECK-NOT: tcu.split
// CHECK: %[[R:.*]] = tcu.row_sums %[[V]] : vector<16x16xf32>
// CHECK: tcu.store_row %[[R]][0]
func.func @seg256(%in: memref<?xbf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 200 {variant = #tcu.variant<seg256>} : memref<?xbf16> -> memref<?xf32>
  return
}

// Work-efficient 256N: V += P·A_i in a loop over the segment's tiles, one
// V·PT after it. An f32 input tile is itself split (no tf32 rounding).
// CHECK-LABEL: func @seg256n
// CHECK: scf.parallel
// CHECK: %[[V:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<16x16xf32>)
// CHECK: %[[A:.*]] = tcu.load_tile <rows> %{{.*}} order <tile> : memref<?xf32> -> vector<16x16xf32>
// CHECK: %[[AS:.*]]:3 = tcu.split %[[A]]
// CHECK: %[[P:.*]] = tcu.matrix <Ones> : vector<16x16xbf16>
// CHECK: tcu.mma %[[P]], %[[AS]]#2, %[[ACC]]
// CHECK: scf.yield
// CHECK: tcu.row_sums %[[V]]
func.func @seg256n(%in: memref<?xf32>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 1000 {variant = #tcu.variant<seg256n>} : memref<?xf32> -> memref<?xf32>
  return
}

// Four tiles in flight: the group's bases lie 256, 512 and 768 elements
// above the first (written so for the masked path's code, ReduceVariants.cpp;
// TileRuns would find the run as `(t + i) * 256` too, tile-runs.mlir
// @scaled_run), and the loop allows runs (tcu.tile_runs).
// CHECK-LABEL: func @seg256n_four
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c4
// CHECK: %[[B0:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: tcu.load_tile <rows> %{{.*}}[%[[B0]]]
// CHECK: %[[B1:.*]] = arith.addi %[[B0]], %c256 : index
// CHECK: tcu.load_tile <rows> %{{.*}}[%[[B1]]]
// CHECK: %[[B2:.*]] = arith.addi %[[B0]], %c512 : index
// CHECK: tcu.load_tile <rows> %{{.*}}[%[[B2]]]
// CHECK: %[[B3:.*]] = arith.addi %[[B0]], %c768 : index
// CHECK: tcu.load_tile <rows> %{{.*}}[%[[B3]]]
// CHECK: tcu.row_sums
// CHECK: } {tcu.tile_runs}
func.func @seg256n_four(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 8192 {variant = #tcu.variant<seg256n>, tiles_per_warp = 4} : memref<?xf16> -> memref<?xf32>
  return
}

// Strided 16N: 16 segments as columns (leading dimension = segment size),
// V += P·A_j over 16-element steps.
// CHECK-LABEL: func @seg16n_strided
// CHECK: scf.for
// CHECK: tcu.load_tile <cols> %{{.*}} stride %c48 line
// CHECK: tcu.matrix <Ones>
// CHECK: tcu.mma
// CHECK: tcu.store_row
// CHECK-NOT: tcu.matrix <PT>
func.func @seg16n_strided(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 48 {variant = #tcu.variant<seg16n_strided>} : memref<?xf16> -> memref<?xf32>
  return
}

// Coalesced 16N: whole 256-chunks coalesced (rows, P·A then ·PT as row
// sums), then the remainder strided and added on (accumulate).
// CHECK-LABEL: func @seg16n_coalesced
// CHECK: tcu.load_tile <rows>
// CHECK: tcu.row_sums
// CHECK: tcu.store_row
// CHECK: tcu.load_tile <cols> %{{.*}} stride %c1000
// CHECK: tcu.store_row {{.*}} {accumulate}
func.func @seg16n_coalesced(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 1000 {variant = #tcu.variant<seg16n_coalesced>} : memref<?xf16> -> memref<?xf32>
  return
}

// Block level: 16 warps' partial rows go to a block-local tile, then
// P·T (i32 partials: split into five digits) and its row sums reduce them.
// CHECK-LABEL: func @block
// CHECK: memref.alloc() : memref<256xi32>
// CHECK: tcu.matrix <Ones> : vector<16x16xi8>
// CHECK: tcu.store_row
// CHECK: %[[T:.*]] = tcu.load_tile <rows> %{{.*}} : memref<256xi32> -> vector<16x16xi32>
// CHECK: tcu.split %[[T]] : vector<16x16xi32> -> vector<16x16xi8>, vector<16x16xi8>, vector<16x16xi8>, vector<16x16xi8>, vector<16x16xi8>
// CHECK: arith.shli
// CHECK: tcu.row_sums
// The block reduce's loop is not marked for runs: a warp's group is
// strided (its first tile is its warp index), each tile with its own
// limit, which no run joins.
// CHECK-NOT: tcu.tile_runs
func.func @block(%in: memref<?xi8>, %out: memref<?xi32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 5000 {variant = #tcu.variant<block>} : memref<?xi8> -> memref<?xi32>
  return
}

// Grid level: chunk partials in a scratch buffer, then a second reduction
// over ceil(10000 / 4096) = 3 partials per segment (seg16 layout).
// CHECK-LABEL: func @grid
// CHECK: %[[SCRATCH:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: tcu.store_row %{{.*}}[0], %[[SCRATCH]]
// CHECK: } {tcu.tile_runs}
// CHECK: tcu.load_tile <cols> %[[SCRATCH]][%{{.*}}] stride %c3 line %c3
// CHECK: memref.dealloc %[[SCRATCH]]
func.func @grid(%in: memref<?xf16>, %out: memref<?xf16>) {
  tcu.segmented_reduce <add> %in into %out segment_size 10000 {variant = #tcu.variant<grid>} : memref<?xf16> -> memref<?xf16>
  return
}

// A segment of 2^30 would have 262144 chunks of 4096; chunks grow instead,
// so a segment keeps at most 65536 partials: 65536 chunks of 16384 elements
// (64 tiles each), then the grid again over the partials (16 chunks of
// 4096).
// CHECK-LABEL: func @grid_long
// CHECK: %[[NUM:.*]] = arith.muli %{{.*}}, %c65536 : index
// CHECK: %[[SCRATCH:.*]] = memref.alloc(%[[NUM]]) : memref<?xf32>
// CHECK: arith.muli %{{.*}}, %c16384 : index
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1
// CHECK: tcu.store_row %{{.*}}[0], %[[SCRATCH]]
// CHECK: %[[NUM2:.*]] = arith.muli %{{.*}}, %c16 : index
// CHECK: %[[SCRATCH2:.*]] = memref.alloc(%[[NUM2]]) : memref<?xf32>
func.func @grid_long(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 1073741824 {variant = #tcu.variant<grid>} : memref<?xf16> -> memref<?xf32>
  return
}

// Without a variant: seg16 / seg256 / seg256n by segment size.
// CHECK-LABEL: func @defaults
// CHECK: tcu.load_tile <cols>
// CHECK: tcu.load_tile <rows>
// CHECK-NOT: scf.for
// CHECK: scf.for
func.func @defaults(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<?xf16> -> memref<?xf32>
  tcu.segmented_reduce <add> %in into %out segment_size 256 : memref<?xf16> -> memref<?xf32>
  tcu.segmented_reduce <add> %in into %out segment_size 257 : memref<?xf16> -> memref<?xf32>
  return
}

// Packed (segment 48 = 3 rows): five segments a tile of 240 consecutive
// elements; P with blocks of 3 columns gives each segment's column sums in
// its own row, row_sums the totals, and column 0 of the rows is stored
// (lines of one element, 5 outputs a tile).
// CHECK-LABEL: func @packed
// CHECK: %[[BASE:.*]] = arith.muli %{{.*}}, %c240
// CHECK: %[[A:.*]] = tcu.load_tile <rows> %{{.*}}[%[[BASE]]] stride %c16 line %c16 limit %{{.*}} order <line>
// CHECK: %[[FIRST:.*]] = arith.muli %{{.*}}, %c5
// CHECK: %[[P:.*]] = tcu.matrix <P> block 3 : vector<16x16xf16>
// CHECK: %[[V:.*]] = tcu.mma %[[P]], %[[A]], %{{.*}}
// CHECK: %[[R:.*]] = tcu.row_sums %[[V]]
// CHECK: tcu.store_tile %[[R]], %{{.*}}[%[[FIRST]]] stride %c1 line %c1
func.func @packed(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 48 {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  return
}

// Packed with segments of a power-of-two number of lines (128 = 8): line j
// is column j, so Ones·A (no NaN check) has the line sums in row 0, row_sums
// adds blocks of 8 columns, and columns 0 and 8 are stored (2 outputs a
// tile).
// CHECK-LABEL: func @packed_columns
// CHECK: %[[BASE:.*]] = arith.muli %{{.*}}, %c256
// CHECK: %[[A:.*]] = tcu.load_tile <cols> %{{.*}}[%[[BASE]]] stride %c16 line %c16 limit %{{.*}} order <line>
// CHECK: %[[FIRST:.*]] = arith.muli %{{.*}}, %c2
// CHECK: %[[ONES:.*]] = tcu.matrix <Ones> : vector<16x16xf16>
// CHECK: %[[V:.*]] = tcu.mma %[[ONES]], %[[A]], %{{.*}}
// CHECK: %[[R:.*]] = tcu.row_sums %[[V]] block 8
// CHECK: tcu.store_row %[[R]][0], %{{.*}}[%[[FIRST]]] limit %{{.*}} step 8
func.func @packed_columns(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 128 {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  return
}

// f32 input: its tiles are split into bf16 parts marked check_tiny (they
// may hold values below 2^-110, which the parts lose: the backends sum such
// a tile unsplit); the partial sums of 16-bit input are never marked.
// CHECK-LABEL: func @f32_split
// CHECK: tcu.split %{{.*}} {check_tiny} : vector<16x16xf32> -> vector<16x16xbf16>, vector<16x16xbf16>, vector<16x16xbf16>
func.func @f32_split(%in: memref<?xf32>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 16 {variant = #tcu.variant<seg16>} : memref<?xf32> -> memref<?xf32>
  return
}
// CHECK-LABEL: func @f16_partials
// CHECK: tcu.split
// CHECK-NOT: check_tiny
// CHECK: return
func.func @f16_partials(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 100000 {variant = #tcu.variant<block>} : memref<?xf16> -> memref<?xf32>
  return
}

// A runtime segment size in seg256n: the tile loop's bound is
// ceil((end - base) / 256) of the segment [seg·S, min(seg·S + S, n)).
// CHECK-LABEL: func @seg256n_runtime
// CHECK-SAME: %[[S:[a-z0-9]+]]: index
// CHECK: scf.parallel (%[[SEG:.*]]) =
// CHECK: %[[BASE:.*]] = arith.muli %[[SEG]], %[[S]]
// CHECK: %[[END0:.*]] = arith.addi %[[BASE]], %[[S]]
// CHECK: %[[END:.*]] = arith.minsi %[[END0]]
// CHECK: %[[LEFT:.*]] = arith.subi %[[END]], %[[BASE]]
// CHECK: arith.maxsi %[[LEFT]], %c0
// CHECK: arith.divui %{{.*}}, %c256
// CHECK: scf.for
// CHECK: tcu.load_tile
func.func @seg256n_runtime(%in: memref<?xf16>, %out: memref<?xf32>, %s: index) {
  tcu.segmented_reduce <add> %in into %out segment_size %s {variant = #tcu.variant<seg256n>, tiles_per_warp = 1} : memref<?xf16> -> memref<?xf32>
  return
}

// Reductions walk aligned tiles from segment 2048 (scans from 4096): at
// 2049 (not a multiple of 8 f16) the tiles start at the segment's base
// rounded down to 256, `from` masks the elements below it; 2048 + 255
// elements are at most 9 tiles (docs/algorithms.md#aligned-walks).
// CHECK-LABEL: func @seg256n_aligned_walk
// CHECK: %[[BASE:.*]] = arith.muli %{{.*}}, %c2049
// CHECK: %[[OFF:.*]] = arith.remui %[[BASE]], %c256
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] stride %c16 line %c16 limit %{{.*}} from %[[BASE]]
func.func @seg256n_aligned_walk(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 2049 {variant = #tcu.variant<seg256n>, tiles_per_warp = 1} : memref<?xf16> -> memref<?xf32>
  return
}

// Below 2048 the segment keeps its own tiles (the walk's extra tile costs
// more than the vectors gain there).
// CHECK-LABEL: func @seg256n_below_walks
// CHECK-NOT: {{limit %[0-9a-z_]+ from}}
// CHECK: return
func.func @seg256n_below_walks(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 2047 {variant = #tcu.variant<seg256n>, tiles_per_warp = 1} : memref<?xf16> -> memref<?xf32>
  return
}

// Segments from offsets, seg256n: one parallel iteration a segment. The input ends
// at its last offset (clamped to the buffer; a caller without n passes the
// buffer as long as it may be), and the input is viewed as that long so
// whole-tile loads test the real end. Each segment's bounds are read from
// the offsets and clamped into [0, n] (end >= begin), its tiles walked from
// the begin rounded down to 256 with the elements below it masked (`from`),
// summed as seg256n sums them; an empty segment runs no tile and stores 0.
// CHECK-LABEL: func @offsets
// CHECK: %[[DIM:.*]] = memref.dim %arg0
// CHECK: %[[K1:.*]] = memref.dim %arg1
// CHECK: %[[K:.*]] = arith.subi %[[K1]], %c1
// CHECK: %[[KK:.*]] = arith.maxsi %[[K]], %c0
// CHECK: scf.parallel (%[[S:.*]]) = (%c0) to (%[[KK]])
// CHECK: %[[LAST:.*]] = memref.load %arg1[%[[K]]] : memref<?xi64>
// CHECK: %[[LASTI:.*]] = arith.index_cast %[[LAST]] : i64 to index
// CHECK: %[[LAST0:.*]] = arith.maxsi %[[LASTI]], %c0
// CHECK: %[[N:.*]] = arith.minsi %[[LAST0]], %[[DIM]]
// CHECK: %[[IN:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%[[N]]], strides: [1]
// CHECK: %[[A:.*]] = memref.load %arg1[%[[S]]] : memref<?xi64>
// CHECK: %[[AI:.*]] = arith.index_cast %[[A]] : i64 to index
// CHECK: %[[A0:.*]] = arith.maxsi %[[AI]], %c0
// CHECK: %[[BEGIN:.*]] = arith.minsi %[[A0]], %[[N]]
// CHECK: %[[S1:.*]] = arith.addi %[[S]], %c1
// CHECK: %[[B:.*]] = memref.load %arg1[%[[S1]]] : memref<?xi64>
// CHECK: %[[BI:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK: %[[B0:.*]] = arith.maxsi %[[BI]], %[[BEGIN]]
// CHECK: %[[END:.*]] = arith.minsi %[[B0]], %[[N]]
// CHECK: %[[REM:.*]] = arith.remui %[[BEGIN]], %c256
// CHECK: %[[ORIGIN:.*]] = arith.subi %[[BEGIN]], %[[REM]]
// CHECK: scf.for
// CHECK: tcu.load_tile <rows> %[[IN]][%{{.*}}] stride %c16 line %c16 limit %[[END]] from %[[BEGIN]]
// CHECK: tcu.mma
// CHECK: tcu.row_sums
// CHECK: tcu.store_row %{{.*}}[0], %arg2[%[[S]]]
// CHECK: } {tcu.tile_runs}
func.func @offsets(%in: memref<?xf16>, %off: memref<?xi64>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out offsets %off {variant = #tcu.variant<seg256n>} : memref<?xf16>, memref<?xi64> -> memref<?xf32>
  return
}

// Segments from offsets, balanced (the default there): a ticketed chain of
// 8192 runs, a one-warp block each; a run finds the segment open at its
// start by binary search, sums its lead, walks its body tile by tile
// (tcu.offset_heads, the tile's classes: one masked product per head
// class, L_seg for the rows above), stores the sums of the segments ending
// in each tile (tcu.store_segment_ends), then the empty ones at its end,
// and looks back along the chain of the segment open at its start,
// publishing the start of the next (`publish`).
// CHECK-LABEL: func @offsets_balanced
// CHECK: %[[ALLOC:.*]] = memref.alloc() : memref<8208xi64>
// CHECK: %[[STATE:.*]] = memref.cast %[[ALLOC]]
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c8192)
// CHECK: %[[Q:.*]] = tcu.ticket %[[STATE]][%c0]
// CHECK: scf.while
// CHECK: scf.if
// CHECK: tcu.load_tile <rows> {{.*}} order <tile>
// The body's walk: the next head (off[lo]) decides between a stretch
// without heads, streamed as whole tiles, and one tile with heads.
// CHECK: scf.while
// CHECK: memref.load %arg1
// CHECK: scf.if {{.*}} -> (index, vector<16x16xf32>, index, index)
// CHECK: scf.for
// CHECK: tcu.load_tile <rows> {{.*}} order <tile>
// CHECK: } else {
// CHECK-NEXT: tcu.offset_heads %arg1[%{{.*}}, %{{.*}}] base %{{.*}} : memref<?xi64> -> vector<16x16xi32>
// CHECK: tcu.load_tile <rows> {{.*}} from %{{.*}} order <quads>
// CHECK: scf.if
// CHECK: tcu.row_sums
// CHECK: } else {
// CHECK: tcu.positions <cols> order <quads>
// CHECK: tcu.matrix <UQuads>
// CHECK: tcu.matrix <L>
// CHECK: scf.for
// CHECK: tcu.mma
// CHECK: arith.select
// CHECK: tcu.store_segment_ends %{{.*}}, %arg1[%{{.*}}, %{{.*}}] base %{{.*}} end %{{.*}}, %arg2 order <quads>
// CHECK: tcu.store_segment_ends
// CHECK: tcu.block_lookback {{.*}} %[[STATE]][%{{.*}}] first %{{.*}} publish %{{.*}}
// CHECK: tcu.store_row %{{.*}}[0], %arg2
func.func @offsets_balanced(%in: memref<?xf16>, %off: memref<?xi64>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out offsets %off : memref<?xf16>, memref<?xi64> -> memref<?xf32>
  return
}
