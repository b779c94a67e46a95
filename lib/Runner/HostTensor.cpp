//===- HostTensor.cpp - Tensors a host passes to compiled code ------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Runner/HostTensor.h"
#include "gather/Support/CheckedSize.h"
#include "gather/Support/Diagnostics.h"
#include "gather/Support/ElementBytes.h"
#include "gather/Target/ONNX/ImportONNX.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/DebugStringHelper.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;
using gather::HostTensor;

/// The bytes of one element of `type`, or none for a type without a fixed
/// size in memory (strings).
static std::optional<int64_t> getStorageBytes(Type type) {
  if (type.isInteger(1))
    return 1; // One byte per i1 in memory.
  return gather::getElementBytes(type);
}

llvm::Expected<HostTensor> HostTensor::allocate(RankedTensorType type) {
  if (!type.hasStaticShape())
    return llvm::createStringError("tensor type '" + debugString(type) +
                                   "' has a dynamic size");
  std::optional<int64_t> elementBytes = getStorageBytes(type.getElementType());
  if (!elementBytes)
    return llvm::createStringError(
        "element type '" + debugString(type.getElementType()) +
        "' cannot be passed from the command line (strings "
        "are not supported)");
  std::optional<int64_t> bytes =
      getCheckedNumElements(type.getShape(), *elementBytes);
  if (!bytes || *bytes > (int64_t(1) << 40))
    return llvm::createStringError("tensor type '" + debugString(type) +
                                   "' is too large");
  // 64-byte aligned, at least one line (aligned_alloc wants a multiple).
  size_t size = llvm::alignTo(std::max<int64_t>(*bytes, 1), 64);
  void *memory = std::aligned_alloc(64, size);
  if (!memory)
    return llvm::createStringError("cannot allocate " + llvm::Twine(size) +
                                   " bytes");
  std::memset(memory, 0, size);
  HostTensor tensor;
  tensor.type = type;
  tensor.bytes = static_cast<size_t>(*bytes);
  tensor.data = memory;
  tensor.storage = std::shared_ptr<void>(memory, std::free);
  return tensor;
}

llvm::Expected<HostTensor> HostTensor::adoptResult(Type elementType,
                                                   const int64_t *descriptor,
                                                   int64_t rank) {
  void *allocated = reinterpret_cast<void *>(descriptor[0]);
  auto *aligned = reinterpret_cast<char *>(descriptor[1]);
  int64_t offset = descriptor[2];
  ArrayRef<int64_t> sizes(descriptor + 3, rank);
  ArrayRef<int64_t> strides(descriptor + 3 + rank, rank);
  HostTensor tensor;
  // The result is the caller's from now on, whatever follows.
  tensor.storage = std::shared_ptr<void>(allocated, std::free);
  int64_t expected = 1;
  for (int64_t d = rank; d-- > 0;) {
    if (sizes[d] < 0)
      return llvm::createStringError("a result has a negative size");
    if (sizes[d] > 1 && strides[d] != expected)
      return llvm::createStringError("a result is not row-major (strides)");
    // (The stride of the next dimension: once past a size 0, none is used.)
    expected = llvm::checkedMul(expected, sizes[d]).value_or(INT64_MAX);
  }
  std::optional<int64_t> elementBytes = getStorageBytes(elementType);
  if (!elementBytes)
    return llvm::createStringError(
        "a result of element type '" + debugString(elementType) +
        "' cannot be printed or written by gather-run");
  std::optional<int64_t> bytes = getCheckedNumElements(sizes, *elementBytes);
  if (!bytes)
    return llvm::createStringError("a result has more bytes than int64_t "
                                   "counts");
  tensor.type = RankedTensorType::get(sizes, elementType);
  tensor.bytes = static_cast<size_t>(*bytes);
  tensor.data = aligned + offset * *elementBytes;
  return tensor;
}

std::vector<int64_t> HostTensor::getDescriptor() const {
  std::vector<int64_t> words{reinterpret_cast<intptr_t>(data),
                             reinterpret_cast<intptr_t>(data), 0};
  ArrayRef<int64_t> shape = getShape();
  words.insert(words.end(), shape.begin(), shape.end());
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  words.insert(words.end(), strides.begin(), strides.end());
  return words;
}

llvm::Error HostTensor::checkFits(Type parameter, StringRef what) const {
  auto shaped = dyn_cast<ShapedType>(parameter);
  std::string why;
  if (!shaped || !shaped.hasRank())
    why = "it takes no ranked tensor";
  else if (shaped.getElementType() != type.getElementType())
    why = "its element type is " + debugString(shaped.getElementType());
  else if (shaped.getRank() != type.getRank())
    why = "its rank is " + std::to_string(shaped.getRank());
  else
    for (auto [d, size] : llvm::enumerate(shaped.getShape()))
      if (!ShapedType::isDynamic(size) && size != type.getDimSize(d)) {
        why = "its dimension " + std::to_string(d) + " has size " +
              std::to_string(size);
        break;
      }
  if (why.empty())
    return llvm::Error::success();
  return llvm::createStringError(what + " (" + debugString(type) +
                                 ") does not fit " + debugString(parameter) +
                                 ": " + why);
}

//===----------------------------------------------------------------------===//
// Values from the command line
//===----------------------------------------------------------------------===//

/// Writes `text` as one element of `type` at `out` (little-endian).
static llvm::Error parseElement(StringRef text, Type type, char *out) {
  text = text.trim();
  if (auto floatType = dyn_cast<FloatType>(type)) {
    llvm::APFloat value(floatType.getFloatSemantics());
    auto status =
        value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    if (!status || text.empty()) {
      llvm::consumeError(status.takeError());
      return llvm::createStringError("'" + text + "' is not a " +
                                     debugString(type) + " value");
    }
    llvm::APInt bits = value.bitcastToAPInt();
    std::memcpy(out, bits.getRawData(), bits.getBitWidth() / 8);
    return llvm::Error::success();
  }
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return llvm::createStringError(
        "values of element type '" + debugString(type) +
        "' cannot be given on the command line; use a .npy or "
        ".pb file");
  unsigned width = integer.getWidth();
  if (width == 1) {
    bool value;
    if (text == "true" || text == "1")
      value = true;
    else if (text == "false" || text == "0")
      value = false;
    else
      return llvm::createStringError(
          "'" + text + "' is not an i1 value (true, false, 1, 0)");
    *out = value;
    return llvm::Error::success();
  }
  uint64_t bits;
  bool fits;
  if (integer.isUnsigned()) {
    uint64_t value;
    fits = !text.getAsInteger(10, value) &&
           (width == 64 || value < (uint64_t(1) << width));
    bits = value;
  } else {
    int64_t value;
    fits = !text.getAsInteger(10, value) &&
           (width == 64 || (value >= -(int64_t(1) << (width - 1)) &&
                            value < (int64_t(1) << (width - 1))));
    bits = static_cast<uint64_t>(value);
  }
  if (!fits)
    return llvm::createStringError("'" + text + "' is not a " +
                                   debugString(type) + " value");
  std::memcpy(out, &bits, width / 8);
  return llvm::Error::success();
}

llvm::Expected<HostTensor> HostTensor::parse(StringRef spec,
                                             MLIRContext *context) {
  if (spec.consume_front("@")) {
    StringRef extension = llvm::sys::path::extension(spec);
    if (extension == ".npy")
      return readNumPy(spec, context);
    if (extension == ".pb")
      return readTensorProto(spec, context);
    return llvm::createStringError(
        "'" + spec + "': a tensor file is a NumPy .npy or an ONNX .pb file");
  }
  auto [typeText, values] = spec.split('=');
  if (typeText.size() == spec.size())
    return llvm::createStringError(
        "'" + spec +
        "' is not <shape>x<type>=<values>, @<file>.npy or "
        "@<file>.pb (e.g. 2x3xf32=1,2,3,4,5,6)");
  auto type = dyn_cast_or_null<RankedTensorType>(
      parseType(("tensor<" + typeText + ">").str(), context));
  if (!type || !type.hasStaticShape())
    return llvm::createStringError(
        "'" + typeText +
        "' is not a static shape and element type (e.g. "
        "2x3xf32, i64)");
  if (values.starts_with("@")) {
    auto tensor = parse(values, context);
    if (!tensor)
      return tensor.takeError();
    if (tensor->getType() != type)
      return llvm::createStringError("'" + values.drop_front() + "' holds a " +
                                     debugString(tensor->getType()) +
                                     ", not a " + debugString(type));
    return tensor;
  }
  auto tensor = allocate(type);
  if (!tensor)
    return tensor.takeError();
  SmallVector<StringRef> items;
  values.split(items, ',');
  int64_t n = type.getNumElements();
  if (static_cast<int64_t>(items.size()) != n && items.size() != 1)
    return llvm::createStringError(
        "'" + spec + "' gives " + llvm::Twine(items.size()) + " values for " +
        llvm::Twine(n) + " elements (give each, or one for all)");
  int64_t elementBytes = *getStorageBytes(type.getElementType());
  auto *out = static_cast<char *>(tensor->getData());
  for (int64_t i = 0; i < n; ++i)
    if (llvm::Error error =
            parseElement(items.size() == 1 ? items[0] : items[i],
                         type.getElementType(), out + i * elementBytes))
      return llvm::createStringError("'" + spec +
                                     "': " + llvm::toString(std::move(error)));
  return tensor;
}

//===----------------------------------------------------------------------===//
// NumPy files
//===----------------------------------------------------------------------===//

namespace {
/// NumPy's `descr` of each element type NumPy has (little-endian).
struct NumPyType {
  const char *descr;
  const char *mlir;
};
} // namespace

static constexpr NumPyType kNumPyTypes[] = {
    {"<f4", "f32"},          {"<f8", "f64"},          {"<f2", "f16"},
    {"|b1", "i1"},           {"|i1", "i8"},           {"<i2", "i16"},
    {"<i4", "i32"},          {"<i8", "i64"},          {"|u1", "ui8"},
    {"<u2", "ui16"},         {"<u4", "ui32"},         {"<u8", "ui64"},
    {"<c8", "complex<f32>"}, {"<c16", "complex<f64>"}};

std::string gather::getNumPyDescr(Type elementType) {
  std::string spelling = debugString(elementType);
  for (const NumPyType &row : kNumPyTypes)
    if (spelling == row.mlir)
      return row.descr;
  return "";
}

/// The value of `key` in NumPy's header dictionary, as text.
static StringRef getHeaderValue(StringRef header, StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == StringRef::npos)
    return "";
  StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return "";
  rest = rest.ltrim();
  if (rest.starts_with("("))
    return rest.take_until([](char c) { return c == ')'; }).drop_front();
  if (rest.starts_with("'"))
    return rest.drop_front().take_until([](char c) { return c == '\''; });
  return rest.take_until([](char c) { return c == ',' || c == '}'; }).trim();
}

llvm::Expected<HostTensor> HostTensor::readNumPy(StringRef path,
                                                 MLIRContext *context) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError("cannot read '" + path +
                                   "': " + buffer.getError().message());
  StringRef bytes = (*buffer)->getBuffer();
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError("'" + path +
                                   "' is not a NumPy array file: " + why);
  };
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10)
    return bad("no \\x93NUMPY magic");
  unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t headerStart = major == 1 ? 10 : 12;
  if (major < 1 || major > 3 || bytes.size() < headerStart)
    return bad("version " + llvm::Twine(major) + " is not 1, 2 or 3");
  uint32_t headerLength = 0;
  std::memcpy(&headerLength, bytes.data() + 8, major == 1 ? 2 : 4);
  if (bytes.size() < headerStart + headerLength)
    return bad("truncated header");
  StringRef header = bytes.substr(headerStart, headerLength);
  StringRef data = bytes.drop_front(headerStart + headerLength);

  StringRef descr = getHeaderValue(header, "descr");
  std::string normalized = descr.str();
  if (!normalized.empty() && normalized[0] == '=')
    normalized[0] = '<'; // Native: little-endian here.
  if (normalized.size() == 3 && normalized[0] == '<' &&
      (normalized[1] == 'i' || normalized[1] == 'u' || normalized[1] == 'b') &&
      normalized[2] == '1')
    normalized[0] = '|';
  const char *mlirType = nullptr;
  for (const NumPyType &row : kNumPyTypes)
    if (normalized == row.descr)
      mlirType = row.mlir;
  if (!mlirType)
    return llvm::createStringError(
        "'" + path + "' holds elements of NumPy type '" + descr +
        "', which gather does not take (big-endian, strings, "
        "objects and bf16 have no equivalent)");
  if (getHeaderValue(header, "fortran_order") != "False")
    return llvm::createStringError("'" + path +
                                   "' is in Fortran order; save it in C order "
                                   "(np.ascontiguousarray)");
  SmallVector<int64_t> shape;
  SmallVector<StringRef> dims;
  getHeaderValue(header, "shape").split(dims, ',', -1, /*KeepEmpty=*/false);
  for (StringRef dim : dims) {
    int64_t size;
    if (dim.trim().getAsInteger(10, size) || size < 0)
      return bad("shape '" + getHeaderValue(header, "shape") + "'");
    shape.push_back(size);
  }
  auto tensor =
      allocate(RankedTensorType::get(shape, parseType(mlirType, context)));
  if (!tensor)
    return tensor.takeError();
  if (data.size() != tensor->getSizeInBytes())
    return bad(llvm::Twine(data.size()) + " bytes of data for " +
               llvm::Twine(tensor->getSizeInBytes()));
  std::memcpy(tensor->getData(), data.data(), data.size());
  return tensor;
}

llvm::Error HostTensor::writeNumPy(StringRef path) const {
  std::string descr = getNumPyDescr(type.getElementType());
  if (descr.empty())
    return llvm::createStringError(
        "a tensor of " + debugString(type) +
        " cannot be written as a .npy file (NumPy has no "
        "equivalent of its element type)");
  std::string shape;
  for (auto [i, size] : llvm::enumerate(getShape()))
    shape += (i ? ", " : "") + std::to_string(size);
  if (getShape().size() == 1)
    shape += ","; // A tuple of one.
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': (" + shape + "), }";
  // Magic, version, length, header: a multiple of 64 bytes, '\n' last.
  size_t total = llvm::alignTo(10 + header.size() + 1, 64);
  header.append(total - 10 - header.size() - 1, ' ');
  header += '\n';
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
  if (error)
    return llvm::createStringError("cannot write '" + path +
                                   "': " + error.message());
  uint16_t length = static_cast<uint16_t>(header.size());
  os << "\x93NUMPY" << '\x01' << '\x00';
  os.write(reinterpret_cast<const char *>(&length), 2);
  os << header;
  os.write(static_cast<const char *>(data), bytes);
  os.close();
  if (os.has_error())
    return llvm::createStringError("cannot write '" + path +
                                   "': " + os.error().message());
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// ONNX TensorProto files
//===----------------------------------------------------------------------===//

llvm::Expected<HostTensor> HostTensor::readTensorProto(StringRef path,
                                                       MLIRContext *context) {
  std::string message;
  FailureOr<DenseElementsAttr> value;
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
      if (message.empty())
        message = diagnostic.str();
      return success();
    });
    value = readTensorProtoFile(path, context);
  }
  if (failed(value))
    return llvm::createStringError("'" + path + "': " + message);
  auto type = cast<RankedTensorType>(value->getType());
  if (!isa<IntegerType, FloatType, ComplexType>(type.getElementType()))
    return llvm::createStringError("'" + path + "' holds a " +
                                   debugString(type) +
                                   ", which gather-run cannot pass (strings)");
  auto tensor = allocate(type);
  if (!tensor)
    return tensor.takeError();
  auto *out = static_cast<char *>(tensor->getData());
  if (type.getElementType().isInteger(1)) {
    int64_t i = 0;
    for (bool bit : value->getValues<bool>())
      out[i++] = bit;
    return tensor;
  }
  // Raw data: one element for a splat, all of them otherwise.
  ArrayRef<char> raw = value->getRawData();
  size_t elementBytes = *getStorageBytes(type.getElementType());
  if (value->isSplat())
    for (int64_t i = 0, n = type.getNumElements(); i < n; ++i)
      std::memcpy(out + i * elementBytes, raw.data(), elementBytes);
  else
    std::memcpy(out, raw.data(), tensor->getSizeInBytes());
  return tensor;
}
