//===- CPUKernelCache.cpp - CPU kernels kept on disk ----------------------===//
//
// A CPU kernel's object code is cached beside the GPU kernels (cpu/ in the
// disk cache), keyed by its source, this build and this host's code
// generation, so that a kernel is reused only where it was made.
//
//===----------------------------------------------------------------------===//

#include "tcuc/CPU/CPUExecutor.h"
#include "tcuc/DiskCache.h"
#include "tcuc/Pipelines/KernelSource.h"

#include <cstdio>
#include <cstdlib>

using namespace tcuc;

std::unique_ptr<CPUKernel> CPUKernel::cached(const KernelSpec &spec,
                                             std::string &origin,
                                             std::string &error) {
  origin = "compiled";
  std::string dir = cache::defaultDirectory();
  const char *env = std::getenv("TCUC_CPU_CACHE");
  if (dir.empty() || (env && std::string(env) == "0"))
    return compile(spec, error);
  std::string key =
      buildKernelSource(spec) + "|" + tcuc::buildId() + "|" + hostKey();
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.o",
                (unsigned long long)cache::fnv1a64(key));
  std::string cpuDir = dir + "/cpu", path = cpuDir + "/" + name;
  bool trusted =
      cache::checkDirectory(dir).ok() && cache::checkDirectory(cpuDir).ok();
  std::string payload;
  if (trusted && cache::load(path, payload) == cache::LoadResult::Hit) {
    // "tcuc-cpu-kernel 1 VARIANT TILES WARPS\n" then the object code.
    char variant[64] = {0};
    long long tiles = 0, warps = 0;
    size_t eol = payload.find('\n');
    std::string loadError;
    if (eol != std::string::npos &&
        std::sscanf(payload.substr(0, eol).c_str(),
                    "tcuc-cpu-kernel 1 %63s %lld %lld", variant, &tiles,
                    &warps) == 3)
      if (auto kernel = load(spec, payload.substr(eol + 1), variant, tiles,
                             warps, loadError)) {
        origin = "read from the disk cache";
        return kernel;
      }
    // A file that does not link is compiled again and replaced.
  }
  std::unique_ptr<CPUKernel> kernel =
      compile(spec, error, /*keepObject=*/trusted);
  if (kernel && !kernel->object().empty())
    (void)cache::store(path, "tcuc-cpu-kernel 1 " + kernel->variant() + " " +
                                 std::to_string(kernel->tilesPerWarp()) + " " +
                                 std::to_string(kernel->warpsPerBlock()) +
                                 "\n" + kernel->object());
  return kernel;
}
