//===- tcuc-opt.cpp - mlir-opt with the tcu dialect and tcuc passes -------===//

#include "tcuc/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tcu::registerTCUCDialects(registry);
  mlir::tcu::registerTCUCPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "tcuc-opt: the tcuc optimizer driver\n\n"
      "Reads MLIR with tcu collectives (tcu.segmented_reduce,\n"
      "tcu.segmented_scan), verifies it, runs the passes named on the\n"
      "command line and prints the result. See docs/index.md.\n",
      registry));
}
