//===- Compiler.cpp - birsim's compiler, embedded -------------------------===//
//
// include/birsim-c/Compiler.h: a session over one MLIRContext holding at
// most one module, with every diagnostic of its calls kept as text.
//
//===----------------------------------------------------------------------===//

#include "birsim-c/Compiler.h"
#include "birsim-c/Dialects.h"
#include "birsim/Runtime/FunctionInfo.h"

#include "birsim/InitAll.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <iterator>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

using namespace mlir;

namespace {

struct Record {
  int severity;
  std::string location;
  std::string message;
};

/// "file:line:col" for the first file location inside `loc`, as mlir-opt
/// prints it; otherwise the location's own syntax.
std::string locationText(Location loc) {
  std::string text;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      text = (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
              ":" + Twine(file.getColumn()))
                 .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (text.empty()) {
    llvm::raw_string_ostream os(text);
    loc.print(os);
  }
  return text;
}

int severityOf(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return BIRSIM_COMPILER_ERROR;
  case DiagnosticSeverity::Warning:
    return BIRSIM_COMPILER_WARNING;
  case DiagnosticSeverity::Note:
    return BIRSIM_COMPILER_NOTE;
  case DiagnosticSeverity::Remark:
    return BIRSIM_COMPILER_REMARK;
  }
  return BIRSIM_COMPILER_ERROR;
}

/// Every upstream pass and birsim's, once per process.
void registerPassesOnce() {
  static std::once_flag once;
  std::call_once(once, [] { birsim::registerAllPasses(); });
}

} // namespace

struct BirsimCompilerSession {
  BirsimCompilerSession() : context(registry()) {
    context.loadAllAvailableDialects();
    // A diagnostic's location names its op; no "see current operation".
    context.printOpOnDiagnostic(false);
  }

  static DialectRegistry registry() {
    DialectRegistry registry;
    birsim::registerAllDialects(registry);
    return registry;
  }

  /// Runs `body` with this session's handler collecting diagnostics;
  /// returns 0 when it succeeded and no error was reported.
  template <typename Body> int collect(Body body) {
    size_t errorsBefore = errorCount();
    LogicalResult result = failure();
    {
      ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
        add(severityOf(diag.getSeverity()), diag.getLocation(), diag.str());
        for (Diagnostic &note : diag.getNotes())
          add(BIRSIM_COMPILER_NOTE, note.getLocation(), note.str());
        return success();
      });
      result = body();
    }
    return succeeded(result) && errorCount() == errorsBefore ? 0 : 1;
  }

  void add(int severity, Location loc, std::string message) {
    add(severity, locationText(loc), std::move(message));
  }
  void add(int severity, std::string location, std::string message) {
    records.push_back({severity, std::move(location), std::move(message)});
  }
  size_t errorCount() const {
    size_t n = 0;
    for (const Record &r : records)
      n += r.severity == BIRSIM_COMPILER_ERROR;
    return n;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::vector<Record> records;
  std::string diagnosticsText;
  std::string printed;
};

const char *birsimCompilerSeverityName(int severity) {
  static const char *const names[] = {"error", "warning", "note", "remark"};
  return severity >= 0 && severity < int(std::size(names)) ? names[severity]
                                                           : nullptr;
}

const char *birsimCompilerVersion(void) { return BIRSIM_VERSION_STRING; }

BirsimCompilerSession *birsimCompilerSessionCreate(void) {
  registerPassesOnce();
  return new (std::nothrow) BirsimCompilerSession();
}

void birsimCompilerSessionDestroy(BirsimCompilerSession *session) {
  delete session;
}

int birsimCompilerParse(BirsimCompilerSession *session, const char *data,
                        size_t size, const char *name) {
  if (!session)
    return 1;
  session->records.clear();
  if (!data && size != 0) {
    session->add(BIRSIM_COMPILER_ERROR, "<input>", "no data (NULL) of size " +
                                                       std::to_string(size));
    return 1;
  }
  std::string bufferName = name ? name : "<input>";
  OwningOpRef<ModuleOp> parsed;
  int status = session->collect([&]() -> LogicalResult {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(
            llvm::StringRef(data ? data : "", size), bufferName),
        llvm::SMLoc());
    ParserConfig config(&session->context);
    parsed = parseSourceFile<ModuleOp>(sourceMgr, config);
    return success(static_cast<bool>(parsed));
  });
  if (status == 0)
    session->module = std::move(parsed);
  return status;
}

int birsimCompilerRun(BirsimCompilerSession *session, const char *pipeline) {
  if (!session)
    return 1;
  if (!session->module) {
    session->add(BIRSIM_COMPILER_ERROR, "<pipeline>",
                 "no module: parse one first (birsimCompilerParse)");
    return 1;
  }
  if (!pipeline) {
    session->add(BIRSIM_COMPILER_ERROR, "<pipeline>", "no pipeline (NULL)");
    return 1;
  }
  // The module's own pipeline: "builtin.module(...)" unwrapped, or its passes.
  StringRef text = StringRef(pipeline).trim();
  StringRef anchor = ModuleOp::getOperationName();
  if (text.starts_with(anchor) &&
      text.drop_front(anchor.size()).ltrim().starts_with("(") &&
      text.ends_with(")"))
    text = text.drop_front(anchor.size()).ltrim().drop_front().drop_back();
  PassManager pm(&session->context, anchor);
  std::string parseErrors;
  llvm::raw_string_ostream errorStream(parseErrors);
  if (failed(parsePassPipeline(text, pm, errorStream))) {
    session->add(BIRSIM_COMPILER_ERROR, "<pipeline>",
                 "invalid pass pipeline '" + std::string(pipeline) +
                     "': " + StringRef(parseErrors).trim().str());
    return 1;
  }
  // On a copy, so that a failing pass leaves the session's module whole.
  OwningOpRef<ModuleOp> work(session->module->clone());
  int status = session->collect([&] { return pm.run(*work); });
  if (status == 0)
    session->module = std::move(work);
  return status;
}

int birsimCompilerPrint(BirsimCompilerSession *session, int bytecode,
                        const char **data, size_t *size) {
  if (!session || !data || !size)
    return 1;
  if (!session->module) {
    session->add(BIRSIM_COMPILER_ERROR, "<print>",
                 "no module: parse one first (birsimCompilerParse)");
    return 1;
  }
  session->printed.clear();
  llvm::raw_string_ostream os(session->printed);
  if (bytecode) {
    if (failed(writeBytecodeToFile(*session->module, os))) {
      session->add(BIRSIM_COMPILER_ERROR, "<print>",
                   "the module cannot be written as bytecode");
      return 1;
    }
  } else {
    session->module->print(os);
  }
  os.flush();
  *data = session->printed.c_str();
  *size = session->printed.size();
  return 0;
}

const char *birsimCompilerDiagnostics(BirsimCompilerSession *session) {
  if (!session)
    return "";
  std::string &text = session->diagnosticsText;
  text.clear();
  for (const Record &r : session->records)
    text += r.location + ": " + birsimCompilerSeverityName(r.severity) + ": " +
            r.message + "\n";
  return text.c_str();
}

size_t birsimCompilerDiagnosticCount(BirsimCompilerSession *session) {
  return session ? session->records.size() : 0;
}

int birsimCompilerDiagnostic(BirsimCompilerSession *session, size_t index,
                             int *severity, const char **location,
                             const char **message) {
  if (!session || index >= session->records.size() || !severity ||
      !location || !message)
    return 1;
  const Record &r = session->records[index];
  *severity = r.severity;
  *location = r.location.c_str();
  *message = r.message.c_str();
  return 0;
}

//===----------------------------------------------------------------------===//
// The function table (birsim-c/CompilerFunctions.def)
//===----------------------------------------------------------------------===//

namespace {
/// A row's result and parameter types, and a function's, to compare.
struct Head {};
template <typename... Types> struct TypeList {};
template <typename Function> struct SignatureOf;
template <typename Result, typename... Args>
struct SignatureOf<Result (*)(Args...)> {
  using type = TypeList<Head, Result, Args...>;
};
} // namespace

#define BIRSIM_ARG(CType, Role) , CType
#define BIRSIM_COMPILER_FUNCTION(Name, Result, ...)                            \
  static_assert(std::is_same_v<SignatureOf<decltype(&Name)>::type,             \
                               TypeList<Head, Result __VA_ARGS__>>,            \
                #Name "'s row differs from Compiler.h");
#include "birsim-c/CompilerFunctions.def"

#define BIRSIM_ARG(CType, Role) birsim::describeCType<CType>(#CType, #Role),
#define BIRSIM_COMPILER_FUNCTION(Name, Result, ...)                            \
  static constexpr birsim_function_param Name##Params[] = {                    \
      __VA_ARGS__ birsim::describeCType<void>(nullptr, nullptr)};
#include "birsim-c/CompilerFunctions.def"

static const struct birsim_function_info kCompilerFunctions[] = {
#define BIRSIM_ARG(CType, Role)
#define BIRSIM_COMPILER_FUNCTION(Name, Result, ...)                            \
  {#Name,                                                                      \
   birsim::describeCType<Result>(#Result, ""),                                 \
   Name##Params,                                                               \
   uint32_t(std::size(Name##Params) - 1),                                      \
   0,                                                                          \
   0},
#include "birsim-c/CompilerFunctions.def"
};

int birsimCompilerFunctionCount(void) {
  return int(std::size(kCompilerFunctions));
}

int birsimCompilerFunctionInfo(int index, struct birsim_function_info *out,
                               size_t out_size) {
  if (!out || out_size < sizeof(struct birsim_function_info) || index < 0 ||
      index >= birsimCompilerFunctionCount())
    return 1;
  std::memcpy(out, &kCompilerFunctions[index], sizeof *out);
  return 0;
}
