//===- TCUOps.cpp - tcu operation verifiers and custom syntax -------------===//

#include "tcuc/Dialect/TCU/TCUOps.h"
#include "tcuc/Spec.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace mlir;
using namespace mlir::tcu;

int64_t mlir::tcu::getElementBytes(Type elementType) {
  return (elementType.getIntOrFloatBitWidth() + 7) / 8;
}

Type mlir::tcu::getAccumulatorType(Type inputElementType) {
  MLIRContext *ctx = inputElementType.getContext();
  if (inputElementType.isF16() || inputElementType.isBF16() ||
      inputElementType.isF32())
    return Float32Type::get(ctx);
  if (inputElementType.isSignlessInteger(8))
    return IntegerType::get(ctx, 32);
  return {};
}

int64_t mlir::tcu::getNumSegments(int64_t numElements, int64_t segmentSize) {
  assert(segmentSize >= 1 && numElements >= 0 && "invalid segmentation");
  // Written without numElements + segmentSize - 1, which can overflow.
  return numElements / segmentSize + (numElements % segmentSize != 0 ? 1 : 0);
}

Variant mlir::tcu::getDefaultVariant(int64_t segmentSize) {
  if (segmentSize <= kTileSize)
    return Variant::Seg16;
  if (segmentSize <= kTileSize * kTileSize)
    return Variant::Seg256;
  return Variant::Seg256N;
}

bool mlir::tcu::takesWarpsPerBlock(Variant variant) {
  return variant == Variant::Block || variant == Variant::Lookback ||
         variant == Variant::Lagged;
}

std::optional<std::pair<int64_t, int64_t>>
mlir::tcu::getRuntimeSegmentRange(Variant variant, bool isScan) {
  int64_t min = 0, max = 0;
  if (!tcuc::runtimeSegmentRange(stringifyVariant(variant), isScan, min, max))
    return std::nullopt;
  return std::make_pair(min, max);
}

/// The variants that take a runtime segment size, quoted, for messages.
static std::string runtimeSizeVariants(bool isScan) {
  std::string names;
  for (uint32_t v = 0; v <= getMaxEnumValForVariant(); ++v)
    if (std::optional<Variant> variant = symbolizeVariant(v);
        variant && getRuntimeSegmentRange(*variant, isScan))
      names += (names.empty() ? "'" : ", '") +
               stringifyVariant(*variant).str() + "'";
  return names;
}

bool mlir::tcu::isVariantApplicable(Variant variant, bool isScan,
                                    int64_t segmentSize, std::string *why,
                                    bool decayed) {
  auto fail = [&](const std::string &reason) {
    if (why)
      *why = reason;
    return false;
  };
  switch (variant) {
  case Variant::Seg16:
    if (segmentSize > kTileSize)
      return fail("variant 'seg16' needs segment_size <= 16");
    return true;
  case Variant::Seg256:
    if (segmentSize > kTileSize * kTileSize)
      return fail("variant 'seg256' needs segment_size <= 256");
    return true;
  case Variant::Seg16NStrided:
  case Variant::Seg16NCoalesced:
    if (isScan)
      return fail("variant '" + stringifyVariant(variant).str() +
                  "' is a reduction variant (scans use 'seg16n')");
    return true;
  case Variant::Seg16N:
    if (!isScan)
      return fail("variant 'seg16n' is a scan variant (reductions use "
                  "'seg16n_strided' or 'seg16n_coalesced')");
    return true;
  case Variant::Seg256N:
  case Variant::Block:
  case Variant::Grid:
    return true;
  case Variant::Lookback:
  case Variant::Lagged:
  case Variant::MatMulScan:
    if (!isScan)
      return fail("variant '" + stringifyVariant(variant).str() +
                  "' is a scan variant (reductions use 'grid')");
    return true;
  case Variant::Stream:
    if (!isScan)
      return fail("variant 'stream' is a scan variant");
    if (segmentSize < kTileSize || segmentSize > kMaxStreamSegment)
      return fail("variant 'stream' needs 16 <= segment_size <= 2^24");
    return true;
  case Variant::Balanced:
    return fail("variant 'balanced' takes segments from offsets only");
  case Variant::Packed:
    // A decayed scan packs whole segments of any size into a warp's run of
    // tiles (docs/algorithms.md#packed-decayed-scans).
    if (decayed && segmentSize > kMaxPackedDecayedSegment)
      return fail("variant 'packed' of a decayed scan needs segment_size <= " +
                  std::to_string(kMaxPackedDecayedSegment));
    if (decayed)
      return true;
    if (segmentSize % kTileSize != 0 || segmentSize > kTileSize * kTileSize)
      return fail("variant 'packed' needs a segment_size that is a multiple "
                  "of 16, at most 256");
    return true;
  }
  return fail("unknown variant");
}

int mlir::tcu::quadsPosition(int column) {
  return 4 * ((column % 8) / 2) + column % 2 + 2 * (column / 8);
}

int mlir::tcu::quadsColumn(int position) {
  return 2 * (position / 4) + position % 2 + 8 * ((position % 4) / 2);
}

// Lane l = 4g + t holds in slot s element (g + 8 ((s >> 1) & 1),
// 2t + (s & 1) + 8 (s >> 2)) (compiler/lib/Conversion/TCUMMAToGPU/
// LaneFragments.h; LanesOrderTest checks the two agree).
int mlir::tcu::lanesPlace(int row, int col) {
  int g = row % 8, t = (col % 8) / 2;
  int s = col % 2 + 2 * (row / 8) + 4 * (col / 8);
  return 8 * (4 * g + t) + s;
}

int mlir::tcu::lanesElement(int place) {
  int lane = place / 8, s = place % 8, g = lane / 4, t = lane % 4;
  int row = g + 8 * ((s >> 1) & 1), col = 2 * t + (s & 1) + 8 * (s >> 2);
  return 16 * row + col;
}

int mlir::tcu::matrixEntry(MatrixKind kind, int row, int col, int block) {
  switch (kind) {
  case MatrixKind::P:
    return col / block == row;
  case MatrixKind::PT:
    return col == 0;
  case MatrixKind::U:
    return row <= col;
  case MatrixKind::Ustrict:
    return row < col;
  case MatrixKind::L:
    return row > col && row / block == col / block;
  case MatrixKind::Ones:
    return 1;
  case MatrixKind::UQuads:
    return quadsPosition(row) <= quadsPosition(col);
  case MatrixKind::UstrictQuads:
    return quadsPosition(row) < quadsPosition(col);
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// custom<ScanMode>: `inclusive` or `exclusive` for the BoolAttr `inclusive`,
// then `reverse` for the UnitAttr `reverse` (a suffix scan) when set.
//===----------------------------------------------------------------------===//

static ParseResult parseScanMode(OpAsmParser &parser, BoolAttr &inclusive,
                                 UnitAttr &reverse) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  if (keyword != "inclusive" && keyword != "exclusive")
    return parser.emitError(loc, "expected 'inclusive' or 'exclusive', got '")
           << keyword << "'";
  inclusive = parser.getBuilder().getBoolAttr(keyword == "inclusive");
  if (succeeded(parser.parseOptionalKeyword("reverse")))
    reverse = parser.getBuilder().getUnitAttr();
  return success();
}

static void printScanMode(OpAsmPrinter &printer, Operation *,
                          BoolAttr inclusive, UnitAttr reverse) {
  printer << (inclusive.getValue() ? "inclusive" : "exclusive");
  if (reverse)
    printer << " reverse";
}

//===----------------------------------------------------------------------===//
// custom<Decay>: the value `a` of `decay a` (an optional group: absent, no
// `decay`) for the F32Attr `decay`.
// `a` prints in the fewest decimal digits that read back as the same f32
// (0.9, not 9.000000e-01); a non-finite value as its bits in hex, which the
// parser also takes, so a verifier error can show what was written.
//===----------------------------------------------------------------------===//

static ParseResult parseDecay(OpAsmParser &parser, FloatAttr &decay) {
  APFloat value(0.0f);
  if (parser.parseFloat(APFloat::IEEEsingle(), value))
    return failure();
  decay = parser.getBuilder().getF32FloatAttr(value.convertToFloat());
  return success();
}

std::string mlir::tcu::formatDecay(float a) {
  uint32_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  if (!std::isfinite(a))
    return llvm::formatv("{0:X8}", bits).str().insert(0, "0x");
  // Nine significant digits always read back as the same f32.
  for (int digits = 1; digits <= 9; ++digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*g", digits, double(a));
    if (std::strtof(text, nullptr) != a && digits < 9)
      continue;
    // MLIR reads a literal without a point ("1", "1e-05") as an integer,
    // which a float may not be: give it one.
    std::string literal = text;
    if (literal.find('.') == std::string::npos) {
      size_t e = literal.find('e');
      literal.insert(e == std::string::npos ? literal.size() : e, ".0");
    }
    return literal;
  }
  return {};
}

static void printDecay(OpAsmPrinter &printer, Operation *, FloatAttr decay) {
  if (decay)
    printer << formatDecay(decay.getValue().convertToFloat());
}

// custom<DecayOrValue>: `decay` as custom<Decay> reads it, or an f32 value
// (%a: the decay given at run time) for the optional operand.
static ParseResult
parseDecayOrValue(OpAsmParser &parser,
                  std::optional<OpAsmParser::UnresolvedOperand> &value,
                  FloatAttr &decay) {
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult parsed = parser.parseOptionalOperand(operand);
  if (parsed.has_value()) {
    if (failed(*parsed))
      return failure();
    value = operand;
    return success();
  }
  return parseDecay(parser, decay);
}

static void printDecayOrValue(OpAsmPrinter &printer, Operation *op, Value value,
                              FloatAttr decay) {
  if (value)
    printer << value;
  else
    printDecay(printer, op, decay);
}

//===----------------------------------------------------------------------===//
// custom<RecurrenceTypes>: tcu.linear_recurrence's source type, then its
// decays type (`, f32`) only where that is a scalar (an f32 tile else).
//===----------------------------------------------------------------------===//

static ParseResult parseRecurrenceTypes(OpAsmParser &parser, Type &source,
                                        Type &decays) {
  if (parser.parseType(source))
    return failure();
  if (succeeded(parser.parseOptionalComma()))
    return parser.parseType(decays);
  decays = VectorType::get({16, 16}, parser.getBuilder().getF32Type());
  return success();
}

static void printRecurrenceTypes(OpAsmPrinter &printer, Operation *,
                                 Type source, Type decays) {
  printer << source;
  if (!isa<VectorType>(decays))
    printer << ", " << decays;
}

//===----------------------------------------------------------------------===//
// custom<Segments> (buffer forms): `segment_size` and a size as
// custom<SegmentSize> takes it, or `offsets %off` (the segment_size
// attribute then holds ShapedType::kDynamic).
//===----------------------------------------------------------------------===//

static ParseResult
parseSegmentSize(OpAsmParser &parser,
                 std::optional<OpAsmParser::UnresolvedOperand> &dynamic,
                 IntegerAttr &size);

static ParseResult parseSegments(
    OpAsmParser &parser, std::optional<OpAsmParser::UnresolvedOperand> &dynamic,
    std::optional<OpAsmParser::UnresolvedOperand> &offsets, IntegerAttr &size) {
  if (succeeded(parser.parseOptionalKeyword("offsets"))) {
    OpAsmParser::UnresolvedOperand operand;
    if (parser.parseOperand(operand))
      return failure();
    offsets = operand;
    size = parser.getBuilder().getI64IntegerAttr(ShapedType::kDynamic);
    return success();
  }
  if (parser.parseKeyword("segment_size"))
    return failure();
  return parseSegmentSize(parser, dynamic, size);
}

static void printSegmentSize(OpAsmPrinter &printer, Operation *, Value dynamic,
                             IntegerAttr size);

static void printSegments(OpAsmPrinter &printer, Operation *op, Value dynamic,
                          Value offsets, IntegerAttr size) {
  if (offsets) {
    printer << "offsets " << offsets;
    return;
  }
  printer << "segment_size ";
  printSegmentSize(printer, op, dynamic, size);
}

//===----------------------------------------------------------------------===//
// custom<SegmentSize>: an integer (the `segment_size` attribute) or an
// `index` operand, the segment size at run time (the attribute then holds
// ShapedType::kDynamic).
//===----------------------------------------------------------------------===//

static ParseResult
parseSegmentSize(OpAsmParser &parser,
                 std::optional<OpAsmParser::UnresolvedOperand> &dynamic,
                 IntegerAttr &size) {
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult hasOperand = parser.parseOptionalOperand(operand);
  if (hasOperand.has_value()) {
    if (failed(*hasOperand))
      return failure();
    dynamic = operand;
    size = parser.getBuilder().getI64IntegerAttr(ShapedType::kDynamic);
    return success();
  }
  int64_t value = 0;
  if (parser.parseInteger(value))
    return failure();
  size = parser.getBuilder().getI64IntegerAttr(value);
  return success();
}

static void printSegmentSize(OpAsmPrinter &printer, Operation *, Value dynamic,
                             IntegerAttr size) {
  if (dynamic)
    printer << dynamic;
  else
    printer << size.getInt();
}

//===----------------------------------------------------------------------===//
// Verification shared by both collectives.
//===----------------------------------------------------------------------===//

/// The element type and segment rules both forms share.
static LogicalResult verifyTypesAndSegment(Operation *op, Type in, Type out,
                                           int64_t segmentSize,
                                           std::optional<Variant> variant,
                                           bool isScan, bool runtimeSize,
                                           bool decayed) {
  Type acc = getAccumulatorType(in);
  if (!acc)
    return op->emitOpError()
           << "input element type must be f16, bf16, f32 or i8 (signed, "
              "signless form), got "
           << in;
  if (isa<IntegerType>(in)) {
    if (out != acc)
      return op->emitOpError()
             << "output element type must be i32 for i8 input, got " << out;
  } else if (out != acc && out != in) {
    return op->emitOpError()
           << "output element type must be f32 or the input element type " << in
           << ", got " << out;
  }

  if (runtimeSize || segmentSize == ShapedType::kDynamic) {
    if (!runtimeSize || segmentSize != ShapedType::kDynamic)
      return op->emitOpError()
             << "a runtime segment size needs both the index operand and "
                "segment_size = ShapedType::kDynamic (INT64_MIN)";
    if (variant && *variant != Variant::Balanced &&
        !getRuntimeSegmentRange(*variant, isScan))
      return op->emitOpError()
             << "variant '" << stringifyVariant(*variant)
             << "' needs a constant segment_size (a runtime size takes "
             << runtimeSizeVariants(isScan) << ")";
    if (variant == Variant::Packed && !decayed)
      return op->emitOpError()
             << "variant 'packed' takes a runtime segment size in decayed "
                "scans only";
    return success();
  }
  if (segmentSize < 1)
    return op->emitOpError()
           << "segment_size must be >= 1, got " << segmentSize;
  // The runtime's bound (runtime/include/tcuc/Spec.h): a larger segment is
  // one segment for any input, and the kernels' index math (segment base +
  // size, 16 segments' strides) must not overflow 64 bits.
  if (segmentSize > tcuc::kMaxElements)
    return op->emitOpError() << "segment_size must be <= 2^47 ("
                             << tcuc::kMaxElements << "), got " << segmentSize;
  std::string why;
  if (variant &&
      !isVariantApplicable(*variant, isScan, segmentSize, &why, decayed))
    return op->emitOpError() << why << ", got segment_size " << segmentSize;
  return success();
}

//===----------------------------------------------------------------------===//
// #tcu.chain_schedule
//===----------------------------------------------------------------------===//

LogicalResult
ChainScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          int64_t prefetchBytes, int64_t lagBytes,
                          int64_t blocksPerSM, bool, bool, bool, bool, bool,
                          int64_t walkingWarps) {
  if (prefetchBytes < 0)
    return emitError() << "prefetch_bytes must be >= 0, got " << prefetchBytes;
  if (lagBytes < 1)
    return emitError() << "lag_bytes must be >= 1, got " << lagBytes;
  // An SM holds at most 32 blocks (sm_80 to sm_90).
  if (blocksPerSM < 0 || blocksPerSM > 32)
    return emitError() << "blocks_per_sm must be in [0, 32], got "
                       << blocksPerSM;
  // At least a block of the most warps a block has (16), so walking blocks
  // exist whatever warps_per_block is.
  if (walkingWarps < 16 || walkingWarps > (1 << 20))
    return emitError() << "walking_warps must be in [16, 2^20], got "
                       << walkingWarps;
  return success();
}

//===----------------------------------------------------------------------===//
// #tcu.walk_schedule
//===----------------------------------------------------------------------===//

LogicalResult
WalkScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t prefetchTiles, int64_t maxRegisters) {
  // A packed group's tiles: the most (the whole group at its start).
  if (prefetchTiles < 0 || prefetchTiles > kPackedGroupTiles)
    return emitError() << "prefetch_tiles must be in [0, " << kPackedGroupTiles
                       << "], got " << prefetchTiles;
  if (maxRegisters != 0 &&
      (maxRegisters < kMinRegisterCap || maxRegisters > kMaxRegisterCap))
    return emitError() << "max_registers must be 0 or in [" << kMinRegisterCap
                       << ", " << kMaxRegisterCap << "], got " << maxRegisters;
  return success();
}

/// The rules between a scan's `schedule` and its variant, warps and types.
static LogicalResult verifySchedule(Operation *op, ChainScheduleAttr schedule,
                                    std::optional<Variant> variant,
                                    std::optional<uint64_t> warpsPerBlock,
                                    Type in) {
  if (!schedule)
    return success();
  if (!variant ||
      (*variant != Variant::Lookback && *variant != Variant::Lagged))
    return op->emitOpError()
           << "schedule applies to variants 'lookback' and 'lagged' only, got "
           << (variant ? "'" + stringifyVariant(*variant).str() + "'"
                       : std::string("no variant"));
  if (*variant == Variant::Lookback &&
      schedule !=
          ChainScheduleAttr::get(op->getContext(), schedule.getPrefetchBytes()))
    return op->emitOpError()
           << "a lookback scan's schedule takes prefetch_bytes only, got "
           << schedule;
  if (schedule.getQuads() && !in.isF16() && !in.isBF16())
    return op->emitOpError()
           << "schedule quads needs f16 or bf16 input, got " << in;
  if (schedule.getWalkTickets() && warpsPerBlock && *warpsPerBlock < 2)
    return op->emitOpError()
           << "schedule walk_tickets needs 2 warps per block or more (one "
              "warp draws the next ticket), got warps_per_block "
           << *warpsPerBlock;
  return success();
}

/// Both forms: rank 1, the types and segment rules, and, when both lengths
/// are static, the output length (ceil(n / segment_size) for a reduction,
/// n for a scan). `warps_per_block` only goes with the variants whose
/// warps share a segment (takesWarpsPerBlock), `schedule` (scans) with the
/// single-pass variants (verifySchedule).
/// `kind` names the operands' kind in messages.
static LogicalResult
verifySegmentedCollective(Operation *op, ShapedType inputType,
                          ShapedType outputType, int64_t segmentSize,
                          std::optional<Variant> variant,
                          std::optional<uint64_t> warpsPerBlock, bool isScan,
                          StringRef kind, ChainScheduleAttr schedule = {},
                          bool runtimeSize = false, bool decayed = false) {
  if (failed(verifySchedule(op, schedule, variant, warpsPerBlock,
                            inputType.getElementType())))
    return failure();
  // The boundary-masked L of the streaming scan is an operand built in
  // registers; f32 data would need split products of two non-constant
  // tiles, which the backends' exact paths (check_tiny) do not cover yet.
  if (variant == Variant::Stream && inputType.getElementType().isF32())
    return op->emitOpError()
           << "variant 'stream' takes f16, bf16 or i8 input, got f32";
  if (warpsPerBlock && !(variant && takesWarpsPerBlock(*variant)))
    return op->emitOpError()
           << "warps_per_block applies to variants 'block', 'lookback' and "
              "'lagged' only (the warps that share a segment), got "
           << (variant ? "'" + stringifyVariant(*variant).str() + "'"
                       : std::string("no variant"));
  for (auto [name, type] :
       {std::pair<StringRef, ShapedType>{"input", inputType},
        {"output", outputType}}) {
    if (type.getRank() != 1)
      return op->emitOpError() << name << " must be a 1-D " << kind
                               << ", got rank " << type.getRank();
    if (auto memref = dyn_cast<MemRefType>(type);
        memref && !memref.isLastDimUnitStride())
      return op->emitOpError()
             << name << " must have unit stride (contiguous elements), got "
             << type;
    // The kernels take their operands as pointers to global memory (and
    // the CPU backend as plain host memory): another memory space would be
    // read as if it were one of those.
    if (auto memref = dyn_cast<MemRefType>(type);
        memref && memref.getMemorySpace())
      return op->emitOpError()
             << name
             << " must be in the default memory space (the collectives "
                "read and write global memory), got "
             << type;
  }
  if (failed(verifyTypesAndSegment(op, inputType.getElementType(),
                                   outputType.getElementType(), segmentSize,
                                   variant, isScan, runtimeSize, decayed)))
    return failure();
  if (!inputType.hasStaticShape() || !outputType.hasStaticShape())
    return success();
  if (runtimeSize && !isScan)
    return success(); // the output length depends on the runtime size
  int64_t n = inputType.getDimSize(0), got = outputType.getDimSize(0);
  if (isScan && got != n)
    return op->emitOpError()
           << "output has " << got << " elements but the input has " << n
           << " (a scan writes one result per element)";
  int64_t expected = getNumSegments(n, segmentSize);
  if (!isScan && got != expected)
    return op->emitOpError()
           << "output has " << got << " elements but the input has ceil(" << n
           << " / " << segmentSize << ") = " << expected << " segments";
  return success();
}

/// `balanced` walks segments from offsets; a segment size has none.
static LogicalResult verifyBalancedHasOffsets(Operation *op,
                                              std::optional<Variant> variant,
                                              bool hasOffsets) {
  if (variant == Variant::Balanced && !hasOffsets)
    return op->emitOpError()
           << "variant 'balanced' takes segments from offsets only";
  return success();
}

/// The offsets operand of a collective (CSR: k+1 offsets): a 1-D i32 or
/// i64 tensor, or buffer (contiguous, in the default memory space), alone
/// (no segment size), with the variants that take it; a reduction's static
/// output has k elements.
static LogicalResult verifyOffsets(Operation *op, Value offsets,
                                   bool runtimeSize, int64_t segmentSize,
                                   std::optional<Variant> variant,
                                   ShapedType outputType, bool isScan) {
  auto type = cast<ShapedType>(offsets.getType());
  if (runtimeSize || segmentSize != ShapedType::kDynamic)
    return op->emitOpError() << "takes offsets or a segment size, not both";
  auto memref = dyn_cast<MemRefType>(type);
  if (type.getRank() != 1 ||
      (memref && (!memref.isLastDimUnitStride() || memref.getMemorySpace())))
    return op->emitOpError()
           << "offsets must be a 1-D "
           << (memref ? "contiguous memref in the default memory space"
                      : "tensor")
           << ", got " << type;
  if (!type.getElementType().isSignlessInteger(32) &&
      !type.getElementType().isSignlessInteger(64))
    return op->emitOpError()
           << "offsets must hold i32 or i64, got " << type.getElementType();
  if (type.hasStaticShape() && type.getDimSize(0) < 1)
    return op->emitOpError()
           << "offsets must hold k+1 >= 1 entries (the first 0, the last n)";
  if (variant && *variant != Variant::Balanced && *variant != Variant::Seg256N)
    return op->emitOpError()
           << "variant '" << stringifyVariant(*variant)
           << "' does not take offsets (balanced and seg256n do)";
  if (!isScan && type.hasStaticShape() && outputType.hasStaticShape() &&
      outputType.getDimSize(0) != type.getDimSize(0) - 1)
    return op->emitOpError()
           << "output has " << outputType.getDimSize(0) << " elements but "
           << type.getDimSize(0) << " offsets make " << type.getDimSize(0) - 1
           << " segments";
  return success();
}

LogicalResult SegmentedReduceOp::verify() {
  if (failed(verifyBalancedHasOffsets(*this, getVariant(), hasOffsets())))
    return failure();
  if (hasOffsets() &&
      failed(verifyOffsets(*this, getOffsets(), hasRuntimeSegmentSize(),
                           getSegmentSize(), getVariant(), getOutputType(),
                           /*isScan=*/false)))
    return failure();
  return verifySegmentedCollective(
      *this, getInputType(), getOutputType(), getSegmentSize(), getVariant(),
      getWarpsPerBlock(), /*isScan=*/false, "memref", /*schedule=*/{},
      hasRuntimeSegmentSize() || hasOffsets());
}

bool mlir::tcu::isDecayVariant(Variant variant) {
  return variant == Variant::Seg16 || variant == Variant::Seg256 ||
         variant == Variant::Packed || variant == Variant::Seg256N ||
         variant == Variant::Grid;
}

/// A scan's `decay`: finite, in [-1, 1] (the weights a^k of a tile row
/// stay within 1, so their f16/bf16 parts and the f32 carries cannot
/// overflow), on float input, and with a variant that has a decayed form
/// (isDecayVariant) where one is given.
static LogicalResult verifyDecay(Operation *op, std::optional<APFloat> decay,
                                 Type inputElement,
                                 std::optional<Variant> variant) {
  if (!decay)
    return success();
  if (!decay->isFinite())
    return op->emitOpError() << "decay must be finite, got "
                             << (decay->isNaN() ? "NaN" : "an infinity");
  if (decay->isExactlyValue(1.0))
    return success(); // the plain scan
  double a = decay->convertToDouble();
  if (a < -1.0 || a > 1.0)
    return op->emitOpError()
           << "decay must lie in [-1, 1], got " << formatDecay(float(a))
           << " (the weights a^k would grow past the f16 and f32 ranges)";
  if (!isa<FloatType>(inputElement))
    return op->emitOpError()
           << "a decayed scan takes f16, bf16 or f32 input, got "
           << inputElement << " (integer sums have no decay)";
  if (variant && !isDecayVariant(*variant))
    return op->emitOpError()
           << "decayed scans are implemented for variants 'seg16', "
              "'seg256', 'packed', 'seg256n' and 'grid' only, got '"
           << stringifyVariant(*variant) << "'";
  return success();
}

LogicalResult SegmentedScanOp::verify() {
  if (int(bool(getDecay())) + int(bool(getDecayValue())) +
          int(bool(getDecays())) >
      1)
    return emitOpError() << "takes one decay: a constant, a value or one per "
                            "segment (decays), not several";
  if (std::optional<DecayForm> form = getDecayForm()) {
    if (!isDecayed())
      return emitOpError("decay_form applies to decayed scans only");
    if (getDecays() && *form == DecayForm::Matrices)
      return emitOpError("per-segment decays have no matrix form "
                         "(decay_form must be recurrence)");
    if (getVariant() == Variant::Packed && *form == DecayForm::Matrices)
      return emitOpError("variant 'packed' of a decayed scan has no matrix "
                         "form (decay_form must be recurrence)");
  }
  if (getWalkSchedule()) {
    std::optional<Variant> v = getVariant();
    if (!isDecayed() || (v && *v != Variant::Packed && *v != Variant::Seg256N &&
                         *v != Variant::Grid))
      return emitOpError("walk_schedule applies to decayed scans of variants "
                         "'packed', 'seg256n' and 'grid' only");
  }
  // A value decay has the constant's rules but 1 (it may hold anything).
  std::optional<APFloat> decay = getDecay();
  if (getDecayValue() || getDecays())
    decay = APFloat(0.5f);
  if (failed(verifyDecay(*this, decay, getInputType().getElementType(),
                         getVariant())))
    return failure();
  if (failed(verifyBalancedHasOffsets(*this, getVariant(), hasOffsets())))
    return failure();
  if (hasOffsets() &&
      failed(verifyOffsets(*this, getOffsets(), hasRuntimeSegmentSize(),
                           getSegmentSize(), getVariant(), getOutputType(),
                           /*isScan=*/true)))
    return failure();
  return verifySegmentedCollective(
      *this, getInputType(), getOutputType(), getSegmentSize(), getVariant(),
      getWarpsPerBlock(), /*isScan=*/true, "memref", getScheduleAttr(),
      hasRuntimeSegmentSize() || hasOffsets(), isDecayed());
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyBalancedHasOffsets(*this, getVariant(), hasOffsets())))
    return failure();
  if (hasOffsets() &&
      failed(verifyOffsets(*this, getOffsets(), hasRuntimeSegmentSize(),
                           getSegmentSize(), getVariant(), getInitType(),
                           /*isScan=*/false)))
    return failure();
  return verifySegmentedCollective(
      *this, getInputType(), getInitType(), getSegmentSize(), getVariant(),
      getWarpsPerBlock(), /*isScan=*/false, "tensor", /*schedule=*/{},
      hasRuntimeSegmentSize() || hasOffsets());
}

LogicalResult ScanOp::verify() {
  if (failed(verifyDecay(*this, getDecay(), getInputType().getElementType(),
                         getVariant())))
    return failure();
  if (failed(verifyBalancedHasOffsets(*this, getVariant(), hasOffsets())))
    return failure();
  if (hasOffsets() &&
      failed(verifyOffsets(*this, getOffsets(), hasRuntimeSegmentSize(),
                           getSegmentSize(), getVariant(), getInitType(),
                           /*isScan=*/true)))
    return failure();
  return verifySegmentedCollective(
      *this, getInputType(), getInitType(), getSegmentSize(), getVariant(),
      getWarpsPerBlock(), /*isScan=*/true, "tensor", getScheduleAttr(),
      hasRuntimeSegmentSize() || hasOffsets());
}

#define GET_OP_CLASSES
#include "tcuc/Dialect/TCU/TCUOps.cpp.inc"
