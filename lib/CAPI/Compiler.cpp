//===- Compiler.cpp - birsim's compiler, embedded -------------------------===//
//
// include/birsim-c/Compiler.h: a session over one MLIRContext holding at
// most one module, with every diagnostic of its calls kept as text.
//
//===----------------------------------------------------------------------===//

#include "birsim-c/Compiler.h"
#include "birsim-c/Dialects.h"
#include "birsim/Runtime/FunctionInfo.h"

#include "birsim/Conversion/BirsimToLLVM/PipelineAnchors.h"
#include "birsim/InitAll.h"

#include "mlir/Bytecode/BytecodeReader.h"
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
#include <optional>
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

//===----------------------------------------------------------------------===//
// Nesting of module text (D70)
//===----------------------------------------------------------------------===//

/// The deepest nesting a session parses. MLIR 22's parser takes 1.2 to
/// 2.5 KiB of stack per bracket (nested regions the most) and overflows
/// the 8 MiB main thread near 5,000 regions; at 256, parsing, passes and
/// printing fit in 768 KiB (measured, docs/Errors.md), so a thread of 1 MiB
/// is safe.
constexpr size_t kMaxNestingDepth = 256;

/// Where `text` first nests deeper than `limit` brackets, counting (), [],
/// {} and <> together outside string literals and comments (`->` and `>=`
/// close nothing), or npos. One linear pass: MLIR 22's parser recurses once
/// or more per level and overflows the stack on deep text.
size_t firstTooDeep(StringRef text, size_t limit) {
  size_t depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '"') { // a string literal, with backslash escapes
      for (++i; i < e && text[i] != '"'; ++i)
        i += text[i] == '\\';
      continue;
    }
    if (c == '/' && i + 1 < e && text[i + 1] == '/') { // a comment
      i = text.find('\n', i);
      if (i == StringRef::npos)
        break;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > limit)
        return i;
    } else if (c == ')' || c == ']' || c == '}' ||
               (c == '>' && !(i > 0 && text[i - 1] == '-') &&
                !(i + 1 < e && text[i + 1] == '='))) {
      depth -= depth > 0;
    }
  }
  return StringRef::npos;
}

/// "name:line:col" of `offset` in `text`, as the parser names locations.
std::string positionText(StringRef name, StringRef text, size_t offset) {
  StringRef before = text.take_front(offset);
  size_t line = before.count('\n') + 1;
  size_t lineStart = before.rfind('\n');
  size_t column = offset - (lineStart == StringRef::npos ? 0 : lineStart + 1) + 1;
  return (name + ":" + Twine(line) + ":" + Twine(column)).str();
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
  bool bytecodeTrusted = false;
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

int birsimCompilerTrustBytecode(BirsimCompilerSession *session,
                                int trusted) {
  if (!session)
    return 1;
  if (trusted != 0 && trusted != 1) {
    session->add(BIRSIM_COMPILER_ERROR, "<session>",
                 "trusted must be 0 or 1, got " + std::to_string(trusted));
    return 1;
  }
  session->bytecodeTrusted = trusted;
  return 0;
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
  StringRef input(data ? data : "", size);
  // Upstream's bytecode reader is not safe on malformed bytecode (D71).
  if (isBytecode(llvm::MemoryBufferRef(input, bufferName))) {
    if (!session->bytecodeTrusted) {
      session->add(BIRSIM_COMPILER_ERROR, bufferName,
                   "MLIR bytecode is read only when trusted "
                   "(birsimCompilerTrustBytecode; Python: "
                   "trust_bytecode=True): MLIR 22's bytecode reader can "
                   "write out of bounds or hang on malformed bytecode "
                   "(docs/Errors.md), so trust only bytecode you wrote, or "
                   "pass text");
      return 1;
    }
  } else if (size_t at = firstTooDeep(input, kMaxNestingDepth);
             at != StringRef::npos) {
    // MLIR 22's parser would overflow the stack (D70).
    session->add(BIRSIM_COMPILER_ERROR, positionText(bufferName, input, at),
                 "nesting deeper than " + std::to_string(kMaxNestingDepth) +
                     " brackets ((), [], {} and <> together): MLIR's parser "
                     "recurses on each and would overflow the stack "
                     "(docs/Errors.md)");
    return 1;
  }
  OwningOpRef<ModuleOp> parsed;
  int status = session->collect([&]() -> LogicalResult {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(input, bufferName),
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
  std::vector<birsim::PipelineElement> elements;
  bool tooDeep;
  bool split = succeeded(birsim::splitPassPipeline(text, elements, tooDeep));
  if (tooDeep) {
    session->add(BIRSIM_COMPILER_ERROR, "<pipeline>",
                 "invalid pass pipeline: anchors nest deeper than " +
                     std::to_string(birsim::kMaxPipelineNesting) +
                     " (MLIR's parser and pass manager recurse on each)");
    return 1;
  }
  if (split) {
    if (elements.size() == 1 && elements[0].name == anchor &&
        !elements[0].nested.empty()) {
      text = text.drop_front(anchor.size()).ltrim().drop_front().drop_back();
      std::vector<birsim::PipelineElement> nested =
          std::move(elements[0].nested);
      elements = std::move(nested);
    }
    // Before MLIR builds anything: a pipeline whose passes cannot run at
    // their anchor would abort the process there (D68).
    std::string anchorError;
    if (failed(birsim::checkPipelineAnchors(elements, anchor,
                                            session->context, anchorError))) {
      session->add(BIRSIM_COMPILER_ERROR, "<pipeline>",
                   "invalid pass pipeline '" + std::string(pipeline) +
                       "': " + anchorError);
      return 1;
    }
  } // else MLIR's parser fails on it too, before building, and says why
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
