//===- KernelOutlining.cpp - mma-form loops to GPU kernels ----------------===//
//
// tcu-outline-kernels: the host side of the mma form becomes kernels and a
// launch plan the runtime reads; the kernels keep the mma form for the
// passes after it (KernelOutlining.h).
//
//===----------------------------------------------------------------------===//

#include "KernelOutlining.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::tcu {
#define GEN_PASS_DEF_TCUOUTLINEKERNELS
#include "tcuc/Conversion/Passes.h.inc"
} // namespace mlir::tcu

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

namespace {

/// Writes the element count of a top-level scratch allocation as a postfix
/// expression over `n` (the input length) and `s` (the runtime segment
/// size, an index argument), the language the runtime evaluates
/// (docs/kernel-file.md).
class SizeExpression {
public:
  /// `segment`: the function's runtime segment size argument, or null;
  /// `offsets`: its offsets buffer (`o` is its length), or null.
  SizeExpression(Value input, Value segment, Value offsets = nullptr)
      : input(input), segment(segment), offsets(offsets) {}

  LogicalResult write(Value v, std::string &out) {
    if (auto c = getConstantIntValue(v)) {
      out += std::to_string(*c) + " ";
      return success();
    }
    Operation *def = v.getDefiningOp();
    if (v == segment && segment) {
      out += "s ";
      return success();
    }
    if (!def)
      return failure();
    if (auto dim = dyn_cast<memref::DimOp>(def)) {
      if (offsets && dim.getSource() == offsets) {
        out += "o ";
        return success();
      }
      if (dim.getSource() != input)
        return failure();
      out += "n ";
      return success();
    }
    if (isa<arith::IndexCastOp, arith::ExtUIOp>(def))
      return write(def->getOperand(0), out);
    StringRef token;
    if (isa<arith::AddIOp>(def))
      token = "add";
    else if (isa<arith::SubIOp>(def))
      token = "sub";
    else if (isa<arith::MulIOp>(def))
      token = "mul";
    else if (isa<arith::DivUIOp>(def))
      token = "divu";
    else if (isa<arith::RemUIOp>(def))
      token = "remu";
    else if (isa<arith::MinSIOp>(def))
      token = "mins";
    else if (isa<arith::MaxSIOp>(def))
      token = "maxs";
    else if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
      if (cmp.getPredicate() == arith::CmpIPredicate::ne)
        token = "ne";
      else if (cmp.getPredicate() == arith::CmpIPredicate::eq)
        token = "eq";
    }
    if (token.empty() || def->getNumOperands() != 2)
      return failure();
    if (failed(write(def->getOperand(0), out)) ||
        failed(write(def->getOperand(1), out)))
      return failure();
    out += token.str() + " ";
    return success();
  }

private:
  Value input, segment, offsets;
};

class Outliner {
public:
  Outliner(func::FuncOp func, gpu::GPUModuleOp module, int64_t blockSize,
           bool dependentLaunch, bool hostLaunch)
      : func(func), module(module), blockSize(blockSize),
        dependentLaunch(dependentLaunch), hostLaunch(hostLaunch) {}

  LogicalResult run();

private:
  LogicalResult addScratch(memref::AllocOp alloc);
  /// The runtime segment size: an index third argument, or null.
  Value segmentArg() {
    if (func.getNumArguments() < 3 || !func.getArgument(2).getType().isIndex())
      return nullptr;
    return func.getArgument(2);
  }
  /// The offsets of an offsets kernel: an integer memref third argument,
  /// or null (an f32 one is a scan's per-segment decays).
  Value offsetsArg() {
    if (func.getNumArguments() < 3)
      return nullptr;
    auto type = dyn_cast<MemRefType>(func.getArgument(2).getType());
    if (!type || !type.getElementType().isSignlessInteger())
      return nullptr;
    return func.getArgument(2);
  }
  LogicalResult outline(scf::ParallelOp loop, int index);
  /// The kernel-side copy of a host value used by a kernel: arguments map to
  /// kernel arguments, pure index computations are cloned.
  FailureOr<Value> materialize(Value v, OpBuilder &b, IRMapping &map);

  func::FuncOp func;
  gpu::GPUModuleOp module;
  int64_t blockSize;
  bool dependentLaunch;
  /// The host function launches its kernels (HostLaunch.cpp).
  bool hostLaunch;
  SmallVector<KernelLaunch> launches;
  /// Kernel argument types: the function's arguments, then the scratch.
  SmallVector<Type> argTypes;
  SmallVector<Value> hostArgs;
  SmallVector<Attribute> scratch, kernels;
  /// Top-level loops whose items are blocks (they contain phases).
  SmallPtrSet<Operation *, 4> blockItemLoops;
  /// Each kernel's work-item count as an expression of n; cleared when one
  /// is not (the runtime then launches a grid of resident blocks).
  SmallVector<Attribute> items;
  bool itemsKnown = true;
};

} // namespace

/// Host index math a kernel may recompute: pure ops, and the unsigned
/// divisions by a runtime segment size (not pure: a zero divisor is
/// undefined, which the runtime's size checks exclude).
static bool isRecomputable(Operation *op) {
  return (isPure(op) || isa<arith::DivUIOp, arith::RemUIOp>(op)) &&
         op->getNumRegions() == 0;
}

/// The warps of the block `op` meets at a barrier when it is one of the
/// block ops (tcu.block_prefix, tcu.block_lookback,
/// tcu.block_lagged_lookback); nothing otherwise.
static std::optional<int64_t> blockOpWarps(Operation *op) {
  if (auto block = dyn_cast<BlockPrefixOp>(op))
    return block.getWarps();
  if (auto block = dyn_cast<BlockLookbackOp>(op))
    return block.getWarps();
  if (auto block = dyn_cast<BlockLaggedLookbackOp>(op))
    return block.getWarps();
  return std::nullopt;
}

LogicalResult Outliner::addScratch(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (hostLaunch) { // gpu.alloc on the host: any memref, sized there
    argTypes.push_back(type);
    hostArgs.push_back(alloc.getResult());
    return success();
  }
  if (type.getRank() != 1 ||
      (alloc.getDynamicSizes().size() != 1 && !type.hasStaticShape()))
    return emitError(alloc.getLoc())
           << "a top-level " << type
           << " buffer (a result or scratch) must be rank-1 for the tcuc "
              "runtime's launch plan: add host-launch=true to tcu-to-ptx to "
              "allocate it on the device from host code";
  // A constant size (canonicalization makes such buffers static) is its
  // own expression.
  std::string size;
  if (type.hasStaticShape())
    size = std::to_string(type.getDimSize(0)) + " ";
  else if (failed(SizeExpression(func.getArgument(0), segmentArg())
                      .write(alloc.getDynamicSizes()[0], size)))
    return alloc.emitOpError("scratch size is not an expression of the input "
                             "length the runtime can evaluate");
  size.pop_back();
  Builder b(func.getContext());
  scratch.push_back(b.getArrayAttr(
      {TypeAttr::get(type.getElementType()), b.getStringAttr(size)}));
  argTypes.push_back(type);
  hostArgs.push_back(alloc.getResult());
  return success();
}

FailureOr<Value> Outliner::materialize(Value v, OpBuilder &b, IRMapping &map) {
  if (Value mapped = map.lookupOrNull(v))
    return mapped;
  Operation *def = v.getDefiningOp();
  if (!def || def->getParentOp() != func.getOperation() ||
      !(isRecomputable(def) || isa<memref::DimOp>(def)))
    return emitError(v.getLoc(), "kernel uses a host value it cannot "
                                 "recompute on the GPU");
  for (Value operand : def->getOperands())
    if (failed(materialize(operand, b, map)))
      return failure();
  b.clone(*def, map);
  return map.lookup(v);
}

LogicalResult Outliner::outline(scf::ParallelOp loop, int index) {
  if (loop.getNumLoops() != 1 ||
      !isConstantIntValue(loop.getLowerBound()[0], 0) ||
      !isConstantIntValue(loop.getStep()[0], 1) || loop.getNumResults())
    return loop.emitOpError("expected a 1-D scf.parallel from 0 step 1 "
                            "without results (the mma form's work items)");
  MLIRContext *ctx = func.getContext();
  Location loc = loop.getLoc();
  OpBuilder mb(module.getBodyRegion());
  mb.setInsertionPointToEnd(module.getBody());
  std::string name = (func.getName() + "_k" + Twine(index)).str();
  auto kernel = gpu::GPUFuncOp::create(mb, loc, name,
                                       FunctionType::get(ctx, argTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), UnitAttr::get(ctx));
  // A work item is a warp, or a block when the item's body has phases
  // (nested scf.parallel loops over the warps that share the item; run()
  // found them).
  bool blockItems = blockItemLoops.contains(loop);
  // Warp items: no known_block_size. It becomes `.maxntid`, under which
  // ptxas for sm_80 caps registers low enough to spill some of these
  // kernels (seen with CUDA 13.0's ptxas, 2026-11-22); the runtime launches
  // `tcuc.block` threads anyway. Block items of up to 16 warps need it: a
  // whole block's registers must fit in the SM's (16 warps at 4 tiles per
  // warp asked for more: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES).
  if (blockItems)
    kernel.setKnownBlockSizeAttr(
        DenseI32ArrayAttr::get(ctx, {int32_t(blockSize), 1, 1}));
  if (auto blocks = loop->getAttrOfType<IntegerAttr>(kMinBlocksPerSMAttr))
    kernel->setAttr(
        NVVM::NVVMDialect::getMinctasmAttrName(),
        IntegerAttr::get(IntegerType::get(ctx, 32), blocks.getInt()));
  if (auto regs = loop->getAttrOfType<IntegerAttr>(kMaxRegistersAttr))
    kernel->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    IntegerAttr::get(IntegerType::get(ctx, 32), regs.getInt()));
  if (loop->hasAttr(kTileRunsAttr))
    kernel->setAttr(kTileRunsAttr, UnitAttr::get(ctx));
  kernels.push_back(FlatSymbolRefAttr::get(ctx, name));
  launches.push_back({loop, kernel.getName(), blockItems});
  int64_t warpsPerBlock = blockSize / 32;
  std::string count;
  if (itemsKnown &&
      succeeded(SizeExpression(func.getArgument(0), segmentArg(), offsetsArg())
                    .write(loop.getUpperBound()[0], count))) {
    // The runtime reads items as warps: a block item is a block's worth.
    if (blockItems)
      count += std::to_string(warpsPerBlock) + " mul ";
    count.pop_back();
    items.push_back(StringAttr::get(ctx, count));
  } else {
    itemsKnown = false;
  }

  Block &entry = kernel.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  IRMapping map;
  for (auto [host, arg] : llvm::zip(hostArgs, entry.getArguments()))
    map.map(host, arg);

  // Work item w of this kernel runs on warp (or block) w mod (warps or
  // blocks in the grid).
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value grid = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value warpInBlock = arith::DivUIOp::create(b, loc, tid, idx(32));
  Value firstItem = bid, stride = grid;
  if (!blockItems) {
    firstItem = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, bid, idx(warpsPerBlock)),
        warpInBlock);
    stride = arith::MulIOp::create(b, loc, grid, idx(warpsPerBlock));
  }

  // Per-item scratch: this warp's slice of a workgroup buffer, or the
  // whole buffer for a block item.
  SmallVector<Operation *> skipped;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      skipped.push_back(op);
      return WalkResult::advance();
    }
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc)
      return WalkResult::advance();
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || type.getRank() != 1) {
      alloc.emitOpError("per-item scratch must have a static 1-D shape to "
                        "live in workgroup memory");
      return WalkResult::interrupt();
    }
    int64_t size = type.getDimSize(0);
    auto wgType = MemRefType::get(
        {blockItems ? size : size * warpsPerBlock}, type.getElementType(),
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    Value buffer = kernel.addWorkgroupAttribution(wgType, alloc.getLoc());
    skipped.push_back(op);
    if (blockItems) {
      map.map(alloc.getResult(), buffer);
      return WalkResult::advance();
    }
    Value offset = arith::MulIOp::create(b, loc, warpInBlock, idx(size));
    Value slice = memref::SubViewOp::create(
        b, loc, buffer, ArrayRef<OpFoldResult>{offset},
        ArrayRef<OpFoldResult>{b.getIndexAttr(size)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    map.map(alloc.getResult(), slice);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  FailureOr<Value> ub = materialize(loop.getUpperBound()[0], b, map);
  if (failed(ub))
    return failure();
  SetVector<Value> above;
  getUsedValuesDefinedAbove(loop.getRegion(), above);
  for (Value v : above)
    if (failed(materialize(v, b, map)))
      return failure();

  auto items = scf::ForOp::create(b, loc, firstItem, *ub, stride);
  map.map(loop.getInductionVars()[0], items.getInductionVar());
  OpBuilder body = OpBuilder::atBlockBegin(items.getBody());
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (llvm::is_contained(skipped, &op))
      continue;
    body.clone(op, map);
  }
  gpu::ReturnOp::create(b, loc);

  // Phases of a block item: warp w of the block runs iterations w, w +
  // (warps per block), ... of each nested loop, and the block waits at a
  // barrier after it. Every warp runs the code between phases (it only
  // reads what the phase before wrote), so all reach each barrier.
  SmallVector<scf::ParallelOp> phases;
  kernel.walk([&](scf::ParallelOp p) { phases.push_back(p); });
  SetVector<Operation *> chunkLoops;
  for (scf::ParallelOp phase : phases) {
    if (phase.getNumLoops() != 1 ||
        !isConstantIntValue(phase.getLowerBound()[0], 0) ||
        !isConstantIntValue(phase.getStep()[0], 1) || phase.getNumResults() ||
        phase->getParentOfType<scf::ParallelOp>())
      return phase.emitOpError("expected a 1-D scf.parallel from 0 step 1 "
                               "without results or nesting (a phase of the "
                               "warps of a block)");
    // A phase with a block barrier inside (tcu.block_prefix,
    // tcu.block_lookback) needs every warp of the block in it exactly once.
    bool meets = false;
    phase.walk([&](Operation *op) {
      if (blockOpWarps(op))
        meets = true;
    });
    if (meets && !isConstantIntValue(phase.getUpperBound()[0], warpsPerBlock))
      return phase.emitOpError("a phase with tcu.block_prefix or "
                               "tcu.block_lookback must have one "
                               "iteration per warp of the block (")
             << warpsPerBlock << ")";
    // A phase of one iteration per warp is its body with w = the warp's
    // index in the block, no loop around it: then a loop around the phase
    // (a block scan's chunks) holds the tile loads at its top level, where
    // tcu-prefetch-chunks finds them.
    OpBuilder pb(phase);
    IRMapping phaseMap;
    OpBuilder wb = pb;
    if (isConstantIntValue(phase.getUpperBound()[0], warpsPerBlock)) {
      phaseMap.map(phase.getInductionVars()[0], warpInBlock);
      chunkLoops.insert(phase->getParentOp());
    } else {
      Value step = arith::ConstantIndexOp::create(pb, loc, warpsPerBlock);
      auto warps = scf::ForOp::create(pb, phase.getLoc(), warpInBlock,
                                      phase.getUpperBound()[0], step);
      phaseMap.map(phase.getInductionVars()[0], warps.getInductionVar());
      wb.setInsertionPointToStart(warps.getBody());
    }
    for (Operation &op : phase.getBody()->without_terminator())
      wb.clone(op, phaseMap);
    gpu::BarrierOp::create(pb, phase.getLoc());
    phase.erase();
  }
  for (Operation *op : chunkLoops)
    if (isa<scf::ForOp>(op))
      op->setAttr(kChunkLoopAttr, UnitAttr::get(ctx));

  // Nested deallocs of workgroup slices were cloned if inside nested
  // regions; drop them. Then order every store before later reads by other
  // lanes of the warp (lanes of one warp share scratch and outputs).
  SmallVector<Operation *> erase;
  kernel.walk([&](Operation *op) {
    if (isa<memref::DeallocOp>(op) || isa<memref::AllocOp>(op)) {
      erase.push_back(op);
      return;
    }
    if (isa<StoreRowOp, StoreTileOp, memref::StoreOp>(op)) {
      OpBuilder after(op->getContext());
      after.setInsertionPointAfter(op);
      Value mask = arith::ConstantOp::create(after, op->getLoc(),
                                             after.getI32IntegerAttr(-1));
      NVVM::SyncWarpOp::create(after, op->getLoc(), mask);
    }
  });
  for (Operation *op : erase) {
    if (!op->use_empty())
      return op->emitOpError("scratch allocation left inside a kernel");
    op->erase();
  }
  return success();
}

LogicalResult Outliner::run() {
  // Buffers, and as the third argument optionally an index: the runtime
  // segment size, which the runtime passes after the buffers in and out
  // (docs/kernel-file.md).
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    // An f32 scalar (a decay given at run time) passes as it is: the
    // runtime passes it after the buffers of the function's arguments.
    if (arg == segmentArg() || arg.getType().isF32()) {
      argTypes.push_back(arg.getType());
      hostArgs.push_back(arg);
      continue;
    }
    // The runtime passes rank-1 buffers; a host that launches its kernels
    // passes any memref (the kernels recompute views of it).
    // Said at the function's location without the op's dump: what to
    // change, in one line (the same for the errors below users meet).
    if (!type || (type.getRank() != 1 && !hostLaunch))
      return emitError(func.getLoc())
             << "'" << func.getName() << "': argument " << arg.getArgNumber()
             << " is " << arg.getType()
             << ", but GPU kernels for the tcuc runtime take rank-1 memref "
                "arguments (and an index, the runtime segment size, as the "
                "third, and an f32, a runtime decay, as the last) only: "
                "flatten it, or add host-launch=true to "
                "tcu-to-ptx to launch from host code (docs/embedding.md)";
    argTypes.push_back(type);
    hostArgs.push_back(arg);
  }
  if (func.getNumArguments() == 0 ||
      !isa<MemRefType>(func.getArgument(0).getType()))
    return func.emitOpError("has no input buffer");
  if (func.getBody().getBlocks().size() != 1)
    return func.emitOpError("expected a single block");

  // Kernels whose work items are blocks (their phases loop over W warps)
  // launch blocks of W warps: the largest such W sets the module's block
  // size, which the warp-item kernels of the module share (they run on any
  // block size). An item with a block op (a barrier on the GPU) is a block
  // item too, of the op's W warps, even without phases: with W = 1,
  // canonicalization inlines the one-iteration phases, and as warp items
  // the block of W warps would have become one of the module's blocks of
  // several warps, each warp on its own item, all meeting at the op's
  // barriers (one-warp lagged scans hung so on the H100, 2026-11-26).
  int64_t itemWarps = 0;
  for (Operation &op : func.getBody().front())
    if (auto loop = dyn_cast<scf::ParallelOp>(op))
      loop.getBody()->walk([&](Operation *inner) {
        auto phase = dyn_cast<scf::ParallelOp>(inner);
        std::optional<int64_t> w =
            phase ? getConstantIntValue(phase.getUpperBound()[0])
                  : blockOpWarps(inner);
        if (!phase && !w)
          return;
        blockItemLoops.insert(loop);
        if (w)
          itemWarps = std::max(itemWarps, *w);
      });
  if (itemWarps > 32)
    return func.emitOpError("a block work item of ")
           << itemWarps << " warps exceeds the GPU's 32 warps per block";
  if (itemWarps)
    blockSize = itemWarps * 32;

  // Scratch first: every kernel takes all buffers.
  for (Operation &op : func.getBody().front())
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      if (failed(addScratch(alloc)))
        return failure();

  int index = 0;
  for (Operation &op : func.getBody().front()) {
    if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      if (failed(outline(loop, index++)))
        return failure();
      continue;
    }
    if (isa<memref::AllocOp, memref::DeallocOp, func::ReturnOp, memref::DimOp>(
            op) ||
        isRecomputable(&op))
      continue;
    return emitError(op.getLoc())
           << "'" << op.getName()
           << "' cannot run on the GPU outside a kernel (the mma form puts "
              "all work in scf.parallel loops): lower it to loops first "
              "(linalg: --convert-linalg-to-parallel-loops)";
  }

  // Programmatic dependent launch (sm_90): every kernel first lets the
  // next one be scheduled (its blocks then wait on SMs this kernel's last
  // wave leaves free, instead of the launch starting when it ends), then
  // waits until the kernel before it has finished and its writes are
  // visible, as a serial launch would. Without the launch attribute (the
  // first kernel, a runtime or device without it) both return at once.
  if (dependentLaunch && kernels.size() > 1) {
    for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
      OpBuilder kb = OpBuilder::atBlockBegin(&kernel.getBody().front());
      NVVM::GriddepcontrolOp::create(
          kb, kernel.getLoc(), NVVM::GridDepActionKind::launch_dependents);
      NVVM::GriddepcontrolOp::create(kb, kernel.getLoc(),
                                     NVVM::GridDepActionKind::wait);
    }
    module->setAttr(kPlanDependentLaunchAttr, UnitAttr::get(func.getContext()));
  }

  if (hostLaunch &&
      failed(launchFromHost(func, module, launches, hostArgs, blockSize)))
    return failure();

  Builder b(func.getContext());
  module->setAttr(kPlanBlockAttr, b.getI64IntegerAttr(blockSize));
  module->setAttr(kPlanKernelsAttr, b.getArrayAttr(kernels));
  module->setAttr(kPlanScratchAttr, b.getArrayAttr(scratch));
  if (itemsKnown)
    module->setAttr(kPlanItemsAttr, b.getArrayAttr(items));
  return success();
}

LogicalResult gpu_lowering::outlineKernels(func::FuncOp func, int64_t blockSize,
                                           bool dependentLaunch,
                                           bool hostLaunch) {
  auto top = func->getParentOfType<ModuleOp>();
  OpBuilder b(func);
  auto module = gpu::GPUModuleOp::create(b, func.getLoc(),
                                         (func.getName() + "_kernels").str());
  // A host that launches its kernels launches them one after the other
  // (no programmatic dependent launch).
  if (failed(Outliner(func, module, blockSize, dependentLaunch && !hostLaunch,
                      hostLaunch)
                 .run())) {
    module.erase();
    return failure();
  }
  top->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
               UnitAttr::get(func.getContext()));
  if (!hostLaunch)
    func.erase();
  return success();
}

namespace {

struct TCUOutlineKernelsPass
    : tcu::impl::TCUOutlineKernelsBase<TCUOutlineKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (blockSize < 32 || blockSize % 32 || blockSize > 1024) {
      module.emitError("block-size must be a multiple of 32 in [32, 1024]");
      return signalPassFailure();
    }
    for (auto func :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      if (failed(outlineKernels(func, blockSize, dependentLaunch, hostLaunch)))
        return signalPassFailure();
    }
  }
};

} // namespace
