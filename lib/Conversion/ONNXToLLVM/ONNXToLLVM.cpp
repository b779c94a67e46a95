//===- ONNXToLLVM.cpp - onnx dialect types and leftovers to LLVM ----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/ONNXToLLVM/ONNXToLLVM.h"
#include "gather/Conversion/Passes.h"
#include "gather/Dialect/ONNX/ONNXOps.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <optional>

namespace gather {
#define GEN_PASS_DEF_CONVERTONNXSTRINGSTOLLVMPASS
#include "gather/Conversion/Passes.h.inc"
} // namespace gather

using namespace mlir;
using namespace gather;

namespace {

/// onnx.ConstantString "bytes" -> {addressof(@bytes-global), len}. One
/// private constant global per distinct content, named by its hash.
struct ConstantStringOpLowering
    : public ConvertOpToLLVMPattern<ONNX::ConstantStringOp> {
  ConstantStringOpLowering(const LLVMTypeConverter &converter,
                           SymbolTableCollection *symbolTables)
      : ConvertOpToLLVMPattern(converter), symbolTables(symbolTables) {}

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
      // Without the caller's tables, one per op (time linear in the
      // module's symbols: a cache kept in the pattern would outlive the
      // module, since convert-to-llvm keeps its patterns across runs).
      std::optional<SymbolTable> ownTable;
      SymbolTable &symbolTable = symbolTables
                                     ? symbolTables->getSymbolTable(module)
                                     : ownTable.emplace(module);
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

private:
  SymbolTableCollection *symbolTables;
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

struct ConvertONNXStringsToLLVMPass
    : public gather::impl::ConvertONNXStringsToLLVMPassBase<
          ConvertONNXStringsToLLVMPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    LLVMTypeConverter converter(context);
    RewritePatternSet patterns(context);
    SymbolTableCollection symbolTables;
    populateONNXToLLVMConversionPatterns(converter, patterns, &symbolTables);
    ConversionTarget target(*context);
    target.addLegalDialect<LLVM::LLVMDialect>();
    target.addIllegalOp<ONNX::ConstantStringOp, ONNX::StringSliceOp>();
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
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

void gather::populateONNXToLLVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns,
    SymbolTableCollection *symbolTables) {
  converter.addConversion([](ONNX::StringType type) -> Type {
    MLIRContext *context = type.getContext();
    return LLVM::LLVMStructType::getLiteral(
        context,
        {LLVM::LLVMPointerType::get(context), IntegerType::get(context, 64)});
  });
  patterns.add<ConstantStringOpLowering>(converter, symbolTables);
  patterns.add<StringSliceOpLowering>(converter);
}

void gather::registerConvertONNXToLLVMInterface(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, ONNX::ONNXDialect *dialect) {
    dialect->addInterfaces<ONNXToLLVMDialectInterface>();
  });
}
