//===- LookbackOps.cpp - single-pass look-back on the GPU -----------------===//
//
// tcu.ticket and tcu.lookback for one warp (all 32 lanes run the code; the
// values are the same in every lane). The state words are read and written
// with relaxed 64-bit accesses at GPU scope: a word carries its flag and its
// value together, and nothing else is communicated between warps, so no
// fence is needed. Relaxed loads are not served from a stale L1 line.
//
//===----------------------------------------------------------------------===//

#include "GPUPatterns.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

namespace {

/// Flags of a look-back word (the high 32 bits; the low 32 are the value).
constexpr int64_t kAggregate = 1, kInclusive = 2;

struct Builder {
  OpBuilder &b;
  Location loc;

  Value i32(int32_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  }
  Value i64(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value lane() {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                      gpu::LaneIdOp::create(b, loc, nullptr));
  }
  /// The generic address of element `i` of an i64 buffer.
  Value address(Value buffer, Value i) {
    Value base = arith::IndexCastOp::create(
        b, loc, b.getI64Type(),
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer));
    Value offset =
        arith::IndexCastOp::create(b, loc, b.getI64Type(), i).getResult();
    offset = arith::MulIOp::create(b, loc, offset, i64(8));
    return arith::AddIOp::create(b, loc, base, offset);
  }
  Value ptx(Type result, ValueRange args, StringRef code) {
    auto op = NVVM::InlinePtxOp::create(
        b, loc, result ? TypeRange{result} : TypeRange{}, args, ValueRange{},
        code, Value());
    return result ? op.getResult(0) : Value();
  }
  Value loadWord(Value addr) {
    return ptx(b.getI64Type(), {addr}, "ld.relaxed.gpu.b64 $0, [$1];");
  }
  void storeWord(Value addr, Value word) {
    ptx(Type(), {addr, word}, "st.relaxed.gpu.b64 [$0], $1;");
  }
  /// Runs `body` in lane 0 only.
  void inLeader(function_ref<void()> body) {
    auto ifOp = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, lane(), i32(0)));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    body();
  }
  /// `x` of lane `from`, in every lane (32-bit values).
  Value fromLane(Value x, int32_t from) {
    return gpu::ShuffleOp::create(b, loc, x, from, 32, gpu::ShuffleMode::IDX)
        .getShuffleResult();
  }
  /// flag << 32 | the 32 bits of `v` (f32 or i32).
  Value pack(int64_t flag, Value v) {
    if (isa<FloatType>(v.getType()))
      v = arith::BitcastOp::create(b, loc, b.getI32Type(), v);
    Value low = arith::ExtUIOp::create(b, loc, b.getI64Type(), v);
    return arith::OrIOp::create(b, loc, low, i64(flag << 32));
  }
  Value flagOf(Value word) {
    return arith::ShRUIOp::create(b, loc, word, i64(32));
  }
  Value valueOf(Value word, Type t) {
    Value low = arith::TruncIOp::create(b, loc, b.getI32Type(), word);
    return t.isInteger(32)
               ? low
               : arith::BitcastOp::create(b, loc, t, low).getResult();
  }
  Value add(Value x, Value y) {
    if (isa<FloatType>(x.getType()))
      return arith::AddFOp::create(b, loc, x, y);
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value zero(Type t) {
    return arith::ConstantOp::create(b, loc, b.getZeroAttr(t));
  }
};

/// tcu.ticket: lane 0 adds 1 to the counter; every lane gets the old value.
struct LowerTicket : OpConversionPattern<TicketOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TicketOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Builder h{rewriter, op.getLoc()};
    Location loc = op.getLoc();
    Value addr = h.address(adaptor.getCounter(), adaptor.getIndex());
    auto ifOp = scf::IfOp::create(
        rewriter, loc, h.cmp(arith::CmpIPredicate::eq, h.lane(), h.i32(0)),
        [&](OpBuilder &b, Location l) {
          Builder t{b, l};
          scf::YieldOp::create(b, l,
                               t.ptx(b.getI64Type(), {addr, t.i64(1)},
                                     "atom.relaxed.gpu.add.u64 $0, [$1], $2;"));
        },
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, Builder{b, l}.i64(0));
        });
    Value ticket = ifOp.getResult(0);
    // Shuffles move 32 bits: the two halves, from lane 0.
    Value low = h.fromLane(
        arith::TruncIOp::create(rewriter, loc, rewriter.getI32Type(), ticket),
        0);
    Value high = h.fromLane(
        arith::TruncIOp::create(
            rewriter, loc, rewriter.getI32Type(),
            arith::ShRUIOp::create(rewriter, loc, ticket, h.i64(32))),
        0);
    Value word = arith::OrIOp::create(
        rewriter, loc,
        arith::ExtUIOp::create(rewriter, loc, rewriter.getI64Type(), low),
        arith::ShLIOp::create(
            rewriter, loc,
            arith::ExtUIOp::create(rewriter, loc, rewriter.getI64Type(), high),
            h.i64(32)));
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getIndexType(),
                                                    word);
    return success();
  }
};

/// tcu.lookback. Lane 0 publishes the aggregate. Then the warp walks back
/// in windows of 32 predecessors, lane l reading item cur - l (items before
/// `first` read as an inclusive 0), spinning until no lane's word is 0,
/// until a window holds an inclusive prefix; its lowest such lane s is the
/// nearest, item j = cur - s. The fold then goes forward, window by window
/// (the found one from lane s down to lane 0, then the later ones, all 32
/// lanes, read again), one lane at a time through shuffles: an aggregate is
/// added, an inclusive prefix (a word upgraded since it was read) replaces
/// the sum. This is the left fold P_j + A_{j+1} + ... + A_{item-1} in item
/// order, so the result does not depend on timing (see the op). Lane 0
/// finally publishes the inclusive prefix.
struct LowerLookback : OpConversionPattern<LookbackOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LookbackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Builder h{rewriter, loc};
    using P = arith::CmpIPredicate;
    Value state = adaptor.getState(), item = adaptor.getItem(),
          first = adaptor.getFirst(), aggregate = adaptor.getAggregate();
    Type t = aggregate.getType();
    Type i1 = rewriter.getI1Type(), i32 = rewriter.getI32Type(),
         i64 = rewriter.getI64Type(), idx = rewriter.getIndexType();
    Value isFirst = h.cmp(P::eq, item, first);
    Value lane = h.lane();
    Value laneIndex = arith::IndexCastOp::create(rewriter, loc, idx, lane);

    h.inLeader([&] {
      Value word = arith::SelectOp::create(rewriter, loc, isFirst,
                                           h.pack(kInclusive, aggregate),
                                           h.pack(kAggregate, aggregate));
      h.storeWord(h.address(state, item), word);
    });

    // Step 1: the window (its lane-0 item `cur`) and lane `s` of the
    // nearest inclusive prefix, and that window's words.
    Value start = arith::SubIOp::create(rewriter, loc, item, h.index(1));
    Value notFound = arith::XOrIOp::create(
        rewriter, loc, isFirst,
        arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true)));
    auto find = scf::WhileOp::create(
        rewriter, loc, TypeRange{idx, i32, i64, i1},
        ValueRange{start, h.i32(0), h.i64(0), notFound},
        [&](OpBuilder &b, Location l, ValueRange args) {
          scf::ConditionOp::create(b, l, args[3], args);
        },
        [&](OpBuilder &b, Location l, ValueRange args) {
          Builder w{b, l};
          Value cur = args[0];
          Value mine = arith::SubIOp::create(b, l, cur, laneIndex);
          Value inRange = w.cmp(P::sge, mine, first);
          // Spin until every lane's predecessor has published.
          auto spin = scf::WhileOp::create(
              b, l, TypeRange{i64}, ValueRange{w.i64(0)},
              [&](OpBuilder &sb, Location sl, ValueRange) {
                Builder sbh{sb, sl};
                auto read = scf::IfOp::create(
                    sb, sl, inRange,
                    [&](OpBuilder &rb, Location rl) {
                      Builder r{rb, rl};
                      scf::YieldOp::create(rb, rl,
                                           r.loadWord(r.address(state, mine)));
                    },
                    [&](OpBuilder &rb, Location rl) {
                      scf::YieldOp::create(
                          rb, rl, Builder{rb, rl}.i64(kInclusive << 32));
                    });
                Value word = read.getResult(0);
                Value pending = sbh.cmp(P::eq, sbh.flagOf(word), sbh.i64(0));
                Value any = NVVM::VoteSyncOp::create(
                                sb, sl, sb.getI1Type(), sbh.i32(-1), pending,
                                NVVM::VoteSyncKindAttr::get(
                                    sb.getContext(), NVVM::VoteSyncKind::any))
                                .getResult();
                scf::ConditionOp::create(sb, sl, any, ValueRange{word});
              },
              [&](OpBuilder &sb, Location sl, ValueRange args) {
                scf::YieldOp::create(sb, sl, args);
              });
          Value word = spin.getResult(0);
          Value inclusive = w.cmp(P::eq, w.flagOf(word), w.i64(kInclusive));
          Value mask = NVVM::VoteSyncOp::create(
                           b, l, i32, w.i32(-1), inclusive,
                           NVVM::VoteSyncKindAttr::get(
                               b.getContext(), NVVM::VoteSyncKind::ballot))
                           .getResult();
          Value found = w.cmp(P::ne, mask, w.i32(0));
          Value lowest = LLVM::CountTrailingZerosOp::create(
              b, l, i32, mask, b.getBoolAttr(false));
          Value next = arith::SelectOp::create(
              b, l, found, cur, arith::SubIOp::create(b, l, cur, w.index(32)));
          Value more = arith::XOrIOp::create(
              b, l, found,
              arith::ConstantOp::create(b, l, b.getBoolAttr(true)));
          scf::YieldOp::create(b, l, ValueRange{next, lowest, word, more});
        });

    // Step 2: the forward fold, window by window up to item - 1.
    Value last = start;
    auto fold = scf::WhileOp::create(
        rewriter, loc, TypeRange{idx, i32, i64, t},
        ValueRange{find.getResult(0), find.getResult(1), find.getResult(2),
                   h.zero(t)},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Builder w{b, l};
          Value more = arith::AndIOp::create(b, l, notFound,
                                             w.cmp(P::sle, args[0], last));
          scf::ConditionOp::create(b, l, more, args);
        },
        [&](OpBuilder &b, Location l, ValueRange args) {
          Builder w{b, l};
          Value cur = args[0], top = args[1], word = args[2];
          Value v = w.valueOf(word, t);
          Value bits = isa<FloatType>(t)
                           ? arith::BitcastOp::create(b, l, i32, v).getResult()
                           : v;
          Value inc = arith::ExtUIOp::create(
              b, l, i32, w.cmp(P::eq, w.flagOf(word), w.i64(kInclusive)));
          // Lanes top, top - 1, ..., 0 in turn (items in order).
          Value steps = arith::IndexCastOp::create(
              b, l, idx, arith::AddIOp::create(b, l, top, w.i32(1)));
          auto lanes = scf::ForOp::create(
              b, l, w.index(0), steps, w.index(1), ValueRange{args[3]},
              [&](OpBuilder &fb, Location fl, Value k, ValueRange acc) {
                Builder f{fb, fl};
                Value from = arith::SubIOp::create(
                    fb, fl, top, arith::IndexCastOp::create(fb, fl, i32, k));
                auto shfl = [&](Value x) {
                  return gpu::ShuffleOp::create(fb, fl, x, from, f.i32(32),
                                                gpu::ShuffleMode::IDX)
                      .getShuffleResult();
                };
                Value xb = shfl(bits);
                Value x =
                    isa<FloatType>(t)
                        ? arith::BitcastOp::create(fb, fl, t, xb).getResult()
                        : xb;
                Value replaces = f.cmp(P::ne, shfl(inc), f.i32(0));
                scf::YieldOp::create(
                    fb, fl,
                    ValueRange{arith::SelectOp::create(fb, fl, replaces, x,
                                                       f.add(acc[0], x))});
              });
          Value acc = lanes.getResult(0);
          // The next window: items cur + 1 .. cur + 32, all published (the
          // walk saw them), read again.
          Value next = arith::AddIOp::create(b, l, cur, w.index(32));
          auto read = scf::IfOp::create(
              b, l, w.cmp(P::sle, next, last),
              [&](OpBuilder &rb, Location rl) {
                Builder r{rb, rl};
                Value mine = arith::SubIOp::create(rb, rl, next, laneIndex);
                scf::YieldOp::create(rb, rl,
                                     r.loadWord(r.address(state, mine)));
              },
              [&](OpBuilder &rb, Location rl) {
                scf::YieldOp::create(rb, rl, Builder{rb, rl}.i64(0));
              });
          scf::YieldOp::create(
              b, l, ValueRange{next, w.i32(31), read.getResult(0), acc});
        });
    Value prefix = fold.getResult(3);

    h.inLeader([&] {
      auto ifOp = scf::IfOp::create(rewriter, loc, notFound);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      h.storeWord(h.address(state, item),
                  h.pack(kInclusive, h.add(prefix, aggregate)));
    });
    rewriter.replaceOp(op, prefix);
    return success();
  }
};

} // namespace

void gpu_lowering::populateLookbackPatterns(const TypeConverter &types,
                                            RewritePatternSet &patterns) {
  patterns.add<LowerTicket, LowerLookback>(types, patterns.getContext());
}
