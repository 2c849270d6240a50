/*===- birsim-c/Dialects.h - The birsim dialect in MLIR's C API ---*- C -*-===*\
|*                                                                            *|
|* The registration every upstream and out-of-tree dialect has              *|
|* (mlir/examples/standalone's Standalone-c/Dialects.h): a dialect handle    *|
|* for mlirDialectHandleRegisterDialect / mlirDialectHandleInsertDialect,    *|
|* and birsim's passes for mlirParsePassPipeline. Library:                   *|
|* libbirsim_compiler.so.0 (Birsim::Compiler).                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef BIRSIM_C_DIALECTS_H
#define BIRSIM_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Birsim, birsim);

/// Registers birsim's passes and its birsim-to-llvm pipeline globally, as
/// mlirRegisterTransformsPasses does upstream's. Idempotent.
MLIR_CAPI_EXPORTED void birsimRegisterPasses(void);

/// Inserts birsim and every upstream dialect and extension it works with
/// (func, arith, tensor, linalg, tosa, memref, bufferization, llvm, ...)
/// into `registry`, with birsim's bufferization and to-LLVM interfaces.
MLIR_CAPI_EXPORTED void birsimRegisterAllDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif /* BIRSIM_C_DIALECTS_H */
