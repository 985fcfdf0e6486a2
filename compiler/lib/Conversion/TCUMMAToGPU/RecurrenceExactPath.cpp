//===- RecurrenceExactPath.cpp - tcu.linear_recurrence element by element -===//
//
// The lanes' scan of compositions (RecurrenceOps.cpp) multiplies by a
// head's zero decay and by powers that may underflow to 0: with an Inf in
// the tile, 0·Inf would give NaN where the sequential recurrence gives a
// number. A warp whose tile holds NaN, Inf or huge values runs it
// element by element instead (docs/algorithms.md#decayed-nan-inf).
//
//===----------------------------------------------------------------------===//

#include "LaneFragments.h"
#include "WarpBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

Value gpu_lowering::needsExactRecurrence(OpBuilder &b, Location loc,
                                         Value fragment, Value init) {
  // v · 2^28 · 0 is NaN exactly when v is NaN, ±Inf or at least 2^100 in
  // magnitude (2^7 and 2^121 for init), and a NaN addend keeps an fma NaN.
  // 16-bit data in pairs (packed fmas, as anyNonFinite); f16 needs no scale
  // (its largest value is below 2^16).
  auto type = cast<VectorType>(fragment.getType());
  Type elt = type.getElementType();
  auto constant = [&](Type t, double v) -> Value {
    if (auto vt = dyn_cast<VectorType>(t))
      return arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(vt, b.getFloatAttr(vt.getElementType(), v)));
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
  };
  int64_t width = elt.isF32() ? 1 : 2;
  Type part = width == 1 ? elt : VectorType::get({2}, elt);
  Value zero = constant(part, 0.0), scale = constant(part, 0x1p28);
  Value acc;
  for (int64_t i = 0; i < kSlots; i += width) {
    Value v = width == 1
                  ? vector::ExtractOp::create(b, loc, fragment, i).getResult()
                  : vector::ShuffleOp::create(b, loc, fragment, fragment,
                                              ArrayRef<int64_t>{i, i + 1})
                        .getResult();
    if (!elt.isF16())
      v = LLVM::FMAOp::create(b, loc, v, scale, zero);
    acc = acc ? LLVM::FMAOp::create(b, loc, v, zero, acc).getResult()
              : arith::MulFOp::create(b, loc, v, zero).getResult();
  }
  if (width == 2) {
    Value lo = vector::ExtractOp::create(b, loc, acc, int64_t(0));
    Value hi = vector::ExtractOp::create(b, loc, acc, int64_t(1));
    acc = arith::AddFOp::create(b, loc, lo, hi);
  }
  Value mine =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, acc, acc);
  WarpBuilder w{b, loc};
  Value any = NVVM::VoteSyncOp::create(b, loc, b.getI1Type(), w.i32(-1), mine,
                                       NVVM::VoteSyncKind::any);
  // init is the warp's one value.
  Type f32 = b.getF32Type();
  Value probe = arith::MulFOp::create(
      b, loc, arith::MulFOp::create(b, loc, init, constant(f32, 0x1p7)),
      constant(f32, 0.0));
  Value bad = arith::OrIOp::create(
      b, loc, any,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, probe, probe));
  // Rarely taken: LLVM lays the exact path out of the fast path's way.
  return LLVM::ExpectOp::create(
      b, loc, bad, arith::ConstantOp::create(b, loc, b.getBoolAttr(false)));
}

SmallVector<Value> gpu_lowering::buildSequentialRecurrence(
    OpBuilder &b, Location loc, LinearRecurrenceOp op, ArrayRef<Value> x,
    ArrayRef<Value> decays, ArrayRef<Value> heads, Value init) {
  Type f32 = b.getF32Type();
  constexpr int64_t kElements = kTileSize * kTileSize;
  // Per warp: the 256 elements (then the results, in place), then their
  // decays (NaN at a head: a decay is finite, so NaN marks a restart).
  Value buffer =
      warpScratch(b, loc, op, "tcuc_exact_recurrence", f32, 2 * kElements);
  // Lane, warp and the loop's trip count from asm, so that nothing of this
  // rarely taken branch is hoisted into the kernel's loops and its loop
  // is not unrolled into theirs.
  auto asmValue = [&](StringRef text) { return opaqueIndex(b, loc, text); };
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto add = [&](Value p, Value q) -> Value {
    return arith::AddIOp::create(b, loc, p, q);
  };
  auto mul = [&](Value p, int64_t q) -> Value {
    return arith::MulIOp::create(b, loc, p, index(q));
  };
  Value lane = asmValue("mov.u32 $0, %laneid;");
  Value warp = arith::DivUIOp::create(b, loc, asmValue("mov.u32 $0, %tid.x;"),
                                      index(32));
  Value base = mul(warp, 2 * kElements);
  LanePosition pos;
  pos.g = arith::DivUIOp::create(b, loc, lane, index(4));
  pos.t = arith::RemUIOp::create(b, loc, lane, index(4));
  // Element e of slot s of this lane, in the op's order.
  auto elementOf = [&](int s) -> Value {
    if (op.getOrder() == ElementOrder::Lanes)
      return add(mul(lane, kSlots), index(s));
    return add(mul(pos.row(b, loc, s), kTileSize), pos.col(b, loc, s));
  };
  auto syncWarp = [&] {
    NVVM::SyncWarpOp::create(
        b, loc, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(-1)));
  };

  syncWarp(); // the previous exact path's reads are done
  Value nan = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(std::numeric_limits<float>::quiet_NaN()));
  for (int s = 0; s < kSlots; ++s) {
    Value e = add(base, elementOf(s));
    memref::StoreOp::create(b, loc, x[s], buffer, ValueRange{e});
    Value a = heads.empty()
                  ? decays[s]
                  : arith::SelectOp::create(b, loc, heads[s], nan, decays[s])
                        .getResult();
    memref::StoreOp::create(b, loc, a, buffer,
                            ValueRange{add(e, index(kElements))});
  }
  syncWarp();

  // Lane 0 runs the 256 steps, each result over its element.
  auto first = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0)),
      /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(first.thenBlock());
    auto loop =
        scf::ForOp::create(b, loc, index(0), asmValue("mov.u32 $0, 256;"),
                           index(1), ValueRange{init});
    b.setInsertionPointToStart(loop.getBody());
    Value e = loop.getInductionVar();
    Value h = loop.getRegionIterArgs()[0];
    if (op.getRows()) {
      Value rowStart = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(b, loc, e, index(kTileSize)), index(0));
      h = arith::SelectOp::create(b, loc, rowStart, init, h);
    }
    Value at = add(base, e);
    Value xe = memref::LoadOp::create(b, loc, buffer, ValueRange{at});
    Value a = memref::LoadOp::create(b, loc, buffer,
                                     ValueRange{add(at, index(kElements))});
    Value step =
        arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, a, h), xe);
    Value head = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, a, a);
    Value next = arith::SelectOp::create(b, loc, head, xe, step);
    memref::StoreOp::create(b, loc, op.getExclusive() ? h : next, buffer,
                            ValueRange{at});
    scf::YieldOp::create(b, loc, ValueRange{next});
  }
  syncWarp();
  SmallVector<Value> out;
  for (int s = 0; s < kSlots; ++s)
    out.push_back(memref::LoadOp::create(b, loc, buffer,
                                         ValueRange{add(base, elementOf(s))}));
  return out;
}
