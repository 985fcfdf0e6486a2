//===- KernelSource.cpp - the MLIR source of a kernel spec ----------------===//

#include "tcuc/Pipelines/KernelSource.h"

#include <sstream>

std::string tcuc::buildKernelSource(const KernelSpec &spec) {
  std::string in = dtypeName(spec.input);
  std::string out = dtypeName(spec.output);
  std::ostringstream os;
  os << "func.func @tcuc_kernel(%in: memref<?x" << in << ">, %out: memref<?x"
     << out << ">) attributes {llvm.emit_c_interface} {\n  ";
  if (spec.isScan)
    os << "tcu.segmented_scan <add> "
       << (spec.inclusive ? "inclusive" : "exclusive");
  else
    os << "tcu.segmented_reduce <add>";
  os << " %in into %out segment_size " << spec.segmentSize;
  if (!spec.variant.empty())
    os << " {variant = #tcu.variant<" << spec.variant << ">}";
  os << " : memref<?x" << in << "> -> memref<?x" << out << ">\n"
     << "  return\n}\n";
  return os.str();
}
