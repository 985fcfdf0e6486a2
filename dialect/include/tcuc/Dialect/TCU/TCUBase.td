//===- TCUBase.td - tcu dialect definition and attributes --*- tablegen -*-===//
//
// The tcu dialect: segmented reductions and scans that tcuc lowers to Tensor
// Core matrix products.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_DIALECT_TCU_TCUBASE_TD
#define TCUC_DIALECT_TCU_TCUBASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def TCU_Dialect : Dialect {
  let name = "tcu";
  let cppNamespace = "::mlir::tcu";
  let summary = "Segmented reduction and scan collectives for Tensor Cores";
  let description = [{
    The `tcu` dialect holds the collective operations that tcuc compiles to
    Tensor Core kernels: `tcu.segmented_reduce` and `tcu.segmented_scan`.
    Both read a 1-D input buffer cut into consecutive segments of
    `segment_size` elements (the last segment may be shorter) and write one
    result per segment (reduce) or one result per element (scan).

    Element types: `f16`, `bf16` and `f32` inputs accumulate in `f32`; `i8`
    inputs are read as signed two's-complement bytes and accumulate exactly
    in `i32`. Lengths may be static or dynamic.

    Later passes lower these operations to the "mma form", in which the
    Tensor Core matrix products (P·A, A·U, L·A) of Dakkak et al. are explicit.

    Discardable attributes the dialect verifies (type, value, owner), by
    which the mma-form lowering hands facts to the GPU backend:

    - `tcu.tile_runs` (unit, on an `scf.parallel` of work items or on the
      `gpu.func` kernel made of it): the tile loads and stores of its items
      may be lowered in runs (one bounds test, address and L2 policy for
      consecutive tiles of a warp);
    - `tcu.min_blocks_per_sm` (i64 in [1, 32], on an `scf.parallel` of
      block work items): how many of its blocks an SM should hold at once;
      the kernel gets it as `nvvm.minctasm`;
    - `tcu.max_registers` (i64 in [24, 255], on an `scf.parallel` of work
      items): the registers a thread of its kernel may use; the kernel gets
      it as `nvvm.maxnreg`;
    - `tcu.chunk_loop` (unit, on an `scf.for` inside a kernel): every
      iteration ends at a block barrier that all warps of the block reach;
      set by tcu-outline-kernels, consumed by tcu-prefetch-chunks.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The discardable attributes above (verifyOperationAttribute).
    static constexpr ::llvm::StringLiteral getTileRunsAttrName() {
      return ::llvm::StringLiteral("tcu.tile_runs");
    }
    static constexpr ::llvm::StringLiteral getMinBlocksPerSMAttrName() {
      return ::llvm::StringLiteral("tcu.min_blocks_per_sm");
    }
    static constexpr ::llvm::StringLiteral getMaxRegistersAttrName() {
      return ::llvm::StringLiteral("tcu.max_registers");
    }
    static constexpr ::llvm::StringLiteral getChunkLoopAttrName() {
      return ::llvm::StringLiteral("tcu.chunk_loop");
    }
  }];
}

// The per-segment decays of a decayed scan: memref<?xf32> (buildable, so
// the assembly format needs no type for it).
def TCU_DecayBuffer : Type<
    And<[MemRefRankOf<[F32], [1]>.predicate,
         CPred<"::llvm::cast<::mlir::MemRefType>($_self).isDynamicDim(0)">]>,
    "memref<?xf32> (one decay per segment)", "::mlir::MemRefType">,
    BuildableType<"::mlir::MemRefType::get({::mlir::ShapedType::kDynamic}, "
                  "$_builder.getF32Type())">;

def TCU_CombinerKind : I32EnumAttr<"CombinerKind",
    "how a segment's elements are combined", [
      I32EnumAttrCase<"Add", 0, "add">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcu";
  let description = [{
    The binary operation a collective folds over each segment. Only `add`
    exists today; the enum is where `min` and `max` will be added.
  }];
}

def TCU_CombinerKindAttr : EnumAttr<TCU_Dialect, TCU_CombinerKind, "kind"> {
  let summary = "combiner of a segmented collective";
  let description = [{
    Selects the combining operation of a `tcu` collective, written
    `#tcu.kind<add>` (or `<add>` inside an operation).
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Algorithm variants (which of the papers' algorithms lowers a collective).
//===----------------------------------------------------------------------===//

def TCU_Variant : I32EnumAttr<"Variant", "algorithm variant of a collective", [
      I32EnumAttrCase<"Seg16", 0, "seg16">,
      I32EnumAttrCase<"Seg256", 1, "seg256">,
      I32EnumAttrCase<"Seg256N", 2, "seg256n">,
      I32EnumAttrCase<"Seg16NStrided", 3, "seg16n_strided">,
      I32EnumAttrCase<"Seg16NCoalesced", 4, "seg16n_coalesced">,
      I32EnumAttrCase<"Seg16N", 5, "seg16n">,
      I32EnumAttrCase<"Block", 6, "block">,
      I32EnumAttrCase<"Grid", 7, "grid">,
      I32EnumAttrCase<"Packed", 8, "packed">,
      I32EnumAttrCase<"Lookback", 9, "lookback">,
      I32EnumAttrCase<"Lagged", 10, "lagged">,
      I32EnumAttrCase<"Stream", 11, "stream">,
      I32EnumAttrCase<"MatMulScan", 12, "matmulscan">,
      I32EnumAttrCase<"Balanced", 13, "balanced">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcu";
}

def TCU_VariantAttr : EnumAttr<TCU_Dialect, TCU_Variant, "variant"> {
  let summary = "which Tensor Core algorithm lowers a collective";
  let description = [{
    Selects the algorithm `convert-tcu-to-mma` emits (docs/algorithms.md):
    `seg16` (segments of at most 16), `seg256` (at most 256), `seg256n`
    (work-efficient, any size), `seg16n_strided` and `seg16n_coalesced`
    (reductions, any size), `seg16n` (scans, any size), `block` (the warps
    of a block share a segment), `grid` (several blocks share a segment;
    a second pass combines their partials), `packed` (segments of 16m
    elements, m <= 16: whole segments packed into a tile; a decayed scan
    packs segments of any size up to 256 into a warp's run of up to 16
    tiles), `lookback`
    (scans: blocks share a segment in one pass, chained by decoupled
    look-back) and `lagged` (scans in one pass: a block reduces one chunk
    and scans the chunk drawn D tickets before, whose input is still in L2
    and whose prefix is ready), `stream` (scans, segment_size >= 16:
    every tile is 256 consecutive elements wherever segments begin, and
    the boundaries are masks on the tile products) and `matmulscan`
    (scans: Zouzias and McColl's up-sweep / down-sweep of batched
    products, a tree of arity 256 over the segment's tiles) and `balanced`
    (segments from offsets only, the default there: every warp takes an
    equal run of the input's tiles whatever the segments' lengths, the
    boundaries inside it are masks on the tile products, and warps pass
    the sums of segments that cross them along a look-back chain).
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// The mma form: named constant matrices and tile layouts.
//===----------------------------------------------------------------------===//

def TCU_MatrixKind : I32EnumAttr<"MatrixKind", "named 16x16 0/1 matrix", [
      I32EnumAttrCase<"P", 0, "P">,
      I32EnumAttrCase<"PT", 1, "PT">,
      I32EnumAttrCase<"U", 2, "U">,
      I32EnumAttrCase<"Ustrict", 3, "Ustrict">,
      I32EnumAttrCase<"L", 4, "L">,
      I32EnumAttrCase<"Ones", 5, "Ones">,
      I32EnumAttrCase<"UQuads", 6, "UQuads">,
      I32EnumAttrCase<"UstrictQuads", 7, "UstrictQuads">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcu";
}

def TCU_MatrixKindAttr : EnumAttr<TCU_Dialect, TCU_MatrixKind, "matrix"> {
  let summary = "a named constant matrix of the papers";
  let description = [{
    `P`: ones in row 0. `PT`: ones in column 0 (P transposed).
    `U[r][c] = 1 if r <= c` (upper with diagonal: inclusive row scan).
    `Ustrict[r][c] = 1 if r < c` (exclusive row scan).
    `L[r][c] = 1 if r > c` (strictly lower: sums of earlier rows).
    `Ones`: all ones (the papers' `1`: row totals, broadcast).
    `UQuads`, `UstrictQuads`: `U` and `Ustrict` for rows loaded in the
    `quads` element order (`#tcu.order`): entry [r][c] is 1 if line
    position q(r) <= q(c) (< for strict), q(c) = 4 ((c mod 8) / 2) + c mod 2
    + 2 (c / 8) the position column c holds, so that A · UQuads scans
    each line in memory order.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def TCU_DecayMatrixKind : I32EnumAttr<"DecayMatrixKind",
    "a 16x16 matrix of powers of a decay", [
      I32EnumAttrCase<"U", 0, "U">,
      I32EnumAttrCase<"Ustrict", 1, "Ustrict">,
      I32EnumAttrCase<"L", 2, "L">,
      I32EnumAttrCase<"RowTail", 3, "RowTail">,
      I32EnumAttrCase<"RowHead", 4, "RowHead">,
      I32EnumAttrCase<"RowHeadStrict", 5, "RowHeadStrict">,
      I32EnumAttrCase<"Carry", 6, "Carry">,
      I32EnumAttrCase<"CarryStrict", 7, "CarryStrict">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcu";
}

def TCU_DecayMatrixKindAttr : EnumAttr<TCU_Dialect, TCU_DecayMatrixKind,
                                       "decay_matrix"> {
  let summary = "a matrix of powers of a decay a (tcu.decay_matrix)";
  let description = [{
    Entry (r, c), 0 where no power is given:
    `U`: a^(c-r) for r <= c (A·U_a: each row's decayed inclusive scan).
    `Ustrict`: a^(c-r-1) for r < c (the exclusive one).
    `L`: a^(16(r-1-c)) for r > c (L_a·A: row r gets the earlier rows,
    each decayed to the end of row r - 1, column by column).
    `RowTail`: a^(15-c) in every row (weights an element of a row by the
    steps to the row's end). `RowHead`: a^(c+1) in every row (a value at
    the end of the previous row, carried to column c). `RowHeadStrict`:
    a^c (the same for an exclusive scan). `Carry`: a^(16r+c+1) (a value
    before the tile, carried to element 16r+c); `CarryStrict`: a^(16r+c)
    (the same for an exclusive scan).
  }];
  let assemblyFormat = "`<` $value `>`";
}

def TCU_DecayForm : I32EnumAttr<"DecayForm",
    "how a decayed scan computes its tiles", [
      I32EnumAttrCase<"Matrices", 0, "matrices">,
      I32EnumAttrCase<"Recurrence", 1, "recurrence">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcu";
}

def TCU_DecayFormAttr : EnumAttr<TCU_Dialect, TCU_DecayForm, "decay_form"> {
  let summary = "a decayed scan's tile form (tcu-select-strategy's choice)";
  let description = [{
    `matrices`: Tensor Core products with the decay matrices
    (tcu.decay_matrix, three parts each; the default for one decay).
    `recurrence`: the tiles scanned on CUDA cores by
    tcu.linear_recurrence (the only form of per-segment decays).
    docs/algorithms.md#per-segment-decays has both; the strategy picks the
    measured faster one (docs/rationale.md#one-decay-on-cuda-cores).
  }];
  let assemblyFormat = "`<` $value `>`";
}

def TCU_TileLayout : I32EnumAttr<"TileLayout", "how lines map onto a tile", [
      I32EnumAttrCase<"Rows", 0, "rows">,
      I32EnumAttrCase<"Cols", 1, "cols">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcu";
}

def TCU_TileLayoutAttr : EnumAttr<TCU_Dialect, TCU_TileLayout, "layout"> {
  let summary = "whether memory lines become tile rows or tile columns";
  let description = [{
    `rows`: line i of a tile load is row i (row-major). `cols`: line i is
    column i (column-major; the Reduction16 layout, column j = segment j).
  }];
  let assemblyFormat = "`<` $value `>`";
}

def TCU_ElementOrder : I32EnumAttr<"ElementOrder",
    "what a tile's consumer depends on of its elements' order", [
      I32EnumAttrCase<"Fixed", 0, "fixed">,
      I32EnumAttrCase<"Line", 1, "line">,
      I32EnumAttrCase<"Tile", 2, "tile">,
      I32EnumAttrCase<"Quads", 3, "quads">,
      I32EnumAttrCase<"Lanes", 4, "lanes">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcu";
}

def TCU_ElementOrderAttr : EnumAttr<TCU_Dialect, TCU_ElementOrder, "order"> {
  let summary = "how much of a loaded tile's element order matters";
  let description = [{
    `fixed`: every element at its position. `line`: only which elements each
    line holds (the consumer sums each line). `tile`: only which elements the
    tile holds (the consumer sums the whole tile). `quads`: every element at
    a fixed permuted position: line position p sits in column
    2 (p / 4) + p mod 2 + 8 ((p mod 4) / 2) (positions 0-3 in columns 0, 1,
    8, 9; 4-7 in 2, 3, 10, 11; ...), the order in which an mma lane holds
    four consecutive elements of a row; the consumer compensates (the
    `UQuads` matrices). `lanes`: every element at a fixed permuted position
    of the whole tile: the p-th of the 256 in line order (line p / 16,
    position p mod 16) sits at element tcu::lanesElement(p), the one a GPU
    lane l = p / 8 holds as its (p mod 8)-th (so a lane holds 8 consecutive
    elements); consumers that depend on the order (tcu.linear_recurrence
    `order <lanes>`, tcu.positions) follow it.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def TCU_CacheHint : I32EnumAttr<"CacheHint",
    "how long a tile access's lines should stay in L2", [
      I32EnumAttrCase<"Normal", 0, "normal">,
      I32EnumAttrCase<"EvictLast", 1, "evict_last">,
      I32EnumAttrCase<"EvictFirst", 2, "evict_first">,
      I32EnumAttrCase<"Streaming", 3, "streaming">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcu";
}

def TCU_CacheHintAttr : EnumAttr<TCU_Dialect, TCU_CacheHint, "cache"> {
  let summary = "the L2 eviction priority a tile load or store asks for";
  let description = [{
    A hint, never a change of the result: `normal` (the default, not
    printed), `evict_last` (the lines will be read again soon: keep them),
    `evict_first` (read for the last time: let them go first) and
    `streaming` (written or read once: PTX `.cs`). The GPU backend attaches
    it to the accesses of whole tiles (`createpolicy` with
    `L2::cache_hint`, or `.cs`); the CPU backend ignores it. The lagged
    scan reads each chunk twice, the second time about 8 MB of input
    later: without the hints those lines are evicted in between
    (bench/results/lagged-scan-prototype).
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Schedules of the single-pass scans (typed strategy fields).
//===----------------------------------------------------------------------===//

def TCU_WalkScheduleAttr : AttrDef<TCU_Dialect, "WalkSchedule"> {
  let mnemonic = "walk_schedule";
  let summary = "how the warps of a decayed scan walk their tiles";
  let description = [{
    The tuning of a decayed scan whose warps walk tiles in order (`packed`,
    `seg256n`, `grid`): choices that change speed, never the result.
    `tcu-select-strategy` sets it (docs/rationale.md#walk-schedule);
    `convert-tcu-to-mma` only reads it. Absent: the defaults, the plain
    walk.

    - `prefetch_tiles`: a warp asks for its tiles up to `prefetch_tiles`
      ahead of the one it loads to be brought into L2 (`tcu.prefetch`):
      tiles 1 .. prefetch_tiles - 1 of its walk (or packed group) when it
      starts, tile t + prefetch_tiles with tile t. In `packed`, 16 (a
      group's most tiles) asks for the whole group at its start. 0: none.
    - `max_registers`: the registers a thread of the kernel may use (ptxas
      `.maxnreg`), so that more warps fit an SM; 0: ptxas's own choice.

    Example:

    ```mlir
    #tcu.walk_schedule<prefetch_tiles = 2, max_registers = 56>
    ```
  }];
  let parameters = (ins
    DefaultValuedParameter<"int64_t", "0">:$prefetch_tiles,
    DefaultValuedParameter<"int64_t", "0">:$max_registers
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TCU_ChainScheduleAttr : AttrDef<TCU_Dialect, "ChainSchedule"> {
  let mnemonic = "chain_schedule";
  let summary = "how a single-pass (look-back or lagged) scan is scheduled";
  let description = [{
    The tuning of the scans whose blocks form a ticketed chain of chunks
    (`lookback`, `lagged`): choices that change speed, never the result.
    `tcu-select-strategy` sets it on every such scan (from the cost
    model's rules, docs/rationale.md#lagged-knobs);
    `convert-tcu-to-mma` only reads it. A scan without one gets these
    defaults, which are the plain algorithm.

    - `prefetch_bytes` (lookback, lagged): bytes of input ahead of its own
      chunk a block asks to be brought into L2 (`tcu.prefetch`); 0: none.
    - `lag_bytes` (lagged): how far the scanning trails the reducing, in
      bytes of input (at least one chunk, at most half the chunks).
    - `blocks_per_sm` (lagged): the blocks an SM the kernel is held to
      (ptxas `.minnctapersm`, capping registers); 0: ptxas's own choice.
    - `quads` (lagged, 16-bit input): load, scan and store whole tiles in
      the `quads` element order (`#tcu.order<quads>`) instead of `fixed`.
    - `sum_first` (lagged): a warp sums its reduced run right after the
      scanned run's loads instead of at the exchange (frees registers).
    - `read_early` (lagged): warp 0 reads the scanned chunk's prefix words
      once after its reduced sum (`tcu.lagged_prefix`), so a block whose
      words were all published meets once a ticket.
    - `share_items` (lagged): warp 0 finds the ticket's items (divisions,
      bounds, words) once for the block and shares them; the items are
      then divided by a constant.
    - `walk_tickets` (lagged, 2 warps or more): a block walks tickets until
      they run out, drawing the next during the current one, instead of
      one ticket a block.
    - `walking_warps` (lagged with `walk_tickets`): the warps of all block
      items together (walking_warps / warps blocks).

    Example:

    ```mlir
    #tcu.chain_schedule<prefetch_bytes = 2097152, lag_bytes = 6291456,
                        blocks_per_sm = 8, share_items = true>
    ```
  }];
  let parameters = (ins
    DefaultValuedParameter<"int64_t", "0">:$prefetch_bytes,
    DefaultValuedParameter<"int64_t", "::mlir::tcu::kDefaultLagBytes">:$lag_bytes,
    DefaultValuedParameter<"int64_t", "0">:$blocks_per_sm,
    DefaultValuedParameter<"bool", "false">:$quads,
    DefaultValuedParameter<"bool", "false">:$sum_first,
    DefaultValuedParameter<"bool", "false">:$read_early,
    DefaultValuedParameter<"bool", "false">:$share_items,
    DefaultValuedParameter<"bool", "false">:$walk_tickets,
    DefaultValuedParameter<"int64_t", "::mlir::tcu::kDefaultWalkingWarps">:$walking_warps
  );
  let builders = [
    // The defaults, with `prefetchBytes` (a look-back scan's schedule).
    AttrBuilder<(ins CArg<"int64_t", "0">:$prefetchBytes), [{
      return $_get($_ctxt, prefetchBytes, ::mlir::tcu::kDefaultLagBytes,
                   /*blocks_per_sm=*/0, /*quads=*/false, /*sum_first=*/false,
                   /*read_early=*/false, /*share_items=*/false,
                   /*walk_tickets=*/false,
                   ::mlir::tcu::kDefaultWalkingWarps);
    }]>
  ];
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // TCUC_DIALECT_TCU_TCUBASE_TD
