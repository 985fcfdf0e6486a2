//===- HostLaunch.cpp - the host function launches its kernels ------------===//
//
// tcu-outline-kernels{host-launch}: instead of handing the runtime a launch
// plan, the host function stays and launches its kernels itself, so that
// upstream's host lowering (gpu-to-llvm: mgpuModuleLoadJIT,
// mgpuLaunchKernel, ...) runs it without the tcuc runtime. Each top-level
// work-item loop becomes a `gpu.launch_func` of its kernel, in order on
// the default stream; top-level scratch becomes `gpu.alloc` device memory.
// The function's buffers must be device memory (docs/embedding.md).
//
//===----------------------------------------------------------------------===//

#include "KernelOutlining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

/// Grids are capped here: the kernels grid-stride over their work items,
/// so any grid is correct; this bounds a launch of very many items.
static constexpr int64_t kMaxHostGrid = int64_t(1) << 20;

/// Whether `op` is inside one of the launches' loops.
static bool launchesContain(ArrayRef<KernelLaunch> launches, Operation *op) {
  return llvm::any_of(
      launches, [&](const KernelLaunch &l) { return l.loop->isAncestor(op); });
}

LogicalResult gpu_lowering::launchFromHost(func::FuncOp func,
                                           gpu::GPUModuleOp module,
                                           ArrayRef<KernelLaunch> launches,
                                           ArrayRef<Value> kernelArgs,
                                           int64_t blockSize) {
  // Scratch first (kernel arguments after the function's): device buffers.
  IRMapping map;
  SmallVector<Operation *> erase;
  for (Value arg : kernelArgs) {
    auto alloc = arg.getDefiningOp<memref::AllocOp>();
    if (!alloc)
      continue;
    // gpu-to-llvm lowers device allocations in their async form only: each
    // one waits for nothing before it and is waited for at once.
    OpBuilder b(alloc);
    Location loc = alloc.getLoc();
    Type token = gpu::AsyncTokenType::get(b.getContext());
    Value start =
        gpu::WaitOp::create(b, loc, token, ValueRange()).getAsyncToken();
    auto device =
        gpu::AllocOp::create(b, loc, alloc.getType(), token, ValueRange{start},
                             alloc.getDynamicSizes(), ValueRange(), UnitAttr());
    gpu::WaitOp::create(b, loc, Type(), ValueRange{device.getAsyncToken()});
    map.map(arg, device.getMemref());
    for (Operation *user : llvm::to_vector(alloc->getUsers())) {
      if (!isa<memref::DeallocOp>(user))
        continue;
      OpBuilder db(user);
      Value before =
          gpu::WaitOp::create(db, loc, token, ValueRange()).getAsyncToken();
      auto free = gpu::DeallocOp::create(
          db, user->getLoc(), token, ValueRange{before}, device.getMemref());
      gpu::WaitOp::create(db, loc, Type(), ValueRange{free.getAsyncToken()});
      user->erase();
    }
    // Other host uses (a returned result) take the device buffer; the
    // loops' uses go with the loops.
    alloc.getResult().replaceUsesWithIf(device.getMemref(), [&](OpOperand &u) {
      return !launchesContain(launches, u.getOwner());
    });
    erase.push_back(alloc);
  }
  SmallVector<Value> args;
  for (Value arg : kernelArgs)
    args.push_back(map.lookupOrDefault(arg));

  int64_t warps = blockSize / 32;
  for (const KernelLaunch &launch : launches) {
    scf::ParallelOp loop = launch.loop;
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    auto idx = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    // One warp an item (a block an item for block items), at least one
    // block.
    Value items = loop.getUpperBound()[0];
    Value blocks =
        launch.blockItems
            ? items
            : arith::CeilDivUIOp::create(b, loc, items, idx(warps)).getResult();
    Value grid = arith::MinUIOp::create(
        b, loc, arith::MaxUIOp::create(b, loc, blocks, idx(1)),
        idx(kMaxHostGrid));
    auto kernel = module.lookupSymbol<gpu::GPUFuncOp>(launch.kernel);
    if (!kernel)
      return loop.emitOpError("no kernel ") << launch.kernel;
    Value one = idx(1);
    gpu::LaunchFuncOp::create(b, loc, kernel, {grid, one, one},
                              {idx(blockSize), one, one},
                              /*dynamicSharedMemorySize=*/Value(), args);
    erase.push_back(loop);
  }
  // The loops first: they use the host buffers erased after them.
  for (Operation *op : llvm::reverse(erase))
    op->erase();
  return success();
}
