//===- ChainState.cpp - the single-pass scans' ticketed chain -------------===//
//
// State words, tickets, chunk positions and prefetches shared by the
// look-back and lagged scans (ChainedScans.h).
//
//===----------------------------------------------------------------------===//

#include "ChainedScans.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcu;

namespace mlir::tcu::detail {

Value zeroedChainState(TileBuilder &tb, Value words) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Type i64 = b.getI64Type();
  // 16 words per zeroing iteration, so the buffer is a multiple of 16.
  constexpr int64_t kZeroWidth = 16;
  Value groups = tb.ceilDiv(words, kZeroWidth);
  Value state = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, i64),
      ValueRange{tb.mul(groups, kZeroWidth)});
  auto zerosType = VectorType::get({kZeroWidth}, i64);
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(zerosType, b.getI64IntegerAttr(0)));
  tb.parallel(groups, [&](Value g) {
    vector::StoreOp::create(b, loc, zeros, state,
                            ValueRange{tb.mul(g, kZeroWidth)});
  });
  return state;
}

void inFirstWarp(TileBuilder &tb, int64_t warps, function_ref<void()> body) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  tb.parallel(tb.idx(warps), [&](Value w) {
    Value isFirst =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, w, tb.idx(0));
    auto ifOp = scf::IfOp::create(b, loc, isFirst);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    body();
  });
}

void drawTicketInto(TileBuilder &tb, Value state, Value slots, Value at,
                    function_ref<SmallVector<Value>(Value)> derive) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  auto store = [&](Value v, int64_t i) {
    memref::StoreOp::create(
        b, loc, arith::IndexCastOp::create(b, loc, b.getI64Type(), v), slots,
        tb.add(at, tb.idx(i)));
  };
  Value q = TicketOp::create(b, loc, b.getIndexType(), state, tb.idx(0));
  store(q, 0);
  if (!derive)
    return;
  for (auto [i, v] : llvm::enumerate(derive(q)))
    store(v, 1 + i);
}

SmallVector<Value> readTicketSlots(TileBuilder &tb, Value slots, Value at,
                                   int64_t count) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; ++i)
    values.push_back(arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        memref::LoadOp::create(b, loc, slots, tb.add(at, tb.idx(i)))));
  return values;
}

SmallVector<Value> drawTicket(TileBuilder &tb, int64_t warps, Value state,
                              int64_t derived,
                              function_ref<SmallVector<Value>(Value)> derive) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value slot = memref::AllocOp::create(
      b, loc, MemRefType::get({1 + derived}, b.getI64Type()));
  inFirstWarp(tb, warps, [&] {
    drawTicketInto(tb, state, slot, tb.idx(0), [&](Value q) {
      SmallVector<Value> values = derive ? derive(q) : SmallVector<Value>();
      assert(values.size() == size_t(derived) && "derive's count");
      return values;
    });
  });
  SmallVector<Value> shared = readTicketSlots(tb, slot, tb.idx(0), 1 + derived);
  memref::DeallocOp::create(b, loc, slot);
  return shared;
}

int64_t chunksOfInput(const Collective &c, int64_t chunkLength, int64_t bytes) {
  int64_t chunkBytes = chunkLength * getElementBytes(inputElementType(c.input));
  return std::max<int64_t>(1, bytes / chunkBytes);
}

int64_t prefetchChunksOf(const Collective &c, ChainScheduleAttr schedule,
                         int64_t chunkLength) {
  int64_t bytes = schedule ? schedule.getPrefetchBytes() : 0;
  return bytes ? chunksOfInput(c, chunkLength, bytes) : 0;
}

ChainItems chainItems(TileBuilder &tb, const Collective &c,
                      int64_t chunkLength) {
  int64_t chunks = (walkSpan(c) + chunkLength - 1) / chunkLength;
  Value perSegment = tb.min(tb.idx(chunks), tb.ceilDiv(c.n, chunkLength));
  return {perSegment, arith::MulIOp::create(tb.builder(), tb.location(),
                                            c.numSegments, perSegment)};
}

void prefetchChunk(TileBuilder &tb, const Collective &c, Value item,
                   Value items, Value perSegment, int64_t chunkLength) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  auto ifOp = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, item, items));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value seg = arith::DivUIOp::create(b, loc, item, perSegment);
  TileRange walk = segmentWalk(tb, c, tb.mul(seg, c.segmentSize));
  Value base =
      tb.add(walk.base, tb.mul(arith::RemUIOp::create(b, loc, item, perSegment),
                               chunkLength));
  Value end = tb.min(tb.add(base, tb.idx(chunkLength)), walk.end);
  // A chunk past the input (the last segment cut short) has no elements.
  Value count = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, end, base), tb.idx(0));
  tb.prefetch(c.input, base, count);
}

ChainChunk chainChunk(TileBuilder &tb, const Collective &c, Value item,
                      Value perSegment, int64_t chunkLength) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  Value seg = arith::DivUIOp::create(b, loc, item, perSegment);
  Value chunk = arith::RemUIOp::create(b, loc, item, perSegment);
  Value segBase = tb.mul(seg, c.segmentSize);
  TileRange walk = segmentWalk(tb, c, segBase);
  return {tb.add(walk.base, tb.mul(chunk, chunkLength)), walk.end, walk.from,
          tb.add(item, tb.idx(1)),
          tb.add(arith::MulIOp::create(b, loc, seg, perSegment), tb.idx(1))};
}

} // namespace mlir::tcu::detail
