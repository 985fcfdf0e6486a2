//===- Ptxas.cpp - cubins for kernel files --------------------------------===//

#include "Ptxas.h"
#include "Commands.h"

#include "tcuc/Spec.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;
using tcuc::driver::compileCommand;
using tcuc::driver::libraryCommand;
using tcuc::driver::tcucCategory;

namespace {
cl::opt<std::string> ptxasPath(
    "ptxas",
    cl::desc("ptxas to make cubins with; default: ptxas on PATH, in "
             "$CUDA_HOME/bin or /usr/local/cuda/bin; 'none': no cubins"),
    cl::value_desc("path"), cl::init(""), cl::sub(compileCommand),
    cl::sub(libraryCommand), cl::cat(tcucCategory));

/// ptxas on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin, or empty.
std::string searchPtxas() {
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
} // namespace

tcuc::Status tcuc::driver::findPtxas(std::string &ptxas) {
  if (ptxasPath == "none") {
    ptxas.clear();
    return Status::success();
  }
  if (ptxasPath.empty()) {
    ptxas = searchPtxas();
    return Status::success();
  }
  ptxas = ptxasPath;
  if (!sys::fs::can_execute(ptxas))
    return Status::error("--ptxas: cannot execute '" + ptxas + "'");
  return Status::success();
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
