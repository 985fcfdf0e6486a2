//===- KernelCompiler.cpp - a kernel spec to a tcuc kernel file -----------===//

#include "tcuc/GPU/KernelCompiler.h"

#include "tcuc/CPU/KernelSpec.h"
#include "tcuc/InitAll.h"
#include "tcuc/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#ifndef TCUC_VERSION
#define TCUC_VERSION "unknown"
#endif

using namespace mlir;

bool tcuc::isSupportedArch(const std::string &arch) {
  return arch == "sm_80" || arch == "sm_90";
}

namespace {
/// The launch plan convert-tcu-mma-to-gpu left on the gpu.module, as kernel
/// file header lines.
LogicalResult writePlan(gpu::GPUModuleOp module, llvm::raw_ostream &os) {
  auto block = module->getAttrOfType<IntegerAttr>("tcuc.block");
  auto kernels = module->getAttrOfType<ArrayAttr>("tcuc.kernels");
  auto scratch = module->getAttrOfType<ArrayAttr>("tcuc.scratch");
  if (!block || !kernels || !scratch)
    return module.emitError("gpu.module has no tcuc launch plan");
  os << "// tcuc.block: " << block.getInt() << "\n";
  for (Attribute s : scratch) {
    auto pair = cast<ArrayAttr>(s);
    os << "// tcuc.scratch: " << cast<TypeAttr>(pair[0]).getValue() << " "
       << cast<StringAttr>(pair[1]).getValue() << "\n";
  }
  for (Attribute k : kernels)
    os << "// tcuc.kernel: " << cast<FlatSymbolRefAttr>(k).getValue() << "\n";
  return success();
}
} // namespace

tcuc::Status tcuc::compileKernelFile(const KernelSpec &spec,
                                     const std::string &arch,
                                     std::string &kernelFile) {
  if (!isSupportedArch(arch))
    return Status::error("unsupported GPU architecture '" + arch +
                         "' (expected sm_80 or sm_90)");
  MLIRContext ctx;
  DialectRegistry registry;
  tcu::registerTCUCDialects(registry);
  ctx.appendDialectRegistry(registry);
  std::string diagnostics;
  llvm::raw_string_ostream errors(diagnostics);
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    errors << diag.str() << "\n";
    return success();
  });
  auto fail = [&](const std::string &what) {
    return Status::error("compiling " + spec.key() + " for " + arch + ": " +
                         what + (diagnostics.empty() ? "" : "\n") +
                         diagnostics);
  };

  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(buildKernelSource(spec), ParserConfig(&ctx));
  if (!module)
    return fail("the spec is invalid");

  tcu::TCUToPTXOptions options;
  options.chip = arch;
  // Stage 1 leaves the launch plan on the gpu.module; stage 2 serializes the
  // module to PTX (and drops its attributes), so read the plan in between.
  PassManager kernels(&ctx);
  tcu::buildTCUToGPUKernelsPipeline(kernels, options);
  if (failed(kernels.run(*module)))
    return fail("lowering to GPU kernels failed");
  std::string header;
  llvm::raw_string_ostream os(header);
  os << "// tcuc kernel file 1\n"
     << "// tcuc.spec: " << spec.key() << "\n"
     << "// tcuc.arch: " << arch << "\n"
     << "// tcuc.version: " << TCUC_VERSION << "\n";
  auto gpuModules = module->getOps<gpu::GPUModuleOp>();
  if (std::distance(gpuModules.begin(), gpuModules.end()) != 1)
    return fail("expected one gpu.module");
  if (failed(writePlan(*gpuModules.begin(), os)))
    return fail("no launch plan");

  PassManager ptx(&ctx);
  tcu::buildGPUKernelsToPTXPipeline(ptx, options);
  if (failed(ptx.run(*module)))
    return fail("lowering to PTX failed");
  for (auto binary : module->getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects()) {
      kernelFile = header + cast<gpu::ObjectAttr>(object).getObject().str();
      return Status::success();
    }
  return fail("no PTX was produced");
}
