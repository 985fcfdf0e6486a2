//===- Ptxas.cpp - cubins for kernel files --------------------------------===//

#include "Ptxas.h"

#include "tcuc/Spec.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

std::string tcuc::driver::findPtxas(const std::string &given) {
  if (given == "none")
    return "";
  if (!given.empty())
    return given;
  SmallVector<StringRef> dirs;
  std::string cudaHome;
  if (const char *h = std::getenv("CUDA_HOME"))
    cudaHome = std::string(h) + "/bin";
  if (!cudaHome.empty())
    dirs.push_back(cudaHome);
  dirs.push_back("/usr/local/cuda/bin");
  if (ErrorOr<std::string> p = sys::findProgramByName("ptxas"))
    return *p;
  if (ErrorOr<std::string> p = sys::findProgramByName("ptxas", dirs))
    return *p;
  return "";
}

tcuc::Status tcuc::driver::assemble(const std::string &ptxas,
                                    const std::string &target,
                                    const std::string &text,
                                    std::string &cubin) {
  std::string arch, gpu;
  if (!splitTarget(target, arch, gpu))
    return Status::error("not a kernel target: '" + target + "'");
  SmallString<128> in, out;
  int fd;
  if (sys::fs::createTemporaryFile("tcuc-kernel", "ptx", fd, in))
    return Status::error("cannot create a temporary file");
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
  }
  if (sys::fs::createTemporaryFile("tcuc-kernel", "cubin", out)) {
    sys::fs::remove(in);
    return Status::error("cannot create a temporary file");
  }
  std::string archFlag = "-arch=" + arch, message;
  SmallVector<StringRef> args = {ptxas,    archFlag, "-O3",
                                 in.str(), "-o",     out.str()};
  int rc = sys::ExecuteAndWait(ptxas, args, std::nullopt, {}, 0, 0, &message);
  Status s = Status::success();
  if (rc != 0) {
    s = Status::error(ptxas + " failed (exit " + std::to_string(rc) + ")" +
                      (message.empty() ? "" : ": " + message));
  } else if (ErrorOr<std::unique_ptr<MemoryBuffer>> buf =
                 MemoryBuffer::getFile(out, /*IsText=*/false)) {
    cubin = (*buf)->getBuffer().str();
  } else {
    s = Status::error("cannot read " + out.str().str());
  }
  sys::fs::remove(in);
  sys::fs::remove(out);
  return s;
}
