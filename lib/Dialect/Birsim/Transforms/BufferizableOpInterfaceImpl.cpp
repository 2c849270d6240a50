//===- BufferizableOpInterfaceImpl.cpp - birsim bufferization -------------===//
#include "birsim/Dialect/Birsim/Transforms/BufferizableOpInterfaceImpl.h"
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace birsim;
using namespace mlir::bufferization;

/// An identity-layout buffer of `type`, its dynamic sizes taken from `like`.
static FailureOr<Value> allocateLike(RewriterBase &rewriter, Location loc,
                                     MemRefType type, Value like,
                                     const BufferizationOptions &options) {
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      dynamicSizes.push_back(memref::DimOp::create(rewriter, loc, like, i));
  return options.createAlloc(rewriter, loc, type, dynamicSizes);
}

/// The buffer of `value`, contiguous as the runtime calls need; a copy
/// when bufferization chose a layout that is not.
static FailureOr<Value> getContiguousBuffer(RewriterBase &rewriter,
                                            Location loc, Value value,
                                            const BufferizationOptions &options,
                                            const BufferizationState &state) {
  FailureOr<Value> buffer = getBuffer(rewriter, value, options, state);
  if (failed(buffer))
    return failure();
  auto type = cast<MemRefType>(buffer->getType());
  if (isContiguousRowMajor(type))
    return buffer;
  auto contiguous =
      MemRefType::get(type.getShape(), type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  FailureOr<Value> copy =
      allocateLike(rewriter, loc, contiguous, *buffer, options);
  if (failed(copy) ||
      failed(options.createMemCpy(rewriter, loc, *buffer, *copy)))
    return failure();
  return copy;
}

/// The identity-layout buffer type of a tensor result.
static MemRefType resultBufferType(Value result) {
  auto tensorType = cast<RankedTensorType>(result.getType());
  return MemRefType::get(tensorType.getShape(), tensorType.getElementType());
}

namespace {

/// reduce / collective_reduce: `result = reduce(dst, src)` written into the
/// buffer of the first operand, which the result is equivalent to.
template <typename OpTy, typename IntoOpTy>
struct InPlaceReduceModel : public BufferizableOpInterface::ExternalModel<
                                InPlaceReduceModel<OpTy, IntoOpTy>, OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &operand,
                               const AnalysisState &) const {
    return operand.getOperandNumber() == 0;
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    if (operand.getOperandNumber() != 0)
      return {};
    return {{op->getResult(0), BufferRelation::Equivalent}};
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto reduce = cast<OpTy>(op);
    Location loc = op->getLoc();
    FailureOr<Value> dst =
        getContiguousBuffer(rewriter, loc, op->getOperand(0), options, state);
    FailureOr<Value> src =
        getContiguousBuffer(rewriter, loc, op->getOperand(1), options, state);
    if (failed(dst) || failed(src))
      return failure();
    IntoOpTy::create(rewriter, loc, reduce.getKind(), *dst, *src);
    replaceOpWithBufferizedValues(rewriter, op, *dst);
    return success();
  }
};

/// The ops with a buffer form (Birsim_HasBufferForm: cast and the BFP
/// family's tensor forms): read the inputs, write a new buffer with the op
/// `<name>_into`, which takes the inputs, the buffer and the same
/// attributes.
template <typename OpTy>
struct NewBufferModel
    : public BufferizableOpInterface::ExternalModel<NewBufferModel<OpTy>,
                                                    OpTy> {
  bool bufferizesToAllocation(Operation *, Value) const { return true; }
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  FailureOr<BufferLikeType> getBufferType(Operation *, Value value,
                                          const BufferizationOptions &,
                                          const BufferizationState &,
                                          SmallVector<Value> &) const {
    return cast<BufferLikeType>(resultBufferType(value));
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    Location loc = op->getLoc();
    SmallVector<Value> inputs;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> input =
          getContiguousBuffer(rewriter, loc, operand, options, state);
      if (failed(input))
        return failure();
      inputs.push_back(*input);
    }
    FailureOr<Value> output = allocateLike(
        rewriter, loc, resultBufferType(op->getResult(0)), inputs[0], options);
    if (failed(output))
      return failure();
    OperationState into(loc, op->getName().getStringRef().str() + "_into");
    if (!into.name.isRegistered())
      return op->emitOpError("has no buffer form ") << into.name;
    into.addOperands(inputs);
    into.addOperands({*output});
    into.addAttributes(op->getAttrDictionary().getValue());
    rewriter.create(into);
    replaceOpWithBufferizedValues(rewriter, op, *output);
    return success();
  }

};

/// NewBufferModel on every op of the ODS list with a buffer form.
template <typename... Ops> void attachBufferForms(MLIRContext *ctx) {
  auto attach = [ctx](auto *tag) {
    using Op = std::remove_pointer_t<decltype(tag)>;
    if constexpr (Op::template hasTrait<birsim::OpTrait::HasBufferForm>())
      Op::template attachInterface<NewBufferModel<Op>>(*ctx);
  };
  (attach(static_cast<Ops *>(nullptr)), ...);
}

} // namespace

void birsim::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, BirsimDialect *) {
    ReduceOp::attachInterface<InPlaceReduceModel<ReduceOp, ReduceIntoOp>>(*ctx);
    CollectiveReduceOp::attachInterface<
        InPlaceReduceModel<CollectiveReduceOp, CollectiveReduceIntoOp>>(*ctx);
    attachBufferForms<
#define GET_OP_LIST
#include "birsim/Dialect/Birsim/IR/BirsimOps.cpp.inc"
        >(ctx);
    ctx->loadDialect<memref::MemRefDialect>();
  });
}
