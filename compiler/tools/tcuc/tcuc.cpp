//===- tcuc.cpp - the tcuc driver -----------------------------------------===//
//
// Dispatches to one subcommand per file (see Commands.h).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "RunJob.h"

#include "tcuc/DiskCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

cl::OptionCategory tcuc::driver::tcucCategory("tcuc options");

namespace {
/// Whether `tcuc run ... --json` was asked for, read from argv: the option
/// parser may have failed before setting the flag.
bool runWantsJson(int argc, char **argv) {
  if (argc < 2 || StringRef(argv[1]) != "run")
    return false;
  for (int i = 2; i < argc; ++i)
    if (StringRef(argv[i]) == "--json" || StringRef(argv[i]) == "-json")
      return true;
  return false;
}

/// A usage error: the message on stderr (and, for `run --json`, the JSON
/// object), exit code 2.
int usageError(bool json, StringRef message) {
  tcuc::driver::RunRequest request;
  request.json = json;
  if (json)
    return tcuc::driver::reportFailure(request, tcuc::driver::kExitUsage,
                                       message.str());
  errs() << message << "\n";
  return tcuc::driver::kExitUsage;
}

/// An option of `sub` given more than once: an error, not "the last wins".
int rejectRepeatedFlags(cl::SubCommand &sub, bool json) {
  for (auto &[name, option] : cl::getRegisteredOptions(sub)) {
    if (option->getNumOccurrences() <= 1 ||
        !llvm::is_contained(option->Categories, &tcuc::driver::tcucCategory))
      continue;
    std::string message = "-" + std::string(name.size() > 1 ? "-" : "") +
                          name.str() + " given " +
                          std::to_string(option->getNumOccurrences()) +
                          " times (give each flag once)";
    if (json)
      return usageError(json, message);
    return usageError(false, "tcuc " + sub.getName().str() + ": " + message);
  }
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // A failed host allocation is one line and exit code 2, not an abort.
  tcuc::driver::installOutOfMemoryHandlers("tcuc");
  install_bad_alloc_error_handler(
      [](void *, const char *, bool) { tcuc::driver::reportOutOfMemory(0); });
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tcuc " << tcuc::version() << " (kernels of build " << tcuc::buildId()
       << ")\n";
  });
  // libLLVM registers hundreds of backend options; show only ours.
  cl::HideUnrelatedOptions(tcuc::driver::tcucCategory);
  // Errors come back here rather than exiting with LLVM's code 1, which is
  // tcuc's code for a failed --check: a usage error is 2.
  std::string parseErrors;
  raw_string_ostream parseErrorStream(parseErrors);
  bool json = runWantsJson(argc, argv);
  bool parsed = cl::ParseCommandLineOptions(
      argc, argv,
      "tcuc: compile and run segmented reductions and scans on Tensor Cores\n\n"
      "  tcuc inspect FILE   parse and verify a .mlir file, run the cleanup\n"
      "                      pipeline and describe each tcu collective in "
      "it\n"
      "  tcuc compile ...    compile a spec to PTX for sm_80/sm_90 (a kernel\n"
      "                      file: docs/kernel-file.md)\n"
      "  tcuc run ...        compile, run (gpu or cpu) and check a spec\n"
      "  tcuc tune ...       the cost model's tuned table from a benchmark\n"
      "                      sweep (bench/ results.csv)\n"
      "  tcuc library ...    write the kernel library (every segment-class\n"
      "                      kernel, with cubins where ptxas is found)\n\n"
      "'tcuc <subcommand> --help' lists a subcommand's flags.\n"
      "Exit codes: 0 ok, 1 --check mismatch, 2 usage or input error, 3\n"
      "runtime, GPU or compiler failure.\n",
      &parseErrorStream);
  if (!parsed) {
    StringRef text = StringRef(parseErrors).rtrim();
    if (!json)
      return usageError(false, text);
    // LLVM's lines start "tcuc: "; reportFailure adds its own prefix.
    SmallVector<StringRef> lines;
    text.split(lines, '\n');
    std::string message;
    for (StringRef line : lines) {
      line.consume_front("tcuc: ");
      message += (message.empty() ? "" : " ") + line.trim().str();
    }
    return usageError(true, message);
  }

  for (cl::SubCommand *sub :
       {&tcuc::driver::inspectCommand, &tcuc::driver::runCommand,
        &tcuc::driver::compileCommand, &tcuc::driver::tuneCommand,
        &tcuc::driver::libraryCommand})
    if (*sub)
      if (int rc = rejectRepeatedFlags(
              *sub, json && sub == &tcuc::driver::runCommand))
        return rc;
  if (tcuc::driver::inspectCommand)
    return tcuc::driver::runInspect();
  if (tcuc::driver::runCommand)
    return tcuc::driver::runRun();
  if (tcuc::driver::compileCommand)
    return tcuc::driver::runCompile();
  if (tcuc::driver::tuneCommand)
    return tcuc::driver::runTune();
  if (tcuc::driver::libraryCommand)
    return tcuc::driver::runLibrary();

  errs() << "tcuc: no subcommand given; run 'tcuc --help' for the list\n";
  return 2;
}
