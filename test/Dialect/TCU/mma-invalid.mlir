// Verifier rules of the mma-form operations.
// RUN: tcuc-opt %s -split-input-file -verify-diagnostics

func.func @mma_f32_operand(%a: vector<16x16xf32>, %c: vector<16x16xf32>) -> vector<16x16xf32> {
  // expected-error @+1 {{'tcu.mma' op operand element type must be f16, bf16 or i8 (tcu.split an f32/i32 tile first), got 'f32'}}
  %r = tcu.mma %a, %a, %c : vector<16x16xf32>, vector<16x16xf32> into vector<16x16xf32>
  return %r : vector<16x16xf32>
}

// -----

func.func @mma_acc(%a: vector<16x16xi8>, %c: vector<16x16xf32>) -> vector<16x16xf32> {
  // expected-error @+1 {{'tcu.mma' op accumulator element type must be 'i32' for 'i8' operands, got 'f32'}}
  %r = tcu.mma %a, %a, %c : vector<16x16xi8>, vector<16x16xi8> into vector<16x16xf32>
  return %r : vector<16x16xf32>
}

// -----

func.func @split_parts(%x: vector<16x16xf32>) {
  // expected-error @+1 {{'tcu.split' op splitting 'f32' yields 3 parts, got 2}}
  %p:2 = tcu.split %x : vector<16x16xf32> -> vector<16x16xbf16>, vector<16x16xbf16>
  return
}

// -----

func.func @matrix_type() {
  // expected-error @+1 {{'tcu.matrix' op constant matrices are mma operands: element type must be f16, bf16 or i8, got 'f32'}}
  %m = tcu.matrix <P> : vector<16x16xf32>
  return
}

// -----

func.func @matrix_block_kind() {
  // expected-error @+1 {{'tcu.matrix' op only L and P take a block size, got 4 for U}}
  %m = tcu.matrix <U> block 4 : vector<16x16xf16>
  return
}

// -----

func.func @matrix_block_range() {
  // expected-error @+1 {{attribute 'block' failed to satisfy constraint}}
  %m = tcu.matrix <L> block 17 : vector<16x16xf16>
  return
}

// -----

func.func @load_type(%m: memref<?xf16>, %i: index) {
  // expected-error @+1 {{'tcu.load_tile' op tile element type 'bf16' must match the buffer's 'f16'}}
  %t = tcu.load_tile <rows> %m[%i] stride %i line %i limit %i : memref<?xf16> -> vector<16x16xbf16>
  return
}

// -----

func.func @load_unknown_order(%m: memref<?xf16>, %i: index) {
  // expected-error @+2 {{expected ::mlir::tcu::ElementOrder to be one of: fixed, line, tile}}
  // expected-error @+1 {{failed to parse TCU_ElementOrderAttr parameter 'value'}}
  %t = tcu.load_tile <rows> %m[%i] stride %i line %i limit %i order <sideways> : memref<?xf16> -> vector<16x16xf16>
  return
}

// -----

func.func @store_row_index(%t: vector<16x16xf32>, %m: memref<?xf32>, %i: index) {
  // expected-error @+1 {{'tcu.store_row' op row must be in [0, 16), got 16}}
  tcu.store_row %t[16], %m[%i] limit %i : vector<16x16xf32> -> memref<?xf32>
  return
}

// -----

func.func @block_prefix_warps(%v: f32, %m: memref<16xf32>, %i: index) {
  // expected-error @+1 {{'tcu.block_prefix' op warps must be in [1, 32], got 64}}
  %p = tcu.block_prefix %v, %m[%i], %i of 64 : memref<16xf32>, f32
  return
}

// -----

func.func @block_prefix_type(%v: f32, %m: memref<16xi32>, %i: index) {
  // expected-error @+1 {{'tcu.block_prefix' op buffer element type 'i32' differs from the value's 'f32'}}
  %p = tcu.block_prefix %v, %m[%i], %i of 8 : memref<16xi32>, f32
  return
}

// -----

func.func @block_lookback_warps(%v: f32, %m: memref<16xf32>, %s: memref<?xi64>, %i: index) {
  // expected-error @+1 {{'tcu.block_lookback' op warps must be in [1, 32], got 0}}
  %p, %c = tcu.block_lookback %v, %m[%i], %i of 0, %s[%i] first %i : memref<16xf32>, memref<?xi64>, f32
  return
}

// -----

func.func @block_lagged_lookback_warps(%v: f32, %m: memref<16xf32>, %s: memref<?xi64>, %i: index, %b: i1) {
  // expected-error @+1 {{'tcu.block_lagged_lookback' op warps must be in [1, 32], got 33}}
  %p, %c = tcu.block_lagged_lookback %v, %v, %m[%i], %i of 33, %s publish[%i] first %i if %b, complete[%i] first %i if %b, prefix[%i] first %i if %b : memref<16xf32>, memref<?xi64>, f32
  return
}

// -----

func.func @load_tile_cache(%m: memref<?xf16>, %i: index) {
  // expected-error @+2 {{expected ::mlir::tcu::CacheHint to be one of: normal, evict_last, evict_first, streaming}}
  // expected-error @+1 {{failed to parse TCU_CacheHintAttr parameter 'value'}}
  %t = tcu.load_tile <rows> %m[%i] stride %i line %i limit %i cache <keep> : memref<?xf16> -> vector<16x16xf16>
  return
}

// -----

func.func @block_lookback_type(%v: i32, %m: memref<16xf32>, %s: memref<?xi64>, %i: index) {
  // expected-error @+1 {{'tcu.block_lookback' op buffer element type 'f32' differs from the value's 'i32'}}
  %p, %c = tcu.block_lookback %v, %m[%i], %i of 4, %s[%i] first %i : memref<16xf32>, memref<?xi64>, i32
  return
}

// -----

func.func @prefetch_2d(%in: memref<4x4xf16>, %o: index) {
  // expected-error @+1 {{'tcu.prefetch' op operand #0 must be 1D memref of any type values}}
  tcu.prefetch %in[%o], %o : memref<4x4xf16>
  return
}

// -----

func.func @prefetch_evict_first(%in: memref<?xf16>, %o: index) {
  // expected-error @+1 {{'tcu.prefetch' op cache hint evict_first has no prefetch form (normal or evict_last)}}
  tcu.prefetch %in[%o], %o cache <evict_first> : memref<?xf16>
  return
}

// -----

func.func @row_sums_block(%t: vector<16x16xf32>) {
  // expected-error @+1 {{'tcu.row_sums' op block must be 1, 2, 4, 8 or 16, got 3}}
  %s = tcu.row_sums %t block 3 : vector<16x16xf32>
  return
}

// -----

func.func @store_row_step(%t: vector<16x16xf32>, %m: memref<?xf32>, %i: index) {
  // expected-error @+1 {{'tcu.store_row' op step must be 1, 2, 4, 8 or 16, got 32}}
  tcu.store_row %t[0], %m[%i] limit %i step 32 : vector<16x16xf32> -> memref<?xf32>
  return
}

// -----

func.func @quads_cols(%in: memref<?xf16>, %i: index) -> vector<16x16xf16> {
  // expected-error @+1 {{'tcu.load_tile' op order <quads> needs the <rows> layout}}
  %a = tcu.load_tile <cols> %in[%i] stride %i line %i limit %i order <quads> : memref<?xf16> -> vector<16x16xf16>
  return %a : vector<16x16xf16>
}

// -----

func.func @lanes_cols(%in: memref<?xf16>, %i: index) -> vector<16x16xf16> {
  // expected-error @+1 {{'tcu.load_tile' op order <lanes> needs the <rows> layout}}
  %a = tcu.load_tile <cols> %in[%i] stride %i line %i limit %i order <lanes> : memref<?xf16> -> vector<16x16xf16>
  return %a : vector<16x16xf16>
}

// -----

func.func @recurrence_lanes_rows(%a: vector<16x16xf32>, %x: vector<16x16xf32>, %h: f32) {
  // expected-error @+1 {{'tcu.linear_recurrence' op order <lanes> runs over the whole tile, not `rows`}}
  %r = tcu.linear_recurrence %a, %x, %h rows order <lanes> : vector<16x16xf32>
  return
}

// -----

func.func @recurrence_quads(%a: vector<16x16xf32>, %x: vector<16x16xf32>, %h: f32) {
  // expected-error @+1 {{'tcu.linear_recurrence' op order must be fixed or lanes, got quads}}
  %r = tcu.linear_recurrence %a, %x, %h order <quads> : vector<16x16xf32>
  return
}

// -----

func.func @store_order_line(%out: memref<?xf32>, %t: vector<16x16xf32>, %i: index) {
  // expected-error @+1 {{'tcu.store_tile' op a store's order must be fixed, quads or lanes, got line}}
  tcu.store_tile %t, %out[%i] stride %i line %i limit %i order <line> : vector<16x16xf32> -> memref<?xf32>
  return
}

// -----

func.func @split_check_tiny_i32(%x: vector<16x16xi32>) {
  // expected-error @+1 {{'tcu.split' op check_tiny applies to f32 tiles only, got 'i32'}}
  %p:5 = tcu.split %x {check_tiny} : vector<16x16xi32> -> vector<16x16xi8>, vector<16x16xi8>, vector<16x16xi8>, vector<16x16xi8>, vector<16x16xi8>
  return
}

// -----

func.func @positions_f32() {
  // expected-error @+1 {{'tcu.positions' op result must be an i32 tile, got 'vector<16x16xf32>'}}
  %p = tcu.positions <rows> : vector<16x16xf32>
  return
}

// -----

func.func @recurrence_i8(%a: vector<16x16xf32>, %x: vector<16x16xi8>, %h: f32) {
  // expected-error @+1 {{'tcu.linear_recurrence' op source must be an f16, bf16 or f32 tile, got 'vector<16x16xi8>'}}
  %r = tcu.linear_recurrence %a, %x, %h : vector<16x16xi8>
  return
}

// -----

func.func @recurrence_f16_decays(%a: vector<16x16xf16>, %x: vector<16x16xf16>, %h: f32) {
  // expected-error @+1 {{'tcu.linear_recurrence' op operand #0 must be 16x16 f32 tile or 32-bit float, but got 'vector<16x16xf16>'}}
  %r = "tcu.linear_recurrence"(%a, %x, %h) : (vector<16x16xf16>, vector<16x16xf16>, f32) -> vector<16x16xf32>
  return
}

// -----

func.func @recurrence_f16_decay(%a: f16, %x: vector<16x16xf16>, %h: f32) {
  // expected-error @+1 {{'tcu.linear_recurrence' op operand #0 must be 16x16 f32 tile or 32-bit float, but got 'f16'}}
  %r = "tcu.linear_recurrence"(%a, %x, %h) : (f16, vector<16x16xf16>, f32) -> vector<16x16xf32>
  return
}

// -----

func.func @recurrence_heads_f32(%a: f32, %x: vector<16x16xf16>, %h: f32, %m: vector<16x16xf32>) {
  // expected-error @+1 {{'tcu.linear_recurrence' op operand #3 must be 16x16 i1 tile, but got 'vector<16x16xf32>'}}
  %r = "tcu.linear_recurrence"(%a, %x, %h, %m) : (f32, vector<16x16xf16>, f32, vector<16x16xf32>) -> vector<16x16xf32>
  return
}

// -----

func.func @gather_indices(%d: memref<?xf32>, %base: index, %i: vector<16x16xi64>, %k: index) {
  // expected-error @+1 {{'tcu.gather' op indices must be an i32 tile, got 'vector<16x16xi64>'}}
  %r = tcu.gather %d[%base + %i] limit %k : vector<16x16xi64>, memref<?xf32> -> vector<16x16xf32>
  return
}

// -----

func.func @gather_type(%d: memref<?xf32>, %base: index, %i: vector<16x16xi32>, %k: index) {
  // expected-error @+1 {{'tcu.gather' op result element type 'f16' must match the buffer's 'f32'}}
  %r = tcu.gather %d[%base + %i] limit %k : vector<16x16xi32>, memref<?xf32> -> vector<16x16xf16>
  return
}

// -----

func.func @all_finite_i8(%x: vector<16x16xi8>) -> i1 {
  // expected-error @+1 {{'tcu.all_finite' op source must be an f16, bf16 or f32 tile, got 'vector<16x16xi8>'}}
  %r = tcu.all_finite %x : vector<16x16xi8>
  return %r : i1
}
