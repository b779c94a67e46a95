//===- gather-bench.cpp - Our JIT kernel and the C loop, timed ------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// Google Benchmark program timing, for every workload of workloads.h,
//   - gather's JIT-compiled GatherElements kernel (default pipeline:
//     vectorized, run-time checks on) built single-threaded
//     (num-threads=1) and with 2 OpenMP threads (num-threads=2),
//   - the plain C loop of c_loop.c (-O3 -march=native), 1 and 2 threads,
// each writing into a preallocated output (no allocation per call). The
// counter `compile_ms` is the time from kernel source (.mlir text) to a
// callable function pointer. Every kernel's output is compared bit for bit
// with the C loop's before it is timed; `checksum` (sum of the output) lets
// bench/run.py check that the peers computed the same thing.
//
// Run it through bench/run.sh, or alone:
//   build/bin/gather-bench [--workloads=bench/workloads.json] [--dynamic]
//       [--print-kernel=NAME]
//       [--benchmark_filter=/a/] [--benchmark_repetitions=10]
//
//===----------------------------------------------------------------------===//

#include "workloads.h"

#include "gather/ExecutionEngine/JitCompiler.h"
#include "gather/Runtime/GatherRuntime.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <sys/mman.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

extern "C" {
void gatherLoopI64(const float *data, const int64_t *indices, float *out,
                   int64_t outer, int64_t axisSize, int64_t indicesAxisSize,
                   int64_t inner, int threads);
void gatherLoopI32(const float *data, const int32_t *indices, float *out,
                   int64_t outer, int64_t axisSize, int64_t indicesAxisSize,
                   int64_t inner, int threads);
}

namespace {

using bench::Workload;

/// A memref descriptor of rank r with an identity layout, laid out like
/// StridedMemRefType<T, r> (mlir/ExecutionEngine/CRunnerUtils.h).
std::vector<int64_t> makeDescriptor(void *buffer,
                                    const std::vector<int64_t> &shape) {
  std::vector<int64_t> descriptor(3 + 2 * shape.size());
  auto address = static_cast<int64_t>(reinterpret_cast<intptr_t>(buffer));
  descriptor[0] = address; // allocated pointer
  descriptor[1] = address; // aligned pointer
  descriptor[2] = 0;       // offset
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    descriptor[3 + d] = shape[d];
    descriptor[3 + shape.size() + d] = stride;
    stride *= shape[d];
  }
  return descriptor;
}

/// A buffer of `T` on 2 MiB-aligned memory advised to use transparent huge
/// pages, as PyTorch's and NumPy's allocators do for large arrays: with 4 KiB
/// pages, gathers over tens of MiB mostly measure TLB misses.
template <typename T>
class Buffer {
public:
  Buffer() = default;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer() { std::free(values); }

  void resize(size_t n) {
    std::free(values);
    constexpr size_t kHugePage = 2 << 20;
    size_t bytes = (n * sizeof(T) + kHugePage - 1) / kHugePage * kHugePage;
    values = static_cast<T *>(std::aligned_alloc(kHugePage, bytes));
    if (!values) {
      llvm::errs() << "gather-bench: out of memory\n";
      std::exit(1);
    }
    madvise(values, bytes, MADV_HUGEPAGE);
    count = n;
  }
  T *data() { return values; }
  const T *data() const { return values; }
  size_t size() const { return count; }
  T *begin() { return values; }
  T *end() { return values + count; }
  const T *begin() const { return values; }
  const T *end() const { return values + count; }
  T &operator[](size_t i) { return values[i]; }

private:
  T *values = nullptr;
  size_t count = 0;
};

/// The inputs of one workload, the C loop's output (the reference) and an
/// output buffer for the timed calls.
struct Inputs {
  Buffer<float> data;
  Buffer<int64_t> indices64;
  Buffer<int32_t> indices32;
  Buffer<float> expected;
  Buffer<float> out;

  explicit Inputs(const Workload &w) {
    int64_t n = bench::numElements(w.dataShape);
    data.resize(n);
    for (int64_t k = 0; k < n; ++k)
      data[k] = bench::dataValue(k);
    int64_t m = bench::numElements(w.indicesShape);
    int64_t s = w.dataShape[w.axis];
    if (w.int32Indices) {
      indices32.resize(m);
      for (int64_t k = 0; k < m; ++k)
        indices32[k] =
            static_cast<int32_t>(bench::indexValue(k, s, w.negatives));
    } else {
      indices64.resize(m);
      for (int64_t k = 0; k < m; ++k)
        indices64[k] = bench::indexValue(k, s, w.negatives);
    }
    expected.resize(m);
    out.resize(m);
    runCLoop(w, expected.data(), 1);
  }

  void runCLoop(const Workload &w, float *result, int threads) const {
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < w.axis; ++d)
      outer *= w.indicesShape[d];
    for (size_t d = w.axis + 1; d < w.indicesShape.size(); ++d)
      inner *= w.indicesShape[d];
    if (w.int32Indices)
      gatherLoopI32(data.data(), indices32.data(), result, outer,
                    w.dataShape[w.axis], w.indicesShape[w.axis], inner,
                    threads);
    else
      gatherLoopI64(data.data(), indices64.data(), result, outer,
                    w.dataShape[w.axis], w.indicesShape[w.axis], inner,
                    threads);
  }
};

/// The inputs of the workload being measured (one at a time: (e) alone
/// takes 1.25 GiB).
Inputs &inputsFor(const Workload &w) {
  static std::string current; // NOLINT
  static std::unique_ptr<Inputs> inputs;
  if (current != w.name) {
    inputs.reset();
    inputs = std::make_unique<Inputs>(w);
    current = w.name;
  }
  return *inputs;
}

/// Bytes a gather moves per call: the index values, the gathered elements
/// and the output.
int64_t bytesPerCall(const Workload &w) {
  int64_t m = bench::numElements(w.indicesShape);
  return m * ((w.int32Indices ? 4 : 8) + 2 * sizeof(float));
}

double checksum(const Buffer<float> &values) {
  double sum = 0;
  for (float v : values)
    sum += v;
  return sum;
}

/// Set when a benchmark's output check fails: the exit status is then 1.
bool outputMismatch = false;

void failOnRuntimeError(const char *message, void * /*userData*/) {
  llvm::errs() << "gather-bench: the kernel reported: " << message << "\n";
  std::abort();
}

using KernelFn = void (*)(void *, void *, void *);

/// Runs `call` (which writes `inputs.out`) once and compares the output bit
/// for bit with the single-threaded C loop's, then times it. Returns false
/// (the benchmark is marked failed, the exit status becomes 1) on a mismatch.
bool checkAndTime(benchmark::State &state, const Workload &w, Inputs &inputs,
                  llvm::function_ref<void()> call) {
  std::fill(inputs.out.begin(), inputs.out.end(), -1.0f);
  call();
  if (std::memcmp(inputs.out.data(), inputs.expected.data(),
                  inputs.out.size() * sizeof(float)) != 0) {
    outputMismatch = true;
    state.SkipWithError("output differs from the single-threaded C loop's");
    return false;
  }
  for (auto _ : state) {
    call();
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * bytesPerCall(w));
  state.counters["checksum"] = checksum(inputs.out);
  return true;
}

/// Reads the workloads of `path` (bench/workloads.json).
llvm::Expected<std::vector<Workload>> readWorkloads(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read " + path.str());
  auto json = llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return json.takeError();
  std::vector<Workload> result;
  auto *root = json->getAsObject();
  auto *list = root ? root->getArray("workloads") : nullptr;
  if (!list)
    return llvm::createStringError("no \"workloads\" array in " + path.str());
  auto shape = [](const llvm::json::Object &o, llvm::StringRef key,
                  std::vector<int64_t> &sizes) {
    const auto *array = o.getArray(key);
    if (!array)
      return false;
    for (const llvm::json::Value &v : *array) {
      std::optional<int64_t> size = v.getAsInteger();
      if (!size || *size < 1 || *size > (int64_t(1) << 32))
        return false;
      sizes.push_back(*size);
    }
    return true;
  };
  std::set<std::string> names;
  for (const llvm::json::Value &v : *list) {
    const auto *o = v.getAsObject();
    if (!o)
      return llvm::createStringError("a workload is not an object");
    Workload w;
    w.name = o->getString("name").value_or("").str();
    auto invalid = [&](const llvm::Twine &why) {
      return llvm::createStringError("workload '" + w.name + "': " + why);
    };
    if (w.name.empty() || !names.insert(w.name).second)
      return invalid("needs a unique, non-empty \"name\"");
    if (!shape(*o, "data", w.dataShape) ||
        !shape(*o, "indices", w.indicesShape))
      return invalid("\"data\" and \"indices\" must be arrays of "
                     "integer sizes in [1, 2^32]");
    std::optional<int64_t> axis = o->getInteger("axis");
    int64_t rank = w.dataShape.size();
    if (rank == 0 || w.indicesShape.size() != w.dataShape.size())
      return invalid("\"data\" and \"indices\" need the same rank >= 1");
    if (!axis || *axis < 0 || *axis >= rank)
      return invalid("\"axis\" must be an integer in [0, rank)");
    w.axis = *axis;
    llvm::StringRef type = o->getString("indices_type").value_or("");
    if (type != "int32" && type != "int64")
      return invalid("\"indices_type\" must be \"int32\" or \"int64\"");
    w.int32Indices = type == "int32";
    std::optional<bool> negatives = o->getBoolean("negatives");
    if (!negatives)
      return invalid("\"negatives\" must be true or false");
    w.negatives = *negatives;
    double elements = 1;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != w.axis && w.indicesShape[d] != w.dataShape[d])
        return invalid("sizes off the axis must be equal");
      elements =
          std::max(elements, 1.0) *
          static_cast<double>(std::max(w.dataShape[d], w.indicesShape[d]));
    }
    if (elements > double(int64_t(1) << 31))
      return invalid("more than 2^31 elements");
    result.push_back(std::move(w));
  }
  if (result.empty())
    return llvm::createStringError("no workloads in " + path.str());
  return result;
}

/// --dynamic: kernels with every size dynamic (`?`).
bool dynamicKernels = false;

std::string kernelSource(const Workload &w) {
  std::vector<int64_t> dataShape = w.dataShape;
  std::vector<int64_t> indicesShape = w.indicesShape;
  if (dynamicKernels) {
    std::fill(dataShape.begin(), dataShape.end(), -1);
    std::fill(indicesShape.begin(), indicesShape.end(), -1);
  }
  return gather::getGatherElementsKernelSource(
      "gather", dataShape, "f32", indicesShape, w.int32Indices ? "i32" : "i64",
      w.axis);
}

void benchmarkOurs(benchmark::State &state, const Workload *w, int threads) {
  Inputs &inputs = inputsFor(*w);
  std::string source = kernelSource(*w);

  // Source text -> callable kernel, timed.
  auto start = std::chrono::steady_clock::now();
  mlir::MLIRContext context;
  // GATHER_BENCH_PIPELINE: other onnx-to-llvm options to try, e.g.
  // "vector-size=0 runtime-checks=false".
  const char *extra = std::getenv("GATHER_BENCH_PIPELINE");
  auto options =
      gather::ONNXToLLVMPipelineOptions::createFromString(extra ? extra : "");
  if (!options) {
    state.SkipWithError("invalid GATHER_BENCH_PIPELINE");
    return;
  }
  options->numThreads = threads;
  auto engine = gather::compileSourceAndJit(context, source, *options);
  if (!engine) {
    state.SkipWithError(llvm::toString(engine.takeError()).c_str());
    return;
  }
  auto symbol = (*engine)->lookup("_mlir_ciface_gather");
  if (!symbol) {
    state.SkipWithError(llvm::toString(symbol.takeError()).c_str());
    return;
  }
  auto kernel = reinterpret_cast<KernelFn>(*symbol);
  double compileMs = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - start)
                         .count();

  void *indices = w->int32Indices
                      ? static_cast<void *>(inputs.indices32.data())
                      : static_cast<void *>(inputs.indices64.data());
  std::vector<int64_t> dataDesc =
      makeDescriptor(inputs.data.data(), w->dataShape);
  std::vector<int64_t> indicesDesc = makeDescriptor(indices, w->indicesShape);
  std::vector<int64_t> outDesc =
      makeDescriptor(inputs.out.data(), w->indicesShape);

  if (checkAndTime(state, *w, inputs, [&] {
        kernel(dataDesc.data(), indicesDesc.data(), outDesc.data());
      }))
    state.counters["compile_ms"] = compileMs;
}

void benchmarkCLoop(benchmark::State &state, const Workload *w, int threads) {
  Inputs &inputs = inputsFor(*w);
  checkAndTime(state, *w, inputs,
               [&] { inputs.runCLoop(*w, inputs.out.data(), threads); });
}

} // namespace

int main(int argc, char **argv) {
  gatherSetErrorHandler(failOnRuntimeError, /*userData=*/nullptr);
  // Ours: --workloads=FILE, --dynamic (kernels with dynamic sizes),
  // --print-kernel=NAME (print that workload's kernel source and exit). The
  // other flags are Google Benchmark's.
  std::string workloadsPath = GATHER_BENCH_WORKLOADS;
  std::string printKernel;
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg.consume_front("--workloads="))
      workloadsPath = arg.str();
    else if (arg == "--dynamic")
      dynamicKernels = true;
    else if (arg.consume_front("--print-kernel="))
      printKernel = arg.str();
    else
      args.push_back(argv[i]);
  }
  argc = static_cast<int>(args.size());
  argv = args.data();
  // Before libomp starts (the C loops and the kernels use it).
  if (llvm::Error error = gather::checkOpenMPEnvironment()) {
    llvm::errs() << "gather-bench: " << llvm::toString(std::move(error))
                 << "\n";
    return 1;
  }
  auto workloads = readWorkloads(workloadsPath);
  if (!workloads) {
    llvm::errs() << "gather-bench: " << llvm::toString(workloads.takeError())
                 << "\n";
    return 1;
  }
  if (!printKernel.empty()) {
    for (const Workload &w : *workloads)
      if (w.name == printKernel) {
        llvm::outs() << kernelSource(w);
        return 0;
      }
    llvm::errs() << "gather-bench: no workload '" << printKernel << "'\n";
    return 1;
  }
  for (const Workload &w : *workloads) {
    for (int threads : {1, 2}) {
      std::string suffix = w.name + "/t" + std::to_string(threads);
      benchmark::RegisterBenchmark(("ours/" + suffix).c_str(), benchmarkOurs,
                                   &w, threads)
          ->Unit(benchmark::kMicrosecond)
          ->UseRealTime();
      benchmark::RegisterBenchmark(("c_loop/" + suffix).c_str(), benchmarkCLoop,
                                   &w, threads)
          ->Unit(benchmark::kMicrosecond)
          ->UseRealTime();
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return outputMismatch ? 1 : 0;
}
