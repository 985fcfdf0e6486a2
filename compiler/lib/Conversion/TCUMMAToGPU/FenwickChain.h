//===- FenwickChain.h - a look-back chain as a Fenwick tree -----*- C++ -*-===//
//
// The single-pass scans' look-back on the GPU: each item of a chain
// publishes a state word (tcuc/Conversion/LookbackWord.h) and reads its
// prefix from earlier words. The words form a Fenwick tree, so a prefix is
// one word a lane, summed by the warp in an order fixed by the item's
// position: the result does not depend on timing. tcu.block_lookback
// (BlockLookbackOps.cpp) and the lagged scan (LaggedLookbackOps.cpp) both
// build on FenwickItem.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUMMATOGPU_FENWICKCHAIN_H
#define TCUC_CONVERSION_TCUMMATOGPU_FENWICKCHAIN_H

#include "mlir/IR/Builders.h"

namespace mlir::tcu::gpu_lowering {

/// The lagged scan's chains keep a Fenwick word only for the items that end
/// a group of this many positions, so a block completes a word once in 16
/// tickets, not every ticket; a prefix reads the aggregates of its group in
/// lanes 0-15 and the kept words in lanes 16-31 (FenwickItem::laggedRead).
constexpr int64_t kLaggedGroup = 16;

/// The chain positions a lagged prefix's first pass covers: 2^20 (the
/// group's 4 bits and the 16 words of lanes 16-31).
constexpr int64_t kLaggedFirstPassBits = 20;

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
              Type t, int64_t scale = 1);

  /// `v` (an index) as an i64.
  Value toI64(Value v);

  /// The index of the Fenwick word of the item at chain position `x`, and
  /// (scale 2) of its aggregate.
  Value fenwickWord(OpBuilder &ib, Value x) { return wordOf(ib, x, 0); }
  Value aggregateWord(OpBuilder &ib, Value x) { return wordOf(ib, x, -1); }

  /// The trailing ones of p: its word covers 2^m positions.
  Value trailingOnes();

  /// The sum of the Fenwick words of the children p - 2^j with
  /// 2^lowBit <= 2^j < 2^m, m = trailingOnes().
  Value children(Value m, int64_t lowBit);

  /// Publishes the item's word: `aggregate` plus its children's words.
  void publish(Value aggregate);

  /// Publishes the item's aggregate alone (scale 2), without waiting.
  void publishAggregate(Value aggregate);

  /// Completes the item's Fenwick word (scale 2) from published words: the
  /// aggregates of its last min(2^m, 32 * rounds) positions (`rounds` a
  /// lane) plus the Fenwick words of its children at least 32 * rounds back
  /// (one a lane), all read in one round trip (`rounds` a power of two).
  void complete(int64_t rounds);

  /// The sum of the chain's items before this one: one word per set bit j
  /// of p, (p with the bits below j cleared) - 1.
  Value prefix();

  /// Whether the item ends a group of kLaggedGroup positions (p + 1 a
  /// multiple of it): in a lagged chain (scale 2) only those items' Fenwick
  /// words are kept, so only they are completed.
  Value endsGroup();

  /// A lagged chain's prefix (scale 2): the aggregates of the positions of
  /// the item's group before it (p mod kLaggedGroup of them) and one kept
  /// Fenwick word per set bit j >= log2(kLaggedGroup) of p: that of (p with
  /// the bits below j cleared) - 1, which ends a group. One word a lane
  /// (laggedRead): the first pass covers chains of up to 2^20 items, a
  /// pass more 32 bits more.
  Value laggedPrefix();

  /// This lane's word of a lagged prefix's first pass (laggedRead), read
  /// once without waiting; a published 0 where it needs none, and an
  /// unpublished word in every lane for chains of 2^20 items or more,
  /// whose prefix has more words (those look back later).
  Value laggedWord();

  /// This lane's word of a lagged prefix's first pass: lanes 0-15 the
  /// aggregates of the item's group (lane l's if l < p mod 16), lanes
  /// 16-31 the kept words for bits 4-19 of p.
  LaneRead laggedRead(OpBuilder &ob);

  /// The kept Fenwick word for bit j of p (j >= 4; none past bit 63): that
  /// of (p with the bits below j cleared) - 1.
  LaneRead wordRead(OpBuilder &ob, Value j);

private:
  /// The word index (an index value) of chain position `x` (an i64):
  /// scale * (first + x) + `shift`.
  Value wordOf(OpBuilder &ib, Value x, int64_t shift);

  using BitPredicate = function_ref<Value(OpBuilder &, Value)>;

  /// The sum over the warp of one word per lane: lane l's for bit j = l +
  /// `half`, read from `at(j)` where `need(j)` holds (others count 0),
  /// spinning until none of them is 0.
  Value sumOverLanes(OpBuilder &ob, Location l, Value half, BitPredicate need,
                     BitPredicate at);

  /// The sum over the warp of the words each lane reads (`reads`, all
  /// issued together, spinning until none is 0), each lane's added in the
  /// order of `reads` before the lanes are: an association fixed by the
  /// lane numbers.
  Value sumOverLanes(OpBuilder &ob, Location l, ArrayRef<LaneRead> reads);

  /// sumOverLanes over bits 0..31, and 32..63 only for chains of 2^32
  /// chunks and more (a second pass, only then: fewer registers live in
  /// the common case).
  Value overHalves(BitPredicate need, BitPredicate at);
};

} // namespace mlir::tcu::gpu_lowering

#endif // TCUC_CONVERSION_TCUMMATOGPU_FENWICKCHAIN_H
