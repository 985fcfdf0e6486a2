//===- KernelCompiler.cpp - a kernel spec to a tcuc kernel file -----------===//

#include "tcuc/GPU/KernelCompiler.h"

#include "tcuc/Conversion/Passes.h"
#include "tcuc/DiskCache.h"
#include "tcuc/InitAll.h"
#include "tcuc/KernelFile.h"
#include "tcuc/Pipelines/KernelSource.h"
#include "tcuc/Pipelines/Pipelines.h"
#include "tcuc/Runtime.h"
#include "tcuc/Strategy/CostModel.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

// Linking the compiler is all an application does to compile on first use:
// this registers it with the runtime before main. TCUC::JIT's link option
// `-u tcuc_jit_registered` keeps this object in a static link where nothing
// else of it is referenced (compiler/lib/GPU/CMakeLists.txt).
extern "C" {
extern int tcuc_jit_registered;
int tcuc_jit_registered =
    (tcuc::setDefaultCompiler(tcuc::compileKernelFile), 1);
}

bool tcuc::isSupportedArch(const std::string &target) {
  std::string arch, gpu;
  return splitTarget(target, arch, gpu) && (arch == "sm_80" || arch == "sm_90");
}

namespace {
/// Copies the launch plan tcu-outline-kernels left on the gpu.module into
/// the kernel file's header fields.
LogicalResult readPlan(gpu::GPUModuleOp module, tcuc::KernelFile &file,
                       std::string &error) {
  auto block = module->getAttrOfType<IntegerAttr>(tcu::kPlanBlockAttr);
  auto kernels = module->getAttrOfType<ArrayAttr>(tcu::kPlanKernelsAttr);
  auto scratch = module->getAttrOfType<ArrayAttr>(tcu::kPlanScratchAttr);
  if (!block || !kernels || !scratch) {
    error = "gpu.module has no tcuc launch plan";
    return failure();
  }
  file.blockSize = block.getInt();
  file.dependentLaunch = module->hasAttr(tcu::kPlanDependentLaunchAttr);
  for (Attribute k : kernels)
    file.kernels.push_back(cast<FlatSymbolRefAttr>(k).getValue().str());
  for (Attribute s : scratch) {
    auto pair = cast<ArrayAttr>(s);
    std::string type;
    llvm::raw_string_ostream(type) << cast<TypeAttr>(pair[0]).getValue();
    tcuc::ScratchBuffer buffer;
    tcuc::Status parsed = tcuc::SizeExpr::parse(
        cast<StringAttr>(pair[1]).getValue().str(), buffer.count);
    if (!tcuc::scratchElementBytes(type) || !parsed) {
      error = "unusable scratch buffer " + type + ": " + parsed.message();
      return failure();
    }
    buffer.type = type;
    file.scratch.push_back(std::move(buffer));
  }
  if (auto items = module->getAttrOfType<ArrayAttr>(tcu::kPlanItemsAttr)) {
    for (Attribute a : items) {
      tcuc::SizeExpr count;
      tcuc::Status parsed =
          tcuc::SizeExpr::parse(cast<StringAttr>(a).getValue().str(), count);
      if (!parsed) {
        error = "unusable work-item count: " + parsed.message();
        return failure();
      }
      file.items.push_back(std::move(count));
    }
  }
  return success();
}
} // namespace

tcuc::Status tcuc::compileKernelFile(const KernelSpec &spec,
                                     const std::string &arch,
                                     std::string &kernelFile) {
  if (!isSupportedArch(arch)) {
    // A chip's own name: say which kernels it runs (tcuc::kernelTargetFor).
    std::string why, target = kernelTargetFor(arch, &why);
    return Status::error(
        "unsupported GPU architecture '" + arch +
        "' (kernels are compiled for sm_80 or sm_90, optionally :MODEL; " +
        (target.empty() ? why : arch + " runs the " + target + " kernels") +
        ")");
  }
  MLIRContext ctx;
  DialectRegistry registry;
  tcu::registerTCUCKernelDialects(registry);
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

  // `arch` is a target: the architecture, and the GPU model whose rows
  // the cost model reads first (tcuc::splitTarget; checked above).
  std::string chip, gpu;
  tcuc::splitTarget(arch, chip, gpu);
  tcu::TCUToPTXOptions options;
  options.chip = chip;
  options.gpu = gpu;
  // The strategy first, read before stage 1 lowers it away: the header
  // says what runs.
  tcu::StrategyChoice chosen;
  if (failed(tcu::runStrategyStep(*module, &options, chosen)))
    return fail("choosing the strategy failed");
  KernelFile plan;
  plan.specKey = spec.key();
  plan.arch = arch;
  plan.version = tcuc::version();
  plan.build = tcuc::buildId();
  plan.variant = tcu::stringifyVariant(chosen.variant).str();
  plan.tilesPerWarp = static_cast<int>(chosen.tilesPerWarp);
  plan.warpsPerBlock = static_cast<int>(chosen.warpsPerBlock);
  plan.offsetBits = spec.offsetBits;
  plan.runtimeDecay = spec.runtimeDecay;
  plan.segmentDecays = spec.segmentDecays;
  if (spec.runtimeSegment) {
    // The sizes the chosen variant's kernel takes (the runtime checks each
    // launch against them).
    auto range = tcu::getRuntimeSegmentRange(chosen.variant, spec.isScan);
    if (!range)
      return fail("variant '" + plan.variant +
                  "' does not take the segment size at launch");
    plan.runtimeSegment = true;
    plan.segmentMin = range->first;
    plan.segmentMax = range->second;
  }
  // Stage 1 leaves the launch plan on the gpu.module; stage 2 serializes the
  // module to PTX (and drops its attributes), so read the plan in between.
  PassManager kernels(&ctx);
  tcu::buildTCUToGPUKernelsPipeline(kernels, options,
                                    /*selectStrategy=*/false);
  if (failed(kernels.run(*module)))
    return fail("lowering to GPU kernels failed");
  auto gpuModules = module->getOps<gpu::GPUModuleOp>();
  if (std::distance(gpuModules.begin(), gpuModules.end()) != 1)
    return fail("expected one gpu.module");
  std::string planError;
  if (failed(readPlan(*gpuModules.begin(), plan, planError)))
    return fail(planError);

  PassManager ptx(&ctx);
  tcu::buildGPUKernelsToPTXPipeline(ptx, options);
  if (failed(ptx.run(*module)))
    return fail("lowering to PTX failed");
  for (auto binary : module->getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects()) {
      kernelFile = formatKernelFileHeader(plan) +
                   cast<gpu::ObjectAttr>(object).getObject().str();
      // What the runtime will load must pass its parser.
      KernelFile check;
      if (Status s = parseKernelFile(kernelFile, check); !s)
        return fail("the kernel file does not parse: " + s.message());
      return Status::success();
    }
  return fail("no PTX was produced");
}
