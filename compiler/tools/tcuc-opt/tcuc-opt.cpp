//===- tcuc-opt.cpp - mlir-opt with the tcu dialect and tcuc passes -------===//
//
// mlirOptMain's driver, with one difference: a pass that reports an error
// without failing (some upstream conversions emit errors and leave the IR
// half converted) still makes the run fail, so a non-zero exit code always
// goes with an error message and the other way round.
//
//===----------------------------------------------------------------------===//

#include "tcuc/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

using namespace mlir;

static std::atomic<bool> sawError{false};

int main(int argc, char **argv) {
  DialectRegistry registry;
  tcu::registerTCUCDialects(registry);
  tcu::registerTCUCPasses();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv,
      "tcuc-opt: the tcuc optimizer driver\n\n"
      "Reads MLIR with tcu collectives (tcu.segmented_reduce,\n"
      "tcu.segmented_scan), verifies it, runs the passes named on the\n"
      "command line and prints the result. See docs/index.md.\n",
      registry);

  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // Watch every error the passes report (it still reaches the usual
  // handler: returning failure passes it on).
  MlirOptMainConfig cli = config;
  config.setPassPipelineSetupFn([cli](PassManager &pm) {
    pm.getContext()->getDiagEngine().registerHandler([](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        sawError = true;
      return failure();
    });
    return cli.setupPassPipeline(pm);
  });

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(file), registry, config)))
    return 1;
  // The IR was printed; a reported error still fails the run, and the output
  // file (not standard output) is not kept.
  if (sawError && !config.shouldVerifyDiagnostics())
    return 1;
  output->keep();
  return 0;
}
