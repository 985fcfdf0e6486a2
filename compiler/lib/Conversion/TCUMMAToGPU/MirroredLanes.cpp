//===- MirroredLanes.cpp - mirrored lanes-order tiles as vectors ----------===//
//
// Lane L of a mirrored tile holds logical elements laneStart + s (s < 8),
// physical q + 7 - s with q = m - laneStart - 7: eight consecutive elements
// backwards. With r = q mod 8 (counted from the buffer's aligned address;
// the same in every lane, the lanes being 8 elements apart) the lane's
// elements are positions r..7 of the aligned chunk at A = q - r and 0..r-1
// of the next one, which is lane L - 1's chunk. Loads read both chunks and
// pick; stores take the next lane's r elements by a shuffle and write the
// lane's own chunk whole (docs/algorithms.md#reverse-scans). r = 0 (n a
// multiple of 8, as in a forward scan's aligned tiles) needs one chunk.
//
//===----------------------------------------------------------------------===//

#include "MirroredLanes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcu;

namespace {

constexpr int64_t kLaneSlots = 8, kTileElements = 256;

struct Emit {
  OpBuilder &b;
  Location loc;

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, int64_t k) {
    return k ? arith::AddIOp::create(b, loc, x, idx(k)).getResult() : x;
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
};

/// The lane's chunk geometry and whether the vector path may run.
struct Chunks {
  Value r;     // the lane's lowest physical element mod 8 (uniform)
  Value start; // A: the lane's aligned chunk
  Value whole; // the tile is inside [from, limit) and its chunks inside
               // the buffer (uniform: every operand is the warp's)
};

Chunks chunks(Emit &h, const gpu_lowering::MirroredTile &t,
              bool readsNextChunk) {
  using P = arith::CmpIPredicate;
  auto type = cast<MemRefType>(t.buffer.getType());
  int64_t eltBytes = type.getElementTypeBitWidth() / 8;
  Value q = h.add(h.sub(t.mirror, t.laneStart), -(kLaneSlots - 1));
  Value ptr =
      memref::ExtractAlignedPointerAsIndexOp::create(h.b, h.loc, t.buffer);
  Value first = arith::DivUIOp::create(h.b, h.loc, ptr, h.idx(eltBytes));
  Value r =
      arith::AndIOp::create(h.b, h.loc, h.add(first, q), h.idx(kLaneSlots - 1));
  Chunks c{r, h.sub(q, r), Value()};
  // Logical: [base, base + 256) in [from, limit).
  Value whole = h.cmp(P::slt, h.add(t.base, kTileElements - 1), t.limit);
  if (t.from)
    whole = h.both(whole, h.cmp(P::sge, t.base, t.from));
  // Physical: the lowest chunk (lane 31's) from 0, the highest element
  // touched (lane 0's last, or the end of its next chunk) below the size.
  Value tileTop = h.sub(t.mirror, t.base);
  Value lowest = h.add(h.sub(tileTop, r), -(kTileElements - 1));
  whole = h.both(whole, h.cmp(P::sge, lowest, h.idx(0)));
  Value top = tileTop;
  if (readsNextChunk) {
    // r = 0: the lane's own chunk ends at its last element; else the next
    // chunk's end, A + 15.
    Value aligned = h.cmp(P::eq, r, h.idx(0));
    top = arith::SelectOp::create(h.b, h.loc, aligned, tileTop,
                                  h.add(h.sub(tileTop, r), kLaneSlots));
  }
  Value size = memref::DimOp::create(h.b, h.loc, t.buffer, 0);
  c.whole = h.both(whole, h.cmp(P::slt, top, size));
  return c;
}

VectorType chunkType(Value buffer) {
  return VectorType::get({kLaneSlots},
                         cast<MemRefType>(buffer.getType()).getElementType());
}

Value loadChunk(Emit &h, Value buffer, Value at) {
  VectorType type = chunkType(buffer);
  return vector::LoadOp::create(
      h.b, h.loc, type, buffer, ValueRange{at}, /*nontemporal=*/false,
      llvm::MaybeAlign(kLaneSlots * type.getElementTypeBitWidth() / 8));
}

void storeChunk(Emit &h, Value chunk, Value buffer, Value at) {
  VectorType type = chunkType(buffer);
  vector::StoreOp::create(
      h.b, h.loc, chunk, buffer, ValueRange{at}, /*nontemporal=*/false,
      llvm::MaybeAlign(kLaneSlots * type.getElementTypeBitWidth() / 8));
}

/// pick(r) for r in 1..7 (7 where r is none of 1..6).
Value switchOnR(Emit &h, Value r, Type type,
                function_ref<Value(OpBuilder &, int64_t)> pick) {
  Value v = pick(h.b, kLaneSlots - 1);
  for (int64_t k = kLaneSlots - 2; k >= 1; --k)
    v = arith::SelectOp::create(h.b, h.loc,
                                h.cmp(arith::CmpIPredicate::eq, r, h.idx(k)),
                                pick(h.b, k), v);
  return v;
}

/// `x` of the next lane (lane 31's own): shuffled as 32-bit words.
Value fromNextLane(Emit &h, Value x) {
  auto type = cast<VectorType>(x.getType());
  int64_t words = type.getNumElements() * type.getElementTypeBitWidth() / 32;
  auto wordsType = VectorType::get({words}, h.b.getI32Type());
  Value w = vector::BitCastOp::create(h.b, h.loc, wordsType, x);
  SmallVector<Value> shuffled;
  for (int64_t i = 0; i < words; ++i) {
    Value word = vector::ExtractOp::create(h.b, h.loc, w, i);
    shuffled.push_back(
        gpu::ShuffleOp::create(h.b, h.loc, word, 1, 32, gpu::ShuffleMode::DOWN)
            .getShuffleResult());
  }
  return vector::BitCastOp::create(
      h.b, h.loc, type,
      vector::FromElementsOp::create(h.b, h.loc, wordsType, shuffled));
}

SmallVector<int64_t> reversed() {
  SmallVector<int64_t> mask;
  for (int64_t s = 0; s < kLaneSlots; ++s)
    mask.push_back(kLaneSlots - 1 - s);
  return mask;
}

} // namespace

SmallVector<Value> gpu_lowering::loadMirroredLanes(
    OpBuilder &b, Location loc, const MirroredTile &tile,
    function_ref<SmallVector<Value>(OpBuilder &, Location)> elementwise) {
  Emit h{b, loc};
  Chunks c = chunks(h, tile, /*readsNextChunk=*/true);
  VectorType type = chunkType(tile.buffer);
  SmallVector<Type> slotTypes(kLaneSlots, type.getElementType());
  auto ifOp = scf::IfOp::create(
      b, loc, c.whole,
      [&](OpBuilder &tb, Location l) {
        Emit t{tb, l};
        auto aligned = scf::IfOp::create(
            tb, l, t.cmp(arith::CmpIPredicate::eq, c.r, t.idx(0)),
            [&](OpBuilder &ab, Location al) {
              Emit a{ab, al};
              Value own = loadChunk(a, tile.buffer, c.start);
              scf::YieldOp::create(
                  ab, al,
                  vector::ShuffleOp::create(ab, al, own, own, reversed())
                      .getResult());
            },
            [&](OpBuilder &eb, Location el) {
              Emit e{eb, el};
              Value own = loadChunk(e, tile.buffer, c.start);
              Value next =
                  loadChunk(e, tile.buffer, e.add(c.start, kLaneSlots));
              // Slot s is element r + 7 - s of the two chunks.
              Value v = switchOnR(e, c.r, type, [&](OpBuilder &sb, int64_t k) {
                SmallVector<int64_t> mask;
                for (int64_t s = 0; s < kLaneSlots; ++s)
                  mask.push_back(k + kLaneSlots - 1 - s);
                return vector::ShuffleOp::create(sb, el, own, next, mask)
                    .getResult();
              });
              scf::YieldOp::create(eb, el, v);
            });
        SmallVector<Value> slots;
        for (int64_t s = 0; s < kLaneSlots; ++s)
          slots.push_back(
              vector::ExtractOp::create(tb, l, aligned.getResult(0), s));
        scf::YieldOp::create(tb, l, slots);
      },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(eb, l, elementwise(eb, l));
      });
  return SmallVector<Value>(ifOp.getResults());
}

void gpu_lowering::storeMirroredLanes(
    OpBuilder &b, Location loc, const MirroredTile &tile, ArrayRef<Value> slots,
    function_ref<void(OpBuilder &, Location)> elementwise) {
  using P = arith::CmpIPredicate;
  Emit h{b, loc};
  Chunks c = chunks(h, tile, /*readsNextChunk=*/false);
  VectorType type = chunkType(tile.buffer);
  scf::IfOp::create(
      b, loc, c.whole,
      [&](OpBuilder &tb, Location l) {
        Emit t{tb, l};
        Value own = vector::FromElementsOp::create(tb, l, type, slots);
        scf::IfOp::create(
            tb, l, t.cmp(P::eq, c.r, t.idx(0)),
            [&](OpBuilder &ab, Location al) {
              Emit a{ab, al};
              storeChunk(
                  a, vector::ShuffleOp::create(ab, al, own, own, reversed()),
                  tile.buffer, c.start);
              scf::YieldOp::create(ab, al);
            },
            [&](OpBuilder &eb, Location el) {
              Emit e{eb, el};
              // Chunk element j: the lane's slot r + 7 - j from j = r, the
              // next lane's slot r - 1 - j below.
              Value next = fromNextLane(e, own);
              Value chunk =
                  switchOnR(e, c.r, type, [&](OpBuilder &sb, int64_t k) {
                    SmallVector<int64_t> mask;
                    for (int64_t j = 0; j < kLaneSlots; ++j)
                      mask.push_back(j >= k ? k + kLaneSlots - 1 - j
                                            : kLaneSlots + k - 1 - j);
                    return vector::ShuffleOp::create(sb, el, own, next, mask)
                        .getResult();
                  });
              Value lane = gpu::LaneIdOp::create(eb, el, nullptr);
              Value last = e.cmp(P::eq, lane, e.idx(31));
              Value firstLane = e.cmp(P::eq, lane, e.idx(0));
              // Lane 31's chunk holds the next tile's elements: it stores
              // its slots from r alone; lane 0 its slots below r, which lie
              // in the chunk above the tile's.
              scf::IfOp vectorStore =
                  scf::IfOp::create(eb, el, e.cmp(P::ult, lane, e.idx(31)));
              {
                OpBuilder::InsertionGuard guard(eb);
                eb.setInsertionPointToStart(vectorStore.thenBlock());
                storeChunk(e, chunk, tile.buffer, c.start);
              }
              for (int64_t s = 0; s < kLaneSlots; ++s) {
                Value alone = arith::SelectOp::create(
                    eb, el, e.cmp(P::ult, e.idx(s), c.r), firstLane, last);
                auto ifOp = scf::IfOp::create(eb, el, alone);
                OpBuilder::InsertionGuard guard(eb);
                eb.setInsertionPointToStart(ifOp.thenBlock());
                Value at = e.add(e.sub(tile.mirror, tile.laneStart), -s);
                memref::StoreOp::create(eb, el, slots[s], tile.buffer, at);
              }
              scf::YieldOp::create(eb, el);
            });
        scf::YieldOp::create(tb, l);
      },
      [&](OpBuilder &eb, Location l) {
        elementwise(eb, l);
        scf::YieldOp::create(eb, l);
      });
}
