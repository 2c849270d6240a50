//===- Pipeline.cpp - the birsim-to-llvm pipeline -------------------------===//
#include "birsim/Conversion/BirsimToLLVM/PipelineAnchors.h"
#include "birsim/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void birsim::buildBirsimToLLVMPipeline(
    OpPassManager &pm, const BirsimToLLVMPipelineOptions &options) {
  // Fold birsim ops on constants through the core.
  if (options.foldConstants)
    pm.addPass(createCanonicalizerPass());
  // Elementwise tensor arith into linalg, so that it bufferizes and loops.
  pm.addPass(createConvertElementwiseToLinalgPass());
  // Identity layouts at function boundaries: the runtime takes contiguous
  // buffers.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Loops, vector prints and transfers.
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // birsim ops become runtime calls, then everything else goes to LLVM.
  ConvertBirsimToLLVMPassOptions lowering;
  lowering.fidelityCounters = options.fidelityCounters;
  lowering.fidelityDeviceSite = options.fidelityDeviceSite;
  pm.addPass(createConvertBirsimToLLVMPass(lowering));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createBirsimVerifyLoweredPass());
}

void birsim::registerBirsimToLLVMPipeline() {
  // Registered by hand rather than through PassPipelineRegistration so that
  // the builder can refuse an anchor: the pipeline bufferizes whole modules
  // (One-Shot Bufferize runs on builtin.module only), and adding its passes
  // to a pass manager nested on any other op would abort the process in
  // OpPassManager::addPass (D68).
  registerPassPipeline(
      "birsim-to-llvm",
      "Lower func + birsim ops on tensors to the LLVM dialect, with birsim "
      "ops as calls into libbirsim_runtime.so; runs on builtin.module "
      "(builtin.module(birsim-to-llvm)), never nested on another op",
      [](OpPassManager &pm, StringRef optionsText,
         function_ref<LogicalResult(const Twine &)> errorHandler)
          -> LogicalResult {
        // A top-level pass manager's default anchor is `any` (a C++
        // host's PassManager(&context)); nested under `any(...)` in a
        // text, checkPipelineAnchors refuses it, as MLIR would skip every
        // op there but a module without a word.
        StringRef anchor = pm.getOpAnchorName();
        StringRef module = ModuleOp::getOperationName();
        if (anchor != module && anchor != OpPassManager::getAnyOpAnchorName())
          return errorHandler(
              "birsim-to-llvm runs on '" + module + "', not on '" + anchor +
              "': it bufferizes and lowers whole modules; write " + module +
              "(birsim-to-llvm)");
        BirsimToLLVMPipelineOptions options;
        if (failed(options.parseFromString(optionsText)))
          return failure();
        buildBirsimToLLVMPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionsHandler) {
        optionsHandler(BirsimToLLVMPipelineOptions());
      });
}

//===----------------------------------------------------------------------===//
// Pipelines and their anchors (D68)
//===----------------------------------------------------------------------===//

LogicalResult birsim::splitPassPipeline(StringRef text,
                                        std::vector<PipelineElement> &out,
                                        bool &tooDeep) {
  tooDeep = false;
  if (text.empty())
    return success();
  SmallVector<std::vector<PipelineElement> *, 4> stack = {&out};
  for (;;) {
    std::vector<PipelineElement> &level = *stack.back();
    size_t pos = text.find_first_of(",(){");
    level.push_back({text.substr(0, pos).trim(), StringRef(), {}});
    if (pos == StringRef::npos)
      break;
    text = text.substr(pos);
    if (text.front() == '{') {
      text = text.substr(1);
      size_t close = StringRef::npos;
      for (size_t i = 0, braces = 1; i < text.size(); ++i) {
        if (text[i] == '{')
          ++braces;
        else if (text[i] == '}' && --braces == 0) {
          close = i;
          break;
        }
      }
      if (close == StringRef::npos)
        return failure();
      level.back().options = text.substr(0, close);
      text = text.substr(close + 1).ltrim();
    } else if (text.front() == '(') {
      if (stack.size() > kMaxPipelineNesting) {
        tooDeep = true;
        return failure();
      }
      text = text.substr(1);
      stack.push_back(&level.back().nested);
      continue;
    }
    while (text.consume_front(")")) {
      if (stack.size() == 1)
        return failure();
      stack.pop_back();
      text = text.ltrim();
    }
    if (text.empty())
      break;
    if (!text.consume_front(","))
      return failure();
  }
  return success(stack.size() == 1);
}

// MLIR refuses a single pass restricted to another op with an error, but
// a registered pipeline's builder adds its passes directly. Each pipeline is
// therefore first built into an op-agnostic pass manager, where every pass
// is accepted, and its passes' ops compared with the anchor.

/// The first pass `pipeline` (with `options`) adds at its own level that runs
/// on one op other than `anchor` (none: on one op at all), with that op in
/// `passAnchor`; "" for none, or nullopt when the builder fails (which it
/// does before adding a pass: bad options; birsim-to-llvm off a module).
static std::optional<std::string>
firstPassOffAnchor(const PassPipelineInfo &pipeline, StringRef options,
                   std::optional<StringRef> anchor, std::string &passAnchor) {
  OpPassManager probe(OpPassManager::Nesting::Explicit); // op-agnostic
  auto quiet = [](const Twine &) { return failure(); };
  if (failed(pipeline.addToPipeline(probe, options, quiet)))
    return std::nullopt;
  for (Pass &pass : probe.getPasses()) {
    std::optional<StringRef> op = pass.getOpName();
    if (op && (!anchor || *op != *anchor)) {
      passAnchor = op->str();
      return pass.getArgument().str();
    }
  }
  return std::string();
}

/// Pass options may hold pipelines that MLIR parses later, on an anchor
/// the text does not show (`inline{default-pipeline=sparsifier}` runs on
/// each callable op): a registered pipeline named anywhere in `options`
/// must add no pass restricted to one op at its own level, and take no
/// options of its own, which could change the passes it adds.
static LogicalResult checkOptions(const birsim::PipelineElement &element,
                                  std::string &error) {
  StringRef rest = element.options;
  auto isNameChar = [](char c) {
    return llvm::isAlnum(c) || c == '-' || c == '_' || c == '.';
  };
  while (!rest.empty()) {
    rest = rest.drop_until(isNameChar);
    StringRef word = rest.take_while(isNameChar);
    rest = rest.drop_front(word.size());
    const PassPipelineInfo *pipeline = PassPipelineInfo::lookup(word);
    if (!pipeline)
      continue;
    std::string passAnchor;
    std::optional<std::string> pass =
        firstPassOffAnchor(*pipeline, StringRef(), std::nullopt, passAnchor);
    if (pass && pass->empty() && !rest.ltrim().starts_with("{"))
      continue;
    std::string why =
        !pass ? "it does not build on every op"
        : !pass->empty()
            ? "its pass '" + *pass + "' may not run (it runs on '" +
                  passAnchor + "' only)"
            : "its own options may make it add passes that run on one op "
              "only";
    error = ("pipeline '" + word + "' in the options of '" + element.name +
             "' is refused: MLIR nests it on an op the text does not show, "
             "where " + why + "; run it on its anchor outside the options")
                .str();
    return failure();
  }
  return success();
}

LogicalResult birsim::checkPipelineAnchors(ArrayRef<PipelineElement> elements,
                                           std::optional<StringRef> anchor,
                                           MLIRContext &context,
                                           std::string &error) {
  for (const PipelineElement &element : elements) {
    if (!element.nested.empty()) {
      // Inside `any(...)` a registered pipeline must add no pass
      // restricted to one op either: MLIR would skip it on every other op
      // without a word.
      std::optional<StringRef> nestedAnchor = element.name;
      if (element.name != OpPassManager::getAnyOpAnchorName()) {
        if (!RegisteredOperationName::lookup(element.name, &context)) {
          error = ("'" + element.name +
                   "' is not a registered operation, so no pass could run "
                   "nested on it: anchor passes on a registered op "
                   "(builtin.module, func.func, ...) or on 'any'")
                      .str();
          return failure();
        }
      }
      if (failed(checkPipelineAnchors(element.nested, nestedAnchor, context,
                                      error)))
        return failure();
      continue;
    }
    if (failed(checkOptions(element, error)))
      return failure();
    const PassPipelineInfo *pipeline = PassPipelineInfo::lookup(element.name);
    if (!pipeline || !anchor)
      continue; // a pass: MLIR's parser checks its anchor
    // A builder that fails here fails again in MLIR's parser, which says
    // why.
    std::string passAnchor;
    std::optional<std::string> pass =
        firstPassOffAnchor(*pipeline, element.options, anchor, passAnchor);
    if (pass && !pass->empty()) {
      error = ("pipeline '" + element.name + "' cannot run nested on '" +
               *anchor + "': it adds pass '" + *pass + "', which runs on '" +
               passAnchor + "' only")
                  .str();
      return failure();
    }
  }
  return success();
}
