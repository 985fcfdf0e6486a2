//===- tcuc.cpp - the tcuc driver -----------------------------------------===//
//
// Dispatches to one subcommand per file (see Commands.h).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "tcuc/DiskCache.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

cl::OptionCategory tcuc::driver::tcucCategory("tcuc options");

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tcuc " << tcuc::version() << " (kernels of build " << tcuc::buildId()
       << ")\n";
  });
  // libLLVM registers hundreds of backend options; show only ours.
  cl::HideUnrelatedOptions(tcuc::driver::tcucCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tcuc: compile and run segmented reductions and scans on Tensor Cores\n\n"
      "  tcuc inspect FILE   parse and verify a .mlir file, run the cleanup\n"
      "                      pipeline and describe each tcu collective in "
      "it\n"
      "  tcuc compile ...    compile a spec to PTX for sm_80/sm_90 (a kernel\n"
      "                      file: docs/kernel-file.md)\n"
      "  tcuc run ...        compile, run (gpu or cpu) and check a spec\n"
      "  tcuc tune ...       the cost model's tuned table from a benchmark\n"
      "                      sweep (bench/ results.csv)\n\n"
      "'tcuc <subcommand> --help' lists a subcommand's flags.\n");

  if (tcuc::driver::inspectCommand)
    return tcuc::driver::runInspect();
  if (tcuc::driver::runCommand)
    return tcuc::driver::runRun();
  if (tcuc::driver::compileCommand)
    return tcuc::driver::runCompile();
  if (tcuc::driver::tuneCommand)
    return tcuc::driver::runTune();

  errs() << "tcuc: no subcommand given; run 'tcuc --help' for the list\n";
  return 2;
}
