//===- TileAccessOps.cpp - tile loads and stores as lane accesses ---------===//
//
// tcu.load_tile, tcu.store_tile and tcu.store_row on lane fragments: each
// lane reads or writes its 8 slots (LaneFragments.h) at addresses that
// never touch a masked-off element. Whole tiles (and whole runs of tiles,
// TileRuns.h) go without masks, a group of consecutive elements of a line
// as one vector access; the ragged ends mask each element.
//
//===----------------------------------------------------------------------===//

#include "GPUPatterns.h"
#include "LaneFragments.h"
#include "MirroredLanes.h"
#include "TileRuns.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

namespace {

Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value cmp(OpBuilder &b, Location loc, arith::CmpIPredicate p, Value x,
          Value y) {
  return arith::CmpIOp::create(b, loc, p, x, y);
}

/// `cond` and `at >= from`: the lower bound of an access with `from`
/// (`cond` alone without one).
Value atOrAbove(OpBuilder &b, Location loc, Value cond, Value at, Value from) {
  if (!from)
    return cond;
  return arith::AndIOp::create(
      b, loc, cond, cmp(b, loc, arith::CmpIPredicate::sge, at, from));
}

/// Converts a scalar of a tile's element type to a buffer's (f32 -> f16 or
/// bf16 rounds to nearest even, as on the CPU).
Value toElement(OpBuilder &b, Location loc, Value x, Type to) {
  if (x.getType() == to)
    return x;
  if (isa<FloatType>(to) &&
      cast<FloatType>(to).getWidth() < cast<FloatType>(x.getType()).getWidth())
    return arith::TruncFOp::create(b, loc, to, x);
  return arith::ExtFOp::create(b, loc, to, x);
}

/// if (valid) load src[addr] else 0.
Value maskedLoad(OpBuilder &b, Location loc, Value valid, Value src,
                 Value addr) {
  Type elt = cast<MemRefType>(src.getType()).getElementType();
  auto ifOp = scf::IfOp::create(
      b, loc, valid,
      [&](OpBuilder &t, Location l) {
        Value v = memref::LoadOp::create(t, l, src, addr);
        scf::YieldOp::create(t, l, v);
      },
      [&](OpBuilder &e, Location l) {
        Value z = arith::ConstantOp::create(e, l, e.getZeroAttr(elt));
        scf::YieldOp::create(e, l, z);
      });
  return ifOp.getResult(0);
}

/// if (valid) dest[addr] = x (converted to the buffer's type); with
/// `accumulate`, dest[addr] += x in x's type.
void maskedStore(OpBuilder &b, Location loc, Value valid, Value x, Value dest,
                 Value addr, bool accumulate = false) {
  Type destElt = cast<MemRefType>(dest.getType()).getElementType();
  auto ifOp = scf::IfOp::create(b, loc, valid);
  OpBuilder then = ifOp.getThenBodyBuilder();
  if (accumulate) {
    Value old = memref::LoadOp::create(then, loc, dest, addr);
    old = toElement(then, loc, old, x.getType());
    x = isa<FloatType>(x.getType())
            ? arith::AddFOp::create(then, loc, old, x).getResult()
            : arith::AddIOp::create(then, loc, old, x).getResult();
  }
  memref::StoreOp::create(then, loc, toElement(then, loc, x, destElt), dest,
                          addr);
}

/// Where a slot of a mirrored access (`mirror %m`, a reverse scan's) lies:
/// logical `a.addr` is element m - addr, valid only inside the buffer (an
/// unsigned compare: a negative place is the padding below it).
void mirrorSlot(OpBuilder &b, Location loc, Value mirror, Value size,
                Value &addr, Value &valid) {
  addr = arith::SubIOp::create(b, loc, mirror, addr);
  valid = arith::AndIOp::create(
      b, loc, valid, cmp(b, loc, arith::CmpIPredicate::ult, addr, size));
}

/// Slot s of a tile access: the element (row, col) lies on line `row`
/// (`rows` layout) or line `col` (`cols`), at position col or row. Freedoms
/// of `order` (tcu.load_tile's) let a lane's elements be consecutive in
/// memory:
/// - Line permutes the positions within each line: in `rows`, the
///   lane's columns {2t, 2t+1, 2t+8, 2t+9} of a row become positions
///   4t..4t+3; in `cols`, its rows {g, g+8} of a column become 2g, 2g+1;
/// - Tile ignores the layout: lane L's slot s is element L * 8 + s of
///   the 256 in line order (line 2g + t / 2, position 8 (t % 2) + s).
///   `lanes` (rows only) is that same permutation, as a fixed order.
/// Each is a bijection on the tile's 16 x 16 (line, position) pairs.
struct SlotAddress {
  Value addr, valid;
};

/// The slot's part of its element's (line, position): in every layout and
/// order these split into a lane's part (laneLine / laneStart below) plus
/// a constant of the slot, so whole tiles can address every slot from one
/// lane base.
struct SlotOffset {
  int64_t line, position;
  /// Elements past slot 0's, for lines `stride` elements apart.
  int64_t elements(int64_t stride) const { return line * stride + position; }
};
/// Whether a lane's four elements of a row take four consecutive positions
/// of the line: `line` order (any position is fine) and `quads` (rows only:
/// the positions the quads permutation gives them, which are those).
bool quadsOfLine(ElementOrder order) {
  return order == ElementOrder::Line || order == ElementOrder::Quads;
}
/// Whether a lane's eight elements are consecutive places of the tile:
/// `tile` order (any place is fine) and `lanes` (the places it gives them).
bool eightOfTile(ElementOrder order) {
  return order == ElementOrder::Tile || order == ElementOrder::Lanes;
}

SlotOffset slotOffset(int s, TileLayout layout, ElementOrder order) {
  // Lane 0 (g = t = 0) holds exactly the slot's part of row and column.
  int64_t rowOff = slotRow(0, s), colOff = slotCol(0, s);
  if (eightOfTile(order))
    return {0, s};
  // quads: lane t's slot s is column 2t + (s & 1) + 8 (s >> 2), at line
  // position 4t + (s & 1) + 2 (s >> 2) (laneLineStart gives 4t): the
  // position tcu::quadsPosition gives that column (QuadsOrderTest checks
  // quadsPosition against these positions; test/Conversion/TCUMMAToGPU/
  // quads.mlir pins the accesses).
  if (layout == TileLayout::Rows)
    return {rowOff, quadsOfLine(order) ? (s & 1) + 2 * (s >> 2) : colOff};
  return {colOff, order == ElementOrder::Line ? (s >> 1) & 1 : rowOff};
}

/// The lane's part of slot 0's (line, position) (see slotOffset).
std::pair<Value, Value> laneLineStart(OpBuilder &b, Location loc,
                                      const LanePosition &lane,
                                      TileLayout layout, ElementOrder order) {
  auto c = [&](int64_t v) { return constIndex(b, loc, v); };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto mul = [&](Value x, int64_t k) -> Value {
    return arith::MulIOp::create(b, loc, x, c(k));
  };
  if (eightOfTile(order))
    return {add(mul(lane.g, 2), arith::DivUIOp::create(b, loc, lane.t, c(2))),
            mul(arith::RemUIOp::create(b, loc, lane.t, c(2)), 8)};
  // Rows: line g, position 2t (line and quads order: 4t); cols: the
  // transpose (line order: 2g).
  if (layout == TileLayout::Rows)
    return {lane.g, mul(lane.t, quadsOfLine(order) ? 4 : 2)};
  return {mul(lane.t, 2),
          order == ElementOrder::Line ? mul(lane.g, 2) : lane.g};
}

SlotAddress slotAddress(OpBuilder &b, Location loc, const LanePosition &lane,
                        int s, TileLayout layout, Value base, Value stride,
                        Value lineLength, Value limit,
                        ElementOrder order = ElementOrder::Fixed) {
  auto c = [&](int64_t v) { return constIndex(b, loc, v); };
  auto add = [&](Value x, int64_t k) -> Value {
    return k ? arith::AddIOp::create(b, loc, x, c(k)).getResult() : x;
  };
  auto [laneLine, laneStart] = laneLineStart(b, loc, lane, layout, order);
  SlotOffset off = slotOffset(s, layout, order);
  Value line = add(laneLine, off.line), j = add(laneStart, off.position);
  Value addr = arith::AddIOp::create(
      b, loc, base,
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, line, stride),
                            j));
  Value valid = arith::AndIOp::create(
      b, loc, cmp(b, loc, arith::CmpIPredicate::slt, j, lineLength),
      cmp(b, loc, arith::CmpIPredicate::slt, addr, limit));
  return {addr, valid};
}

/// A mirrored access whose lanes each hold eight consecutive elements of a
/// whole line (the lanes or tile order): the lane's part, which
/// MirroredLanes.h moves as one vector where it can; else none.
template <typename Adaptor>
std::optional<MirroredTile> mirroredLane(OpBuilder &b, Location loc,
                                         const LanePosition &lane,
                                         TileLayout layout, ElementOrder order,
                                         Adaptor adaptor, Value buffer) {
  if (layout != TileLayout::Rows || !eightOfTile(order) ||
      !isConstantIntValue(adaptor.getLineLength(), kTileSize))
    return std::nullopt;
  Value laneStart = slotAddress(b, loc, lane, 0, layout, adaptor.getBase(),
                                adaptor.getStride(), adaptor.getLineLength(),
                                adaptor.getLimit(), order)
                        .addr;
  return MirroredTile{buffer, laneStart, adaptor.getFrom(), adaptor.getLimit(),
                      adaptor.getMirror()};
}

} // namespace

SmallVector<SmallVector<int, 8>, 8>
gpu_lowering::slotGroups(TileLayout layout, ElementOrder order) {
  if (eightOfTile(order))
    return {{0, 1, 2, 3, 4, 5, 6, 7}};
  bool lineFree = order == ElementOrder::Line;
  if (layout == TileLayout::Rows && quadsOfLine(order))
    return {{0, 1, 4, 5}, {2, 3, 6, 7}};
  if (layout == TileLayout::Rows)
    return {{0, 1}, {2, 3}, {4, 5}, {6, 7}};
  if (lineFree)
    return {{0, 2}, {1, 3}, {4, 6}, {5, 7}};
  return {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}};
}

namespace {

/// Each group's first element past the first group's (in elements), where
/// the tile's line stride is a constant: one address serves a whole tile.
std::optional<SmallVector<int64_t>>
groupOffsets(ArrayRef<SmallVector<int, 8>> groups, TileLayout layout,
             ElementOrder order, Value stride) {
  std::optional<int64_t> lines = getConstantIntValue(stride);
  if (!lines)
    return std::nullopt;
  int64_t first =
      slotOffset(groups.front().front(), layout, order).elements(*lines);
  SmallVector<int64_t> offsets;
  for (ArrayRef<int> group : groups)
    offsets.push_back(
        slotOffset(group.front(), layout, order).elements(*lines) - first);
  return offsets;
}

/// Whether a tile access needs no masks: every line is complete
/// (line_length >= 16), the last element base + 15 * stride + 15 is below
/// `limit`, and each group of `width` consecutive elements on a line starts
/// `width`-element aligned in `buffer` (base and stride multiples of width,
/// the buffer's address a multiple of width elements), so it can move as
/// one vector<width x T>.
Value isWholeTile(OpBuilder &b, Location loc, Value buffer, Value base,
                  Value stride, Value lineLength, Value limit, int64_t width) {
  using P = arith::CmpIPredicate;
  auto c = [&](int64_t v) { return constIndex(b, loc, v); };
  Value last = arith::AddIOp::create(
      b, loc, base,
      arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, stride, c(kTileSize - 1)),
          c(kTileSize - 1)));
  int64_t eltBytes = cast<MemRefType>(buffer.getType())
                         .getElementType()
                         .getIntOrFloatBitWidth() /
                     8;
  Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value start = arith::AddIOp::create(
      b, loc, ptr, arith::MulIOp::create(b, loc, base, c(eltBytes)));
  Value parity = arith::OrIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, start, c(width * eltBytes)),
      arith::RemUIOp::create(b, loc, stride, c(width)));
  Value ok = arith::AndIOp::create(
      b, loc, cmp(b, loc, P::sge, lineLength, c(kTileSize)),
      cmp(b, loc, P::slt, last, limit));
  ok = arith::AndIOp::create(b, loc, ok, cmp(b, loc, P::sge, stride, c(0)));
  return arith::AndIOp::create(b, loc, ok, cmp(b, loc, P::eq, parity, c(0)));
}

/// `base + offset` (`base` itself for offset 0).
Value offsetBase(OpBuilder &b, Location loc, Value base, int64_t offset) {
  return offset
             ? arith::AddIOp::create(b, loc, base, constIndex(b, loc, offset))
                   .getResult()
             : base;
}

/// isWholeTile for a run of tiles at `base` + offsets from 0 to `last`
/// (multiples of `width`): its first and last tiles are whole, so every
/// tile between is in bounds and aligned alike. One tile when `last` is 0.
Value isWholeRun(OpBuilder &b, Location loc, Value buffer, Value base,
                 int64_t last, Value stride, Value lineLength, Value limit,
                 int64_t width) {
  Value whole =
      isWholeTile(b, loc, buffer, base, stride, lineLength, limit, width);
  if (!last)
    return whole;
  return arith::AndIOp::create(b, loc, whole,
                               isWholeTile(b, loc, buffer,
                                           offsetBase(b, loc, base, last),
                                           stride, lineLength, limit, width));
}

struct LowerLoadTile : OpConversionPattern<LoadTileOp> {
  LowerLoadTile(const TypeConverter &types, MLIRContext *ctx,
                const TileRuns *runs)
      : OpConversionPattern(types, ctx), runs(runs) {}

  LogicalResult
  matchAndRewrite(LoadTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LanePosition lane = getLanePosition(rewriter, loc);
    Value src = adaptor.getSource();
    Type fragment = fragmentType(op.getType().getElementType());
    // A mirrored tile (reverse scans; never in a run, TileRuns): a lane's
    // consecutive logical elements are consecutive physical ones
    // backwards; in the lanes order they move as aligned vectors
    // (MirroredLanes.h), in the others element by element.
    if (Value mirror = adaptor.getMirror()) {
      auto elementwise = [&](OpBuilder &b, Location l) {
        Value size = memref::DimOp::create(b, l, src, 0);
        SmallVector<Value> slots;
        for (int s = 0; s < kSlots; ++s) {
          SlotAddress a =
              slotAddress(b, l, lane, s, op.getLayout(), adaptor.getBase(),
                          adaptor.getStride(), adaptor.getLineLength(),
                          adaptor.getLimit(), op.getOrder());
          Value valid = atOrAbove(b, l, a.valid, a.addr, adaptor.getFrom());
          mirrorSlot(b, l, mirror, size, a.addr, valid);
          slots.push_back(maskedLoad(b, l, valid, src, a.addr));
        }
        return slots;
      };
      auto vectors = mirroredLane(rewriter, loc, lane, op.getLayout(),
                                  op.getOrder(), adaptor, src);
      SmallVector<Value> slots =
          vectors ? loadMirroredLanes(rewriter, loc, *vectors, elementwise)
                  : elementwise(rewriter, loc);
      rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, fragment, slots);
      return success();
    }
    // The tiles loaded here: this one, or a run's (TileRuns), whose later
    // tiles move up to it.
    ArrayRef<std::pair<LoadTileOp, int64_t>> run;
    if (runs)
      if (auto it = runs->loads.find(op); it != runs->loads.end())
        run = it->second;
    SmallVector<int64_t> offsets{0};
    for (auto &member : run)
      offsets.push_back(member.second);
    Value base = adaptor.getBase(), stride = adaptor.getStride(),
          lineLength = adaptor.getLineLength(), limit = adaptor.getLimit();
    // Whole tiles (all but the ragged ends; a run when its first and last
    // tiles are: the bases between are in range and, being multiples of
    // the width apart, aligned alike) load without masks, each group of
    // consecutive elements as one vector access from the first tile's lane
    // address (one PTX block where hinted; the L2 hint goes on these
    // accesses only); the rest masks each element.
    Type elt = cast<MemRefType>(src.getType()).getElementType();
    ElementOrder order = op.getOrder();
    auto groups = slotGroups(op.getLayout(), order);
    int64_t width = groups.front().size();
    Value whole = isWholeRun(rewriter, loc, src, base, offsets.back(), stride,
                             lineLength, limit, width);
    // A tile (a run: its first tile) whose first element is below `from`
    // is not whole.
    Value from = adaptor.getFrom();
    whole = atOrAbove(rewriter, loc, whole, base, from);
    bool hinted = canHint(op.getCache(), width * getElementBytes(elt));
    std::optional<SmallVector<int64_t>> tileOffsets =
        groupOffsets(groups, op.getLayout(), order, stride);
    size_t count = offsets.size() * kSlots;
    // Every slot as part of a vector access (the caller checked that the
    // run is aligned and readable).
    auto vectorSlots = [&](OpBuilder &b, Location l) {
      SmallVector<Value> slots(count);
      auto type = VectorType::get({width}, elt);
      auto place = [&](size_t tile, ArrayRef<int> group, Value vec) {
        for (auto [k, s] : llvm::enumerate(group))
          slots[tile * kSlots + s] =
              vector::ExtractOp::create(b, l, vec, int64_t(k));
      };
      if (hinted && tileOffsets) {
        Value first =
            slotAddress(b, l, lane, groups.front().front(), op.getLayout(),
                        base, stride, lineLength, limit, order)
                .addr;
        SmallVector<int64_t> all;
        for (int64_t offset : offsets)
          for (int64_t g : *tileOffsets)
            all.push_back(offset + g);
        SmallVector<Value> vectors =
            hintedLoads(b, l, op.getCache(), type, src, first, all);
        for (size_t tile = 0; tile < offsets.size(); ++tile)
          for (auto [g, group] : llvm::enumerate(groups))
            place(tile, group, vectors[tile * groups.size() + g]);
        return slots;
      }
      for (auto [tile, offset] : llvm::enumerate(offsets))
        for (ArrayRef<int> group : groups) {
          Value addr = slotAddress(b, l, lane, group.front(), op.getLayout(),
                                   offsetBase(b, l, base, offset), stride,
                                   lineLength, limit, order)
                           .addr;
          if (width == 1) {
            slots[tile * kSlots + group.front()] =
                memref::LoadOp::create(b, l, src, addr);
            continue;
          }
          place(tile, group,
                hinted ? hintedLoads(b, l, op.getCache(), type, src, addr, {0})
                             .front()
                       : vector::LoadOp::create(
                             b, l, type, src, ValueRange{addr},
                             /*nontemporal=*/false,
                             llvm::MaybeAlign(width *
                                              elt.getIntOrFloatBitWidth() / 8))
                             .getResult());
        }
      return slots;
    };
    // Each slot's address and whether it is in [from, limit).
    auto forEachSlot = [&](OpBuilder &b, Location l,
                           function_ref<Value(size_t, SlotAddress)> f) {
      SmallVector<Value> slots;
      for (int64_t offset : offsets)
        for (int s = 0; s < kSlots; ++s) {
          SlotAddress a = slotAddress(b, l, lane, s, op.getLayout(),
                                      offsetBase(b, l, base, offset), stride,
                                      lineLength, limit, order);
          a.valid = atOrAbove(b, l, a.valid, a.addr, from);
          slots.push_back(f(slots.size(), a));
        }
      return slots;
    };
    auto elementSlots = [&](OpBuilder &b, Location l) {
      return forEachSlot(b, l, [&](size_t, SlotAddress a) {
        return maskedLoad(b, l, a.valid, src, a.addr);
      });
    };
    // A tile (or run) of 256 consecutive elements with `from` (an aligned
    // walk's first and last tiles, the streaming scan's) that lies inside
    // the buffer moves as whole vectors too, and selects zero below `from`
    // and at or past `limit`: it reads its neighbours' input, never past
    // the buffer, where slot by slot it would cost a load and a branch per
    // element (docs/algorithms.md#aligned-walks).
    // The lanes order too, without `from`: a lane's eight elements one by
    // one would touch 16 (f16) to 32 (f32) sectors an instruction.
    bool mayOverread = (from || order == ElementOrder::Lanes) && width > 1 &&
                       op.getLayout() == TileLayout::Rows &&
                       isConstantIntValue(stride, kTileSize) &&
                       isConstantIntValue(lineLength, kTileSize);
    auto yield = [](OpBuilder &b, Location l, ValueRange v) {
      scf::YieldOp::create(b, l, v);
    };
    auto ifOp = scf::IfOp::create(
        rewriter, loc, whole,
        [&](OpBuilder &b, Location l) { yield(b, l, vectorSlots(b, l)); },
        [&](OpBuilder &b, Location l) {
          if (!mayOverread)
            return yield(b, l, elementSlots(b, l));
          // Only tiles that are not whole pay for this test.
          Value size = memref::DimOp::create(b, l, src, 0);
          Value inBuffer = isWholeRun(b, l, src, base, offsets.back(), stride,
                                      lineLength, size, width);
          auto masked = scf::IfOp::create(
              b, l, inBuffer,
              [&](OpBuilder &t, Location tl) {
                SmallVector<Value> v = vectorSlots(t, tl);
                Value zero =
                    arith::ConstantOp::create(t, tl, t.getZeroAttr(elt));
                yield(t, tl, forEachSlot(t, tl, [&](size_t i, SlotAddress a) {
                        return arith::SelectOp::create(t, tl, a.valid, v[i],
                                                       zero)
                            .getResult();
                      }));
              },
              [&](OpBuilder &e, Location el) {
                yield(e, el, elementSlots(e, el));
              });
          yield(b, l, masked.getResults());
        });
    auto tile = [&](size_t i) -> Value {
      return vector::FromElementsOp::create(
          rewriter, loc, fragment,
          ValueRange(ifOp.getResults()).slice(i * kSlots, kSlots));
    };
    for (auto [i, member] : llvm::enumerate(run))
      rewriter.replaceOp(member.first, tile(i + 1));
    rewriter.replaceOp(op, tile(0));
    return success();
  }

private:
  const TileRuns *runs;
};

struct LowerStoreTile : OpConversionPattern<StoreTileOp> {
  LowerStoreTile(const TypeConverter &types, MLIRContext *ctx,
                 const TileRuns *runs)
      : OpConversionPattern(types, ctx), runs(runs) {}

  LogicalResult
  matchAndRewrite(StoreTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LanePosition lane = getLanePosition(rewriter, loc);
    Value dest = adaptor.getDest();
    Type destElt = cast<MemRefType>(dest.getType()).getElementType();
    // Mirrored (reverse scans): as for loads.
    if (Value mirror = adaptor.getMirror()) {
      auto elementwise = [&](OpBuilder &b, Location l) {
        Value size = memref::DimOp::create(b, l, dest, 0);
        for (int s = 0; s < kSlots; ++s) {
          SlotAddress a =
              slotAddress(b, l, lane, s, TileLayout::Rows, adaptor.getBase(),
                          adaptor.getStride(), adaptor.getLineLength(),
                          adaptor.getLimit(), op.getOrder());
          Value valid = atOrAbove(b, l, a.valid, a.addr, adaptor.getFrom());
          mirrorSlot(b, l, mirror, size, a.addr, valid);
          maskedStore(b, l, valid,
                      vector::ExtractOp::create(b, l, adaptor.getTile(),
                                                ArrayRef<int64_t>{s}),
                      dest, a.addr);
        }
      };
      auto vectors = mirroredLane(rewriter, loc, lane, TileLayout::Rows,
                                  op.getOrder(), adaptor, dest);
      if (!vectors) {
        elementwise(rewriter, loc);
        rewriter.eraseOp(op);
        return success();
      }
      SmallVector<Value> slots;
      for (int s = 0; s < kSlots; ++s)
        slots.push_back(toElement(
            rewriter, loc,
            vector::ExtractOp::create(rewriter, loc, adaptor.getTile(),
                                      ArrayRef<int64_t>{s}),
            destElt));
      storeMirroredLanes(rewriter, loc, *vectors, slots, elementwise);
      rewriter.eraseOp(op);
      return success();
    }
    // The tiles stored here: this one, or a run's (TileRuns) from its
    // first store's base, lowered at its last store.
    Value base = adaptor.getBase();
    SmallVector<std::pair<Value, int64_t>> tiles{{adaptor.getTile(), 0}};
    SmallVector<Operation *> moved;
    if (runs)
      if (auto it = runs->stores.find(op); it != runs->stores.end()) {
        StoreTileOp first = it->second.front().first;
        base = rewriter.getRemappedValue(first.getBase());
        tiles.clear();
        for (auto [member, offset] : it->second) {
          StoreTileOp store = member;
          tiles.push_back({store == op
                               ? adaptor.getTile()
                               : rewriter.getRemappedValue(store.getTile()),
                           offset});
          if (store != op)
            moved.push_back(store);
        }
      }
    Value stride = adaptor.getStride(), lineLength = adaptor.getLineLength(),
          limit = adaptor.getLimit();
    ElementOrder order = op.getOrder();
    auto address = [&](OpBuilder &b, int s, int64_t offset) {
      return slotAddress(b, loc, lane, s, TileLayout::Rows,
                         offsetBase(b, loc, base, offset), stride, lineLength,
                         limit, order);
    };
    auto slot = [&](OpBuilder &b, Value tile, int s) {
      return vector::ExtractOp::create(b, loc, tile, ArrayRef<int64_t>{s});
    };
    // As for loads: whole tiles (whole runs: their first and last tiles
    // are) store each group of consecutive elements as one vector,
    // unmasked; the rest per element.
    auto groups = slotGroups(TileLayout::Rows, order);
    int64_t width = groups.front().size();
    Value whole = isWholeRun(rewriter, loc, dest, base, tiles.back().second,
                             stride, lineLength, limit, width);
    // As for loads: below `from`, per element.
    Value from = adaptor.getFrom();
    whole = atOrAbove(rewriter, loc, whole, base, from);
    // A partial tile in the lanes order: each 16-byte run of a lane's
    // consecutive elements that is aligned and wholly stored goes as one
    // vector (per element, an instruction would write 4 bytes into each
    // of 32 sectors); only the runs at the ends go element by element.
    auto lanesPartialStore = [&](OpBuilder &b, Location l, Value tile,
                                 int64_t offset) {
      int64_t eltBytes = getElementBytes(destElt);
      int64_t run = std::min<int64_t>(kSlots, 16 / eltBytes);
      Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, l, dest);
      for (int first = 0; first < kSlots; first += run) {
        SlotAddress lo = address(b, first, offset);
        SlotAddress hi = address(b, first + run - 1, offset);
        Value in = arith::AndIOp::create(
            b, l, atOrAbove(b, l, lo.valid, lo.addr, from), hi.valid);
        Value byteAddr = arith::AddIOp::create(
            b, l, ptr,
            arith::MulIOp::create(b, l, lo.addr, constIndex(b, l, eltBytes)));
        Value aligned =
            cmp(b, l, arith::CmpIPredicate::eq,
                arith::RemUIOp::create(b, l, byteAddr,
                                       constIndex(b, l, run * eltBytes)),
                constIndex(b, l, 0));
        auto ifOp =
            scf::IfOp::create(b, l, arith::AndIOp::create(b, l, in, aligned),
                              /*withElseRegion=*/true);
        OpBuilder then = ifOp.getThenBodyBuilder();
        SmallVector<Value> elements;
        for (int s = first; s < first + run; ++s)
          elements.push_back(toElement(then, l, slot(then, tile, s), destElt));
        vector::StoreOp::create(
            then, l,
            vector::FromElementsOp::create(
                then, l, VectorType::get({run}, destElt), elements),
            dest, ValueRange{lo.addr}, /*nontemporal=*/false,
            llvm::MaybeAlign(run * eltBytes));
        OpBuilder other = ifOp.getElseBodyBuilder();
        for (int s = first; s < first + run; ++s) {
          SlotAddress a = address(other, s, offset);
          maskedStore(other, l, atOrAbove(other, l, a.valid, a.addr, from),
                      slot(other, tile, s), dest, a.addr);
        }
      }
    };
    scf::IfOp::create(
        rewriter, loc, whole,
        [&](OpBuilder &b, Location l) {
          bool hinted =
              canHint(op.getCache(), width * getElementBytes(destElt));
          SmallVector<Value> vectors;
          for (auto &tile : tiles)
            for (ArrayRef<int> group : groups) {
              SmallVector<Value> elements;
              for (int s : group)
                elements.push_back(
                    toElement(b, l, slot(b, tile.first, s), destElt));
              vectors.push_back(vector::FromElementsOp::create(
                  b, l, VectorType::get({width}, destElt), elements));
            }
          std::optional<SmallVector<int64_t>> offsets =
              hinted ? groupOffsets(groups, TileLayout::Rows, order, stride)
                     : std::nullopt;
          if (offsets) {
            SmallVector<int64_t> all;
            for (auto &tile : tiles)
              for (int64_t g : *offsets)
                all.push_back(tile.second + g);
            hintedStores(b, l, op.getCache(), vectors, dest,
                         address(b, groups.front().front(), 0).addr, all);
            scf::YieldOp::create(b, l);
            return;
          }
          for (auto [t, tile] : llvm::enumerate(tiles))
            for (auto [g, group] : llvm::enumerate(groups)) {
              Value vec = vectors[t * groups.size() + g];
              Value addr = address(b, group.front(), tile.second).addr;
              if (hinted)
                hintedStores(b, l, op.getCache(), vec, dest, addr, {0});
              else
                vector::StoreOp::create(
                    b, l, vec, dest, ValueRange{addr},
                    /*nontemporal=*/false,
                    llvm::MaybeAlign(width * destElt.getIntOrFloatBitWidth() /
                                     8));
            }
          scf::YieldOp::create(b, l);
        },
        [&](OpBuilder &b, Location l) {
          for (auto &tile : tiles) {
            if (order == ElementOrder::Lanes) {
              lanesPartialStore(b, l, tile.first, tile.second);
              continue;
            }
            for (int s = 0; s < kSlots; ++s) {
              SlotAddress a = address(b, s, tile.second);
              maskedStore(b, l, atOrAbove(b, l, a.valid, a.addr, from),
                          slot(b, tile.first, s), dest, a.addr);
            }
          }
          scf::YieldOp::create(b, l);
        });
    for (Operation *store : moved)
      rewriter.eraseOp(store);
    rewriter.eraseOp(op);
    return success();
  }

private:
  const TileRuns *runs;
};

struct LowerStoreRow : OpConversionPattern<StoreRowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StoreRowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t row = op.getRow();
    LanePosition lane = getLanePosition(rewriter, loc);
    Value holdsRow = cmp(rewriter, loc, arith::CmpIPredicate::eq, lane.g,
                         constIndex(rewriter, loc, row % 8));
    int64_t step = op.getStep();
    for (int s = 0; s < kSlots; ++s) {
      if (((s >> 1) & 1) != row / 8)
        continue;
      // Column c goes to base + c / step when step divides it.
      Value col = lane.col(rewriter, loc, s);
      Value first = holdsRow;
      if (step > 1) {
        first = arith::AndIOp::create(
            rewriter, loc, holdsRow,
            cmp(rewriter, loc, arith::CmpIPredicate::eq,
                arith::RemUIOp::create(rewriter, loc, col,
                                       constIndex(rewriter, loc, step)),
                constIndex(rewriter, loc, 0)));
        col = arith::DivUIOp::create(rewriter, loc, col,
                                     constIndex(rewriter, loc, step));
      }
      Value addr = arith::AddIOp::create(rewriter, loc, adaptor.getBase(), col);
      Value valid =
          arith::AndIOp::create(rewriter, loc, first,
                                cmp(rewriter, loc, arith::CmpIPredicate::slt,
                                    addr, adaptor.getLimit()));
      Value x = vector::ExtractOp::create(rewriter, loc, adaptor.getTile(),
                                          ArrayRef<int64_t>{s});
      maskedStore(rewriter, loc, valid, x, adaptor.getDest(), addr,
                  op.getAccumulate());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// tcu.gather: each slot's element loaded on its own (a tile's elements
/// share few distinct addresses).
struct LowerGather : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    using P = arith::CmpIPredicate;
    Value zero = constIndex(rewriter, loc, 0);
    Type elt = cast<MemRefType>(op.getSource().getType()).getElementType();
    SmallVector<Type> types(kSlots, elt);
    // One branch (an empty buffer reads nothing), the loads inside it
    // unconditional at an index clamped to 0 and zeroed where outside: the
    // equal offsets of a lane's elements then load once.
    auto ifOp =
        scf::IfOp::create(rewriter, loc, types,
                          cmp(rewriter, loc, P::sgt, adaptor.getLimit(), zero),
                          /*withElseRegion=*/true);
    OpBuilder t = ifOp.getThenBodyBuilder();
    Value none = arith::ConstantOp::create(t, loc, t.getZeroAttr(elt));
    SmallVector<Value> slots;
    for (int64_t s = 0; s < kSlots; ++s) {
      Value offset = vector::ExtractOp::create(t, loc, adaptor.getIndices(),
                                               ArrayRef<int64_t>{s});
      Value addr = arith::AddIOp::create(
          t, loc, adaptor.getBase(),
          arith::IndexCastOp::create(t, loc, t.getIndexType(), offset));
      Value valid =
          arith::AndIOp::create(t, loc, cmp(t, loc, P::sge, addr, zero),
                                cmp(t, loc, P::slt, addr, adaptor.getLimit()));
      Value v = memref::LoadOp::create(
          t, loc, adaptor.getSource(),
          ValueRange{arith::SelectOp::create(t, loc, valid, addr, zero)});
      slots.push_back(arith::SelectOp::create(t, loc, valid, v, none));
    }
    scf::YieldOp::create(t, loc, slots);
    OpBuilder e = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(
        e, loc,
        SmallVector<Value>(
            kSlots, arith::ConstantOp::create(e, loc, e.getZeroAttr(elt))));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
        op, getTypeConverter()->convertType(op.getType()), ifOp.getResults());
    return success();
  }
};

} // namespace

void gpu_lowering::populateTileAccessPatterns(const TypeConverter &types,
                                              RewritePatternSet &patterns,
                                              const TileRuns *runs) {
  patterns.add<LowerLoadTile, LowerStoreTile>(types, patterns.getContext(),
                                              runs);
  patterns.add<LowerStoreRow, LowerGather>(types, patterns.getContext());
}
