//===- OffsetsOps.cpp - the offsets ops on the GPU ------------------------===//
//
// tcu.offset_heads and tcu.store_segment_ends: the warp's lanes take 32
// offsets (segments) at a time, and a ballot finds where the run stops (the
// first offset past the tile), so the warp reads only the offsets the tile
// needs, coalesced. Head bits meet in every lane through redux.sync.or;
// a segment's value comes from the lane that holds its last element
// (shuffles). The loop semantics are the CPU's (TCUMMAToLoops/OffsetsOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "LaneFragments.h"
#include "WarpBuilder.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

namespace {

constexpr int64_t T = kTileSize;
using P = arith::CmpIPredicate;

/// The scalar steps both ops take in each round of 32.
struct Round {
  OpBuilder &b;
  Location loc;
  WarpBuilder h{b, loc};

  Value index(Value i32) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), i32);
  }
  Value laneIndex() { return index(h.lane()); }
  Value pick(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// off[i] as an index; with `mirror` (tcu.offset_heads' `mirror %n`)
  /// the mirrored view's, n - off[K - i].
  Value offset(Value offsets, Value i, Value mirror = nullptr) {
    if (mirror)
      i = arith::SubIOp::create(
          b, loc,
          arith::SubIOp::create(
              b, loc, memref::DimOp::create(b, loc, offsets, 0), h.index(1)),
          i);
    Value raw = memref::LoadOp::create(b, loc, offsets, ValueRange{i});
    Value v = arith::IndexCastOp::create(b, loc, b.getIndexType(), raw);
    return mirror ? arith::SubIOp::create(b, loc, mirror, v).getResult() : v;
  }
  /// The lanes before the first that stops (32 if none): the ballot's
  /// trailing zeros, popc((x & -x) - 1).
  Value lanesBeforeStop(Value stops) {
    Value ballot = NVVM::VoteSyncOp::create(b, loc, b.getI32Type(), h.i32(-1),
                                            stops, NVVM::VoteSyncKind::ballot);
    Value lowest = arith::AndIOp::create(
        b, loc, ballot, arith::SubIOp::create(b, loc, h.i32(0), ballot));
    return popc(arith::SubIOp::create(b, loc, lowest, h.i32(1)));
  }
  Value popc(Value x) { return h.ptx(b.getI32Type(), {x}, "popc.b32 $0, $1;"); }
  Value redux(Value x, NVVM::ReduxKind kind) {
    return NVVM::ReduxOp::create(b, loc, b.getI32Type(), x, kind, h.i32(-1));
  }
};

/// A while loop over rounds of 32 from `lo` until a round stops early or
/// reaches `hi`: `body` gets the round's first index and its values, and
/// returns the lanes before the stop (32: go on) and the next values.
/// Returns the first index not taken, then the values.
SmallVector<Value> roundsFrom(OpBuilder &b, Location loc, Value lo, Value hi,
                              ValueRange init,
                              function_ref<std::pair<Value, SmallVector<Value>>(
                                  OpBuilder &, Location, Value, ValueRange)>
                                  body) {
  SmallVector<Type> types{b.getIndexType(), b.getI1Type()};
  for (Value v : init)
    types.push_back(v.getType());
  SmallVector<Value> args{
      lo, arith::ConstantOp::create(b, loc, b.getBoolAttr(false))};
  llvm::append_range(args, init);
  auto loop = scf::WhileOp::create(
      b, loc, types, args,
      [&](OpBuilder &ob, Location l, ValueRange a) {
        Value more = arith::AndIOp::create(
            ob, l,
            arith::XOrIOp::create(
                ob, l, a[1],
                arith::ConstantOp::create(ob, l, ob.getBoolAttr(true))),
            arith::CmpIOp::create(ob, l, P::slt, a[0], hi));
        scf::ConditionOp::create(ob, l, more, a);
      },
      [&](OpBuilder &ob, Location l, ValueRange a) {
        auto [taken, next] = body(ob, l, a[0], a.drop_front(2));
        Round r{ob, l};
        SmallVector<Value> yields{
            arith::AddIOp::create(ob, l, a[0], r.index(taken)),
            r.h.cmp(P::ne, taken, r.h.i32(32))};
        llvm::append_range(yields, next);
        scf::YieldOp::create(ob, l, yields);
      });
  SmallVector<Value> results{loop.getResult(0)};
  llvm::append_range(results, loop.getResults().drop_front(2));
  return results;
}

/// tcu.offset_heads: the tile's 256 head bits as 8 words, every lane's
/// bits ORed into all lanes; lane 4g + t then keeps rows g and g + 8.
struct LowerOffsetHeads : OpConversionPattern<OffsetHeadsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OffsetHeadsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Round r{rewriter, loc};
    Value off = adaptor.getOffsets(), hi = adaptor.getHi(),
          base = adaptor.getBase();
    SmallVector<Value> zeros(8, r.h.i32(0));
    SmallVector<Value> out = roundsFrom(
        rewriter, loc, adaptor.getLo(), hi, zeros,
        [&](OpBuilder &b, Location l, Value s0, ValueRange words) {
          Round w{b, l};
          Value i = arith::AddIOp::create(b, l, s0, w.laneIndex());
          Value valid = w.h.cmp(P::slt, i, hi);
          Value p = arith::SubIOp::create(
              b, l, w.offset(off, w.pick(valid, i, s0), adaptor.getMirror()),
              base);
          Value past = w.h.cmp(P::sge, p, w.h.index(T * T));
          Value stops = arith::OrIOp::create(
              b, l, past,
              arith::XOrIOp::create(
                  b, l, valid,
                  arith::ConstantOp::create(b, l, b.getBoolAttr(true))));
          Value taken = w.lanesBeforeStop(stops);
          Value take =
              arith::AndIOp::create(b, l, w.h.cmp(P::slt, w.h.lane(), taken),
                                    w.h.cmp(P::sge, p, w.h.index(0)));
          Value q = arith::IndexCastOp::create(b, l, b.getI32Type(),
                                               w.pick(take, p, w.h.index(0)));
          Value word = arith::ShRUIOp::create(b, l, q, w.h.i32(5));
          Value bit = w.pick(take,
                             arith::ShLIOp::create(
                                 b, l, w.h.i32(1),
                                 arith::AndIOp::create(b, l, q, w.h.i32(31))),
                             w.h.i32(0));
          SmallVector<Value> next;
          for (auto [k, old] : llvm::enumerate(words)) {
            Value mine =
                w.pick(w.h.cmp(P::eq, word, w.h.i32(k)), bit, w.h.i32(0));
            next.push_back(arith::OrIOp::create(
                b, l, old, w.redux(mine, NVVM::ReduxKind::OR)));
          }
          return std::make_pair(taken, next);
        });
    // Row r's 16 bits are bits 16 (r mod 2) .. of word r / 2.
    Value g = arith::DivUIOp::create(rewriter, loc, r.h.lane(), r.h.i32(4));
    auto rowMask = [&](int64_t firstWord) {
      Value pair = arith::DivUIOp::create(rewriter, loc, g, r.h.i32(2));
      Value word = out[1 + firstWord];
      for (int64_t k = 1; k < 4; ++k)
        word = r.pick(r.h.cmp(P::eq, pair, r.h.i32(k)), out[1 + firstWord + k],
                      word);
      Value shift = arith::MulIOp::create(
          rewriter, loc, arith::AndIOp::create(rewriter, loc, g, r.h.i32(1)),
          r.h.i32(16));
      return arith::AndIOp::create(
          rewriter, loc, arith::ShRUIOp::create(rewriter, loc, word, shift),
          r.h.i32(0xffff));
    };
    Value low = rowMask(0), high = rowMask(4);
    Value rows = vector::FromElementsOp::create(
        rewriter, loc, fragmentType(rewriter.getI32Type()),
        ValueRange{low, low, high, high, low, low, high, high});
    Value most = r.redux(
        arith::MaxUIOp::create(rewriter, loc, r.popc(low), r.popc(high)),
        NVVM::ReduxKind::UMAX);
    rewriter.replaceOp(op, {rows, out[0], r.index(most)});
    return success();
  }
};

/// `v` (f32 or i32) as `to` (the same, or a float type f32 narrows to).
Value convertScalar(OpBuilder &b, Location loc, Value v, Type to) {
  if (v.getType() == to)
    return v;
  return arith::TruncFOp::create(b, loc, to, v);
}

/// tcu.store_segment_ends: lane l takes segment s0 + l; its value is
/// element off[s + 1] - 1 - base of the tile, fetched from the lane and
/// slot that hold it (LaneFragments.h) with one shuffle per slot.
struct LowerStoreSegmentEnds : OpConversionPattern<StoreSegmentEndsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StoreSegmentEndsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value off = adaptor.getOffsets(), hi = adaptor.getHi(),
          base = adaptor.getBase(), end = adaptor.getEnd(),
          tile = adaptor.getTile(), dest = adaptor.getDest();
    Type destElt = cast<MemRefType>(dest.getType()).getElementType();
    bool quads = op.getOrder() == ElementOrder::Quads;
    SmallVector<Value> out = roundsFrom(
        rewriter, loc, adaptor.getLo(), hi, {},
        [&](OpBuilder &b, Location l, Value s0, ValueRange) {
          Round w{b, l};
          WarpBuilder &h = w.h;
          Value seg = arith::AddIOp::create(b, l, s0, w.laneIndex());
          Value valid = h.cmp(P::slt, seg, hi);
          Value safe = w.pick(valid, seg, s0);
          Value first = w.offset(off, safe);
          Value e =
              w.offset(off, arith::AddIOp::create(b, l, safe, h.index(1)));
          Value stops = arith::OrIOp::create(
              b, l, h.cmp(P::sge, e, end),
              arith::XOrIOp::create(
                  b, l, valid,
                  arith::ConstantOp::create(b, l, b.getBoolAttr(true))));
          Value taken = w.lanesBeforeStop(stops);
          Value q = arith::SubIOp::create(
              b, l, arith::SubIOp::create(b, l, e, h.index(1)), base);
          Value inTile = arith::AndIOp::create(
              b, l, h.cmp(P::slt, first, e),
              arith::AndIOp::create(b, l, h.cmp(P::sge, q, h.index(0)),
                                    h.cmp(P::slt, q, h.index(T * T))));
          Value at = arith::IndexCastOp::create(b, l, b.getI32Type(),
                                                w.pick(inTile, q, h.index(0)));
          auto andI = [&](Value x, int32_t m) {
            return arith::AndIOp::create(b, l, x, h.i32(m)).getResult();
          };
          auto shr = [&](Value x, int32_t s) {
            return arith::ShRUIOp::create(b, l, x, h.i32(s)).getResult();
          };
          auto shl = [&](Value x, int32_t s) {
            return arith::ShLIOp::create(b, l, x, h.i32(s)).getResult();
          };
          auto add = [&](Value x, Value y) {
            return arith::AddIOp::create(b, l, x, y).getResult();
          };
          Value row = shr(at, 4), pos = andI(at, 15);
          // quadsColumn: 2 (p / 4) + p mod 2 + 8 ((p mod 4) / 2).
          Value col = quads ? add(add(shl(shr(pos, 2), 1), andI(pos, 1)),
                                  shl(shr(andI(pos, 3), 1), 3))
                            : pos;
          Value lane = add(shl(andI(row, 7), 2), shr(andI(col, 7), 1));
          Value slot =
              add(add(andI(col, 1), shl(shr(row, 3), 1)), shl(shr(col, 3), 2));
          Value v;
          for (int64_t k = 0; k < kSlots; ++k) {
            Value mine =
                vector::ExtractOp::create(b, l, tile, ArrayRef<int64_t>{k});
            Value got = gpu::ShuffleOp::create(b, l, mine, lane, h.i32(32),
                                               gpu::ShuffleMode::IDX)
                            .getShuffleResult();
            v = k == 0 ? got : w.pick(h.cmp(P::eq, slot, h.i32(k)), got, v);
          }
          v = w.pick(inTile, v, h.zero(v.getType()));
          auto ifOp = scf::IfOp::create(b, l, h.cmp(P::slt, h.lane(), taken));
          {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(ifOp.thenBlock());
            memref::StoreOp::create(b, l, convertScalar(b, l, v, destElt), dest,
                                    ValueRange{seg});
          }
          return std::make_pair(taken, SmallVector<Value>());
        });
    rewriter.replaceOp(op, out[0]);
    return success();
  }
};

} // namespace

void gpu_lowering::populateOffsetsPatterns(const TypeConverter &types,
                                           RewritePatternSet &patterns) {
  patterns.add<LowerOffsetHeads, LowerStoreSegmentEnds>(types,
                                                        patterns.getContext());
}
