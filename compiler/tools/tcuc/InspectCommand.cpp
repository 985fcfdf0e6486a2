//===- InspectCommand.cpp - `tcuc inspect` --------------------------------===//
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

/// One line per collective: its shape, types and traffic. `OpTy` is a buffer
/// form (memrefs) or a tensor form (tensors, `init` the destination).
template <typename OpTy>
static void describe(OpTy op, ShapedType inType, ShapedType outType,
                     StringRef what, raw_ostream &os) {
  int64_t n = inType.getDimSize(0), seg = op.getSegmentSize();
  Type acc = tcu::getAccumulatorType(inType.getElementType());
  os << op->getName() << " at " << op.getLoc() << "\n"
     << "  " << what << " of " << describeLength(n) << " x "
     << inType.getElementType();
  if (op.hasOffsets()) {
    os << " in segments given by offsets (" << op.getOffsets().getType()
       << "), accumulate " << acc << ", store " << outType.getElementType()
       << "\n";
    return;
  }
  if (op.hasRuntimeSegmentSize()) {
    os << " in segments of a runtime size, accumulate " << acc << ", store "
       << outType.getElementType() << "\n";
    return;
  }
  os << " in segments of " << seg << ", accumulate " << acc << ", store "
     << outType.getElementType() << "\n";
  if (ShapedType::isDynamic(n) || outType.isDynamicDim(0))
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

/// Describes every collective in `module` (buffer and tensor forms) on `os`
/// when given; returns how many there are.
static unsigned describeAll(ModuleOp module, raw_ostream *os) {
  unsigned count = 0;
  auto scanMode = [](bool inclusive, bool reverse) {
    if (reverse)
      return inclusive ? "inclusive reverse scan" : "exclusive reverse scan";
    return inclusive ? "inclusive scan" : "exclusive scan";
  };
  module->walk([&](Operation *op) {
    if (!isa<tcu::SegmentedReduceOp, tcu::SegmentedScanOp, tcu::ReduceOp,
             tcu::ScanOp>(op))
      return;
    ++count;
    if (!os)
      return;
    if (auto r = dyn_cast<tcu::SegmentedReduceOp>(op))
      describe(r, r.getInputType(), r.getOutputType(), "reduce", *os);
    else if (auto s = dyn_cast<tcu::SegmentedScanOp>(op))
      describe(s, s.getInputType(), s.getOutputType(),
               scanMode(s.getInclusive(), s.getReverse()), *os);
    else if (auto r = dyn_cast<tcu::ReduceOp>(op))
      describe(r, r.getInputType(), r.getInitType(), "reduce", *os);
    else if (auto s = dyn_cast<tcu::ScanOp>(op))
      describe(s, s.getInputType(), s.getInitType(),
               scanMode(s.getInclusive(), s.getReverse()), *os);
  });
  return count;
}

int tcuc::driver::runInspect() {
  DialectRegistry registry;
  // The tensor pipelines' dialects too (tensor, bufferization, linalg), so
  // tensor IR parses.
  tcu::registerTCUCDialects(registry);
  MLIRContext context(registry);

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    errs() << "tcuc inspect: " << error << "\n";
    return 2;
  }
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);

  // Parsing also runs the verifiers of every operation.
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module) {
    errs() << "tcuc inspect: " << inputFile << " did not parse or verify\n";
    return 2;
  }
  outs() << "parsed and verified " << inputFile << "\n";

  unsigned before = describeAll(*module, nullptr);
  PassManager pm(&context);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (failed(pm.run(*module))) {
    errs() << "tcuc inspect: the cleanup pipeline failed\n";
    return 3;
  }
  outs() << "ran pipeline: canonicalize, cse\n";

  unsigned count = describeAll(*module, &outs());
  outs() << count << " tcu collective(s) found";
  // A tensor form whose result is unused is dead code to canonicalize.
  if (before > count)
    outs() << " (" << before - count
           << " more before the pipeline, removed as unused)";
  outs() << "\n";
  if (printIR)
    module->print(outs());
  return 0;
}
