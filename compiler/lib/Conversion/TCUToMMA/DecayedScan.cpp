//===- DecayedScan.cpp - decayed scans (h = a·h + x) ----------------------===//
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
// Longer segments (seg256n: any size, runtime sizes, offsets) walk their
// tiles in order with the value h the segment had before the tile: R gains
// h ⊙ Carry_a (a^(16r+c+1)), and the tile's last h is the next carry. The
// grid cuts long segments into chunks: their totals, scanned with decay
// a^(chunk length), are the chunks' carries. A decay given at run time
// (`decay %a`) makes the same products with matrices the kernel builds
// (tcu.decay_matrix of a value; tcuc/Conversion/DecayPowers.h).
//
// With `decay_form = recurrence` (tcu-select-strategy's choice for f32,
// seg256 and the grid) and always with per-segment decays, the tiles are
// scanned on CUDA cores instead (tcu.linear_recurrence with the decay
// splat over the tile, or in seg16 each row's own), in the same variants,
// their tiles in the lanes order (but seg16's rows); a walk's carry enters
// as the recurrence's init. `packed` (any S below 256, the strategy's
// choice but at 16) walks groups of whole segments with per-element
// decays, 0 at each head (scanDecayedPacked).
//
//===----------------------------------------------------------------------===//

#include "ScanTiles.h"

#include "tcuc/Conversion/DecayPowers.h"
#include "tcuc/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::detail;

static constexpr int64_t T = kTileSize;

namespace {

/// The parts of the decay matrices for data of one element type.
struct DecayParts {
  float a;
  /// The decay given at run time (f32), or null (`a` is it).
  Value value;
  /// The operand type of the parts: the data's (f16, bf16), bf16 for f32
  /// data (split into bf16 parts, as the plain scans split it).
  Type partType;
  /// Parts are 2^scale times the powers (f16: out of its subnormals).
  int64_t scale;
};

DecayParts decayParts(TileBuilder &tb, float a, Value value, Type dataType) {
  OpBuilder &b = tb.builder();
  if (dataType.isF16())
    return {a, value, b.getF16Type(), 15};
  return {a, value, b.getBF16Type(), 0};
}

Value decayMatrix(TileBuilder &tb, DecayMatrixKind kind, const DecayParts &d,
                  Type elt, int64_t part, int64_t scale) {
  OpBuilder &b = tb.builder();
  return DecayMatrixOp::create(b, tb.location(), tb.tileType(elt),
                               DecayMatrixKindAttr::get(b.getContext(), kind),
                               d.value ? FloatAttr() : b.getF32FloatAttr(d.a),
                               d.value, b.getI64IntegerAttr(part),
                               b.getI64IntegerAttr(scale));
}

/// The decay as an f32 value.
Value decayScalar(TileBuilder &tb, const DecayParts &d) {
  OpBuilder &b = tb.builder();
  return d.value ? d.value
                 : arith::ConstantOp::create(b, tb.location(),
                                             b.getF32FloatAttr(d.a))
                       .getResult();
}

bool isZeroPart(DecayMatrixKind kind, const DecayParts &d, int64_t part) {
  if (d.value)
    return false; // unknown until it runs
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
    Value m = decayMatrix(tb, kind, d, d.partType, p, d.scale);
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
  Value tail = decayMatrix(tb, DecayMatrixKind::RowTail, d, f32, 0, -d.scale);
  Value ends = tb.rowSums(arith::MulFOp::create(b, loc, above, tail));
  Value head = decayMatrix(tb,
                           c.inclusive ? DecayMatrixKind::RowHead
                                       : DecayMatrixKind::RowHeadStrict,
                           d, f32, 0, 0);
  return arith::AddFOp::create(b, loc, rows,
                               arith::MulFOp::create(b, loc, ends, head));
}

/// The decayed scan of `a` on CUDA cores with `decays`, an f32 tile or
/// one f32 for every element, restarted where `heads` (an i1 tile, or
/// null) is set (tcu.linear_recurrence): `decay_form = recurrence`, and the
/// only form of per-segment decays, whose matrices would serve one segment
/// each and cost more to build than the scan
/// (docs/algorithms.md#per-segment-decays).
/// Tiles in c.scanOrder (fixed or lanes).
Value recurrence(TileBuilder &tb, const Collective &c, Value decays, Value a,
                 Value init, bool rows, Value heads = Value()) {
  return LinearRecurrenceOp::create(
      tb.builder(), tb.location(), tb.tileType(tb.builder().getF32Type()),
      decays, a, init, heads, rows, /*exclusive=*/!c.inclusive, c.scanOrder);
}

/// `matrices()` where the tile `a` (and `carry`, the splat h before it,
/// where given) is finite and not huge (tcu.all_finite), else the
/// recurrence with the one decay from that carry (or 0; `rows`: each row
/// from 0): a decay matrix's zeros and underflowed powers would meet 0·Inf
/// where the sequential recurrence meets none
/// (docs/algorithms.md#decayed-nan-inf).
Value finiteOr(TileBuilder &tb, const Collective &c, const DecayParts &d,
               Value a, Value carry, bool rows,
               function_ref<Value()> matrices) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value init = carry ? tb.element(carry, 0, 0) : zeroScalar(tb, b.getF32Type());
  Value ok =
      AllFiniteOp::create(b, loc, b.getI1Type(), a, carry ? init : Value());
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{tb.tileType(b.getF32Type())},
                                ok, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, loc, matrices());
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, loc,
                       recurrence(tb, c, decayScalar(tb, d), a, init, rows));
  return ifOp.getResult(0);
}

/// decayedTile of a tile that continues its segment from `carry`, the
/// splat value h the segment had before the tile: R + carry ⊙ Carry_a
/// (a^(16r+c+1); exclusive: a^(16r+c)). Returns R and the next carry, the
/// h after the tile's last element (inclusive: R's; exclusive: a·R + x
/// there). Elements past the segment's end are 0 in `a`: the carry they
/// give is never used.
std::pair<Value, Value> decayedCarriedTile(TileBuilder &tb, const Collective &c,
                                           const DecayParts &d, Value a,
                                           Value carry) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Type f32 = b.getF32Type();
  Value r;
  if (c.decayRecurrence) {
    // The carry is the recurrence's init: each lane's power of the decay
    // is rounded once from f64, as Carry_a's are (in the lanes order,
    // where Carry_a's places would not be the elements').
    r = recurrence(tb, c, decayScalar(tb, d), a, tb.element(carry, 0, 0),
                   /*rows=*/false);
  } else {
    // The carry's weights are the powers rounded once (from f64): a long
    // walk adds the same relative error to its carry every tile.
    r = finiteOr(tb, c, d, a, carry, /*rows=*/false, [&]() -> Value {
      Value weights = decayMatrix(tb,
                                  c.inclusive ? DecayMatrixKind::Carry
                                              : DecayMatrixKind::CarryStrict,
                                  d, f32, 0, 0);
      return arith::AddFOp::create(
          b, loc, decayedTile(tb, c, d, a),
          arith::MulFOp::create(b, loc, carry, weights));
    });
  }
  Value last = tb.element(r, T - 1, T - 1);
  if (!c.inclusive) {
    Value x = tb.element(a, T - 1, T - 1);
    if (x.getType() != f32)
      x = arith::ExtFOp::create(b, loc, f32, x);
    Value decay = decayScalar(tb, d);
    last = arith::AddFOp::create(b, loc,
                                 arith::MulFOp::create(b, loc, decay, last), x);
  }
  return {r, tb.broadcast(last, f32)};
}

/// A walk's work items with the walk_schedule's register cap.
scf::ParallelOp walkItems(TileBuilder &tb, const Collective &c, Value count,
                          function_ref<void(Value)> body) {
  scf::ParallelOp items = tb.parallel(count, body);
  if (c.walkSchedule && c.walkSchedule.getMaxRegisters())
    items->setAttr(kMaxRegistersAttr, tb.builder().getI64IntegerAttr(
                                          c.walkSchedule.getMaxRegisters()));
  return items;
}

/// `runs` tiles of 256 consecutive elements from `base` in order, from
/// `carry` (decayedCarriedTile), each stored (nothing at or past `end`, nor
/// below `from`); tiles_per_warp tiles are loaded before the first is
/// scanned, tiles ahead prefetched as the walk_schedule asks.
void decayedWalk(TileBuilder &tb, const Collective &c, const DecayParts &d,
                 Value base, Value runs, Value end, Value carry, Value from) {
  walkDecayedTiles(tb, c, base, runs, end, from, carry,
                   [&](Value tileBase, Value limit, Value a, Value h) {
                     auto [r, next] = decayedCarriedTile(tb, c, d, a, h);
                     storeScanTile(tb, c, r, tileBase, limit, from);
                     return next;
                   });
}

/// The buffer's index of segment `seg` of the (mirrored) view: a reverse
/// scan's view counts segments from the end, its segment j is the buffer's
/// numSegments - 1 - j.
Value physicalSegment(TileBuilder &tb, const Collective &c, Value seg) {
  if (!c.reverse)
    return seg;
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  return arith::SubIOp::create(
      b, loc, arith::SubIOp::create(b, loc, c.numSegments, seg), tb.idx(1));
}

/// The decay of segment `seg` of the (mirrored) view: `d`, or with
/// per-segment decays the segment's own, from which the matrices are then
/// built.
DecayParts segmentDecay(TileBuilder &tb, const Collective &c,
                        const DecayParts &d, Value seg) {
  DecayParts own = d;
  if (!c.decays)
    return own;
  own.value = memref::LoadOp::create(tb.builder(), tb.location(), c.decays,
                                     physicalSegment(tb, c, seg));
  return own;
}

/// Seg256N: each segment's tiles in order, a warp a segment.
void scanDecayedSegments(TileBuilder &tb, const Collective &c,
                         const DecayParts &d) {
  walkItems(tb, c, c.numSegments, [&](Value seg) {
    DecayParts own = segmentDecay(tb, c, d, seg);
    SegmentTiles s = segmentTiles(tb, c, seg);
    decayedWalk(tb, s.item, own, s.walk.base, s.runs, s.walk.end,
                zeroCarry(tb, s.item), s.walk.from);
  });
}

/// The variant that scans a grid's partials (`chunks` a segment): one
/// tile row, one tile, a warp's walk, or the grid again past kGridChunk.
Variant decayedPartialsVariant(int64_t chunks) {
  if (chunks <= T)
    return Variant::Seg16;
  if (chunks <= T * T)
    return Variant::Seg256;
  return chunks > kGridChunk ? Variant::Grid : Variant::Seg256N;
}

/// Grid: every segment cut into chunks of L elements (gridChunkLength), a
/// warp a chunk. Pass 1 finds each chunk's decayed total (its last h from
/// h = 0); pass 2 is the exclusive decayed scan of those totals with decay
/// a^L (a chunk's total reaches the next chunk's end decayed by a^L),
/// which gives each chunk the h before it; pass 3 walks each chunk again
/// from that carry and stores. Per-segment decays: each chunk walks with
/// its segment's decay, and pass 2 scans with one decay a_j^L per segment
/// (a buffer of them, the walk's form).
void scanDecayedGrid(TileBuilder &tb, const Collective &c,
                     const DecayParts &d) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  int64_t chunks = numGridChunks(c);
  int64_t length = gridChunkLength(c);
  Type f32 = b.getF32Type();
  auto scratchType = MemRefType::get({ShapedType::kDynamic}, f32);
  Value numPartials = tb.mul(c.numSegments, chunks);
  Value totals =
      memref::AllocOp::create(b, loc, scratchType, ValueRange{numPartials});
  Value prefix =
      memref::AllocOp::create(b, loc, scratchType, ValueRange{numPartials});
  auto runsOf = [&](const TileRange &chunk) {
    return clippedRuns(tb, length / (T * T), T * T, chunk.base, chunk.end);
  };

  auto decayOf = [&](Value p) {
    return segmentDecay(tb, c, d,
                        arith::DivUIOp::create(b, loc, p, tb.idx(chunks)));
  };

  // Per-segment decays, indexed as the decays (physically): a_j^L for pass
  // 2, and pass 1's weights, built once a segment: built for each chunk
  // they took more registers than the walk
  // (docs/rationale.md#decayed-grid-totals).
  Value powers, weightTable;
  if (c.decays) {
    powers =
        memref::AllocOp::create(b, loc, scratchType, ValueRange{c.numSegments});
    weightTable = memref::AllocOp::create(
        b, loc, scratchType, ValueRange{tb.mul(c.numSegments, T * T)});
    tb.parallel(c.numSegments, [&](Value j) {
      Value a = memref::LoadOp::create(b, loc, c.decays, j);
      memref::StoreOp::create(
          b, loc, decay_powers::buildChunkPower(b, loc, a, length), powers, j);
      Value base = tb.mul(j, T * T);
      tb.storeTile(decayWeights(tb, c, a), weightTable, base, tb.idx(T),
                   tb.idx(T), tb.add(base, tb.idx(T * T)), c.scanOrder);
    });
  }

  // A chunk's total alone (decayedTilesTotal): every chunk but a segment's
  // last ends with its last tile, and the last one's total is never used.
  walkItems(tb, c, numPartials, [&](Value p) {
    TileRange chunk = gridChunkRange(tb, c, p);
    Value decay = decayScalar(tb, d), weights;
    if (c.decays) {
      Value physical = physicalSegment(
          tb, c, arith::DivUIOp::create(b, loc, p, tb.idx(chunks)));
      decay = memref::LoadOp::create(b, loc, c.decays, physical);
      Value base = tb.mul(physical, T * T);
      weights =
          tb.loadTile(TileLayout::Rows, weightTable, base, tb.idx(T), tb.idx(T),
                      tb.add(base, tb.idx(T * T)), c.scanOrder);
    }
    Value h = decayedTilesTotal(tb, c, decay, weights, chunk.base,
                                runsOf(chunk), chunk.end, chunk.from);
    memref::StoreOp::create(b, loc, h, totals, p);
  });

  Collective partials =
      partialsScan(tb, c, totals, prefix, chunks, numPartials);
  // a^L as the f32 the matrices are built from (chunkPower: never 0 for a
  // nonzero a, so an Inf carry stays Inf).
  partials.decay = decay_powers::chunkPower(d.a, length);
  if (c.decays) {
    partials.decays = powers;
  } else if (d.value) {
    // The same in the kernel.
    partials.decayValue =
        decay_powers::buildChunkPower(b, loc, d.value, length);
  }
  scanDecayed(tb, partials,
              c.decays ? Variant::Seg256N : decayedPartialsVariant(chunks));

  walkItems(tb, c, numPartials, [&](Value p) {
    TileRange chunk = gridChunkRange(tb, c, p);
    Value start = memref::LoadOp::create(b, loc, prefix, p);
    decayedWalk(tb, c, decayOf(p), chunk.base, runsOf(chunk), chunk.end,
                tb.broadcast(start, f32), chunk.from);
  });
  memref::DeallocOp::create(b, loc, totals);
  memref::DeallocOp::create(b, loc, prefix);
  if (powers) {
    memref::DeallocOp::create(b, loc, powers);
    memref::DeallocOp::create(b, loc, weightTable);
  }
}

/// A packed group: `segments` whole segments over at most `tiles` tiles
/// (unknown for a runtime S).
struct PackedGroup {
  Value segments;
  std::optional<int64_t> tiles;
};

/// The group of size-S segments whose span is a multiple of 16 elements
/// (within kPackedGroupTiles tiles, or the least such): every group then
/// starts where whole tiles move as vectors (16 bytes of f16 and of the f32
/// output), with no partial first tile. A constant S takes the group that
/// wastes the least of its last tile; a runtime S the largest (at least
/// 0.89 of its tiles filled for S > 256).
PackedGroup packedGroup(TileBuilder &tb, const Collective &c) {
  if (ShapedType::isDynamic(c.segmentSize)) {
    // step = 16 / gcd(S, 16) segments span a multiple of 16 elements.
    OpBuilder &b = tb.builder();
    Location loc = tb.location();
    Value s = c.segment;
    Value low = arith::AndIOp::create(
        b, loc, s, arith::SubIOp::create(b, loc, tb.idx(0), s));
    Value step =
        arith::DivUIOp::create(b, loc, tb.idx(T), tb.min(low, tb.idx(T)));
    Value fit = arith::DivUIOp::create(
        b, loc, tb.idx(kPackedGroupTiles * T * T), tb.mul(step, s));
    return {tb.mul(step, arith::MaxUIOp::create(b, loc, fit, tb.idx(1))),
            std::nullopt};
  }
  int64_t s = c.segmentSize;
  int64_t step = T / std::gcd(s, T);
  int64_t span = std::max(kPackedGroupTiles * T * T, step * s);
  int64_t segments = 0, tiles = 0;
  for (int64_t g = step; g * s <= span; g += step) {
    int64_t t = (g * s + T * T - 1) / (T * T);
    // g·s / (t·256) at least the best's, compared exactly.
    if (!segments || g * s * tiles >= segments * s * t)
      segments = g, tiles = t;
  }
  return {tb.idx(segments), tiles};
}

/// Packed (any S up to kMaxPackedDecayedSegment; a runtime one over 256):
/// a warp takes a group of whole segments
/// (packedGroup) and walks its tiles, tiles_per_warp loaded before the
/// first is scanned, in order with tcu.linear_recurrence: each element's
/// decay is its segment's, 0 at a head (h restarts there), and the h after
/// a tile is the next tile's init. A short segment no longer fills a tile
/// of its own (docs/algorithms.md#packed-decayed-scans). Tiles are in the
/// lanes order (the places come from tcu.positions in it).
void scanDecayedPacked(TileBuilder &tb, const Collective &c,
                       const DecayParts &d) {
  assert(c.scanOrder == ElementOrder::Lanes && "set by scanDecayed");
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  // A runtime S is over 256 (the class's range): each lane's places then
  // wrap past a head at most once, and no vector divides by S.
  bool runtimeSize = ShapedType::isDynamic(c.segmentSize);
  Value s = c.segment;
  PackedGroup group = packedGroup(tb, c);
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  VectorType i32Tile = tb.tileType(i32), f32Tile = tb.tileType(f32);
  auto splatOf = [&](Value v) -> Value {
    return vector::BroadcastOp::create(
        b, loc, i32Tile, arith::IndexCastOp::create(b, loc, i32, v));
  };
  auto splat = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(i32Tile, b.getI32IntegerAttr(v)));
  };
  Value sTile = splatOf(s);
  using P = arith::CmpIPredicate;
  auto cmp = [&](P p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, p, x, y);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  // Each element's place in the tile (16 line + position). From S = 8 on a
  // lane's eight places (consecutive in the lanes order) hold one head at
  // most: one remainder and one quotient of the lane's first place give
  // every slot's (`slot` its place after the first).
  Value line = arith::MulIOp::create(
      b, loc,
      PositionsOp::create(b, loc, i32Tile, TileLayout::Rows, c.scanOrder),
      splat(T));
  Value position =
      PositionsOp::create(b, loc, i32Tile, TileLayout::Cols, c.scanOrder);
  bool perLane = runtimeSize || c.segmentSize >= 8;
  Value laneFirst =
      perLane ? add(line, arith::AndIOp::create(b, loc, position, splat(~7)))
              : add(line, position);
  Value slot = arith::AndIOp::create(b, loc, position, splat(7));
  Value zeros = arith::ConstantOp::create(b, loc, b.getZeroAttr(f32Tile));
  // A mirrored scan's tiles start `shift` (< 8) below the group's base so
  // that their bases take the phase (the group's base is a multiple of
  // 16); places then count from `lead` (a multiple of S of at least 8)
  // before the base, so that the remainders below stay unsigned. The
  // elements below the base load as zeros (`from`) and are not stored.
  Value leadSegments, lead, shift;
  if (c.lanePhase) {
    leadSegments = tb.ceilDiv(tb.idx(8), s);
    lead = tb.mul(s, leadSegments);
    shift = arith::AndIOp::create(
        b, loc, arith::SubIOp::create(b, loc, tb.idx(0), c.lanePhase),
        tb.idx(7));
  }
  int64_t ahead = prefetchTiles(c);
  walkItems(tb, c, tb.ceilDiv(c.numSegments, group.segments), [&](Value g) {
    Value first = tb.mul(g, group.segments);
    Value base = tb.mul(first, s);
    Value end = tb.min(tb.add(base, tb.mul(group.segments, s)), c.n);
    Value tilesBase =
        shift ? arith::SubIOp::create(b, loc, base, shift).getResult() : base;
    if (ahead > 1)
      prefetchTilesAhead(tb, c, tilesBase, tb.idx(1), ahead - 1, end);
    // A tile's first place from `lead` before the group's base.
    auto placeOf = [&](Value t) -> Value {
      Value place = tb.mul(t, T * T);
      if (shift)
        place = arith::SubIOp::create(b, loc, tb.add(place, lead), shift);
      return place;
    };
    // The group's segments from the view's first: the decays' index (a
    // reverse view counts them from the buffer's end).
    Value decaysBase =
        c.reverse ? arith::SubIOp::create(
                        b, loc, tb.add(c.numSegments, tb.idx(-1)), first)
                        .getResult()
                  : first;
    // `from`: the group's last tile, where partial, still loads as vectors
    // (reading the next group's elements as zeros).
    Value runs = clippedRuns(tb, shift ? std::nullopt : group.tiles, T * T,
                             tilesBase, end);
    // A runtime S carries the tile's first place's remainder and quotient
    // by S from tile to tile (256 places on: one wrap at most), dividing
    // once a group.
    SmallVector<Value> init{zeroScalar(tb, f32)};
    if (runtimeSize && !shift) {
      init.append({tb.idx(0), tb.idx(0)});
    } else if (runtimeSize) {
      init.push_back(arith::RemUIOp::create(b, loc, placeOf(tb.idx(0)), s));
      init.push_back(arith::DivUIOp::create(b, loc, placeOf(tb.idx(0)), s));
    }
    forTileGroups(
        tb, tb.idx(0), runs, tb.idx(1), c.tilesPerWarp, end, init,
        [&](ArrayRef<Value> tiles, ArrayRef<Value> limits,
            ValueRange carried) -> SmallVector<Value> {
          // (From kPackedGroupTiles on the start asked for the group.)
          if (ahead && ahead < kPackedGroupTiles)
            prefetchTilesAhead(tb, c, tilesBase,
                               tb.add(tiles[0], tb.idx(ahead)), tiles.size(),
                               end);
          LoadedTiles loaded =
              loadWalkTiles(tb, c, tilesBase, tiles, limits, base);
          Value h = carried[0];
          Value kTile = runtimeSize ? carried[1] : Value();
          Value qTile = runtimeSize ? carried[2] : Value();
          for (auto [t, tileBase, limit, x] :
               llvm::zip(tiles, loaded.bases, limits, loaded.tiles)) {
            // k: the element's place in its segment plus S where a head
            // came earlier in the lane; seg: the lane's first place's
            // segment from the group's first (`lead` before it).
            Value k, seg;
            if (runtimeSize) {
              // The tile's first place's remainder and quotient plus the
              // lane's offset, which passes one head at most.
              Value lane = add(splatOf(kTile), laneFirst);
              Value wrap = cmp(P::uge, lane, sTile);
              k = arith::SelectOp::create(
                  b, loc, wrap, arith::SubIOp::create(b, loc, lane, sTile),
                  lane);
              seg = add(splatOf(qTile),
                        arith::ExtUIOp::create(b, loc, i32Tile, wrap));
            } else {
              Value rel = add(laneFirst, splatOf(placeOf(t)));
              k = arith::RemUIOp::create(b, loc, rel, sTile);
              seg = arith::DivUIOp::create(b, loc, rel, sTile);
            }
            if (leadSegments)
              seg = arith::SubIOp::create(b, loc, seg, splatOf(leadSegments));
            Value head, later;
            if (perLane) {
              k = add(k, slot);
              later = cmp(P::uge, k, sTile);
              head = arith::OrIOp::create(b, loc, cmp(P::eq, k, splat(0)),
                                          cmp(P::eq, k, sTile));
            } else {
              head = cmp(P::eq, k, splat(0));
            }
            // Each element's decay (a head's is 0 through `heads`): one
            // for all, or its segment's, read for the lane's first place
            // and the next segment (two loads a lane).
            Value own;
            if (!c.decays) {
              own = decayScalar(tb, d);
            } else {
              auto gather = [&](Value index) -> Value {
                if (c.reverse)
                  index = arith::SubIOp::create(b, loc, splat(0), index);
                return GatherOp::create(b, loc, f32Tile, c.decays, decaysBase,
                                        index, c.numSegments);
              };
              own = gather(seg);
              if (perLane)
                own = arith::SelectOp::create(b, loc, later,
                                              gather(add(seg, splat(1))), own);
            }
            Value r = recurrence(tb, c, own, x, h, /*rows=*/false, head);
            Value out = c.inclusive
                            ? r
                            : arith::SelectOp::create(b, loc, head, zeros, r)
                                  .getResult();
            storeScanTile(tb, c, out, tileBase, limit, base);
            // The h after the tile's last element, (15, 15) in the lanes
            // order too (exclusive: r holds the one before it).
            h = tb.element(r, T - 1, T - 1);
            if (!c.inclusive) {
              Value last = tb.element(x, T - 1, T - 1);
              if (last.getType() != f32)
                last = arith::ExtFOp::create(b, loc, f32, last);
              Value lastDecay = c.decays ? tb.element(own, T - 1, T - 1) : own;
              // Whether the tile's last place (from the group's first)
              // is a head, as a scalar (an i1 element does not shuffle).
              // (A runtime S > 256: the remainder plus 255 is below 2S.)
              Value lastHead =
                  runtimeSize
                      ? arith::CmpIOp::create(
                            b, loc, P::eq, tb.add(kTile, tb.idx(T * T - 1)), s)
                      : arith::CmpIOp::create(
                            b, loc, P::eq,
                            arith::RemUIOp::create(
                                b, loc, tb.add(placeOf(t), tb.idx(T * T - 1)),
                                s),
                            tb.idx(0));
              h = arith::SelectOp::create(
                  b, loc, lastHead, last,
                  arith::AddFOp::create(
                      b, loc, arith::MulFOp::create(b, loc, lastDecay, h),
                      last));
            }
            if (runtimeSize) {
              Value next = tb.add(kTile, tb.idx(T * T));
              Value wrap = arith::CmpIOp::create(b, loc, P::uge, next, s);
              kTile = arith::SelectOp::create(
                  b, loc, wrap, arith::SubIOp::create(b, loc, next, s), next);
              qTile = tb.add(qTile, arith::IndexCastUIOp::create(
                                        b, loc, b.getIndexType(), wrap));
            }
          }
          if (runtimeSize)
            return {h, kTile, qTile};
          return {h};
        });
  });
}

} // namespace

void mlir::tcu::detail::scanDecayed(TileBuilder &tb,
                                    const Collective &collective,
                                    Variant variant) {
  // Tiles scanned on CUDA cores as a whole (not seg16's rows) need no
  // place of an element but their own: the lanes order, in which a lane's
  // eight consecutive elements scan with a third of the shuffles.
  Collective c = collective;
  c.scanOrder = c.decayRecurrence && variant != Variant::Seg16
                    ? ElementOrder::Lanes
                    : ElementOrder::Fixed;
  // Lanes move as vectors where the tile bases take their phase: every
  // mirrored variant's (with offsets each work item mirrors its own view:
  // not done there; a grid's partials are not mirrored and take none),
  // and forward the walks' where segments may start off the 8-element
  // grid (a runtime S or one not a multiple of 8: an aligned S walks
  // faster without `from`, docs/rationale.md#lane-phase; packed groups
  // and seg256 tiles start aligned, offsets' walks at multiples of 256).
  bool lanes = c.scanOrder == ElementOrder::Lanes && !c.offsets;
  bool offGrid = ShapedType::isDynamic(c.segmentSize) || c.segmentSize % 8;
  bool phased =
      c.reverse ? lanes && tb.mirrorOf(c.input)
                : lanes && offGrid &&
                      (variant == Variant::Seg256N || variant == Variant::Grid);
  c.lanePhase = phased ? lanePhase(tb, c) : Value();
  DecayParts d =
      decayParts(tb, c.decay, c.decayValue, inputElementType(c.input));
  if (variant == Variant::Seg16) {
    // Tile row i is segment 16g + i (stride S): the rows' scans are the
    // segments'. Per-segment decays: row i's decay in every column of it
    // (the decays of the group as a column, spread by row sums).
    Value s = c.segment;
    if (c.decays && c.reverse)
      tb.setMirror(tb.add(c.numSegments, tb.idx(-1)), {c.decays});
    parallelGroups(
        tb, tb.ceilDiv(c.numSegments, T), c.tilesPerWarp,
        [&](ArrayRef<Value> groups) {
          for (Value g : groups) {
            Value base = segmentBase(tb, c, g, T);
            Value a = tb.loadTile(TileLayout::Rows, c.input, base, s, s, c.n);
            Type f32 = tb.builder().getF32Type();
            Value r;
            if (c.decays) {
              Value column =
                  tb.loadTile(TileLayout::Rows, c.decays, tb.mul(g, T),
                              tb.idx(1), tb.idx(1), c.numSegments);
              r = recurrence(tb, c, tb.rowSums(column), a, zeroScalar(tb, f32),
                             /*rows=*/true);
            } else if (c.decayRecurrence) {
              r = recurrence(tb, c, decayScalar(tb, d), a, zeroScalar(tb, f32),
                             /*rows=*/true);
            } else {
              r = finiteOr(tb, c, d, a, Value(), /*rows=*/true,
                           [&] { return decayedRows(tb, c, d, a); });
            }
            tb.storeTile(r, c.output, base, s, s, c.n);
          }
        });
    return;
  }
  if (variant == Variant::Seg256N)
    return scanDecayedSegments(tb, c, d);
  if (variant == Variant::Packed)
    return scanDecayedPacked(tb, c, d);
  if (variant == Variant::Grid)
    return scanDecayedGrid(tb, c, d);
  assert(variant == Variant::Seg256 && "checked by the verifier");
  // One tile a segment; elements past its end are loaded as 0 and come
  // after every element that is stored, so they change nothing.
  parallelGroups(tb, c.numSegments, c.tilesPerWarp, [&](ArrayRef<Value> segs) {
    for (Value seg : segs) {
      Value base = segmentBase(tb, c, seg);
      Value end = segmentEnd(tb, c, base);
      Value a = loadScanTile(tb, c, base, end);
      Value r;
      if (c.decayRecurrence) {
        Type f32 = tb.builder().getF32Type();
        Value decay = decayScalar(tb, segmentDecay(tb, c, d, seg));
        r = recurrence(tb, c, decay, a, zeroScalar(tb, f32), /*rows=*/false);
      } else {
        r = finiteOr(tb, c, d, a, Value(), /*rows=*/false,
                     [&] { return decayedTile(tb, c, d, a); });
      }
      storeScanTile(tb, c, r, base, end);
    }
  });
}
