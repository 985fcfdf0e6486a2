//===- WarpBuilder.h - what one warp builds for the look-back ---*- C++ -*-===//
//
// The pieces the single-pass scans' GPU patterns share: one warp's
// constants, lane id, relaxed 64-bit state-word accesses (inline PTX),
// code run by lane 0 alone, shuffles and votes, and handing a value from
// warp 0 to its block. The look-back itself is one warp's: all 32 lanes
// run the code, and the values are the same in every lane.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUMMATOGPU_WARPBUILDER_H
#define TCUC_CONVERSION_TCUMMATOGPU_WARPBUILDER_H

#include "GPUPatterns.h"

#include "tcuc/Conversion/LookbackWord.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tcu::gpu_lowering {

/// Builds at `loc` with `b` (both shared with the caller).
struct WarpBuilder {
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

/// The sum over the 32 lanes by xor butterflies: every lane gets the same
/// value (x + y = y + x exactly), through a tree fixed by lane numbers.
inline Value warpSum(WarpBuilder &h, Value x) {
  for (int32_t d = 16; d >= 1; d /= 2) {
    Value other = gpu::ShuffleOp::create(h.b, h.loc, x, h.i32(d), h.i32(32),
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    x = h.add(x, other);
  }
  return x;
}

/// Whether `pending` holds in any lane (the same in every lane).
inline Value voteAny(OpBuilder &b, Location loc, Value pending) {
  return NVVM::VoteSyncOp::create(b, loc, b.getI1Type(),
                                  WarpBuilder{b, loc}.i32(-1), pending,
                                  NVVM::VoteSyncKindAttr::get(
                                      b.getContext(), NVVM::VoteSyncKind::any))
      .getResult();
}

/// Whether any lane's word is still unpublished (the same in every lane).
inline Value anyPending(OpBuilder &b, Location loc, Value word) {
  return voteAny(b, loc, lookback_word::buildWordIsPending(b, loc, word));
}

/// Runs `body` in warp 0 (all its lanes), stores the value it returns at
/// buffer[slot], meets the block at a barrier and returns buffer[slot] in
/// every warp.
inline Value shareFromFirstWarp(OpBuilder &b, Location loc, Value warp,
                                Value buffer, Value slot,
                                function_ref<Value()> body) {
  WarpBuilder h{b, loc};
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

} // namespace mlir::tcu::gpu_lowering

#endif // TCUC_CONVERSION_TCUMMATOGPU_WARPBUILDER_H
