//===- TileBuilder.h - building blocks of the mma form ----------*- C++ -*-===//
//
// Small helpers shared by the reduce and scan variants: index arithmetic,
// named matrices, tile loads/stores, and products with a named matrix that
// split an f32/i32 operand (tcu.split) so every rounding is explicit.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUTOMMA_TILEBUILDER_H
#define TCUC_CONVERSION_TCUTOMMA_TILEBUILDER_H

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir::scf {
class ParallelOp;
} // namespace mlir::scf

namespace mlir::tcu::detail {

/// The operands every variant emitter gets: one collective, already checked.
struct Collective {
  Value input, output;
  /// The segment size, or ShapedType::kDynamic when it is a runtime value
  /// (then only in `segment`).
  int64_t segmentSize;
  Value segment;     // the segment size (index): a constant or runtime value
  Value n;           // number of input elements (index)
  Value numSegments; // ceil(n / segment), or k with offsets (index)
  /// The k+1 CSR offsets (i32 or i64) of segments of any lengths, or null;
  /// `segment` is null then.
  Value offsets;
  bool isScan = false; // a segmented scan (else a reduction)
  bool inclusive;      // scans only
  /// Tiles a warp loads before it multiplies any (tiles_per_warp).
  int64_t tilesPerWarp = 1;
  /// Warps that share a segment in the block variant (warps_per_block); 0
  /// for the variant's own rule.
  int64_t warpsPerBlock = 0;
  /// The element order of a scan's whole 16x16 tiles of consecutive
  /// elements, loaded, scanned (U or UQuads) and stored: fixed, or quads
  /// (a lane moves four consecutive elements of a row, whole 32-byte
  /// sectors for 16-bit data) where the schedule asks for it (the lagged
  /// scan's `quads`).
  ElementOrder scanOrder = ElementOrder::Fixed;
  /// The single-pass scans' tuning (the op's `schedule`), or null.
  ChainScheduleAttr schedule;
  /// A reverse (suffix) scan: the emitters see the logical, mirrored
  /// indices (`n` is the logical length) and the TileBuilder mirrors every
  /// access to the input and output (TileBuilder::setMirror).
  bool reverse = false;
  /// A decayed scan's a (h = a·h + x; 1: a plain scan), emitted by
  /// scanDecayed (DecayedScan.cpp).
  float decay = 1.0f;
  /// A decayed scan's a given at run time (an f32 value; `decay` is then
  /// unused), or null.
  Value decayValue;
  /// A decayed scan's decays, one per segment (memref<?xf32>, indexed by
  /// the physical segment also when `reverse`), or null.
  Value decays;
  /// Whether a decayed scan's tiles run on CUDA cores (tcu.linear_recurrence)
  /// instead of decay matrices: the op's `decay_form`, always with `decays`.
  bool decayRecurrence = false;
  /// A decayed walk's tuning (the op's `walk_schedule`: L2 prefetches
  /// ahead, a register cap), or null (none).
  WalkScheduleAttr walkSchedule;
  /// A scan in the lanes order whose tile bases take this residue mod 8
  /// (index) so that each lane's eight elements are one aligned chunk of
  /// the buffers (lanePhase, TileLoops.h): reverse decayed scans (mirrored
  /// chunks) and forward decayed walks; else null.
  Value lanePhase;
};

class TileBuilder {
public:
  TileBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  OpBuilder &builder() { return b; }
  Location location() { return loc; }

  // Index arithmetic.
  Value idx(int64_t v);
  Value add(Value a, Value c);
  Value mul(Value a, int64_t c);
  Value mul(Value a, Value c);
  Value min(Value a, Value c);
  /// ceil(a / c) for a >= 0, c >= 1, without overflow.
  Value ceilDiv(Value a, int64_t c);
  Value ceilDiv(Value a, Value c);

  /// The accumulator type for tiles of `elementType` (f32 or i32).
  static Type accumulatorFor(Type elementType);
  VectorType tileType(Type elementType);
  /// An all-zero accumulator tile for data of `elementType`.
  Value zeroAcc(Type dataElementType);
  /// An all-zero accumulator tile for products with `tile`.
  Value zeroAccLike(Value tile);

  /// `k · data + acc` (mulConst) or `data · k + acc` (mulByConst). An f32
  /// or i32 `data` tile is split into exact operand parts first, except
  /// `data · Ones`, which is tcu.row_sums (plain f32/i32 additions).
  /// `block` cuts L into diagonal blocks of that many rows (tcu.matrix).
  Value mulConst(MatrixKind k, Value data, Value acc, int64_t block = 16);
  Value mulByConst(Value data, MatrixKind k, Value acc);

  /// `order`: how much of the element order the consumer depends on (see
  /// tcu.load_tile); nothing below `from` is read when it is given.
  Value loadTile(TileLayout layout, Value src, Value base, Value stride,
                 Value lineLength, Value limit,
                 ElementOrder order = ElementOrder::Fixed,
                 Value from = nullptr);
  /// `order`: fixed or quads (see tcu.store_tile); nothing below `from`
  /// is written when it is given.
  void storeTile(Value tile, Value dest, Value base, Value stride,
                 Value lineLength, Value limit,
                 ElementOrder order = ElementOrder::Fixed,
                 Value from = nullptr);
  /// tcu.prefetch of `count` elements of `src` from `from`; on a mirrored
  /// buffer the physical range they stand for, cut to the buffer.
  PrefetchOp prefetch(Value src, Value from, Value count);
  /// Whether the f32 tiles this builder splits may hold values below
  /// 2^-110 (the collective's input is f32): the splits get `check_tiny`.
  void setSplitsCheckTiny(bool check) { splitsCheckTiny = check; }

  /// From now on loadTile, storeTile and prefetch on `buffers` (a reverse
  /// scan's input and output, or a work item's views of them) address the
  /// mirrored view: index x is element `point - x` (tcu.load_tile's
  /// `mirror`).
  void setMirror(Value point, ArrayRef<Value> buffers) {
    for (Value buffer : buffers)
      mirrors[buffer] = point;
  }
  /// The mirror point of `buffer`, or null when its accesses are direct.
  Value mirrorOf(Value buffer) const { return mirrors.lookup(buffer); }

  /// The L2 hints loadTile and storeTile attach from now on (normal:
  /// none); returns the previous pair.
  std::pair<CacheHint, CacheHint> setCacheHints(CacheHint load,
                                                CacheHint store) {
    auto old = std::make_pair(loadHint, storeHint);
    loadHint = load;
    storeHint = store;
    return old;
  }
  /// Row `row`'s columns 0, step, 2·step, ... to dest[base + j].
  void storeRow(Value tile, int64_t row, Value dest, Value base, Value limit,
                bool accumulate = false, int64_t step = 1);

  /// Every element of row i = the sum of row i of the accumulator tile `x`
  /// (tcu.row_sums: x·Ones without a split), or of its block of `block`
  /// columns.
  Value rowSums(Value x, int64_t block = kTileSize);
  /// Element (row, col) of `tile`, widened exactly to its accumulator type
  /// (f16/bf16 -> f32, i8 -> i32).
  Value element(Value tile, int64_t row, int64_t col);

  /// The accumulator tile with every element set to `scalar`.
  Value broadcast(Value scalar, Type accType);

  /// for (iv = lb; iv < ub; iv += step) with loop-carried `init`;
  /// body(iv, carried) returns the next carried values.
  ValueRange forLoop(Value lb, Value ub, Value step, ValueRange init,
                     function_ref<SmallVector<Value>(Value, ValueRange)> body);
  /// Independent iterations in [0, ub): an scf.parallel (a grid of blocks or
  /// warps on the GPU), returned.
  scf::ParallelOp parallel(Value ub, function_ref<void(Value)> body);

private:
  Value product(MatrixKind k, Value data, Value acc, bool constOnLeft,
                int64_t block = 16);

  OpBuilder &b;
  Location loc;
  CacheHint loadHint = CacheHint::Normal, storeHint = CacheHint::Normal;
  DenseMap<Value, Value> mirrors;
  bool splitsCheckTiny = false;
};

} // namespace mlir::tcu::detail

#endif // TCUC_CONVERSION_TCUTOMMA_TILEBUILDER_H
