//===- LaneFragments.cpp - one lane's share of a 16x16 tile ---------------===//

#include "LaneFragments.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringExtras.h"

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
  int64_t off = 8 * ((s >> 1) & 1);
  return off ? arith::AddIOp::create(b, loc, g, index(b, loc, off)).getResult()
             : g;
}

Value LanePosition::col(OpBuilder &b, Location loc, int s) const {
  Value twoT = arith::MulIOp::create(b, loc, t, index(b, loc, 2));
  int64_t off = (s & 1) + 8 * (s >> 2);
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

/// Register pair q (slots 2q, 2q+1) of a 16-bit fragment as an mma operand
/// register: vector<2xf16> for f16, i32 for bf16 (NVVM's operand types).
static Value operandRegister(OpBuilder &b, Location loc, Value fragment,
                             int q) {
  auto type = cast<VectorType>(fragment.getType());
  Value lo =
      vector::ExtractOp::create(b, loc, fragment, ArrayRef<int64_t>{2 * q});
  Value hi =
      vector::ExtractOp::create(b, loc, fragment, ArrayRef<int64_t>{2 * q + 1});
  if (type.getElementType().isF16())
    return vector::FromElementsOp::create(
        b, loc, VectorType::get({2}, b.getF16Type()), ValueRange{lo, hi});
  // bf16 pairs travel as one i32: low half = slot 2q.
  auto word = [&](Value x) -> Value {
    Value bits = arith::BitcastOp::create(b, loc, b.getI16Type(), x);
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
  };
  Value high = arith::ShLIOp::create(
      b, loc, word(hi),
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(16)));
  return arith::OrIOp::create(b, loc, word(lo), high);
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
  if (!integer)
    return arith::AddFOp::create(b, loc, acc, result);
  Value products = arith::FPToSIOp::create(b, loc, acc.getType(), result);
  return arith::AddIOp::create(b, loc, acc, products);
}

Value gpu_lowering::anyNonFinite(OpBuilder &b, Location loc, Value fragment) {
  // x - x is 0 for finite x and NaN for NaN and +-Inf; a sum of such values
  // is NaN exactly when one of them is.
  Value diff = arith::SubFOp::create(b, loc, fragment, fragment);
  Value sum =
      vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, diff);
  Value mine =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, sum, sum);
  Value all = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(-1));
  return NVVM::VoteSyncOp::create(b, loc, b.getI1Type(), all, mine,
                                  NVVM::VoteSyncKind::any);
}

Value gpu_lowering::buildSelectedSums(OpBuilder &b, Location loc,
                                      MatrixKind kind, int block,
                                      bool constOnLeft, Value data, Value acc) {
  Type f32 = b.getF32Type();
  Value wide = arith::ExtFOp::create(b, loc, fragmentType(f32), data);
  // The lane id read by an asm statement with a side effect: everything the
  // exact path derives from it (shuffle sources, selection bits) stays in
  // this rarely taken branch. From gpu.lane_id, the backend hoisted those
  // loop invariants out of the kernel's loop and kept them live in
  // registers across all of it (a 2-tile scan kernel: 72 -> 112 registers).
  Value lane = LLVM::InlineAsmOp::create(b, loc, b.getI32Type(), ValueRange{},
                                         "mov.u32 $0, %laneid;", "=r",
                                         /*has_side_effects=*/true,
                                         /*is_align_stack=*/false,
                                         LLVM::tailcallkind::TailCallKind::None,
                                         /*asm_dialect=*/LLVM::AsmDialectAttr(),
                                         /*operand_attrs=*/ArrayAttr())
                   .getResult(0);
  Value laneIdx = arith::IndexCastOp::create(b, loc, b.getIndexType(), lane);
  LanePosition pos;
  pos.g = arith::DivUIOp::create(b, loc, laneIdx,
                                 arith::ConstantIndexOp::create(b, loc, 4));
  pos.t = arith::RemUIOp::create(b, loc, laneIdx,
                                 arith::ConstantIndexOp::create(b, loc, 4));
  auto i32 = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  auto times4 = [&](Value m) -> Value {
    return arith::IndexCastOp::create(
        b, loc, b.getI32Type(),
        arith::MulIOp::create(b, loc, m,
                              arith::ConstantIndexOp::create(b, loc, 4)));
  };
  // Output slot s of this lane is (r, c) = (slotRow, slotCol). It needs the
  // data element M(m, k) for every selected k, where M is the fragment's
  // matrix and m = r (X · K, M = X) or c (K · X, M = X^T). M(m, k) sits in
  // lane 4 (m % 8) + (k % 8) / 2, slot (k & 1) | (m / 8) << 1 | (k / 8) << 2:
  // m / 8 is the same in every lane for a given s, and m % 8 is g (X · K) or
  // 2t + (s & 1) (K · X). laneBase[s & 1] = 4 (m % 8).
  Value laneBase[2];
  if (constOnLeft) {
    Value twoT = arith::MulIOp::create(
        b, loc, pos.t, arith::ConstantIndexOp::create(b, loc, 2));
    laneBase[0] = times4(twoT);
    laneBase[1] = times4(arith::AddIOp::create(
        b, loc, twoT, arith::ConstantIndexOp::create(b, loc, 1)));
  } else {
    laneBase[0] = laneBase[1] = times4(pos.g);
  }
  // Unrolled with constant slots and selection tables: a loop over k would
  // index the fragment and the tables dynamically, which puts them in local
  // memory (test/Target/PTX/ptxas.test forbids any).
  Value negZero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(-0.0));
  SmallVector<Value> out;
  for (int s = 0; s < kSlots; ++s) {
    int mHigh = constOnLeft ? (s >> 2) : ((s >> 1) & 1);
    Value sum = negZero; // -0 + x == x for every x
    for (int k = 0; k < 16; ++k) {
      // Bit l: whether lane l's output slot s takes k, i.e. K(r, k) (K · X)
      // or K(k, c) (X · K).
      uint32_t table = laneTable([&](int l) {
        return constOnLeft ? matrixEntry(kind, slotRow(l, s), k, block)
                           : matrixEntry(kind, k, slotCol(l, s), block);
      });
      if (table == 0)
        continue;
      int slot = (k & 1) | (mHigh << 1) | ((k / 8) << 2);
      Value v =
          vector::ExtractOp::create(b, loc, wide, ArrayRef<int64_t>{slot});
      Value from =
          arith::AddIOp::create(b, loc, laneBase[s & 1], i32((k % 8) / 2));
      Value got =
          gpu::ShuffleOp::create(
              b, loc, v, from, /*width=*/i32(32),
              gpu::ShuffleModeAttr::get(b.getContext(), gpu::ShuffleMode::IDX))
              .getShuffleResult();
      Value added = arith::AddFOp::create(b, loc, sum, got);
      sum = table == ~0u ? added
                         : arith::SelectOp::create(
                               b, loc, laneBit(b, loc, table, lane), added, sum)
                               .getResult();
    }
    Value c = vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{s});
    out.push_back(arith::AddFOp::create(b, loc, sum, c));
  }
  return vector::FromElementsOp::create(b, loc, fragmentType(f32), out);
}

Value gpu_lowering::callSelectedSums(OpBuilder &b, Location loc, Operation *at,
                                     MatrixKind kind, int block,
                                     bool constOnLeft, Value data, Value acc) {
  auto module = at->getParentOfType<gpu::GPUModuleOp>();
  assert(module && "products are lowered inside a gpu.module");
  Type dataType = data.getType(), accType = acc.getType();
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "tcuc_exact_" << stringifyMatrixKind(kind) << block
     << (constOnLeft ? "_left_" : "_right_") << dataType << "_" << accType;
  // Types print as e.g. vector<8xf16>: keep a PTX-friendly symbol.
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  auto fn = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      module, StringAttr::get(b.getContext(), name));
  if (!fn) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = b.getFunctionType({dataType, accType}, {accType});
    fn = func::FuncOp::create(b, loc, name, type);
    fn.setPrivate();
    fn->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
    Block *body = fn.addEntryBlock();
    b.setInsertionPointToStart(body);
    Value r = buildSelectedSums(b, loc, kind, block, constOnLeft,
                                body->getArgument(0), body->getArgument(1));
    func::ReturnOp::create(b, loc, r);
  }
  return func::CallOp::create(b, loc, fn, ValueRange{data, acc}).getResult(0);
}
