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

/// The flag of a published look-back word (the high 32 bits; the low 32
/// are the value; 0: not published yet).
constexpr int64_t kPublished = 1;

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
struct FenwickItem {
  OpBuilder &b;
  Location loc;
  Value state, item;
  Type t;
  /// Words per item: 1 (the word of item w is word w) or 2 (the lagged
  /// scan's: item w's aggregate is word 2w - 1, its Fenwick word 2w).
  int64_t scale;
  Value p, firstI, lane;

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
                  h.pack(kPublished, node));
    });
  }

  /// Publishes the item's aggregate alone (scale 2), without waiting.
  void publishAggregate(Value aggregate) {
    Builder h{b, loc};
    h.inLeader([&] {
      h.storeWord(h.address(state, aggregateWord(b, p)),
                  h.pack(kPublished, aggregate));
    });
  }

  /// Completes the item's Fenwick word (scale 2) from published words: the
  /// aggregates of its last min(2^m, 32 * rounds) positions, one word a
  /// lane a round, plus the Fenwick words of its children at least
  /// 32 * rounds back (`rounds` a power of two).
  void complete(int64_t rounds) {
    Builder h{b, loc};
    Value m = trailingOnes();
    Value span = arith::ShLIOp::create(b, loc, h.i64(1), m);
    Value count = arith::MinUIOp::create(b, loc, span, h.i64(32 * rounds));
    Value node;
    for (int64_t r = 0; r < rounds; ++r) {
      Value v = sumOverLanes(
          b, loc, h.i64(32 * r),
          [&](OpBuilder &ib, Value j) -> Value {
            return Builder{ib, loc}.cmp(arith::CmpIPredicate::ult, j, count);
          },
          [&](OpBuilder &ib, Value j) -> Value {
            return aggregateWord(ib, arith::SubIOp::create(ib, loc, p, j));
          });
      node = node ? h.add(node, v) : v;
    }
    node = h.add(node, children(m, llvm::Log2_64(32 * rounds)));
    h.inLeader([&] {
      h.storeWord(h.address(state, fenwickWord(b, p)),
                  h.pack(kPublished, node));
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
    using P = arith::CmpIPredicate;
    Type i64 = ob.getI64Type();
    Builder w{ob, l};
    Value j = arith::AddIOp::create(ob, l, lane, half);
    Value needed = need(ob, j);
    Value address = w.address(state, at(ob, j));
    Value published = w.i64(kPublished << 32);
    auto loop = scf::WhileOp::create(
        ob, l, TypeRange{i64}, ValueRange{w.i64(0)},
        [&](OpBuilder &wb, Location wl, ValueRange) {
          Builder r{wb, wl};
          auto ifOp = scf::IfOp::create(
              wb, wl, needed,
              [&](OpBuilder &rb, Location rl) {
                scf::YieldOp::create(rb, rl, Builder{rb, rl}.loadWord(address));
              },
              [&](OpBuilder &rb, Location rl) {
                scf::YieldOp::create(rb, rl, published);
              });
          Value word = ifOp.getResult(0);
          Value pending = r.cmp(P::eq, r.flagOf(word), r.i64(0));
          Value any = NVVM::VoteSyncOp::create(
                          wb, wl, wb.getI1Type(), r.i32(-1), pending,
                          NVVM::VoteSyncKindAttr::get(wb.getContext(),
                                                      NVVM::VoteSyncKind::any))
                          .getResult();
          scf::ConditionOp::create(wb, wl, any, ValueRange{word});
        },
        [&](OpBuilder &wb, Location wl, ValueRange args) {
          scf::YieldOp::create(wb, wl, args);
        });
    Value v = arith::SelectOp::create(
        ob, l, needed, w.valueOf(loop.getResult(0), t), w.zero(t));
    return warpSum(w, v);
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
/// rounds of 32: a word covering more than 32 * kLaggedRounds positions
/// takes its last 32 * kLaggedRounds from the aggregates and the rest from
/// children that far back or further. Built from its neighbours' words
/// instead, as the Fenwick tree of tcu.block_lookback, half of the items
/// waited for the item just before them, held by a block running beside
/// theirs (H100, 2026-11-25, bench/results/lagged-tree). Two rounds
/// measured 6% slower than one for f16->f32 (0.735-0.739 against 0.795,
/// H100, 2026-11-25; quoted in bench/results/run16-lagged-window/README.md,
/// whose raw files were lost with that session's machine).
constexpr int64_t kLaggedRounds = 1;

/// tcu.block_lagged_lookback: both values of every warp meet at one block
/// barrier (the scanned chunk's through lowerBlockPrefix, the reduced
/// chunk's stored just before it); warp 0 publishes the reduced item's
/// aggregate (a store, no wait) and looks back for item `item` if
/// `looks_back`, while the last warp completes the Fenwick word of item
/// complete_item if `completes`; the block meets again before every warp
/// reads the prefix (buffer[offset + 2 W]). Completed after the second
/// barrier by warp 0, as until tcuc 0.6.14, the word cost the block a
/// second round trip to L2: f16->f32 at 2 tiles 0.843 of the copy ceiling
/// against 0.863 overlapped (H100, 2026-11-25,
/// bench/results/lagged-complete-warp; at 64 registers, see
/// kMinBlocksPerSMAttr in ScanVariants.cpp's scanLagged).
/// The words are read here, after the scan, not at the ticket's start
/// (where their operands are known): reading them early, to overlap the
/// round trip with the scan, made every warp build their addresses and
/// measured 5-14% slower for the f16 scans at 4 tiles (+9% instructions;
/// H100, 2026-11-26, bench/results/lagged-f16-0.6.24).
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
    Value prefix = lowerBlockPrefix(
        rewriter, loc, adaptor.getScanValue(), buffer, offset, warp, warps,
        [&] { gpu::BarrierOp::create(rewriter, loc); });
    Value prefixSlot = slot(h.index(2 * warps));
    // The completion (its loads rarely wait: the words it reads were
    // published at least E tickets ago) runs in the last warp while warp 0
    // looks back, so the block's two round trips to L2 overlap; with one
    // warp, warp 0 completes after its look-back.
    auto completeInWarp = [&](int64_t w) {
      auto complete = scf::IfOp::create(
          rewriter, loc,
          arith::AndIOp::create(
              rewriter, loc, adaptor.getCompletes(),
              h.cmp(arith::CmpIPredicate::eq, warp, h.index(w))));
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(complete.thenBlock());
      FenwickItem(rewriter, loc, state, adaptor.getCompleteItem(),
                  adaptor.getCompleteFirst(), t, 2)
          .complete(kLaggedRounds);
    };
    if (warps > 1)
      completeInWarp(warps - 1);
    Value chunkPrefix = shareFromFirstWarp(
        rewriter, loc, warp, buffer, prefixSlot, [&]() -> Value {
          auto publish =
              scf::IfOp::create(rewriter, loc, adaptor.getPublishes());
          {
            OpBuilder::InsertionGuard guard(rewriter);
            rewriter.setInsertionPointToStart(publish.thenBlock());
            Value aggregate;
            for (int64_t w = 0; w < warps; ++w) {
              Value v = memref::LoadOp::create(rewriter, loc, buffer,
                                               slot(h.index(warps + w)));
              aggregate = aggregate ? h.add(aggregate, v) : v;
            }
            FenwickItem(rewriter, loc, state, adaptor.getPublishItem(),
                        adaptor.getPublishFirst(), t, 2)
                .publishAggregate(aggregate);
          }
          auto look = scf::IfOp::create(
              rewriter, loc, adaptor.getLooksBack(),
              [&](OpBuilder &b, Location l) {
                scf::YieldOp::create(b, l,
                                     FenwickItem(b, l, state, adaptor.getItem(),
                                                 adaptor.getFirst(), t, 2)
                                         .prefix());
              },
              [&](OpBuilder &b, Location l) {
                scf::YieldOp::create(b, l, Builder{b, l}.zero(t));
              });
          return look.getResult(0);
        });
    if (warps == 1)
      completeInWarp(0);
    rewriter.replaceOp(op, {prefix, chunkPrefix});
    return success();
  }
};

} // namespace

void gpu_lowering::populateLookbackPatterns(const TypeConverter &types,
                                            RewritePatternSet &patterns) {
  patterns.add<LowerTicket, LowerPrefetch, LowerBlockLookback,
               LowerBlockLaggedLookback>(types, patterns.getContext());
}
