// Decayed scans in the mma form (docs/algorithms.md#decayed-scans): every
// product with a decay matrix is three products with its parts (lo, mid,
// hi) accumulated in f32; f16 parts are scaled by 2^15 and the product
// scaled back (2^-15 = 3.05175781E-5); seg256 adds the carries between the
// rows of the tile, rowsums((L_a·A) ⊙ RowTail) ⊙ RowHead; f32 data is split
// into bf16 parts, each multiplied by each matrix part; a part that is all
// zeros (a power of two: every power exact in the higher parts) is left out.
// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse | FileCheck %s
// The same goes through the GPU lowering to PTX (mma.sync on the parts):
// RUN: tcuc-opt %s --tcu-to-ptx="chip=sm_90" | FileCheck %s --check-prefix=PTX
// PTX-COUNT-3: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// CHECK-LABEL: func @seg256_f16
// CHECK-DAG: %[[UNSCALE:.*]] = arith.constant dense<3.05175781E-5> : vector<16x16xf32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16x16xf32>
// CHECK: scf.parallel
// CHECK: %[[A:.*]] = tcu.load_tile <rows> %arg0[%[[BASE:.*]]] stride %c16 line %c16 limit %[[END:.*]] : memref<?xf16> -> vector<16x16xf16>
// CHECK: %[[OK:.*]] = tcu.all_finite %[[A]] : vector<16x16xf16>
// CHECK: %[[IF:.*]] = scf.if %[[OK]] -> (vector<16x16xf32>) {
// CHECK: %[[U2:.*]] = tcu.decay_matrix <U> 0.9 part 2 scale 15 : vector<16x16xf16>
// CHECK: %[[R2:.*]] = tcu.mma %[[A]], %[[U2]], %[[ZERO]]
// CHECK: %[[U1:.*]] = tcu.decay_matrix <U> 0.9 part 1 scale 15
// CHECK: %[[R1:.*]] = tcu.mma %[[A]], %[[U1]], %[[R2]]
// CHECK: %[[U0:.*]] = tcu.decay_matrix <U> 0.9 scale 15
// CHECK: %[[R0:.*]] = tcu.mma %[[A]], %[[U0]], %[[R1]]
// CHECK: %[[ROWS:.*]] = arith.mulf %[[R0]], %[[UNSCALE]]
// CHECK: %[[L2:.*]] = tcu.decay_matrix <L> 0.9 part 2 scale 15
// CHECK: %[[M2:.*]] = tcu.mma %[[L2]], %[[A]], %[[ZERO]]
// CHECK: tcu.decay_matrix <L> 0.9 part 1 scale 15
// CHECK: tcu.mma
// CHECK: tcu.decay_matrix <L> 0.9 scale 15
// CHECK: %[[M0:.*]] = tcu.mma
// CHECK: %[[TAIL:.*]] = tcu.decay_matrix <RowTail> 0.9 scale -15 : vector<16x16xf32>
// CHECK: %[[W:.*]] = arith.mulf %[[M0]], %[[TAIL]]
// CHECK: %[[ENDS:.*]] = tcu.row_sums %[[W]]
// CHECK: %[[HEAD:.*]] = tcu.decay_matrix <RowHead> 0.9 : vector<16x16xf32>
// CHECK: %[[CARRY:.*]] = arith.mulf %[[ENDS]], %[[HEAD]]
// CHECK: %[[R:.*]] = arith.addf %[[ROWS]], %[[CARRY]]
// CHECK: scf.yield %[[R]]
// A tile with NaN, Inf or huge values takes the recurrence, whose exact
// path runs it element by element (docs/algorithms.md#decayed-nan-inf).
// CHECK: } else {
// CHECK: %[[SEQ:.*]] = tcu.linear_recurrence %{{.*}}, %[[A]], %{{.*}} : vector<16x16xf16>, f32
// CHECK: scf.yield %[[SEQ]]
// CHECK: tcu.store_tile %[[IF]], %arg1[%[[BASE]]] stride %c16 line %c16 limit %[[END]]
// CHECK-NOT: tcu.mma
// CHECK: return
func.func @seg256_f16(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 decay 0.9 : memref<?xf16> -> memref<?xf32>
  return
}

// Exclusive: Ustrict_a and RowHeadStrict (a^c); bf16 parts are not scaled.
// CHECK-LABEL: func @seg256_bf16_exclusive
// CHECK-NOT: 3.05175781E-5
// CHECK: tcu.decay_matrix <Ustrict> 0.75 part 2 : vector<16x16xbf16>
// CHECK: tcu.decay_matrix <Ustrict> 0.75 part 1 : vector<16x16xbf16>
// CHECK: tcu.decay_matrix <Ustrict> 0.75 : vector<16x16xbf16>
// CHECK: tcu.decay_matrix <L> 0.75 : vector<16x16xbf16>
// CHECK: tcu.decay_matrix <RowTail> 0.75 : vector<16x16xf32>
// CHECK: tcu.decay_matrix <RowHeadStrict> 0.75 : vector<16x16xf32>
// CHECK: return
func.func @seg256_bf16_exclusive(%in: memref<?xbf16>, %out: memref<?xbf16>) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 256 decay 0.75 : memref<?xbf16> -> memref<?xbf16>
  return
}

// seg16: a segment a row (stride S), A·U_a alone. At a = 0.5 every power
// is a power of two, whole in the hi part: one product.
// CHECK-LABEL: func @seg16_exact_powers
// CHECK: %[[A:.*]] = tcu.load_tile <rows> %arg0[%{{.*}}] stride %c7 line %c7 limit %{{.*}} : memref<?xbf16>
// CHECK-NOT: part
// CHECK: %[[U:.*]] = tcu.decay_matrix <Ustrict> 0.5 : vector<16x16xbf16>
// CHECK: %[[R:.*]] = tcu.mma %[[A]], %[[U]], %{{.*}}
// CHECK-NOT: tcu.mma
// CHECK-NOT: row_sums
// CHECK: scf.yield %[[R]]
// CHECK: tcu.linear_recurrence %{{.*}}, %[[A]], %{{.*}} rows exclusive : vector<16x16xbf16>, f32
// CHECK: tcu.store_tile %{{.*}}, %arg1[%{{.*}}] stride %c7 line %c7
func.func @seg16_exact_powers(%in: memref<?xbf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 7 decay 0.5 : memref<?xbf16> -> memref<?xf32>
  return
}

// f32 data: three bf16 data parts times each matrix part (lo first).
// CHECK-LABEL: func @seg16_f32
// CHECK: %[[P:.*]]:3 = tcu.split %{{.*}} : vector<16x16xf32> -> vector<16x16xbf16>, vector<16x16xbf16>, vector<16x16xbf16>
// CHECK: %[[U2:.*]] = tcu.decay_matrix <U> 0.9 part 2 : vector<16x16xbf16>
// CHECK: tcu.mma %[[P]]#2, %[[U2]]
// CHECK: tcu.mma %[[P]]#1, %[[U2]]
// CHECK: tcu.mma %[[P]]#0, %[[U2]]
// CHECK: tcu.decay_matrix <U> 0.9 part 1
// CHECK-COUNT-3: tcu.mma
// CHECK: tcu.decay_matrix <U> 0.9 :
// CHECK-COUNT-3: tcu.mma
// CHECK-NOT: tcu.mma
// CHECK: return
func.func @seg16_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 decay 0.9 : memref<?xf32> -> memref<?xf32>
  return
}

// Reverse: the same products over the mirrored view.
// CHECK-LABEL: func @reverse
// CHECK: tcu.load_tile <rows> {{.*}} mirror
// CHECK: tcu.decay_matrix <U> 0.9 part 2 scale 15
// CHECK: tcu.store_tile {{.*}} mirror
func.func @reverse(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 16 decay 0.9 : memref<?xf16> -> memref<?xf32>
  return
}

// decay 1 is the plain scan: named 0/1 matrices, no decay matrix.
// CHECK-LABEL: func @plain
// CHECK-NOT: decay_matrix
// CHECK: tcu.matrix <U>
// CHECK: return
func.func @plain(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 decay 1.0 : memref<?xf16> -> memref<?xf32>
  return
}

// decay_form <recurrence> (tcu-select-strategy's choice for f32 and
// seg256): the tiles scan on CUDA cores with the decay as the scalar of
// every element, each row alone in seg16, the tile in order in seg256
// (loaded, scanned and stored in the lanes order); no product with a
// decay matrix.
// CHECK-LABEL: func @recurrence_form
// CHECK: %[[A:.*]] = arith.constant 0.899999976 : f32
// CHECK: tcu.load_tile <rows> {{.*}} : memref<?xf32>
// CHECK: tcu.linear_recurrence %[[A]], %{{.*}}, %{{.*}} rows : vector<16x16xf32>, f32
// CHECK: tcu.load_tile <rows> {{.*}} order <lanes> : memref<?xf16>
// CHECK: tcu.linear_recurrence %[[A]], %{{.*}}, %{{.*}} exclusive order <lanes> : vector<16x16xf16>, f32
// CHECK: tcu.store_tile {{.*}} order <lanes>
// CHECK-NOT: tcu.mma
func.func @recurrence_form(%in: memref<?xf32>, %h: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 10 decay 0.9 {variant = #tcu.variant<seg16>, decay_form = #tcu.decay_form<recurrence>} : memref<?xf32> -> memref<?xf32>
  tcu.segmented_scan <add> exclusive %h into %out segment_size 100 decay 0.9 {variant = #tcu.variant<seg256>, decay_form = #tcu.decay_form<recurrence>} : memref<?xf16> -> memref<?xf32>
  return
}

// Packed (any constant S <= 256): a warp walks a group of whole segments
// (112 segments of 33 over 15 tiles) a tile at a time; the heads restart
// the recurrence where an element's place from the group's first is a
// multiple of S: from S = 8 on, a lane's eight places hold one head at
// most, so one remainder of the lane's first place (its position with the
// low three bits cleared) plus the slot says which. The decay is the
// scalar, or per-segment decays gathered by the lane's first segment and
// the next (a reverse scan counts from the buffer's end, so the offsets
// are negated); an exclusive scan selects 0 at the heads. Every tile is
// in the lanes order (loads, places, recurrence, stores). A reverse scan's
// tiles start `shift` = -phase mod 8 below the group's base, the phase
// being (the input's address in elements + n') mod 8, so that its mirrored
// lanes are aligned chunks; its places count from 100 (S, at least 8)
// before the base, which the segment index takes off again.
// CHECK-LABEL: func @packed
// CHECK-DAG: tcu.positions <rows> order <lanes>
// CHECK-DAG: tcu.positions <cols> order <lanes>
// CHECK-DAG: arith.andi %{{.*}}, %cst{{.*}} : vector<16x16xi32>
// CHECK: scf.parallel
// CHECK: arith.muli %{{.*}}, %c3696
// CHECK: scf.for %{{.*}} = %c0 to %c15 step %c1
// CHECK: tcu.load_tile <rows> %{{.*}} from %{{.*}} order <lanes>
// CHECK: arith.remui %{{.*}}, %{{.*}} : vector<16x16xi32>
// CHECK: %[[H:.*]] = arith.ori %{{.*}}, %{{.*}} : vector<16x16xi1>
// CHECK: tcu.linear_recurrence %{{.*}}, %{{.*}}, %{{.*}} heads %[[H]] exclusive order <lanes> : vector<16x16xf16>, f32
// CHECK: arith.select %[[H]]
// CHECK: tcu.store_tile {{.*}} order <lanes>
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[IN:.*]] : memref<?xf32> -> index
// CHECK: %[[ELTS:.*]] = arith.divui %[[PTR]], %c4
// CHECK: %[[PHASE:.*]] = arith.andi %{{.*}}, %c7
// CHECK: %[[NEG:.*]] = arith.subi %c0, %[[PHASE]]
// CHECK: %[[SHIFT:.*]] = arith.andi %[[NEG]], %c7
// CHECK: scf.parallel
// CHECK: %[[TILES:.*]] = arith.subi %{{.*}}, %[[SHIFT]] : index
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step
// CHECK: tcu.load_tile <rows> %[[IN]][%{{.*}}] stride %c16 line %c16 limit %{{.*}} from %{{.*}} mirror %{{.*}} order <lanes>
// CHECK: arith.subi %{{.*}}, %[[SHIFT]] : index
// CHECK: arith.divui %{{.*}}, %{{.*}} : vector<16x16xi32>
// CHECK: arith.subi %{{.*}}, %{{.*}} : vector<16x16xi32>
// CHECK: tcu.gather %{{.*}}[%{{.*}} + %{{.*}}] limit %{{.*}} : vector<16x16xi32>, memref<?xf32> -> vector<16x16xf32>
// CHECK: tcu.gather %{{.*}}[%{{.*}} + %{{.*}}] limit %{{.*}} : vector<16x16xi32>, memref<?xf32> -> vector<16x16xf32>
// CHECK: tcu.linear_recurrence %{{.*}}, %{{.*}}, %{{.*}} heads %{{.*}} order <lanes> : vector<16x16xf32>
// CHECK-NOT: tcu.mma
func.func @packed(%h: memref<?xf16>, %in: memref<?xf32>, %out: memref<?xf32>, %d: memref<?xf32>) {
  tcu.segmented_scan <add> exclusive %h into %out segment_size 33 decay 0.9 {variant = #tcu.variant<packed>, decay_form = #tcu.decay_form<recurrence>} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 100 decays %d {variant = #tcu.variant<packed>, decay_form = #tcu.decay_form<recurrence>} : memref<?xf32> -> memref<?xf32>
  return
}

// A runtime S (the packed class kernel: over 256 at launch) takes the
// largest group whose span is a multiple of 16 within 16 tiles, step ·
// max(1, 4096 / (step · S)) segments with step = 16 / gcd(S, 16) (the
// lowest set bit of S), and divides by S nowhere in the tiles: the tile's
// first place's remainder and quotient ride the loop (0 at the group's
// first tile), a lane's wraps past S once at most, and the next tile's
// remainder is this one's plus 256, wrapped once. The exclusive scan's
// last place is a head where the remainder plus 255 is S.
// CHECK-LABEL: func @packed_runtime
// CHECK-SAME: %[[S:[^:]*]]: index
// CHECK: %[[NEG:.*]] = arith.subi %c0, %[[S]] : index
// CHECK: %[[LOW:.*]] = arith.andi %[[S]], %[[NEG]] : index
// CHECK: %[[GCD:.*]] = arith.minsi %[[LOW]], %c16 : index
// CHECK: %[[STEP:.*]] = arith.divui %c16, %[[GCD]] : index
// CHECK: %[[SPAN:.*]] = arith.muli %[[STEP]], %[[S]] : index
// CHECK: %[[FIT:.*]] = arith.divui %c4096, %[[SPAN]] : index
// CHECK: %[[PER:.*]] = arith.maxui %[[FIT]], %c1 : index
// CHECK: %[[GROUP:.*]] = arith.muli %[[STEP]], %[[PER]] : index
// CHECK: scf.parallel
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%{{.*}} = %{{.*}}, %[[K:.*]] = %c0, %[[Q:.*]] = %c0) -> (f32, index, index)
// CHECK-NOT: arith.remui %{{.*}} : vector<16x16xi32>
// CHECK: arith.cmpi uge, %{{.*}}, %{{.*}} : vector<16x16xi32>
// CHECK: tcu.linear_recurrence
// CHECK: %[[LAST:.*]] = arith.addi %[[K]], %c255 : index
// CHECK: arith.cmpi eq, %[[LAST]], %[[S]] : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[K]], %c256 : index
// CHECK: %[[WRAP:.*]] = arith.cmpi uge, %[[NEXT]], %[[S]] : index
// CHECK: %[[QINC:.*]] = arith.index_castui %[[WRAP]] : i1 to index
// CHECK: arith.addi %[[Q]], %[[QINC]] : index
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}} : f32, index, index
func.func @packed_runtime(%in: memref<?xf16>, %out: memref<?xf32>, %s: index) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size %s decay 0.9 {variant = #tcu.variant<packed>, decay_form = #tcu.decay_form<recurrence>} : memref<?xf16> -> memref<?xf32>
  return
}

// A forward walk takes the lane phase where segments may leave the
// 8-element grid (a runtime S, or a constant one not a multiple of 8): its
// tiles start at the nearest base at or below the segment whose residue
// mod 8 is -(the input's address in elements) mod 8, `from` masking the
// rest; an aligned constant S keeps its tiles (no `from`).
// CHECK-LABEL: func @walk_phase
// CHECK-SAME: %[[IN:[^:]*]]: memref<?xf16>, %{{[^:]*}}: memref<?xf32>, %[[S:[^:]*]]: index
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: %[[ELTS:.*]] = arith.divui %[[PTR]], %c2 : index
// CHECK: %[[NEG:.*]] = arith.subi %c0, %[[ELTS]] : index
// CHECK: %[[PHASE:.*]] = arith.andi %[[NEG]], %c7 : index
// CHECK: scf.parallel
// CHECK: %[[BASE:.*]] = arith.muli %{{.*}}, %[[S]] : index
// CHECK: %[[UP:.*]] = arith.addi %[[BASE]], %c8 : index
// CHECK: %[[OFF:.*]] = arith.subi %[[UP]], %[[PHASE]] : index
// CHECK: %[[BELOW:.*]] = arith.andi %[[OFF]], %c7 : index
// CHECK: %[[ORIGIN:.*]] = arith.subi %[[BASE]], %[[BELOW]] : index
// CHECK: tcu.load_tile <rows> %[[IN]][%{{.*}}] {{.*}} from %[[BASE]] order <lanes>
// CHECK: scf.parallel
// CHECK: tcu.load_tile <rows> %[[IN]][%{{.*}}] stride %c16 line %c16 limit %{{.*}} order <lanes>
// CHECK: tcu.store_tile %{{.*}} limit %{{.*}} order <lanes>
func.func @walk_phase(%in: memref<?xf16>, %out: memref<?xf32>, %s: index) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s decay 0.9 {variant = #tcu.variant<seg256n>, decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 1} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1000 decay 0.9 {variant = #tcu.variant<seg256n>, decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 1} : memref<?xf16> -> memref<?xf32>
  return
}
