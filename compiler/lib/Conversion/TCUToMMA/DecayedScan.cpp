//===- DecayedScan.cpp - decayed scans (h = a·h + x) in seg16 and seg256 --===//
//
// A scan with `decay a` computes h_i = a·h_{i-1} + x_i within each segment
// (docs/algorithms.md#decayed-scans). The 0/1 matrices of the plain scan
// become matrices of powers of a (tcu.decay_matrix): for a row-major tile A
// (row r = elements 16r..16r+15 of one segment)
//
//   R = A·U_a + rowsums((L_a·A) ⊙ RowTail) ⊙ RowHead
//
// A·U_a scans each row with decay; row r of L_a·A holds, column by column,
// the earlier rows decayed to the end of row r - 1 (weights a^16 a row),
// ⊙ RowTail (a^(15-c)) and the row sums bring each column to the row's end,
// which gives h at the end of row r - 1, and ⊙ RowHead (a^(c+1); exclusive:
// a^c) carries it to column c. The decay matrices are not exact in f16 or
// bf16, so each product with one is three products with its parts
// (hi, mid, lo: f32-accurate weights). With f16 data the parts are scaled
// by 2^15 so that none of them falls into f16's subnormals (where a part
// would lose bits of a small power a^k), and the product is scaled back in
// f32 (exactly: a power of two).
//
//===----------------------------------------------------------------------===//

#include "ScanTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::detail;

static constexpr int64_t T = kTileSize;

namespace {

/// The parts of the decay matrices for data of one element type.
struct DecayParts {
  float a;
  /// The operand type of the parts: the data's (f16, bf16), bf16 for f32
  /// data (split into bf16 parts, as the plain scans split it).
  Type partType;
  /// Parts are 2^scale times the powers (f16: out of its subnormals).
  int64_t scale;
};

DecayParts decayParts(TileBuilder &tb, float a, Type dataType) {
  OpBuilder &b = tb.builder();
  if (dataType.isF16())
    return {a, b.getF16Type(), 15};
  return {a, b.getBF16Type(), 0};
}

Value decayMatrix(TileBuilder &tb, DecayMatrixKind kind, float a, Type elt,
                  int64_t part, int64_t scale) {
  OpBuilder &b = tb.builder();
  return DecayMatrixOp::create(b, tb.location(), tb.tileType(elt),
                               DecayMatrixKindAttr::get(b.getContext(), kind),
                               b.getF32FloatAttr(a), b.getI64IntegerAttr(part),
                               b.getI64IntegerAttr(scale));
}

bool isZeroPart(DecayMatrixKind kind, const DecayParts &d, int64_t part) {
  for (int r = 0; r < T; ++r)
    for (int c = 0; c < T; ++c)
      if (DecayMatrixOp::entry(kind, d.a, d.partType, part, d.scale, r, c) !=
          0.0)
        return false;
  return true;
}

/// 2^scale · (K_a · data) (constOnLeft) or 2^scale · (data · K_a), f32:
/// the sum of the products of every part of K_a with every operand part of
/// `data` (f16/bf16 as it is, f32 split into three bf16 parts), the
/// smallest first.
Value decayProduct(TileBuilder &tb, const DecayParts &d, DecayMatrixKind kind,
                   Value data, bool constOnLeft) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  auto dataType = cast<VectorType>(data.getType());
  SmallVector<Value> dataParts;
  if (dataType.getElementType().isF32()) {
    auto split = SplitOp::create(
        b, loc, TypeRange(SmallVector<Type>(3, tb.tileType(d.partType))), data);
    for (int i = 2; i >= 0; --i)
      dataParts.push_back(split.getResult(i));
  } else {
    dataParts.push_back(data);
  }
  Value acc = tb.zeroAcc(d.partType);
  for (int64_t p = 2; p >= 0; --p) {
    // Where the higher parts hold the powers whole (a = 0.5, 0, -1: powers
    // of two) a lower part is all zeros: its products add nothing.
    if (p > 0 && isZeroPart(kind, d, p))
      continue;
    Value m = decayMatrix(tb, kind, d.a, d.partType, p, d.scale);
    for (Value x : dataParts)
      acc = constOnLeft
                ? MMAOp::create(b, loc, acc.getType(), m, x, acc).getResult()
                : MMAOp::create(b, loc, acc.getType(), x, m, acc).getResult();
  }
  return acc;
}

/// x · 2^-scale, exact in f32 (a power of two) but for subnormal results.
Value unscale(TileBuilder &tb, Value x, int64_t scale) {
  if (scale == 0)
    return x;
  OpBuilder &b = tb.builder();
  Value factor = arith::ConstantOp::create(
      b, tb.location(),
      DenseElementsAttr::get(cast<ShapedType>(x.getType()),
                             b.getF32FloatAttr(std::ldexp(1.0f, -scale))));
  return arith::MulFOp::create(b, tb.location(), x, factor);
}

/// Each row of `a` scanned with decay on its own: A·U_a (Ustrict_a).
Value decayedRows(TileBuilder &tb, const Collective &c, const DecayParts &d,
                  Value a) {
  DecayMatrixKind u =
      c.inclusive ? DecayMatrixKind::U : DecayMatrixKind::Ustrict;
  return unscale(tb, decayProduct(tb, d, u, a, /*constOnLeft=*/false), d.scale);
}

/// The decayed scan of a whole tile of one segment (rows in order):
/// A·U_a + rowsums((L_a·A) ⊙ RowTail) ⊙ RowHead.
Value decayedTile(TileBuilder &tb, const Collective &c, const DecayParts &d,
                  Value a) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Type f32 = b.getF32Type();
  Value rows = decayedRows(tb, c, d, a);
  // RowTail carries the parts' scale back (2^-scale, exact), so the f32
  // product L_a·A needs no multiply of its own.
  Value above =
      decayProduct(tb, d, DecayMatrixKind::L, a, /*constOnLeft=*/true);
  Value tail = decayMatrix(tb, DecayMatrixKind::RowTail, d.a, f32, 0, -d.scale);
  Value ends = tb.rowSums(arith::MulFOp::create(b, loc, above, tail));
  Value head = decayMatrix(tb,
                           c.inclusive ? DecayMatrixKind::RowHead
                                       : DecayMatrixKind::RowHeadStrict,
                           d.a, f32, 0, 0);
  return arith::AddFOp::create(b, loc, rows,
                               arith::MulFOp::create(b, loc, ends, head));
}

} // namespace

void mlir::tcu::detail::scanDecayed(TileBuilder &tb, const Collective &c,
                                    Variant variant) {
  DecayParts d = decayParts(tb, c.decay, inputElementType(c.input));
  if (variant == Variant::Seg16) {
    // Tile row i is segment 16g + i (stride S): the rows' scans are the
    // segments'.
    Value s = c.segment;
    parallelGroups(
        tb, tb.ceilDiv(c.numSegments, T), c.tilesPerWarp,
        [&](ArrayRef<Value> groups) {
          for (Value g : groups) {
            Value base = segmentBase(tb, c, g, T);
            Value a = tb.loadTile(TileLayout::Rows, c.input, base, s, s, c.n);
            tb.storeTile(decayedRows(tb, c, d, a), c.output, base, s, s, c.n);
          }
        });
    return;
  }
  assert(variant == Variant::Seg256 && "checked by the verifier");
  // One tile a segment; elements past its end are loaded as 0 and come
  // after every element that is stored, so they change nothing.
  parallelGroups(tb, c.numSegments, c.tilesPerWarp, [&](ArrayRef<Value> segs) {
    for (Value seg : segs) {
      Value base = segmentBase(tb, c, seg);
      Value end = segmentEnd(tb, c, base);
      Value a = loadScanTile(tb, c, base, end);
      storeScanTile(tb, c, decayedTile(tb, c, d, a), base, end);
    }
  });
}
