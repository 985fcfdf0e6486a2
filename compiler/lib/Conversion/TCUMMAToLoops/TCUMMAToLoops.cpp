//===- TCUMMAToLoops.cpp - convert-tcu-mma-to-loops (the CPU backend) -----===//
//
// Executes the mma form on the CPU with Tensor Core numerics:
// - tcu.mma: operands (f16/bf16/i8) are widened exactly to f32/i32 and one
//   16x16x16 vector.contract accumulates in f32/i32, as the Tensor Core does
//   (products of 0/1 with the data are exact either way); a product with a
//   named 0/1 matrix instead adds up the selected rows, so that NaN and Inf
//   reach only the outputs whose sums include them (0 · NaN is NaN), as the
//   GPU backend's exact path does, and integer products (modulo 2^32 either
//   way) cost adds instead of multiplies;
// - tcu.split: the exact f32 -> 3 x bf16 and i32 -> 5 x i8 decompositions;
// - tile loads/stores: 16 masked 1-D loads/stores, so masked-off elements
//   are never touched, whatever their addresses;
// - tcu.row_sums: a vector reduction per row; tcu.linear_recurrence: the
//   rows' recurrences a column at a time (Recurrence.cpp); tcu.ticket and
//   tcu.block_lookback: an atomic add and a read of the item before (the
//   CPU runs work items in order, so it has published its prefix).
//
//===----------------------------------------------------------------------===//

#include "Products.h"

#include "tcuc/Conversion/LookbackWord.h"
#include "tcuc/Conversion/Passes.h"
#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcu {
#define GEN_PASS_DEF_CONVERTTCUMMATOLOOPS
#include "tcuc/Conversion/Passes.h.inc"
} // namespace mlir::tcu

using namespace mlir;
using namespace mlir::tcu;
using loops::lanesTile;
using loops::rowType;

namespace {

constexpr int64_t T = kTileSize;

Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value zeros(OpBuilder &b, Location loc, VectorType type) {
  return arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
}

/// First element of line i of a tile access: base + i * stride.
Value lineStart(OpBuilder &b, Location loc, Value base, Value stride,
                int64_t i) {
  return arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(b, loc, stride, constIndex(b, loc, i)));
}

/// The elements of the line at `start` to touch: the first clamp(min(
/// lineLength, limit - start), 0, 16), in signed index arithmetic.
Value lineMask(OpBuilder &b, Location loc, Value start, Value lineLength,
               Value limit) {
  Value avail = arith::SubIOp::create(b, loc, limit, start);
  Value count = arith::MinSIOp::create(b, loc, avail, lineLength);
  count = arith::MaxSIOp::create(b, loc, count, constIndex(b, loc, 0));
  count = arith::MinSIOp::create(b, loc, count, constIndex(b, loc, T));
  return vector::CreateMaskOp::create(
      b, loc, VectorType::get({T}, b.getI1Type()), ValueRange{count});
}

/// Which elements of the line at `start` lie at or above `from`.
Value atOrAbove(OpBuilder &b, Location loc, Value start, Value from) {
  auto type = VectorType::get({T}, b.getIndexType());
  SmallVector<int64_t> steps(T);
  for (int64_t j = 0; j < T; ++j)
    steps[j] = j;
  Value places = arith::AddIOp::create(
      b, loc, vector::BroadcastOp::create(b, loc, type, start),
      arith::ConstantOp::create(b, loc, b.getIndexVectorAttr(steps)));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, places,
                               vector::BroadcastOp::create(b, loc, type, from));
}

/// A mirrored line (tcu.load_tile's `mirror %m`): element j of the line
/// at logical `start` is buffer element m - start - j. Narrows `mask` to
/// the elements inside the buffer and returns their indices, the others
/// set to 0 so that no lane's address leaves the buffer.
Value mirroredIndices(OpBuilder &b, Location loc, Value buffer, Value mirror,
                      Value start, Value &mask) {
  auto type = VectorType::get({T}, b.getIndexType());
  SmallVector<int64_t> steps(T);
  for (int64_t j = 0; j < T; ++j)
    steps[j] = j;
  Value first = arith::SubIOp::create(b, loc, mirror, start);
  Value places = arith::SubIOp::create(
      b, loc, vector::BroadcastOp::create(b, loc, type, first),
      arith::ConstantOp::create(b, loc, b.getIndexVectorAttr(steps)));
  // Unsigned: a negative place (padding) is past the end too.
  Value size = memref::DimOp::create(b, loc, buffer, 0);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, places,
                            vector::BroadcastOp::create(b, loc, type, size));
  mask = arith::AndIOp::create(b, loc, mask, inside);
  return arith::SelectOp::create(b, loc, mask, places, zeros(b, loc, type));
}

/// Converts a row of the tile's element type to `to` (f32 -> f16/bf16).
Value convertRow(OpBuilder &b, Location loc, Value row, Type to) {
  auto type = cast<VectorType>(row.getType());
  if (type.getElementType() == to)
    return row;
  return arith::TruncFOp::create(b, loc, rowType(to), row);
}

Value widenRow(OpBuilder &b, Location loc, Value row, Type to) {
  auto type = cast<VectorType>(row.getType());
  if (type.getElementType() == to)
    return row;
  return arith::ExtFOp::create(b, loc, rowType(to), row);
}

/// The 16 elements of `line` reordered: element j of the result is
/// element from(j) of `line` (the quads order, tcu::quadsPosition for a
/// load and tcu::quadsColumn for a store).
Value permuteLine(OpBuilder &b, Location loc, Value line, int (*from)(int)) {
  SmallVector<int64_t> mask;
  for (int j = 0; j < T; ++j)
    mask.push_back(from(j));
  return vector::ShuffleOp::create(b, loc, line, line, mask);
}

} // namespace

Value loops::permuteTile(OpBuilder &b, Location loc, Value tile,
                         int (*from)(int)) {
  auto type = cast<VectorType>(tile.getType());
  auto flat = VectorType::get({T * T}, type.getElementType());
  SmallVector<int64_t> mask;
  for (int i = 0; i < T * T; ++i)
    mask.push_back(from(i));
  Value v = vector::ShapeCastOp::create(b, loc, flat, tile);
  v = vector::ShuffleOp::create(b, loc, v, v, mask);
  return vector::ShapeCastOp::create(b, loc, type, v);
}

static int lanesPlaceOf(int element) {
  return lanesPlace(element / T, element % T);
}

Value loops::lanesTile(OpBuilder &b, Location loc, Value tile, bool fromLanes) {
  return permuteTile(b, loc, tile, fromLanes ? lanesElement : lanesPlaceOf);
}

namespace {

struct LowerLoadTile : OpRewritePattern<LoadTileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadTileOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorType type = op.getType();
    Type elt = type.getElementType();
    Value zeroRow = zeros(rewriter, loc, rowType(elt));
    Value tile = zeros(rewriter, loc, type);
    for (int64_t i = 0; i < T; ++i) {
      Value start = lineStart(rewriter, loc, op.getBase(), op.getStride(), i);
      Value mask =
          lineMask(rewriter, loc, start, op.getLineLength(), op.getLimit());
      if (Value from = op.getFrom())
        mask = arith::AndIOp::create(rewriter, loc, mask,
                                     atOrAbove(rewriter, loc, start, from));
      Value line;
      if (Value mirror = op.getMirror()) {
        Value places =
            mirroredIndices(rewriter, loc, op.getSource(), mirror, start, mask);
        line = vector::GatherOp::create(
            rewriter, loc, rowType(elt), op.getSource(),
            ValueRange{constIndex(rewriter, loc, 0)}, places, mask, zeroRow);
      } else {
        line = vector::MaskedLoadOp::create(rewriter, loc, rowType(elt),
                                            op.getSource(), ValueRange{start},
                                            mask, zeroRow);
      }
      if (op.getOrder() == ElementOrder::Quads)
        line = permuteLine(rewriter, loc, line, quadsPosition);
      tile = vector::InsertOp::create(rewriter, loc, line, tile, i);
    }
    if (op.getLayout() == TileLayout::Cols)
      tile = vector::TransposeOp::create(rewriter, loc, tile,
                                         ArrayRef<int64_t>{1, 0});
    if (op.getOrder() == ElementOrder::Lanes)
      tile = lanesTile(rewriter, loc, tile, /*fromLanes=*/false);
    rewriter.replaceOp(op, tile);
    return success();
  }
};

struct LowerStoreTile : OpRewritePattern<StoreTileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreTileOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type destElt = cast<MemRefType>(op.getDest().getType()).getElementType();
    Value tile = op.getTile();
    if (op.getOrder() == ElementOrder::Lanes)
      tile = lanesTile(rewriter, loc, tile, /*fromLanes=*/true);
    for (int64_t i = 0; i < T; ++i) {
      Value start = lineStart(rewriter, loc, op.getBase(), op.getStride(), i);
      Value mask =
          lineMask(rewriter, loc, start, op.getLineLength(), op.getLimit());
      if (Value from = op.getFrom())
        mask = arith::AndIOp::create(rewriter, loc, mask,
                                     atOrAbove(rewriter, loc, start, from));
      Value row = vector::ExtractOp::create(rewriter, loc, tile, i);
      if (op.getOrder() == ElementOrder::Quads)
        row = permuteLine(rewriter, loc, row, quadsColumn);
      row = convertRow(rewriter, loc, row, destElt);
      if (Value mirror = op.getMirror()) {
        Value places =
            mirroredIndices(rewriter, loc, op.getDest(), mirror, start, mask);
        vector::ScatterOp::create(
            rewriter, loc, /*resultType=*/Type(), op.getDest(),
            ValueRange{constIndex(rewriter, loc, 0)}, places, mask, row);
        continue;
      }
      vector::MaskedStoreOp::create(rewriter, loc, op.getDest(),
                                    ValueRange{start}, mask, row);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// tcu.positions as the constant it is.
struct LowerPositions : OpRewritePattern<PositionsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PositionsOp op,
                                PatternRewriter &rewriter) const override {
    bool rows = op.getDim() == TileLayout::Rows;
    SmallVector<int32_t> places(T * T);
    for (int64_t i = 0; i < T * T; ++i) {
      // The place in line order that element i holds.
      int64_t p =
          op.getOrder() == ElementOrder::Lanes ? lanesPlace(i / T, i % T) : i;
      places[i] = static_cast<int32_t>(rows ? p / T
                                       : op.getOrder() == ElementOrder::Quads
                                           ? quadsPosition(p % T)
                                           : p % T);
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, DenseElementsAttr::get(op.getType(), ArrayRef<int32_t>(places)));
    return success();
  }
};

/// tcu.gather row by row: base + offsets, masked to [0, limit).
struct LowerGather : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elt = op.getType().getElementType();
    auto places = VectorType::get({T}, rewriter.getIndexType());
    auto splat = [&](Value v) {
      return vector::BroadcastOp::create(rewriter, loc, places, v).getResult();
    };
    Value base = splat(op.getBase()), limit = splat(op.getLimit());
    Value zero = splat(constIndex(rewriter, loc, 0));
    Value zeroRow = zeros(rewriter, loc, rowType(elt));
    Value tile = zeros(rewriter, loc, op.getType());
    for (int64_t i = 0; i < T; ++i) {
      Value offsets =
          vector::ExtractOp::create(rewriter, loc, op.getIndices(), i);
      Value at = arith::AddIOp::create(
          rewriter, loc, base,
          arith::IndexCastOp::create(rewriter, loc, places, offsets));
      Value mask = arith::AndIOp::create(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, at,
                                zero),
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, at,
                                limit));
      at = arith::SelectOp::create(rewriter, loc, mask, at, zero);
      Value row = vector::GatherOp::create(
          rewriter, loc, rowType(elt), op.getSource(),
          ValueRange{constIndex(rewriter, loc, 0)}, at, mask, zeroRow);
      tile = vector::InsertOp::create(rewriter, loc, row, tile, i);
    }
    rewriter.replaceOp(op, tile);
    return success();
  }
};

struct LowerStoreRow : OpRewritePattern<StoreRowOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreRowOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type destElt = cast<MemRefType>(op.getDest().getType()).getElementType();
    Type tileElt = op.getTile().getType().getElementType();
    int64_t step = op.getStep();
    Value mask = lineMask(rewriter, loc, op.getBase(),
                          constIndex(rewriter, loc, T / step), op.getLimit());
    Value row = vector::ExtractOp::create(rewriter, loc, op.getTile(),
                                          static_cast<int64_t>(op.getRow()));
    if (step > 1) {
      // Columns 0, step, 2·step, ... first; the rest are masked off.
      SmallVector<int64_t> columns;
      for (int64_t j = 0; j < T; ++j)
        columns.push_back(j < T / step ? j * step : 0);
      row = vector::ShuffleOp::create(rewriter, loc, row, row, columns);
    }
    if (op.getAccumulate()) {
      Value old = vector::MaskedLoadOp::create(
          rewriter, loc, rowType(destElt), op.getDest(),
          ValueRange{op.getBase()}, mask,
          zeros(rewriter, loc, rowType(destElt)));
      old = widenRow(rewriter, loc, old, tileElt);
      row = isa<FloatType>(tileElt)
                ? arith::AddFOp::create(rewriter, loc, old, row).getResult()
                : arith::AddIOp::create(rewriter, loc, old, row).getResult();
    }
    vector::MaskedStoreOp::create(rewriter, loc, op.getDest(),
                                  ValueRange{op.getBase()}, mask,
                                  convertRow(rewriter, loc, row, destElt));
    rewriter.eraseOp(op);
    return success();
  }
};

/// Every element of row i = the sum of row i (of its block of columns): one
/// vector reduction per row or block (in element order), broadcast back.
struct LowerRowSums : OpRewritePattern<RowSumsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RowSumsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorType type = op.getType();
    VectorType row = rowType(type.getElementType());
    Value tile = zeros(rewriter, loc, type);
    int64_t block = op.getBlock();
    VectorType part = VectorType::get({block}, type.getElementType());
    for (int64_t i = 0; i < T; ++i) {
      Value line = vector::ExtractOp::create(rewriter, loc, op.getSource(), i);
      Value filled = zeros(rewriter, loc, row);
      for (int64_t j = 0; j < T; j += block) {
        Value piece = vector::ExtractStridedSliceOp::create(
            rewriter, loc, line, ArrayRef<int64_t>{j}, ArrayRef<int64_t>{block},
            ArrayRef<int64_t>{1});
        Value sum = vector::ReductionOp::create(
            rewriter, loc, vector::CombiningKind::ADD, piece);
        filled = vector::InsertStridedSliceOp::create(
            rewriter, loc,
            vector::BroadcastOp::create(rewriter, loc, part, sum), filled,
            ArrayRef<int64_t>{j}, ArrayRef<int64_t>{1});
      }
      tile = vector::InsertOp::create(rewriter, loc, filled, tile, i);
    }
    rewriter.replaceOp(op, tile);
    return success();
  }
};

/// tcu.block_prefix in program order: the phase's iterations run one
/// after another, so warps 0..w-1 have stored their values already.
struct LowerBlockPrefix : OpRewritePattern<BlockPrefixOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BlockPrefixOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lowerBlockPrefix(rewriter, op, nullptr));
    return success();
  }
};

struct LowerTicket : OpRewritePattern<TicketOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TicketOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value one =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(1));
    Value old = memref::AtomicRMWOp::create(
        rewriter, loc, arith::AtomicRMWKind::addi, one, op.getCounter(),
        ValueRange{op.getIndex()});
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getIndexType(),
                                                    old);
    return success();
  }
};

/// tcu.prefetch is a hint; the CPU has nothing to do with it.
struct DropPrefetch : OpRewritePattern<PrefetchOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PrefetchOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// The CPU's look-back words: state[i] = the published word
/// (tcuc/Conversion/LookbackWord.h) of item i's inclusive prefix (the sum of
/// its chain's items up to i), published in ticket order.
struct InclusiveChain {
  OpBuilder &b;
  Location loc;
  Value state;

  /// The sum of the chain's items first .. item - 1 (0 for the first),
  /// from item - 1's word, which must be published (anything else aborts
  /// rather than spin: items run in ticket order on the CPU).
  Value before(Value item, Value first, Type t, StringRef opName) {
    using P = arith::CmpIPredicate;
    auto ifOp = scf::IfOp::create(
        b, loc, arith::CmpIOp::create(b, loc, P::eq, item, first),
        [&](OpBuilder &ib, Location l) {
          scf::YieldOp::create(
              ib, l,
              Value(arith::ConstantOp::create(ib, l, ib.getZeroAttr(t))));
        },
        [&](OpBuilder &ib, Location l) {
          Value word =
              memref::LoadOp::create(ib, l, state,
                                     ValueRange{arith::SubIOp::create(
                                         ib, l, item, constIndex(ib, l, 1))});
          cf::AssertOp::create(
              ib, l, lookback_word::buildWordIsPublished(ib, l, word),
              (opName + ": the item before has no inclusive prefix (items "
                        "must be claimed in order with tcu.ticket)")
                  .str());
          scf::YieldOp::create(ib, l,
                               lookback_word::buildWordValue(ib, l, word, t));
        });
    return ifOp.getResult(0);
  }
  /// Publishes `inclusive` as item `item`'s word.
  void publish(Value item, Value inclusive) {
    Value word = lookback_word::buildPublishedWord(b, loc, inclusive);
    memref::StoreOp::create(b, loc, word, state, ValueRange{item});
  }
};

/// The sum of buffer[from .. from + count - 1], added in that order.
Value sumInOrder(OpBuilder &b, Location loc, Value buffer, Value from,
                 int64_t count) {
  Value sum;
  for (int64_t i = 0; i < count; ++i) {
    Value v = memref::LoadOp::create(
        b, loc, buffer,
        ValueRange{arith::AddIOp::create(b, loc, from, constIndex(b, loc, i))});
    sum = sum ? buildAccumulatorAdd(b, loc, sum, v) : v;
  }
  return sum;
}

/// Runs `body` when `warp` is `which`.
void inWarp(OpBuilder &b, Location loc, Value warp, int64_t which,
            function_ref<void()> body) {
  auto ifOp =
      scf::IfOp::create(b, loc,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              warp, constIndex(b, loc, which)));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body();
}

/// tcu.block_lookback in program order: items run in ticket order and
/// the warps of an item in warp order, so the item before has published its
/// inclusive prefix when warp 0 runs, and the last warp, which runs once
/// every value is stored, publishes P_item = chunk_prefix + A_item, A_item
/// added in warp order as on the GPU (whose words are Fenwick sums instead,
/// so the two backends round f32 prefixes differently).
struct LowerBlockLookback : OpRewritePattern<BlockLookbackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BlockLookbackOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value buffer = op.getBuffer(), offset = op.getOffset(), warp = op.getWarp();
    int64_t warps = op.getWarps();
    Type t = op.getValue().getType();
    InclusiveChain chain{rewriter, loc, op.getState()};
    Value slot = arith::AddIOp::create(rewriter, loc, offset,
                                       constIndex(rewriter, loc, warps));
    Value prefix = lowerBlockPrefix(rewriter, loc, op.getValue(), buffer,
                                    offset, warp, warps, nullptr);
    inWarp(rewriter, loc, warp, 0, [&] {
      memref::StoreOp::create(
          rewriter, loc,
          chain.before(op.getItem(), op.getFirst(), t, "tcu.block_lookback"),
          buffer, ValueRange{slot});
    });
    Value chunkPrefix =
        memref::LoadOp::create(rewriter, loc, buffer, ValueRange{slot});
    inWarp(rewriter, loc, warp, warps - 1, [&] {
      Value aggregate = sumInOrder(rewriter, loc, buffer, offset, warps);
      Value inclusive =
          buildAccumulatorAdd(rewriter, loc, chunkPrefix, aggregate);
      // `publish` = item: a new chain starts here, its word is the
      // aggregate alone (else `publish` = first, the chain looked along).
      if (Value publish = op.getPublish())
        inclusive = arith::SelectOp::create(
            rewriter, loc,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                  publish, op.getItem()),
            aggregate, inclusive);
      chain.publish(op.getItem(), inclusive);
    });
    rewriter.replaceOp(op, {prefix, chunkPrefix});
    return success();
  }
};

/// tcu.block_lagged_lookback in program order, with tcu.block_lookback's
/// words: warp 0 reads the scanned item's prefix from the word before it
/// (published by a smaller ticket, so already run), and the last warp
/// publishes the reduced item's inclusive prefix, the word before it plus
/// its aggregate (the reduce values in warp order).
struct LowerBlockLaggedLookback : OpRewritePattern<BlockLaggedLookbackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BlockLaggedLookbackOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value buffer = op.getBuffer(), offset = op.getOffset(), warp = op.getWarp();
    int64_t warps = op.getWarps();
    Type t = op.getScanValue().getType();
    InclusiveChain chain{rewriter, loc, op.getState()};
    auto slot = [&](int64_t i) -> Value {
      return arith::AddIOp::create(rewriter, loc, offset,
                                   constIndex(rewriter, loc, i));
    };
    Value prefix = lowerBlockPrefix(rewriter, loc, op.getScanValue(), buffer,
                                    offset, warp, warps, nullptr);
    memref::StoreOp::create(
        rewriter, loc, op.getReduceValue(), buffer,
        ValueRange{arith::AddIOp::create(rewriter, loc, slot(warps), warp)});
    inWarp(rewriter, loc, warp, 0, [&] {
      auto ifOp = scf::IfOp::create(
          rewriter, loc, op.getLooksBack(),
          [&](OpBuilder &b, Location l) {
            InclusiveChain in{b, l, op.getState()};
            scf::YieldOp::create(b, l,
                                 in.before(op.getItem(), op.getFirst(), t,
                                           "tcu.block_lagged_lookback"));
          },
          [&](OpBuilder &b, Location l) {
            scf::YieldOp::create(
                b, l, Value(arith::ConstantOp::create(b, l, b.getZeroAttr(t))));
          });
      Value chunkPrefix = ifOp.getResult(0);
      // The given word where it is published (always, here).
      if (Value given = op.getGivenWords()) {
        Value published =
            lookback_word::buildWordIsPublished(rewriter, loc, given);
        Value value = lookback_word::buildWordValue(rewriter, loc, given, t);
        chunkPrefix = arith::SelectOp::create(rewriter, loc, published, value,
                                              chunkPrefix);
      }
      memref::StoreOp::create(rewriter, loc, chunkPrefix, buffer,
                              ValueRange{slot(2 * warps)});
    });
    Value chunkPrefix = memref::LoadOp::create(rewriter, loc, buffer,
                                               ValueRange{slot(2 * warps)});
    inWarp(rewriter, loc, warp, warps - 1, [&] {
      auto ifOp = scf::IfOp::create(rewriter, loc, op.getPublishes());
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      Value before = chain.before(op.getPublishItem(), op.getPublishFirst(), t,
                                  "tcu.block_lagged_lookback");
      chain.publish(op.getPublishItem(),
                    buildAccumulatorAdd(
                        rewriter, loc, before,
                        sumInOrder(rewriter, loc, buffer, slot(warps), warps)));
    });
    rewriter.replaceOp(op, {prefix, chunkPrefix});
    return success();
  }
};

/// tcu.lagged_prefix in program order: the word before the item (published
/// by a smaller ticket, so already run), or a published 0 for the first.
struct LowerLaggedPrefix : OpRewritePattern<LaggedPrefixOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LaggedPrefixOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value published = lookback_word::buildWordConstant(
        rewriter, loc, lookback_word::kPublishedZero);
    Value reads = arith::AndIOp::create(
        rewriter, loc, op.getLooksBack(),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                              op.getItem(), op.getFirst()));
    auto ifOp = scf::IfOp::create(
        rewriter, loc, reads,
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(
              b, l,
              Value(memref::LoadOp::create(
                  b, l, op.getState(),
                  ValueRange{arith::SubIOp::create(b, l, op.getItem(),
                                                   constIndex(b, l, 1))})));
        },
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, published);
        });
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct ConvertTCUMMAToLoopsPass
    : tcu::impl::ConvertTCUMMAToLoopsBase<ConvertTCUMMAToLoopsPass> {
  void runOnOperation() override {
    loops::lowerSplitChains(getOperation());
    RewritePatternSet patterns(&getContext());
    populateTCUMMAToLoopsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Anything of the mma form left over would silently never execute.
    WalkResult left = getOperation()->walk([](Operation *op) {
      if (isa<MatrixOp, DecayMatrixOp, MMAOp, SplitOp, LoadTileOp, StoreTileOp,
              StoreRowOp, GatherOp, RowSumsOp, LinearRecurrenceOp, AllFiniteOp,
              PositionsOp, BlockPrefixOp, TicketOp, PrefetchOp, BlockLookbackOp,
              BlockLaggedLookbackOp, LaggedPrefixOp, OffsetHeadsOp,
              StoreSegmentEndsOp, SegmentedReduceOp, SegmentedScanOp>(op)) {
        op->emitError("not lowered by convert-tcu-mma-to-loops (run "
                      "convert-tcu-to-mma first)");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::tcu::populateTCUMMAToLoopsPatterns(RewritePatternSet &patterns) {
  loops::populateProductPatterns(patterns);
  loops::populateOffsetsPatterns(patterns);
  loops::populateRecurrencePatterns(patterns);
  patterns.add<LowerLoadTile, LowerStoreTile, LowerStoreRow, LowerRowSums,
               LowerBlockPrefix, LowerTicket, DropPrefetch, LowerBlockLookback,
               LowerBlockLaggedLookback, LowerLaggedPrefix, LowerPositions,
               LowerGather>(patterns.getContext());
}
