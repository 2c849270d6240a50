//===- FuzzCompiler.cpp - the compiler session API on arbitrary input -----===//
//
// libFuzzer target (utils/fuzz.sh) over include/birsim-c/Compiler.h, the
// library a Python process loads: an input is a module (MLIR text, or any
// bytes, bytecode's magic included), then, after each NUL, a pass pipeline
// to run on it. Every call must return 0 or 1 and never crash or abort
// the host; a failed call must leave an error diagnostic saying why and
// the session's module as it was; a module that parses must print as text
// and as bytecode, and that bytecode, trusted, must read back.
// Inputs that reach an upstream crash recorded in docs/Errors.md are
// skipped, and so are pipelines whose options name files (the target must
// not write any).
//
//===----------------------------------------------------------------------===//
#include "birsim-c/Compiler.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void check(bool condition, const char *what) {
  if (!condition) {
    std::fprintf(stderr, "FuzzCompiler: %s\n", what);
    std::abort();
  }
}

/// A failed call says why: an error among the diagnostics from `first` on.
void checkFailureSaysWhy(BirsimCompilerSession *session, size_t first) {
  size_t count = birsimCompilerDiagnosticCount(session);
  bool error = false;
  for (size_t i = first; i < count; ++i) {
    int severity;
    const char *location, *message;
    check(birsimCompilerDiagnostic(session, i, &severity, &location,
                                   &message) == 0,
          "a diagnostic below the count cannot be read");
    error |= severity == BIRSIM_COMPILER_ERROR;
  }
  check(error, "a call failed without an error diagnostic");
}

std::string printed(BirsimCompilerSession *session, int bytecode) {
  const char *data;
  size_t size;
  check(birsimCompilerPrint(session, bytecode, &data, &size) == 0,
        "a parsed module does not print");
  return std::string(data, size);
}

/// Pipelines that would write files (birsim-fidelity{report=...},
/// snapshot-op-locations{filename=...}, the IR printers) are not run.
bool writesFiles(const std::string &pipeline) {
  for (const char *word : {"report", "file", "snapshot", "dump", "view",
                           "print", "graph"})
    if (pipeline.find(word) != std::string::npos)
      return true;
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string input(reinterpret_cast<const char *>(data), size);
  // Upstream crashes, recorded in docs/Errors.md: linalg.reduce's parser
  // dereferences a null attribute on `dimensions = = ...` (MLIR 22.1.8).
  if (input.find("linalg.") != std::string::npos)
    return 0;
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    size_t end = input.find('\0', start);
    parts.push_back(input.substr(start, end - start));
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  BirsimCompilerSession *session = birsimCompilerSessionCreate();
  check(session != nullptr, "no session");
  const std::string &module = parts.front();
  int status = birsimCompilerParse(session, module.data(), module.size(),
                                   "fuzz.mlir");
  check(status == 0 || status == 1, "Parse returned neither 0 nor 1");
  if (status != 0) {
    checkFailureSaysWhy(session, 0);
    // The failed parse leaves no module: Run and Print say so.
    check(birsimCompilerRun(session, "canonicalize") == 1,
          "Run without a module succeeded");
    birsimCompilerSessionDestroy(session);
    return 0;
  }
  // Bytecode this library wrote reads back when trusted.
  std::string bytecode = printed(session, 1);
  BirsimCompilerSession *reader = birsimCompilerSessionCreate();
  check(birsimCompilerTrustBytecode(reader, 1) == 0, "trust refused");
  check(birsimCompilerParse(reader, bytecode.data(), bytecode.size(),
                            "fuzz.mlirbc") == 0,
        "bytecode the session wrote does not read back");
  birsimCompilerSessionDestroy(reader);
  for (size_t i = 1; i < parts.size() && i <= 4; ++i) {
    const std::string &pipeline = parts[i];
    if (writesFiles(pipeline))
      continue;
    std::string before = printed(session, 0);
    size_t diagnosticsBefore = birsimCompilerDiagnosticCount(session);
    status = birsimCompilerRun(session, pipeline.c_str());
    check(status == 0 || status == 1, "Run returned neither 0 nor 1");
    if (status != 0) {
      checkFailureSaysWhy(session, diagnosticsBefore);
      check(printed(session, 0) == before,
            "a failed Run changed the session's module");
    }
  }
  (void)birsimCompilerDiagnostics(session);
  birsimCompilerSessionDestroy(session);
  return 0;
}
