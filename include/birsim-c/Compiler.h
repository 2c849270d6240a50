/*===- birsim-c/Compiler.h - birsim's compiler, embedded ----------*- C -*-===*\
|*                                                                            *|
|* A small embedding API over MLIR's C API (as IREE's compiler embedding      *|
|* API): a session that parses a module from text or bytecode, runs a pass   *|
|* pipeline given as text, and gives back the module as text or bytecode and *|
|* every diagnostic (errors, warnings, remarks such as --birsim-fidelity's)   *|
|* as text. Every function but Create returns 0 on success, else non-zero    *|
|* with the reason in the session's diagnostics; a failed call leaves the    *|
|* session's module as it was. Library: libbirsim_compiler.so.0. The Python  *|
|* package's birsim.compiler loads it with ctypes (docs/Python.md).          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef BIRSIM_C_COMPILER_H
#define BIRSIM_C_COMPILER_H

#include "birsim/Runtime/Runtime.h" /* struct birsim_function_info */
#include "mlir-c/Support.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A session: its own MLIRContext with birsim and the upstream dialects
/// (birsimRegisterAllDialects) and at most one module. Not thread-safe;
/// sessions are independent.
typedef struct BirsimCompilerSession BirsimCompilerSession;

/// Severities, as MlirDiagnosticSeverity.
enum {
  BIRSIM_COMPILER_ERROR = 0,
  BIRSIM_COMPILER_WARNING = 1,
  BIRSIM_COMPILER_NOTE = 2,
  BIRSIM_COMPILER_REMARK = 3,
};

/// Every function this header exports, as rows numbered
/// 0..birsimCompilerFunctionCount()-1 (birsim-c/CompilerFunctions.def) in
/// the runtime's struct birsim_function_info (`lowered` and `counted` 0),
/// so that bindings build their signatures from the library itself.
/// FunctionInfo fills *out (out_size = sizeof *out): 0, or non-zero for an
/// index past the last row or a null or too small out.
MLIR_CAPI_EXPORTED int birsimCompilerFunctionCount(void);
MLIR_CAPI_EXPORTED int
birsimCompilerFunctionInfo(int index, struct birsim_function_info *out,
                           size_t out_size);

/// A severity's name as diagnostics print it ("error", "warning", "note",
/// "remark"), or NULL for any other number.
MLIR_CAPI_EXPORTED const char *birsimCompilerSeverityName(int severity);

/// birsim's version ("0.8.0").
MLIR_CAPI_EXPORTED const char *birsimCompilerVersion(void);

/// A new session, or NULL when out of memory.
MLIR_CAPI_EXPORTED BirsimCompilerSession *birsimCompilerSessionCreate(void);
MLIR_CAPI_EXPORTED void
birsimCompilerSessionDestroy(BirsimCompilerSession *session);

/// Whether Parse reads MLIR bytecode: 0 (a new session's), refusing it, or
/// 1. MLIR 22's bytecode reader is not safe on malformed bytecode (it can
/// write out of bounds or hang; docs/Errors.md), so trust only bytecode you
/// wrote (Print). 0, or non-zero for a null session or another value.
MLIR_CAPI_EXPORTED int
birsimCompilerTrustBytecode(BirsimCompilerSession *session, int trusted);

/// Parses `size` bytes of MLIR text or bytecode (told apart by bytecode's
/// magic number; bytecode only when trusted, above) named `name` in
/// locations (NULL: "<input>"), verifies the module and makes it the
/// session's. Clears the diagnostics first. Text nested deeper than 256
/// brackets ((), [], {} and <> together, outside strings and comments) is
/// an error before parsing: MLIR's parser recurses on each level and would
/// overflow the stack.
MLIR_CAPI_EXPORTED int birsimCompilerParse(BirsimCompilerSession *session,
                                           const char *data, size_t size,
                                           const char *name);

/// Runs `pipeline` on the session's module: a pipeline as mlir-opt's
/// --pass-pipeline takes it ("builtin.module(convert-to-birsim,canonicalize)")
/// or the passes of the module's own pipeline ("convert-to-birsim,canonicalize",
/// "birsim-fidelity{report=-}"). The module is verified after each pass. On
/// failure the module is the one before the call. A pipeline nested on an op
/// its passes do not run on ("func.func(birsim-to-llvm)"), or on an op the
/// session does not know, is an error before anything runs.
MLIR_CAPI_EXPORTED int birsimCompilerRun(BirsimCompilerSession *session,
                                         const char *pipeline);

/// The session's module as text (bytecode = 0, as mlir-opt prints it) or as
/// MLIR bytecode (bytecode = 1), in *data and *size; valid until the next
/// call on the session. Text ends with a NUL not counted in *size.
MLIR_CAPI_EXPORTED int birsimCompilerPrint(BirsimCompilerSession *session,
                                           int bytecode, const char **data,
                                           size_t *size);

/// The diagnostics since the last Parse, in order, as mlir-opt prints them
/// ("loc: remark: message", notes after their diagnostic), one per line.
/// Valid until the next call on the session.
MLIR_CAPI_EXPORTED const char *
birsimCompilerDiagnostics(BirsimCompilerSession *session);

/// The number of those diagnostics (notes included), and the i-th one:
/// severity (BIRSIM_COMPILER_*), location and message as NUL-terminated
/// text valid until the next call on the session.
MLIR_CAPI_EXPORTED size_t
birsimCompilerDiagnosticCount(BirsimCompilerSession *session);
MLIR_CAPI_EXPORTED int
birsimCompilerDiagnostic(BirsimCompilerSession *session, size_t index,
                         int *severity, const char **location,
                         const char **message);

#ifdef __cplusplus
}
#endif

#endif /* BIRSIM_C_COMPILER_H */
