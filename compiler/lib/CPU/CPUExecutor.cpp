//===- CPUExecutor.cpp - run a tcuc kernel on the CPU ---------------------===//

#include "tcuc/CPU/CPUExecutor.h"

#include "tcuc/InitAll.h"
#include "tcuc/Pipelines/Pipelines.h"
#include "tcuc/Strategy/CostModel.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <vector>

#include <cstring>
#include <functional>
#include <mutex>

using namespace mlir;

namespace {
/// The ABI of a ranked rank-1 memref descriptor (any element type).
struct MemRef1D {
  const void *allocated;
  const void *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};
using KernelFn = void (*)(MemRef1D *, MemRef1D *);
/// A class kernel's entry: the segment size after the buffers.
using SegmentKernelFn = void (*)(MemRef1D *, MemRef1D *, int64_t);
/// An offsets kernel's entry: the offsets after the buffers.
using OffsetsKernelFn = void (*)(MemRef1D *, MemRef1D *, MemRef1D *);
/// The same with the decay given at launch after the other arguments.
using DecayKernelFn = void (*)(MemRef1D *, MemRef1D *, float);
using DecaySegmentKernelFn = void (*)(MemRef1D *, MemRef1D *, int64_t, float);
using DecayOffsetsKernelFn = void (*)(MemRef1D *, MemRef1D *, MemRef1D *,
                                      float);
/// The same with per-segment decays (a buffer) after the other arguments.
using DecaysKernelFn = void (*)(MemRef1D *, MemRef1D *, MemRef1D *);
using DecaysSegmentKernelFn = void (*)(MemRef1D *, MemRef1D *, int64_t,
                                       MemRef1D *);
using DecaysOffsetsKernelFn = void (*)(MemRef1D *, MemRef1D *, MemRef1D *,
                                       MemRef1D *);

/// f32 -> bf16, rounding to nearest even (NaN stays a quiet NaN), for
/// `__truncsfbf2`. LLVM's x86 backend without AVX-512 builds bf16 vectors
/// (the masked loads of bf16 tiles) through f32 and calls that helper, which
/// GCC 12's libgcc (Debian 12) lacks, so the JIT could not resolve it. A bf16
/// result comes back in the low 16 bits of the register a float uses (xmm0
/// on x86-64, s0 on AArch64), so a float carrying those bits is the value.
float truncF32ToBF16(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  uint32_t half;
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    half = (bits >> 16) | 0x0040u;
  else
    half = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
  float out;
  uint32_t outBits = half;
  std::memcpy(&out, &outBits, sizeof(out));
  return out;
}

/// Initializes the native target once per process.
void initNativeTarget() {
  static std::once_flag initTarget;
  std::call_once(initTarget, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}
} // namespace

struct tcuc::CPUKernel::Impl {
  MLIRContext context;
  std::unique_ptr<ExecutionEngine> engine;
  /// A kernel load()ed from object code runs in this JIT instead.
  std::unique_ptr<llvm::orc::LLJIT> jit;
  /// The JIT's entry point; its signature depends on runtimeSegment
  /// (KernelFn or SegmentKernelFn), so it is cast where it is called.
  void *entry = nullptr;
};

tcuc::CPUKernel::~CPUKernel() = default;

std::string tcuc::CPUKernel::hostKey() {
  std::vector<std::string> features;
  for (const auto &f : llvm::sys::getHostCPUFeatures())
    if (f.second)
      features.push_back(f.first().str());
  std::sort(features.begin(), features.end());
  std::string key = llvm::sys::getHostCPUName().str() + "|" LLVM_VERSION_STRING;
  for (const std::string &f : features)
    key += "," + f;
  return key;
}

std::unique_ptr<tcuc::CPUKernel>
tcuc::CPUKernel::load(const KernelSpec &spec, const std::string &object,
                      const std::string &variant, int64_t tilesPerWarp,
                      int64_t warpsPerBlock, std::string &error) {
  initNativeTarget();
  auto fail = [&](llvm::Error e) {
    error = "JIT: " + llvm::toString(std::move(e));
    return nullptr;
  };
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return fail(jit.takeError());
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  // What the ExecutionEngine resolves: the process's symbols (libc, libm)
  // and the bf16 helper.
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!process)
    return fail(process.takeError());
  main.addGenerator(std::move(*process));
  llvm::orc::SymbolMap helpers;
  helpers[(*jit)->mangleAndIntern("__truncsfbf2")] = {
      llvm::orc::ExecutorAddr::fromPtr(&truncF32ToBF16),
      llvm::JITSymbolFlags::Exported};
  if (llvm::Error e = main.define(llvm::orc::absoluteSymbols(helpers)))
    return fail(std::move(e));
  if (llvm::Error e = (*jit)->addObjectFile(
          llvm::MemoryBuffer::getMemBufferCopy(object, "tcuc_kernel.o")))
    return fail(std::move(e));
  auto symbol = (*jit)->lookup("_mlir_ciface_tcuc_kernel");
  if (!symbol)
    return fail(symbol.takeError());

  std::unique_ptr<CPUKernel> kernel(new CPUKernel());
  kernel->impl = std::make_unique<Impl>();
  kernel->impl->entry = symbol->toPtr<void *>();
  kernel->impl->jit = std::move(*jit);
  kernel->chosenVariant = variant;
  kernel->chosenTiles = tilesPerWarp;
  kernel->chosenWarps = warpsPerBlock;
  kernel->runtimeSegment = spec.runtimeSegment;
  kernel->offsetBits = spec.offsetBits;
  kernel->isScan = spec.isScan;
  kernel->runtimeDecay = spec.isScan && spec.runtimeDecay;
  kernel->segmentDecays = spec.isScan && spec.segmentDecays;
  kernel->input = spec.input;
  error.clear();
  return kernel;
}

/// The object code `engine` compiled (it was created with enableObjectDump),
/// through a temporary file: the ExecutionEngine only writes it to one.
static bool takeObject(ExecutionEngine &engine, std::string &object) {
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("tcuc-cpu-kernel", "o", path))
    return false;
  engine.dumpToObjectFile(path);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  (void)llvm::sys::fs::remove(path);
  if (!buffer)
    return false;
  object = (*buffer)->getBuffer().str();
  return !object.empty();
}

std::unique_ptr<tcuc::CPUKernel>
tcuc::CPUKernel::compile(const KernelSpec &spec, std::string &error,
                         bool keepObject) {
  initNativeTarget();

  std::unique_ptr<CPUKernel> kernel(new CPUKernel());
  kernel->impl = std::make_unique<Impl>();
  MLIRContext &ctx = kernel->impl->context;
  DialectRegistry registry;
  tcu::registerTCUCKernelDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  ctx.appendDialectRegistry(registry);

  llvm::raw_string_ostream errors(error);
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    errors << diag.str() << "\n";
    return success();
  });

  std::string source = buildKernelSource(spec);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&ctx));
  if (!module)
    return nullptr;
  // The strategy first, read before the lowering consumes it.
  tcu::StrategyChoice chosen;
  if (failed(tcu::runStrategyStep(*module, /*gpu=*/nullptr, chosen))) {
    errors << "choosing the strategy failed\n";
    return nullptr;
  }
  kernel->chosenVariant = tcu::stringifyVariant(chosen.variant).str();
  kernel->chosenTiles = chosen.tilesPerWarp;
  kernel->chosenWarps = chosen.warpsPerBlock;
  PassManager pm(&ctx);
  tcu::buildTCUToCPUPipeline(pm, /*selectStrategy=*/false);
  if (failed(pm.run(*module))) {
    errors << "tcu-to-cpu pipeline failed\n";
    return nullptr;
  }

  // `transformer` is a function_ref: the std::function it refers to must
  // outlive ExecutionEngine::create (a temporary dangled; found by ASan).
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(/*optLevel=*/1, /*sizeLevel=*/0,
                                /*targetMachine=*/nullptr);
  ExecutionEngineOptions options;
  options.transformer = optimize;
  options.enableObjectDump = keepObject;
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine) {
    errors << "JIT: " << llvm::toString(engine.takeError()) << "\n";
    return nullptr;
  }
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("__truncsfbf2")] = {
        llvm::orc::ExecutorAddr::fromPtr(&truncF32ToBF16),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  auto symbol = (*engine)->lookup("_mlir_ciface_tcuc_kernel");
  if (!symbol) {
    errors << "JIT: " << llvm::toString(symbol.takeError()) << "\n";
    return nullptr;
  }
  kernel->impl->entry = reinterpret_cast<void *>(*symbol);
  // Best effort: a kernel without its object code still runs.
  if (keepObject && !takeObject(**engine, kernel->objectCode))
    kernel->objectCode.clear();
  kernel->runtimeSegment = spec.runtimeSegment;
  kernel->offsetBits = spec.offsetBits;
  kernel->isScan = spec.isScan;
  kernel->runtimeDecay = spec.isScan && spec.runtimeDecay;
  kernel->segmentDecays = spec.isScan && spec.segmentDecays;
  kernel->input = spec.input;
  kernel->impl->engine = std::move(*engine);
  error.clear();
  return kernel;
}

bool tcuc::CPUKernel::checkDecays(const float *decays, int64_t count,
                                  std::string &error) {
  if (segmentDecays != (decays != nullptr)) {
    error = segmentDecays ? "this kernel takes per-segment decays"
                          : "this kernel takes no per-segment decays";
    return false;
  }
  for (int64_t j = 0; decays && j < count; ++j)
    if (!(error = decayError(decays[j], input)).empty()) {
      error = "decays[" + std::to_string(j) + "]: " + error;
      return false;
    }
  return true;
}

bool tcuc::CPUKernel::run(const void *in, int64_t n, void *out,
                          int64_t outLength, int64_t segment,
                          std::string &error, double decay,
                          const float *decays) {
  if (offsetBits) {
    error = "this kernel takes offsets (runOffsets), not a segment size";
    return false;
  }
  if (runtimeDecay && !(error = decayError(decay, input)).empty())
    return false;
  int64_t count = segment > 0 ? n / segment + (n % segment != 0) : 0;
  if (!checkDecays(decays, count, error))
    return false;
  float a = static_cast<float>(decay);
  MemRef1D inDesc{in, in, 0, n, 1};
  MemRef1D outDesc{out, out, 0, outLength, 1};
  MemRef1D decaysDesc{decays, decays, 0, count, 1};
  if (!runtimeSegment) {
    if (segmentDecays)
      reinterpret_cast<DecaysKernelFn>(impl->entry)(&inDesc, &outDesc,
                                                    &decaysDesc);
    else if (runtimeDecay)
      reinterpret_cast<DecayKernelFn>(impl->entry)(&inDesc, &outDesc, a);
    else
      reinterpret_cast<KernelFn>(impl->entry)(&inDesc, &outDesc);
    return true;
  }
  // The kernel does not check the size: a size outside its variant's
  // range would be a wrong answer, not an error.
  error = runtimeSegmentError(chosenVariant, isScan, segment);
  if (!error.empty())
    return false;
  if (segmentDecays)
    reinterpret_cast<DecaysSegmentKernelFn>(impl->entry)(&inDesc, &outDesc,
                                                         segment, &decaysDesc);
  else if (runtimeDecay)
    reinterpret_cast<DecaySegmentKernelFn>(impl->entry)(&inDesc, &outDesc,
                                                        segment, a);
  else
    reinterpret_cast<SegmentKernelFn>(impl->entry)(&inDesc, &outDesc, segment);
  return true;
}

bool tcuc::CPUKernel::runOffsets(const void *in, int64_t n, void *out,
                                 int64_t outLength, const void *offsets,
                                 int64_t count, std::string &error,
                                 double decay, const float *decays) {
  if (!offsetBits) {
    error = "this kernel takes a segment size, not offsets";
    return false;
  }
  if (runtimeDecay && !(error = decayError(decay, input)).empty())
    return false;
  if (!checkDecays(decays, count - 1, error))
    return false;
  MemRef1D decaysDesc{decays, decays, 0, count - 1, 1};
  MemRef1D inDesc{in, in, 0, n, 1};
  MemRef1D outDesc{out, out, 0, outLength, 1};
  MemRef1D offDesc{offsets, offsets, 0, count, 1};
  if (segmentDecays)
    reinterpret_cast<DecaysOffsetsKernelFn>(impl->entry)(&inDesc, &outDesc,
                                                         &offDesc, &decaysDesc);
  else if (runtimeDecay)
    reinterpret_cast<DecayOffsetsKernelFn>(impl->entry)(
        &inDesc, &outDesc, &offDesc, static_cast<float>(decay));
  else
    reinterpret_cast<OffsetsKernelFn>(impl->entry)(&inDesc, &outDesc, &offDesc);
  return true;
}
