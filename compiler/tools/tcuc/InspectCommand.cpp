//===- InspectCommand.cpp - `tcuc inspect`
//---------------------------------===//
//
// Parses a .mlir file, verifies it, runs the cleanup pipeline and prints one
// line per tcu collective: what it computes and how many bytes it moves.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "tcuc/Dialect/TCU/TCUOps.h"
#include "tcuc/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace llvm;

cl::SubCommand tcuc::driver::inspectCommand(
    "inspect", "Parse, verify and describe the tcu collectives in a file");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<input .mlir file>"),
                                      cl::sub(tcuc::driver::inspectCommand),
                                      cl::cat(tcuc::driver::tcucCategory));
static cl::opt<bool> printIR("print-ir",
                             cl::desc("Also print the IR after the pipeline"),
                             cl::sub(tcuc::driver::inspectCommand),
                             cl::cat(tcuc::driver::tcucCategory));

static std::string describeLength(int64_t n) {
  return ShapedType::isDynamic(n) ? std::string("n (dynamic)")
                                  : std::to_string(n);
}

/// One line per collective: its shape, types and traffic.
template <typename OpTy>
static void describe(OpTy op, StringRef what, raw_ostream &os) {
  MemRefType inType = op.getInputType(), outType = op.getOutputType();
  int64_t n = inType.getDimSize(0), seg = op.getSegmentSize();
  if (op.hasOffsets()) {
    os << op->getName() << " at " << op.getLoc() << "\n"
       << "  " << what << " of " << describeLength(n) << " x "
       << inType.getElementType() << " in segments given by offsets ("
       << op.getOffsets().getType() << "), accumulate "
       << op.getAccumulatorType() << ", store " << outType.getElementType()
       << "\n";
    return;
  }
  os << op->getName() << " at " << op.getLoc() << "\n"
     << "  " << what << " of " << describeLength(n) << " x "
     << inType.getElementType() << " in segments of " << seg << ", accumulate "
     << op.getAccumulatorType() << ", store " << outType.getElementType()
     << "\n";
  if (ShapedType::isDynamic(n))
    return;
  int64_t numSegments = tcu::getNumSegments(n, seg);
  int64_t tail = n % seg;
  os << "  segments: " << numSegments;
  if (tail != 0)
    os << " (" << numSegments - 1 << " full, last holds " << tail << ")";
  os << "; output elements: " << outType.getDimSize(0) << "\n";
  os << "  traffic: reads " << n * tcu::getElementBytes(inType.getElementType())
     << " B, writes "
     << outType.getDimSize(0) * tcu::getElementBytes(outType.getElementType())
     << " B\n";
}

int tcuc::driver::runInspect() {
  DialectRegistry registry;
  tcu::registerTCUCKernelDialects(registry);
  MLIRContext context(registry);

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    errs() << "tcuc inspect: " << error << "\n";
    return 1;
  }
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);

  // Parsing also runs the verifiers of every operation.
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module) {
    errs() << "tcuc inspect: " << inputFile << " did not parse or verify\n";
    return 1;
  }
  outs() << "parsed and verified " << inputFile << "\n";

  PassManager pm(&context);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (failed(pm.run(*module))) {
    errs() << "tcuc inspect: the cleanup pipeline failed\n";
    return 1;
  }
  outs() << "ran pipeline: canonicalize, cse\n";

  unsigned count = 0;
  module->walk([&](Operation *op) {
    if (auto reduce = dyn_cast<tcu::SegmentedReduceOp>(op)) {
      describe(reduce, "reduce", outs());
      ++count;
    } else if (auto scan = dyn_cast<tcu::SegmentedScanOp>(op)) {
      describe(scan, scan.getInclusive() ? "inclusive scan" : "exclusive scan",
               outs());
      ++count;
    }
  });
  outs() << count << " tcu collective(s) found\n";
  if (printIR)
    module->print(outs());
  return 0;
}
