//===- EntryPoints.cpp - The C entry points of a compiled module ----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The public functions of a module before lowering, with the types their C
// declarations need, and the C header that declares them (gather-compile's
// `<output>.h`).
//
//===----------------------------------------------------------------------===//

#include "gather/Compiler/Compiler.h"
#include "gather/Dialect/ONNX/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <set>

using namespace mlir;

/// The C type of one element of `type` (an element type of
/// gather/Runtime/ElementTypes.def, or index), or "" if it has none.
static std::string getCElementType(Type type) {
  if (type.isIndex())
    return "int64_t";
  std::string spelling;
  llvm::raw_string_ostream os(spelling);
  type.print(os);
  // The runtime's C++ spellings of the table, as C spells the same bits;
  // notes in parentheses, as the spelling goes into a C comment.
  auto toC = [](StringRef runtimeType) -> std::string {
    return llvm::StringSwitch<std::string>(runtimeType)
        .Case("Half", "uint16_t (f16 bits)")
        .Case("BFloat", "uint16_t (bf16 bits)")
        .Case("Bool", "uint8_t (i1: 0 or 1)")
        .Case("Complex<float>", "float[2] (re, im)")
        .Case("Complex<double>", "double[2] (re, im)")
        .Case("GatherString", "GatherString")
        .Default(runtimeType.str());
  };
#define GATHER_ELEMENT_TYPE(Suffix, Spelling, CType, ONNXType)                 \
  if (spelling == Spelling)                                                    \
    return toC(#CType);
#include "gather/Runtime/ElementTypes.def"
  return "";
}

/// The C type of a scalar argument or result, or "" if it has none.
static std::string getCScalarType(Type type) {
  if (type.isInteger(1))
    return "bool";
  if (isa<IntegerType, IndexType, FloatType>(type)) {
    std::string element = getCElementType(type);
    // f16 and bf16 scalars pass as LLVM's half/bfloat: no C89 type.
    if (!type.isF16() && !type.isBF16())
      return element;
  }
  return "";
}

/// The reason `type` cannot be in a C declaration, or "".
static std::string checkCType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    if (!isa<RankedTensorType, MemRefType>(type) || !shaped.hasRank())
      return "an unranked or non-tensor shaped type";
    if (auto memref = dyn_cast<MemRefType>(type);
        memref && !memref.getLayout().isIdentity())
      return "a memref with a non-identity layout";
    if (getCElementType(shaped.getElementType()).empty())
      return "an element type the runtime has no C type for";
    return "";
  }
  if (getCScalarType(type).empty())
    return "a type with no C equivalent";
  return "";
}

/// `name` with every character that cannot be in a C identifier replaced.
static std::string toIdentifier(StringRef name) {
  std::string id;
  for (char c : name)
    id += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (id.empty() || llvm::isDigit(id.front()))
    id = "_" + id;
  return id;
}

FailureOr<std::vector<gather::EntryPoint>>
gather::getEntryPoints(ModuleOp module, bool checkForC) {
  std::vector<EntryPoint> entryPoints;
  bool failed = false;
  for (auto function : module.getOps<func::FuncOp>()) {
    if (!function.isPublic() || function.isExternal())
      continue;
    EntryPoint entry{
        function.getSymName().str(), {}, {}, {}, function.getLoc()};
    if (checkForC && toIdentifier(entry.name) != entry.name) {
      emitError(function.getLoc())
          << "entry point '" << entry.name
          << "' is not a C identifier: it cannot be "
             "declared in C (rename it or make it private)";
      failed = true;
    }
    FunctionType type = function.getFunctionType();
    entry.arguments.assign(type.getInputs().begin(), type.getInputs().end());
    entry.results.assign(type.getResults().begin(), type.getResults().end());
    bool kernel = function->hasAttr(ONNX::kGatherKernelAttrName);
    std::set<std::string> taken;
    for (unsigned i = 0, e = entry.arguments.size(); i < e; ++i) {
      std::string name = "arg" + std::to_string(i);
      if (kernel && e == 2)
        name = i == 0 ? "data" : "indices";
      else if (auto onnxName =
                   function.getArgAttrOfType<StringAttr>(i, "onnx.name"))
        name = toIdentifier(onnxName.getValue());
      // Unique, and never `result(s)`, the results' parameter.
      while (name == "result" || name == "results" ||
             !taken.insert(name).second)
        name += "_" + std::to_string(i);
      entry.argumentNames.push_back(name);
    }
    for (auto [kind, types] :
         {std::pair{"argument", ArrayRef<Type>(entry.arguments)},
          std::pair{"result", ArrayRef<Type>(entry.results)}})
      for (auto [i, t] : llvm::enumerate(types)) {
        std::string why = checkForC ? checkCType(t) : "";
        if (why.empty())
          continue;
        emitError(function.getLoc())
            << "entry point '" << entry.name << "' has " << kind << " " << i
            << " of type " << t << ", " << why
            << ": it cannot be declared in C";
        failed = true;
      }
    function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                      UnitAttr::get(module.getContext()));
    entryPoints.push_back(std::move(entry));
  }
  if (failed)
    return failure();
  return entryPoints;
}

/// The descriptor type of a shaped `type`.
static std::string getDescriptorType(Type type) {
  return "GatherMemRef" + std::to_string(cast<ShapedType>(type).getRank());
}

/// `2x?x3xf32` for a shaped type, the type itself otherwise.
static std::string describeType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    for (int64_t size : shaped.getShape())
      os << (ShapedType::isDynamic(size) ? std::string("?")
                                         : std::to_string(size))
         << "x";
    os << shaped.getElementType();
    os << " (elements: " << getCElementType(shaped.getElementType()) << ")";
    return text;
  }
  os << type;
  return text;
}

/// The location of `loc` as one line for a comment (no `*/`).
static std::string describeLocation(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto name = dyn_cast<NameLoc>(loc)) {
    os << name.getName().getValue();
    // An imported node's child is its model file's name.
    if (auto file = dyn_cast<FileLineColLoc>(name.getChildLoc()))
      os << " in " << file.getFilename().getValue();
    else if (auto model = dyn_cast<NameLoc>(name.getChildLoc()))
      os << " in " << model.getName().getValue();
  } else if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  } else {
    os << loc;
  }
  std::string line;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "*/") == 0) {
      line += "* /";
      ++i;
      continue;
    }
    line += text[i] == '\n' ? ' ' : text[i];
  }
  return line;
}

void gather::writeCHeader(ArrayRef<EntryPoint> entryPoints, StringRef guard,
                          llvm::raw_ostream &os) {
  std::string macro = toIdentifier(guard);
  for (char &c : macro)
    c = llvm::toUpper(c);
  os << "/* Generated by gather-compile: the C entry points of a compiled\n"
        " * module (docs/Deploying.md). Each takes and returns tensors as\n"
        " * memref descriptors (gather/Runtime/MemRefDescriptor.h), "
        "row-major.\n"
        " * Results: the call allocates each result's buffer with malloc; the\n"
        " * caller owns it and frees `allocated` with free(). Arguments stay "
        "the\n"
        " * caller's and are only read. An invalid input (an index out of\n"
        " * range, shapes that do not fit) is reported through the handler of\n"
        " * gatherSetErrorHandler (gather/Runtime/GatherRuntime.h); the "
        "default\n"
        " * prints the message, which names the model's node, and exits with\n"
        " * status 1. */\n"
     << "#ifndef " << macro << "\n#define " << macro << "\n\n"
     << "#include <gather/Runtime/GatherRuntime.h>\n"
     << "#include <gather/Runtime/MemRefDescriptor.h>\n\n"
     << "#include <stdbool.h>\n#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n";

  // Descriptor types of the ranks MemRefDescriptor.h does not name.
  std::set<int64_t> highRanks;
  for (const EntryPoint &entry : entryPoints)
    for (ArrayRef<Type> types :
         {ArrayRef<Type>(entry.arguments), ArrayRef<Type>(entry.results)})
      for (Type type : types)
        if (auto shaped = dyn_cast<ShapedType>(type);
            shaped && shaped.getRank() > 8)
          highRanks.insert(shaped.getRank());
  for (int64_t rank : highRanks)
    os << "\ntypedef GATHER_MEMREF_STRUCT(" << rank << ") GatherMemRef" << rank
       << ";\n";

  for (const EntryPoint &entry : entryPoints) {
    const std::string &name = entry.name;
    auto argumentName = [&](size_t i) { return entry.argumentNames[i]; };
    os << "\n/* " << entry.name << ": " << describeLocation(entry.location)
       << "\n";
    for (auto [i, type] : llvm::enumerate(entry.arguments))
      os << " *   " << argumentName(i) << ": " << describeType(type) << "\n";
    for (auto [i, type] : llvm::enumerate(entry.results))
      os << " *   result" << (entry.results.size() > 1 ? std::to_string(i) : "")
         << ": " << describeType(type) << "\n";
    os << " */\n";

    // One result: a scalar is returned, a tensor written to `*result`;
    // several: written to the fields of `*results`, in order.
    std::string returnType = "void";
    SmallVector<std::string> parameters;
    if (entry.results.size() == 1) {
      Type type = entry.results.front();
      if (isa<ShapedType>(type))
        parameters.push_back(getDescriptorType(type) + " *result");
      else
        returnType = getCScalarType(type);
    } else if (entry.results.size() > 1) {
      std::string results = name + "_results";
      os << "typedef struct " << results << " {\n";
      for (auto [i, type] : llvm::enumerate(entry.results))
        os << "  "
           << (isa<ShapedType>(type) ? getDescriptorType(type)
                                     : getCScalarType(type))
           << " result" << i << ";\n";
      os << "} " << results << ";\n";
      parameters.push_back(results + " *results");
    }
    for (auto [i, type] : llvm::enumerate(entry.arguments))
      parameters.push_back(isa<ShapedType>(type)
                               ? getDescriptorType(type) + " *" +
                                     argumentName(i)
                               : getCScalarType(type) + " " + argumentName(i));
    os << returnType << " _mlir_ciface_" << name << "(";
    if (parameters.empty())
      os << "void";
    llvm::interleaveComma(parameters, os);
    os << ");\n";
  }
  os << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << macro << " */\n";
}

std::string gather::describeEntryPoints(ArrayRef<EntryPoint> entryPoints) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const EntryPoint &entry : entryPoints) {
    MLIRContext *context = entry.location->getContext();
    os << entry.name << " "
       << FunctionType::get(context, entry.arguments, entry.results) << "\n";
  }
  return text;
}

void gather::addStringGlobal(ModuleOp module, StringRef name, StringRef text) {
  std::string bytes = text.str();
  bytes.push_back('\0');
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.size());
  LLVM::GlobalOp::create(builder, module.getLoc(), type, /*isConstant=*/true,
                         LLVM::Linkage::External, name,
                         builder.getStringAttr(bytes));
}

void gather::addEntryPointsGlobal(ModuleOp module,
                                  ArrayRef<EntryPoint> entryPoints) {
  addStringGlobal(module, kEntryPointsSymbolName,
                  describeEntryPoints(entryPoints));
}

llvm::Expected<std::vector<gather::EntryPoint>>
gather::parseEntryPoints(StringRef text, MLIRContext *context,
                         Location location) {
  std::vector<EntryPoint> entryPoints;
  SmallVector<StringRef> lines;
  text.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    auto [name, typeText] = line.split(' ');
    auto type = dyn_cast_or_null<FunctionType>(
        parseType(typeText, context, /*numRead=*/nullptr,
                  /*isKnownNullTerminated=*/false));
    if (name.empty() || !type)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "the entry point description '" + line +
                                         "' does not parse");
    EntryPoint entry{name.str(), {}, {}, {}, location};
    entry.arguments.assign(type.getInputs().begin(), type.getInputs().end());
    entry.results.assign(type.getResults().begin(), type.getResults().end());
    for (size_t i = 0; i < entry.arguments.size(); ++i)
      entry.argumentNames.push_back("arg" + std::to_string(i));
    entryPoints.push_back(std::move(entry));
  }
  return entryPoints;
}
