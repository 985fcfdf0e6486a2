// Round trip of the tcu collectives: custom form, then again from the printed
// form, then through the generic form.
// RUN: tcuc-opt %s | FileCheck %s
// RUN: tcuc-opt %s | tcuc-opt | FileCheck %s
// RUN: tcuc-opt %s --mlir-print-op-generic | tcuc-opt | FileCheck %s
// RUN: tcuc-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @reduce_f16_static
// CHECK: tcu.segmented_reduce <add> %{{.*}} into %{{.*}} segment_size 16 : memref<1000xf16> -> memref<63xf32>
// GENERIC-LABEL: sym_name = "reduce_f16_static"
// GENERIC: "tcu.segmented_reduce"(%{{.*}}, %{{.*}}) <{kind = #tcu.kind<add>, operandSegmentSizes = array<i32: 1, 1, 0, 0>, segment_size = 16 : i64}> : (memref<1000xf16>, memref<63xf32>) -> ()
func.func @reduce_f16_static(%in: memref<1000xf16>, %out: memref<63xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<1000xf16> -> memref<63xf32>
  return
}

// CHECK-LABEL: func @reduce_bf16_dynamic_to_bf16
// CHECK: tcu.segmented_reduce <add> %{{.*}} into %{{.*}} segment_size 4097 : memref<?xbf16> -> memref<?xbf16>
func.func @reduce_bf16_dynamic_to_bf16(%in: memref<?xbf16>, %out: memref<?xbf16>) {
  tcu.segmented_reduce <add> %in into %out segment_size 4097 : memref<?xbf16> -> memref<?xbf16>
  return
}

// A segment longer than the input: one (short) segment.
// CHECK-LABEL: func @reduce_segment_longer_than_input
// CHECK: segment_size 1000 : memref<7xf32> -> memref<1xf32>
func.func @reduce_segment_longer_than_input(%in: memref<7xf32>, %out: memref<1xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 1000 : memref<7xf32> -> memref<1xf32>
  return
}

// Mixed static and dynamic lengths are accepted (checked at run time).
// CHECK-LABEL: func @reduce_i8_mixed
// CHECK: tcu.segmented_reduce <add> %{{.*}} into %{{.*}} segment_size 1 : memref<48xi8> -> memref<?xi32>
func.func @reduce_i8_mixed(%in: memref<48xi8>, %out: memref<?xi32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 1 : memref<48xi8> -> memref<?xi32>
  return
}

// An empty input has no segments.
// CHECK-LABEL: func @reduce_empty
// CHECK: memref<0xf16> -> memref<0xf32>
func.func @reduce_empty(%in: memref<0xf16>, %out: memref<0xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<0xf16> -> memref<0xf32>
  return
}

// Unit-stride views with an offset are contiguous too.
// CHECK-LABEL: func @reduce_strided_unit
// CHECK: memref<256xf16, strided<[1], offset: 64>> -> memref<1xf32>
func.func @reduce_strided_unit(%in: memref<256xf16, strided<[1], offset: 64>>, %out: memref<1xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 256 : memref<256xf16, strided<[1], offset: 64>> -> memref<1xf32>
  return
}

// CHECK-LABEL: func @scan_inclusive
// CHECK: tcu.segmented_scan <add> inclusive %{{.*}} into %{{.*}} segment_size 256 : memref<4096xf16> -> memref<4096xf16>
// GENERIC-LABEL: sym_name = "scan_inclusive"
// GENERIC: "tcu.segmented_scan"(%{{.*}}, %{{.*}}) <{inclusive = true, kind = #tcu.kind<add>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>, segment_size = 256 : i64}>
func.func @scan_inclusive(%in: memref<4096xf16>, %out: memref<4096xf16>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 256 : memref<4096xf16> -> memref<4096xf16>
  return
}

// CHECK-LABEL: func @scan_exclusive_dynamic
// CHECK: tcu.segmented_scan <add> exclusive %{{.*}} into %{{.*}} segment_size 48 : memref<?xi8> -> memref<?xi32>
// GENERIC-LABEL: sym_name = "scan_exclusive_dynamic"
// GENERIC: "tcu.segmented_scan"(%{{.*}}, %{{.*}}) <{inclusive = false, kind = #tcu.kind<add>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>, segment_size = 48 : i64}>
func.func @scan_exclusive_dynamic(%in: memref<?xi8>, %out: memref<?xi32>) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 48 : memref<?xi8> -> memref<?xi32>
  return
}

// CHECK-LABEL: func @scan_f32
// CHECK: tcu.segmented_scan <add> inclusive %{{.*}} into %{{.*}} segment_size 7 : memref<?xf32> -> memref<?xf32>
func.func @scan_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 7 : memref<?xf32> -> memref<?xf32>
  return
}

// The mma form's L with diagonal blocks and P with column blocks keep
// their block; the default (16) is not printed.
// CHECK-LABEL: func @matrix_block
// CHECK: tcu.matrix <L> block 4 : vector<16x16xf16>
// CHECK: tcu.matrix <L> : vector<16x16xf16>
// CHECK: tcu.matrix <P> block 2 : vector<16x16xi8>
// GENERIC-LABEL: sym_name = "matrix_block"
// GENERIC: "tcu.matrix"() <{block = 4 : i64, kind = #tcu.matrix<L>}>
func.func @matrix_block() -> (vector<16x16xf16>, vector<16x16xf16>, vector<16x16xi8>) {
  %a = tcu.matrix <L> block 4 : vector<16x16xf16>
  %b = tcu.matrix <L> block 16 : vector<16x16xf16>
  %c = tcu.matrix <P> block 2 : vector<16x16xi8>
  return %a, %b, %c : vector<16x16xf16>, vector<16x16xf16>, vector<16x16xi8>
}

// A warp's prefix over the warps of its block.
// CHECK-LABEL: func @block_prefix
// CHECK: tcu.block_prefix %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} of 8 : memref<16xf32>, f32
func.func @block_prefix(%v: f32, %m: memref<16xf32>, %o: index, %w: index) -> f32 {
  %p = tcu.block_prefix %v, %m[%o], %w of 8 : memref<16xf32>, f32
  return %p : f32
}

// A ticket, and a warp's prefix plus its chunk's look-back prefix.
// CHECK-LABEL: func @lookback
// CHECK: %[[Q:.*]] = tcu.ticket %{{.*}}[%{{.*}}] : memref<?xi64>
// CHECK: tcu.block_lookback %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} of 4, %{{.*}}[%[[Q]]] first %{{.*}} : memref<5xi32>, memref<?xi64>, i32
func.func @lookback(%v: i32, %m: memref<5xi32>, %s: memref<?xi64>, %o: index, %w: index) -> (i32, i32) {
  %q = tcu.ticket %s[%o] : memref<?xi64>
  %p, %c = tcu.block_lookback %v, %m[%o], %w of 4, %s[%q] first %o : memref<5xi32>, memref<?xi64>, i32
  return %p, %c : i32, i32
}

// A look-back that publishes into another chain (balanced: a run whose
// segment ends inside it starts the next chain).
// CHECK-LABEL: func @lookback_publish
// CHECK: tcu.block_lookback %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} of 1, %{{.*}}[%{{.*}}] first %{{.*}} publish %{{.*}} : memref<2xf32>, memref<?xi64>, f32
func.func @lookback_publish(%v: f32, %m: memref<2xf32>, %s: memref<?xi64>, %o: index, %q: index, %f: index) -> (f32, f32) {
  %p, %c = tcu.block_lookback %v, %m[%o], %o of 1, %s[%q] first %f publish %q : memref<2xf32>, memref<?xi64>, f32
  return %p, %c : f32, f32
}

// A tile's segment heads from offsets, and the sums at segment ends.
// CHECK-LABEL: func @offsets_ops
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = tcu.offset_heads %{{.*}}[%{{.*}}, %{{.*}}] base %{{.*}} : memref<?xi32> -> vector<16x16xi32>
// CHECK: tcu.store_segment_ends %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] base %{{.*}} end %{{.*}}, %{{.*}} order <quads> : vector<16x16xf32>, memref<?xi32> -> memref<?xf16>
func.func @offsets_ops(%off: memref<?xi32>, %lo: index, %hi: index, %base: index, %r: vector<16x16xf32>, %out: memref<?xf16>) -> (vector<16x16xi32>, index, index, index) {
  %rows, %next, %most = tcu.offset_heads %off[%lo, %hi] base %base : memref<?xi32> -> vector<16x16xi32>
  %w = tcu.store_segment_ends %r, %off[%lo, %hi] base %base end %next, %out order <quads> : vector<16x16xf32>, memref<?xi32> -> memref<?xf16>
  return %rows, %next, %most, %w : vector<16x16xi32>, index, index, index
}

// The lagged scan's block step: publish one chunk, complete an older one's
// look-back word, look back for a third.
// CHECK-LABEL: func @lagged
// CHECK: %{{.*}}, %{{.*}} = tcu.block_lagged_lookback %[[V:.*]], %[[R:.*]], %{{.*}}[%{{.*}}], %{{.*}} of 4, %{{.*}} publish[%[[T:.*]]] first %{{.*}} if %[[P:.*]], complete[%[[C:.*]]] first %{{.*}} if %[[K:.*]], prefix[%[[S:.*]]] first %{{.*}} if %[[L:.*]] : memref<9xf32>, memref<?xi64>, f32
func.func @lagged(%v: f32, %r: f32, %m: memref<9xf32>, %s: memref<?xi64>, %o: index, %w: index, %t: index, %tf: index, %p: i1, %u: index, %uf: index, %k: i1, %q: index, %qf: index, %l: i1) -> (f32, f32) {
  %b, %c = tcu.block_lagged_lookback %v, %r, %m[%o], %w of 4, %s publish[%t] first %tf if %p, complete[%u] first %uf if %k, prefix[%q] first %qf if %l : memref<9xf32>, memref<?xi64>, f32
  return %b, %c : f32, f32
}

// Its early read of a prefix's words, handed to the block step (`given`).
// CHECK-LABEL: func @lagged_given
// CHECK: %[[W:.*]] = tcu.lagged_prefix %{{.*}}[%{{.*}}] first %{{.*}} if %{{.*}} : memref<?xi64>
// CHECK: tcu.block_lagged_lookback {{.*}} prefix[%{{.*}}] first %{{.*}} if %{{.*}} given %[[W]] : memref<10xf32>, memref<?xi64>, f32
func.func @lagged_given(%v: f32, %r: f32, %m: memref<10xf32>, %s: memref<?xi64>, %o: index, %w: index, %t: index, %tf: index, %p: i1, %u: index, %uf: index, %k: i1, %q: index, %qf: index, %l: i1) -> (f32, f32) {
  %g = tcu.lagged_prefix %s[%q] first %qf if %l : memref<?xi64>
  %b, %c = tcu.block_lagged_lookback %v, %r, %m[%o], %w of 4, %s publish[%t] first %tf if %p, complete[%u] first %uf if %k, prefix[%q] first %qf if %l given %g : memref<10xf32>, memref<?xi64>, f32
  return %b, %c : f32, f32
}

// L2 hints on tile loads and stores; `normal` is the default, not printed.
// CHECK-LABEL: func @cache_hints
// CHECK: tcu.load_tile <rows> %{{.*}} limit %{{.*}} order <tile> cache <evict_last> :
// CHECK: tcu.load_tile <rows> %{{.*}} limit %{{.*}} :
// CHECK: tcu.store_tile %{{.*}} limit %{{.*}} cache <streaming> :
func.func @cache_hints(%in: memref<?xf16>, %out: memref<?xf32>, %i: index, %t: vector<16x16xf32>) -> (vector<16x16xf16>, vector<16x16xf16>) {
  %a = tcu.load_tile <rows> %in[%i] stride %i line %i limit %i order <tile> cache <evict_last> : memref<?xf16> -> vector<16x16xf16>
  %b = tcu.load_tile <rows> %in[%i] stride %i line %i limit %i cache <normal> : memref<?xf16> -> vector<16x16xf16>
  tcu.store_tile %t, %out[%i] stride %i line %i limit %i cache <streaming> : vector<16x16xf32> -> memref<?xf32>
  return %a, %b : vector<16x16xf16>, vector<16x16xf16>
}

// The quads element order on loads and stores, and the matrix that scans
// its rows.
// CHECK-LABEL: func @quads
// CHECK: tcu.load_tile <rows> %{{.*}} limit %{{.*}} order <quads> cache <evict_first> :
// CHECK: tcu.matrix <UQuads>
// CHECK: tcu.matrix <UstrictQuads>
// CHECK: tcu.store_tile %{{.*}} limit %{{.*}} order <quads> :
// CHECK: tcu.store_tile %{{.*}} limit %{{.*}} :
func.func @quads(%in: memref<?xf16>, %out: memref<?xf16>, %i: index, %t: vector<16x16xf32>) -> (vector<16x16xf16>, vector<16x16xf16>, vector<16x16xf16>) {
  %a = tcu.load_tile <rows> %in[%i] stride %i line %i limit %i order <quads> cache <evict_first> : memref<?xf16> -> vector<16x16xf16>
  %u = tcu.matrix <UQuads> : vector<16x16xf16>
  %s = tcu.matrix <UstrictQuads> : vector<16x16xf16>
  tcu.store_tile %t, %out[%i] stride %i line %i limit %i order <quads> : vector<16x16xf32> -> memref<?xf16>
  tcu.store_tile %t, %out[%i] stride %i line %i limit %i order <fixed> : vector<16x16xf32> -> memref<?xf16>
  return %a, %u, %s : vector<16x16xf16>, vector<16x16xf16>, vector<16x16xf16>
}

// The lanes element order on loads, stores and places.
// CHECK-LABEL: func @lanes
// CHECK: tcu.load_tile <rows> %{{.*}} limit %{{.*}} order <lanes> :
// CHECK: tcu.positions <rows> order <lanes> : vector<16x16xi32>
// CHECK: tcu.positions <cols> order <lanes> : vector<16x16xi32>
// CHECK: tcu.store_tile %{{.*}} limit %{{.*}} order <lanes> :
func.func @lanes(%in: memref<?xf16>, %out: memref<?xf32>, %i: index, %t: vector<16x16xf32>) -> (vector<16x16xf16>, vector<16x16xi32>, vector<16x16xi32>) {
  %a = tcu.load_tile <rows> %in[%i] stride %i line %i limit %i order <lanes> : memref<?xf16> -> vector<16x16xf16>
  %p = tcu.positions <rows> order <lanes> : vector<16x16xi32>
  %q = tcu.positions <cols> order <lanes> : vector<16x16xi32>
  tcu.store_tile %t, %out[%i] stride %i line %i limit %i order <lanes> : vector<16x16xf32> -> memref<?xf32>
  return %a, %p, %q : vector<16x16xf16>, vector<16x16xi32>, vector<16x16xi32>
}

// An L2 prefetch hint over a range of any 1-D buffer.
// CHECK-LABEL: func @prefetch
// CHECK: tcu.prefetch %{{.*}}[%{{.*}}], %{{.*}} : memref<?xi8>
// CHECK: tcu.prefetch %{{.*}}[%{{.*}}], %{{.*}} cache <evict_last> : memref<?xi8>
// CHECK: tcu.prefetch %{{.*}}[%{{.*}}], %{{.*}} : memref<?xi8>
func.func @prefetch(%in: memref<?xi8>, %o: index, %n: index) {
  tcu.prefetch %in[%o], %n : memref<?xi8>
  tcu.prefetch %in[%o], %n cache <evict_last> : memref<?xi8>
  tcu.prefetch %in[%o], %n cache <normal> : memref<?xi8>
  return
}

// Row sums over blocks of columns and a row stored one column a block.
// CHECK-LABEL: func @column_blocks
// The defaults (block 16, step 1) are not printed.
// CHECK: %[[S:.*]] = tcu.row_sums %[[V:[a-z0-9_]+]] block 4 : vector<16x16xf32>
// CHECK: tcu.row_sums %[[V]] : vector<16x16xf32>
// CHECK: tcu.store_row %[[S]][0], %[[OUT:[a-z0-9_]+]][%[[O:[a-z0-9_]+]]] limit %[[O]] step 4 : vector<16x16xf32> -> memref<?xf32>
// CHECK: tcu.store_row %[[S]][1], %[[OUT]][%[[O]]] limit %[[O]] : vector<16x16xf32> -> memref<?xf32>
func.func @column_blocks(%v: vector<16x16xf32>, %out: memref<?xf32>, %o: index) {
  %s = tcu.row_sums %v block 4 : vector<16x16xf32>
  %t = tcu.row_sums %v block 16 : vector<16x16xf32>
  tcu.store_row %s[0], %out[%o] limit %o step 4 : vector<16x16xf32> -> memref<?xf32>
  tcu.store_row %s[1], %out[%o] limit %o step 1 : vector<16x16xf32> -> memref<?xf32>
  return
}

// The streaming scan's pieces: the elements' places in a tile, and a store
// that writes nothing below `from`.
// CHECK-LABEL: func @positions_and_from
// CHECK: tcu.positions <rows> : vector<16x16xi32>
// CHECK: tcu.positions <cols> : vector<16x16xi32>
// CHECK: tcu.store_tile %{{.*}} limit %{{.*}} from %{{.*}} order <quads> :
func.func @positions_and_from(%out: memref<?xf32>, %i: index, %t: vector<16x16xf32>) -> vector<16x16xi32> {
  %p = tcu.positions <rows> : vector<16x16xi32>
  %q = tcu.positions <cols> : vector<16x16xi32>
  tcu.store_tile %t, %out[%i] stride %i line %i limit %i from %i order <quads> : vector<16x16xf32> -> memref<?xf32>
  return %p : vector<16x16xi32>
}

// A runtime segment size: an index operand instead of the integer.
// CHECK-LABEL: func @runtime_segment
// CHECK: tcu.segmented_reduce <add> %{{.*}} into %{{.*}} segment_size %[[S:.*]] : memref<?xf16> -> memref<?xf32>
// CHECK: tcu.segmented_scan <add> exclusive %{{.*}} into %{{.*}} segment_size %[[S]] {variant = #tcu.variant<stream>} : memref<?xi8> -> memref<?xi32>
func.func @runtime_segment(%in: memref<?xf16>, %out: memref<?xf32>, %s: index,
                           %in8: memref<?xi8>, %out32: memref<?xi32>) {
  tcu.segmented_reduce <add> %in into %out segment_size %s : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> exclusive %in8 into %out32 segment_size %s {variant = #tcu.variant<stream>} : memref<?xi8> -> memref<?xi32>
  return
}

// Segments from offsets (CSR): k+1 = 4 i64 offsets, 3 sums.
// CHECK-LABEL: func @reduce_offsets
// CHECK: tcu.segmented_reduce <add> %{{.*}} into %{{.*}} offsets %{{.*}} : memref<?xf16>, memref<4xi64> -> memref<3xf32>
// GENERIC-LABEL: sym_name = "reduce_offsets"
// GENERIC: "tcu.segmented_reduce"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = #tcu.kind<add>, operandSegmentSizes = array<i32: 1, 1, 0, 1>, segment_size = -9223372036854775808 : i64}> : (memref<?xf16>, memref<3xf32>, memref<4xi64>) -> ()
func.func @reduce_offsets(%in: memref<?xf16>, %off: memref<4xi64>, %out: memref<3xf32>) {
  tcu.segmented_reduce <add> %in into %out offsets %off : memref<?xf16>, memref<4xi64> -> memref<3xf32>
  return
}

// CHECK-LABEL: func @scan_offsets_i32
// CHECK: tcu.segmented_scan <add> exclusive %{{.*}} into %{{.*}} offsets %{{.*}} {tiles_per_warp = 2 : i64} : memref<?xi8>, memref<?xi32> -> memref<?xi32>
func.func @scan_offsets_i32(%in: memref<?xi8>, %off: memref<?xi32>, %out: memref<?xi32>) {
  tcu.segmented_scan <add> exclusive %in into %out offsets %off {tiles_per_warp = 2 : i64} : memref<?xi8>, memref<?xi32> -> memref<?xi32>
  return
}

// One element a tile element from a buffer, by offsets from a base.
// CHECK-LABEL: func @gather
// CHECK: tcu.gather %{{.*}}[%{{.*}} + %{{.*}}] limit %{{.*}} : vector<16x16xi32>, memref<?xf32> -> vector<16x16xf32>
func.func @gather(%d: memref<?xf32>, %base: index, %i: vector<16x16xi32>, %k: index) -> vector<16x16xf32> {
  %r = tcu.gather %d[%base + %i] limit %k : vector<16x16xi32>, memref<?xf32> -> vector<16x16xf32>
  return %r : vector<16x16xf32>
}

// The recurrence h = a·h + x over a tile (tile order, or each row alone),
// inclusive or exclusive; 16-bit sources are widened.
// Whether a tile (and a carry) is finite and not huge: the decayed scans'
// guard of their exact path.
// CHECK-LABEL: func @all_finite
// CHECK: tcu.all_finite %{{.*}} : vector<16x16xf16>
// CHECK: tcu.all_finite %{{.*}}, %{{.*}} : vector<16x16xf32>
func.func @all_finite(%x: vector<16x16xf16>, %y: vector<16x16xf32>, %h: f32) -> (i1, i1) {
  %a = tcu.all_finite %x : vector<16x16xf16>
  %b = tcu.all_finite %y, %h : vector<16x16xf32>
  return %a, %b : i1, i1
}

// CHECK-LABEL: func @linear_recurrence
// CHECK: tcu.linear_recurrence %{{.*}}, %{{.*}}, %{{.*}} : vector<16x16xf16>
// CHECK: tcu.linear_recurrence %{{.*}}, %{{.*}}, %{{.*}} rows exclusive : vector<16x16xf32>
// CHECK: tcu.linear_recurrence %{{.*}}, %{{.*}}, %{{.*}} exclusive order <lanes> : vector<16x16xf32>
// A scalar decay (its type printed after the source's) and heads.
// CHECK: tcu.linear_recurrence %{{.*}}, %{{.*}}, %{{.*}} heads %{{.*}} order <lanes> : vector<16x16xf16>, f32
// CHECK: tcu.linear_recurrence %{{.*}}, %{{.*}}, %{{.*}} heads %{{.*}} : vector<16x16xf32>
func.func @linear_recurrence(%a: vector<16x16xf32>, %x: vector<16x16xf16>, %y: vector<16x16xf32>, %h: f32, %m: vector<16x16xi1>) -> (vector<16x16xf32>, vector<16x16xf32>) {
  %r = tcu.linear_recurrence %a, %x, %h : vector<16x16xf16>
  %e = tcu.linear_recurrence %a, %y, %h rows exclusive : vector<16x16xf32>
  %l = tcu.linear_recurrence %a, %y, %h exclusive order <lanes> : vector<16x16xf32>
  %s = tcu.linear_recurrence %h, %x, %h heads %m order <lanes> : vector<16x16xf16>, f32
  %t = tcu.linear_recurrence %a, %y, %h heads %m : vector<16x16xf32>
  return %r, %e : vector<16x16xf32>, vector<16x16xf32>
}
