//===- BufferizableOpInterfaceImpl.h - bufferize tcu tensor ops -*- C++ -*-===//
//
// One-shot bufferization of tcu.reduce and tcu.scan (the tensor forms) into
// tcu.segmented_reduce and tcu.segmented_scan on buffers.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_DIALECT_TCU_BUFFERIZABLEOPINTERFACEIMPL_H
#define TCUC_DIALECT_TCU_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace tcu {
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace tcu
} // namespace mlir

#endif // TCUC_DIALECT_TCU_BUFFERIZABLEOPINTERFACEIMPL_H
