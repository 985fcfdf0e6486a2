//===- OffsetsOps.cpp - the offsets ops on the CPU ------------------------===//
//
// tcu.offset_heads and tcu.store_segment_ends as scalar loops over the
// offsets, in order: the reference semantics the GPU's warp-wide versions
// (TCUMMAToGPU/OffsetsOps.cpp) match.
//
//===----------------------------------------------------------------------===//

#include "Products.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tcu;

namespace {

constexpr int64_t T = kTileSize;
using P = arith::CmpIPredicate;

struct Scalars {
  OpBuilder &b;
  Location loc;
  /// tcu.offset_heads' `mirror %n`: offsets read as n - off[K - i].
  Value mirror = nullptr;
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value cmp(P p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value pick(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// off[i] as an index (i32 and i64 offsets are signed).
  Value offset(Value offsets, Value i) {
    if (mirror) {
      Value last = sub(memref::DimOp::create(b, loc, offsets, 0), idx(1));
      i = sub(last, i);
    }
    Value raw = memref::LoadOp::create(b, loc, offsets, ValueRange{i});
    Value v = arith::IndexCastOp::create(b, loc, b.getIndexType(), raw);
    return mirror ? sub(mirror, v) : v;
  }
  /// i < hi && off[i + shift] < bound, reading nothing when i >= hi.
  Value below(Value offsets, Value i, Value hi, int64_t shift, Value bound) {
    auto ifOp = scf::IfOp::create(
        b, loc, cmp(P::slt, i, hi),
        [&](OpBuilder &ib, Location l) {
          Scalars s{ib, l, mirror};
          Value o = s.offset(offsets, s.add(i, s.idx(shift)));
          scf::YieldOp::create(ib, l, s.cmp(P::slt, o, bound));
        },
        [&](OpBuilder &ib, Location l) {
          scf::YieldOp::create(
              ib, l,
              Value(arith::ConstantOp::create(ib, l, ib.getBoolAttr(false))));
        });
    return ifOp.getResult(0);
  }
};

/// The loop of tcu.offset_heads: s from lo while off[s] < base + 256 (and
/// s < hi), each offset inside the tile setting its row's bit (a row's
/// head count grows only where the bit was clear).
struct LowerOffsetHeads : OpRewritePattern<OffsetHeadsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(OffsetHeadsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value mirror = op.getMirror();
    Scalars s{rewriter, loc, mirror};
    auto rowVec = VectorType::get({T}, rewriter.getI32Type());
    Value zeros = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(rowVec, rewriter.getI32IntegerAttr(0)));
    Value base = op.getBase(), hi = op.getHi(), off = op.getOffsets();
    Value tileEnd = s.add(base, s.idx(T * T));
    Type index = rewriter.getIndexType();
    auto loop = scf::WhileOp::create(
        rewriter, loc, TypeRange{index, rowVec, rowVec},
        ValueRange{op.getLo(), zeros, zeros},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Scalars t{b, l, mirror};
          scf::ConditionOp::create(b, l, t.below(off, args[0], hi, 0, tileEnd),
                                   args);
        },
        [&](OpBuilder &b, Location l, ValueRange args) {
          Scalars t{b, l, mirror};
          Value p = t.sub(t.offset(off, args[0]), base);
          Value inside = t.cmp(P::sge, p, t.idx(0));
          // (p < 256: the loop's condition.)
          Value q = t.pick(inside, p, t.idx(0));
          Value row = arith::DivUIOp::create(b, l, q, t.idx(T));
          Value bit = arith::ShLIOp::create(
              b, l, arith::ConstantIntOp::create(b, l, b.getI32Type(), 1),
              arith::IndexCastOp::create(
                  b, l, b.getI32Type(),
                  arith::RemUIOp::create(b, l, q, t.idx(T))));
          Value mask = vector::ExtractOp::create(b, l, args[1], row);
          Value count = vector::ExtractOp::create(b, l, args[2], row);
          Value fresh =
              t.cmp(P::eq, arith::AndIOp::create(b, l, mask, bit),
                    arith::ConstantIntOp::create(b, l, b.getI32Type(), 0));
          Value set = arith::AndIOp::create(b, l, inside, fresh);
          Value newMask =
              t.pick(set, arith::OrIOp::create(b, l, mask, bit), mask);
          Value newCount =
              t.pick(set,
                     arith::AddIOp::create(
                         b, l, count,
                         arith::ConstantIntOp::create(b, l, b.getI32Type(), 1)),
                     count);
          Value masks = vector::InsertOp::create(b, l, newMask, args[1], row);
          Value counts = vector::InsertOp::create(b, l, newCount, args[2], row);
          scf::YieldOp::create(
              b, l, ValueRange{t.add(args[0], t.idx(1)), masks, counts});
        });
    // Element (r, c) = mask of row r: the rows broadcast, transposed.
    auto tileType = VectorType::get({T, T}, rewriter.getI32Type());
    Value byColumn =
        vector::BroadcastOp::create(rewriter, loc, tileType, loop.getResult(1));
    Value rows = vector::TransposeOp::create(rewriter, loc, byColumn,
                                             ArrayRef<int64_t>{1, 0});
    Value most = vector::ReductionOp::create(
        rewriter, loc, vector::CombiningKind::MAXSI, loop.getResult(2));
    rewriter.replaceOp(
        op, {rows, loop.getResult(0),
             arith::IndexCastOp::create(rewriter, loc, index, most)});
    return success();
  }
};

/// `v` (f32 or i32) as the element type `to` (the same, or a float type
/// f32 narrows to, rounding to nearest even).
Value convertScalar(OpBuilder &b, Location loc, Value v, Type to) {
  if (v.getType() == to)
    return v;
  return arith::TruncFOp::create(b, loc, to, v);
}

/// The loop of tcu.store_segment_ends: s from lo while off[s + 1] < end
/// (and s < hi), each segment's value read from the tile where its last
/// element lies in it, 0 otherwise.
struct LowerStoreSegmentEnds : OpRewritePattern<StoreSegmentEndsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreSegmentEndsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = op.getBase(), hi = op.getHi(), end = op.getEnd();
    Value off = op.getOffsets(), tile = op.getTile(), dest = op.getDest();
    Type destElt = cast<MemRefType>(dest.getType()).getElementType();
    bool quads = op.getOrder() == ElementOrder::Quads;
    // The tile in memory, once: an element at a runtime row and column
    // (vector.extract with both dynamic has no LLVM form). On the heap: an
    // alloca in the walk's loop would grow the stack every tile.
    auto tileType = cast<VectorType>(tile.getType());
    Value spill = memref::AllocOp::create(
        rewriter, loc, MemRefType::get({T, T}, tileType.getElementType()));
    Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    for (int64_t i = 0; i < T; ++i)
      vector::StoreOp::create(
          rewriter, loc, vector::ExtractOp::create(rewriter, loc, tile, i),
          spill,
          ValueRange{arith::ConstantIndexOp::create(rewriter, loc, i), c0});
    auto loop = scf::WhileOp::create(
        rewriter, loc, TypeRange{rewriter.getIndexType()},
        ValueRange{op.getLo()},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Scalars t{b, l};
          scf::ConditionOp::create(b, l, t.below(off, args[0], hi, 1, end),
                                   args);
        },
        [&](OpBuilder &b, Location l, ValueRange args) {
          Scalars t{b, l};
          Value seg = args[0];
          Value first = t.offset(off, seg);
          Value e = t.offset(off, t.add(seg, t.idx(1)));
          Value q = t.sub(t.sub(e, t.idx(1)), base);
          Value inTile = arith::AndIOp::create(
              b, l, t.cmp(P::slt, first, e),
              arith::AndIOp::create(b, l, t.cmp(P::sge, q, t.idx(0)),
                                    t.cmp(P::slt, q, t.idx(T * T))));
          Value at = t.pick(inTile, q, t.idx(0));
          Value row = arith::DivUIOp::create(b, l, at, t.idx(T));
          Value pos = arith::RemUIOp::create(b, l, at, t.idx(T));
          Value col = pos;
          if (quads) {
            // quadsColumn: 2 (p / 4) + p mod 2 + 8 ((p mod 4) / 2).
            Value p4 = arith::DivUIOp::create(b, l, pos, t.idx(4));
            Value m4 = arith::RemUIOp::create(b, l, pos, t.idx(4));
            col = t.add(t.add(arith::MulIOp::create(b, l, p4, t.idx(2)),
                              arith::RemUIOp::create(b, l, pos, t.idx(2))),
                        arith::MulIOp::create(
                            b, l, arith::DivUIOp::create(b, l, m4, t.idx(2)),
                            t.idx(8)));
          }
          Value v = memref::LoadOp::create(b, l, spill, ValueRange{row, col});
          Value zero =
              arith::ConstantOp::create(b, l, b.getZeroAttr(v.getType()));
          v = t.pick(inTile, v, zero);
          memref::StoreOp::create(b, l, convertScalar(b, l, v, destElt), dest,
                                  ValueRange{seg});
          scf::YieldOp::create(b, l, ValueRange{t.add(seg, t.idx(1))});
        });
    memref::DeallocOp::create(rewriter, loc, spill);
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

} // namespace

void mlir::tcu::loops::populateOffsetsPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerOffsetHeads, LowerStoreSegmentEnds>(patterns.getContext());
}
