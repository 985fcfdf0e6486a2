//===- LookbackOps.cpp - single-pass look-back on the GPU -----------------===//
//
// tcu.ticket and tcu.prefetch for one warp, tcu.block_lookback and
// tcu.block_lagged_lookback for a block
// (the look-back itself is one warp's: all 32 lanes run the code; the values
// are the same in every lane). The state words are read and written with
// relaxed 64-bit accesses at GPU scope: a word carries its flag and its value
// together, and nothing else is communicated between warps, so no fence is
// needed. Relaxed loads are not served from a stale L1 line.
//
//===----------------------------------------------------------------------===//

#include "GPUPatterns.h"

#include "tcuc/Conversion/LookbackWord.h"

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
using namespace mlir::tcu::lookback_word;

namespace {

/// The lagged scan's chains keep a Fenwick word only for the items that end
/// a group of this many positions, so a block completes a word once in 16
/// tickets, not every ticket; a prefix reads the aggregates of its group in
/// lanes 0-15 and the kept words in lanes 16-31 (FenwickItem::laggedRead).
constexpr int64_t kLaggedGroup = 16;

/// The chain positions a lagged prefix's first pass covers: 2^20 (the
/// group's 4 bits and the 16 words of lanes 16-31).
constexpr int64_t kLaggedFirstPassBits = 20;

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
  /// The generic address of element `i` of a 1-D buffer.
  Value address(Value buffer, Value i) {
    return elementAddress(b, loc, buffer, i);
  }
  /// The bytes `count` elements of `buffer` take (an i64).
  Value bytes(Value buffer, Value count) {
    return byteCount(b, loc, buffer, count);
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
  Value add(Value x, Value y) { return buildAccumulatorAdd(b, loc, x, y); }
  Value zero(Type t) {
    return arith::ConstantOp::create(b, loc, b.getZeroAttr(t));
  }
};

/// tcu.ticket: lane 0 adds 1 to the counter; every lane gets the old value.
/// The atomic names the global space (the counter is device memory): on a
/// generic address ptxas (CUDA 13.0, sm_90) emits a test of the address's
/// space and a shared-memory CAS loop and a local load/store beside the
/// global atomic, merged through a local-memory spill. With `.global` the
/// lagged kernels at 64 registers spill 0 bytes instead of 24 (f16->f32
/// walking tickets), 4 instead of 32 (f16->f16), 16 instead of 44 (i8);
/// measured on the H100 (2026-11-26, bench/results/global-atomics): f16->f16
/// and i8->i32 +1%, f16->f32 +0.3%. (The look-back words' relaxed loads and
/// stores are native on a generic address: `.global` there measured the
/// same.)
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
                                     "{ .reg .b64 g; cvta.to.global.u64 g, "
                                     "$1; atom.relaxed.gpu.global.add.u64 $0, "
                                     "[g], $2; }"));
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

/// tcu.prefetch: the lanes take the range's 128-byte lines in turn, lane l
/// lines l, l + 32, ...; each issues `prefetch.L2` (with `cache
/// <evict_last>`: `prefetch.global.L2::evict_last` on the global address)
/// for an address inside the range on that line (the range's own first and
/// last bytes at its ends, so no address falls outside the buffer).
struct LowerPrefetch : OpConversionPattern<PrefetchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PrefetchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Builder h{rewriter, loc};
    Type i64 = rewriter.getI64Type();
    bool keep = op.getCache() == CacheHint::EvictLast;
    Value base = h.address(adaptor.getBuffer(), adaptor.getOffset());
    Value length = h.bytes(adaptor.getBuffer(), adaptor.getCount());
    Value last = arith::SubIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, base, length),
        h.i64(1));
    auto line = [&](Value address) -> Value {
      return arith::ShRUIOp::create(rewriter, loc, address, h.i64(7));
    };
    // Lines from base's to last's (none when count is 0: last < base).
    Value lines = arith::SelectOp::create(
        rewriter, loc, h.cmp(arith::CmpIPredicate::sgt, length, h.i64(0)),
        arith::AddIOp::create(
            rewriter, loc,
            arith::SubIOp::create(rewriter, loc, line(last), line(base)),
            h.i64(1)),
        h.i64(0));
    Value lane = arith::ExtUIOp::create(rewriter, loc, i64, h.lane());
    scf::ForOp::create(
        rewriter, loc, lane, lines, h.i64(32), ValueRange{},
        [&](OpBuilder &b, Location l, Value i, ValueRange) {
          Builder w{b, l};
          Value start = arith::AddIOp::create(
              b, l, arith::ShLIOp::create(b, l, line(base), w.i64(7)),
              arith::ShLIOp::create(b, l, i, w.i64(7)));
          Value address = arith::MinUIOp::create(
              b, l, arith::MaxUIOp::create(b, l, start, base), last);
          w.ptx(Type(), {address},
                keep ? "{ .reg .b64 g; cvta.to.global.u64 g, $0; "
                       "prefetch.global.L2::evict_last [g]; }"
                     : "prefetch.L2 [$0];");
          scf::YieldOp::create(b, l);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

/// The sum over the 32 lanes by xor butterflies: every lane gets the same
/// value (x + y = y + x exactly), through a tree fixed by lane numbers.
static Value warpSum(Builder &h, Value x) {
  for (int32_t d = 16; d >= 1; d /= 2) {
    Value other = gpu::ShuffleOp::create(h.b, h.loc, x, h.i32(d), h.i32(32),
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    x = h.add(x, other);
  }
  return x;
}

/// Whether `pending` holds in any lane (the same in every lane).
static Value voteAny(OpBuilder &b, Location loc, Value pending) {
  return NVVM::VoteSyncOp::create(b, loc, b.getI1Type(),
                                  Builder{b, loc}.i32(-1), pending,
                                  NVVM::VoteSyncKindAttr::get(
                                      b.getContext(), NVVM::VoteSyncKind::any))
      .getResult();
}

/// Whether any lane's word is still unpublished (the same in every lane).
static Value anyPending(OpBuilder &b, Location loc, Value word) {
  return voteAny(b, loc, buildWordIsPending(b, loc, word));
}

/// One warp's view of item `item` of a look-back chain whose words form a
/// Fenwick tree: with p = item - first, the item's word holds the sum of
/// the chain's items p + 1 - lowbit(p + 1) .. p. That sum is the item's
/// aggregate plus the words of items p - 1, p - 2, p - 4, ...,
/// p - 2^(m-1) (m = trailing ones of p), and the prefix of items
/// 0 .. p - 1 is the sum of one word per set bit j of p: the word of item
/// (p with the bits below j cleared) - 1. Lane l reads the word for bit l
/// (bit l + 32 in a second pass, for chains of 2^32 items or more),
/// spinning while any is still 0, and the warp adds them with warpSum, so
/// every sum has an association fixed by p alone: the result does not
/// depend on timing (f32 results are the same from run to run). An item
/// waits only on earlier items' words, and publishing a word needs no
/// prefix: no chain of waits is longer than log2 of the chain.
/// The lagged scan's chains (scale 2: an aggregate and a word an item) keep
/// only the words of items that end a group of kLaggedGroup positions: such
/// an item's word is completed later from aggregates (complete), and a
/// prefix is the aggregates of the item's own group before it plus the
/// kept words for the bits of p from log2(kLaggedGroup) up (laggedPrefix),
/// still one word a lane.
struct FenwickItem {
  OpBuilder &b;
  Location loc;
  Value state, item;
  Type t;
  /// Words per item: 1 (the word of item w is word w) or 2 (the lagged
  /// scan's: item w's aggregate is word 2w - 1, its Fenwick word 2w).
  int64_t scale;
  Value p, firstI, lane;

  /// One word a lane reads: from `address` where `needed` holds (else it
  /// counts 0).
  struct LaneRead {
    Value needed, address;
  };

  FenwickItem(OpBuilder &b, Location loc, Value state, Value item, Value first,
              Type t, int64_t scale = 1)
      : b(b), loc(loc), state(state), item(item), t(t), scale(scale) {
    Builder h{b, loc};
    p = toI64(arith::SubIOp::create(b, loc, item, first));
    firstI = toI64(first);
    lane = arith::ExtUIOp::create(b, loc, b.getI64Type(), h.lane());
  }

  Value toI64(Value v) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
  }

  /// The index of the Fenwick word of the item at chain position `x`, and
  /// (scale 2) of its aggregate.
  Value fenwickWord(OpBuilder &ib, Value x) { return wordOf(ib, x, 0); }
  Value aggregateWord(OpBuilder &ib, Value x) { return wordOf(ib, x, -1); }

  /// The trailing ones of p: its word covers 2^m positions.
  Value trailingOnes() {
    Builder h{b, loc};
    Value notP = arith::XOrIOp::create(b, loc, p, h.i64(-1));
    return LLVM::CountTrailingZerosOp::create(b, loc, b.getI64Type(), notP,
                                              b.getBoolAttr(false));
  }

  /// The sum of the Fenwick words of the children p - 2^j with
  /// 2^lowBit <= 2^j < 2^m, m = trailingOnes().
  Value children(Value m, int64_t lowBit) {
    return overHalves(
        [&](OpBuilder &ib, Value j) -> Value {
          Builder w{ib, loc};
          Value in = w.cmp(arith::CmpIPredicate::ult, j, m);
          if (lowBit == 0)
            return in;
          return arith::AndIOp::create(
              ib, loc, in, w.cmp(arith::CmpIPredicate::uge, j, w.i64(lowBit)));
        },
        [&](OpBuilder &ib, Value j) -> Value {
          Value pow =
              arith::ShLIOp::create(ib, loc, Builder{ib, loc}.i64(1), j);
          return fenwickWord(ib, arith::SubIOp::create(ib, loc, p, pow));
        });
  }

  /// Publishes the item's word: `aggregate` plus its children's words.
  void publish(Value aggregate) {
    Builder h{b, loc};
    Value node = h.add(aggregate, children(trailingOnes(), 0));
    h.inLeader([&] {
      h.storeWord(h.address(state, fenwickWord(b, p)),
                  buildPublishedWord(b, loc, node));
    });
  }

  /// Publishes the item's aggregate alone (scale 2), without waiting.
  void publishAggregate(Value aggregate) {
    Builder h{b, loc};
    h.inLeader([&] {
      h.storeWord(h.address(state, aggregateWord(b, p)),
                  buildPublishedWord(b, loc, aggregate));
    });
  }

  /// Completes the item's Fenwick word (scale 2) from published words: the
  /// aggregates of its last min(2^m, 32 * rounds) positions (`rounds` a
  /// lane) plus the Fenwick words of its children at least 32 * rounds back
  /// (one a lane), all read in one round trip (`rounds` a power of two).
  void complete(int64_t rounds) {
    using P = arith::CmpIPredicate;
    Builder h{b, loc};
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
              ib, l, Builder{ib, l}.add(node, children(m, lowBit + 32)));
        },
        [&](OpBuilder &ib, Location l) { scf::YieldOp::create(ib, l, node); });
    node = far.getResult(0);
    h.inLeader([&] {
      h.storeWord(h.address(state, fenwickWord(b, p)),
                  buildPublishedWord(b, loc, node));
    });
  }

  /// The sum of the chain's items before this one: one word per set bit j
  /// of p, (p with the bits below j cleared) - 1.
  Value prefix() {
    return overHalves(
        [&](OpBuilder &ib, Value j) -> Value {
          Value pow =
              arith::ShLIOp::create(ib, loc, Builder{ib, loc}.i64(1), j);
          return arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::ne,
                                       arith::AndIOp::create(ib, loc, p, pow),
                                       Builder{ib, loc}.i64(0));
        },
        [&](OpBuilder &ib, Value j) -> Value {
          Builder w{ib, loc};
          Value pow = arith::ShLIOp::create(ib, loc, w.i64(1), j);
          Value mask = arith::XOrIOp::create(
              ib, loc, arith::SubIOp::create(ib, loc, pow, w.i64(1)),
              w.i64(-1));
          Value cleared = arith::AndIOp::create(ib, loc, p, mask);
          return fenwickWord(ib,
                             arith::SubIOp::create(ib, loc, cleared, w.i64(1)));
        });
  }

  /// Whether the item ends a group of kLaggedGroup positions (p + 1 a
  /// multiple of it): in a lagged chain (scale 2) only those items' Fenwick
  /// words are kept, so only they are completed.
  Value endsGroup() {
    Builder h{b, loc};
    Value next = arith::AddIOp::create(b, loc, p, h.i64(1));
    Value low = arith::AndIOp::create(b, loc, next, h.i64(kLaggedGroup - 1));
    return h.cmp(arith::CmpIPredicate::eq, low, h.i64(0));
  }

  /// A lagged chain's prefix (scale 2): the aggregates of the positions of
  /// the item's group before it (p mod kLaggedGroup of them) and one kept
  /// Fenwick word per set bit j >= log2(kLaggedGroup) of p: that of (p with
  /// the bits below j cleared) - 1, which ends a group. One word a lane
  /// (laggedRead): the first pass covers chains of up to 2^20 items, a
  /// pass more 32 bits more.
  Value laggedPrefix() {
    using P = arith::CmpIPredicate;
    Builder h{b, loc};
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
          Builder f{fb, l};
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

  /// This lane's word of a lagged prefix's first pass (laggedRead), read
  /// once without waiting; a published 0 where it needs none, and an
  /// unpublished word in every lane for chains of 2^20 items or more,
  /// whose prefix has more words (those look back later).
  Value laggedWord() {
    Builder h{b, loc};
    LaneRead read = laggedRead(b);
    Value covered = h.cmp(arith::CmpIPredicate::ult, p,
                          h.i64(int64_t(1) << kLaggedFirstPassBits));
    auto ifOp = scf::IfOp::create(
        b, loc, arith::AndIOp::create(b, loc, read.needed, covered),
        [&](OpBuilder &rb, Location rl) {
          scf::YieldOp::create(rb, rl, Builder{rb, rl}.loadWord(read.address));
        },
        [&](OpBuilder &rb, Location rl) {
          Builder r{rb, rl};
          scf::YieldOp::create(
              rb, rl,
              Value(arith::SelectOp::create(
                  rb, rl, covered, buildWordConstant(rb, rl, kPublishedZero),
                  r.i64(0))));
        });
    return ifOp.getResult(0);
  }

  /// This lane's word of a lagged prefix's first pass: lanes 0-15 the
  /// aggregates of the item's group (lane l's if l < p mod 16), lanes
  /// 16-31 the kept words for bits 4-19 of p.
  LaneRead laggedRead(OpBuilder &ob) {
    using P = arith::CmpIPredicate;
    static_assert(kLaggedGroup == 16, "lanes 0-15 read the group");
    Builder w{ob, loc};
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

  /// The kept Fenwick word for bit j of p (j >= 4; none past bit 63): that
  /// of (p with the bits below j cleared) - 1.
  LaneRead wordRead(OpBuilder &ob, Value j) {
    using P = arith::CmpIPredicate;
    Builder w{ob, loc};
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

private:
  /// The word index (an index value) of chain position `x` (an i64):
  /// scale * (first + x) + `shift`.
  Value wordOf(OpBuilder &ib, Value x, int64_t shift) {
    Builder w{ib, loc};
    Value v = arith::AddIOp::create(ib, loc, firstI, x);
    if (scale != 1)
      v = arith::MulIOp::create(ib, loc, v, w.i64(scale));
    if (shift)
      v = arith::AddIOp::create(ib, loc, v, w.i64(shift));
    return arith::IndexCastOp::create(ib, loc, ib.getIndexType(), v);
  }

  using BitPredicate = function_ref<Value(OpBuilder &, Value)>;

  /// The sum over the warp of one word per lane: lane l's for bit j = l +
  /// `half`, read from `at(j)` where `need(j)` holds (others count 0),
  /// spinning until none of them is 0.
  Value sumOverLanes(OpBuilder &ob, Location l, Value half, BitPredicate need,
                     BitPredicate at) {
    Value j = arith::AddIOp::create(ob, l, lane, half);
    Builder w{ob, l};
    return sumOverLanes(ob, l,
                        {LaneRead{need(ob, j), w.address(state, at(ob, j))}});
  }

  /// The sum over the warp of the words each lane reads (`reads`, all
  /// issued together, spinning until none is 0), each lane's added in the
  /// order of `reads` before the lanes are: an association fixed by the
  /// lane numbers.
  Value sumOverLanes(OpBuilder &ob, Location l, ArrayRef<LaneRead> reads) {
    Type i64 = ob.getI64Type();
    Builder w{ob, l};
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
                  scf::YieldOp::create(rb, rl,
                                       Builder{rb, rl}.loadWord(read.address));
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

  /// sumOverLanes over bits 0..31, and 32..63 only for chains of 2^32
  /// chunks and more (a second pass, only then: fewer registers live in
  /// the common case).
  Value overHalves(BitPredicate need, BitPredicate at) {
    Builder h{b, loc};
    Value halves = arith::SelectOp::create(
        b, loc, h.cmp(arith::CmpIPredicate::uge, p, h.i64(int64_t(1) << 32)),
        h.index(2), h.index(1));
    auto loop = scf::ForOp::create(
        b, loc, h.index(0), halves, h.index(1), ValueRange{h.zero(t)},
        [&](OpBuilder &fb, Location l, Value k, ValueRange sum) {
          Value half = arith::MulIOp::create(
              fb, l, arith::IndexCastOp::create(fb, l, fb.getI64Type(), k),
              Builder{fb, l}.i64(32));
          Value v = sumOverLanes(fb, l, half, need, at);
          scf::YieldOp::create(fb, l,
                               ValueRange{Builder{fb, l}.add(sum[0], v)});
        });
    return loop.getResult(0);
  }
};

/// The look-back of one warp for item `item` with aggregate `aggregate`:
/// publishes the item's word, then reads its prefix. (Waiting for the
/// prefix first would chain every item to the one before: word p - 1 is
/// in every prefix; measured 0.07 of the copy ceiling on the H100,
/// 2026-11-24, bench/results/lookback-fenwick/one-wait.csv.)
static Value lookBack(OpBuilder &b, Location loc, Value state, Value item,
                      Value first, Value aggregate) {
  FenwickItem fenwick(b, loc, state, item, first, aggregate.getType());
  fenwick.publish(aggregate);
  return fenwick.prefix();
}

/// Runs `body` in warp 0 (all its lanes), stores the value it returns at
/// buffer[slot], meets the block at a barrier and returns buffer[slot] in
/// every warp.
static Value shareFromFirstWarp(OpBuilder &b, Location loc, Value warp,
                                Value buffer, Value slot,
                                function_ref<Value()> body) {
  Builder h{b, loc};
  auto ifOp = scf::IfOp::create(
      b, loc, h.cmp(arith::CmpIPredicate::eq, warp, h.index(0)));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    memref::StoreOp::create(b, loc, body(), buffer, slot);
  }
  gpu::BarrierOp::create(b, loc);
  return memref::LoadOp::create(b, loc, buffer, slot);
}

/// tcu.block_lookback: the warps' values meet at a block barrier as in
/// tcu.block_prefix, warp 0 sums them and looks back, and the block meets
/// again before every warp reads the chunk's prefix (buffer[offset + W]).
struct LowerBlockLookback : OpConversionPattern<BlockLookbackOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockLookbackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Builder h{rewriter, loc};
    Value buffer = adaptor.getBuffer(), offset = adaptor.getOffset(),
          warp = adaptor.getWarp();
    int64_t warps = op.getWarps();
    Value total;
    Value prefix = lowerBlockPrefix(
        rewriter, loc, adaptor.getValue(), buffer, offset, warp, warps,
        [&] { gpu::BarrierOp::create(rewriter, loc); }, &total);
    Value slot = arith::AddIOp::create(rewriter, loc, offset, h.index(warps));
    Value chunkPrefix =
        shareFromFirstWarp(rewriter, loc, warp, buffer, slot, [&] {
          return lookBack(rewriter, loc, adaptor.getState(), adaptor.getItem(),
                          adaptor.getFirst(), total);
        });
    rewriter.replaceOp(op, {prefix, chunkPrefix});
    return success();
  }
};

/// How far back the lagged scan's Fenwick words reach for aggregates, in
/// aggregates a lane: a word covering more than 32 * kLaggedRounds
/// positions takes its last 32 * kLaggedRounds from the aggregates and the
/// rest from children that far back or further, all read in one round trip.
/// Built from its neighbours' words instead, as the Fenwick tree of
/// tcu.block_lookback, half of the items waited for the item just before
/// them, held by a block running beside theirs (H100, 2026-11-25,
/// bench/results/lagged-tree). A child only 32 or 64 items back was often
/// not completed yet either: with the words kept at the ends of groups and
/// the early read, 4 a lane measured +2.3% against 1 for f16->f16 (676-680
/// G elements/s against 661-666), 8 a lane spilled 40-48 bytes and lost 6%
/// (H100, 2026-11-26, bench/results/lagged-groups runs 3-4).
constexpr int64_t kLaggedRounds = 4;

/// tcu.block_lagged_lookback: both values of every warp meet at one block
/// barrier (the scanned chunk's through lowerBlockPrefix, the reduced
/// chunk's stored just before it); warp 0 publishes the reduced item's
/// aggregate (a store, no wait) and looks back for item `item` if
/// `looks_back`, while the last warp completes the Fenwick word of item
/// complete_item if `completes` and the item ends a group of kLaggedGroup
/// (the only words kept: a prefix reads the aggregates of its own group,
/// FenwickItem::laggedPrefix); the block meets again before every warp
/// reads the prefix (buffer[offset + 2 W]). Completed after the second
/// barrier by warp 0, as until tcuc 0.6.14, the word cost the block a
/// second round trip to L2: f16->f32 at 2 tiles 0.843 of the copy ceiling
/// against 0.863 overlapped (H100, 2026-11-25,
/// bench/results/lagged-complete-warp; at 64 registers, see
/// kMinBlocksPerSMAttr in ScanVariants.cpp's scanLagged).
/// With `given` words (tcu.lagged_prefix, read by warp 0 before the block
/// met), warp 0 leaves their sum and whether all were published beside the
/// totals before the barrier; where they were, the block does not meet
/// again (a uniform branch). Completing a word every ticket, the block
/// waited on one of its two round trips either way: without the look-back
/// wait alone, f16->f16 ran as fast as with it; with the words kept at the
/// ends of groups of 16 and read early, +3.6% (H100, 2026-11-26,
/// bench/results/single-barrier and lagged-groups).
struct LowerBlockLaggedLookback : OpConversionPattern<BlockLaggedLookbackOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockLaggedLookbackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Builder h{rewriter, loc};
    Value buffer = adaptor.getBuffer(), offset = adaptor.getOffset(),
          warp = adaptor.getWarp(), state = adaptor.getState();
    int64_t warps = op.getWarps();
    Type t = op.getScanValue().getType();
    auto slot = [&](Value i) -> Value {
      return arith::AddIOp::create(rewriter, loc, offset, i);
    };
    memref::StoreOp::create(
        rewriter, loc, adaptor.getReduceValue(), buffer,
        slot(arith::AddIOp::create(rewriter, loc, h.index(warps), warp)));
    Value prefixSlot = slot(h.index(2 * warps));
    Value given = adaptor.getGivenWords();
    auto inFirstWarp = [&](function_ref<void()> body) {
      auto ifOp = scf::IfOp::create(
          rewriter, loc, h.cmp(arith::CmpIPredicate::eq, warp, h.index(0)));
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      body();
    };
    // Warp 0 read the look-back's words before the block met
    // (tcu.lagged_prefix): it leaves their sum and whether all were
    // published beside the totals, and where they were, the block meets
    // once.
    Value readySlot = slot(h.index(2 * warps + 1));
    if (given)
      inFirstWarp([&] {
        Value ready = arith::XOrIOp::create(
            rewriter, loc, anyPending(rewriter, loc, given),
            arith::ConstantOp::create(rewriter, loc,
                                      rewriter.getBoolAttr(true)));
        memref::StoreOp::create(
            rewriter, loc, warpSum(h, buildWordValue(rewriter, loc, given, t)),
            buffer, prefixSlot);
        memref::StoreOp::create(
            rewriter, loc,
            arith::SelectOp::create(rewriter, loc, ready,
                                    arith::ConstantOp::create(
                                        rewriter, loc, rewriter.getOneAttr(t)),
                                    h.zero(t)),
            buffer, readySlot);
      });
    Value prefix = lowerBlockPrefix(
        rewriter, loc, adaptor.getScanValue(), buffer, offset, warp, warps,
        [&] { gpu::BarrierOp::create(rewriter, loc); });
    // The completion (its loads rarely wait: the words it reads were
    // published at least E tickets ago) runs in the last warp while warp 0
    // looks back, so the block's two round trips to L2 overlap; with one
    // warp, warp 0 completes after its look-back. Only the items that end
    // a group have a word to complete.
    auto completeInWarp = [&](int64_t w) {
      Value endsGroup =
          FenwickItem(rewriter, loc, state, adaptor.getCompleteItem(),
                      adaptor.getCompleteFirst(), t, 2)
              .endsGroup();
      auto complete = scf::IfOp::create(
          rewriter, loc,
          arith::AndIOp::create(
              rewriter, loc,
              arith::AndIOp::create(rewriter, loc, adaptor.getCompletes(),
                                    endsGroup),
              h.cmp(arith::CmpIPredicate::eq, warp, h.index(w))));
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(complete.thenBlock());
      FenwickItem(rewriter, loc, state, adaptor.getCompleteItem(),
                  adaptor.getCompleteFirst(), t, 2)
          .complete(kLaggedRounds);
    };
    // The reduced item's aggregate: the warps' values in warp order.
    auto publish = [&] {
      auto ifOp = scf::IfOp::create(rewriter, loc, adaptor.getPublishes());
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      Value aggregate;
      for (int64_t w = 0; w < warps; ++w) {
        Value v = memref::LoadOp::create(rewriter, loc, buffer,
                                         slot(h.index(warps + w)));
        aggregate = aggregate ? h.add(aggregate, v) : v;
      }
      FenwickItem(rewriter, loc, state, adaptor.getPublishItem(),
                  adaptor.getPublishFirst(), t, 2)
          .publishAggregate(aggregate);
    };
    if (warps > 1)
      completeInWarp(warps - 1);
    // Warp 0 publishes and looks back; the block meets again to share the
    // prefix.
    auto lookBackLate = [&]() -> Value {
      return shareFromFirstWarp(
          rewriter, loc, warp, buffer, prefixSlot, [&]() -> Value {
            publish();
            auto look = scf::IfOp::create(
                rewriter, loc, adaptor.getLooksBack(),
                [&](OpBuilder &b, Location l) {
                  scf::YieldOp::create(b, l,
                                       FenwickItem(b, l, state,
                                                   adaptor.getItem(),
                                                   adaptor.getFirst(), t, 2)
                                           .laggedPrefix());
                },
                [&](OpBuilder &b, Location l) {
                  scf::YieldOp::create(b, l, Builder{b, l}.zero(t));
                });
            return look.getResult(0);
          });
    };
    Value chunkPrefix;
    if (given) {
      // The same in every warp: the branch is uniform, and so is its
      // barrier.
      Value ready = memref::LoadOp::create(rewriter, loc, buffer, readySlot);
      auto ifOp = scf::IfOp::create(
          rewriter, loc, TypeRange{t},
          isa<FloatType>(t)
              ? arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::ONE,
                                      ready, h.zero(t))
                    .getResult()
              : h.cmp(arith::CmpIPredicate::ne, ready, h.zero(t)),
          /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(ifOp.thenBlock());
        inFirstWarp(publish);
        scf::YieldOp::create(rewriter, loc,
                             ValueRange{memref::LoadOp::create(
                                 rewriter, loc, buffer, prefixSlot)});
        rewriter.setInsertionPointToStart(ifOp.elseBlock());
        scf::YieldOp::create(rewriter, loc, ValueRange{lookBackLate()});
      }
      chunkPrefix = ifOp.getResult(0);
    } else {
      chunkPrefix = lookBackLate();
    }
    if (warps == 1)
      completeInWarp(0);
    rewriter.replaceOp(op, {prefix, chunkPrefix});
    return success();
  }
};

/// tcu.lagged_prefix: the look-back of tcu.block_lagged_lookback, in the
/// warp that runs it.
struct LowerLaggedPrefix : OpConversionPattern<LaggedPrefixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LaggedPrefixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto look = scf::IfOp::create(
        rewriter, op.getLoc(), adaptor.getLooksBack(),
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l,
                               FenwickItem(b, l, adaptor.getState(),
                                           adaptor.getItem(),
                                           adaptor.getFirst(), Type(), 2)
                                   .laggedWord());
        },
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, buildWordConstant(b, l, kPublishedZero));
        });
    rewriter.replaceOp(op, look.getResults());
    return success();
  }
};

} // namespace

void gpu_lowering::populateLookbackPatterns(const TypeConverter &types,
                                            RewritePatternSet &patterns) {
  patterns.add<LowerTicket, LowerPrefetch, LowerBlockLookback,
               LowerBlockLaggedLookback, LowerLaggedPrefix>(
      types, patterns.getContext());
}
