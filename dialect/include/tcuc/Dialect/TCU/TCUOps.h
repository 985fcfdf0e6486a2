//===- TCUOps.h - tcu operations and attributes -----------------*- C++ -*-===//

#ifndef TCUC_DIALECT_TCU_TCUOPS_H
#define TCUC_DIALECT_TCU_TCUOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <string>

#include "tcuc/Dialect/TCU/TCUDialect.h"
#include "tcuc/Dialect/TCU/TCUEnums.h.inc"
#include "tcuc/Spec.h"

namespace mlir::tcu {
/// #tcu.chain_schedule's defaults (the plain algorithm): an 8 MiB lag, and
/// walking blocks of 8192 warps in all.
constexpr int64_t kDefaultLagBytes = int64_t(8) << 20;
constexpr int64_t kDefaultWalkingWarps = 8192;
/// The warps of a block without `warps_per_block`: the look-back scan's
/// and the lagged scan's.
constexpr int64_t kDefaultLookbackWarps = 16;
constexpr int64_t kDefaultLaggedWarps = 4;
} // namespace mlir::tcu

#define GET_ATTRDEF_CLASSES
#include "tcuc/Dialect/TCU/TCUAttrs.h.inc"

namespace mlir {
namespace tcu {
/// The accumulator type for an input element type: f32 for f16/bf16/f32,
/// i32 for i8. Returns null for element types tcu does not accept.
Type getAccumulatorType(Type inputElementType);

/// Bytes one element of an integer or float type takes in memory.
int64_t getElementBytes(Type elementType);

/// The variant convert-tcu-to-mma uses when a collective names none: seg16
/// up to 16 elements a segment, seg256 up to 256, seg256n beyond.
Variant getDefaultVariant(int64_t segmentSize);

/// A scan's `decay` as its custom syntax prints it: the fewest decimal
/// digits that read back as the same f32, always with a point ("0.9",
/// "1.0", "1.0e-05"); a non-finite value as its bits ("0x7FC00000").
std::string formatDecay(float a);

/// Whether `variant` has a decayed form (a scan's `decay`): seg16, seg256,
/// packed, seg256n and grid (docs/algorithms.md#decayed-scans).
bool isDecayVariant(Variant variant);

/// True for the variants whose blocks of warps share a segment (`block`,
/// `lookback`): the ones `warps_per_block` applies to.
bool takesWarpsPerBlock(Variant variant);

/// Whether `variant` can lower a reduction (isScan false) or a scan of
/// segments of `segmentSize` (`decayed`: a decayed scan, whose `packed`
/// takes any size up to 256); if not, `why` says which rule fails.
bool isVariantApplicable(Variant variant, bool isScan, int64_t segmentSize,
                         std::string *why = nullptr, bool decayed = false);

/// The segment sizes one kernel of `variant` takes when the size is a
/// runtime value (the collective's `index` operand): [min, max], or nullopt
/// for the variants that need a constant segment_size
/// (tcuc::runtimeSegmentRange's table). A size outside the range is not
/// checked by the kernel: the runtime checks it before a launch.
std::optional<std::pair<int64_t, int64_t>>
getRuntimeSegmentRange(Variant variant, bool isScan);

/// The line position that tile column `column` holds in the `quads`
/// element order (#tcu.order<quads>), and the column that holds `position`.
int quadsPosition(int column);
int quadsColumn(int position);

/// The `lanes` element order (#tcu.order<lanes>): the place in line order
/// (16 * line + position) that tile element (row, col) holds, and the
/// element (16 * row + col) that holds `place`: the (place mod 8)-th
/// element of GPU lane place / 8 (tcuc's lane fragment layout).
int lanesPlace(int row, int col);
int lanesElement(int place);

/// Entry (row, col) of a named constant matrix: 0 or 1. `block` cuts L
/// into diagonal blocks of that many rows (tcu.matrix's `block`).
int matrixEntry(MatrixKind kind, int row, int col, int block = 16);

/// The parts `tcu.split` defines for `source` (a vector of f32 or i32 of any
/// shape), built with arith ops: three bf16 vectors `hi, mid, lo` for f32,
/// five i8 vectors `d0..d4` for i32 (see SplitOp's description). Both
/// backends lower `tcu.split` with this, on whole tiles (CPU) or on one
/// lane's fragment (GPU).
/// For f32, `remainder`, if given, receives the bits (i32) of the rest `lo`
/// was cut from: their low 16 are all 0 exactly where the three parts hold
/// x whole.
SmallVector<Value> buildSplitParts(OpBuilder &b, Location loc, Value source,
                                   Value *remainder = nullptr);

/// x + y for accumulator values (f32 or i32 elements, scalars or vectors):
/// arith.addf or arith.addi.
Value buildAccumulatorAdd(OpBuilder &b, Location loc, Value x, Value y);

/// The tile edge of the mma form (16x16x16 products).
constexpr int64_t kTileSize = 16;
/// The longest segment the streaming scan takes (runtime/include/tcuc/Spec.h).
using tcuc::kMaxStreamSegment;
/// The longest segment a decayed scan's `packed` variant takes.
using tcuc::kMaxPackedDecayedSegment;
/// The tiles a packed decayed group spans where a group of a multiple of 16
/// elements fits (every S <= 256: 16 segments of 255 fit in 4096; a longer
/// S takes the fewest segments whose span is one); #tcu.walk_schedule
/// prefetches at most this far (the whole group).
constexpr int64_t kPackedGroupTiles = 16;
/// The register caps ptxas takes as .maxnreg (tcu.max_registers,
/// #tcu.walk_schedule's max_registers).
constexpr int64_t kMinRegisterCap = 24;
constexpr int64_t kMaxRegisterCap = 255;

/// Number of segments of `numElements` elements cut into segments of
/// `segmentSize` (ceil division; 0 for 0 elements). Requires segmentSize >= 1
/// and numElements >= 0.
int64_t getNumSegments(int64_t numElements, int64_t segmentSize);
} // namespace tcu
} // namespace mlir

#define GET_OP_CLASSES
#include "tcuc/Dialect/TCU/TCUOps.h.inc"

namespace mlir::tcu {
/// A product of an f32 tile X with a named matrix as
/// convert-tcu-to-mma builds it: X split into parts (tcu.split) and one
/// product per part chained through the accumulator, the lowest part first
/// (K·hi + (K·mid + (K·lo + acc))). Both backends lower such a chain as one
/// product of X where the parts would lose something (values below
/// 2^-110; NaN and Inf). (i32 tiles' Horner chains are not matched.)
struct SplitProduct {
  SplitOp split; // of X
  MMAOp first;   // the lowest part's product: its accumulator is the chain's
  bool constOnLeft;
};
/// The chain `last` (the product of part 0) ends, if it is one: every
/// product with the same named matrix on the same side, the parts in order,
/// each earlier product used only by the next.
std::optional<SplitProduct> matchSplitProduct(MMAOp last);

/// The i1 tile `m` when `tile` is a mask matrix, an operand tile whose
/// elements are 1 where m holds and 0 elsewhere (`arith.select %m, 1, 0`,
/// or `arith.extui %m` for i8): the streaming scan's boundary-masked L.
/// Its products, as those with a named matrix, add up the selected elements
/// as IEEE adds would (docs/algorithms.md, "NaN and Inf"). Null otherwise.
Value matchMaskMatrix(Value tile);

/// tcu.block_prefix as memref, scf and arith ops, the earlier warps'
/// values added in warp order. With `wait` (the GPU's block barrier, placed
/// after the store) all W values are loaded and the warp's prefix picked by
/// selects (W = the op's `warps`); without it (the CPU, whose warps run in
/// order) a loop reads only the earlier warps' entries, the only ones
/// stored yet. Both give the same sums. Both backends lower the op with it.
Value lowerBlockPrefix(OpBuilder &b, BlockPrefixOp op,
                       function_ref<void()> wait);
/// The same for any warp values (tcu.block_lookback's too); with `wait`,
/// `total`, if given, receives the sum of all `warps` values in warp order.
Value lowerBlockPrefix(OpBuilder &b, Location loc, Value value, Value buffer,
                       Value offset, Value warp, int64_t warps,
                       function_ref<void()> wait, Value *total = nullptr);
} // namespace mlir::tcu

#endif // TCUC_DIALECT_TCU_TCUOPS_H
