//===- Commands.h - tcuc driver subcommands ---------------------*- C++ -*-===//

#ifndef TCUC_TOOLS_TCUC_COMMANDS_H
#define TCUC_TOOLS_TCUC_COMMANDS_H

#include "llvm/Support/CommandLine.h"

namespace tcuc::driver {
/// Every tcuc option belongs here, so --help can hide LLVM's global options.
extern llvm::cl::OptionCategory tcucCategory;

/// `tcuc inspect FILE`: parse, verify and clean up a .mlir file and describe
/// every tcu collective in it. Returns the process exit code.
extern llvm::cl::SubCommand inspectCommand;
int runInspect();

/// `tcuc run`: compile, run and check one kernel spec.
extern llvm::cl::SubCommand runCommand;
int runRun();

extern llvm::cl::SubCommand compileCommand;
int runCompile();

/// `tcuc tune`: the cost model's tuned table from a benchmark sweep.
extern llvm::cl::SubCommand tuneCommand;
int runTune();
} // namespace tcuc::driver

#endif // TCUC_TOOLS_TCUC_COMMANDS_H
