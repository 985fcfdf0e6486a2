//===- RuntimeOnlyMain.cpp - `tcuc` of a build without the compiler -------===//
//
// A GPU machine without LLVM builds tcuc with TCUC_ENABLE_COMPILER=OFF. Its
// `tcuc` has the `run` subcommand only, with the full driver's flags, and
// runs kernels from the runtime's cache (filled elsewhere with
// `tcuc compile --cache-dir`). No LLVM here, so flags are parsed by hand.
//
//===----------------------------------------------------------------------===//

#include "RunJob.h"

#include "tcuc/DiskCache.h"
#include "tcuc/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

using namespace tcuc;

namespace {
const char *kUsage =
    "tcuc (runtime-only build): run kernels from the kernel cache on the GPU\n"
    "\n"
    "usage: tcuc run [--op reduce|scan] [--segment S] [-n N] [--dtype T]\n"
    "                [--out-dtype T] [--exclusive] [--variant V]\n"
    "                [--tiles-per-warp K] [--warps-per-block W] [--seed X]\n"
    "                [--input FILE] [--output FILE] [--check] [--json]\n"
    "                [--device gpu]\n"
    "(Flags take one dash or two: -n N and --n N are the same.)\n"
    "\n"
    "Kernels come from the cache ($TCUC_CACHE_DIR, else ~/.cache/tcuc); fill\n"
    "it on a machine with the compiler: tcuc compile ... --cache-dir DIR.\n";

int usage(const std::string &message) {
  std::fprintf(stderr, "tcuc: %s\n\n%s", message.c_str(), kUsage);
  return 2;
}

bool parseInt(const std::string &text, int64_t &value) {
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno || end == text.c_str() || *end)
    return false;
  value = v;
  return true;
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") ||
      !std::strcmp(argv[1], "-h")) {
    std::printf("%s", kUsage);
    return argc < 2 ? 2 : 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::printf("tcuc %s (runtime only; kernels of build %s)\n",
                tcuc::version(), tcuc::buildId());
    return 0;
  }
  if (std::strcmp(argv[1], "run"))
    return usage(std::string("'") + argv[1] +
                 "' needs the compiler; this build has only 'run'");

  std::map<std::string, std::string> values = {
      {"op", "reduce"},         {"segment", "256"}, {"n", "1048576"},
      {"dtype", "f16"},         {"out-dtype", ""},  {"variant", ""},
      {"tiles-per-warp", "0"},  {"seed", "1"},      {"input", ""},
      {"warps-per-block", "0"}, {"output", ""},     {"device", "gpu"}};
  std::map<std::string, bool> switches = {
      {"exclusive", false}, {"check", false}, {"json", false}};
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf("%s", kUsage);
      return 0;
    }
    // One dash or two, as the compiler build's LLVM options take them (its
    // --help spells the element count -n).
    size_t dashes = arg.rfind("--", 0) == 0  ? 2
                    : arg.rfind('-', 0) == 0 ? 1
                                             : 0;
    if (!dashes || arg.size() == dashes)
      return usage("unexpected argument '" + arg + "'");
    std::string name = arg.substr(dashes), value;
    bool hasValue = false;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      hasValue = true;
    }
    if (switches.count(name)) {
      if (hasValue)
        return usage("--" + name + " takes no value");
      switches[name] = true;
      continue;
    }
    if (!values.count(name))
      return usage("unknown flag --" + name);
    if (!hasValue) {
      if (i + 1 >= argc)
        return usage("--" + name + " needs a value");
      value = argv[++i];
    }
    values[name] = value;
  }

  driver::RunRequest request;
  KernelSpec &spec = request.spec;
  int64_t segment = 0, seed = 0;
  if (!parseInt(values["segment"], segment))
    return usage("--segment must be an integer");
  if (!parseInt(values["n"], request.n) || request.n < 1)
    return usage("--n must be an integer >= 1");
  if (!parseInt(values["seed"], seed))
    return usage("--seed must be an integer");
  request.seed = uint64_t(seed);
  int64_t tiles = 0;
  if (!parseInt(values["tiles-per-warp"], tiles))
    return usage("--tiles-per-warp must be an integer");
  int64_t warps = 0;
  if (!parseInt(values["warps-per-block"], warps))
    return usage("--warps-per-block must be an integer");
  std::string error;
  if (!driver::makeSpec(values["op"], segment, values["dtype"],
                        values["out-dtype"], switches["exclusive"],
                        values["variant"], tiles, warps, spec, error))
    return usage(error);
  if (values["device"] != "gpu")
    return usage("this build runs on --device gpu only (no CPU backend "
                 "without the compiler)");
  request.device = "gpu";
  request.inputFile = values["input"];
  request.outputFile = values["output"];
  request.check = switches["check"];
  request.json = switches["json"];
  if (!driver::checkHostMemory(request, error))
    return usage(error);

  if (!driver::loadGPUKernel(request, error)) {
    std::fprintf(stderr, "tcuc run: loading the GPU kernel failed:\n%s\n",
                 error.c_str());
    return 2;
  }
  return driver::runJob(request, driver::gpuExecutor(spec));
}
