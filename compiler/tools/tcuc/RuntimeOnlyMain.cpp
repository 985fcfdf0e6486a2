//===- RuntimeOnlyMain.cpp - `tcuc` of a build without the compiler -------===//
//
// A GPU machine without LLVM builds tcuc with TCUC_ENABLE_COMPILER=OFF. Its
// `tcuc` has the `run` subcommand only, with the full driver's flags, and
// runs kernels from the runtime's cache (filled elsewhere with
// `tcuc compile --cache-dir`). No LLVM here, so flags are parsed by hand.
//
//===----------------------------------------------------------------------===//

#include "DriverArgs.h"
#include "RunJob.h"

#include "tcuc/DiskCache.h"
#include "tcuc/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>

using namespace tcuc;

namespace {
const char *kUsage =
    "tcuc (runtime-only build): run kernels from the kernel cache on the GPU\n"
    "\n"
    "usage: tcuc run [--op reduce|scan] [--segment S] [-n N] [--dtype T]\n"
    "                [--out-dtype T] [--exclusive] [--reverse] [--variant V]\n"
    "                [--tiles-per-warp K] [--warps-per-block W] [--seed X]\n"
    "                [--input FILE] [--output FILE] [--check] [--json]\n"
    "                [--offsets FILE [--offset-type i32|i64]] [--decay A]\n"
    "                [--decay-file FILE]\n"
    "                [--device gpu]\n"
    "Defaults: --op reduce, --segment 256, -n 1048576 (or from the --input\n"
    "file's size), --dtype f16, --out-dtype f32 for float input and i32 for\n"
    "i8, --variant and --tiles-per-warp / --warps-per-block 0: the cost\n"
    "model's choice, --seed 1, --offset-type i64, --device gpu.\n"
    "(Flags take one dash or two: -n N and --n N are the same; each at most\n"
    "once. Numbers are decimal. --output - writes the data to standard\n"
    "output and the report to standard error. --offsets: segments of any\n"
    "lengths from k+1 raw little-endian int64 CSR offsets instead of\n"
    "--segment; n is then the last offset. --decay A: a decayed scan,\n"
    "h = A*h + x within each segment (A in [-1, 1]; 1 is the plain scan).\n"
    "--decay-file FILE: one decay per segment, raw little-endian float32.\n"
    "--json prints one JSON object, errors included.)\n"
    "Exit codes: 0 ok, 1 --check mismatch, 2 usage or input error, 3 GPU,\n"
    "driver or kernel failure.\n"
    "\n"
    "Kernels come from the cache ($TCUC_CACHE_DIR, else ~/.cache/tcuc); fill\n"
    "it on a machine with the compiler: tcuc compile ... --cache-dir DIR.\n";

/// Set from argv before parsing, so that every usage error is JSON too.
bool jsonWanted = false;

int usage(const std::string &message) {
  std::fprintf(stderr, "tcuc: %s\n\n%s", message.c_str(), kUsage);
  if (jsonWanted)
    std::printf("{\"ok\": false, \"exit_code\": %d, \"error\": %s}\n",
                driver::kExitUsage, driver::jsonString(message).c_str());
  return driver::kExitUsage;
}

} // namespace

int main(int argc, char **argv) {
  driver::installOutOfMemoryHandlers("tcuc");
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
  for (int i = 2; i < argc; ++i)
    jsonWanted |=
        !std::strcmp(argv[i], "--json") || !std::strcmp(argv[i], "-json");
  if (std::strcmp(argv[1], "run"))
    return usage(std::string("'") + argv[1] +
                 "' needs the compiler; this build has only 'run'");

  std::map<std::string, std::string> values = {
      {"op", "reduce"},         {"segment", "256"},  {"n", "1048576"},
      {"dtype", "f16"},         {"out-dtype", ""},   {"variant", ""},
      {"tiles-per-warp", "0"},  {"seed", "1"},       {"input", ""},
      {"warps-per-block", "0"}, {"output", ""},      {"device", "gpu"},
      {"offsets", ""},          {"offset-type", ""}, {"decay", ""},
      {"decay-file", ""}};
  std::map<std::string, bool> switches = {{"exclusive", false},
                                          {"reverse", false},
                                          {"check", false},
                                          {"json", false}};
  std::set<std::string> given;
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
    if (switches.count(name) || values.count(name))
      if (!given.insert(name).second)
        return usage("--" + name + " given twice (give each flag once)");
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
  int64_t segment = 0, tiles = 0, warps = 0;
  std::string why;
  for (auto [flag, value] :
       {std::pair<const char *, int64_t *>{"segment", &segment},
        {"n", &request.n},
        {"tiles-per-warp", &tiles},
        {"warps-per-block", &warps}})
    if (!driver::parseDecimal(values[flag], *value, why))
      return usage(std::string("--") + flag + ": " + why);
  if (request.n < 1 && !given.count("offsets"))
    return usage("--n must be >= 1, got " + std::to_string(request.n));
  if (!driver::parseDecimal(values["seed"], request.seed, why))
    return usage("--seed: " + why);
  for (const char *flag : {"input", "output"})
    if (given.count(flag))
      if (std::string e =
              driver::pathError(std::string("--") + flag, values[flag]);
          !e.empty())
        return usage(e);
  std::string error;
  bool csr = given.count("offsets");
  if (given.count("offset-type") && !csr)
    return usage("--offset-type needs --offsets FILE (the segments to run)");
  if (csr && given.count("segment"))
    return usage("--segment and offsets (--offsets, --offset-type) exclude "
                 "each other: offsets give every segment its own length");
  if (!driver::makeSpec(values["op"], csr ? 1 : segment, values["dtype"],
                        values["out-dtype"], switches["exclusive"],
                        switches["reverse"], values["variant"], tiles, warps,
                        spec, error))
    return usage(error);
  if (given.count("decay")) {
    // The compiler build's rules (SpecOptions.cpp parseDecay).
    char *end = nullptr;
    const std::string &text = values["decay"];
    double a = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0')
      return usage("--decay '" + text + "': expected a finite number");
    if (a != 1.0 && !spec.isScan)
      return usage("--decay applies to --op scan only");
    if (std::string e = decayError(a, spec.input); !e.empty())
      return usage("--decay: " + e);
    spec.decay = a;
  }
  if (csr) {
    std::string type = values["offset-type"];
    if (!type.empty() && type != "i32" && type != "i64")
      return usage("unknown --offset-type '" + type +
                   "' (expected i32 or i64)");
    spec.offsetBits = type == "i32" ? 32 : 64;
    if (std::string e = driver::pathError("--offsets", values["offsets"]);
        !e.empty())
      return usage(e);
    if (!driver::readOffsetsFile(values["offsets"], spec.offsetBits,
                                 request.offsets, error))
      return usage(error);
    int64_t last = request.offsets.back();
    if (given.count("n") && request.n != last)
      return usage("--n " + std::to_string(request.n) +
                   " is not the last offset, " + std::to_string(last) +
                   " (leave --n out: the offsets give it)");
    request.n = last;
  }
  if (values["device"] != "gpu")
    return usage("this build runs on --device gpu only (no CPU backend "
                 "without the compiler)");
  request.device = "gpu";
  request.inputFile = values["input"];
  request.outputFile = values["output"];
  request.check = switches["check"];
  request.json = switches["json"];
  if (!driver::inferInputCount(request, csr || given.count("n"), error))
    return usage(error);
  if (given.count("decay-file")) {
    if (spec.decay != 1.0)
      return usage("--decay A and --decay-file exclude each other");
    if (!spec.isScan || !isFloat(spec.input))
      return usage("--decay-file applies to --op scan with f16, bf16 or f32 "
                   "input");
    if (std::string e = driver::pathError("--decay-file", values["decay-file"]);
        !e.empty())
      return usage(e);
    spec.segmentDecays = true;
    int64_t count = csr ? int64_t(request.offsets.size()) - 1
                        : request.n / spec.segmentSize +
                              (request.n % spec.segmentSize != 0);
    if (!driver::readDecaysFile(values["decay-file"], count, spec.input,
                                request.decays, error))
      return usage(error);
  }
  if (!driver::checkHostMemory(request, error) ||
      !driver::checkFiles(request, error))
    return usage(error);

  if (!driver::loadGPUKernel(request, error))
    return driver::reportFailure(request, driver::kExitRuntime,
                                 "loading the GPU kernel failed:\n" + error);
  const std::vector<float> *decays =
      spec.segmentDecays ? &request.decays : nullptr;
  if (csr)
    return driver::runJob(
        request, driver::gpuOffsetsExecutor(spec, request.offsets, decays));
  return driver::runJob(request, driver::gpuExecutor(spec, decays));
}
