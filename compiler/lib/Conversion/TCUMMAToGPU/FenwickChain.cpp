//===- FenwickChain.cpp - a look-back chain kept as a Fenwick tree --------===//
//
// FenwickItem's reads and writes of the state words: relaxed 64-bit
// accesses at GPU scope. A word carries its flag and its value together,
// and nothing else is communicated between warps, so no fence is needed;
// relaxed loads are not served from a stale L1 line.
//
//===----------------------------------------------------------------------===//

#include "FenwickChain.h"
#include "WarpBuilder.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;
using namespace mlir::tcu::lookback_word;

FenwickItem::FenwickItem(OpBuilder &b, Location loc, Value state, Value item,
                         Value first, Type t, int64_t scale)
    : b(b), loc(loc), state(state), item(item), t(t), scale(scale) {
  WarpBuilder h{b, loc};
  p = toI64(arith::SubIOp::create(b, loc, item, first));
  firstI = toI64(first);
  lane = arith::ExtUIOp::create(b, loc, b.getI64Type(), h.lane());
}

Value FenwickItem::toI64(Value v) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
}

Value FenwickItem::trailingOnes() {
  WarpBuilder h{b, loc};
  Value notP = arith::XOrIOp::create(b, loc, p, h.i64(-1));
  return LLVM::CountTrailingZerosOp::create(b, loc, b.getI64Type(), notP,
                                            b.getBoolAttr(false));
}

Value FenwickItem::children(Value m, int64_t lowBit) {
  return overHalves(
      [&](OpBuilder &ib, Value j) -> Value {
        WarpBuilder w{ib, loc};
        Value in = w.cmp(arith::CmpIPredicate::ult, j, m);
        if (lowBit == 0)
          return in;
        return arith::AndIOp::create(
            ib, loc, in, w.cmp(arith::CmpIPredicate::uge, j, w.i64(lowBit)));
      },
      [&](OpBuilder &ib, Value j) -> Value {
        Value pow =
            arith::ShLIOp::create(ib, loc, WarpBuilder{ib, loc}.i64(1), j);
        return fenwickWord(ib, arith::SubIOp::create(ib, loc, p, pow));
      });
}

void FenwickItem::publish(Value aggregate) {
  WarpBuilder h{b, loc};
  Value node = h.add(aggregate, children(trailingOnes(), 0));
  h.inLeader([&] {
    h.storeWord(h.address(state, fenwickWord(b, p)),
                buildPublishedWord(b, loc, node));
  });
}

void FenwickItem::publishAggregate(Value aggregate) {
  WarpBuilder h{b, loc};
  h.inLeader([&] {
    h.storeWord(h.address(state, aggregateWord(b, p)),
                buildPublishedWord(b, loc, aggregate));
  });
}

void FenwickItem::complete(int64_t rounds) {
  using P = arith::CmpIPredicate;
  WarpBuilder h{b, loc};
  Value m = trailingOnes();
  Value span = arith::ShLIOp::create(b, loc, h.i64(1), m);
  Value count = arith::MinUIOp::create(b, loc, span, h.i64(32 * rounds));
  int64_t lowBit = llvm::Log2_64(32 * rounds);
  // All of them in one round trip: `rounds` aggregates a lane, and lane
  // l's child p - 2^(lowBit + l).
  SmallVector<LaneRead> reads;
  for (int64_t r = 0; r < rounds; ++r) {
    Value j = arith::AddIOp::create(b, loc, lane, h.i64(32 * r));
    reads.push_back({h.cmp(P::ult, j, count),
                     h.address(state, aggregateWord(b, arith::SubIOp::create(
                                                           b, loc, p, j)))});
  }
  Value jc = arith::AddIOp::create(b, loc, lane, h.i64(lowBit));
  Value pow = arith::ShLIOp::create(
      b, loc, h.i64(1), arith::MinUIOp::create(b, loc, jc, h.i64(63)));
  reads.push_back({h.cmp(P::ult, jc, m),
                   h.address(state, fenwickWord(b, arith::SubIOp::create(
                                                       b, loc, p, pow)))});
  Value node = sumOverLanes(b, loc, reads);
  // Children past lane 31's (chains of 2^(lowBit + 32) items or more).
  auto far = scf::IfOp::create(
      b, loc, h.cmp(P::ugt, m, h.i64(lowBit + 32)),
      [&](OpBuilder &ib, Location l) {
        scf::YieldOp::create(
            ib, l, WarpBuilder{ib, l}.add(node, children(m, lowBit + 32)));
      },
      [&](OpBuilder &ib, Location l) { scf::YieldOp::create(ib, l, node); });
  node = far.getResult(0);
  h.inLeader([&] {
    h.storeWord(h.address(state, fenwickWord(b, p)),
                buildPublishedWord(b, loc, node));
  });
}

Value FenwickItem::prefix() {
  return overHalves(
      [&](OpBuilder &ib, Value j) -> Value {
        Value pow =
            arith::ShLIOp::create(ib, loc, WarpBuilder{ib, loc}.i64(1), j);
        return arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::ne,
                                     arith::AndIOp::create(ib, loc, p, pow),
                                     WarpBuilder{ib, loc}.i64(0));
      },
      [&](OpBuilder &ib, Value j) -> Value {
        WarpBuilder w{ib, loc};
        Value pow = arith::ShLIOp::create(ib, loc, w.i64(1), j);
        Value mask = arith::XOrIOp::create(
            ib, loc, arith::SubIOp::create(ib, loc, pow, w.i64(1)), w.i64(-1));
        Value cleared = arith::AndIOp::create(ib, loc, p, mask);
        return fenwickWord(ib,
                           arith::SubIOp::create(ib, loc, cleared, w.i64(1)));
      });
}

Value FenwickItem::endsGroup() {
  WarpBuilder h{b, loc};
  Value next = arith::AddIOp::create(b, loc, p, h.i64(1));
  Value low = arith::AndIOp::create(b, loc, next, h.i64(kLaggedGroup - 1));
  return h.cmp(arith::CmpIPredicate::eq, low, h.i64(0));
}

Value FenwickItem::laggedPrefix() {
  using P = arith::CmpIPredicate;
  WarpBuilder h{b, loc};
  Value sum = sumOverLanes(b, loc, {laggedRead(b)});
  Value passes = arith::AddIOp::create(
      b, loc,
      arith::SelectOp::create(
          b, loc, h.cmp(P::uge, p, h.i64(int64_t(1) << kLaggedFirstPassBits)),
          h.index(2), h.index(1)),
      arith::SelectOp::create(
          b, loc,
          h.cmp(P::uge, p, h.i64(int64_t(1) << (kLaggedFirstPassBits + 32))),
          h.index(1), h.index(0)));
  auto loop = scf::ForOp::create(
      b, loc, h.index(1), passes, h.index(1), ValueRange{sum},
      [&](OpBuilder &fb, Location l, Value k, ValueRange acc) {
        WarpBuilder f{fb, l};
        // Bits kLaggedFirstPassBits + 32 (k - 1) + lane.
        Value j = arith::AddIOp::create(
            fb, l, lane,
            arith::AddIOp::create(
                fb, l,
                arith::MulIOp::create(
                    fb, l,
                    arith::IndexCastOp::create(fb, l, fb.getI64Type(), k),
                    f.i64(32)),
                f.i64(kLaggedFirstPassBits - 32)));
        Value v = sumOverLanes(fb, l, {wordRead(fb, j)});
        scf::YieldOp::create(fb, l, ValueRange{f.add(acc[0], v)});
      });
  return loop.getResult(0);
}

Value FenwickItem::laggedWord() {
  WarpBuilder h{b, loc};
  LaneRead read = laggedRead(b);
  Value covered = h.cmp(arith::CmpIPredicate::ult, p,
                        h.i64(int64_t(1) << kLaggedFirstPassBits));
  auto ifOp = scf::IfOp::create(
      b, loc, arith::AndIOp::create(b, loc, read.needed, covered),
      [&](OpBuilder &rb, Location rl) {
        scf::YieldOp::create(rb, rl,
                             WarpBuilder{rb, rl}.loadWord(read.address));
      },
      [&](OpBuilder &rb, Location rl) {
        WarpBuilder r{rb, rl};
        scf::YieldOp::create(
            rb, rl,
            Value(arith::SelectOp::create(
                rb, rl, covered, buildWordConstant(rb, rl, kPublishedZero),
                r.i64(0))));
      });
  return ifOp.getResult(0);
}

FenwickItem::LaneRead FenwickItem::laggedRead(OpBuilder &ob) {
  using P = arith::CmpIPredicate;
  static_assert(kLaggedGroup == 16, "lanes 0-15 read the group");
  WarpBuilder w{ob, loc};
  Value groupStart = arith::AndIOp::create(ob, loc, p, w.i64(-kLaggedGroup));
  Value inGroup = arith::AndIOp::create(ob, loc, p, w.i64(kLaggedGroup - 1));
  Value isAggregate = w.cmp(P::ult, lane, w.i64(kLaggedGroup));
  LaneRead aggregate{
      w.cmp(P::ult, lane, inGroup),
      w.address(state, aggregateWord(ob, arith::AddIOp::create(
                                             ob, loc, groupStart, lane)))};
  LaneRead word = wordRead(
      ob, arith::SubIOp::create(ob, loc, lane, w.i64(kLaggedGroup - 4)));
  return LaneRead{arith::SelectOp::create(ob, loc, isAggregate,
                                          aggregate.needed, word.needed),
                  arith::SelectOp::create(ob, loc, isAggregate,
                                          aggregate.address, word.address)};
}

FenwickItem::LaneRead FenwickItem::wordRead(OpBuilder &ob, Value j) {
  using P = arith::CmpIPredicate;
  WarpBuilder w{ob, loc};
  Value shift = arith::MinUIOp::create(ob, loc, j, w.i64(63));
  Value pow = arith::ShLIOp::create(ob, loc, w.i64(1), shift);
  Value set = w.cmp(P::ne, arith::AndIOp::create(ob, loc, p, pow), w.i64(0));
  Value needed =
      arith::AndIOp::create(ob, loc, set, w.cmp(P::ult, j, w.i64(64)));
  Value below = arith::SubIOp::create(ob, loc, pow, w.i64(1));
  Value cleared = arith::AndIOp::create(
      ob, loc, p, arith::XOrIOp::create(ob, loc, below, w.i64(-1)));
  Value word =
      fenwickWord(ob, arith::SubIOp::create(ob, loc, cleared, w.i64(1)));
  return LaneRead{needed, w.address(state, word)};
}

Value FenwickItem::wordOf(OpBuilder &ib, Value x, int64_t shift) {
  WarpBuilder w{ib, loc};
  Value v = arith::AddIOp::create(ib, loc, firstI, x);
  if (scale != 1)
    v = arith::MulIOp::create(ib, loc, v, w.i64(scale));
  if (shift)
    v = arith::AddIOp::create(ib, loc, v, w.i64(shift));
  return arith::IndexCastOp::create(ib, loc, ib.getIndexType(), v);
}

Value FenwickItem::sumOverLanes(OpBuilder &ob, Location l, Value half,
                                BitPredicate need, BitPredicate at) {
  Value j = arith::AddIOp::create(ob, l, lane, half);
  WarpBuilder w{ob, l};
  return sumOverLanes(ob, l,
                      {LaneRead{need(ob, j), w.address(state, at(ob, j))}});
}

Value FenwickItem::sumOverLanes(OpBuilder &ob, Location l,
                                ArrayRef<LaneRead> reads) {
  Type i64 = ob.getI64Type();
  WarpBuilder w{ob, l};
  Value published = buildWordConstant(ob, l, kPublishedZero);
  SmallVector<Type> types(reads.size(), i64);
  SmallVector<Value> inits(reads.size(), w.i64(0));
  auto loop = scf::WhileOp::create(
      ob, l, types, inits,
      [&](OpBuilder &wb, Location wl, ValueRange) {
        SmallVector<Value> words;
        Value pending;
        for (const LaneRead &read : reads) {
          auto ifOp = scf::IfOp::create(
              wb, wl, read.needed,
              [&](OpBuilder &rb, Location rl) {
                scf::YieldOp::create(
                    rb, rl, WarpBuilder{rb, rl}.loadWord(read.address));
              },
              [&](OpBuilder &rb, Location rl) {
                scf::YieldOp::create(rb, rl, published);
              });
          Value word = ifOp.getResult(0);
          words.push_back(word);
          Value zero = buildWordIsPending(wb, wl, word);
          pending =
              pending ? arith::OrIOp::create(wb, wl, pending, zero) : zero;
        }
        scf::ConditionOp::create(wb, wl, voteAny(wb, wl, pending), words);
      },
      [&](OpBuilder &wb, Location wl, ValueRange args) {
        scf::YieldOp::create(wb, wl, args);
      });
  Value sum;
  for (auto [read, word] : llvm::zip(reads, loop.getResults())) {
    Value v = arith::SelectOp::create(
        ob, l, read.needed, buildWordValue(ob, l, word, t), w.zero(t));
    sum = sum ? w.add(sum, v) : v;
  }
  return warpSum(w, sum);
}

Value FenwickItem::overHalves(BitPredicate need, BitPredicate at) {
  WarpBuilder h{b, loc};
  Value halves = arith::SelectOp::create(
      b, loc, h.cmp(arith::CmpIPredicate::uge, p, h.i64(int64_t(1) << 32)),
      h.index(2), h.index(1));
  auto loop = scf::ForOp::create(
      b, loc, h.index(0), halves, h.index(1), ValueRange{h.zero(t)},
      [&](OpBuilder &fb, Location l, Value k, ValueRange sum) {
        Value half = arith::MulIOp::create(
            fb, l, arith::IndexCastOp::create(fb, l, fb.getI64Type(), k),
            WarpBuilder{fb, l}.i64(32));
        Value v = sumOverLanes(fb, l, half, need, at);
        scf::YieldOp::create(fb, l,
                             ValueRange{WarpBuilder{fb, l}.add(sum[0], v)});
      });
  return loop.getResult(0);
}
