//===- TCUMMAOps.cpp - verifiers of the mma-form operations ---------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "tcuc/Dialect/TCU/TCUOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tcu;

/// Element types a Tensor Core product takes as operands.
static bool isOperandType(Type t) {
  return t.isF16() || t.isBF16() || t.isSignlessInteger(8);
}

LogicalResult MatrixOp::verify() {
  Type t = getResult().getType().getElementType();
  if (!isOperandType(t))
    return emitOpError() << "constant matrices are mma operands: element type "
                            "must be f16, bf16 or i8, got "
                         << t;
  if (getBlock() != kTileSize && getKind() != MatrixKind::L &&
      getKind() != MatrixKind::P)
    return emitOpError() << "only L and P take a block size, got " << getBlock()
                         << " for " << stringifyMatrixKind(getKind());
  return success();
}

std::optional<int> DecayMatrixOp::power(DecayMatrixKind kind, int r, int c) {
  switch (kind) {
  case DecayMatrixKind::U:
    return r <= c ? std::optional<int>(c - r) : std::nullopt;
  case DecayMatrixKind::Ustrict:
    return r < c ? std::optional<int>(c - r - 1) : std::nullopt;
  case DecayMatrixKind::L:
    return r > c ? std::optional<int>(kTileSize * (r - 1 - c)) : std::nullopt;
  default:
    return affinePower(kind, r, c);
  }
}

int DecayMatrixOp::affinePower(DecayMatrixKind kind, int r, int c) {
  switch (kind) {
  case DecayMatrixKind::U:
    return c - r;
  case DecayMatrixKind::Ustrict:
    return c - r - 1;
  case DecayMatrixKind::L:
    return kTileSize * (r - 1 - c);
  case DecayMatrixKind::RowTail:
    return kTileSize - 1 - c;
  case DecayMatrixKind::RowHead:
    return c + 1;
  case DecayMatrixKind::RowHeadStrict:
    return c;
  case DecayMatrixKind::Carry:
    return kTileSize * r + c + 1;
  case DecayMatrixKind::CarryStrict:
    return kTileSize * r + c;
  }
  llvm_unreachable("a decay matrix kind");
}

/// `v` rounded to nearest in `semantics`, as a double.
static double roundTo(double v, const llvm::fltSemantics &semantics) {
  APFloat x(v);
  bool lost;
  x.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
  x.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return x.convertToDouble();
}

double DecayMatrixOp::getEntry(int r, int c) {
  assert(getDecay() && "a constant decay");
  return entry(getKind(), getDecay()->convertToFloat(),
               getResult().getType().getElementType(),
               static_cast<int64_t>(getPart()),
               static_cast<int64_t>(getScale()), r, c);
}

double DecayMatrixOp::entry(DecayMatrixKind kind, float decay, Type elt,
                            int64_t part, int64_t scale, int r, int c) {
  std::optional<int> k = power(kind, r, c);
  if (!k)
    return 0.0;
  // a is an f32, so a^k in double is within an ulp of double of the exact
  // power (pow(0, 0) = 1); 2^scale is exact.
  double v = std::ldexp(std::pow(double(decay), *k), int(scale));
  if (elt.isF32())
    return roundTo(v, APFloat::IEEEsingle());
  const llvm::fltSemantics &semantics =
      elt.isF16() ? APFloat::IEEEhalf() : APFloat::BFloat();
  // Each part rounds what the parts before it left (the subtractions are
  // exact in double: the parts have few bits).
  double value = roundTo(v, semantics);
  for (int64_t p = 0; p < part; ++p) {
    v -= value;
    value = roundTo(v, semantics);
  }
  return value;
}

LogicalResult DecayMatrixOp::verify() {
  Type t = getResult().getType().getElementType();
  if (!t.isF16() && !t.isBF16() && !t.isF32())
    return emitOpError() << "element type must be f16, bf16 (mma operand "
                            "parts) or f32 (weights), got "
                         << t;
  if (t.isF32() && getPart() != 0)
    return emitOpError() << "an f32 decay matrix is one part (0), got part "
                         << getPart();
  if (bool(getDecay()) == bool(getDecayValue()))
    return emitOpError() << "takes one decay: a constant or a value";
  if (std::optional<APFloat> a = getDecay();
      a && (!a->isFinite() || a->convertToDouble() < -1.0 ||
            a->convertToDouble() > 1.0))
    return emitOpError() << "decay must be finite and in [-1, 1]";
  // Entries are at most 2^scale: within f16's largest finite value, 65504,
  // for scale <= 15, and far from f32's and bf16's limits for |scale| <= 64.
  int64_t scale = static_cast<int64_t>(getScale()); // I64Attr: two's complement
  if (scale > (t.isF16() ? 15 : 64) || scale < -64)
    return emitOpError() << "scale " << scale
                         << " puts entries out of range for " << t;
  return success();
}

LogicalResult MMAOp::verify() {
  Type a = getLhs().getType().getElementType();
  Type b = getRhs().getType().getElementType();
  Type c = getAcc().getType().getElementType();
  if (a != b)
    return emitOpError() << "operands must have the same element type, got "
                         << a << " and " << b;
  if (!isOperandType(a))
    return emitOpError() << "operand element type must be f16, bf16 or i8 "
                            "(tcu.split an f32/i32 tile first), got "
                         << a;
  if (c != getAccumulatorType(a))
    return emitOpError() << "accumulator element type must be "
                         << getAccumulatorType(a) << " for " << a
                         << " operands, got " << c;
  return success();
}

LogicalResult SplitOp::verify() {
  Type src = getSource().getType().getElementType();
  unsigned expected = 0;
  Type part;
  if (src.isF32()) {
    expected = 3;
    part = BFloat16Type::get(getContext());
  } else if (src.isSignlessInteger(32)) {
    expected = 5;
    part = IntegerType::get(getContext(), 8);
  } else {
    return emitOpError() << "source element type must be f32 or i32, got "
                         << src;
  }
  if (getParts().size() != expected)
    return emitOpError() << "splitting " << src << " yields " << expected
                         << " parts, got " << getParts().size();
  if (getCheckTiny() && !src.isF32())
    return emitOpError() << "check_tiny applies to f32 tiles only, got " << src;
  for (Value p : getParts())
    if (cast<VectorType>(p.getType()).getElementType() != part)
      return emitOpError() << "parts of " << src << " must be " << part
                           << " tiles";
  return success();
}

/// A number of columns that cuts a tile row into whole blocks.
static LogicalResult verifyColumnBlock(Operation *op, StringRef name,
                                       uint64_t columns) {
  if (columns == 0 || columns > static_cast<uint64_t>(kTileSize) ||
      (columns & (columns - 1)) != 0)
    return op->emitOpError()
           << name << " must be 1, 2, 4, 8 or 16, got " << columns;
  return success();
}

LogicalResult RowSumsOp::verify() {
  Type t = getSource().getType().getElementType();
  if (!t.isF32() && !t.isSignlessInteger(32))
    return emitOpError() << "sums accumulator tiles: element type must be "
                            "f32 or i32, got "
                         << t;
  return verifyColumnBlock(*this, "block", getBlock());
}

LogicalResult LinearRecurrenceOp::verify() {
  Type s = getSource().getType().getElementType();
  if (!s.isF16() && !s.isBF16() && !s.isF32())
    return emitOpError() << "source must be an f16, bf16 or f32 tile, got "
                         << getSource().getType();
  ElementOrder order = getOrder();
  if (order != ElementOrder::Fixed && order != ElementOrder::Lanes)
    return emitOpError() << "order must be fixed or lanes, got "
                         << stringifyElementOrder(order);
  if (order == ElementOrder::Lanes && getRows())
    return emitOpError("order <lanes> runs over the whole tile, not `rows`");
  return success();
}

LogicalResult AllFiniteOp::verify() {
  Type s = getSource().getType().getElementType();
  if (!s.isF16() && !s.isBF16() && !s.isF32())
    return emitOpError() << "source must be an f16, bf16 or f32 tile, got "
                         << getSource().getType();
  return success();
}

LogicalResult GatherOp::verify() {
  auto buffer = cast<MemRefType>(getSource().getType());
  if (buffer.getRank() != 1 || !buffer.isLastDimUnitStride())
    return emitOpError("buffer must be a 1-D memref with unit stride");
  if (!getIndices().getType().getElementType().isInteger(32))
    return emitOpError() << "indices must be an i32 tile, got "
                         << getIndices().getType();
  if (getResult().getType().getElementType() != buffer.getElementType())
    return emitOpError() << "result element type "
                         << getResult().getType().getElementType()
                         << " must match the buffer's "
                         << buffer.getElementType();
  return success();
}

static LogicalResult verifyBufferTile(Operation *op, MemRefType buffer,
                                      VectorType tile, bool isStore) {
  if (buffer.getRank() != 1 || !buffer.isLastDimUnitStride())
    return op->emitOpError("buffer must be a 1-D memref with unit stride");
  Type m = buffer.getElementType(), t = tile.getElementType();
  if (!isStore && m != t)
    return op->emitOpError()
           << "tile element type " << t << " must match the buffer's " << m;
  if (isStore && m != t && !(t.isF32() && isa<FloatType>(m)))
    return op->emitOpError() << "cannot store a " << t << " tile into " << m
                             << " (only f32 tiles convert, to a float type)";
  return success();
}

LogicalResult LoadTileOp::verify() {
  if ((getOrder() == ElementOrder::Quads ||
       getOrder() == ElementOrder::Lanes) &&
      getLayout() != TileLayout::Rows)
    return emitOpError() << "order <" << stringifyElementOrder(getOrder())
                         << "> needs the <rows> layout";
  return verifyBufferTile(*this, cast<MemRefType>(getSource().getType()),
                          getResult().getType(), /*isStore=*/false);
}

LogicalResult StoreTileOp::verify() {
  ElementOrder order = getOrder();
  if (order != ElementOrder::Fixed && order != ElementOrder::Quads &&
      order != ElementOrder::Lanes)
    return emitOpError()
           << "a store's order must be fixed, quads or lanes, got "
           << stringifyElementOrder(order);
  return verifyBufferTile(*this, cast<MemRefType>(getDest().getType()),
                          getTile().getType(), /*isStore=*/true);
}

LogicalResult PositionsOp::verify() {
  if (!getType().getElementType().isSignlessInteger(32))
    return emitOpError() << "result must be an i32 tile, got " << getType();
  ElementOrder order = getOrder();
  if (order != ElementOrder::Fixed && order != ElementOrder::Lanes &&
      (order != ElementOrder::Quads || getDim() != TileLayout::Cols))
    return emitOpError()
           << "order must be fixed, lanes, or quads with <cols>, got "
           << stringifyElementOrder(order);
  return success();
}

LogicalResult PrefetchOp::verify() {
  // PTX's prefetch has only the normal and evict_last priorities.
  CacheHint hint = getCache();
  if (hint != CacheHint::Normal && hint != CacheHint::EvictLast)
    return emitOpError() << "cache hint " << stringifyCacheHint(hint)
                         << " has no prefetch form (normal or evict_last)";
  return success();
}

LogicalResult StoreRowOp::verify() {
  if (getRow() >= static_cast<uint64_t>(kTileSize))
    return emitOpError() << "row must be in [0, 16), got " << getRow();
  if (failed(verifyColumnBlock(*this, "step", getStep())))
    return failure();
  return verifyBufferTile(*this, cast<MemRefType>(getDest().getType()),
                          getTile().getType(), /*isStore=*/true);
}

SmallVector<Value> mlir::tcu::buildSplitParts(OpBuilder &b, Location loc,
                                              Value x, Value *remainder) {
  auto type = cast<VectorType>(x.getType());
  SmallVector<Value> parts;
  if (type.getElementType().isF32()) {
    // Each part is the rest with its low 16 bits cleared (bf16 rounded
    // toward zero): hi = rz(x), mid = rz(x - hi), lo = x - hi - mid. Each
    // subtraction is exact, the three parts hold all 24 bits, and no part
    // can round up past the largest bf16 (x - hi loses nothing either), so
    // every finite x, f32's top binade included, splits exactly; round to
    // nearest sent |x| > 3.39e38 to hi = inf. Only a NaN keeps its value
    // (its payload may lie in the cleared bits). A part that is NaN or
    // infinite leaves 0 to the next ones (not inf - inf = NaN), so NaN and
    // Inf pass through as hi alone. Values below 2^-110 lose the bits
    // below bf16's 2^-133 in lo (docs/algorithms.md, "Precision").
    VectorType partType = type.clone(b.getBF16Type());
    VectorType bitsType = type.clone(b.getI32Type());
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getF32FloatAttr(0)));
    Value highBits = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(bitsType,
                               b.getI32IntegerAttr(int32_t(0xFFFF0000u))));
    Value rest = x;
    for (int p = 0; p < 3; ++p) {
      Value bits = arith::BitcastOp::create(b, loc, bitsType, rest);
      if (p == 2 && remainder)
        *remainder = bits;
      Value back = arith::BitcastOp::create(
          b, loc, type, arith::AndIOp::create(b, loc, bits, highBits));
      if (p == 0) {
        Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                          rest, rest);
        back = arith::SelectOp::create(b, loc, nan, rest, back);
      }
      // `back` is a bf16 value (or NaN): the conversion is exact.
      parts.push_back(arith::TruncFOp::create(b, loc, partType, back));
      Value finite = arith::CmpFOp::create(
          b, loc, arith::CmpFPredicate::OEQ,
          arith::SubFOp::create(b, loc, back, back), zero);
      rest = arith::SelectOp::create(
          b, loc, finite, arith::SubFOp::create(b, loc, rest, back), zero);
    }
    return parts;
  }
  // 7-bit digits d0..d3 and the signed top d4 = x >> 28.
  VectorType partType = type.clone(b.getI8Type());
  auto splat = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getI32IntegerAttr(v)));
  };
  for (int d = 0; d < 4; ++d) {
    Value shifted = arith::ShRUIOp::create(b, loc, x, splat(7 * d));
    Value digit = arith::AndIOp::create(b, loc, shifted, splat(127));
    parts.push_back(arith::TruncIOp::create(b, loc, partType, digit));
  }
  Value top = arith::ShRSIOp::create(b, loc, x, splat(28));
  parts.push_back(arith::TruncIOp::create(b, loc, partType, top));
  return parts;
}

std::optional<SplitProduct> mlir::tcu::matchSplitProduct(MMAOp last) {
  auto lhsMatrix = last.getLhs().getDefiningOp<MatrixOp>();
  bool constOnLeft = static_cast<bool>(lhsMatrix);
  auto dataOf = [&](MMAOp m) { return constOnLeft ? m.getRhs() : m.getLhs(); };
  auto matrixOf = [&](MMAOp m) {
    return (constOnLeft ? m.getLhs() : m.getRhs()).getDefiningOp<MatrixOp>();
  };
  MatrixOp k = matrixOf(last);
  auto part = dyn_cast<OpResult>(dataOf(last));
  auto split = part ? dyn_cast<SplitOp>(part.getOwner()) : SplitOp();
  if (!k || !split || part.getResultNumber() != 0)
    return std::nullopt;
  MMAOp m = last;
  for (unsigned p = 1; p < split.getNumResults(); ++p) {
    auto prev = m.getAcc().getDefiningOp<MMAOp>();
    MatrixOp kPrev = prev ? matrixOf(prev) : MatrixOp();
    if (!prev || !prev->hasOneUse() || dataOf(prev) != split.getResult(p) ||
        !kPrev || kPrev.getKind() != k.getKind() ||
        kPrev.getBlock() != k.getBlock())
      return std::nullopt;
    m = prev;
  }
  return SplitProduct{split, m, constOnLeft};
}

Value mlir::tcu::matchMaskMatrix(Value tile) {
  if (auto ext = tile.getDefiningOp<arith::ExtUIOp>())
    return getElementTypeOrSelf(ext.getIn().getType()).isInteger(1)
               ? ext.getIn()
               : Value();
  auto select = tile.getDefiningOp<arith::SelectOp>();
  if (!select || !isa<VectorType>(select.getCondition().getType()))
    return Value();
  auto splatIs = [](Value v, double one) {
    DenseElementsAttr dense;
    if (!matchPattern(v, m_Constant(&dense)) || !dense.isSplat())
      return false;
    if (isa<FloatType>(dense.getElementType()))
      return dense.getSplatValue<APFloat>().isExactlyValue(one);
    return dense.getSplatValue<APInt>() == static_cast<uint64_t>(one);
  };
  if (splatIs(select.getTrueValue(), 1.0) &&
      splatIs(select.getFalseValue(), 0.0))
    return select.getCondition();
  return Value();
}

Value mlir::tcu::buildAccumulatorAdd(OpBuilder &b, Location loc, Value x,
                                     Value y) {
  if (isa<FloatType>(getElementTypeOrSelf(x.getType())))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

Value mlir::tcu::lowerBlockPrefix(OpBuilder &b, Location loc, Value value,
                                  Value buffer, Value offset, Value warp,
                                  int64_t warps, function_ref<void()> wait,
                                  Value *total) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto at = [&](OpBuilder &ob, Location l, Value i) -> Value {
    return memref::LoadOp::create(
        ob, l, buffer, ValueRange{arith::AddIOp::create(ob, l, offset, i)});
  };
  Type t = value.getType();
  memref::StoreOp::create(
      b, loc, value, buffer,
      ValueRange{arith::AddIOp::create(b, loc, offset, warp)});
  Value zero = arith::ConstantOp::create(b, loc, t, b.getZeroAttr(t));
  if (!wait) {
    assert(!total && "the CPU form has stored only the earlier warps' values");
    // In program order: only the earlier warps' entries are stored yet.
    auto loop = scf::ForOp::create(
        b, loc, index(0), warp, index(1), ValueRange{zero},
        [&](OpBuilder &lb, Location l, Value j, ValueRange sum) {
          scf::YieldOp::create(
              lb, l, buildAccumulatorAdd(lb, l, sum[0], at(lb, l, j)));
        });
    return loop.getResult(0);
  }
  // After the barrier every warp's entry is stored: straight-line loads and
  // adds, the warp's own prefix picked by selects (a loop with a trip count
  // that differs by warp measured up to 11% slower on the H100 for i8
  // scans, 2026-11-24).
  wait();
  Value sum = zero, prefix = zero;
  for (int64_t j = 0; j + 1 < warps; ++j) {
    sum = buildAccumulatorAdd(b, loc, sum, at(b, loc, index(j)));
    Value here = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp,
                                       index(j + 1));
    prefix = arith::SelectOp::create(b, loc, here, sum, prefix);
  }
  if (total)
    *total = buildAccumulatorAdd(b, loc, sum, at(b, loc, index(warps - 1)));
  return prefix;
}

Value mlir::tcu::lowerBlockPrefix(OpBuilder &b, BlockPrefixOp op,
                                  function_ref<void()> wait) {
  return lowerBlockPrefix(b, op.getLoc(), op.getValue(), op.getBuffer(),
                          op.getOffset(), op.getWarp(), op.getWarps(), wait);
}

/// The rules tcu.block_prefix, tcu.block_lookback and
/// tcu.block_lagged_lookback share.
static LogicalResult verifyWarpValues(Operation *op, int64_t warps,
                                      MemRefType buffer, Type value) {
  if (warps < 1 || warps > 32)
    return op->emitOpError("warps must be in [1, 32], got ") << warps;
  if (buffer.getElementType() != value)
    return op->emitOpError("buffer element type ")
           << buffer.getElementType() << " differs from the value's " << value;
  return success();
}

LogicalResult mlir::tcu::BlockLookbackOp::verify() {
  return verifyWarpValues(*this, getWarps(), getBuffer().getType(),
                          getValue().getType());
}

LogicalResult mlir::tcu::BlockLaggedLookbackOp::verify() {
  return verifyWarpValues(*this, getWarps(), getBuffer().getType(),
                          getScanValue().getType());
}

LogicalResult mlir::tcu::BlockPrefixOp::verify() {
  return verifyWarpValues(*this, getWarps(), getBuffer().getType(),
                          getValue().getType());
}

LogicalResult OffsetHeadsOp::verify() {
  if (!getRows().getType().getElementType().isSignlessInteger(32))
    return emitOpError() << "rows must be an i32 tile, got "
                         << getRows().getType();
  return success();
}

LogicalResult StoreSegmentEndsOp::verify() {
  ElementOrder order = getOrder();
  if (order != ElementOrder::Fixed && order != ElementOrder::Quads)
    return emitOpError() << "order must be fixed or quads, got "
                         << stringifyElementOrder(order);
  VectorType tile = getTile().getType();
  Type t = tile.getElementType();
  if (!t.isF32() && !t.isSignlessInteger(32))
    return emitOpError() << "tile must hold f32 or i32 (an accumulator), got "
                         << t;
  auto dest = cast<MemRefType>(getDest().getType());
  Type m = dest.getElementType();
  if (dest.getRank() != 1 || !dest.isLastDimUnitStride())
    return emitOpError("dest must be a 1-D memref with unit stride");
  if (m != t && !(t.isF32() && isa<FloatType>(m)))
    return emitOpError() << "cannot store " << t << " values into " << m
                         << " (only f32 converts, to a float type)";
  return success();
}
