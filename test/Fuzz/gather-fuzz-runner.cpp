//===- gather-fuzz-runner.cpp - libFuzzer target: JIT-run GatherElements --===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target for compiled code: the input bytes choose a
// GatherElements kernel (gather::getGatherElementsKernelSource: ranks 1 to
// 4, each size static or dynamic, every element type the runtime prints but
// i1, i32/i64 indices, any axis), its operands (sizes 0 to 6, indices in
// range, negative, out of range and extreme, 'indices' larger than 'data'
// off the axis, a destination of the wrong size) and the pipeline options
// (run-time checks, vector size, threads, gather form, LLVM -O level). The
// kernel is compiled with gather::compileSourceAndJit and called.
//
// The verdict comes from a scalar oracle (ONNX's definition, below):
//   - valid operands: the kernel must compile, report nothing, and write
//     the oracle's result bit for bit;
//   - invalid operands: compiling may fail (a static shape error); if it
//     compiles, the run must report at least one error through gather's
//     runtime (which lets the kernel go on, memory-safe).
// A wrong verdict aborts (a finding); so does a sanitizer report. At exit it
// prints how many inputs compiled and ran (docs/Robustness.md).
//
//===----------------------------------------------------------------------===//

#include "gather/ExecutionEngine/JitCompiler.h"
#include "gather/Runtime/GatherRuntime.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

/// An element type of the kernel: its MLIR spelling and size in bytes.
struct ElementKind {
  const char *spelling;
  unsigned bytes;
};
} // namespace

static constexpr ElementKind kElementKinds[] = {
    {"f32", 4}, {"f64", 8}, {"f16", 2}, {"bf16", 2}, {"i8", 1},
    {"i16", 2}, {"i32", 4}, {"i64", 8}, {"ui8", 1}};

/// The reports of the runtime since the last reset (any thread).
static std::atomic<uint64_t> reports{0};

static void countReport(const char * /*message*/, void * /*userData*/) {
  reports.fetch_add(1, std::memory_order_relaxed);
}

static int64_t product(llvm::ArrayRef<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

namespace {
/// A memref descriptor as MLIR's C interface takes it (StridedMemRefType
/// of any rank: allocated, aligned, offset, sizes, strides), row-major.
struct Descriptor {
  std::vector<int64_t> words;
  Descriptor(void *data, llvm::ArrayRef<int64_t> sizes) {
    words.push_back(reinterpret_cast<intptr_t>(data));
    words.push_back(reinterpret_cast<intptr_t>(data));
    words.push_back(0);
    words.insert(words.end(), sizes.begin(), sizes.end());
    std::vector<int64_t> strides(sizes.size(), 1);
    for (size_t d = sizes.size(); d-- > 1;)
      strides[d - 1] = strides[d] * sizes[d];
    words.insert(words.end(), strides.begin(), strides.end());
  }
  void *get() { return words.data(); }
};

/// One generated case: the kernel, its operands, what the oracle expects.
struct Case {
  const ElementKind *element = nullptr;
  bool wideIndices = true;
  int64_t rank = 1, axis = 0;
  std::vector<int64_t> dataSizes, indicesSizes, outSizes;
  /// The sizes in the kernel's types (-1: dynamic).
  std::vector<int64_t> dataType, indicesType;
  std::vector<uint8_t> data;
  std::vector<int64_t> indices;
  bool validShapes = true, validIndices = true;
  gather::ONNXToLLVMPipelineOptions options;
  unsigned optLevel = 2;

  bool valid() const { return validShapes && validIndices; }
};

class CaseGenerator {
public:
  explicit CaseGenerator(FuzzedDataProvider &fdp) : fdp(fdp) {}
  /// Fills `c` (which is not copyable: the pipeline options are not).
  void generate(Case &c);

private:
  bool chance(unsigned n) { return fdp.ConsumeIntegralInRange(0u, n - 1) == 0; }
  int64_t index(int64_t axisSize, bool wide, bool bad);

  FuzzedDataProvider &fdp;
};
} // namespace

int64_t CaseGenerator::index(int64_t axisSize, bool wide, bool bad) {
  if (!bad)
    return fdp.ConsumeIntegralInRange<int64_t>(-axisSize, axisSize - 1);
  int64_t lowest = wide ? std::numeric_limits<int64_t>::min()
                        : std::numeric_limits<int32_t>::min();
  int64_t highest = wide ? std::numeric_limits<int64_t>::max()
                         : std::numeric_limits<int32_t>::max();
  switch (fdp.ConsumeIntegralInRange(0, 4)) {
  case 0:
    return axisSize;
  case 1:
    return -axisSize - 1;
  case 2:
    return lowest;
  case 3:
    return highest;
  default: {
    int64_t v = fdp.ConsumeIntegralInRange(lowest, highest);
    return (v >= -axisSize && v < axisSize) ? axisSize + 1 : v;
  }
  }
}

void CaseGenerator::generate(Case &c) {
  c.element = &kElementKinds[fdp.ConsumeIntegralInRange<size_t>(
      0, std::size(kElementKinds) - 1)];
  c.wideIndices = fdp.ConsumeBool();
  c.rank = fdp.ConsumeIntegralInRange<int64_t>(1, 4);
  c.axis = fdp.ConsumeIntegralInRange<int64_t>(-c.rank, c.rank - 1);
  int64_t axis = c.axis < 0 ? c.axis + c.rank : c.axis;
  for (int64_t d = 0; d < c.rank; ++d) {
    int64_t size = chance(12) ? 0 : fdp.ConsumeIntegralInRange<int64_t>(1, 6);
    c.dataSizes.push_back(size);
    c.dataType.push_back(chance(3) ? -1 : size);
  }
  for (int64_t d = 0; d < c.rank; ++d) {
    int64_t size;
    if (d == axis)
      size = fdp.ConsumeIntegralInRange<int64_t>(0, 6);
    else if (chance(16)) // Larger than 'data' off the axis: invalid.
      size = c.dataSizes[d] + fdp.ConsumeIntegralInRange<int64_t>(1, 2);
    else
      size = fdp.ConsumeIntegralInRange<int64_t>(0, c.dataSizes[d]);
    if (d != axis && size > c.dataSizes[d])
      c.validShapes = false;
    c.indicesSizes.push_back(size);
    c.indicesType.push_back(chance(3) ? -1 : size);
  }
  c.outSizes = c.indicesSizes;
  // A destination of another size where its type lets it be: invalid.
  for (int64_t d = 0; d < c.rank; ++d)
    if (c.indicesType[d] < 0 && chance(16)) {
      c.outSizes[d] += 1;
      c.validShapes = false;
    }

  // Element bits at random (NaN payloads included: a gather copies bits).
  c.data.resize(product(c.dataSizes) * c.element->bytes);
  for (uint8_t &byte : c.data)
    byte = fdp.ConsumeIntegral<uint8_t>();
  unsigned badOneIn = chance(2) ? 0 : fdp.ConsumeIntegralInRange(1u, 64u);
  int64_t axisSize = c.dataSizes[axis];
  for (int64_t k = 0, n = product(c.indicesSizes); k < n; ++k) {
    bool bad = axisSize == 0 || (badOneIn && chance(badOneIn));
    c.indices.push_back(index(axisSize, c.wideIndices, bad));
    if (bad)
      c.validIndices = false;
  }

  // Without the run-time checks an invalid index is undefined behaviour:
  // only valid cases may turn them off.
  c.options.runtimeChecks = !c.valid() || !chance(4);
  // (Not 256, the largest: 256 scalarized lanes take LLVM's backend 1 s in
  // the release build and 10-18 s under ASan, close to -timeout=30 on a
  // loaded machine.)
  c.options.vectorSize = llvm::ArrayRef<int64_t>{
      16, 0, 1, 4, 64}[fdp.ConsumeIntegralInRange<size_t>(0, 4)];
  c.options.numThreads = chance(4) ? 2 : 1;
  c.options.parallelThreshold = fdp.ConsumeBool() ? 8192 : 1;
  c.options.gatherForm = llvm::ArrayRef<gather::GatherForm>{
      gather::GatherForm::Auto, gather::GatherForm::Hardware,
      gather::GatherForm::Scalarized,
      gather::GatherForm::Scalar}[fdp.ConsumeIntegralInRange<size_t>(0, 3)];
  c.optLevel = fdp.ConsumeIntegralInRange(0u, 3u);
}

/// The scalar oracle (ONNX GatherElements, valid operands):
///   out[i_0, ..., i_r-1] = data[i_0, ..., idx, ..., i_r-1],
///   idx = indices[i_0, ..., i_r-1] (+ the axis size if negative).
static std::vector<uint8_t> oracle(const Case &c) {
  int64_t axis = c.axis < 0 ? c.axis + c.rank : c.axis;
  unsigned bytes = c.element->bytes;
  int64_t n = product(c.indicesSizes);
  std::vector<uint8_t> out(n * bytes);
  std::vector<int64_t> position(c.rank, 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t offset = 0;
    for (int64_t d = 0; d < c.rank; ++d) {
      int64_t at = position[d];
      if (d == axis)
        at = c.indices[k] < 0 ? c.indices[k] + c.dataSizes[d] : c.indices[k];
      offset = offset * c.dataSizes[d] + at;
    }
    std::memcpy(out.data() + k * bytes, c.data.data() + offset * bytes, bytes);
    for (int64_t d = c.rank; d-- > 0;) // The next position, row-major.
      if (++position[d] < c.indicesSizes[d])
        break;
      else
        position[d] = 0;
  }
  return out;
}

/// The operands' sizes and the options of `c`, one line.
static std::string describe(const Case &c) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "axis " << c.axis << ", sizes of data [";
  llvm::interleave(c.dataSizes, os, " ");
  os << "], of indices [";
  llvm::interleave(c.indicesSizes, os, " ");
  os << "], of out [";
  llvm::interleave(c.outSizes, os, " ");
  os << "], options: runtime-checks=" << c.options.runtimeChecks
     << " vector-size=" << c.options.vectorSize
     << " num-threads=" << c.options.numThreads
     << " parallel-threshold=" << c.options.parallelThreshold
     << " gather-form=" << gather::stringifyGatherForm(c.options.gatherForm)
     << " -O" << c.optLevel << "\n";
  return text;
}

[[noreturn]] static void fail(const Case &c, const std::string &source,
                              const std::string &why) {
  llvm::errs() << "gather-fuzz-runner: " << why << "\n"
               << source << describe(c);
  llvm::errs().flush();
  std::abort();
}

namespace {
/// How far the inputs got; printed at exit.
struct Stats {
  uint64_t inputs = 0, compiled = 0, validRuns = 0, invalidRuns = 0,
           rejected = 0;
  ~Stats() {
    if (!inputs)
      return;
    std::fprintf(
        stderr,
        "gather-fuzz-runner: %llu inputs: %llu compiled, %llu valid runs "
        "matching the oracle, %llu invalid runs reported, %llu invalid "
        "rejected at compile time\n",
        (unsigned long long)inputs, (unsigned long long)compiled,
        (unsigned long long)validRuns, (unsigned long long)invalidRuns,
        (unsigned long long)rejected);
  }
};
} // namespace

static Stats stats;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  gatherSetErrorHandler(countReport, nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  FuzzedDataProvider fdp(bytes, size);
  Case c;
  CaseGenerator(fdp).generate(c);
  std::string source = gather::getGatherElementsKernelSource(
      "kernel", c.dataType, c.element->spelling, c.indicesType,
      c.wideIndices ? "i64" : "i32", c.axis);
  if (std::getenv("GATHER_FUZZ_PRINT"))
    llvm::errs() << source << describe(c);
  ++stats.inputs;

  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  auto engine =
      gather::compileSourceAndJit(context, source, c.options, c.optLevel);
  if (!engine) {
    std::string error = llvm::toString(engine.takeError());
    if (c.valid())
      fail(c, source, "a valid kernel does not compile: " + error);
    ++stats.rejected;
    return 0;
  }
  ++stats.compiled;
  llvm::Expected<void *> address = (*engine)->lookup("_mlir_ciface_kernel");
  if (!address)
    fail(c, source,
         "no _mlir_ciface_kernel: " + llvm::toString(address.takeError()));

  // The operands, each in a buffer of its own size (ASan sees any read or
  // write outside them).
  std::vector<uint8_t> data = c.data;
  std::vector<int32_t> narrow(c.indices.begin(), c.indices.end());
  std::vector<int64_t> wide = c.indices;
  std::vector<uint8_t> out(product(c.outSizes) * c.element->bytes, 0xA5);
  Descriptor dataDesc(data.data(), c.dataSizes);
  Descriptor indicesDesc(c.wideIndices ? static_cast<void *>(wide.data())
                                       : static_cast<void *>(narrow.data()),
                         c.indicesSizes);
  Descriptor outDesc(out.data(), c.outSizes);
  reports = 0;
  reinterpret_cast<void (*)(void *, void *, void *)>(*address)(
      dataDesc.get(), indicesDesc.get(), outDesc.get());
  uint64_t reported = reports.load();

  if (!c.valid()) {
    if (reported == 0)
      fail(c, source, "invalid operands ran without a report");
    ++stats.invalidRuns;
    return 0;
  }
  if (reported != 0)
    fail(c, source, std::to_string(reported) + " reports for valid operands");
  if (out != oracle(c))
    fail(c, source, "the result differs from the oracle's");
  ++stats.validRuns;
  return 0;
}
