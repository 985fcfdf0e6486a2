//===- CacheHints.cpp - tile accesses with an L2 eviction hint ------------===//
//
// The accesses of whole tiles that carry a #tcu.cache hint, as inline PTX:
// LLVM's NVPTX backend has no cache-policy operand on its loads and stores
// (and drops !nontemporal). A hinted access converts its generic address to
// a global one and names the policy: `.L2::cache_hint` with a policy that
// `createpolicy.fractional.L2::evict_last` (or evict_first) made once per
// tile access, or `.cs` for streaming.
//
//===----------------------------------------------------------------------===//

#include "GPUPatterns.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tcu;

Value gpu_lowering::byteCount(OpBuilder &b, Location loc, Value buffer,
                              Value count) {
  return arith::MulIOp::create(
      b, loc, arith::IndexCastOp::create(b, loc, b.getI64Type(), count),
      arith::ConstantOp::create(
          b, loc,
          b.getI64IntegerAttr(getElementBytes(
              cast<MemRefType>(buffer.getType()).getElementType()))));
}

Value gpu_lowering::elementAddress(OpBuilder &b, Location loc, Value buffer,
                                   Value index) {
  Value base = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer));
  return arith::AddIOp::create(b, loc, base, byteCount(b, loc, buffer, index));
}

namespace {
/// The PTX pieces of one hinted access of `bytes` (2, 4, 8 or 16): the
/// register type and count, the operand list of the registers from
/// `$first`, and the instruction's qualifiers and policy operand.
struct HintedAccess {
  int64_t bytes;
  CacheHint hint;

  Type wordType(OpBuilder &b) const {
    return bytes == 2 ? b.getI16Type() : b.getI32Type();
  }
  int64_t words() const { return bytes == 2 ? 1 : bytes / 4; }
  std::string shape() const {
    if (bytes == 2)
      return ".b16";
    return words() == 1 ? ".b32" : ".v" + std::to_string(words()) + ".b32";
  }
  std::string registers(int first) const {
    std::string s = words() == 1 ? "" : "{";
    for (int64_t i = 0; i < words(); ++i)
      s += (i ? ", $" : "$") + std::to_string(first + i);
    return words() == 1 ? s : s + "}";
  }
  bool streaming() const { return hint == CacheHint::Streaming; }
  /// `ld` or `st` with the hint's qualifier, on global address `g`, which
  /// the prologue converts from the generic address `$address`.
  std::string prologue(int address) const {
    return "{ .reg .b64 g; cvta.to.global.u64 g, $" + std::to_string(address) +
           "; ";
  }
  std::string qualifier() const {
    return streaming() ? ".cs" : ".L2::cache_hint";
  }
  /// The policy operand (`$policy`), none for streaming.
  std::string policyOperand(int policy) const {
    return streaming() ? "" : ", $" + std::to_string(policy);
  }
};
} // namespace

bool gpu_lowering::canHint(CacheHint hint, int64_t bytes) {
  return hint != CacheHint::Normal &&
         (bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16);
}

Value gpu_lowering::cachePolicy(OpBuilder &b, Location loc, CacheHint hint) {
  if (hint != CacheHint::EvictLast && hint != CacheHint::EvictFirst)
    return Value();
  std::string ptx =
      std::string("createpolicy.fractional.L2::") +
      (hint == CacheHint::EvictLast ? "evict_last" : "evict_first") +
      ".b64 $0, 1.0;";
  return NVVM::InlinePtxOp::create(b, loc, TypeRange{b.getI64Type()},
                                   ValueRange{}, ValueRange{}, ptx, Value())
      .getResult(0);
}

Value gpu_lowering::hintedLoad(OpBuilder &b, Location loc, CacheHint hint,
                               Value policy, VectorType type, Value buffer,
                               Value index) {
  int64_t bytes =
      type.getNumElements() * getElementBytes(type.getElementType());
  HintedAccess a{bytes, hint};
  int n = int(a.words());
  SmallVector<Value> args{elementAddress(b, loc, buffer, index)};
  if (!a.streaming())
    args.push_back(policy);
  std::string ptx = a.prologue(n) + "ld.global" + a.qualifier() + a.shape() +
                    " " + a.registers(0) + ", [g]" + a.policyOperand(n + 1) +
                    "; }";
  SmallVector<Type> results(n, a.wordType(b));
  auto op = NVVM::InlinePtxOp::create(b, loc, results, args, ValueRange{}, ptx,
                                      Value());
  Value words = vector::FromElementsOp::create(
      b, loc, VectorType::get({n}, a.wordType(b)), op.getResults());
  return vector::BitCastOp::create(b, loc, type, words);
}

void gpu_lowering::hintedStore(OpBuilder &b, Location loc, CacheHint hint,
                               Value policy, Value value, Value buffer,
                               Value index) {
  auto type = cast<VectorType>(value.getType());
  int64_t bytes =
      type.getNumElements() * getElementBytes(type.getElementType());
  HintedAccess a{bytes, hint};
  int n = int(a.words());
  Value words = vector::BitCastOp::create(
      b, loc, VectorType::get({n}, a.wordType(b)), value);
  SmallVector<Value> args{elementAddress(b, loc, buffer, index)};
  for (int i = 0; i < n; ++i)
    args.push_back(vector::ExtractOp::create(b, loc, words, int64_t(i)));
  if (!a.streaming())
    args.push_back(policy);
  std::string ptx = a.prologue(0) + "st.global" + a.qualifier() + a.shape() +
                    " [g], " + a.registers(1) + a.policyOperand(n + 1) + "; }";
  NVVM::InlinePtxOp::create(b, loc, TypeRange{}, args, ValueRange{}, ptx,
                            Value());
}
