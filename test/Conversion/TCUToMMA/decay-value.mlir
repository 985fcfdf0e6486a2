// A decay given at run time (`decay %a`): the products are those of a
// constant decay, with decay matrices of the value, all three parts of each
// (a part known to be zero for a constant cannot be left out); the grid's
// chunk decay a^L (L = 4096) is computed in f64 and rounded to f32. The
// GPU backend computes the matrices' powers and parts per lane in f64
// (sm_80 has every conversion they need: f64 -> f16 directly, bf16 through
// f32). @grid_value asks for the matrix form, which tcu-select-strategy
// would not give f32 data.
// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse | FileCheck %s
// RUN: tcuc-opt %s --tcu-to-ptx="chip=sm_80" | FileCheck %s --check-prefix=PTX
// PTX-DAG: .param .f32 seg16_value_k0_param_10
// PTX-DAG: mul.rn.f64
// PTX-DAG: cvt.rn.f16.f64
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-DAG: cvt.rn.f32.f64
// PTX-DAG: cvt.rn.bf16.f32
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// CHECK-LABEL: func @seg16_value
// CHECK-SAME: %[[A:[a-z0-9]+]]: f32
// CHECK: scf.parallel
// CHECK: tcu.decay_matrix <U> %[[A]] part 2 scale 15 : vector<16x16xf16>
// CHECK: tcu.decay_matrix <U> %[[A]] part 1 scale 15 : vector<16x16xf16>
// CHECK: tcu.decay_matrix <U> %[[A]] scale 15 : vector<16x16xf16>
func.func @seg16_value(%in: memref<?xf16>, %out: memref<?xf32>, %a: f32) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 10 decay %a {variant = #tcu.variant<seg16>} : memref<?xf16> -> memref<?xf32>
  return
}

// CHECK-LABEL: func @grid_value
// CHECK-SAME: %[[A:[a-z0-9]+]]: f32
// Pass 1: each chunk's total alone, no scan: the elements times a^(255 -
// place) (f64 powers of %A, rounded), the tiles' partial sums times a^256,
// added once a chunk by a recurrence with decay 1.
// CHECK: scf.parallel
// CHECK-NOT: tcu.decay_matrix
// CHECK: tcu.positions <cols>
// CHECK: arith.extf %[[A]] : f32 to f64
// CHECK: arith.truncf %{{.*}} : vector<16x16xf64> to vector<16x16xf32>
// CHECK: tcu.load_tile
// CHECK: arith.mulf %{{.*}} : vector<16x16xf32>
// CHECK: tcu.linear_recurrence %{{.*}}, %{{.*}}, %{{.*}} : vector<16x16xf32>, f32
// Pass 2: the totals' exclusive scan with decay a^L.
// CHECK: %[[W:.*]] = arith.extf %[[A]] : f32 to f64
// CHECK-COUNT-11: arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: %[[L:.*]] = arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: %[[P:.*]] = arith.truncf %[[L]] : f64 to f32
// a^L underflowed (and a != 0): +-2^-149, so that an Inf carry stays Inf.
// CHECK-DAG: %[[NZ:.*]] = arith.cmpf one, %[[A]], %{{.*}} : f32
// CHECK-DAG: %[[Z:.*]] = arith.cmpf oeq, %[[P]], %{{.*}} : f32
// CHECK: %[[U:.*]] = arith.andi %[[Z]], %[[NZ]] : i1
// CHECK: %[[BITS:.*]] = arith.bitcast %[[P]] : f32 to i32
// CHECK: %[[LOW:.*]] = arith.ori %[[BITS]], %c1_i32 : i32
// CHECK: %[[TINY:.*]] = arith.bitcast %[[LOW]] : i32 to f32
// CHECK: %[[AL:.*]] = arith.select %[[U]], %[[TINY]], %[[P]] : f32
// CHECK: scf.parallel
// CHECK: tcu.decay_matrix <Ustrict> %[[AL]] part 2 : vector<16x16xbf16>
// CHECK: tcu.decay_matrix <RowHeadStrict> %[[AL]] : vector<16x16xf32>
// CHECK: scf.parallel
// CHECK: tcu.decay_matrix <CarryStrict> %[[A]] : vector<16x16xf32>
func.func @grid_value(%in: memref<?xf32>, %out: memref<?xf32>, %a: f32) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 300000 decay %a {variant = #tcu.variant<grid>, decay_form = #tcu.decay_form<matrices>} : memref<?xf32> -> memref<?xf32>
  return
}

// Per-segment decays: each warp loads its segment's decay and scans its
// tiles on CUDA cores (tcu.linear_recurrence in the lanes order, no
// product matrices), the carry (the h before the tile) as its init; a
// reverse scan's mirrored segment j is the buffer's numSegments - 1 - j.
// CHECK-LABEL: func @per_segment_reverse
// CHECK-SAME: %[[D:[a-z0-9]+]]: memref<?xf32>) {
// CHECK: scf.parallel (%[[SEG:.*]]) =
// CHECK: %[[LAST:.*]] = arith.subi %{{.*}}, %[[SEG]] : index
// CHECK: %[[PHYS:.*]] = arith.subi %[[LAST]], %c1 : index
// CHECK: %[[A:.*]] = memref.load %[[D]][%[[PHYS]]] : memref<?xf32>
// CHECK-NOT: tcu.decay_matrix
// CHECK: tcu.load_tile <rows> {{.*}} order <lanes>
// CHECK: %[[R:.*]] = tcu.linear_recurrence %[[A]], %{{.*}}, %{{.*}} order <lanes> : vector<16x16xf16>, f32
// CHECK-NOT: tcu.decay_matrix
// CHECK: tcu.store_tile %[[R]]
func.func @per_segment_reverse(%in: memref<?xf16>, %out: memref<?xf32>, %d: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 1000 decays %d {variant = #tcu.variant<seg256n>} : memref<?xf16> -> memref<?xf32>
  return
}

// Per-segment decays on short segments: seg16 spreads the group's 16
// decays over their rows (a column, row sums) and scans each row alone;
// seg256 scans its one segment's tile from 0.
// CHECK-LABEL: func @per_segment_short
// CHECK: %[[COL:.*]] = tcu.load_tile <rows> %{{.*}}[%{{.*}}] stride %c1 line %c1 limit %{{.*}} : memref<?xf32> -> vector<16x16xf32>
// CHECK: %[[ROWS:.*]] = tcu.row_sums %[[COL]] : vector<16x16xf32>
// CHECK: tcu.linear_recurrence %[[ROWS]], %{{.*}}, %{{.*}} rows exclusive : vector<16x16xf16>
// CHECK: tcu.linear_recurrence %{{.*}}, %{{.*}}, %{{.*}} : vector<16x16xbf16>
// CHECK-NOT: tcu.decay_matrix
func.func @per_segment_short(%in: memref<?xf16>, %out: memref<?xf32>, %b: memref<?xbf16>, %d: memref<?xf32>) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 10 decays %d {variant = #tcu.variant<seg16>} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %b into %out segment_size 100 decays %d {variant = #tcu.variant<seg256>} : memref<?xbf16> -> memref<?xf32>
  return
}

// Per-segment decays over the grid: a first kernel leaves each segment's
// a^L and its weights a^(255 - place) (in the lanes order, 256 f32 a
// segment); pass 1 loads its segment's weights instead of building them
// for every chunk, then the totals' scan and pass 3's walk.
// CHECK-LABEL: func @per_segment_grid
// CHECK-SAME: memref<?xf16>, %{{[a-z0-9]+}}: memref<?xf32>, %[[D:[a-z0-9]+]]: memref<?xf32>
// CHECK: %[[N:.*]] = arith.muli %{{.*}}, %c256 : index
// CHECK-NEXT: %[[TABLE:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT: scf.parallel
// CHECK: memref.load %[[D]]
// CHECK: tcu.positions <cols> order <lanes>
// CHECK: tcu.store_tile %{{.*}}, %[[TABLE]][%{{.*}}] stride %c16 line %c16 limit %{{.*}} order <lanes>
// CHECK: scf.parallel
// CHECK: tcu.load_tile <rows> %[[TABLE]]
// CHECK-NOT: tcu.positions
// CHECK: tcu.linear_recurrence %{{.*}}, %{{.*}}, %{{.*}} order <lanes> : vector<16x16xf32>, f32
// CHECK: scf.parallel
// CHECK: tcu.linear_recurrence {{.*}} exclusive order <lanes>
// CHECK: scf.parallel
// CHECK: tcu.linear_recurrence %{{.*}}, %{{.*}}, %{{.*}} order <lanes> : vector<16x16xf16>, f32
func.func @per_segment_grid(%in: memref<?xf16>, %out: memref<?xf32>, %d: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 300000 decays %d {variant = #tcu.variant<grid>} : memref<?xf16> -> memref<?xf32>
  return
}
