//===- MirroredLanes.cpp - mirrored lanes-order tiles as vectors ----------===//
//
// Lane L of a mirrored tile holds logical elements laneStart + s (s < 8),
// physical q + 7 - s with q = m - laneStart - 7: eight consecutive elements
// backwards. Where q is a multiple of 8 (counted from the buffer's aligned
// address) they are one aligned chunk, moved as one vector and reversed in
// registers; the reverse decayed scans place their tiles so that it is
// (lanePhase, docs/algorithms.md#reverse-scans). Elsewhere a lane goes
// element by element.
//
//===----------------------------------------------------------------------===//

#include "MirroredLanes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcu;

namespace {

constexpr int64_t kLaneSlots = 8;

struct Emit {
  OpBuilder &b;
  Location loc;

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, int64_t k) {
    return k ? arith::AddIOp::create(b, loc, x, idx(k)).getResult() : x;
  }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
};

/// The lane's chunk (q, its lowest physical element) and where it is
/// aligned (q a multiple of 8 counted from the buffer's aligned address)
/// and inside the buffer: it can move as one vector.
std::pair<Value, Value> alignedChunk(Emit &h,
                                     const gpu_lowering::MirroredTile &t) {
  using P = arith::CmpIPredicate;
  auto type = cast<MemRefType>(t.buffer.getType());
  int64_t eltBytes = type.getElementTypeBitWidth() / 8;
  Value q = h.add(h.sub(t.mirror, t.laneStart), -(kLaneSlots - 1));
  Value ptr =
      memref::ExtractAlignedPointerAsIndexOp::create(h.b, h.loc, t.buffer);
  Value first = arith::DivUIOp::create(h.b, h.loc, ptr, h.idx(eltBytes));
  Value r = arith::AndIOp::create(h.b, h.loc,
                                  arith::AddIOp::create(h.b, h.loc, first, q),
                                  h.idx(kLaneSlots - 1));
  Value size = memref::DimOp::create(h.b, h.loc, t.buffer, 0);
  Value ok = h.both(h.cmp(P::eq, r, h.idx(0)),
                    h.both(h.cmp(P::sge, q, h.idx(0)),
                           h.cmp(P::slt, h.add(q, kLaneSlots - 1), size)));
  return {q, ok};
}

/// Whether slot s (logical laneStart + s) lies in [from, limit).
Value slotInRange(Emit &h, const gpu_lowering::MirroredTile &t, int64_t s) {
  using P = arith::CmpIPredicate;
  Value logical = h.add(t.laneStart, s);
  Value ok = h.cmp(P::slt, logical, t.limit);
  return t.from ? h.both(ok, h.cmp(P::sge, logical, t.from)) : ok;
}

/// `aligned` and the lane's slots all in [from, limit) (they are
/// consecutive: its first and last are).
Value wholeLane(Emit &h, const gpu_lowering::MirroredTile &t, Value aligned) {
  return h.both(
      aligned, h.both(slotInRange(h, t, 0), slotInRange(h, t, kLaneSlots - 1)));
}

/// `cond`, expected true: the vector path is the common one, and the
/// branch weight keeps the per-element path's registers off it
/// (docs/rationale.md#mirrored-tiles).
Value likely(Emit &h, Value cond) {
  return LLVM::ExpectOp::create(h.b, h.loc, cond,
                                arith::ConstantIntOp::create(h.b, h.loc, 1, 1));
}

VectorType chunkType(Value buffer) {
  return VectorType::get({kLaneSlots},
                         cast<MemRefType>(buffer.getType()).getElementType());
}

llvm::MaybeAlign chunkAlign(Value buffer) {
  return llvm::MaybeAlign(kLaneSlots *
                          chunkType(buffer).getElementTypeBitWidth() / 8);
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
  auto [chunk, aligned] = alignedChunk(h, tile);
  // A lane whose chunk is aligned, inside the buffer and wholly in [from,
  // limit) loads it whole.
  auto ifOp = scf::IfOp::create(
      b, loc, likely(h, wholeLane(h, tile, aligned)),
      [&](OpBuilder &tb, Location l) {
        Value own = vector::LoadOp::create(
            tb, l, chunkType(tile.buffer), tile.buffer, ValueRange{chunk},
            /*nontemporal=*/false, chunkAlign(tile.buffer));
        Value slots = vector::ShuffleOp::create(tb, l, own, own, reversed());
        SmallVector<Value> out;
        for (int64_t s = 0; s < kLaneSlots; ++s)
          out.push_back(vector::ExtractOp::create(tb, l, slots, s));
        scf::YieldOp::create(tb, l, out);
      },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(eb, l, elementwise(eb, l));
      });
  return SmallVector<Value>(ifOp.getResults());
}

void gpu_lowering::storeMirroredLanes(
    OpBuilder &b, Location loc, const MirroredTile &tile, ArrayRef<Value> slots,
    function_ref<void(OpBuilder &, Location)> elementwise) {
  Emit h{b, loc};
  auto [chunk, aligned] = alignedChunk(h, tile);
  // (Elements outside [from, limit) belong to other segments' warps.)
  scf::IfOp::create(
      b, loc, likely(h, wholeLane(h, tile, aligned)),
      [&](OpBuilder &tb, Location l) {
        Value own = vector::FromElementsOp::create(
            tb, l, chunkType(tile.buffer), slots);
        vector::StoreOp::create(
            tb, l, vector::ShuffleOp::create(tb, l, own, own, reversed()),
            tile.buffer, ValueRange{chunk}, /*nontemporal=*/false,
            chunkAlign(tile.buffer));
        scf::YieldOp::create(tb, l);
      },
      [&](OpBuilder &eb, Location l) {
        elementwise(eb, l);
        scf::YieldOp::create(eb, l);
      });
}
