//===- birsim-opt.cpp - birsim pass driver --------------------------------===//
#include "birsim/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  birsim::registerAllDialects(registry);
  birsim::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "birsim optimizer driver\n", registry));
}
