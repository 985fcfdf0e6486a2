//===- RaiseLinalg.cpp - linalg sum reductions -> tcu collectives ---------===//
//
// tcu-raise-linalg: an innermost-dimension sum of one input (linalg.reduce
// or the equivalent linalg.generic) is a segmented reduction of the
// flattened input with segment size = the innermost extent. The pass
// flattens the operands (collapse_shape), emits the tcu collective and
// reshapes its result back (expand_shape); linalg's "add into the init"
// becomes a linalg.add unless the init is known to be zero.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Transforms/Passes.h"

#include "tcuc/Dialect/TCU/TCUDialect.h"
#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tcu-raise-linalg"

namespace mlir::tcu {
#define GEN_PASS_DEF_TCURAISELINALG
#include "tcuc/Transforms/Passes.h.inc"
} // namespace mlir::tcu

using namespace mlir;

namespace {

std::string str(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// A linalg reduction that tcu can compute: its operands and segment size.
struct SumReduction {
  Value input, init;
  int64_t segmentSize;
};

/// Whether `body` (block arguments: the input element, the accumulator)
/// computes acc + in with the accumulation tcu uses for `in`'s type: f16 or
/// bf16 extended to f32, f32 as is, i8 sign-extended to i32. Otherwise
/// `why` says what differs.
bool isSumBody(Block &body, std::string &why) {
  if (body.getNumArguments() != 2) {
    why = "its body takes " + std::to_string(body.getNumArguments()) +
          " arguments (one input and the accumulator expected)";
    return false;
  }
  BlockArgument in = body.getArgument(0), acc = body.getArgument(1);
  Type inType = in.getType(), accType = acc.getType();
  Type expectedAcc = tcu::getAccumulatorType(inType);
  if (!expectedAcc) {
    why = "the input element type must be f16, bf16, f32 or i8";
    return false;
  }
  if (accType != expectedAcc) {
    why = "a reduction of " + str(inType) + " must accumulate in " +
          str(expectedAcc) + " (found " + str(accType) + ")";
    return false;
  }
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || yield.getNumOperands() != 1) {
    why = "its body must yield one value";
    return false;
  }
  Operation *add = yield.getOperand(0).getDefiningOp();
  bool isFloat = isa<FloatType>(accType);
  if (!add || add->getBlock() != &body ||
      !(isFloat ? isa<arith::AddFOp>(add) : isa<arith::AddIOp>(add))) {
    why = "its body does not end in an addition (only sums are raised)";
    return false;
  }
  // The add's other operand: the input itself (f32) or its extension.
  Value lhs = add->getOperand(0), rhs = add->getOperand(1);
  Value other = lhs == acc ? rhs : rhs == acc ? lhs : Value();
  if (!other) {
    why = "its addition does not take the accumulator";
    return false;
  }
  bool direct = inType == accType && other == in;
  Operation *ext = other.getDefiningOp();
  bool extended =
      ext && ext->getBlock() == &body && ext->getOperand(0) == in &&
      (isFloat ? isa<arith::ExtFOp>(ext) : isa<arith::ExtSIOp>(ext));
  if (!direct && !extended) {
    why = "its addition must take the input element (extended with " +
          std::string(isFloat ? "arith.extf" : "arith.extsi") + ")";
    return false;
  }
  // Nothing else in the body (the add, the extension, the yield).
  size_t expectedOps = direct ? 2 : 3;
  if (body.getOperations().size() != expectedOps) {
    why = "its body holds more than the extension and the addition";
    return false;
  }
  return true;
}

/// The operand rules shared by both linalg forms: one input of rank r >= 1
/// with a static innermost extent, one init of rank r - 1, both tensors or
/// both memrefs with the identity layout.
bool matchOperands(Value input, Value init, SumReduction &out,
                   std::string &why) {
  auto inType = dyn_cast<ShapedType>(input.getType());
  auto initType = dyn_cast<ShapedType>(init.getType());
  if (!inType || !initType || !inType.hasRank() || !initType.hasRank()) {
    why = "its operands are not ranked tensors or memrefs";
    return false;
  }
  if (isa<TensorType>(inType) != isa<TensorType>(initType)) {
    why = "it mixes tensors and memrefs";
    return false;
  }
  for (Type t : {Type(inType), Type(initType)})
    if (auto m = dyn_cast<MemRefType>(t); m && !m.getLayout().isIdentity()) {
      why = "a memref operand has a non-identity layout (" + str(t) +
            "); only contiguous buffers are flattened";
      return false;
    }
  int64_t rank = inType.getRank();
  if (rank < 1 || initType.getRank() != rank - 1) {
    why = "its init must have one dimension less than its input";
    return false;
  }
  int64_t s = inType.getDimSize(rank - 1);
  if (ShapedType::isDynamic(s) || s < 1) {
    why = "the innermost (reduced) extent must be static and >= 1, got " +
          (ShapedType::isDynamic(s) ? std::string("?") : std::to_string(s));
    return false;
  }
  out = {input, init, s};
  return true;
}

bool matchReduce(linalg::ReduceOp op, SumReduction &out, std::string &why) {
  if (op.getInputs().size() != 1 || op.getInits().size() != 1) {
    why = "it has several inputs or inits";
    return false;
  }
  Value input = op.getInputs()[0], init = op.getInits()[0];
  int64_t rank = cast<ShapedType>(input.getType()).getRank();
  ArrayRef<int64_t> dims = op.getDimensions();
  if (dims.size() != 1 || dims[0] != rank - 1) {
    why = "it does not reduce exactly the innermost dimension";
    return false;
  }
  return matchOperands(input, init, out, why) &&
         isSumBody(op.getCombiner().front(), why);
}

bool matchGeneric(linalg::GenericOp op, SumReduction &out, std::string &why) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1) {
    why = "it has several inputs or inits";
    return false;
  }
  if (op.hasIndexSemantics()) {
    why = "its body uses linalg.index";
    return false;
  }
  int64_t loops = op.getNumLoops();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (int64_t i = 0; i < loops; ++i)
    if ((iterators[i] == utils::IteratorType::reduction) != (i == loops - 1)) {
      why = "its only reduction loop must be the innermost one";
      return false;
    }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  MLIRContext *ctx = op.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(loops, ctx);
  AffineMap dropLast = identity.getMajorSubMap(loops - 1);
  if (maps[0] != identity || maps[1] != dropLast) {
    why = "its indexing maps are not (identity, identity without the "
          "innermost dimension)";
    return false;
  }
  return matchOperands(op.getDpsInputs()[0], op.getDpsInits()[0], out, why) &&
         isSumBody(*op.getBlock(), why);
}

/// Whether `v` is a scalar zero constant: integer 0 or float +0.0 (not
/// -0.0: linalg's -0.0 + (-0.0) + ... stays -0.0, tcu's sums start at +0.0).
bool isZero(Value v) {
  return matchPattern(v, m_PosZeroFloat()) || matchPattern(v, m_Zero());
}

/// Whether the init is known to hold zeros when `op` runs: a tensor made
/// by linalg.fill of zero, or a memref that the op right before fills with
/// zero.
bool initIsZero(Operation *op, Value init) {
  if (isa<TensorType>(init.getType())) {
    auto fill = init.getDefiningOp<linalg::FillOp>();
    return fill && isZero(fill.getInputs()[0]);
  }
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  return fill && fill.getOutputs()[0] == init && isZero(fill.getInputs()[0]);
}

/// Reassociation flattening dimensions [0, rank) into one (none for rank 0,
/// which expand_shape/collapse_shape treat as a shape of 1).
SmallVector<ReassociationIndices> flattenAll(int64_t rank) {
  if (rank == 0)
    return {};
  ReassociationIndices all;
  for (int64_t i = 0; i < rank; ++i)
    all.push_back(i);
  return {all};
}

/// `type` with `shape`, contiguous (identity layout) when a memref.
ShapedType withShape(ShapedType type, ArrayRef<int64_t> shape) {
  if (auto m = dyn_cast<MemRefType>(type))
    return MemRefType::get(shape, m.getElementType(),
                           MemRefLayoutAttrInterface(), m.getMemorySpace());
  return RankedTensorType::get(shape, type.getElementType());
}

/// `v` (rank r) as a 1-D value of its elements.
Value flatten(OpBuilder &b, Location loc, Value v) {
  auto type = cast<ShapedType>(v.getType());
  if (type.getRank() == 1)
    return v;
  int64_t n =
      type.hasStaticShape() ? type.getNumElements() : ShapedType::kDynamic;
  if (type.getRank() == 0) {
    auto flat = withShape(type, {1});
    if (isa<TensorType>(type))
      return tensor::ExpandShapeOp::create(
          b, loc, flat, v, flattenAll(0),
          ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    return memref::ExpandShapeOp::create(
        b, loc, flat, v, flattenAll(0),
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  }
  auto flat = withShape(type, {n});
  if (isa<TensorType>(type))
    return tensor::CollapseShapeOp::create(b, loc, flat, v,
                                           flattenAll(type.getRank()));
  return memref::CollapseShapeOp::create(b, loc, flat, v,
                                         flattenAll(type.getRank()));
}

/// The 1-D `flat` reshaped like `like` (the init).
Value unflatten(OpBuilder &b, Location loc, Value flat, Value like) {
  auto type = cast<ShapedType>(like.getType());
  if (type.getRank() == 1)
    return flat;
  auto target = withShape(cast<ShapedType>(flat.getType()), type.getShape());
  if (type.getRank() == 0) {
    if (isa<TensorType>(type))
      return tensor::CollapseShapeOp::create(b, loc, target, flat,
                                             flattenAll(0));
    return memref::CollapseShapeOp::create(b, loc, target, flat, flattenAll(0));
  }
  if (isa<TensorType>(type))
    return tensor::ExpandShapeOp::create(b, loc, target, flat,
                                         flattenAll(type.getRank()),
                                         tensor::getMixedSizes(b, loc, like));
  return memref::ExpandShapeOp::create(b, loc, target, flat,
                                       flattenAll(type.getRank()),
                                       memref::getMixedSizes(b, loc, like));
}

/// Number of segments of the 1-D `flatInput`, as an index value when it is
/// dynamic (empty when static).
SmallVector<Value> dynamicSegments(OpBuilder &b, Location loc, Value flatInput,
                                   int64_t segmentSize) {
  auto type = cast<ShapedType>(flatInput.getType());
  if (!type.isDynamicDim(0))
    return {};
  Value n = isa<TensorType>(type)
                ? Value(tensor::DimOp::create(b, loc, flatInput, 0))
                : Value(memref::DimOp::create(b, loc, flatInput, 0));
  return {arith::DivUIOp::create(
      b, loc, n, arith::ConstantIndexOp::create(b, loc, segmentSize))};
}

/// Rewrites `op` (matched as `r`) to a tcu collective; returns a summary
/// for the remark.
std::string raise(RewriterBase &rewriter, Operation *op,
                  const SumReduction &r) {
  Location loc = op->getLoc();
  // Before anything is inserted: the memref check looks at the op before.
  bool zero = initIsZero(op, r.init);
  rewriter.setInsertionPoint(op);
  auto initType = cast<ShapedType>(r.init.getType());
  Type accType = initType.getElementType();
  Value flatIn = flatten(rewriter, loc, r.input);
  int64_t numSegments =
      cast<ShapedType>(flatIn.getType()).isDynamicDim(0)
          ? ShapedType::kDynamic
          : cast<ShapedType>(flatIn.getType()).getDimSize(0) / r.segmentSize;
  SmallVector<Value> dyn =
      dynamicSegments(rewriter, loc, flatIn, r.segmentSize);

  if (isa<TensorType>(initType)) {
    // Zero-filled: tcu overwrites the fill's destination (which then
    // bufferizes in place, a function's output argument say). Otherwise a
    // new tensor, added to the init.
    Value empty;
    if (zero)
      empty = flatten(rewriter, loc,
                      r.init.getDefiningOp<linalg::FillOp>().getOutputs()[0]);
    else
      empty = tensor::EmptyOp::create(
          rewriter, loc, RankedTensorType::get({numSegments}, accType), dyn);
    Value sums = tcu::ReduceOp::create(rewriter, loc, tcu::CombinerKind::Add,
                                       flatIn, empty, r.segmentSize);
    Value result = unflatten(rewriter, loc, sums, r.init);
    if (!zero)
      result = linalg::AddOp::create(rewriter, loc, ValueRange{r.init, result},
                                     ValueRange{r.init})
                   .getResult(0);
    auto fill = r.init.getDefiningOp<linalg::FillOp>();
    rewriter.replaceOp(op, result);
    // The zero fill, now unused: tcu overwrites its destination.
    if (zero && fill->use_empty())
      rewriter.eraseOp(fill);
    return zero ? "tcu.reduce" : "tcu.reduce + linalg.add (init not zero)";
  }

  // Memrefs: straight into the init when it holds zeros, else into a
  // temporary added to it.
  if (zero) {
    tcu::SegmentedReduceOp::create(rewriter, loc, tcu::CombinerKind::Add,
                                   flatIn, flatten(rewriter, loc, r.init),
                                   Value(), /*offsets=*/Value(), r.segmentSize,
                                   nullptr, nullptr, nullptr);
    rewriter.eraseOp(op);
    return "tcu.segmented_reduce";
  }
  auto tmpType = MemRefType::get({numSegments}, accType);
  Value tmp = memref::AllocOp::create(rewriter, loc, tmpType, dyn);
  tcu::SegmentedReduceOp::create(rewriter, loc, tcu::CombinerKind::Add, flatIn,
                                 tmp, Value(), /*offsets=*/Value(),
                                 r.segmentSize, nullptr, nullptr, nullptr);
  linalg::AddOp::create(
      rewriter, loc, ValueRange{r.init, unflatten(rewriter, loc, tmp, r.init)},
      ValueRange{r.init});
  memref::DeallocOp::create(rewriter, loc, tmp);
  rewriter.eraseOp(op);
  return "tcu.segmented_reduce + linalg.add (init not known zero)";
}

struct TCURaiseLinalgPass : tcu::impl::TCURaiseLinalgBase<TCURaiseLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<Operation *> candidates;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::ReduceOp>(op))
        candidates.push_back(op);
      else if (auto g = dyn_cast<linalg::GenericOp>(op);
               g && g.getNumReductionLoops() > 0)
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : candidates) {
      SumReduction r;
      std::string why;
      bool ok = isa<linalg::ReduceOp>(op)
                    ? matchReduce(cast<linalg::ReduceOp>(op), r, why)
                    : matchGeneric(cast<linalg::GenericOp>(op), r, why);
      if (!ok) {
        LLVM_DEBUG(llvm::dbgs()
                   << "not raised: " << *op << ": " << why << "\n");
        if (explain)
          op->emitRemark() << "not raised to tcu: " << why;
        continue;
      }
      int64_t s = r.segmentSize;
      std::string what = raise(rewriter, op, r);
      if (explain)
        emitRemark(op->getLoc())
            << "raised to " << what << ", segment_size " << s;
    }
  }
};

} // namespace
