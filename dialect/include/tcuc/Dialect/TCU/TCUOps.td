//===- TCUOps.td - tcu collective operations ---------------*- tablegen -*-===//

#ifndef TCUC_DIALECT_TCU_TCUOPS_TD
#define TCUC_DIALECT_TCU_TCUOPS_TD

include "tcuc/Dialect/TCU/TCUBase.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Tiles one warp keeps in flight (loads issued before any product).
def TCU_TilesPerWarpAttr : ConfinedAttr<I64Attr, [IntMinValue<1>,
                                                  IntMaxValue<8>]>;
// Warps of a block that share one segment in the `block` variant.
def TCU_WarpsPerBlockAttr : ConfinedAttr<I64Attr, [IntPositivePowerOf2,
                                                   IntMaxValue<16>]>;

// The scans' `decay` accessor (tcu.segmented_scan and tcu.scan).
defvar TCU_DecayDeclaration = [{
  /// The decay a of a decayed scan (h = a·h + x), or std::nullopt for a
  /// plain scan: `decay` absent or 1.
  std::optional<double> getDecayFactor() {
    std::optional<::llvm::APFloat> a = getDecay();
    if (!a || a->isExactlyValue(1.0))
      return std::nullopt;
    return a->convertToDouble();
  }
}];

class TCU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TCU_Dialect, mnemonic, traits>;

// Shared by the two collectives: same operands, same type rules (checked by
// verifySegmentedCollective in TCUOps.cpp).
class TCU_SegmentedCollectiveOp<string mnemonic, list<Trait> traits = []>
    : TCU_Op<mnemonic, traits> {
  code commonExtraClassDeclaration = [{
    ::mlir::MemRefType getInputType() {
      return ::llvm::cast<::mlir::MemRefType>(getInput().getType());
    }
    ::mlir::MemRefType getOutputType() {
      return ::llvm::cast<::mlir::MemRefType>(getOutput().getType());
    }
    /// Whether the segment size is the `index` operand (a runtime value)
    /// rather than the `segment_size` attribute.
    bool hasRuntimeSegmentSize() { return getDynamicSegmentSize() != nullptr; }
    /// Whether the segments come from the `offsets` operand (CSR: k+1
    /// offsets, k segments) rather than from one size.
    bool hasOffsets() { return getOffsets() != nullptr; }
    /// The variant named by the `variant` attribute, or the default for
    /// this segment size (seg256n, which takes any, for a runtime size;
    /// balanced for offsets).
    ::mlir::tcu::Variant getVariantOrDefault() {
      if (auto v = getVariant())
        return *v;
      if (hasOffsets())
        return ::mlir::tcu::Variant::Balanced;
      if (hasRuntimeSegmentSize())
        return ::mlir::tcu::Variant::Seg256N;
      return ::mlir::tcu::getDefaultVariant(getSegmentSize());
    }
    /// `tiles_per_warp`, or 1.
    int64_t getTilesPerWarpOrDefault() {
      return getTilesPerWarp().value_or(1);
    }
    /// `warps_per_block`, or 0 for the variant's own choice.
    int64_t getWarpsPerBlockOrZero() {
      return getWarpsPerBlock().value_or(0);
    }
    /// The type every partial sum is kept in: f32 for float inputs, i32 for
    /// i8 inputs.
    ::mlir::Type getAccumulatorType() {
      return ::mlir::tcu::getAccumulatorType(getInputType().getElementType());
    }
  }];
}

def TCU_SegmentedReduceOp : TCU_SegmentedCollectiveOp<"segmented_reduce",
    [AttrSizedOperandSegments]> {
  let summary = "combines each segment of a 1-D buffer into one value";
  let description = [{
    Cuts `input` (n elements) into consecutive segments of `segment_size`
    elements and writes the combination of segment `i` to `output[i]`. The
    last segment holds `n mod segment_size` elements when that is not zero,
    so `output` has `ceil(n / segment_size)` elements.

    The segment size is a constant (`segment_size 16`) or an `index` value
    (`segment_size %s`, a runtime size): one kernel then serves every size
    its variant takes, `seg16` (1..16), `seg256` (1..256), `seg256n` (any;
    the default without a variant) and `seg16n_strided` (any); other
    variants need a constant.
    The kernels do not check a runtime size against that range: the tcuc
    runtime does before it launches (the kernel file's `tcuc.segment`).

    Segments of any lengths come as `offsets %off`: a 1-D buffer of k+1
    nondecreasing `i32` or `i64` offsets, the first 0 and the last n (the
    CSR convention), segment `i` being `input[off[i] .. off[i+1])`; `output`
    has k elements, and an empty segment gives 0. Only `seg256n` (each
    segment walked by its own warp) takes offsets so far. The kernel does
    not check the offsets; it clamps each to [0, n] and each end to at least
    its start, so it never reads or writes out of bounds, and the results of
    offsets that break the rules are unspecified.

    Types: the input element type is `f16`, `bf16`, `f32` or `i8`.
    Float inputs accumulate in `f32`; the output element type is `f32` or the
    input element type (the `f32` sum is rounded once, at the store). `i8`
    inputs are signed and accumulate exactly in `i32`; the output is `i32`.
    Both operands are rank-1 memrefs with unit stride; their lengths may be
    static or dynamic, and when both are static they must agree.

    The optional `variant` picks the algorithm (`#tcu.variant<...>`); without
    it `convert-tcu-to-mma` picks one by segment size. Reductions accept
    `seg16` (segment_size <= 16), `seg256` (<= 256), `seg256n`,
    `seg16n_strided`, `seg16n_coalesced`, `block`, `grid` and `packed` (a
    multiple of 16, at most 256).

    The optional `tiles_per_warp` (1..8, default 1) is how many tiles a warp
    loads before it multiplies any of them: more loads in flight per warp,
    more registers. In the variants that stream a run of tiles (seg256n,
    seg16n_coalesced, block, grid) they are k tiles of the run;
    seg16 and seg256 give a warp k tiles of segments (16 per tile in seg16,
    one in seg256, 16/m of m rows in packed); seg16n_strided loads k steps of its 16 segments at
    once. `tcu-select-strategy` sets it with the variant. It does not change
    the result.

    The optional `warps_per_block` (a power of two, 1..16) is how many warps
    of a block share one segment in the `block` variant, or one chunk in the
    `lookback` and `lagged` scans (the GPU block is that many warps); it is
    an error with any other variant. Without it the block reduction and the
    look-back scan use 16 warps, the lagged scan 4, and the block scan a
    rule in the segment size and input width (`blockScanWarps`).
    `tcu-select-strategy` sets it where its table has a measured value. It
    does not change the result.

    Example:

    ```mlir
    // 1000 halves in segments of 16: 62 full segments and one of 8.
    tcu.segmented_reduce <add> %in into %out segment_size 16
        : memref<1000xf16> -> memref<63xf32>
    // Segments of any lengths: k + 1 = 4 offsets, 3 segments.
    tcu.segmented_reduce <add> %in into %sums offsets %off
        : memref<?xf16>, memref<4xi64> -> memref<3xf32>
    ```
  }];
  let arguments = (ins
    TCU_CombinerKindAttr:$kind,
    Arg<AnyMemRef, "the elements to reduce", [MemRead]>:$input,
    Arg<AnyMemRef, "one result per segment", [MemWrite]>:$output,
    Optional<Index>:$dynamic_segment_size,
    Arg<Optional<AnyMemRef>, "k+1 segment offsets (CSR)", [MemRead]>:$offsets,
    I64Attr:$segment_size,
    OptionalAttr<TCU_VariantAttr>:$variant,
    OptionalAttr<TCU_TilesPerWarpAttr>:$tiles_per_warp,
    OptionalAttr<TCU_WarpsPerBlockAttr>:$warps_per_block
  );
  let assemblyFormat = [{
    $kind $input `into` $output
    custom<Segments>($dynamic_segment_size, $offsets, $segment_size)
    attr-dict
    `:` type($input) (`,` type($offsets)^)? `->` type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = commonExtraClassDeclaration;
}

def TCU_SegmentedScanOp : TCU_SegmentedCollectiveOp<"segmented_scan",
    [AttrSizedOperandSegments]> {
  let summary = "prefix-combines every segment of a 1-D buffer";
  let description = [{
    Cuts `input` (n elements) into consecutive segments of `segment_size`
    elements (the last may be shorter) and writes, for every element, the
    combination of the elements of its segment up to it: including itself
    when `inclusive` is true, strictly before it when false (the first
    element of each segment then gets the identity, 0). `output` has n
    elements.

    Types follow `tcu.segmented_reduce`: `f16`, `bf16`, `f32` inputs
    accumulate in `f32` and store `f32` or the input element type; signed
    `i8` inputs accumulate and store `i32`.

    The optional `variant` accepts `seg16` (segment_size <= 16), `seg256`
    (<= 256), `seg256n`, `seg16n`, `block`, `grid`, `lookback`, `lagged`
    and `packed` (a multiple of 16, at most 256), and
    `tiles_per_warp` and `warps_per_block` as `tcu.segmented_reduce` does
    (in seg16n: k steps of its 16 segments loaded at once, scanned in
    order; in lookback and lagged: the warps of the block that scans a
    chunk).

    A runtime segment size (`segment_size %s`, an `index` value) works as
    in `tcu.segmented_reduce`, with `seg16` (1..16), `seg256` (1..256),
    `seg256n` (any) and `stream` (16..2^24).

    Segments of any lengths come as `offsets %off` (k+1 `i32` or `i64`
    offsets, CSR), as in `tcu.segmented_reduce`; `output` still has n
    elements. Only `seg256n` takes offsets so far.

    The optional `schedule` (`#tcu.chain_schedule<...>`) tunes the
    single-pass variants, `lookback` (only its `prefetch_bytes`) and
    `lagged`; it is an error with any other variant.
    `tcu-select-strategy` sets it for them. It does not change the result.

    `reverse` (written after the mode: `inclusive reverse`) makes it a
    suffix scan: each element combines with the elements after it in its
    segment instead of before, `out[i] = x[i] + ... + x[end - 1]`
    (`exclusive`: from `x[i + 1]`, so each segment's last element gets 0).
    The segments are the same as without it (with a constant or runtime
    size the last one may be short; offsets as given). Every variant takes
    it: `convert-tcu-to-mma` runs the forward algorithm over a mirrored
    view of the buffers (docs/algorithms.md#reverse-scans), so it is a
    true suffix scan, never a total minus a prefix.

    `decay a` (an f32 constant, written after the segments) or `decay %a`
    (an f32 value: the decay given at run time, one kernel for every
    value) makes it a decayed scan, the linear recurrence `h_i = a·h_{i-1} + x_i` restarted
    at each segment's head: inclusive writes `h_i`, exclusive `h_{i-1}`
    (0 at each head), reverse runs it from each segment's end. Absent, or
    1, is the plain scan. `a` must be finite and in [-1, 1] (with |a| > 1
    the weights a^k of a tile grow past the f16 and f32 ranges), the input
    f16, bf16 or f32 (integer sums have no decay), and the variant `seg16`,
    `seg256`, `seg256n` (any segments: constant, runtime size, offsets) or
    `grid`; the weights a^k enter the products as exact f16/bf16 parts
    (docs/algorithms.md#decayed-scans). A value decay must meet the same
    rules when it runs: the kernel does not check it (the runtime's API
    does). `decays %d` (a `memref<?xf32>`, one decay per segment: segment
    j, counted from the buffer's start also for a reverse scan, decays by
    %d[j]) takes the same variants; the same rules hold for every entry,
    unchecked by the kernel, and %d must hold one per segment.

    The optional `decay_form` (`#tcu.decay_form<matrices>` or
    `<recurrence>`, tcu-select-strategy's choice) says how the tiles are
    computed: with decay matrices on Tensor Cores, or on CUDA cores
    (tcu.linear_recurrence). Absent: matrices for one decay, the
    recurrence for per-segment decays, which have no matrix form.

    The optional `walk_schedule` (`#tcu.walk_schedule<...>`) tunes the
    decayed scans of `packed`, `seg256n` and `grid` (L2 prefetches ahead
    of a warp's walk, a register cap); tcu-select-strategy sets it. It
    does not change the result.

    Example:

    ```mlir
    tcu.segmented_scan <add> exclusive %in into %out segment_size 256
        : memref<?xbf16> -> memref<?xf32>
    // Suffix sums: out[i] = in[i] + ... + in[i | 255] (within n).
    tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 256
        : memref<?xf16> -> memref<?xf32>
    // h_i = 0.9·h_{i-1} + in[i], restarted every 100 elements.
    tcu.segmented_scan <add> inclusive %in into %out segment_size 100
        decay 0.9 : memref<?xf16> -> memref<?xf32>
    // The same with the decay %a : f32 given at run time.
    tcu.segmented_scan <add> inclusive %in into %out segment_size 100
        decay %a : memref<?xf16> -> memref<?xf32>
    // Segment j decays by %d[j] (%d : memref<?xf32>).
    tcu.segmented_scan <add> inclusive %in into %out segment_size 100
        decays %d : memref<?xf16> -> memref<?xf32>
    ```
  }];
  let arguments = (ins
    TCU_CombinerKindAttr:$kind,
    Arg<AnyMemRef, "the elements to scan", [MemRead]>:$input,
    Arg<AnyMemRef, "one result per element", [MemWrite]>:$output,
    Optional<Index>:$dynamic_segment_size,
    Arg<Optional<AnyMemRef>, "k+1 segment offsets (CSR)", [MemRead]>:$offsets,
    I64Attr:$segment_size,
    BoolAttr:$inclusive,
    OptionalAttr<TCU_VariantAttr>:$variant,
    OptionalAttr<TCU_TilesPerWarpAttr>:$tiles_per_warp,
    OptionalAttr<TCU_WarpsPerBlockAttr>:$warps_per_block,
    OptionalAttr<TCU_ChainScheduleAttr>:$schedule,
    UnitAttr:$reverse,
    OptionalAttr<F32Attr>:$decay,
    Optional<F32>:$decay_value,
    Arg<Optional<TCU_DecayBuffer>, "one decay per segment",
        [MemRead]>:$decays,
    OptionalAttr<TCU_DecayFormAttr>:$decay_form,
    OptionalAttr<TCU_WalkScheduleAttr>:$walk_schedule
  );
  let assemblyFormat = [{
    $kind custom<ScanMode>($inclusive, $reverse) $input `into` $output
    custom<Segments>($dynamic_segment_size, $offsets, $segment_size)
    (`decay` custom<DecayOrValue>($decay_value, $decay)^)?
    (`decays` $decays^)? attr-dict
    `:` type($input) (`,` type($offsets)^)? `->` type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration =
      !strconcat(commonExtraClassDeclaration, TCU_DecayDeclaration, [{
    /// Whether this is a decayed scan: a constant decay other than 1
    /// (getDecayFactor), a decay given at run time (getDecayValue) or one
    /// per segment (getDecays).
    bool isDecayed() {
      return getDecayFactor() || getDecayValue() || getDecays();
    }
  }]);
}

//===----------------------------------------------------------------------===//
// Value-semantics forms, for tensor pipelines: destination-style ops that
// one-shot-bufferize turns into the buffer forms above
// (BufferizableOpInterfaceImpl.cpp).
//===----------------------------------------------------------------------===//

class TCU_TensorCollectiveOp<string mnemonic, list<Trait> traits = []>
    : TCU_Op<mnemonic, !listconcat(traits, [
          Pure, AllTypesMatch<["init", "result"]>,
          DestinationStyleOpInterface])> {
  let hasVerifier = 1;
  code commonExtraClassDeclaration = [{
    ::mlir::RankedTensorType getInputType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getInput().getType());
    }
    ::mlir::RankedTensorType getInitType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getInit().getType());
    }
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getInitMutable();
    }
    /// The segment size is the `dynamic_segment_size` operand.
    bool hasRuntimeSegmentSize() { return getDynamicSegmentSize() != nullptr; }
    /// The segments come from the `offsets` operand (CSR, k+1 offsets).
    bool hasOffsets() { return getOffsets() != nullptr; }
  }];
}

def TCU_ReduceOp : TCU_TensorCollectiveOp<"reduce", [AttrSizedOperandSegments]> {
  let summary = "tcu.segmented_reduce on tensors (destination style)";
  let description = [{
    The value-semantics form of `tcu.segmented_reduce`: the same segments,
    types, `variant`, `tiles_per_warp` and `warps_per_block`, on 1-D ranked
    tensors. `init`
    is the destination only: every element of the result is overwritten
    (its contents are not added), so a `tensor.empty` is the usual init.
    `one-shot-bufferize` rewrites it to `tcu.segmented_reduce` on the
    buffers (copying an input or destination whose buffer is not known to
    have unit stride into a contiguous one). The segment size is a constant
    or, as in the buffer form, an `index` value (`segment_size %s`), or
    the segments come from an offsets tensor (`offsets %off`, k+1 CSR
    `i32` or `i64` offsets; the result has k elements).

    Example:

    ```mlir
    %e = tensor.empty() : tensor<64xf32>
    %r = tcu.reduce <add> %in into %e segment_size 16
        : tensor<1024xf16> -> tensor<64xf32>
    ```
  }];
  let arguments = (ins
    TCU_CombinerKindAttr:$kind,
    AnyRankedTensor:$input,
    AnyRankedTensor:$init,
    Optional<Index>:$dynamic_segment_size,
    Optional<AnyRankedTensor>:$offsets,
    I64Attr:$segment_size,
    OptionalAttr<TCU_VariantAttr>:$variant,
    OptionalAttr<TCU_TilesPerWarpAttr>:$tiles_per_warp,
    OptionalAttr<TCU_WarpsPerBlockAttr>:$warps_per_block
  );
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $kind $input `into` $init
    custom<Segments>($dynamic_segment_size, $offsets, $segment_size)
    attr-dict `:` type($input) (`,` type($offsets)^)? `->` type($init)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::tcu::CombinerKind":$kind, "::mlir::Value":$input,
                   "::mlir::Value":$init, "int64_t":$segmentSize), [{
      build($_builder, $_state, init.getType(), kind, input, init,
            /*dynamic_segment_size=*/nullptr, /*offsets=*/nullptr, segmentSize,
            /*variant=*/nullptr, /*tiles_per_warp=*/nullptr,
            /*warps_per_block=*/nullptr);
    }]>
  ];
  let extraClassDeclaration = commonExtraClassDeclaration;
}

def TCU_ScanOp : TCU_TensorCollectiveOp<"scan", [AttrSizedOperandSegments]> {
  let summary = "tcu.segmented_scan on tensors (destination style)";
  let description = [{
    The value-semantics form of `tcu.segmented_scan` (with its `variant`,
    `tiles_per_warp`, `warps_per_block`, `schedule`, `reverse`, a
    suffix scan, and `decay`, a linear recurrence), as `tcu.reduce` is
    of `tcu.segmented_reduce`: 1-D ranked tensors, `init` only the
    destination (overwritten), rewritten by `one-shot-bufferize`; a constant
    or runtime (`segment_size %s`) segment size, or offsets (`offsets %off`).

    Example:

    ```mlir
    %e = tensor.empty(%n) : tensor<?xf32>
    %r = tcu.scan <add> inclusive %in into %e segment_size 256
        : tensor<?xf16> -> tensor<?xf32>
    ```
  }];
  let arguments = (ins
    TCU_CombinerKindAttr:$kind,
    AnyRankedTensor:$input,
    AnyRankedTensor:$init,
    Optional<Index>:$dynamic_segment_size,
    Optional<AnyRankedTensor>:$offsets,
    I64Attr:$segment_size,
    BoolAttr:$inclusive,
    OptionalAttr<TCU_VariantAttr>:$variant,
    OptionalAttr<TCU_TilesPerWarpAttr>:$tiles_per_warp,
    OptionalAttr<TCU_WarpsPerBlockAttr>:$warps_per_block,
    OptionalAttr<TCU_ChainScheduleAttr>:$schedule,
    UnitAttr:$reverse,
    OptionalAttr<F32Attr>:$decay
  );
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $kind custom<ScanMode>($inclusive, $reverse) $input `into` $init
    custom<Segments>($dynamic_segment_size, $offsets, $segment_size)
    (`decay` custom<Decay>($decay)^)? attr-dict `:` type($input) (`,` type($offsets)^)? `->` type($init)
  }];
  let extraClassDeclaration =
      !strconcat(commonExtraClassDeclaration, TCU_DecayDeclaration);
}

include "tcuc/Dialect/TCU/TCUMMAOps.td"

#endif // TCUC_DIALECT_TCU_TCUOPS_TD
