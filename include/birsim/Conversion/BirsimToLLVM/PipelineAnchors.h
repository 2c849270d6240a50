//===- PipelineAnchors.h - check a textual pipeline before MLIR builds it -===//
//
// MLIR builds a textual pass pipeline by calling each registered pipeline's
// builder, which adds its passes directly: a pass restricted to another op
// than the pass manager it lands in makes OpPassManager::addPass abort the
// process ("Can't add pass ... restricted to 'builtin.module'"), as
// `func.func(sparsifier)` does. A host that runs pipelines from strings
// (birsim-opt --pass-pipeline, the compiler session of birsim-c/Compiler.h)
// checks the text with these first and reports an error instead (D68).
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CONVERSION_BIRSIMTOLLVM_PIPELINEANCHORS_H
#define BIRSIM_CONVERSION_BIRSIMTOLLVM_PIPELINEANCHORS_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>
#include <vector>

namespace birsim {

/// One element of a textual pass pipeline as MLIR's parser splits it: a
/// pass or pipeline with its options, or, with nested elements, the op they
/// are anchored on (`any` for every op).
struct PipelineElement {
  llvm::StringRef name;
  llvm::StringRef options;
  std::vector<PipelineElement> nested;
};

/// The deepest a pipeline may nest anchors (`a(b(c(...)))`): MLIR's parser
/// and pass manager recurse on each level, and a pipeline nested 30,000
/// deep overflowed the stack.
constexpr size_t kMaxPipelineNesting = 256;

/// Splits `text` with the grammar of MLIR's parser (TextualPipeline in
/// mlir/lib/Pass/PassRegistry.cpp), step for step; fails where that parser
/// fails, which then says why before building anything, and, setting
/// `tooDeep`, where anchors nest deeper than kMaxPipelineNesting, which the
/// caller must refuse itself.
mlir::LogicalResult splitPassPipeline(llvm::StringRef text,
                                      std::vector<PipelineElement> &out,
                                      bool &tooDeep);

/// Checks that every element of `elements`, nested on `anchor` (none: `any`,
/// or the top of a pipeline written with its anchor), can be added there:
/// each nested anchor is an op `context` knows or `any`, and no registered
/// pipeline adds a pass restricted to another op than its anchor. Single
/// passes are left to MLIR's parser, which refuses them with an error.
/// On failure `error` says which element and why.
mlir::LogicalResult checkPipelineAnchors(llvm::ArrayRef<PipelineElement> elements,
                                         std::optional<llvm::StringRef> anchor,
                                         mlir::MLIRContext &context,
                                         std::string &error);

} // namespace birsim

#endif
