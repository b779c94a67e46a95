//===- PrintTensor.cpp - Print tensors returned by an entry point ---------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gatherPrint<T>: prints one result of an entry function in gather's stable
// text format (see GatherRuntime.h); gatherCompare<T>: compares one with
// its expected value. Called through MLIR's C interface
// (`llvm.emit_c_interface`) with unranked memref descriptors (MemRefView,
// RuntimeInternal.h).
//
//===----------------------------------------------------------------------===//

#include "RuntimeInternal.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace gather::runtime;

/// Shortest decimal text that reads back as exactly `value` (std::to_chars),
/// with `inf`, `-inf`, `-0`, and NaN as `nan(0x<bits>)` so payloads survive.
template <typename Out, typename Float, typename Bits>
static void appendFloat(Out &out, Float value, Bits bits) {
  if (std::isnan(value)) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "nan(0x%llx)",
                  static_cast<unsigned long long>(bits));
    out += buffer;
    return;
  }
  if (std::isinf(value)) {
    out += value < 0 ? "-inf" : "inf";
    return;
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr - buffer);
}

static float halfToFloat(uint16_t bits) {
  uint32_t sign = (bits >> 15) & 1, exponent = (bits >> 10) & 0x1f,
           mantissa = bits & 0x3ff;
  float magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400),
                           static_cast<int>(exponent) - 25);
  return sign ? -magnitude : magnitude;
}

static float bfloatToFloat(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

/// For 16-bit floats: the fewest significant digits (1..9) whose decimal
/// text, read back and rounded to nearest (ties to even) in the 16-bit type
/// `toFloat` decodes, gives `bits` again. Decided exactly in double: the text
/// reads back to `bits` iff it is closer to the value than to either
/// neighbour, or equally close and `bits` is even.
template <typename Out>
static void appendShortest16(Out &out, uint16_t bits,
                             float (*toFloat)(uint16_t)) {
  float value = toFloat(bits);
  if (std::isnan(value) || std::isinf(value) || value == 0.0f) {
    appendFloat(out, value, bits);
    return;
  }
  uint16_t sign = bits & 0x8000, magnitude = bits & 0x7fff;
  double exact = value;
  double below = toFloat(sign | (magnitude - 1));
  double above = toFloat(sign | (magnitude + 1));
  if (std::isinf(above)) // Past the largest finite value: rounds to inf.
    above = exact + (exact - below);
  char buffer[64];
  for (int precision = 1; precision <= 9; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, exact);
    double back = std::strtod(buffer, nullptr);
    double distance = std::fabs(back - exact);
    double toBelow = std::fabs(back - below), toAbove = std::fabs(back - above);
    bool even = (bits & 1) == 0;
    if ((distance < toBelow || (distance == toBelow && even)) &&
        (distance < toAbove || (distance == toAbove && even)))
      break;
  }
  out += buffer;
}

/// The length of the well-formed UTF-8 sequence (RFC 3629: no overlong
/// forms, no surrogates, at most U+10FFFF) starting at `bytes`, or 0.
static int64_t validUTF8Length(const unsigned char *bytes, int64_t available) {
  unsigned char c = bytes[0];
  int64_t length;
  uint32_t lowest;
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
    lowest = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    lowest = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    lowest = 0x10000;
  } else {
    return 0;
  }
  if (available < length)
    return 0;
  uint32_t codePoint = c & (0x7F >> length);
  for (int64_t k = 1; k < length; ++k) {
    if ((bytes[k] & 0xC0) != 0x80)
      return 0;
    codePoint = (codePoint << 6) | (bytes[k] & 0x3F);
  }
  if (codePoint < lowest || codePoint > 0x10FFFF ||
      (codePoint >= 0xD800 && codePoint <= 0xDFFF))
    return 0;
  return length;
}

namespace {

/// Appends the text of one element of type `T` (see GatherRuntime.h).
template <typename T>
struct ElementPrinter;

#define GATHER_INTEGER_PRINTER(CType)                                          \
  template <>                                                                  \
  struct ElementPrinter<CType> {                                               \
    template <typename Out>                                                    \
    static void append(Out &out, CType value) {                                \
      char buffer[24];                                                         \
      auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);     \
      out.append(buffer, result.ptr - buffer);                                 \
    }                                                                          \
  };
GATHER_INTEGER_PRINTER(int8_t)
GATHER_INTEGER_PRINTER(int16_t)
GATHER_INTEGER_PRINTER(int32_t)
GATHER_INTEGER_PRINTER(int64_t)
GATHER_INTEGER_PRINTER(uint8_t)
GATHER_INTEGER_PRINTER(uint16_t)
GATHER_INTEGER_PRINTER(uint32_t)
GATHER_INTEGER_PRINTER(uint64_t)
#undef GATHER_INTEGER_PRINTER

/// An IEEE float of `Bits` (an unsigned integer of its size): the shortest
/// decimal, its bits for NaN payloads.
template <typename T, typename Bits>
struct IEEEFloatPrinter {
  template <typename Out>
  static void append(Out &out, T value) {
    Bits bits;
    std::memcpy(&bits, &value, sizeof(bits));
    appendFloat(out, value, bits);
  }
};

template <>
struct ElementPrinter<float> : IEEEFloatPrinter<float, uint32_t> {};
template <>
struct ElementPrinter<double> : IEEEFloatPrinter<double, uint64_t> {};

/// A 16-bit float (f16, bf16) through its conversion `toFloat`.
template <typename T, float (*toFloat)(uint16_t)>
struct Float16Printer {
  template <typename Out>
  static void append(Out &out, T value) {
    appendShortest16(out, value.bits, toFloat);
  }
};

template <>
struct ElementPrinter<Half> : Float16Printer<Half, halfToFloat> {};
template <>
struct ElementPrinter<BFloat> : Float16Printer<BFloat, bfloatToFloat> {};

template <>
struct ElementPrinter<Bool> {
  template <typename Out>
  static void append(Out &out, Bool value) {
    out += (value.byte & 1) ? "true" : "false";
  }
};

template <typename T>
struct ElementPrinter<Complex<T>> {
  template <typename Out>
  static void append(Out &out, Complex<T> value) {
    out += "(";
    ElementPrinter<T>::append(out, value.re);
    out += ", ";
    ElementPrinter<T>::append(out, value.im);
    out += ")";
  }
};

template <>
struct ElementPrinter<GatherString> {
  template <typename Out>
  static void append(Out &out, GatherString value) {
    out += '"';
    const auto *bytes = reinterpret_cast<const unsigned char *>(value.data);
    for (int64_t i = 0; i < value.size;) {
      unsigned char c = bytes[i];
      if (c >= 0x80) {
        // A well-formed UTF-8 sequence is copied; any other byte escaped.
        int64_t length = validUTF8Length(bytes + i, value.size - i);
        if (length > 0) {
          out.append(value.data + i, length);
          i += length;
          continue;
        }
      }
      switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          char buffer[8];
          std::snprintf(buffer, sizeof(buffer), "\\%02X", c);
          out += buffer;
        } else {
          out += static_cast<char>(c);
        }
      }
      ++i;
    }
    out += '"';
  }
};

/// Formats into a fixed buffer that is written to stdout whenever it fills,
/// so a result of any size prints in bounded memory. After a failed write
/// (e.g. a closed pipe) it drops everything, failed() is true and error()
/// says why (strerror).
class StdoutWriter {
public:
  StdoutWriter() = default;
  StdoutWriter(const StdoutWriter &) = delete;
  StdoutWriter &operator=(const StdoutWriter &) = delete;

  StdoutWriter &append(const char *data, size_t size) {
    while (size > 0) {
      if (used == kCapacity)
        flush();
      size_t chunk = std::min(size, kCapacity - used);
      std::memcpy(buffer + used, data, chunk);
      used += chunk;
      data += chunk;
      size -= chunk;
    }
    return *this;
  }
  StdoutWriter &operator+=(const char *text) {
    return append(text, std::strlen(text));
  }
  StdoutWriter &operator+=(const std::string &text) {
    return append(text.data(), text.size());
  }
  StdoutWriter &operator+=(char c) { return append(&c, 1); }

  /// Writes the buffered text; returns false if any write failed so far.
  bool flush() {
    if (!writeFailed && used > 0 &&
        std::fwrite(buffer, 1, used, stdout) != used)
      fail();
    used = 0;
    return !writeFailed;
  }
  /// Flushes this buffer and stdout's.
  bool flushStdout() {
    if (flush() && std::fflush(stdout) != 0)
      fail();
    return !writeFailed;
  }
  bool failed() const { return writeFailed; }
  const char *error() const { return std::strerror(writeErrno); }

private:
  void fail() {
    writeFailed = true;
    writeErrno = errno;
  }

  static constexpr size_t kCapacity = size_t(1) << 16;
  char buffer[kCapacity];
  size_t used = 0;
  bool writeFailed = false;
  int writeErrno = 0;
};

} // namespace

namespace {
/// The items (elements and empty groups `[]`) that one result may still
/// print (gatherSetPrintLimit). Once it has run out, the printer stops where
/// it is: stopped() is true and nothing more is written.
class PrintBudget {
public:
  /// `left` items, or no limit if `unlimited`.
  PrintBudget(uint64_t left, bool unlimited)
      : left(left), unlimited(unlimited) {}

  /// Takes one item to print; false (and stopped) if none is left.
  bool take() {
    if (stopIfExhausted())
      return false;
    if (!unlimited)
      --left;
    ++taken;
    return true;
  }
  /// Stops (and returns true) if no item is left: checked before writing
  /// anything that precedes an item (a bracket, a separator).
  bool stopIfExhausted() {
    if (!unlimited && left == 0)
      isStopped = true;
    return isStopped;
  }
  bool stopped() const { return isStopped; }
  /// The number of items printed.
  uint64_t printed() const { return taken; }

private:
  uint64_t left;
  bool unlimited;
  bool isStopped = false;
  uint64_t taken = 0;
};
} // namespace

/// The print limit (0: none) and the items printed under it so far, all
/// results together (gatherSetPrintLimit); atomic, as results may be printed
/// from several threads (the budget is then shared approximately).
static std::atomic<uint64_t> printLimit{GATHER_DEFAULT_PRINT_LIMIT};
static std::atomic<uint64_t> itemsPrinted{0};

extern "C" void gatherSetPrintLimit(uint64_t limit) {
  printLimit = limit;
  itemsPrinted = 0;
}

/// Writes the values of dimensions `dim..rank` starting at `offset`; stops
/// early once `out` has failed or `budget` has run out (brackets left open).
template <typename T>
static void appendValues(StdoutWriter &out, PrintBudget &budget, const T *data,
                         const int64_t *sizes, const int64_t *strides,
                         int64_t rank, int64_t dim, int64_t offset) {
  if (dim == rank) {
    if (budget.take())
      ElementPrinter<T>::append(out, data[offset]);
    return;
  }
  if (sizes[dim] == 0) {
    if (budget.take())
      out += "[]";
    return;
  }
  // (A group of size > 0 holds at least one item.)
  if (budget.stopIfExhausted())
    return;
  out += '[';
  for (int64_t i = 0; i < sizes[dim] && !out.failed(); ++i) {
    if (i) {
      if (budget.stopIfExhausted())
        return;
      out += ", ";
    }
    appendValues(out, budget, data, sizes, strides, rank, dim + 1,
                 offset + i * strides[dim]);
    if (budget.stopped())
      return;
  }
  out += ']';
}

/// Decimal text of `value`.
static std::string toDecimal(unsigned __int128 value) {
  std::string digits;
  do {
    digits += static_cast<char>('0' + static_cast<int>(value % 10));
    value /= 10;
  } while (value != 0);
  return std::string(digits.rbegin(), digits.rend());
}

/// The end of a result's line once its budget ran out after `printed`
/// items: ` ... (<n> more elements not printed; ...)`, where the items are
/// the elements or, for an empty tensor, the empty groups.
static std::string notPrintedMarker(int64_t rank, const int64_t *sizes,
                                    uint64_t printed) {
  // The items: the product of the sizes before the first 0 (saturated).
  using Count = unsigned __int128;
  constexpr Count kMax = ~Count(0);
  Count items = 1;
  bool empty = false;
  for (int64_t d = 0; d < rank && !empty; ++d) {
    if (sizes[d] == 0) {
      empty = true;
      break;
    }
    Count size = static_cast<Count>(sizes[d]);
    items = items > kMax / size ? kMax : items * size;
  }
  Count left = items - printed;
  std::string count = items == kMax ? "more than " + toDecimal(kMax - printed)
                                    : toDecimal(left);
  return (printed ? " ... (" : "... (") + count + " more " +
         (empty ? "empty group" : "element") + (left == 1 ? "" : "s") +
         " not printed; --print-limit=0 prints all)";
}

namespace {
/// The MLIR spelling of the element type held as `T` (ElementTypes.def).
template <typename T>
struct ElementTypeSpelling;
#define GATHER_ELEMENT_TYPE(Suffix, Spelling, CType, ONNXType)                 \
  template <>                                                                  \
  struct ElementTypeSpelling<CType> {                                          \
    static constexpr const char *value = Spelling;                             \
  };
#include "gather/Runtime/ElementTypes.def"
} // namespace

/// The type of a tensor of `memref`'s sizes, e.g. `tensor<2x3xf32>`.
template <typename T>
static std::string typeString(const MemRefView<T> &memref) {
  std::string out = "tensor<";
  for (int64_t d = 0; d < memref.rank; ++d)
    out += std::to_string(memref.sizes[d]) + "x";
  return out + ElementTypeSpelling<T>::value + ">";
}

/// A message naming the first negative size of `memref` (a tensor that
/// cannot exist: e.g. tensor.empty with a negative dynamic size), or "".
template <typename T>
static std::string negativeSize(const MemRefView<T> &memref) {
  for (int64_t d = 0; d < memref.rank; ++d)
    if (memref.sizes[d] < 0)
      return typeString(memref) + " has the negative size " +
             std::to_string(memref.sizes[d]) + " in dimension " +
             std::to_string(d);
  return "";
}

template <typename T>
static void printTensor(const void *memref, int64_t resultIndex) {
  MemRefView<T> view(memref);
  std::string invalid = negativeSize(view);
  if (!invalid.empty()) {
    reportMessage("cannot print result " + std::to_string(resultIndex) + ": " +
                  invalid);
    return;
  }
  // Streamed: the text of a large result is never held in memory at once.
  std::fflush(stdout);
  StdoutWriter out;
  out +=
      "result " + std::to_string(resultIndex) + ": " + typeString(view) + " = ";
  uint64_t limit = printLimit;
  PrintBudget budget(limit - std::min<uint64_t>(itemsPrinted, limit),
                     /*unlimited=*/limit == 0);
  appendValues(out, budget, view.aligned, view.sizes, view.strides, view.rank,
               0, view.offset);
  itemsPrinted += budget.printed();
  if (budget.stopped())
    out += notPrintedMarker(view.rank, view.sizes, budget.printed());
  out += '\n';
  if (!out.flushStdout())
    reportMessage("cannot write result " + std::to_string(resultIndex) +
                  " to the standard output: " + out.error());
}

//===----------------------------------------------------------------------===//
// Comparison with expected outputs
//===----------------------------------------------------------------------===//

/// Whether `actual` matches `expected`: bit-exact for every type when both
/// tolerances are 0, else (floats only) |a - e| <= atol + rtol * |e|, NaN
/// matching NaN and infinities matching themselves.
template <typename T>
static bool bitsEqual(const T &a, const T &b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

static bool closeEnough(double actual, double expected, double atol,
                        double rtol) {
  if (std::isnan(actual) || std::isnan(expected))
    return std::isnan(actual) && std::isnan(expected);
  if (std::isinf(actual) || std::isinf(expected))
    return actual == expected;
  return std::fabs(actual - expected) <= atol + rtol * std::fabs(expected);
}

namespace {
template <typename T>
struct Matcher {
  static bool match(const T &a, const T &e, double, double) {
    return bitsEqual(a, e);
  }
};
template <>
struct Matcher<float> {
  static bool match(float a, float e, double atol, double rtol) {
    return (atol == 0 && rtol == 0) ? bitsEqual(a, e)
                                    : closeEnough(a, e, atol, rtol);
  }
};
template <>
struct Matcher<double> {
  static bool match(double a, double e, double atol, double rtol) {
    return (atol == 0 && rtol == 0) ? bitsEqual(a, e)
                                    : closeEnough(a, e, atol, rtol);
  }
};
/// 16-bit floats (stored as bits), compared as floats with a tolerance.
template <typename T, float (*ToFloat)(uint16_t)>
struct Float16Matcher {
  static bool match(T a, T e, double atol, double rtol) {
    return (atol == 0 && rtol == 0)
               ? a.bits == e.bits
               : closeEnough(ToFloat(a.bits), ToFloat(e.bits), atol, rtol);
  }
};
template <>
struct Matcher<Half> : Float16Matcher<Half, halfToFloat> {};
template <>
struct Matcher<BFloat> : Float16Matcher<BFloat, bfloatToFloat> {};
template <typename T>
struct Matcher<Complex<T>> {
  static bool match(Complex<T> a, Complex<T> e, double atol, double rtol) {
    return Matcher<T>::match(a.re, e.re, atol, rtol) &&
           Matcher<T>::match(a.im, e.im, atol, rtol);
  }
};
template <>
struct Matcher<Bool> {
  static bool match(Bool a, Bool e, double, double) {
    return (a.byte & 1) == (e.byte & 1);
  }
};
template <>
struct Matcher<GatherString> {
  static bool match(GatherString a, GatherString e, double, double) {
    return a.size == e.size &&
           (a.size == 0 || std::memcmp(a.data, e.data, a.size) == 0);
  }
};
} // namespace

static void appendCoordinates(std::string &out, const std::vector<int64_t> &c) {
  out += "[";
  for (size_t d = 0; d < c.size(); ++d)
    out += (d ? ", " : "") + std::to_string(c[d]);
  out += "]";
}

/// Compares output `index`; prints `output <index>: <n> elements match` on
/// success, else reports the shape difference or the first 10 mismatching
/// elements (with their positions) and the number of mismatches as one
/// run-time error.
template <typename T>
static void compareTensor(const void *actualMemref, const void *expectedMemref,
                          int64_t index, double atol, double rtol) {
  MemRefView<T> actual(actualMemref), expected(expectedMemref);
  std::string prefix = "output " + std::to_string(index) + ": ";
  // (Also false for NaN.)
  if (!(atol >= 0) || !(rtol >= 0)) {
    reportMessage(prefix + "the tolerances must be numbers >= 0, but atol is " +
                  std::to_string(atol) + " and rtol " + std::to_string(rtol));
    return;
  }
  for (const MemRefView<T> *view : {&actual, &expected}) {
    std::string invalid = negativeSize(*view);
    if (!invalid.empty()) {
      reportMessage(prefix + "cannot compare: " + invalid);
      return;
    }
  }
  bool sameShape =
      actual.rank == expected.rank &&
      std::equal(actual.sizes, actual.sizes + actual.rank, expected.sizes);
  if (!sameShape) {
    reportMessage(prefix + "expected " + typeString(expected) + ", got " +
                  typeString(actual));
    return;
  }
  if (actual.numElements() < 0) {
    reportMessage(prefix + "too many elements to compare in " +
                  typeString(actual));
    return;
  }
  constexpr int kMaxShown = 10;
  int64_t mismatches = 0;
  std::string details;
  std::vector<int64_t> coordinates;
  for (int64_t i = 0, n = actual.numElements(); i < n; ++i) {
    const T &a = actual.at(i, &coordinates);
    const T &e = expected.at(i, nullptr);
    if (Matcher<T>::match(a, e, atol, rtol))
      continue;
    if (mismatches++ < kMaxShown) {
      details += "\n  at ";
      appendCoordinates(details, coordinates);
      details += ": expected ";
      ElementPrinter<T>::append(details, e);
      details += ", got ";
      ElementPrinter<T>::append(details, a);
    }
  }
  if (mismatches == 0) {
    std::printf("%s%lld elements match\n", prefix.c_str(),
                static_cast<long long>(actual.numElements()));
    std::fflush(stdout);
    return;
  }
  reportMessage(prefix + std::to_string(mismatches) + " of " +
                std::to_string(actual.numElements()) + " elements of " +
                typeString(actual) + " differ (atol " + std::to_string(atol) +
                ", rtol " + std::to_string(rtol) + ")" + details);
}

#define GATHER_ELEMENT_TYPE(Suffix, Spelling, CType, ONNXType)                 \
  extern "C" void _mlir_ciface_gatherPrint##Suffix(void *memref,               \
                                                   int64_t resultIndex) {      \
    printTensor<CType>(memref, resultIndex);                                   \
  }                                                                            \
  extern "C" void _mlir_ciface_gatherCompare##Suffix(                          \
      void *actual, void *expected, int64_t index, double atol, double rtol) { \
    compareTensor<CType>(actual, expected, index, atol, rtol);                 \
  }
#include "gather/Runtime/ElementTypes.def"
