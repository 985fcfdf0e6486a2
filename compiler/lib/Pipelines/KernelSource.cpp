//===- KernelSource.cpp - the MLIR source of a kernel spec ----------------===//

#include "tcuc/Pipelines/KernelSource.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>

std::string tcuc::buildKernelSource(const KernelSpec &spec) {
  std::string in = dtypeName(spec.input);
  std::string out = dtypeName(spec.output);
  std::ostringstream os;
  // A class kernel takes the segment size as a third argument, after the
  // buffers (the runtime passes it so: docs/kernel-file.md).
  // Offsets (CSR, k+1 of them) come third the same way; a decay given at
  // launch comes last.
  std::string offsets =
      spec.offsetBits ? "memref<?xi" + std::to_string(spec.offsetBits) + ">"
                      : "";
  os << "func.func @tcuc_kernel(%in: memref<?x" << in << ">, %out: memref<?x"
     << out << ">" << (spec.runtimeSegment ? ", %segment: index" : "")
     << (spec.offsetBits ? ", %offsets: " + offsets : "")
     << (spec.isScan && spec.segmentDecays  ? ", %decays: memref<?xf32>"
         : spec.isScan && spec.runtimeDecay ? ", %decay: f32"
                                            : "")
     << ") attributes {llvm.emit_c_interface} {\n  ";
  if (spec.isScan)
    os << "tcu.segmented_scan <add> "
       << (spec.inclusive ? "inclusive" : "exclusive")
       << (spec.reverse ? " reverse" : "");
  else
    os << "tcu.segmented_reduce <add>";
  os << " %in into %out ";
  if (spec.offsetBits)
    os << "offsets %offsets";
  else if (spec.runtimeSegment)
    os << "segment_size %segment";
  else
    os << "segment_size " << spec.segmentSize;
  if (spec.isScan && spec.segmentDecays) {
    os << " decays %decays";
  } else if (spec.isScan && spec.runtimeDecay) {
    os << " decay %decay";
  } else if (spec.isScan && spec.decay != 1.0) {
    // The bits of the f32 the attribute holds (the spec's double rounded to
    // it, as documented), which the parser reads back exactly.
    float a = static_cast<float>(spec.decay);
    uint32_t bits;
    std::memcpy(&bits, &a, sizeof bits);
    char text[16];
    std::snprintf(text, sizeof text, "0x%08X", static_cast<unsigned>(bits));
    os << " decay " << text;
  }
  std::string attrs;
  if (!spec.variant.empty())
    attrs = "variant = #tcu.variant<" + spec.variant + ">";
  if (spec.tilesPerWarp > 0)
    attrs += (attrs.empty() ? "" : ", ") + std::string("tiles_per_warp = ") +
             std::to_string(spec.tilesPerWarp);
  if (spec.warpsPerBlock > 0)
    attrs += (attrs.empty() ? "" : ", ") + std::string("warps_per_block = ") +
             std::to_string(spec.warpsPerBlock);
  if (!attrs.empty())
    os << " {" << attrs << "}";
  os << " : memref<?x" << in << ">" << (spec.offsetBits ? ", " + offsets : "")
     << " -> memref<?x" << out << ">\n"
     << "  return\n}\n";
  return os.str();
}
