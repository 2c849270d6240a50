//===- birsim-opt.cpp - birsim pass driver --------------------------------===//
#include "birsim/Conversion/BirsimToLLVM/PipelineAnchors.h"
#include "birsim/InitAll.h"
#include "birsim/Dialect/Birsim/IR/BirsimSizes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

/// Checks --pass-pipeline (or -p) before MlirOptMain builds it: a pipeline
/// nested on an op its passes do not run on would abort there (D68).
static mlir::LogicalResult checkPassPipeline(mlir::DialectRegistry &registry) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("pass-pipeline");
  if (it == options.end())
    return mlir::success();
  // MLIR's PassPipelineCLParser declares it as cl::opt<std::string>.
  const std::string &text =
      static_cast<llvm::cl::opt<std::string> *>(it->second)->getValue();
  std::vector<birsim::PipelineElement> elements;
  bool tooDeep;
  std::string error;
  if (text.empty())
    return mlir::success();
  if (failed(birsim::splitPassPipeline(text, elements, tooDeep))) {
    if (!tooDeep)
      return mlir::success(); // MLIR's parser says what is wrong
    error = "anchors nest deeper than " +
            std::to_string(birsim::kMaxPipelineNesting);
  } else {
    mlir::MLIRContext context(registry);
    context.loadAllAvailableDialects();
    if (succeeded(birsim::checkPipelineAnchors(elements, std::nullopt,
                                               context, error)))
      return mlir::success();
  }
  llvm::errs() << "birsim-opt: invalid pass pipeline '" << text
               << "': " << error << "\n";
  return mlir::failure();
}

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "birsim version " BIRSIM_VERSION_STRING "\n";
  });
  mlir::DialectRegistry registry;
  birsim::registerAllDialects(registry);
  birsim::registerAllPasses();
  birsim::registerFoldLimitOption(); // --birsim-fold-limit (D76)
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "birsim optimizer driver\n", registry);
  if (failed(checkPassPipeline(registry)))
    return 1;
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, inputFilename, outputFilename, registry));
}
