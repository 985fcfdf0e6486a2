//===- Commands.h - tcuc driver subcommands ---------------------*- C++ -*-===//

#ifndef TCUC_TOOLS_TCUC_COMMANDS_H
#define TCUC_TOOLS_TCUC_COMMANDS_H

#include "DriverArgs.h"

#include "llvm/Support/CommandLine.h"

namespace tcuc::driver {
/// Every tcuc option belongs here, so --help can hide LLVM's global options.
extern llvm::cl::OptionCategory tcucCategory;

/// Integer flags are declared as strings and read with decimalFlag:
/// decimal only (parseDecimal), where LLVM's own parser would read 010 as 8
/// and 0x10 as 16.
template <typename T>
bool decimalFlag(const llvm::cl::opt<std::string> &opt, T &value,
                 std::string &error) {
  std::string why;
  if (parseDecimal(opt, value, why))
    return true;
  error = "--" + opt.ArgStr.str() + ": " + why;
  return false;
}

/// "" when `opt` (a path) was not given or is not empty, else the error.
inline std::string givenPathError(const llvm::cl::opt<std::string> &opt) {
  if (!opt.getNumOccurrences())
    return "";
  return pathError("--" + opt.ArgStr.str(), opt);
}

/// `tcuc inspect FILE`: parse, verify and clean up a .mlir file and describe
/// every tcu collective in it. Returns the process exit code.
extern llvm::cl::SubCommand inspectCommand;
int runInspect();

/// `tcuc run`: compile, run and check one kernel spec.
extern llvm::cl::SubCommand runCommand;
int runRun();

extern llvm::cl::SubCommand compileCommand;
int runCompile();

/// `tcuc library`: the kernel library (every class kernel, per arch).
extern llvm::cl::SubCommand libraryCommand;
int runLibrary();

/// `tcuc tune`: the cost model's tuned table from a benchmark sweep.
extern llvm::cl::SubCommand tuneCommand;
int runTune();
} // namespace tcuc::driver

#endif // TCUC_TOOLS_TCUC_COMMANDS_H
