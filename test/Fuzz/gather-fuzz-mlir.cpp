//===- gather-fuzz-mlir.cpp - libFuzzer target: compile GatherElements ----===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A structure-aware libFuzzer target for the compiler: the input bytes drive
// a generator (FuzzedDataProvider) that writes an MLIR module around
// onnx.GatherElements — ranks 0 to 7, static, dynamic, zero, one and huge
// sizes, every element type (and some invalid ones), i32/i64 (and invalid)
// indices, axes in and out of range, the pretty, declared-result and generic
// forms, constant operands (splats and element lists, some indices out of
// range) for the folder, chained gathers and the destination-passing kernel
// form. So most inputs reach the verifier and the lowering; a few have raw
// input bytes spliced into the text, for the parser.
//
// Each module is parsed, verified and, if valid, compiled with the
// onnx-to-llvm pipeline (canonicalize folds constant gathers) under random
// pipeline options, in a context reused for a run of inputs (as
// getReusedFuzzContext does: 1.6 times as many inputs per second) with its
// pass managers (ReusedCompiler: 8 % more). Diagnostics are
// expected; a crash, a sanitizer report or a pipeline that leaves invalid IR is
// a finding. At exit it prints how many inputs parsed, verified and lowered
// (docs/Robustness.md).
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "gather/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

// A tensor type under construction: dims (kDynamic = `?`), element type,
// unranked or not.
struct TensorSpec {
  std::vector<int64_t> dims;
  std::string element;
  bool unranked = false;
  static constexpr int64_t kDynamic = -1;

  bool isStatic() const {
    if (unranked)
      return false;
    for (int64_t d : dims)
      if (d == kDynamic)
        return false;
    return true;
  }
  std::string str() const {
    std::string s = "tensor<";
    if (unranked)
      s += "*x";
    else
      for (int64_t d : dims)
        s += (d == kDynamic ? std::string("?") : std::to_string(d)) + "x";
    return s + element + ">";
  }
};

class ProgramGenerator {
public:
  explicit ProgramGenerator(FuzzedDataProvider &fdp) : fdp(fdp) {}

  std::string generate();

private:
  FuzzedDataProvider &fdp;
  std::string body;
  std::vector<std::string> argTypes;
  std::vector<std::string> argNames;
  unsigned nextValue = 0;

  bool chance(unsigned outOf) {
    return fdp.ConsumeIntegralInRange<unsigned>(0, outOf - 1) == outOf - 1;
  }
  template <typename T>
  const T &pick(llvm::ArrayRef<T> choices) {
    return choices[fdp.ConsumeIntegralInRange<size_t>(0, choices.size() - 1)];
  }
  std::string fresh() { return "%v" + std::to_string(nextValue++); }

  int64_t size();
  std::string dataElementType();
  std::string indexElementType();
  std::string literal(const std::string &element, int64_t axisSize);
  std::string nested(const std::string &element, llvm::ArrayRef<int64_t> dims,
                     int64_t axisSize);
  std::string operand(const TensorSpec &spec, int64_t axisSize);
  std::string gather(std::string data, const TensorSpec &dataSpec,
                     TensorSpec &resultSpec);
  std::string kernel();
};

int64_t ProgramGenerator::size() {
  // Mostly small sizes; sometimes sizes whose products overflow 64 bits.
  static const int64_t kSizes[] = {0,
                                   1,
                                   1,
                                   2,
                                   2,
                                   3,
                                   3,
                                   4,
                                   5,
                                   7,
                                   16,
                                   17,
                                   33,
                                   1000,
                                   int64_t(1) << 31,
                                   (int64_t(1) << 32) + 1,
                                   3037000500,
                                   int64_t(1) << 62,
                                   INT64_MAX};
  if (chance(8))
    return TensorSpec::kDynamic;
  if (chance(6))
    return pick<int64_t>(kSizes);
  return pick<int64_t>(llvm::ArrayRef<int64_t>(kSizes).take_front(12));
}

std::string ProgramGenerator::dataElementType() {
  static const std::string kTypes[] = {
      "f32", "f64", "f16", "bf16", "i1", "i8", "i16", "i32", "i64", "ui8",
      "ui16", "ui32", "ui64", "complex<f32>", "complex<f64>", "f32", "i64",
      "!onnx.string", "!onnx.string",
      // Not ONNX types: the verifier or the lowering must reject them cleanly.
      "index", "f8E4M3FN", "si32", "i4", "complex<i32>", "tensor<2xf32>"};
  if (chance(10))
    return pick<std::string>(kTypes);
  return pick<std::string>(llvm::ArrayRef<std::string>(kTypes).take_front(19));
}

std::string ProgramGenerator::indexElementType() {
  static const std::string kTypes[] = {"i64",  "i32",  "i64", "i32",   "i16",
                                       "ui64", "si64", "f32", "index", "i1"};
  if (chance(12))
    return pick<std::string>(kTypes);
  return pick<std::string>(llvm::ArrayRef<std::string>(kTypes).take_front(4));
}

// One element literal of a dense attribute of `element`; index values lie
// mostly in [-axisSize, axisSize - 1] (axisSize < 0: unknown).
std::string ProgramGenerator::literal(const std::string &element,
                                      int64_t axisSize) {
  if (element == "!onnx.string") {
    static const std::string kStrings[] = {"\"\"", "\"a\"", "\"größe\"",
                                           "\"tab\\09\"", "\"\\FF\\00\""};
    return pick<std::string>(kStrings);
  }
  if (element == "i1")
    return fdp.ConsumeBool() ? "true" : "false";
  if (element.rfind("complex", 0) == 0) {
    std::string part = element == "complex<i32>" ? "i32" : "f32";
    return "(" + literal(part, -1) + ", " + literal(part, -1) + ")";
  }
  bool isFloat = element[0] == 'f' || element[0] == 'b';
  if (isFloat) {
    static const std::string kFloats[] = {
        "0.0",     "-0.0",       "1.5",        "-2.25",     "1.0e-45",
        "3.0e+38", "0x7FC00001", "0xFF800000", "0x7F800000"};
    std::string value = pick<std::string>(kFloats);
    // Hexadecimal literals must have the type's width.
    if (value[0] == '0' && value[1] == 'x') {
      if (element == "f64")
        return "0x7FF8000000000001";
      if (element == "f16" || element == "bf16")
        return "0x7C01";
      if (element != "f32")
        return "0.0";
    }
    return value;
  }
  int64_t value;
  if (axisSize > 0 && !chance(16))
    value = fdp.ConsumeIntegralInRange<int64_t>(
        -std::min<int64_t>(axisSize, 1 << 20),
        std::min<int64_t>(axisSize, 1 << 20) - 1);
  else
    value = fdp.ConsumeIntegralInRange<int64_t>(-130, 300);
  if (element[0] == 'u' && value < 0)
    value = -value;
  if (element == "i8" || element == "ui8")
    value %= 128;
  return std::to_string(value);
}

// An element list of shape `dims`, nested per dimension.
std::string ProgramGenerator::nested(const std::string &element,
                                     llvm::ArrayRef<int64_t> dims,
                                     int64_t axisSize) {
  if (dims.empty())
    return literal(element, axisSize);
  std::string s = "[";
  for (int64_t i = 0; i < dims.front(); ++i)
    s += (i ? ", " : "") + nested(element, dims.drop_front(), axisSize);
  return s + "]";
}

// A value of type `spec`: a function argument, a constant (for the folder)
// or a constant cast to a less static type.
std::string ProgramGenerator::operand(const TensorSpec &spec,
                                      int64_t axisSize) {
  if (spec.isStatic() && !chance(3)) {
    TensorSpec constSpec = spec;
    // An element list for small shapes (`dense<>` if empty), else a splat.
    bool small = true, empty = false;
    int64_t count = 1;
    for (int64_t d : spec.dims) {
      small &= d <= 64 && (count *= std::max<int64_t>(d, 1)) <= 64;
      empty |= d == 0;
    }
    std::string value;
    if (empty && small && !chance(8))
      value = "";
    else if (small && !chance(4))
      value = nested(spec.element, spec.dims, axisSize);
    else
      value = literal(spec.element, axisSize);
    std::string name = fresh();
    std::string op = spec.element == "!onnx.string" || chance(4)
                         ? "onnx.Constant"
                         : "arith.constant";
    body += "  " + name + " = " + op + " dense<" + value + "> : " + spec.str() +
            "\n";
    if (chance(4)) {
      TensorSpec cast = spec;
      for (int64_t &d : cast.dims)
        if (fdp.ConsumeBool())
          d = TensorSpec::kDynamic;
      std::string castName = fresh();
      body += "  " + castName + " = tensor.cast " + name + " : " + spec.str() +
              " to " + cast.str() + "\n";
      // The caller uses `spec`'s type: cast back if it changed.
      if (cast.str() != spec.str()) {
        std::string back = fresh();
        body += "  " + back + " = tensor.cast " + castName + " : " +
                cast.str() + " to " + spec.str() + "\n";
        return back;
      }
      return castName;
    }
    return name;
  }
  std::string name = "%arg" + std::to_string(argNames.size());
  argNames.push_back(name);
  argTypes.push_back(spec.str());
  return name;
}

// Appends a GatherElements of `data` (of type `dataSpec`) and returns its
// result; `resultSpec` receives the result type written in the program.
std::string ProgramGenerator::gather(std::string data,
                                     const TensorSpec &dataSpec,
                                     TensorSpec &resultSpec) {
  int64_t rank = dataSpec.unranked ? fdp.ConsumeIntegralInRange<int64_t>(1, 4)
                                   : int64_t(dataSpec.dims.size());
  TensorSpec indices;
  indices.element = indexElementType();
  int64_t indicesRank = rank;
  if (chance(16))
    indicesRank = fdp.ConsumeIntegralInRange<int64_t>(0, 7);
  for (int64_t d = 0; d < indicesRank; ++d) {
    int64_t dataDim = (dataSpec.unranked || d >= rank) ? 3 : dataSpec.dims[d];
    switch (fdp.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      indices.dims.push_back(size());
      break;
    case 1:
      indices.dims.push_back(TensorSpec::kDynamic);
      break;
    case 2:
      indices.dims.push_back(dataDim > 1 ? dataDim - 1 : dataDim);
      break;
    default:
      indices.dims.push_back(dataDim == TensorSpec::kDynamic ? 2 : dataDim);
    }
  }
  indices.unranked = chance(20);

  int64_t axis = rank ? fdp.ConsumeIntegralInRange<int64_t>(-rank, rank - 1)
                      : fdp.ConsumeIntegralInRange<int64_t>(-1, 0);
  if (chance(16))
    axis = fdp.ConsumeIntegralInRange<int64_t>(-rank - 2, rank + 1);
  int64_t axisSize = -1;
  if (!dataSpec.unranked && rank > 0) {
    int64_t a = axis < 0 ? axis + rank : axis;
    if (a >= 0 && a < rank)
      axisSize = dataSpec.dims[a];
  }
  std::string indicesValue = operand(indices, axisSize);

  // The result type: inferred, declared less static, or (rarely) wrong.
  resultSpec = indices;
  resultSpec.element = dataSpec.element;
  int form = fdp.ConsumeIntegralInRange<int>(0, 9);
  if (form >= 5) {
    for (int64_t &d : resultSpec.dims)
      if (chance(3))
        d = TensorSpec::kDynamic;
    if (chance(8))
      resultSpec.unranked = true;
    if (chance(12) && !resultSpec.dims.empty())
      resultSpec.dims[0] = size();
    if (chance(16))
      resultSpec.element = dataElementType();
  }
  std::string result = fresh();
  std::string types = dataSpec.str() + ", " + indices.str();
  if (form <= 4) {
    body +=
        "  " + result + " = onnx.GatherElements " + data + ", " + indicesValue;
    if (axis != 0 || fdp.ConsumeBool())
      body += " axis = " + std::to_string(axis);
    body += " : " + types + "\n";
    if (resultSpec.unranked || dataSpec.unranked || indices.unranked) {
      // The inferred type is not simply `indices` with data's element type
      // when an operand is unranked; declare it instead.
      body.erase(body.rfind('\n'));
      body += " -> " + resultSpec.str() + "\n";
    }
  } else if (form <= 7) {
    body += "  " + result + " = onnx.GatherElements " + data + ", " +
            indicesValue + " axis = " + std::to_string(axis) + " : " + types +
            " -> " + resultSpec.str() + "\n";
  } else {
    static const std::string kAxisTypes[] = {"i64", "si32", "ui64"};
    std::string attr = "{axis = " + std::to_string(axis) + " : " +
                       (chance(8) ? pick<std::string>(kAxisTypes) : "si64") +
                       "}";
    if (chance(10))
      attr = chance(2) ? "{}" : "{axis = \"x\"}";
    body += "  " + result + " = \"onnx.GatherElements\"(" + data + ", " +
            indicesValue + ") " + attr + " : (" + types + ") -> " +
            resultSpec.str() + "\n";
  }
  return result;
}

// The README's destination-passing kernel form, with static or dynamic
// sizes and a destination that may be too small.
std::string ProgramGenerator::kernel() {
  int64_t rank = fdp.ConsumeIntegralInRange<int64_t>(1, 3);
  auto memrefOf = [](const TensorSpec &spec) {
    std::string s = spec.str();
    return "memref" + s.substr(6);
  };
  TensorSpec data, indices, out;
  data.element = chance(4) ? dataElementType() : "f32";
  indices.element = indexElementType();
  for (int64_t d = 0; d < rank; ++d) {
    data.dims.push_back(chance(3) ? TensorSpec::kDynamic
                                  : fdp.ConsumeIntegralInRange<int64_t>(0, 5));
    indices.dims.push_back(chance(3)
                               ? TensorSpec::kDynamic
                               : fdp.ConsumeIntegralInRange<int64_t>(0, 5));
  }
  out = indices;
  out.element = data.element;
  for (int64_t &d : out.dims)
    if (chance(3))
      d = chance(2) ? TensorSpec::kDynamic
                    : fdp.ConsumeIntegralInRange<int64_t>(0, 5);
  int64_t axis = fdp.ConsumeIntegralInRange<int64_t>(-rank, rank - 1);
  std::string text = "func.func @kernel(%data: " + memrefOf(data) +
                     ", %indices: " + memrefOf(indices) +
                     ", %out: " + memrefOf(out) +
                     ") attributes {llvm.emit_c_interface} {\n";
  text += "  %d = bufferization.to_tensor %data restrict : " + memrefOf(data) +
          " to " + data.str() + "\n";
  text += "  %i = bufferization.to_tensor %indices restrict : " +
          memrefOf(indices) + " to " + indices.str() + "\n";
  text += "  %r = onnx.GatherElements %d, %i axis = " + std::to_string(axis) +
          " : " + data.str() + ", " + indices.str() + " -> " + out.str() + "\n";
  text += "  bufferization.materialize_in_destination %r in restrict "
          "writable %out : (" +
          out.str() + ", " + memrefOf(out) + ") -> ()\n  return\n}\n";
  return text;
}

std::string ProgramGenerator::generate() {
  if (chance(6))
    return kernel();
  TensorSpec data;
  data.element = dataElementType();
  int64_t rank = fdp.ConsumeIntegralInRange<int64_t>(1, 6);
  if (chance(24))
    rank = fdp.ConsumeBool() ? 0 : 7;
  for (int64_t d = 0; d < rank; ++d)
    data.dims.push_back(size());
  data.unranked = chance(20);
  std::string value = operand(data, -1);
  TensorSpec spec = data;
  unsigned gathers = chance(4) ? 2 : 1;
  for (unsigned g = 0; g < gathers; ++g) {
    TensorSpec resultSpec;
    value = gather(value, spec, resultSpec);
    spec = resultSpec;
  }
  std::string text = "func.func @f(";
  for (size_t i = 0; i < argNames.size(); ++i)
    text += (i ? ", " : "") + argNames[i] + ": " + argTypes[i];
  text += ") -> " + spec.str() + " {\n" + body + "  return " + value + " : " +
          spec.str() + "\n}\n";
  // Now and then, raw bytes spliced into the text exercise the parser.
  if (chance(16) && !text.empty()) {
    size_t at = fdp.ConsumeIntegralInRange<size_t>(0, text.size() - 1);
    text.insert(
        at, fdp.ConsumeBytesAsString(fdp.ConsumeIntegralInRange<size_t>(1, 8)));
  }
  return text;
}

// How far the inputs got; printed at exit.
struct Stats {
  uint64_t inputs = 0, parsed = 0, verified = 0, lowered = 0;
  ~Stats() {
    if (!inputs)
      return;
    auto pct = [&](uint64_t n) { return 100.0 * double(n) / double(inputs); };
    fprintf(
        stderr,
        "gather-fuzz-mlir: %llu inputs: %llu parsed (%.1f%%), %llu verified "
        "(%.1f%%), %llu lowered to LLVM (%.1f%%)\n",
        (unsigned long long)inputs, (unsigned long long)parsed, pct(parsed),
        (unsigned long long)verified, pct(verified),
        (unsigned long long)lowered, pct(lowered));
  }
};
Stats stats;

} // namespace

namespace {
/// The context of getReusedFuzzContext's kind (kInputsPerFuzzContext inputs
/// in a row) with the onnx-to-llvm pass managers built for it, one per
/// combination of options, built on first use and run again by the later
/// inputs of the same options: building the pipeline and initializing its
/// passes (canonicalize's pattern sets for every loaded dialect, among
/// others) does not depend on the input. The passes keep no state between
/// runs (MLIR's contract for a pass), so an input's outcome does not depend
/// on the ones before it and a finding reproduces alone.
struct ReusedCompiler {
  gather::FuzzContext fuzz;
  std::map<std::string, std::unique_ptr<mlir::PassManager>> passManagers;
  unsigned served = 0;

  ReusedCompiler() { fuzz.context.loadAllAvailableDialects(); }

  mlir::PassManager &
  getPassManager(const gather::ONNXToLLVMPipelineOptions &options) {
    std::string key;
    llvm::raw_string_ostream os(key);
    options.print(os);
    std::unique_ptr<mlir::PassManager> &pm = passManagers[key];
    if (!pm) {
      pm = std::make_unique<mlir::PassManager>(&fuzz.context);
      gather::buildONNXToLLVMPipeline(*pm, options);
    }
    return *pm;
  }
};
} // namespace

/// The compiler for one input: a fresh one every kInputsPerFuzzContext
/// inputs.
static ReusedCompiler &getReusedCompiler() {
  static ReusedCompiler *shared = nullptr;
  if (!shared || shared->served == gather::kInputsPerFuzzContext) {
    delete shared;
    shared = new ReusedCompiler();
  }
  ++shared->served;
  return *shared;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  FuzzedDataProvider fdp(bytes, size);
  gather::ONNXToLLVMPipelineOptions options;
  options.runtimeChecks = !fdp.ConsumeBool() || fdp.ConsumeBool();
  options.vectorSize = llvm::ArrayRef<int64_t>{
      16, 0, 1, 4, 256}[fdp.ConsumeIntegralInRange<size_t>(0, 4)];
  options.numThreads = fdp.ConsumeIntegralInRange<unsigned>(0, 2);
  options.parallelThreshold = fdp.ConsumeBool() ? 8192 : 1;
  std::string text = ProgramGenerator(fdp).generate();
  if (getenv("GATHER_FUZZ_PRINT")) {
    llvm::errs() << text << "// onnx-to-llvm options: ";
    options.print(llvm::errs());
    llvm::errs() << "\n";
  }

  ++stats.inputs;
  ReusedCompiler &compiler = getReusedCompiler();
  mlir::MLIRContext &context = compiler.fuzz.context;
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config);
  if (!module)
    return 0;
  ++stats.parsed;
  if (mlir::failed(mlir::verify(*module)))
    return 0;
  ++stats.verified;
  if (mlir::succeeded(compiler.getPassManager(options).run(*module)))
    ++stats.lowered;
  return 0;
}
