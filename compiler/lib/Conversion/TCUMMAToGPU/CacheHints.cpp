//===- CacheHints.cpp - tile accesses with an L2 eviction hint ------------===//
//
// The accesses of whole tiles that carry a #tcu.cache hint, as inline PTX:
// LLVM's NVPTX backend has no cache-policy operand on its loads and stores
// (and drops !nontemporal). A hinted access converts its generic address to
// a global one and names the policy: `createpolicy.fractional.L2::evict_last`
// (or evict_first) with `.L2::cache_hint`, or `.cs` for streaming. One PTX
// block makes the accesses of a whole tile from one address, the others at
// constant offsets from it (`[g+32]`): with an address each, every access
// cost three integer instructions for its own 64-bit address. Each block
// makes its own policy: one policy made per kernel and passed to the
// blocks (a live 64-bit register across them) made ptxas spill the lagged
// bf16 scan at 2 tiles (4-8 bytes, sm_80 and sm_90) and f16 exclusive at
// 4, where this form does not.
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
/// register type, the operand list of `count` registers from `$first`, and
/// the instruction's qualifiers and policy operand.
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
  std::string qualifier() const {
    return hint == CacheHint::Streaming ? ".cs" : ".L2::cache_hint";
  }
  /// The registers, the global address `g` of generic address `$address`
  /// and the policy `pol` (none for streaming).
  std::string prologue(int address) const {
    std::string s = "{ .reg .b64 g";
    s += hint == CacheHint::Streaming ? "; " : ", pol; ";
    s += "cvta.to.global.u64 g, $" + std::to_string(address) + "; ";
    if (hint != CacheHint::Streaming)
      s += std::string("createpolicy.fractional.L2::") +
           (hint == CacheHint::EvictLast ? "evict_last" : "evict_first") +
           ".b64 pol, 1.0; ";
    return s;
  }
  std::string policyOperand() const {
    return hint == CacheHint::Streaming ? "" : ", pol";
  }
};

/// The operand `[g+bytes]`.
std::string at(int64_t bytes) {
  return bytes ? "[g+" + std::to_string(bytes) + "]" : "[g]";
}
} // namespace

bool gpu_lowering::canHint(CacheHint hint, int64_t bytes) {
  return hint != CacheHint::Normal &&
         (bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16);
}

SmallVector<Value> gpu_lowering::hintedLoads(OpBuilder &b, Location loc,
                                             CacheHint hint, VectorType type,
                                             Value buffer, Value index,
                                             ArrayRef<int64_t> offsets) {
  int64_t eltBytes = getElementBytes(type.getElementType());
  HintedAccess a{type.getNumElements() * eltBytes, hint};
  int n = int(a.words());
  std::string ptx = a.prologue(n * int(offsets.size()));
  for (auto [i, offset] : llvm::enumerate(offsets))
    ptx += "ld.global" + a.qualifier() + a.shape() + " " +
           a.registers(n * int(i)) + ", " + at(offset * eltBytes) +
           a.policyOperand() + "; ";
  ptx += "}";
  SmallVector<Type> results(n * offsets.size(), a.wordType(b));
  auto op = NVVM::InlinePtxOp::create(b, loc, results,
                                      elementAddress(b, loc, buffer, index),
                                      ValueRange{}, ptx, Value());
  SmallVector<Value> vectors;
  for (size_t i = 0; i < offsets.size(); ++i) {
    Value words = vector::FromElementsOp::create(
        b, loc, VectorType::get({n}, a.wordType(b)),
        op.getResults().slice(n * i, n));
    vectors.push_back(vector::BitCastOp::create(b, loc, type, words));
  }
  return vectors;
}

void gpu_lowering::hintedStores(OpBuilder &b, Location loc, CacheHint hint,
                                ValueRange values, Value buffer, Value index,
                                ArrayRef<int64_t> offsets) {
  assert(values.size() == offsets.size() && "a vector an offset");
  auto type = cast<VectorType>(values.front().getType());
  int64_t eltBytes = getElementBytes(type.getElementType());
  HintedAccess a{type.getNumElements() * eltBytes, hint};
  int n = int(a.words());
  SmallVector<Value> args{elementAddress(b, loc, buffer, index)};
  std::string ptx = a.prologue(0);
  for (auto [i, value] : llvm::enumerate(values)) {
    Value words = vector::BitCastOp::create(
        b, loc, VectorType::get({n}, a.wordType(b)), value);
    for (int w = 0; w < n; ++w)
      args.push_back(vector::ExtractOp::create(b, loc, words, int64_t(w)));
    ptx += "st.global" + a.qualifier() + a.shape() + " " +
           at(offsets[i] * eltBytes) + ", " + a.registers(1 + n * int(i)) +
           a.policyOperand() + "; ";
  }
  ptx += "}";
  NVVM::InlinePtxOp::create(b, loc, TypeRange{}, args, ValueRange{}, ptx,
                            Value());
}
