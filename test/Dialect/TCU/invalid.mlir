// One case per verifier rule of the tcu collectives, with its exact message.
// RUN: tcuc-opt %s -split-input-file -verify-diagnostics

func.func @input_rank(%in: memref<16x16xf16>, %out: memref<16xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op input must be a 1-D memref, got rank 2}}
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<16x16xf16> -> memref<16xf32>
  return
}

// -----

func.func @output_rank(%in: memref<16xf16>, %out: memref<f32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op output must be a 1-D memref, got rank 0}}
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<16xf16> -> memref<f32>
  return
}

// -----

func.func @input_stride(%in: memref<16xf16, strided<[2]>>, %out: memref<16xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op input must have unit stride (contiguous elements), got 'memref<16xf16, strided<[2]>>'}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 : memref<16xf16, strided<[2]>> -> memref<16xf32>
  return
}

// -----

func.func @output_stride(%in: memref<32xf16>, %out: memref<2xf32, strided<[4]>>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op output must have unit stride (contiguous elements), got 'memref<2xf32, strided<[4]>>'}}
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<32xf16> -> memref<2xf32, strided<[4]>>
  return
}

// -----

func.func @input_f64(%in: memref<16xf64>, %out: memref<1xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op input element type must be f16, bf16, f32 or i8 (signed, signless form), got 'f64'}}
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<16xf64> -> memref<1xf32>
  return
}

// -----

func.func @input_ui8(%in: memref<16xui8>, %out: memref<16xi32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op input element type must be f16, bf16, f32 or i8 (signed, signless form), got 'ui8'}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 : memref<16xui8> -> memref<16xi32>
  return
}

// -----

func.func @float_output_type(%in: memref<16xf16>, %out: memref<1xbf16>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op output element type must be f32 or the input element type 'f16', got 'bf16'}}
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<16xf16> -> memref<1xbf16>
  return
}

// -----

func.func @int_output_type(%in: memref<16xi8>, %out: memref<16xi8>) {
  // expected-error @+1 {{'tcu.segmented_scan' op output element type must be i32 for i8 input, got 'i8'}}
  tcu.segmented_scan <add> exclusive %in into %out segment_size 16 : memref<16xi8> -> memref<16xi8>
  return
}

// -----

func.func @segment_size_zero(%in: memref<16xf16>, %out: memref<16xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op segment_size must be >= 1, got 0}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 0 : memref<16xf16> -> memref<16xf32>
  return
}

// -----

func.func @segment_size_negative(%in: memref<16xf16>, %out: memref<1xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op segment_size must be >= 1, got -3}}
  tcu.segmented_reduce <add> %in into %out segment_size -3 : memref<16xf16> -> memref<1xf32>
  return
}

// -----

// Past 2^47 the kernels' index math (segment base + size, 16 segments'
// strides) could overflow 64 bits: refused, not miscompiled.
func.func @segment_size_too_large(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op segment_size must be <= 2^47 (140737488355328), got 140737488355329}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 140737488355329 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @reduce_length(%in: memref<1000xf16>, %out: memref<62xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op output has 62 elements but the input has ceil(1000 / 16) = 63 segments}}
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<1000xf16> -> memref<62xf32>
  return
}

// -----

func.func @scan_length(%in: memref<1000xf16>, %out: memref<999xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op output has 999 elements but the input has 1000 (a scan writes one result per element)}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 : memref<1000xf16> -> memref<999xf32>
  return
}

// -----

func.func @unknown_kind(%in: memref<16xf16>, %out: memref<1xf32>) {
  // expected-error @+2 {{expected ::mlir::tcu::CombinerKind to be one of: add}}
  // expected-error @+1 {{failed to parse TCU_CombinerKindAttr parameter 'value'}}
  tcu.segmented_reduce <mul> %in into %out segment_size 16 : memref<16xf16> -> memref<1xf32>
  return
}

// -----

func.func @unknown_scan_mode(%in: memref<16xf16>, %out: memref<16xf32>) {
  // expected-error @+1 {{expected 'inclusive' or 'exclusive', got 'sideways'}}
  tcu.segmented_scan <add> sideways %in into %out segment_size 16 : memref<16xf16> -> memref<16xf32>
  return
}

// -----

func.func @not_a_memref(%in: tensor<16xf16>, %out: memref<1xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op operand #0 must be memref of any type values, but got 'tensor<16xf16>'}}
  "tcu.segmented_reduce"(%in, %out) <{kind = #tcu.kind<add>, operandSegmentSizes = array<i32: 1, 1, 0, 0>, segment_size = 16 : i64}> : (tensor<16xf16>, memref<1xf32>) -> ()
  return
}

// -----

func.func @missing_inclusive(%in: memref<16xf16>, %out: memref<16xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op requires attribute 'inclusive'}}
  "tcu.segmented_scan"(%in, %out) <{kind = #tcu.kind<add>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>, segment_size = 16 : i64}> : (memref<16xf16>, memref<16xf32>) -> ()
  return
}

// -----

func.func @variant_too_small(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op variant 'seg16' needs segment_size <= 16, got segment_size 48}}
  tcu.segmented_reduce <add> %in into %out segment_size 48 {variant = #tcu.variant<seg16>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @stream_too_small(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op variant 'stream' needs 16 <= segment_size <= 2^24, got segment_size 10}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 10 {variant = #tcu.variant<stream>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @stream_reduce(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op variant 'stream' is a scan variant}}
  tcu.segmented_reduce <add> %in into %out segment_size 100 {variant = #tcu.variant<stream>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @matmulscan_reduce(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op variant 'matmulscan' is a scan variant (reductions use 'grid')}}
  tcu.segmented_reduce <add> %in into %out segment_size 100000 {variant = #tcu.variant<matmulscan>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @stream_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op variant 'stream' takes f16, bf16 or i8 input, got f32}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 {variant = #tcu.variant<stream>} : memref<?xf32> -> memref<?xf32>
  return
}

// -----

func.func @variant_wrong_op(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op variant 'seg16n_strided' is a reduction variant (scans use 'seg16n'), got segment_size 48}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 48 {variant = #tcu.variant<seg16n_strided>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @warps_without_block(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op warps_per_block applies to variants 'block', 'lookback' and 'lagged' only (the warps that share a segment), got 'grid'}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<grid>, warps_per_block = 8} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @warps_without_variant(%in: tensor<?xf16>, %init: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'tcu.reduce' op warps_per_block applies to variants 'block', 'lookback' and 'lagged' only (the warps that share a segment), got no variant}}
  %r = tcu.reduce <add> %in into %init segment_size 65536 {warps_per_block = 8} : tensor<?xf16> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

func.func @warps_not_a_power_of_two(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op attribute 'warps_per_block' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0 whose maximum value is 16}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<block>, warps_per_block = 12} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @warps_too_many(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op attribute 'warps_per_block' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0 whose maximum value is 16}}
  tcu.segmented_reduce <add> %in into %out segment_size 65536 {variant = #tcu.variant<block>, warps_per_block = 32} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// #tcu.chain_schedule: the single-pass scans' tuning, checked.

func.func @schedule_wrong_variant(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op schedule applies to variants 'lookback' and 'lagged' only, got 'block'}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<block>, schedule = #tcu.chain_schedule<>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @schedule_no_variant(%in: tensor<?xf16>, %init: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'tcu.scan' op schedule applies to variants 'lookback' and 'lagged' only, got no variant}}
  %r = tcu.scan <add> inclusive %in into %init segment_size 65536 {schedule = #tcu.chain_schedule<>} : tensor<?xf16> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

func.func @schedule_lookback_lag(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op a lookback scan's schedule takes prefetch_bytes only, got #tcu.chain_schedule<lag_bytes = 4096>}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lookback>, schedule = #tcu.chain_schedule<lag_bytes = 4096>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @schedule_quads_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op schedule quads needs f16 or bf16 input, got 'f32'}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, schedule = #tcu.chain_schedule<quads = true>} : memref<?xf32> -> memref<?xf32>
  return
}

// -----

func.func @schedule_walk_one_warp(%in: memref<?xi8>, %out: memref<?xi32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op schedule walk_tickets needs 2 warps per block or more (one warp draws the next ticket), got warps_per_block 1}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, warps_per_block = 1, schedule = #tcu.chain_schedule<walk_tickets = true>} : memref<?xi8> -> memref<?xi32>
  return
}

// -----

func.func @schedule_negative_prefetch(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{prefetch_bytes must be >= 0, got -1}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, schedule = #tcu.chain_schedule<prefetch_bytes = -1>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @schedule_zero_lag(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{lag_bytes must be >= 1, got 0}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, schedule = #tcu.chain_schedule<lag_bytes = 0>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @schedule_blocks(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{blocks_per_sm must be in [0, 32], got 33}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, schedule = #tcu.chain_schedule<blocks_per_sm = 33>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @schedule_walking_warps(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{walking_warps must be in [16, 2^20], got 8}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, schedule = #tcu.chain_schedule<walking_warps = 8>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @schedule_unknown_field(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{duplicate or unknown struct parameter name: lag}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 65536 {variant = #tcu.variant<lagged>, schedule = #tcu.chain_schedule<lag = 3>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// Operands live in the default memory space: the kernels take them as
// global-memory pointers (a workgroup or local memref was once compiled to
// ld.shared / st.local of a kernel parameter).

func.func @workgroup_input(%in: memref<?xf16, #gpu.address_space<workgroup>>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op input must be in the default memory space (the collectives read and write global memory), got 'memref<?xf16, #gpu.address_space<workgroup>>'}}
  tcu.segmented_reduce <add> %in into %out segment_size 16 : memref<?xf16, #gpu.address_space<workgroup>> -> memref<?xf32>
  return
}

// -----

func.func @numbered_spaces(%in: memref<?xf16, 3>, %out: memref<?xf32, 5>) {
  // expected-error @+1 {{'tcu.segmented_scan' op input must be in the default memory space (the collectives read and write global memory), got 'memref<?xf16, 3>'}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 : memref<?xf16, 3> -> memref<?xf32, 5>
  return
}

// -----

func.func @output_space(%in: memref<?xf16>, %out: memref<?xf32, 1>) {
  // expected-error @+1 {{'tcu.segmented_scan' op output must be in the default memory space (the collectives read and write global memory), got 'memref<?xf32, 1>'}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 : memref<?xf16> -> memref<?xf32, 1>
  return
}

// -----

func.func @runtime_segment_variant(%in: memref<?xf16>, %out: memref<?xf32>, %s: index) {
  // expected-error @+1 {{'tcu.segmented_scan' op variant 'block' needs a constant segment_size (a runtime size takes 'seg16', 'seg256', 'seg256n', 'packed', 'stream')}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s {variant = #tcu.variant<block>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @runtime_segment_reduce_variant(%in: memref<?xf16>, %out: memref<?xf32>, %s: index) {
  // expected-error @+1 {{'tcu.segmented_reduce' op variant 'grid' needs a constant segment_size (a runtime size takes 'seg16', 'seg256', 'seg256n', 'seg16n_strided')}}
  tcu.segmented_reduce <add> %in into %out segment_size %s {variant = #tcu.variant<grid>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @runtime_segment_stream_f32(%in: memref<?xf32>, %out: memref<?xf32>, %s: index) {
  // expected-error @+1 {{'tcu.segmented_scan' op variant 'stream' takes f16, bf16 or i8 input, got f32}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s {variant = #tcu.variant<stream>} : memref<?xf32> -> memref<?xf32>
  return
}

// -----

func.func @runtime_segment_sentinel(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op a runtime segment size needs both the index operand and segment_size = ShapedType::kDynamic (INT64_MIN)}}
  "tcu.segmented_reduce"(%in, %out) <{kind = #tcu.kind<add>, operandSegmentSizes = array<i32: 1, 1, 0, 0>, segment_size = -9223372036854775808 : i64}> : (memref<?xf16>, memref<?xf32>) -> ()
  return
}

// -----

// Offsets (CSR): i32 or i64, rank 1, contiguous, alone, with seg256n.
func.func @offsets_type(%in: memref<?xf16>, %off: memref<?xf32>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op offsets must hold i32 or i64, got 'f32'}}
  tcu.segmented_reduce <add> %in into %out offsets %off : memref<?xf16>, memref<?xf32> -> memref<?xf32>
  return
}

// -----

func.func @offsets_rank(%in: memref<?xf16>, %off: memref<2x5xi64>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op offsets must be a 1-D contiguous memref in the default memory space, got 'memref<2x5xi64>'}}
  tcu.segmented_reduce <add> %in into %out offsets %off : memref<?xf16>, memref<2x5xi64> -> memref<?xf32>
  return
}

// -----

func.func @offsets_strided(%in: memref<?xf16>, %off: memref<5xi64, strided<[2]>>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op offsets must be a 1-D contiguous memref in the default memory space}}
  tcu.segmented_scan <add> inclusive %in into %out offsets %off : memref<?xf16>, memref<5xi64, strided<[2]>> -> memref<?xf32>
  return
}

// -----

func.func @offsets_empty(%in: memref<?xf16>, %off: memref<0xi64>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op offsets must hold k+1 >= 1 entries (the first 0, the last n)}}
  tcu.segmented_reduce <add> %in into %out offsets %off : memref<?xf16>, memref<0xi64> -> memref<?xf32>
  return
}

// -----

func.func @offsets_variant(%in: memref<?xf16>, %off: memref<?xi64>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op variant 'seg16' does not take offsets (balanced and seg256n do)}}
  tcu.segmented_reduce <add> %in into %out offsets %off {variant = #tcu.variant<seg16>} : memref<?xf16>, memref<?xi64> -> memref<?xf32>
  return
}

// -----

func.func @offsets_output_length(%in: memref<?xf16>, %off: memref<5xi64>, %out: memref<5xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op output has 5 elements but 5 offsets make 4 segments}}
  tcu.segmented_reduce <add> %in into %out offsets %off : memref<?xf16>, memref<5xi64> -> memref<5xf32>
  return
}

// -----

func.func @offsets_warps(%in: memref<?xf16>, %off: memref<?xi32>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op warps_per_block applies to variants 'block', 'lookback' and 'lagged' only (the warps that share a segment), got no variant}}
  tcu.segmented_scan <add> inclusive %in into %out offsets %off {warps_per_block = 4 : i64} : memref<?xf16>, memref<?xi32> -> memref<?xf32>
  return
}

// -----

func.func @offsets_scan_length(%in: memref<100xf16>, %off: memref<3xi32>, %out: memref<99xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op output has 99 elements but the input has 100 (a scan writes one result per element)}}
  tcu.segmented_scan <add> inclusive %in into %out offsets %off : memref<100xf16>, memref<3xi32> -> memref<99xf32>
  return
}

// -----

func.func @balanced_without_offsets(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_reduce' op variant 'balanced' takes segments from offsets only}}
  tcu.segmented_reduce <add> %in into %out segment_size 100 {variant = #tcu.variant<balanced>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @balanced_runtime_size(%in: memref<?xf16>, %out: memref<?xf16>, %s: index) {
  // expected-error @+1 {{'tcu.segmented_scan' op variant 'balanced' takes segments from offsets only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s {variant = #tcu.variant<balanced>} : memref<?xf16> -> memref<?xf16>
  return
}

// -----

func.func @segment_ends_type(%r: vector<16x16xf16>, %off: memref<?xi64>, %i: index, %out: memref<?xf16>) -> index {
  // expected-error @+1 {{'tcu.store_segment_ends' op tile must hold f32 or i32 (an accumulator), got 'f16'}}
  %n = tcu.store_segment_ends %r, %off[%i, %i] base %i end %i, %out : vector<16x16xf16>, memref<?xi64> -> memref<?xf16>
  return %n : index
}

// -----

func.func @segment_ends_dest(%r: vector<16x16xi32>, %off: memref<?xi64>, %i: index, %out: memref<?xf32>) -> index {
  // expected-error @+1 {{'tcu.store_segment_ends' op cannot store 'i32' values into 'f32' (only f32 converts, to a float type)}}
  %n = tcu.store_segment_ends %r, %off[%i, %i] base %i end %i, %out : vector<16x16xi32>, memref<?xi64> -> memref<?xf32>
  return %n : index
}

// -----

func.func @offset_heads_type(%off: memref<?xi64>, %i: index) {
  // expected-error @+1 {{'tcu.offset_heads' op rows must be an i32 tile, got 'vector<16x16xf32>'}}
  %r, %n, %m = tcu.offset_heads %off[%i, %i] base %i : memref<?xi64> -> vector<16x16xf32>
  return
}

// -----

// `reverse` follows the scan mode.
func.func @reverse_before_mode(%in: memref<16xf16>, %out: memref<16xf32>) {
  // expected-error @+1 {{expected 'inclusive' or 'exclusive', got 'reverse'}}
  tcu.segmented_scan <add> reverse inclusive %in into %out segment_size 16 : memref<16xf16> -> memref<16xf32>
  return
}

// -----

// A reverse scan keeps the forward scan's type rules.
func.func @reverse_bad_output(%in: memref<?xi8>, %out: memref<?xf32>) {
  // expected-error @+1 {{output element type must be i32 for i8 input}}
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 16 : memref<?xi8> -> memref<?xf32>
  return
}
