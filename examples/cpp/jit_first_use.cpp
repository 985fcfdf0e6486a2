// Compiles a kernel on first use, with no registration call: an application
// that links TCUC::JIT (the compiler) gets it as the runtime's default
// compiler at start-up (docs/runtime.md#compiling-on-first-use). Needs no
// GPU: it asks for the kernel file an Ampere-or-later GPU would load, with
// the disk cache and the kernel library off so that only the compiler can
// answer, then prints its header. Exit 0 on success, 1 otherwise.
#include <tcuc/Runtime.h>

#include <cstdio>
#include <string>

int main() {
  tcuc::RuntimeOptions options;
  options.diskCache = false;
  options.kernelLibrary = false;
  tcuc::Runtime runtime(options);
  tcuc::KernelSpec spec =
      tcuc::KernelSpec::scan(1000, tcuc::DType::F16, tcuc::DType::F32,
                             /*inclusive=*/true);
  std::string file;
  if (tcuc::Status s = runtime.getKernelFile(spec, "sm_80", file); !s) {
    std::fprintf(stderr, "jit_first_use: %s\n", s.message().c_str());
    return 1;
  }
  // The header: what was compiled, for which architecture, by which build.
  size_t end = 0;
  for (int line = 0; line < 4 && end != std::string::npos; ++line)
    end = file.find('\n', end + 1);
  std::printf("%s\ncompiled on first use: %zu bytes, %llu compile(s)\n",
              file.substr(0, end).c_str(), file.size(),
              static_cast<unsigned long long>(runtime.stats().compiles));
  return 0;
}
