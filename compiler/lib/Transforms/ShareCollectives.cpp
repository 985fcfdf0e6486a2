//===- ShareCollectives.cpp - tcu-share-collectives -----------------------===//
//
// Identical collectives (same op, attributes and operand types) become calls
// of one private function each, so that a module repeating a collective
// lowers it once. Lowering cost is per collective and large (thousands of
// LLVM instructions each): without this, 5,000 identical collectives took
// minutes to compile for the CPU.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Transforms/Passes.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::tcu {
#define GEN_PASS_DEF_TCUSHARECOLLECTIVES
#include "tcuc/Transforms/Passes.h.inc"
} // namespace mlir::tcu

using namespace mlir;
using namespace mlir::tcu;

namespace {

/// What makes two collectives the same computation.
using CollectiveKey = std::tuple<OperationName, DictionaryAttr, Type, Type>;

struct TCUShareCollectivesPass
    : tcu::impl::TCUShareCollectivesBase<TCUShareCollectivesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::MapVector<CollectiveKey, SmallVector<Operation *>> groups;
    module.walk([&](Operation *op) {
      // Only the two buffers become the shared function's arguments: a
      // collective with more operands (a runtime size, offsets, a runtime
      // decay) stays where it is.
      if (!isa<SegmentedReduceOp, SegmentedScanOp>(op) ||
          op->getNumOperands() != 2)
        return;
      groups[{op->getName(), op->getAttrDictionary(),
              op->getOperand(0).getType(), op->getOperand(1).getType()}]
          .push_back(op);
    });
    SymbolTable symbols(module);
    OpBuilder b(module.getContext());
    for (auto &[key, ops] : groups) {
      if (ops.size() < 2)
        continue;
      Operation *first = ops.front();
      Location loc = first->getLoc();
      auto type = b.getFunctionType(
          {first->getOperand(0).getType(), first->getOperand(1).getType()}, {});
      b.setInsertionPointToEnd(module.getBody());
      auto fn = func::FuncOp::create(b, loc, "__tcu_collective", type);
      fn.setPrivate();
      symbols.insert(fn); // renamed to a unique name if taken
      Block *body = fn.addEntryBlock();
      b.setInsertionPointToEnd(body);
      IRMapping map;
      map.map(first->getOperand(0), body->getArgument(0));
      map.map(first->getOperand(1), body->getArgument(1));
      b.clone(*first, map);
      func::ReturnOp::create(b, loc);
      for (Operation *op : ops) {
        b.setInsertionPoint(op);
        func::CallOp::create(b, op->getLoc(), fn, op->getOperands());
        op->erase();
      }
    }
  }
};

} // namespace
