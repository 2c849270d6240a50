//===- birsim-opt.cpp - birsim pass driver --------------------------------===//
#include "birsim/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "birsim version " BIRSIM_VERSION_STRING "\n";
  });
  mlir::DialectRegistry registry;
  birsim::registerAllDialects(registry);
  birsim::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "birsim optimizer driver\n", registry));
}
