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
/// in windows of 32 predecessors, lane l reading item j - l (items before
/// `first` read as an inclusive 0), spinning until no lane's word is 0.
/// The nearest predecessor with an inclusive prefix (the lowest such lane)
/// ends the walk: the lanes up to it contribute, the window's sum goes to
/// every lane (butterfly), and without an inclusive prefix the whole
/// window contributes and the walk goes on 32 items further back. Lane 0
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
    Value isFirst = h.cmp(P::eq, item, first);
    Value lane = h.lane();
    Value laneIndex = arith::IndexCastOp::create(rewriter, loc,
                                                 rewriter.getIndexType(), lane);

    h.inLeader([&] {
      Value word = arith::SelectOp::create(rewriter, loc, isFirst,
                                           h.pack(kInclusive, aggregate),
                                           h.pack(kAggregate, aggregate));
      h.storeWord(h.address(state, item), word);
    });

    Type i1 = rewriter.getI1Type(), idx = rewriter.getIndexType();
    Value start = arith::SubIOp::create(rewriter, loc, item, h.index(1));
    auto walk = scf::WhileOp::create(
        rewriter, loc, TypeRange{idx, t, i1},
        ValueRange{start, h.zero(t), isFirst},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Builder w{b, l};
          Value more = arith::AndIOp::create(
              b, l, w.cmp(P::sge, args[0], first),
              arith::XOrIOp::create(
                  b, l, args[2],
                  arith::ConstantOp::create(b, l, b.getBoolAttr(true))));
          scf::ConditionOp::create(b, l, more, args);
        },
        [&](OpBuilder &b, Location l, ValueRange args) {
          Builder w{b, l};
          Value j = args[0], acc = args[1];
          Value mine = arith::SubIOp::create(b, l, j, laneIndex);
          Value inRange = w.cmp(P::sge, mine, first);
          // Spin until every lane's predecessor has published.
          auto spin = scf::WhileOp::create(
              b, l, TypeRange{b.getI64Type()}, ValueRange{w.i64(0)},
              [&](OpBuilder &sb, Location sl, ValueRange) {
                Builder s{sb, sl};
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
                Value pending = s.cmp(P::eq, s.flagOf(word), s.i64(0));
                Value any = NVVM::VoteSyncOp::create(
                                sb, sl, sb.getI1Type(), s.i32(-1), pending,
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
                           b, l, b.getI32Type(), w.i32(-1), inclusive,
                           NVVM::VoteSyncKindAttr::get(
                               b.getContext(), NVVM::VoteSyncKind::ballot))
                           .getResult();
          Value found = w.cmp(P::ne, mask, w.i32(0));
          // The lowest lane with an inclusive prefix, or 31 (all lanes).
          Value lowest = LLVM::CountTrailingZerosOp::create(
              b, l, b.getI32Type(), mask, b.getBoolAttr(false));
          Value stop = arith::SelectOp::create(b, l, found, lowest, w.i32(31));
          Value counts = w.cmp(P::ule, lane, stop);
          Value v = arith::SelectOp::create(b, l, counts, w.valueOf(word, t),
                                            w.zero(t));
          for (int32_t offset : {1, 2, 4, 8, 16})
            v = w.add(v, gpu::ShuffleOp::create(b, l, v, offset, 32,
                                                gpu::ShuffleMode::XOR)
                             .getShuffleResult());
          Value next = arith::SubIOp::create(b, l, j, w.index(32));
          scf::YieldOp::create(b, l, ValueRange{next, w.add(acc, v), found});
        });
    Value prefix = walk.getResult(1);

    h.inLeader([&] {
      auto ifOp = scf::IfOp::create(
          rewriter, loc,
          arith::XOrIOp::create(
              rewriter, loc, isFirst,
              arith::ConstantOp::create(rewriter, loc,
                                        rewriter.getBoolAttr(true))));
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
