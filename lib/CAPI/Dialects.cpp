//===- Dialects.cpp - The birsim dialect in MLIR's C API ------------------===//
//
// include/birsim-c/Dialects.h: the dialect handle, birsim's passes, and the
// registry of birsim with the upstream dialects it works with.
//
//===----------------------------------------------------------------------===//

#include "birsim-c/Dialects.h"

#include "birsim/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

#include <mutex>

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Birsim, birsim, birsim::BirsimDialect)

void birsimRegisterPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] { birsim::registerBirsimPasses(); });
}

void birsimRegisterAllDialects(MlirDialectRegistry registry) {
  birsim::registerAllDialects(*unwrap(registry));
}
