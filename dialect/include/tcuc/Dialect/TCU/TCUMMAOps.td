//===- TCUMMAOps.td - the mma form of tcu collectives ------*- tablegen -*-===//
//
// The "mma form": what convert-tcu-to-mma produces. Tiles are 16x16 vectors;
// the Tensor Core work is explicit as tcu.mma on named 0/1 matrices (P·A,
// A·U, L·A, ...), so tests can see each algorithm's structure. Both backends
// consume this form: convert-tcu-mma-to-loops (CPU) and the GPU lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_DIALECT_TCU_TCUMMAOPS_TD
#define TCUC_DIALECT_TCU_TCUMMAOPS_TD

include "mlir/Interfaces/SideEffectInterfaces.td"

def TCU_Tile : Type<And<[
    CPred<"::llvm::isa<::mlir::VectorType>($_self)">,
    CPred<"::llvm::cast<::mlir::VectorType>($_self).getShape() == "
          "::llvm::ArrayRef<int64_t>({16, 16})">]>,
    "16x16 tile (vector<16x16xT>)", "::mlir::VectorType">;

def TCU_F32Tile : Type<And<[TCU_Tile.predicate,
    CPred<"::llvm::cast<::mlir::VectorType>($_self).getElementType().isF32()">]>,
    "16x16 f32 tile", "::mlir::VectorType"> {
  let builderCall = "::mlir::VectorType::get({16, 16}, $_builder.getF32Type())";
}

def TCU_I1Tile : Type<And<[TCU_Tile.predicate,
    CPred<"::llvm::cast<::mlir::VectorType>($_self).getElementType()"
          ".isInteger(1)">]>,
    "16x16 i1 tile", "::mlir::VectorType"> {
  let builderCall =
      "::mlir::VectorType::get({16, 16}, $_builder.getI1Type())";
}

def TCU_MatrixOp : TCU_Op<"matrix", [Pure]> {
  let summary = "a named 16x16 constant 0/1 matrix (P, PT, U, Ustrict, L, Ones)";
  let description = [{
    Materialises one of the papers' constant matrices as a tile of the
    given element type (f16, bf16 or i8: an mma operand type).

    `block` (L and P only; 1..16, default 16, not printed) cuts L along its
    diagonal into blocks of `block` rows: entry (r, c) is 1 when r > c and
    r / block == c / block. With a tile holding several whole segments of
    `block` rows each, `L·A` then sums, for each row, the earlier rows of
    its own segment only. P's row r gets ones in columns
    [r·block, (r+1)·block) (entry 1 when c / block == r; block 16 is row 0
    all ones), so row r of `P·A` holds the column sums of segment r.

    ```mlir
    %P = tcu.matrix <P> : vector<16x16xf16>
    %L4 = tcu.matrix <L> block 4 : vector<16x16xf16>
    ```
  }];
  let arguments = (ins TCU_MatrixKindAttr:$kind,
                   DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<1>,
                                                            IntMaxValue<16>]>,
                                     "16">:$block);
  let results = (outs TCU_Tile:$result);
  let assemblyFormat = "$kind (`block` $block^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TCU_DecayMatrixOp : TCU_Op<"decay_matrix", [Pure]> {
  let summary = "one part of a 16x16 constant matrix of powers of a decay";
  let description = [{
    The matrices of a decayed scan (`decay` on tcu.segmented_scan): entry
    (r, c) is v = 2^scale · a^k for the power k that `kind` gives it (0
    where it gives none; a^0 = 1, also for a = 0), `a` the f32 `decay`: a
    constant, or an f32 value (a decay given at run time; the backends then
    compute the powers and parts in the kernel, in f64, as the constant
    form computes them here).
    As an f16 or bf16 tile (an mma operand) it holds `part` p of v: the
    parts are v rounded to the element type (p = 0, `hi`), the rest
    rounded (p = 1), the rest of that (p = 2), so the sum of the three
    parts is v within 2^-24 relative (bf16: 3 x 8 bits) or better (f16: 3
    x 11 bits, which `scale` keeps out of f16's subnormals: with the
    entries <= 1, scale 15 puts them in [2^-15·..., 2^15]). As an f32 tile
    (elementwise weights on accumulators) it holds v rounded to f32 and
    part must be 0. Decay matrices are not 0/1: products with them take no
    exact NaN/Inf path (docs/algorithms.md#decayed-scans).

    ```mlir
    %U1 = tcu.decay_matrix <U> 0.9 part 1 scale 15 : vector<16x16xf16>
    %W = tcu.decay_matrix <RowTail> 0.9 scale -15 : vector<16x16xf32>
    %R = tcu.decay_matrix <U> %a part 2 scale 15 : vector<16x16xf16>
    ```
  }];
  let arguments = (ins TCU_DecayMatrixKindAttr:$kind,
                   OptionalAttr<F32Attr>:$decay, Optional<F32>:$decay_value,
                   DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<0>,
                                                            IntMaxValue<2>]>,
                                     "0">:$part,
                   DefaultValuedAttr<I64Attr, "0">:$scale);
  let results = (outs TCU_Tile:$result);
  let assemblyFormat = [{
    $kind custom<DecayOrValue>($decay_value, $decay) (`part` $part^)?
    (`scale` $scale^)? attr-dict `:`
    type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Entry (r, c) of this part, in double (exactly representable in the
    /// element type); a constant decay only.
    double getEntry(int r, int c);
    /// The power k of entry (r, c) of `kind` (v = a^k), or none (v = 0).
    static std::optional<int> power(DecayMatrixKind kind, int r, int c);
    /// The same power where `power` has one; elsewhere the value of the
    /// same affine formula in r and c (the kernels compute it per lane,
    /// then select 0 there).
    static int affinePower(DecayMatrixKind kind, int r, int c);
    /// Entry (r, c) of part `part` of the decay matrix `kind` of `decay`
    /// scaled by 2^scale, as an `elementType` tile holds it.
    static double entry(DecayMatrixKind kind, float decay, Type elementType,
                        int64_t part, int64_t scale, int r, int c);
  }];
}

def TCU_MMAOp : TCU_Op<"mma", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "one Tensor Core tile product: result = lhs · rhs + acc";
  let description = [{
    A 16x16x16 matrix multiply-accumulate with Tensor Core numerics:
    operands are f16, bf16 or i8 (both the same type); products are exact
    and accumulate in f32 (float operands) or i32 (i8 operands, wrapping).
    An f32 or i32 tile must pass through `tcu.split` before it can be an
    operand, so every rounding is visible in the IR.

    With `rhs_transposed`, `rhs` holds the transpose of the right factor:
    result = lhs · rhsᵀ + acc. The GPU backend's B fragment of X is the A
    layout of X^T, so tcu-transpose-mma-operands re-expresses the right
    operands that are data so and sets it (never with a `tcu.matrix` on
    the right, which the lowering builds transposed itself); the CPU
    backend takes products without it.

    ```mlir
    %V = tcu.mma %P, %A, %acc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    %W = tcu.mma %P, %At, %acc rhs_transposed : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    ```
  }];
  let arguments = (ins TCU_Tile:$lhs, TCU_Tile:$rhs, TCU_Tile:$acc,
                   UnitAttr:$rhs_transposed);
  let results = (outs TCU_Tile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc (`rhs_transposed` $rhs_transposed^)? attr-dict `:`
    type($lhs) `,` type($rhs) `into` type($acc)
  }];
  let hasVerifier = 1;
}

def TCU_SplitOp : TCU_Op<"split", [Pure]> {
  let summary = "splits an accumulator tile into exact mma-operand parts";
  let description = [{
    Feeding an f32 (or i32) tile back into a Tensor Core product would round
    it to the operand type. `tcu.split` instead writes it as a sum of parts
    that are exact operands:

    - f32 -> three bf16 tiles `hi, mid, lo`, each the rest rounded toward
      zero (its low 16 bits cleared), with `x == hi + mid + lo` (8 + 8 + 8
      significand bits cover f32's 24). This is exact for every finite x
      with |x| >= 2^-110 or x = 0, f32's top binade included; below 2^-110
      (f32 subnormals among them) `lo` loses the bits under bf16's smallest
      subnormal, 2^-133. NaN and infinite `x` give `hi` that value and zero
      lower parts, so the parts' sum is `hi`, not inf - inf = NaN.
    - i32 -> five i8 tiles `d0..d4` with `x == sum_k d_k * 2^(7k)` modulo
      2^32: `d0..d3` are 7-bit digits in [0, 127], `d4 = x >> 28` (signed).
      Products are combined by Horner's rule (shift the accumulator left
      by 7 between the digit products).

    `check_tiny` (f32 only) says the source may hold values below 2^-110,
    which the parts cannot hold whole: where the parts' products form a
    chain (K·hi + (K·mid + (K·lo + acc)), `tcu::matchSplitProduct`), the
    backends compute a tile holding such a value (or NaN or Inf) as one
    product of the unsplit tile, the exact f32 sums of the selected
    elements. `convert-tcu-to-mma` sets it where the collective's input is
    f32; the partial sums of f16, bf16 and i8 data are multiples of 2^-24
    or 2^-133 and always split exactly.
  }];
  let arguments = (ins TCU_Tile:$source, UnitAttr:$check_tiny);
  let results = (outs Variadic<TCU_Tile>:$parts);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($parts)";
  let hasVerifier = 1;
}

def TCU_LoadTileOp : TCU_Op<"load_tile", [AttrSizedOperandSegments]> {
  let summary = "loads 16 lines of up to 16 elements into a tile, zero-padded";
  let description = [{
    Line `i` (0..15) holds `source[base + i * stride + j]` for `j` in 0..15,
    where `j < line_length` and `base + i * stride + j < limit` (and, with
    `from`, `>= from`: a tile that straddles two work items reads only its
    own item's part); every other element is 0. With `<rows>` line `i`
    becomes tile row `i`; with `<cols>` it becomes tile column `i`. No memory outside the selected elements is
    read, so partial tiles at segment or buffer ends are safe.

    `order` says what the consumer depends on of the elements' order, so
    what a backend may permute: `line` (the consumer sums each line; a
    line's elements may take any of its 16 positions) or `tile` (it sums the
    whole tile; any element may take any of the 256 positions). The CPU
    backend keeps the order; the GPU backend uses the freedom for wider
    loads: 4 consecutive elements of a line per lane (`line`, `rows`), or 8
    (`tile`: 16 bytes for f16). `quads` (`rows` only) is no freedom but a
    fixed permutation of each line (`#tcu.order`), the one in which the GPU
    loads 4 consecutive elements per lane, which every backend applies:
    line position p lands in column 2 (p / 4) + p mod 2 + 8 ((p mod 4) / 2).
    `lanes` (`rows` only) is the fixed permutation of the whole tile in
    which a GPU lane holds 8 consecutive elements (`#tcu.order`); every
    backend applies it. The default, `fixed`, is not printed.
    `cache` is an L2 eviction hint (`#tcu.cache`; default `normal`, not
    printed).

    With `mirror %m` the indices above are logical ones into a mirrored
    view of the buffer: index x (selected as above) reads
    `source[m - x]`, and reads 0 where `m - x` lies outside the buffer
    (the reverse scans' padding, docs/algorithms.md#reverse-scans).

    ```mlir
    %A = tcu.load_tile <cols> %in[%base] stride %c16 line %c16 limit %n
        : memref<?xf16> -> vector<16x16xf16>
    %R = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n1
        mirror %m : memref<?xf16> -> vector<16x16xf16>
    %B = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n
        order <tile> : memref<?xf16> -> vector<16x16xf16>
    ```
  }];
  let arguments = (ins TCU_TileLayoutAttr:$layout,
                   Arg<AnyMemRef, "the buffer read", [MemRead]>:$source,
                   Index:$base, Index:$stride, Index:$line_length,
                   Index:$limit, Optional<Index>:$from,
                   Optional<Index>:$mirror,
                   DefaultValuedAttr<TCU_ElementOrderAttr,
                                     "::mlir::tcu::ElementOrder::Fixed">:$order,
                   DefaultValuedAttr<TCU_CacheHintAttr,
                                     "::mlir::tcu::CacheHint::Normal">:$cache);
  let results = (outs TCU_Tile:$result);
  let assemblyFormat = [{
    $layout $source `[` $base `]` `stride` $stride `line` $line_length
    `limit` $limit (`from` $from^)? (`mirror` $mirror^)? (`order` $order^)?
    (`cache` $cache^)?
    attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TCU_StoreTileOp : TCU_Op<"store_tile", [AttrSizedOperandSegments]> {
  let summary = "stores the rows of a tile as 16 masked lines";
  let description = [{
    The inverse of `tcu.load_tile <rows>`: `dest[base + i * stride + j] =
    tile[i][j]` for `j < line_length` and `base + i * stride + j < limit`
    (and, with `from`, `>= from`: a tile that straddles two work items
    writes only its own item's part).
    Elements are converted to the destination element type on the way (f32
    to f16/bf16 rounds to nearest even). `order` is `fixed` (the default,
    not printed), `quads`: the inverse of a `quads` load, column c of
    row i going to line position 4 ((c mod 8) / 2) + c mod 2 + 2 (c / 8)
    (on the GPU a lane's four elements of a row are consecutive: one 8-byte
    store for f16, 16 for f32, and four lanes write whole 32-byte sectors
    of a 16-bit row), or `lanes`: the inverse of a `lanes` load (a lane's
    eight elements are consecutive). `cache` is an L2 eviction hint (`#tcu.cache`;
    default `normal`, not printed). `mirror %m` mirrors the view as in
    `tcu.load_tile`: index x writes `dest[m - x]`, nothing where that lies
    outside the buffer.

    ```mlir
    tcu.store_tile %R, %out[%base] stride %c16 line %c16 limit %n
        order <quads> : vector<16x16xf32> -> memref<?xf16>
    ```
  }];
  let arguments = (ins TCU_Tile:$tile,
                   Arg<AnyMemRef, "the buffer written", [MemWrite]>:$dest,
                   Index:$base, Index:$stride, Index:$line_length,
                   Index:$limit, Optional<Index>:$from,
                   Optional<Index>:$mirror,
                   DefaultValuedAttr<TCU_ElementOrderAttr,
                                     "::mlir::tcu::ElementOrder::Fixed">:$order,
                   DefaultValuedAttr<TCU_CacheHintAttr,
                                     "::mlir::tcu::CacheHint::Normal">:$cache);
  let assemblyFormat = [{
    $tile `,` $dest `[` $base `]` `stride` $stride `line` $line_length
    `limit` $limit (`from` $from^)? (`mirror` $mirror^)? (`order` $order^)?
    (`cache` $cache^)?
    attr-dict `:` type($tile) `->` type($dest)
  }];
  let hasVerifier = 1;
}

def TCU_PositionsOp : TCU_Op<"positions", [Pure]> {
  let summary = "each element's row (or column) in its tile";
  let description = [{
    An i32 tile whose element (r, c) is `r` (`<rows>`) or `c` (`<cols>`);
    with `order <quads>` (`cols` only) it is instead the line position
    that a `quads` load puts at column c (`#tcu.order`); with
    `order <lanes>` the line (`rows`) or the position in it (`cols`) of
    the element a `lanes` load puts at (r, c). So in a `rows` tile of
    consecutive elements element (r, c) is the (16 line + position)-th
    from the tile's first. The streaming variant computes
    segment boundaries from them, so masks and boundary-masked matrices are
    ordinary `arith` on tiles; what depends on the row alone the GPU
    computes once per row a lane holds (two), not per element (eight).
    The CPU backend makes it a constant; on the GPU each lane computes the
    rows (columns) of the elements it holds.

    ```mlir
    %r = tcu.positions <rows> : vector<16x16xi32>
    ```
  }];
  let arguments = (ins TCU_TileLayoutAttr:$dim,
                   DefaultValuedAttr<TCU_ElementOrderAttr,
                                     "::mlir::tcu::ElementOrder::Fixed">:$order);
  let results = (outs TCU_Tile:$result);
  let assemblyFormat = "$dim (`order` $order^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TCU_StoreRowOp : TCU_Op<"store_row"> {
  let summary = "stores (or adds) one row of a tile to consecutive elements";
  let description = [{
    `dest[base + j] = tile[row][j · step]` for `j` in 0..16/step - 1 with
    `base + j < limit` (with `accumulate`, `dest[base + j] +=
    tile[row][j · step]`, the sum taken in the tile's type). Used for the
    row of segment sums a reduction produces (`limit = base + 1` stores the
    single element `tile[row][0]`); `step` (1, 2, 4, 8 or 16; default 1, not
    printed) takes one column of each block of `step`, as `tcu.row_sums`
    with `block` leaves them.

    ```mlir
    tcu.store_row %R[0], %out[%base] limit %n step 8 : vector<16x16xf32> -> memref<?xf32>
    ```
  }];
  let arguments = (ins TCU_Tile:$tile,
                   Arg<AnyMemRef, "the buffer written", [MemRead, MemWrite]>:$dest,
                   Index:$base, Index:$limit, I64Attr:$row,
                   UnitAttr:$accumulate,
                   DefaultValuedAttr<I64Attr, "1">:$step);
  let assemblyFormat = [{
    $tile `[` $row `]` `,` $dest `[` $base `]` `limit` $limit
    (`step` $step^)? attr-dict `:` type($tile) `->` type($dest)
  }];
  let hasVerifier = 1;
}

def TCU_RowSumsOp : TCU_Op<"row_sums", [Pure, AllTypesMatch<["source", "result"]>]> {
  let summary = "x·Ones in accumulator arithmetic: each row's sum in every column";
  let description = [{
    `result[i][j] = sum_k source[i][k]` for every `j`: the product of an
    accumulator tile (f32 or i32) with the all-ones matrix, computed with
    f32 additions (i32: wrapping additions, exact modulo 2^32) instead of a
    split Tensor Core product (three bf16 or five i8 products on top of the
    split itself). DESIGN §4 allows the small steps on f32 intermediates to
    be plain f32 additions; the products over the data (P·A, A·U, L·A) stay
    on the Tensor Core.

    With `block` b (1, 2, 4, 8 or 16; default 16, not printed) each row is
    cut into blocks of b columns and every element gets the sum of its
    own block: `result[i][j] = sum of source[i][k]` over k with
    k / b == j / b (the sums of segments laid out as b columns each).

    The order of the f32 additions is not specified: the GPU adds the
    elements a lane holds of a row (or of a block), then across the
    lanes that share the row (block); the CPU reduces each row (block) in
    vector order.

    ```mlir
    %X = tcu.row_sums %LA : vector<16x16xf32>
    %S = tcu.row_sums %V block 8 : vector<16x16xf32>
    ```
  }];
  let arguments = (ins TCU_Tile:$source,
                   DefaultValuedAttr<I64Attr, "16">:$block);
  let results = (outs TCU_Tile:$result);
  let assemblyFormat = "$source (`block` $block^)? attr-dict `:` type($source)";
  let hasVerifier = 1;
}

def TCU_LinearRecurrenceOp : TCU_Op<"linear_recurrence", [Pure]> {
  let summary = "h = a·h + x along a tile, on CUDA cores";
  let description = [{
    The first-order linear recurrence over the tile's elements in row-major
    order: `h_i = decays_i · h_(i-1) + source_i`, `h_(-1) = init`, and
    `result_i = h_i`. With `rows` every row is a sequence of its own (each
    starts from `init`). With `exclusive` the result is the value before
    each element instead: `result_i = h_(i-1)` (the first of a sequence
    gets `init`). With `order <lanes>` the order is instead that of a
    `lanes` load (`#tcu.order`): the recurrence runs over the elements in
    memory order of a tile loaded so (not with `rows`).

    This is a decayed scan on CUDA cores: where the decay differs between
    the tile's segments a decay matrix would serve one segment only and
    cost more to build than the scan itself
    (docs/algorithms.md#per-segment-decays); tcu-select-strategy's
    `decay_form` says where one decay takes it too. The GPU composes the pairs
    (a, x) of a lane's elements, then across the lanes of a row and the rows
    with shuffles (`lanes`: a lane's eight consecutive elements one after
    the other, then across the 32 lanes, a third of the shuffles); the CPU
    scans the columns of the rows in order. The order
    of the f32 operations is not specified (each result is within a few f32
    roundings of the sequential recurrence per element).

    `heads` (an i1 tile, optional) restarts the recurrence: where it is
    set the decay is 0 (`h_i = source_i`). `decays` is an f32 tile (one
    decay per element) or an f32 scalar, the decay of every element (its
    type then follows the source's: `: vector<16x16xf16>, f32`). A scalar
    decay in the lanes order needs no product of decays in the scan: the
    decay over a run of 8·2^k elements with no head is a^(8·2^k), one
    value for the warp, and where the heads are is one ballot; the GPU then
    shuffles h alone (6 shuffles a tile instead of 18). Packed segments of
    one decay and the tiles of one segment take this form.

    `source`: f16, bf16 or f32 (widened exactly); `decays`, `init` and the
    result: f32.

    ```mlir
    %h = tcu.linear_recurrence %a, %x, %h0 : vector<16x16xf16>
    %e = tcu.linear_recurrence %a, %x, %zero rows exclusive : vector<16x16xf32>
    %p = tcu.linear_recurrence %s, %x, %h0 heads %first order <lanes>
        : vector<16x16xf16>, f32
    ```
  }];
  let arguments = (ins AnyTypeOf<[TCU_F32Tile, F32]>:$decays, TCU_Tile:$source,
                   F32:$init, Optional<TCU_I1Tile>:$heads,
                   UnitAttr:$rows, UnitAttr:$exclusive,
                   DefaultValuedAttr<TCU_ElementOrderAttr,
                                     "::mlir::tcu::ElementOrder::Fixed">:$order);
  let results = (outs TCU_F32Tile:$result);
  let assemblyFormat = [{
    $decays `,` $source `,` $init (`heads` $heads^)? (`rows` $rows^)?
    (`exclusive` $exclusive^)? (`order` $order^)? attr-dict `:`
    custom<RecurrenceTypes>(type($source), type($decays))
  }];
  let extraClassDeclaration = [{
    /// The decay of every element, where `decays` is a scalar (else null).
    ::mlir::Value getScalarDecay() {
      return ::llvm::isa<::mlir::FloatType>(getDecays().getType())
                 ? getDecays() : ::mlir::Value();
    }
  }];
  let hasVerifier = 1;
}

def TCU_AllFiniteOp : TCU_Op<"all_finite", [Pure]> {
  let summary = "whether a tile (and a scalar) is finite and not huge";
  let description = [{
    True when every element of `source` is finite with |x| < 2^100 and
    `scalar` (an f32, optional) is finite with |scalar| < 2^121. A decayed
    scan of such a tile from such a carry computes no infinity (h stays
    below 2^122 over 256 elements with |a| <= 1), so its products with
    decay matrices and its compositions meet no 0·Inf; where this is false
    the decayed scans take the exact path (the sequential recurrence;
    docs/algorithms.md#decayed-nan-inf). The GPU checks its lanes'
    elements (x · 2^28 · 0 is NaN exactly when |x| >= 2^100 or x is not
    finite) and votes once for the warp; the CPU sums the same probes.

    ```mlir
    %ok = tcu.all_finite %x, %carry : vector<16x16xf16>
    ```
  }];
  let arguments = (ins TCU_Tile:$source, Optional<F32>:$scalar);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $source (`,` $scalar^)? attr-dict `:` type($source)
  }];
  let hasVerifier = 1;
}

def TCU_GatherOp : TCU_Op<"gather"> {
  let summary = "loads one element of a buffer per tile element, by index";
  let description = [{
    Element (r, c) of the result is `source[base + indices[r][c]]` where
    `0 <= base + indices[r][c] < limit`, and 0 elsewhere (nothing outside
    is read). `indices` is an i32 tile of offsets from `base` (an index,
    so the buffer may be longer than 2^31 elements while the offsets
    within a tile stay small; they may be negative).

    The packed decayed scan reads each element's segment decay with it
    (docs/algorithms.md#packed-decayed-scans): the few decays a tile
    needs are gathered by the segment index of each element. The GPU
    loads each element a lane holds (eight, under one branch, so that
    equal indices load once), the CPU the 256 in order.

    ```mlir
    %d = tcu.gather %decays[%first + %offs] limit %k
        : vector<16x16xi32>, memref<?xf32> -> vector<16x16xf32>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "the buffer read", [MemRead]>:$source,
                   Index:$base, TCU_Tile:$indices, Index:$limit);
  let results = (outs TCU_Tile:$result);
  let assemblyFormat = [{
    $source `[` $base `+` $indices `]` `limit` $limit attr-dict `:`
    type($indices) `,` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TCU_BlockPrefixOp : TCU_Op<"block_prefix", [AllTypesMatch<["value", "prefix"]>]> {
  let summary = "a warp's exclusive prefix over the warps of its block";
  let description = [{
    Used in a phase of a block work item (a nested `scf.parallel` over the
    warps of the block, docs/gpu.md), with `warp` the phase's induction
    variable and `warps` its trip count (at most 32): stores `value` at
    `buffer[offset + warp]` and returns
    `buffer[offset] + ... + buffer[offset + warp - 1]` (0 for warp 0),
    added in that order, once every warp of the phase has stored its value.
    On the GPU every warp of the block runs exactly one iteration of such a
    phase and the op waits at a block barrier between the store and the
    loads. On the CPU the phase's iterations run in order, so the values of
    the earlier warps are stored by then. The values stay in the buffer
    for the code after the phase.

    ```mlir
    %before = tcu.block_prefix %total, %totals[%c0], %w of 8
        : memref<16xf32>, f32
    ```
  }];
  let arguments = (ins AnyTypeOf<[F32, I32]>:$value,
                   Arg<MemRefRankOf<[F32, I32], [1]>, "the warps' values",
                       [MemRead, MemWrite]>:$buffer,
                   Index:$offset, Index:$warp, I64Attr:$warps);
  let results = (outs AnyTypeOf<[F32, I32]>:$prefix);
  let assemblyFormat = [{
    $value `,` $buffer `[` $offset `]` `,` $warp `of` $warps attr-dict `:`
    type($buffer) `,` type($value)
  }];
  let hasVerifier = 1;
}

def TCU_TicketOp : TCU_Op<"ticket"> {
  let summary = "claims the next work-item number (atomic fetch-and-add)";
  let description = [{
    Returns `counter[index]` and adds 1 to it, atomically: every ticket a
    kernel draws is different, and numbers are handed out in the order the
    draws happen. Work items that wait on earlier items (`tcu.lookback`)
    take their number from a ticket instead of their loop index: an item
    then only waits on items whose tickets were drawn before its own, by
    blocks that are already running, so the wait ends whatever order the
    hardware runs blocks in. On the GPU one lane of the warp draws the
    ticket and shares it with the others. The counter must be 0 before the
    first draw.

    ```mlir
    %item = tcu.ticket %state[%c0] : memref<?xi64>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[I64], [1]>, "the counter",
                           [MemRead, MemWrite]>:$counter,
                   Index:$index);
  let results = (outs Index:$ticket);
  let assemblyFormat = [{
    $counter `[` $index `]` attr-dict `:` type($counter)
  }];
}

def TCU_PrefetchOp : TCU_Op<"prefetch"> {
  let summary = "asks for a range of a buffer to be brought into L2 (a hint)";
  let description = [{
    Elements `offset .. offset + count - 1` of `buffer` will be read soon:
    on the GPU the warp's lanes issue an L2 prefetch for each 128-byte line
    of the range, which starts the DRAM reads without holding registers or
    waiting for them. The range must lie inside the buffer (count 0 does
    nothing). `cache` is the lines' L2 eviction priority: `normal` (the
    default, not printed) or `evict_last` (PTX `prefetch.global.L2::evict_last`:
    the lines are read more than once, as the lagged scan reads its chunks);
    `evict_first` and `streaming` have no prefetch form and are rejected.
    The CPU backend drops the op. It declares no memory effects so that it
    is never removed as dead.

    ```mlir
    tcu.prefetch %input[%next], %count : memref<?xf16>
    tcu.prefetch %input[%next], %count cache <evict_last> : memref<?xf16>
    ```
  }];
  let arguments = (ins MemRefRankOf<[AnyType], [1]>:$buffer, Index:$offset,
                   Index:$count,
                   DefaultValuedAttr<TCU_CacheHintAttr,
                                     "::mlir::tcu::CacheHint::Normal">:$cache);
  let assemblyFormat = [{
    $buffer `[` $offset `]` `,` $count (`cache` $cache^)? attr-dict `:`
    type($buffer)
  }];
  let hasVerifier = 1;
}

def TCU_BlockLookbackOp : TCU_Op<"block_lookback", [AllTypesMatch<["value", "prefix", "chunk_prefix"]>]> {
  let summary = "tcu.block_prefix plus a deterministic look-back over a chain of chunks";
  let description = [{
    A single-pass prefix in the manner of Merrill and Garland ("Single-pass
    Parallel Prefix Scan with Decoupled Look-back", 2016), for a chunk
    scanned by the warps of a block. Used as `tcu.block_prefix` is (a phase
    of a block work item, `warp` the phase's induction variable, `warps` its
    trip count): stores `value` at `buffer[offset + warp]` and returns in
    `prefix` the sum of the earlier warps' values. The chunk is item `item`
    of a chain of items `first`, `first + 1`, ... (the chunks of a segment);
    its aggregate A_item is the sum of all `warps` values, added in warp
    order. `chunk_prefix`, the same in every warp, is the sum of the
    aggregates of items `first .. item - 1` (0 for `first`).
    `buffer[offset + warps]` holds it after the op, so the buffer needs
    `warps + 1` entries from `offset`.

    `state[i]` is item i's word: 0 until published, then `1 << 32 | v`, `v`
    the 32 bits of the f32 or i32 value, so a value and its flag are read
    and written together (what `v` holds differs by backend, below).

    On the GPU the words form a Fenwick tree over the chain: with
    p = item - first, item p's word is the sum of items
    p + 1 - lowbit(p + 1) .. p. Once every warp has stored its value (a
    block barrier), warp 0 reads the words of items p - 1, p - 2, p - 4,
    ... (as many as p has trailing ones; spinning on words still 0),
    publishes its own (the aggregate plus those), then reads one word per
    set bit of p, whose sum is `chunk_prefix`. Lane l takes bit l (bit
    l + 32 in a second pass, for chains of 2^32 items or more) and the
    warp adds by xor butterflies, so every sum's association
    depends on p alone: f32 results are the same from run to run (i32 ones
    are exact modulo 2^32). An item waits only on earlier items' words,
    which need no prefix. The block then meets at a second barrier.

    On the CPU items run in order: warp 0 reads the inclusive prefix that
    item - 1 left in its word, and the last warp leaves
    P_item = chunk_prefix + A_item in `state[item]`. The two backends
    associate the f32 sums differently.

    With `publish %p` the item's word belongs to the chain that starts at
    item `p` instead, which must be `item` itself or `first`: an item whose
    segment ends inside it (segments from offsets, where chains start
    wherever a segment does) looks back along its first segment's chain
    and publishes the start of the next. Its word is then its aggregate
    alone (`p` = `item`), or as without `publish` (`p` = `first`).

    Requirements: `state` is 0 at the items before the kernel runs,
    and items are claimed through `tcu.ticket` in increasing order (so
    every item waited on is held by a running block).

    ```mlir
    %before, %chunk = tcu.block_lookback %total, %totals[%c0], %w of 4,
        %state[%item] first %first : memref<5xf32>, memref<?xi64>, f32
    %b, %c = tcu.block_lookback %total, %totals[%c0], %c0 of 1,
        %state[%item] first %first publish %item
        : memref<2xf32>, memref<?xi64>, f32
    ```
  }];
  let arguments = (ins AnyTypeOf<[F32, I32]>:$value,
                   Arg<MemRefRankOf<[F32, I32], [1]>, "the warps' values",
                       [MemRead, MemWrite]>:$buffer,
                   Index:$offset, Index:$warp, I64Attr:$warps,
                   Arg<MemRefRankOf<[I64], [1]>, "the chain's words",
                       [MemRead, MemWrite]>:$state,
                   Index:$item, Index:$first, Optional<Index>:$publish);
  let results = (outs AnyTypeOf<[F32, I32]>:$prefix,
                 AnyTypeOf<[F32, I32]>:$chunk_prefix);
  let assemblyFormat = [{
    $value `,` $buffer `[` $offset `]` `,` $warp `of` $warps `,`
    $state `[` $item `]` `first` $first (`publish` $publish^)? attr-dict `:` type($buffer) `,` type($state) `,` type($value)
  }];
  let hasVerifier = 1;
}

def TCU_BlockLaggedLookbackOp : TCU_Op<"block_lagged_lookback",
    [AllTypesMatch<["scan_value", "reduce_value", "prefix", "chunk_prefix"]>]> {
  let summary = "publishes one chunk's total and looks back for another chunk's prefix";
  let description = [{
    The block step of the lagged single-pass scan (variant `lagged`): a
    block holds two chunks, one it reduces (chunk R, whose total it
    publishes) and one it scans (chunk S, drawn D tickets earlier, whose
    prefix it needs). Used as `tcu.block_prefix` is (a phase of a block
    work item, `warp` the phase's induction variable, `warps` its trip
    count):
    - stores `scan_value` (the warp's total of its part of S) at
      `buffer[offset + warp]` and returns in `prefix` the sum of the
      earlier warps' values, as `tcu.block_prefix`;
    - stores `reduce_value` (the warp's total of its part of R) at
      `buffer[offset + warps + warp]`; if `publishes`, R's aggregate (the
      `warps` values added in warp order) is published as item
      `publish_item` of the chain that starts at `publish_first`;
    - if `completes`, completes the look-back word of item
      `complete_item` of the chain that starts at `complete_first` (an
      item published earlier; on the CPU there is nothing to complete);
    - if `looks_back`, `chunk_prefix` is the sum of the aggregates of items
      `first .. item - 1` of S's chain (0 for `first`); else 0. It is the
      same in every warp and also left in `buffer[offset + 2 * warps]`,
      so the buffer needs `2 * warps + 1` entries from `offset`.
    - with `given %words` (what `tcu.lagged_prefix` gave warp 0 for
      item `item`; the other warps' are not used): where those words hold
      the whole prefix, `chunk_prefix` is their sum and the block meets
      once; else it looks back as above. Warp 0 leaves the sum and whether
      it holds in `buffer[offset + 2 * warps]` and `buffer[offset + 2 *
      warps + 1]` (so the buffer needs `2 * warps + 2` entries) before the
      block meets. A block that runs the op again before every warp has
      read the buffer (a block walking tickets) alternates two buffers'
      offsets.

    Item indices are 1-based word numbers, as `tcu.block_lookback`'s; the
    state holds two words per item (`2 * items + 1` words with the ticket
    counter at 0). On the GPU, item w's aggregate is word 2w - 1, published
    at once (never waiting). Word 2w is a Fenwick word (the sum of chain
    positions p + 1 - lowbit(p + 1) .. p, p its position) only for the
    items that end a group of 16 positions (p + 1 a multiple of 16),
    completed later by the block the schedule names (its last warp,
    between the block's two barriers, while warp 0 looks back; nothing for
    the other items): from the aggregates of the last 128 positions of
    that range at most (4 a lane) and the Fenwick words of its older
    children (p - 128, p - 256, ...), in one round trip. A prefix is the
    aggregates of the item's group before it (lanes 0-15) and one Fenwick
    word per set bit j >= 4 of p (lanes 16-31 for bits 4-19, a further
    pass for longer chains), added by xor butterflies in an association
    fixed by p (f32 results repeat from run to run). So no word depends on
    one completed less than 128 items before it, and a block that
    completes item t - E waits only on blocks at least E tickets behind it.
    On the CPU, where items run in ticket order, word w holds item w's
    inclusive prefix.

    Requirements: `state` is 0 before the kernel runs; items are claimed
    through `tcu.ticket`; the block with ticket t publishes item t,
    completes an item below t and looks back for an item whose
    predecessors were completed by blocks with tickets below t (so every
    word waited on belongs to a smaller ticket, held by a running or
    finished block).

    ```mlir
    %before, %chunk = tcu.block_lagged_lookback %scanned, %reduced,
        %totals[%c0], %w of 8, %state publish[%r] first %rf if %has_r,
        complete[%c] first %cf if %has_c, prefix[%s] first %sf if %has_s
        : memref<17xf32>, memref<?xi64>, f32
    ```
  }];
  let arguments = (ins AnyTypeOf<[F32, I32]>:$scan_value,
                   AnyTypeOf<[F32, I32]>:$reduce_value,
                   Arg<MemRefRankOf<[F32, I32], [1]>, "the warps' values",
                       [MemRead, MemWrite]>:$buffer,
                   Index:$offset, Index:$warp, I64Attr:$warps,
                   Arg<MemRefRankOf<[I64], [1]>, "the chains' words",
                       [MemRead, MemWrite]>:$state,
                   Index:$publish_item, Index:$publish_first, I1:$publishes,
                   Index:$complete_item, Index:$complete_first,
                   I1:$completes,
                   Index:$item, Index:$first, I1:$looks_back,
                   Optional<I64>:$given_words);
  let results = (outs AnyTypeOf<[F32, I32]>:$prefix,
                 AnyTypeOf<[F32, I32]>:$chunk_prefix);
  let assemblyFormat = [{
    $scan_value `,` $reduce_value `,` $buffer `[` $offset `]` `,` $warp `of`
    $warps `,` $state `publish` `[` $publish_item `]` `first` $publish_first
    `if` $publishes `,` `complete` `[` $complete_item `]` `first`
    $complete_first `if` $completes `,` `prefix` `[` $item `]` `first`
    $first `if`
    $looks_back (`given` $given_words^)? attr-dict `:` type($buffer) `,`
    type($state) `,` type($scan_value)
  }];
  let hasVerifier = 1;
}

def TCU_LaggedPrefixOp : TCU_Op<"lagged_prefix"> {
  let summary = "reads the words of one item's prefix in the lagged scan's chain";
  let description = [{
    The reads of `tcu.block_lagged_lookback`'s look-back, issued early and
    once, without waiting: warp 0 runs it during the ticket (after its
    loads and, in the wide lagged shape, its reduced run's sum), and
    passes the result to `tcu.block_lagged_lookback ... given %words`,
    which adds the words up when the block meets. Where all of them were
    published the block needs no look-back of its own, and meets once a
    ticket instead of twice; where one was not, it looks back as without
    `given`.

    On the GPU, lane l gets the word of `tcu.block_lagged_lookback`'s
    prefix that lane l reads there (lanes 0-15 the aggregates of the
    item's group, lanes 16-31 the Fenwick words for bits 4-19 of its chain
    position), read once, or a published 0 where the prefix needs no word
    or `looks_back` is false; chains of 2^20 items or more get unpublished
    words (those look back after the block meets). On the
    CPU, where items run in ticket order, it is the word before the item
    (its inclusive prefix, always published), or a published 0 for the
    chain's first item.

    ```mlir
    %words = tcu.lagged_prefix %state[%s] first %sf if %has_s : memref<?xi64>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[I64], [1]>, "the chains' words",
                       [MemRead]>:$state,
                   Index:$item, Index:$first, I1:$looks_back);
  let results = (outs I64:$words);
  let assemblyFormat = [{
    $state `[` $item `]` `first` $first `if` $looks_back attr-dict `:`
    type($state)
  }];
}

def TCU_OffsetHeadsOp : TCU_Op<"offset_heads"> {
  let summary = "which elements of a tile begin a segment, from CSR offsets";
  let description = [{
    For the tile of the 256 consecutive elements from `base` (rows of 16),
    reads the offsets `off[lo], off[lo + 1], ...` up to the first one at
    or past `base + 256` (or up to `hi`): `next` is the index of that one
    (`hi` if none), so a walk over consecutive tiles passes it on as the
    next tile's `lo`. Every offset read with `0 <= off[s] - base < 256`
    marks the element it names as a segment head (several equal offsets,
    empty segments, mark it once). Element (r, c) of `rows` is the mask of
    row r's heads, bit j for the row's j-th element (the same in every
    column), so `(rows >> position) & 1` tells whether an element is a
    head whatever order its row is in; `most` is the most heads any row
    has (0: the tile holds no head).

    The offsets are i32 or i64, read as signed values; unsorted ones give
    nonsense marks but the op reads only `off[lo .. hi)`. On the GPU the
    lanes read 32 offsets at a time and the warp ORs their bits together
    (`redux.sync`); on the CPU a loop reads them one by one.

    With `mirror %n` (a reverse scan's, docs/algorithms.md#reverse-scans)
    the op reads the offsets of the mirrored view instead: `off[i]` above
    stands for `n - off[K - i]`, K the buffer's length minus 1.

    ```mlir
    %rows, %next, %most = tcu.offset_heads %off[%lo, %hi] base %base
        : memref<?xi64> -> vector<16x16xi32>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[I32, I64], [1]>, "the offsets",
                           [MemRead]>:$offsets,
                   Index:$lo, Index:$hi, Index:$base, Optional<Index>:$mirror);
  let results = (outs TCU_Tile:$rows, Index:$next, Index:$most);
  let assemblyFormat = [{
    $offsets `[` $lo `,` $hi `]` `base` $base (`mirror` $mirror^)? attr-dict
    `:` type($offsets) `->` type($rows)
  }];
  let hasVerifier = 1;
}

def TCU_StoreSegmentEndsOp : TCU_Op<"store_segment_ends"> {
  let summary = "stores the value at each segment's last element, from CSR offsets";
  let description = [{
    `tile` holds a value for each of the 256 consecutive elements from
    `base` (rows of 16, in `order`: `fixed` or `quads`, as a tile loaded
    so), typically a segmented scan. For s = lo, lo + 1, ... while
    `s < hi` and `off[s + 1] < end`, writes `dest[s]`: the tile's value at
    element `off[s + 1] - 1` where segment s is not empty and that element
    lies in the tile, else 0 (an empty segment's sum). Returns the first s
    it did not write, the next tile's `lo`. So a walk over consecutive
    tiles with `end` one past each tile's last element writes every
    segment's reduction once, in order, and a segment that ends in a later
    tile waits for it. Values convert to `dest`'s element type as
    `tcu.store_tile` converts them.

    `hi` must not exceed the offsets' length minus 1 nor `dest`'s length.
    On the GPU the lanes take 32 segments at a time and fetch their values
    from the lanes that hold them (shuffles); on the CPU a loop writes them
    one by one.

    ```mlir
    %next = tcu.store_segment_ends %R, %off[%lo, %hi] base %base end %end,
        %out : vector<16x16xf32>, memref<?xi64> -> memref<?xf32>
    ```
  }];
  let arguments = (ins TCU_Tile:$tile,
                   Arg<MemRefRankOf<[I32, I64], [1]>, "the offsets",
                       [MemRead]>:$offsets,
                   Index:$lo, Index:$hi, Index:$base, Index:$end,
                   Arg<AnyMemRef, "the buffer written", [MemWrite]>:$dest,
                   DefaultValuedAttr<TCU_ElementOrderAttr,
                                     "::mlir::tcu::ElementOrder::Fixed">:$order);
  let results = (outs Index:$next);
  let assemblyFormat = [{
    $tile `,` $offsets `[` $lo `,` $hi `]` `base` $base `end` $end `,` $dest
    (`order` $order^)? attr-dict `:` type($tile) `,` type($offsets) `->`
    type($dest)
  }];
  let hasVerifier = 1;
}

#endif // TCUC_DIALECT_TCU_TCUMMAOPS_TD
