//===- LaneFragments.cpp - one lane's share of a 16x16 tile ---------------===//

#include "LaneFragments.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"

#include <array>

#include "tcuc/Conversion/DecayPowers.h"
#include "tcuc/Conversion/Passes.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

int gpu_lowering::slotRow(int lane, int s) {
  return lane / 4 + 8 * ((s >> 1) & 1);
}
int gpu_lowering::slotCol(int lane, int s) {
  return 2 * (lane % 4) + (s & 1) + 8 * (s >> 2);
}

LaneSlot gpu_lowering::laneSlotOf(int row, int col) {
  LaneSlot at{4 * (row % 8) + (col % 8) / 2,
              (col & 1) | ((row / 8) << 1) | ((col / 8) << 2)};
  assert(slotRow(at.lane, at.slot) == row && slotCol(at.lane, at.slot) == col);
  return at;
}

VectorType gpu_lowering::fragmentType(Type elementType) {
  return VectorType::get({kSlots}, elementType);
}

static Value index(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value LanePosition::row(OpBuilder &b, Location loc, int s) const {
  int64_t off = slotRow(0, s); // lane 0 holds the slot's part alone
  return off ? arith::AddIOp::create(b, loc, g, index(b, loc, off)).getResult()
             : g;
}

Value LanePosition::col(OpBuilder &b, Location loc, int s) const {
  Value twoT = arith::MulIOp::create(b, loc, t, index(b, loc, 2));
  int64_t off = slotCol(0, s);
  return off ? arith::AddIOp::create(b, loc, twoT, index(b, loc, off))
                   .getResult()
             : twoT;
}

LanePosition gpu_lowering::getLanePosition(OpBuilder &b, Location loc) {
  LanePosition p;
  Value lane = gpu::LaneIdOp::create(b, loc, /*upper_bound=*/nullptr);
  p.g = arith::DivUIOp::create(b, loc, lane, index(b, loc, 4));
  p.t = arith::RemUIOp::create(b, loc, lane, index(b, loc, 4));
  return p;
}

/// Whether `v` is a constant whose every element is +0.0.
static bool isPositiveZeroSplat(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  auto dense = c ? dyn_cast<DenseFPElementsAttr>(c.getValue()) : nullptr;
  return dense && dense.isSplat() && dense.getSplatValue<APFloat>().isPosZero();
}

/// A 32-bit table of one bit per lane: bit l = entry(l).
static uint32_t laneTable(llvm::function_ref<bool(int lane)> entry) {
  uint32_t table = 0;
  for (int l = 0; l < 32; ++l)
    table |= uint32_t(entry(l)) << l;
  return table;
}

/// This lane's bit of `table` (`lane`: the lane id as i32), an i1.
static Value laneBit(OpBuilder &b, Location loc, uint32_t table, Value lane) {
  Value bits = arith::ConstantOp::create(
      b, loc, b.getI32IntegerAttr(static_cast<int32_t>(table)));
  Value shifted = arith::ShRUIOp::create(b, loc, bits, lane);
  return arith::TruncIOp::create(b, loc, b.getI1Type(), shifted);
}

static Value laneId32(OpBuilder &b, Location loc) {
  return arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                    gpu::LaneIdOp::create(b, loc, nullptr));
}

Value gpu_lowering::buildMatrixFragment(OpBuilder &b, Location loc,
                                        MatrixKind kind, int block,
                                        bool transposed, Type elementType) {
  Value lane = laneId32(b, loc);
  Value one =
      isa<FloatType>(elementType)
          ? arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, 1.0))
                .getResult()
          : arith::ConstantOp::create(b, loc, b.getIntegerAttr(elementType, 1))
                .getResult();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
  SmallVector<Value> slots;
  for (int s = 0; s < kSlots; ++s) {
    // Bit l: the entry lane l holds in slot s.
    uint32_t table = laneTable([&](int l) {
      int r = slotRow(l, s), c = slotCol(l, s);
      return transposed ? matrixEntry(kind, c, r, block)
                        : matrixEntry(kind, r, c, block);
    });
    Value bit = laneBit(b, loc, table, lane);
    slots.push_back(arith::SelectOp::create(b, loc, bit, one, zero));
  }
  return vector::FromElementsOp::create(b, loc, fragmentType(elementType),
                                        slots);
}

Value gpu_lowering::buildEntriesFragment(
    OpBuilder &b, Location loc, function_ref<double(int row, int col)> entry,
    bool transposed, Type elementType) {
  Value lane = laneId32(b, loc);
  auto constant = [&](double v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, v));
  };
  SmallVector<Value> slots;
  for (int s = 0; s < kSlots; ++s) {
    std::array<double, 32> values;
    for (int l = 0; l < 32; ++l) {
      int r = slotRow(l, s), c = slotCol(l, s);
      values[l] = transposed ? entry(c, r) : entry(r, c);
    }
    Value slot = constant(values[0]);
    SmallVector<double> seen{values[0]};
    for (double v : values) {
      if (llvm::is_contained(seen, v))
        continue;
      seen.push_back(v);
      uint32_t table = laneTable([&](int l) { return values[l] == v; });
      slot = arith::SelectOp::create(b, loc, laneBit(b, loc, table, lane),
                                     constant(v), slot);
    }
    slots.push_back(slot);
  }
  return vector::FromElementsOp::create(b, loc, fragmentType(elementType),
                                        slots);
}

Value gpu_lowering::buildDecayFragment(OpBuilder &b, Location loc,
                                       DecayMatrixOp op, Value decay,
                                       bool transposed) {
  Type elt = op.getType().getElementType();
  if (!decay)
    return buildEntriesFragment(
        b, loc, [&](int r, int c) { return op.getEntry(r, c); }, transposed,
        elt);
  DecayMatrixKind kind = op.getKind();
  Value lane = laneId32(b, loc);
  auto i32 = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value g = arith::DivUIOp::create(b, loc, lane, i32(4));
  Value t = arith::RemUIOp::create(b, loc, lane, i32(4));
  SmallVector<Value> powers, valid;
  for (int s = 0; s < kSlots; ++s) {
    // Entry (r, c) of the slot at lane l (of the transpose: (c, r)).
    auto at = [&](int l, auto f) {
      int r = slotRow(l, s), c = slotCol(l, s);
      return transposed ? f(kind, c, r) : f(kind, r, c);
    };
    // The power is affine in r and c, so in g = l / 4 and t = l % 4.
    int e0 = at(0, DecayMatrixOp::affinePower);
    int perG = at(4, DecayMatrixOp::affinePower) - e0;
    int perT = at(1, DecayMatrixOp::affinePower) - e0;
    for (int l = 0; l < 32; ++l)
      assert(at(l, DecayMatrixOp::affinePower) ==
                 e0 + perG * (l / 4) + perT * (l % 4) &&
             "decay powers are affine in the lane");
    Value k = arith::AddIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, i32(e0),
                              arith::MulIOp::create(b, loc, g, i32(perG))),
        arith::MulIOp::create(b, loc, t, i32(perT)));
    Value has = laneBit(b, loc, laneTable([&](int l) {
                          return at(l, DecayMatrixOp::power).has_value();
                        }),
                        lane);
    // Where the entry is 0 the affine power may be negative: use 0.
    powers.push_back(arith::SelectOp::create(b, loc, has, k, i32(0)));
    valid.push_back(has);
  }
  Value k = vector::FromElementsOp::create(
      b, loc, VectorType::get({kSlots}, b.getI32Type()), powers);
  Value has = vector::FromElementsOp::create(
      b, loc, VectorType::get({kSlots}, b.getI1Type()), valid);
  return decay_powers::buildEntries(b, loc, decay, k, has,
                                    static_cast<int64_t>(op.getPart()),
                                    static_cast<int64_t>(op.getScale()), elt);
}

/// Register pair q (slots 2q, 2q+1) of a 16-bit fragment as an mma operand
/// register: vector<2xf16> for f16, i32 for bf16 (NVVM's operand types).
static Value operandRegister(OpBuilder &b, Location loc, Value fragment,
                             int q) {
  auto type = cast<VectorType>(fragment.getType());
  // f16 keeps its slots gathered into a 2-vector (the bf16 path's shuffle
  // would serve too, but it changes the SASS of 139 of the grid's f16
  // kernels, the reductions' included, which were not re-timed).
  if (type.getElementType().isF16()) {
    Value lo =
        vector::ExtractOp::create(b, loc, fragment, ArrayRef<int64_t>{2 * q});
    Value hi = vector::ExtractOp::create(b, loc, fragment,
                                         ArrayRef<int64_t>{2 * q + 1});
    return vector::FromElementsOp::create(
        b, loc, VectorType::get({2}, b.getF16Type()), ValueRange{lo, hi});
  }
  Value pair = vector::ShuffleOp::create(b, loc, fragment, fragment,
                                         ArrayRef<int64_t>{2 * q, 2 * q + 1});
  // bf16 pairs travel as one i32 (low half = slot 2q): a bitcast of the
  // pair, not halves shifted and or-ed, which ptxas (CUDA 13.0) kept as
  // two PRMT a register (bench/results/lagged-f16-0.6.24).
  Value word = vector::BitCastOp::create(
      b, loc, VectorType::get({1}, b.getI32Type()), pair);
  return vector::ExtractOp::create(b, loc, word, int64_t(0));
}

Value gpu_lowering::buildMMA(OpBuilder &b, Location loc, Value lhs, Value rhsT,
                             Value acc) {
  Type elt = cast<VectorType>(lhs.getType()).getElementType();
  bool integer = elt.isSignlessInteger(8);
  if (integer) {
    lhs = arith::SIToFPOp::create(b, loc, fragmentType(b.getF16Type()), lhs);
    rhsT = arith::SIToFPOp::create(b, loc, fragmentType(b.getF16Type()), rhsT);
    elt = b.getF16Type();
  }
  Type f32 = b.getF32Type();
  SmallVector<Value> a, d;
  for (int q = 0; q < 4; ++q)
    a.push_back(operandRegister(b, loc, lhs, q));
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  NVVM::MMATypes ptxType =
      elt.isF16() ? NVVM::MMATypes::f16 : NVVM::MMATypes::bf16;
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  for (int j = 0; j < 2; ++j) {
    // B fragment of columns 8j..8j+7: register pairs j and j + 2 of B^T.
    SmallVector<Value> bRegs = {operandRegister(b, loc, rhsT, j),
                                operandRegister(b, loc, rhsT, j + 2)};
    SmallVector<Value> c(4, zero);
    auto mma = NVVM::MmaOp::create(
        b, loc, resultType, a, bRegs, c, ArrayRef<int64_t>{16, 8, 16},
        std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    for (int i = 0; i < 4; ++i)
      d.push_back(LLVM::ExtractValueOp::create(b, loc, mma.getRes(),
                                               ArrayRef<int64_t>{i}));
  }
  Value result = vector::FromElementsOp::create(b, loc, fragmentType(f32), d);
  if (!integer) {
    // A +0 accumulator adds nothing: the mma already summed its products
    // onto +0 (C above), so `+0 + result` is `result` again. LLVM keeps
    // such adds (+0 + x is not x for x = -0), one FADD a slot.
    if (isPositiveZeroSplat(acc))
      return result;
    return arith::AddFOp::create(b, loc, acc, result);
  }
  Value products = arith::FPToSIOp::create(b, loc, acc.getType(), result);
  return arith::AddIOp::create(b, loc, acc, products);
}

Value gpu_lowering::anyNonFinite(OpBuilder &b, Location loc, Value fragment) {
  // x · 0 is ±0 for finite x and NaN for NaN and ±Inf, and a NaN addend
  // keeps an fma NaN: fma(x1, 0, fma(x0, 0, ...)) over the lane's register
  // pairs is NaN exactly when one of its elements is not finite. Pairs, so
  // that 16-bit data takes packed fma.rn.f16x2 / bf16x2 (also on sm_80,
  // which has no bf16x2 add): 4 packed fmas and one add for 8 elements,
  // where `x - x` (4 packed) summed in order took 8 scalar adds more.
  auto type = cast<VectorType>(fragment.getType());
  assert(type.getNumElements() == kSlots && "a lane's fragment");
  auto pairType = VectorType::get({2}, type.getElementType());
  Value zero = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(pairType, b.getZeroAttr(type.getElementType())));
  Value acc;
  for (int64_t i = 0; i < kSlots; i += 2) {
    Value pair = vector::ShuffleOp::create(b, loc, fragment, fragment,
                                           ArrayRef<int64_t>{i, i + 1});
    acc = acc ? LLVM::FMAOp::create(b, loc, pair, zero, acc).getResult()
              : arith::MulFOp::create(b, loc, pair, zero).getResult();
  }
  // Named first: argument evaluation order would make the IR compiler-
  // dependent.
  Value lo = vector::ExtractOp::create(b, loc, acc, int64_t(0));
  Value hi = vector::ExtractOp::create(b, loc, acc, int64_t(1));
  Value sum = arith::AddFOp::create(b, loc, lo, hi);
  Value mine =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, sum, sum);
  Value all = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(-1));
  return NVVM::VoteSyncOp::create(b, loc, b.getI1Type(), all, mine,
                                  NVVM::VoteSyncKind::any);
}

Value gpu_lowering::anyTiny(OpBuilder &b, Location loc, Value fragment) {
  // |x|'s bits b: 0 < b < bits(2^-110) is one unsigned compare of b - 1.
  Type i32 = b.getI32Type();
  auto c = [&](uint32_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(v)));
  };
  Value any;
  for (int64_t s = 0; s < kSlots; ++s) {
    Value bits = arith::BitcastOp::create(
        b, loc, i32, vector::ExtractOp::create(b, loc, fragment, s));
    Value magnitude = arith::AndIOp::create(b, loc, bits, c(0x7FFFFFFF));
    Value tiny = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult,
        arith::SubIOp::create(b, loc, magnitude, c(1)), c(0x087FFFFF));
    any = any ? arith::OrIOp::create(b, loc, any, tiny).getResult() : tiny;
  }
  Value all = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(-1));
  return NVVM::VoteSyncOp::create(b, loc, b.getI1Type(), all, any,
                                  NVVM::VoteSyncKind::any);
}

Value gpu_lowering::warpScratch(OpBuilder &b, Location loc, Operation *at,
                                StringRef name, Type elt, int64_t perWarp) {
  auto module = at->getParentOfType<gpu::GPUModuleOp>();
  assert(module && "exact paths are lowered inside a gpu.module");
  auto blockAttr = module->getAttrOfType<IntegerAttr>(kPlanBlockAttr);
  int64_t warps =
      blockAttr ? std::max<int64_t>(blockAttr.getInt() / 32, 1) : 32;
  auto type = MemRefType::get({warps * perWarp}, elt, AffineMap(),
                              b.getI64IntegerAttr(3)); // shared memory
  if (!SymbolTable::lookupSymbolIn(module, name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    memref::GlobalOp::create(b, loc, name, b.getStringAttr("private"), type,
                             Attribute(), /*constant=*/false,
                             /*alignment=*/b.getI64IntegerAttr(16));
  }
  return memref::GetGlobalOp::create(b, loc, type, name);
}

Value gpu_lowering::opaqueIndex(OpBuilder &b, Location loc, StringRef text) {
  Value v = LLVM::InlineAsmOp::create(b, loc, b.getI32Type(), ValueRange{},
                                      text, "=r",
                                      /*has_side_effects=*/true,
                                      /*is_align_stack=*/false,
                                      LLVM::tailcallkind::TailCallKind::None,
                                      /*asm_dialect=*/LLVM::AsmDialectAttr(),
                                      /*operand_attrs=*/ArrayAttr())
                .getResult(0);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

/// The exact products' common part: the data into the warp's tile of
/// workgroup memory, then each output slot s as the sum over the k that
/// `maskOf(s)` (an i64 whose bit k selects k) selects, plus the
/// accumulator. `maskOf` runs once the lane position is known.
using SlotMask =
    function_ref<Value(OpBuilder &, Location, const LanePosition &, int)>;
static Value selectedSums(OpBuilder &b, Location loc, Operation *at,
                          bool constOnLeft, Value data, Value acc,
                          SlotMask maskOf) {
  Type f32 = b.getF32Type();

  // One 16x16 tile of workgroup memory per warp, of the data's 16-bit type
  // (2 KB for a block of 4 warps: small, since the L1 cache shares the
  // space), shared by every exact product of that type in the module's
  // kernels (a warp runs one at a time).
  Type elt = cast<VectorType>(data.getType()).getElementType();
  std::string name = elt.isBF16()  ? "tcuc_exact_tiles_bf16"
                     : elt.isF32() ? "tcuc_exact_tiles_f32"
                                   : "tcuc_exact_tiles_f16";
  Value buffer = warpScratch(b, loc, at, name, elt, 256);

  // The lane and warp ids, and the loop's trip count, from asm statements
  // with a side effect: nothing derived from them is hoisted out of this
  // rarely taken branch into the kernel's loops, and the loop over k stays
  // a loop.
  auto asmValue = [&](StringRef text) { return opaqueIndex(b, loc, text); };
  Value laneIdx = asmValue("mov.u32 $0, %laneid;");
  Value warp = asmValue("mov.u32 $0, %tid.x;");
  Value sixteen = asmValue("mov.u32 $0, 16;");
  Value base = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, warp, index(b, loc, 32)),
      index(b, loc, 256));
  LanePosition pos;
  pos.g = arith::DivUIOp::create(b, loc, laneIdx, index(b, loc, 4));
  pos.t = arith::RemUIOp::create(b, loc, laneIdx, index(b, loc, 4));
  auto at16 = [&](Value r, Value c) -> Value {
    return arith::AddIOp::create(
        b, loc, base,
        arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, r, index(b, loc, 16)), c));
  };
  auto syncWarp = [&] {
    NVVM::SyncWarpOp::create(
        b, loc, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(-1)));
  };

  // The fragment's matrix M (X for X · K, X^T for K · X) into the warp's
  // tile.
  syncWarp(); // the previous exact product's reads are done
  for (int s = 0; s < kSlots; ++s) {
    Value x = vector::ExtractOp::create(b, loc, data, ArrayRef<int64_t>{s});
    memref::StoreOp::create(
        b, loc, x, buffer,
        ValueRange{at16(pos.row(b, loc, s), pos.col(b, loc, s))});
  }
  syncWarp();

  // Output slot s, (r, c): the f32 sum, in order of k, of M(m, k) over the
  // selected k (K(r, k) for K · X with m = c; K(k, c) for X · K with
  // m = r), then C(r, c) added. One slot at a time: a sum, k and an address
  // live beside what the kernel already holds.
  Value negZero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(-0.0));
  Type i64 = b.getI64Type();
  SmallVector<Value> out;
  for (int s = 0; s < kSlots; ++s) {
    Value mask = maskOf(b, loc, pos, s);
    Value m = constOnLeft ? pos.col(b, loc, s) : pos.row(b, loc, s);
    auto loop = scf::ForOp::create(b, loc, index(b, loc, 0), sixteen,
                                   index(b, loc, 1), ValueRange{negZero});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value k = loop.getInductionVar();
      Value sum = loop.getRegionIterArgs()[0];
      Value x = memref::LoadOp::create(b, loc, buffer, ValueRange{at16(m, k)});
      if (!elt.isF32())
        x = arith::ExtFOp::create(b, loc, f32, x);
      Value selected = arith::TruncIOp::create(
          b, loc, b.getI1Type(),
          arith::ShRUIOp::create(b, loc, mask,
                                 arith::IndexCastOp::create(b, loc, i64, k)));
      Value added = arith::AddFOp::create(b, loc, sum, x);
      scf::YieldOp::create(
          b, loc,
          ValueRange{arith::SelectOp::create(b, loc, selected, added, sum)});
    }
    Value cs = vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{s});
    out.push_back(arith::AddFOp::create(b, loc, loop.getResult(0), cs));
  }
  return vector::FromElementsOp::create(b, loc, fragmentType(f32), out);
}

Value gpu_lowering::buildSelectedSums(OpBuilder &b, Location loc, Operation *at,
                                      MatrixKind kind, int block,
                                      bool constOnLeft, Value data, Value acc) {
  // Which k a lane selects depends on it only through g (r = g + 8 ((s >>
  // 1) & 1)) or t (c = 2t + (s & 1) + 8 (s >> 2)): a 16-bit mask of
  // tcu::matrixEntry per g or t, four to a 64-bit constant.
  return selectedSums(
      b, loc, at, constOnLeft, data, acc,
      [&](OpBuilder &b, Location loc, const LanePosition &pos, int s) {
        Type i64 = b.getI64Type();
        auto i64Const = [&](uint64_t v) -> Value {
          return arith::ConstantOp::create(b, loc,
                                           b.getI64IntegerAttr(int64_t(v)));
        };
        Value who = constOnLeft ? pos.g : pos.t;
        Value whoHigh = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                              who, index(b, loc, 4));
        Value shift = arith::IndexCastOp::create(
            b, loc, i64,
            arith::MulIOp::create(
                b, loc, arith::RemUIOp::create(b, loc, who, index(b, loc, 4)),
                index(b, loc, 16)));
        uint64_t words[2] = {0, 0};
        for (int w = 0; w < (constOnLeft ? 8 : 4); ++w)
          for (int k = 0; k < 16; ++k) {
            bool on = constOnLeft
                          ? matrixEntry(kind, w + 8 * ((s >> 1) & 1), k, block)
                          : matrixEntry(kind, k, 2 * w + (s & 1) + 8 * (s >> 2),
                                        block);
            if (on)
              words[w / 4] |= uint64_t(1) << ((w % 4) * 16 + k);
          }
        return arith::ShRUIOp::create(
                   b, loc,
                   arith::SelectOp::create(b, loc, whoHigh, i64Const(words[1]),
                                           i64Const(words[0])),
                   shift)
            .getResult();
      });
}

Value gpu_lowering::buildMaskedSums(OpBuilder &b, Location loc, Operation *at,
                                    Value lhs, Value data, Value acc) {
  // Row g of the mask matrix is spread over lanes 4g..4g+3 (slots 0, 1, 4,
  // 5; row g + 8: slots 2, 3, 6, 7): each lane sets the bits of its
  // columns, and two butterfly shuffles OR the group's.
  Type i32 = b.getI32Type();
  return selectedSums(
      b, loc, at, /*constOnLeft=*/true, data, acc,
      [&](OpBuilder &b, Location loc, const LanePosition &pos, int s) {
        Value bits = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
        for (int q : {0, 1, 4, 5}) {
          int slot = q + 2 * ((s >> 1) & 1);
          Value x =
              vector::ExtractOp::create(b, loc, lhs, ArrayRef<int64_t>{slot});
          Value on = arith::CmpFOp::create(
              b, loc, arith::CmpFPredicate::UNE, x,
              arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType())));
          Value bit = arith::ShLIOp::create(
              b, loc, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1)),
              arith::IndexCastOp::create(b, loc, i32, pos.col(b, loc, slot)));
          bits = arith::OrIOp::create(
              b, loc, bits,
              arith::SelectOp::create(
                  b, loc, on, bit,
                  arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0))));
        }
        for (int offset : {1, 2}) {
          Value other =
              gpu::ShuffleOp::create(b, loc, bits, offset, /*width=*/32,
                                     gpu::ShuffleMode::XOR)
                  .getShuffleResult();
          bits = arith::OrIOp::create(b, loc, bits, other);
        }
        return arith::ExtUIOp::create(b, loc, b.getI64Type(), bits).getResult();
      });
}
