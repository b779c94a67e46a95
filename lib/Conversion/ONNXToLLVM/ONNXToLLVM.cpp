//===- ONNXToLLVM.cpp - onnx dialect types and leftovers to LLVM ----------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/ONNXToLLVM/ONNXToLLVM.h"
#include "gather/Dialect/ONNX/ONNXOps.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace gather;

namespace {

/// onnx.ConstantString "bytes" -> {addressof(@bytes-global), len}. One
/// private constant global per distinct content, named by its hash.
struct ConstantStringOpLowering
    : public ConvertOpToLLVMPattern<ONNX::ConstantStringOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ONNX::ConstantStringOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef bytes = op.getValue();
    Type structType = getTypeConverter()->convertType(op.getType());
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    Type i64 = rewriter.getI64Type();

    Value data;
    if (bytes.empty()) {
      data = LLVM::ZeroOp::create(rewriter, loc, ptrType);
    } else {
      Operation *module = LLVM::parentLLVMModule(op);
      // (A symbol table per op: a cache kept in the pattern would outlive
      // the module, since convert-to-llvm keeps its patterns across runs.)
      SymbolTable symbolTable(module);
      // Named by a hash of the bytes; a (rare) collision takes the next
      // free suffix, so equal contents share one global and different ones
      // never do.
      std::string base =
          "__onnx_string_" + llvm::utohexstr(llvm::xxh3_64bits(bytes));
      LLVM::GlobalOp global;
      for (unsigned suffix = 0;; ++suffix) {
        std::string name = suffix ? base + "_" + std::to_string(suffix) : base;
        global = symbolTable.lookup<LLVM::GlobalOp>(name);
        if (global) {
          auto value = dyn_cast_or_null<StringAttr>(global.getValueOrNull());
          if (value && value.getValue() == bytes && global.getConstant())
            break;
          continue;
        }
        if (symbolTable.lookup(name))
          continue;
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&module->getRegion(0).front());
        auto arrayType =
            LLVM::LLVMArrayType::get(rewriter.getI8Type(), bytes.size());
        global = LLVM::GlobalOp::create(
            rewriter, loc, arrayType, /*isConstant=*/true,
            LLVM::Linkage::Private, name, rewriter.getStringAttr(bytes),
            /*alignment=*/0);
        symbolTable.insert(global);
        break;
      }
      data = LLVM::AddressOfOp::create(rewriter, loc, global);
    }
    Value size = LLVM::ConstantOp::create(rewriter, loc, i64,
                                          static_cast<int64_t>(bytes.size()));
    Value result = LLVM::PoisonOp::create(rewriter, loc, structType);
    result = LLVM::InsertValueOp::create(rewriter, loc, result, data,
                                         ArrayRef<int64_t>{0});
    result = LLVM::InsertValueOp::create(rewriter, loc, result, size,
                                         ArrayRef<int64_t>{1});
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// onnx.StringSlice %s[%begin, %length] -> {s.data + b, l} with
/// b = umin(begin, s.size) and l = umin(length, s.size - b): never outside
/// the bytes of %s.
struct StringSliceOpLowering
    : public ConvertOpToLLVMPattern<ONNX::StringSliceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ONNX::StringSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value string = adaptor.getString();
    Value data = LLVM::ExtractValueOp::create(rewriter, loc, string,
                                              ArrayRef<int64_t>{0});
    Value size = LLVM::ExtractValueOp::create(rewriter, loc, string,
                                              ArrayRef<int64_t>{1});
    Value begin = LLVM::UMinOp::create(rewriter, loc, adaptor.getBegin(), size);
    Value rest = LLVM::SubOp::create(rewriter, loc, size, begin);
    Value length =
        LLVM::UMinOp::create(rewriter, loc, adaptor.getLength(), rest);
    Value sliceData =
        LLVM::GEPOp::create(rewriter, loc, data.getType(), rewriter.getI8Type(),
                            data, ArrayRef<LLVM::GEPArg>{begin});
    Value result = LLVM::InsertValueOp::create(rewriter, loc, string, sliceData,
                                               ArrayRef<int64_t>{0});
    result = LLVM::InsertValueOp::create(rewriter, loc, result, length,
                                         ArrayRef<int64_t>{1});
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ONNXToLLVMDialectInterface : public ConvertToLLVMPatternInterface {
  using ConvertToLLVMPatternInterface::ConvertToLLVMPatternInterface;

  void populateConvertToLLVMConversionPatterns(
      ConversionTarget &target, LLVMTypeConverter &typeConverter,
      RewritePatternSet &patterns) const final {
    populateONNXToLLVMConversionPatterns(typeConverter, patterns);
  }
};

} // namespace

void gather::populateONNXToLLVMConversionPatterns(LLVMTypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  converter.addConversion([](ONNX::StringType type) -> Type {
    MLIRContext *context = type.getContext();
    return LLVM::LLVMStructType::getLiteral(
        context,
        {LLVM::LLVMPointerType::get(context), IntegerType::get(context, 64)});
  });
  patterns.add<ConstantStringOpLowering, StringSliceOpLowering>(converter);
}

void gather::registerConvertONNXToLLVMInterface(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, ONNX::ONNXDialect *dialect) {
    dialect->addInterfaces<ONNXToLLVMDialectInterface>();
  });
}
