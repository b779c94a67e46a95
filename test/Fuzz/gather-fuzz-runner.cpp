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
// Layout: the first kKernelBytes bytes choose the kernel and its options,
// the rest the operands (the sizes of the dynamic dimensions, the elements,
// the indices); a custom mutator changes the prefix of one new input in
// kKernelMutationOneIn. The compiled kernels of the latest inputs are kept
// (KernelCache, bounded), so an input that differs only in its operands
// runs a kernel already compiled: most inputs cost a call, not a JIT
// compilation.
//
// The verdict comes from a scalar oracle (ONNX's definition, below):
//   - valid operands: the kernel must compile, report nothing, and write
//     the oracle's result bit for bit;
//   - invalid operands: compiling may fail (a static shape error); if it
//     compiles, the run must report at least one error through gather's
//     runtime (which lets the kernel go on, memory-safe).
// A wrong verdict aborts (a finding); so does a sanitizer report. At exit it
// prints how many inputs compiled and ran, and how many compilations that
// took (docs/Robustness.md).
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

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>
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

/// The input's layout: the first kKernelBytes bytes choose the kernel (its
/// source and pipeline options), the rest its operands, so that an input
/// that differs from another only after the prefix runs the same compiled
/// kernel (KernelCache) on other operands. A shorter input reads zeros for
/// the bytes it lacks (FuzzedDataProvider's defaults).
static constexpr size_t kKernelBytes = 32;

class CaseGenerator {
public:
  CaseGenerator(FuzzedDataProvider &kernel, FuzzedDataProvider &operands)
      : kernel(kernel), operands(operands) {}
  /// Fills `c` (which is not copyable: the pipeline options are not).
  void generate(Case &c);

private:
  static bool chance(FuzzedDataProvider &fdp, unsigned n) {
    return fdp.ConsumeIntegralInRange(0u, n - 1) == 0;
  }
  static int64_t dataSize(FuzzedDataProvider &fdp) {
    return chance(fdp, 12) ? 0 : fdp.ConsumeIntegralInRange<int64_t>(1, 6);
  }
  int64_t index(int64_t axisSize, bool wide, bool bad);

  FuzzedDataProvider &kernel, &operands;
};
} // namespace

int64_t CaseGenerator::index(int64_t axisSize, bool wide, bool bad) {
  FuzzedDataProvider &fdp = operands;
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
  // The kernel: element and index types, rank, axis, the static sizes
  // (-1: dynamic) and the options.
  FuzzedDataProvider &k = kernel;
  c.element = &kElementKinds[k.ConsumeIntegralInRange<size_t>(
      0, std::size(kElementKinds) - 1)];
  c.wideIndices = k.ConsumeBool();
  c.rank = k.ConsumeIntegralInRange<int64_t>(1, 4);
  c.axis = k.ConsumeIntegralInRange<int64_t>(-c.rank, c.rank - 1);
  int64_t axis = c.axis < 0 ? c.axis + c.rank : c.axis;
  for (int64_t d = 0; d < c.rank; ++d)
    c.dataType.push_back(chance(k, 3) ? -1 : dataSize(k));
  for (int64_t d = 0; d < c.rank; ++d) {
    int64_t size = -1;
    if (chance(k, 3))
      ; // Dynamic.
    else if (d == axis || c.dataType[d] < 0)
      size = k.ConsumeIntegralInRange<int64_t>(0, 6);
    else if (chance(k, 16)) // Larger than 'data' off the axis: invalid.
      size = c.dataType[d] + k.ConsumeIntegralInRange<int64_t>(1, 2);
    else
      size = k.ConsumeIntegralInRange<int64_t>(0, c.dataType[d]);
    c.indicesType.push_back(size);
  }
  // Without the run-time checks an invalid index is undefined behaviour:
  // only valid cases may turn them off (below).
  bool withoutChecks = chance(k, 4);
  // (Not 256, the largest: 256 scalarized lanes take LLVM's backend 1 s in
  // the release build and 10-18 s under ASan, close to -timeout=30 on a
  // loaded machine.)
  c.options.vectorSize = llvm::ArrayRef<int64_t>{
      16, 0, 1, 4, 64}[k.ConsumeIntegralInRange<size_t>(0, 4)];
  c.options.numThreads = chance(k, 4) ? 2 : 1;
  c.options.parallelThreshold = k.ConsumeBool() ? 8192 : 1;
  c.options.gatherForm = llvm::ArrayRef<gather::GatherForm>{
      gather::GatherForm::Auto, gather::GatherForm::Hardware,
      gather::GatherForm::Scalarized,
      gather::GatherForm::Scalar}[k.ConsumeIntegralInRange<size_t>(0, 3)];
  c.optLevel = k.ConsumeIntegralInRange(0u, 3u);
  // Another CPU than the host's (one the host runs, e.g. haswell for AVX2
  // code on an AVX-512 host): GATHER_FUZZ_TARGET_CPU (docs/Robustness.md).
  if (const char *cpu = std::getenv("GATHER_FUZZ_TARGET_CPU"))
    c.options.targetCpu = std::string(cpu);

  // The operands: the dynamic sizes, the element bits and the indices.
  FuzzedDataProvider &fdp = operands;
  for (int64_t d = 0; d < c.rank; ++d) {
    int64_t size = c.dataType[d];
    if (size < 0) {
      size = dataSize(fdp);
      // Mostly at least the static size of 'indices' off the axis.
      if (d != axis && c.indicesType[d] > size && !chance(fdp, 16))
        size = fdp.ConsumeIntegralInRange<int64_t>(c.indicesType[d], 6);
    }
    c.dataSizes.push_back(size);
  }
  for (int64_t d = 0; d < c.rank; ++d) {
    int64_t size = c.indicesType[d];
    if (size >= 0)
      ;
    else if (d == axis)
      size = fdp.ConsumeIntegralInRange<int64_t>(0, 6);
    else if (chance(fdp, 16)) // Larger than 'data' off the axis: invalid.
      size = c.dataSizes[d] + fdp.ConsumeIntegralInRange<int64_t>(1, 2);
    else
      size = fdp.ConsumeIntegralInRange<int64_t>(0, c.dataSizes[d]);
    if (d != axis && size > c.dataSizes[d])
      c.validShapes = false;
    c.indicesSizes.push_back(size);
  }
  c.outSizes = c.indicesSizes;
  // A destination of another size where its type lets it be: invalid.
  for (int64_t d = 0; d < c.rank; ++d)
    if (c.indicesType[d] < 0 && chance(fdp, 16)) {
      c.outSizes[d] += 1;
      c.validShapes = false;
    }

  // Element bits at random (NaN payloads included: a gather copies bits).
  c.data.resize(product(c.dataSizes) * c.element->bytes);
  for (uint8_t &byte : c.data)
    byte = fdp.ConsumeIntegral<uint8_t>();
  unsigned badOneIn = chance(fdp, 2) ? 0 : fdp.ConsumeIntegralInRange(1u, 64u);
  int64_t axisSize = c.dataSizes[axis];
  for (int64_t i = 0, n = product(c.indicesSizes); i < n; ++i) {
    bool bad = axisSize == 0 || (badOneIn && chance(fdp, badOneIn));
    c.indices.push_back(index(axisSize, c.wideIndices, bad));
    if (bad)
      c.validIndices = false;
  }
  c.options.runtimeChecks = !c.valid() || !withoutChecks;
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

/// The pipeline options and -O level of `c`, one line.
static std::string describeOptions(const Case &c) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "runtime-checks=" << c.options.runtimeChecks
     << " vector-size=" << c.options.vectorSize
     << " num-threads=" << c.options.numThreads
     << " parallel-threshold=" << c.options.parallelThreshold
     << " gather-form=" << gather::stringifyGatherForm(c.options.gatherForm)
     << " target-cpu=" << c.options.targetCpu << " -O" << c.optLevel;
  return text;
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
  os << "], options: " << describeOptions(c) << "\n";
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
/// The compiled kernels of the latest inputs, most recently used first, at
/// most kCapacity of them, keyed by the kernel's source and options (all
/// that compileSourceAndJit reads): an input whose kernel is here runs it
/// on its own operands instead of compiling it again. This cannot hide a
/// finding: a compilation is a deterministic function of the source and
/// options (a fresh context each time, nothing carried between
/// compilations), so a cached kernel is the one this input would compile,
/// and a finding reproduces alone from its artifact (which compiles it
/// afresh); the compiled code keeps no state between calls (its only
/// mutable global is the error sink, which this target never sets, and its
/// reports are counted per call); and every input is still run and checked
/// against the oracle. A rejected kernel is remembered with its error.
/// Memory stays bounded: an evicted engine is destroyed with its code.
class KernelCache {
public:
  static constexpr size_t kCapacity = 128;

  struct Kernel {
    std::string key;
    /// Null if the kernel did not compile (`error` says why).
    std::unique_ptr<mlir::ExecutionEngine> engine;
    std::string error;
    void (*entry)(void *, void *, void *) = nullptr;
  };

  /// The kernel for `key`, or null (then the caller adds it with insert()).
  Kernel *find(const std::string &key) {
    auto it = index.find(key);
    if (it == index.end())
      return nullptr;
    kernels.splice(kernels.begin(), kernels, it->second);
    return &kernels.front();
  }

  Kernel &insert(Kernel kernel) {
    if (kernels.size() == kCapacity) {
      index.erase(kernels.back().key);
      kernels.pop_back();
    }
    kernels.push_front(std::move(kernel));
    index[kernels.front().key] = kernels.begin();
    return kernels.front();
  }

private:
  std::list<Kernel> kernels;
  std::unordered_map<std::string, std::list<Kernel>::iterator> index;
};

/// How far the inputs got; printed at exit.
struct Stats {
  uint64_t inputs = 0, compiled = 0, validRuns = 0, invalidRuns = 0,
           rejected = 0, compilations = 0;
  ~Stats() {
    if (!inputs)
      return;
    std::fprintf(
        stderr,
        "gather-fuzz-runner: %llu inputs: %llu compiled, %llu valid runs "
        "matching the oracle, %llu invalid runs reported, %llu invalid "
        "rejected at compile time; %llu compilations (the other inputs ran "
        "a cached kernel)\n",
        (unsigned long long)inputs, (unsigned long long)compiled,
        (unsigned long long)validRuns, (unsigned long long)invalidRuns,
        (unsigned long long)rejected, (unsigned long long)compilations);
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

/// Mutates the operand bytes of an input, and its kernel prefix only one
/// time in kKernelMutationOneIn, so that most new inputs run a kernel
/// already compiled (KernelCache) on new operands. The prefix keeps its
/// length (kKernelBytes) so that the operands do not shift.
static constexpr unsigned kKernelMutationOneIn = 16;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  if (maxSize <= kKernelBytes)
    return LLVMFuzzerMutate(data, size, maxSize);
  if (size < kKernelBytes) { // Pad the prefix with zeros (what it read).
    std::memset(data + size, 0, kKernelBytes - size);
    size = kKernelBytes;
  }
  if (seed % kKernelMutationOneIn == 0) {
    uint8_t prefix[kKernelBytes];
    std::memcpy(prefix, data, kKernelBytes);
    size_t n = LLVMFuzzerMutate(prefix, kKernelBytes, kKernelBytes);
    std::memset(prefix + n, 0, kKernelBytes - n);
    std::memcpy(data, prefix, kKernelBytes);
    return size;
  }
  return kKernelBytes + LLVMFuzzerMutate(data + kKernelBytes,
                                         size - kKernelBytes,
                                         maxSize - kKernelBytes);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  size_t kernelBytes = std::min(size, kKernelBytes);
  FuzzedDataProvider kernelFdp(bytes, kernelBytes);
  FuzzedDataProvider operandFdp(bytes + kernelBytes, size - kernelBytes);
  Case c;
  CaseGenerator(kernelFdp, operandFdp).generate(c);
  std::string source = gather::getGatherElementsKernelSource(
      "kernel", c.dataType, c.element->spelling, c.indicesType,
      c.wideIndices ? "i64" : "i32", c.axis);
  if (std::getenv("GATHER_FUZZ_PRINT"))
    llvm::errs() << source << describe(c);
  ++stats.inputs;

  static auto *cache = new KernelCache(); // (Reachable until exit.)
  std::string key = source + describeOptions(c);
  KernelCache::Kernel *kernel = cache->find(key);
  if (!kernel) {
    ++stats.compilations;
    KernelCache::Kernel compiled;
    compiled.key = key;
    mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
    auto engine =
        gather::compileSourceAndJit(context, source, c.options, c.optLevel);
    if (!engine) {
      compiled.error = llvm::toString(engine.takeError());
    } else {
      llvm::Expected<void *> address =
          gather::lookupCInterface(**engine, "kernel");
      if (!address)
        fail(c, source, llvm::toString(address.takeError()));
      compiled.entry =
          reinterpret_cast<void (*)(void *, void *, void *)>(*address);
      compiled.engine = std::move(*engine);
    }
    kernel = &cache->insert(std::move(compiled));
  }
  if (!kernel->engine) {
    if (c.valid())
      fail(c, source, "a valid kernel does not compile: " + kernel->error);
    ++stats.rejected;
    return 0;
  }
  ++stats.compiled;

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
  kernel->entry(dataDesc.get(), indicesDesc.get(), outDesc.get());
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
