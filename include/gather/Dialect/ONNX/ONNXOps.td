//===- ONNXOps.td - Operations of the onnx dialect ---------*- tablegen -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_ONNXOPS_TD
#define GATHER_DIALECT_ONNX_ONNXOPS_TD

include "gather/Dialect/ONNX/ONNXDialect.td"
include "gather/Dialect/ONNX/ONNXTypes.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// ONNX type constraint `T` of GatherElements (opset 13): every ONNX tensor
// element type.
def ONNX_AnyElementType : AnyTypeOf<[
    BF16, I1, Complex<F32>, Complex<F64>, F64, F32, F16, I8, I16, I32, I64,
    UI8, UI16, UI32, UI64, ONNX_StringType],
    "ONNX element type (T: bf16, i1, complex<f32>, complex<f64>, f64, f32, "
    "f16, i8, i16, i32, i64, ui8, ui16, ui32, ui64 or !onnx.string)">;

def ONNX_AnyTensor : TensorOf<[ONNX_AnyElementType]>;

//===----------------------------------------------------------------------===//
// GatherElementsOp
//===----------------------------------------------------------------------===//

// ONNX's `axis`: a signed 64-bit integer attribute. The generic form must
// spell the type `si64` (an `i64` attribute is signless); the message says so.
def ONNX_AxisAttr : TypedSignedIntegerAttrBase<SI64, "int64_t",
    "64-bit signed integer attribute (write `axis = N : si64`; `i64` is "
    "signless)">;

def ONNX_GatherElementsOp : ONNX_Op<"GatherElements", [
    Pure, InferTypeOpAdaptorWithIsCompatible]> {
  let summary = "ONNX GatherElements (ai.onnx, opset 13)";
  let description = [{
    Gathers elements of `data` along `axis` at the positions held in
    `indices` (ONNX operator GatherElements, domain ai.onnx, since opset 13).

    `data` and `indices` have the same rank r >= 1. The result has the shape
    of `indices` and the element type of `data`; each element is read from
    `data` at the coordinates of the result element, with the coordinate on
    `axis` replaced by the index value. For r = 3:

    ```
    output[i][j][k] = data[indices[i][j][k]][j][k]  if axis = 0
    output[i][j][k] = data[i][indices[i][j][k]][k]  if axis = 1
    output[i][j][k] = data[i][j][indices[i][j][k]]  if axis = 2
    ```

    - `axis` (si64, default 0) is in [-r, r-1]; a negative axis counts from
      the back (axis + r).
    - An index value is in [-s, s-1], where s = data.shape[axis]; a negative
      index counts from the end (index + s).
    - Along every dimension d != axis, indices.shape[d] <= data.shape[d]
      (as ONNX Runtime and PyTorch require). Along `axis`, `indices` may be
      larger than `data`.
    - `data` may have any ONNX element type (T): bf16, i1 (bool),
      complex<f32>, complex<f64>, f64, f32, f16, i8, i16, i32, i64, ui8,
      ui16, ui32, ui64 or `!onnx.string`. `indices` has element type i32 or
      i64 (Tind).

    Errors. The verifier rejects: rank-0 `data`; ranks that differ; `axis`
    out of range; a non-i32/i64 index type; a static dimension d != axis with
    indices.shape[d] > data.shape[d]; a result whose element type differs
    from `data`'s or whose shape is incompatible with `indices`' shape; and a
    constant `indices` operand holding a value outside [-s, s-1] for a static
    s. The spec says out-of-range index values are an error; an index that
    can only be checked at run time is never used to read outside `data`.

    Folding: with constant `data` and constant `indices` (static shapes, at
    most 2^20 result elements) the op folds to a constant; with constant
    `indices` that select every element of `data` in place (the identity:
    same static shape, indices[..., k, ...] = k along `axis`, or k - s) it
    folds to `data`. A `tensor.cast` of the result (its only use) to a
    more static type becomes the declared result type, which is checked at
    run time.

    Example (the spec's `test_gather_elements_0`):

    ```mlir
    %out = onnx.GatherElements %data, %indices axis = 1
        : tensor<2x2xf32>, tensor<2x2xi64>
    ```

    The result type is inferred: the shape of `indices`, the element type of
    `data`. A less static result type may be given explicitly:

    ```mlir
    %out = onnx.GatherElements %data, %indices axis = 1
        : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<?x2xf32>
    ```

    The generic form printed by onnx-mlir parses too:

    ```mlir
    %out = "onnx.GatherElements"(%data, %indices) {axis = 1 : si64}
        : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
    ```
  }];

  let arguments = (ins
    ONNX_AnyTensor:$data,
    AnyTensor:$indices,
    DefaultValuedAttr<ONNX_AxisAttr, "0">:$axis
  );
  let results = (outs ONNX_AnyTensor:$output);

  // `: data-type, indices-type [-> result-type]`; the result type is
  // printed only when it differs from the inferred one.
  let assemblyFormat = [{
    $data `,` $indices (`axis` `=` $axis^)? attr-dict `:`
    custom<GatherElementsTypes>(type($data), type($indices), type($output))
  }];

  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;

  let extraClassDeclaration = [{
    /// Returns the result type GatherElements infers for operands of types
    /// `dataType` and `indicesType`: the shape of `indices` (unranked if it
    /// is) with the element type of `data`. Null if either is not a tensor.
    static ::mlir::Type inferResultType(::mlir::Type dataType,
                                        ::mlir::Type indicesType);

    /// Returns `axis` normalized to [0, rank) for a ranked `data` operand
    /// whose `axis` is in range; std::nullopt otherwise.
    std::optional<int64_t> getNormalizedAxis();
  }];
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

def ONNX_ConstantOp : ONNX_Op<"Constant", [
    ConstantLike, Pure, InferTypeOpAdaptor]> {
  let summary = "ONNX Constant: a tensor of any ONNX element type";
  let description = [{
    A constant tensor (ONNX operator Constant, attribute `value`). Unlike
    `arith.constant` it also holds strings:

    ```mlir
    %names = onnx.Constant dense<["größe", "", "数据"]> : tensor<3x!onnx.string>
    %ints = onnx.Constant dense<[1, -2]> : tensor<2xi64>
    ```

    The result type is the type of `value`. `convert-onnx-to-linalg` lowers
    numeric constants to `arith.constant`. A string constant becomes one
    table, whatever its number of elements: an `onnx.ConstantString` of the
    bytes of its distinct strings (each stored once) and `arith.constant`
    tensors of each element's offset and length in them, from which a
    `linalg.generic` builds each element with `onnx.StringSlice` (a splat:
    a `linalg.fill` of one `onnx.ConstantString`).
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs ONNX_AnyTensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// ConstantStringOp
//===----------------------------------------------------------------------===//

def ONNX_ConstantStringOp : ONNX_Op<"ConstantString", [Pure]> {
  let summary = "One !onnx.string value (lowering helper)";
  let description = [{
    A scalar `!onnx.string` holding the bytes of `value`. Not an ONNX
    operator: `convert-onnx-to-linalg` creates it when lowering string
    constants, and the LLVM lowering turns it into a read-only global of the
    bytes and a `{ptr, i64}` struct pointing at them.

    ```mlir
    %s = onnx.ConstantString "größe"
    ```
  }];
  let arguments = (ins StrAttr:$value);
  let results = (outs ONNX_StringType:$output);
  let assemblyFormat = "$value attr-dict";
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$value), [{
      build($_builder, $_state, StringType::get($_builder.getContext()),
            $_builder.getStringAttr(value));
    }]>,
  ];
}

//===----------------------------------------------------------------------===//
// StringSliceOp
//===----------------------------------------------------------------------===//

def ONNX_StringSliceOp : ONNX_Op<"StringSlice", [Pure]> {
  let summary = "Bytes of a !onnx.string from an offset (lowering helper)";
  let description = [{
    The `!onnx.string` of at most `length` bytes of `string` starting at byte
    `begin`, sharing its bytes (like `std::string_view::substr`). Not an ONNX
    operator: `convert-onnx-to-linalg` creates it when lowering a string
    constant, to read each element out of one `onnx.ConstantString` holding
    the bytes of all its distinct strings.

    `begin` and `length` are unsigned byte counts, clamped to the string:
    with `size` the size of `string`, the result starts at byte
    `min(begin, size)` and holds `min(length, size - min(begin, size))`
    bytes, so it never reaches outside `string` whatever the operands.

    ```mlir
    %all = onnx.ConstantString "redgreen"
    %green = onnx.StringSlice %all[%c3, %c5]
    ```

    Lowering: `{data + b, l}` from the `{data, size}` of `string`, where `b`
    and `l` are the clamped offset and length.
  }];
  let arguments = (ins ONNX_StringType:$string, I64:$begin, I64:$length);
  let results = (outs ONNX_StringType:$output);
  let assemblyFormat = "$string `[` $begin `,` $length `]` attr-dict";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$string, "::mlir::Value":$begin,
                   "::mlir::Value":$length), [{
      build($_builder, $_state, StringType::get($_builder.getContext()),
            string, begin, length);
    }]>,
  ];
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

def ONNX_ReturnOp : ONNX_Op<"Return", [
    Pure, ReturnLike, Terminator, HasParent<"::mlir::func::FuncOp">]> {
  let summary = "Function return (onnx-mlir's terminator of graph functions)";
  let description = [{
    Returns `operands` from the enclosing `func.func`, as `func.return`
    does. onnx-mlir ends the functions it imports with it; each operand must
    have the type of the corresponding function result or a tensor type
    compatible with it (e.g. a static shape for an unranked result).
    `convert-onnx-to-linalg` lowers it to `func.return` (with a
    `tensor.cast` where the types differ).

    ```mlir
    onnx.Return %0 : tensor<*xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow: IfOp, LoopOp, YieldOp
//===----------------------------------------------------------------------===//

// ONNX control-flow ops with their subgraphs as regions, spelled as
// onnx-mlir spells them (generic form, regions in the order of the ONNX
// attributes), so that IR of either front end parses in the other. Values
// of the enclosing graph are used directly (ONNX's outer-scope names).

def ONNX_IfOp : ONNX_Op<"If", [
    RecursiveMemoryEffects, RecursivelySpeculatable, NoRegionArguments]> {
  let summary = "ONNX If (ai.onnx, opset 11-22): one of two subgraphs";
  let description = [{
    Runs `then_branch` if the one element of `cond` is true, else
    `else_branch`, and returns what the branch yields (ONNX operator If).
    Each branch is one block without arguments ending in `onnx.Yield`, whose
    operands have types compatible with the results (a branch may know more
    of a shape than the op's result does).

    ```mlir
    %y = "onnx.If"(%cond) ({
      %a = onnx.GatherElements %x, %i axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
      onnx.Yield %a : tensor<2x3xf32>
    }, {
      onnx.Yield %x : tensor<2x3xf32>
    }) : (tensor<i1>) -> tensor<2x3xf32>
    ```

    `convert-onnx-to-linalg` lowers it to `scf.if` on the element of `cond`
    (whose shape must then be static).
  }];
  let arguments = (ins TensorOf<[I1]>:$cond);
  let results = (outs Variadic<AnyType>:$outputs);
  let regions = (region SizedRegion<1>:$then_branch,
                        SizedRegion<1>:$else_branch);
  let hasVerifier = 1;
}

def ONNX_LoopOp : ONNX_Op<"Loop", [RecursiveMemoryEffects]> {
  let summary = "ONNX Loop (ai.onnx, opset 11-22): a subgraph run repeatedly";
  let description = [{
    Runs `body` while the iteration count is below `M` (a `tensor<i64>` of
    one element, or `none` for no limit) and the condition holds (`cond`
    before the first iteration, then the body's first result; with `none`
    the loop has no condition and the body's is ignored, as ONNX says), carrying the values `v_initial` from one iteration to the next
    (ONNX operator Loop). The body's block has the arguments
    `(iteration_num: tensor<i64>, condition: tensor<i1>, v...)` and yields
    `(condition, v..., scan_outputs...)`; the op returns the last `v`s and
    each scan output stacked along a new first dimension.

    ```mlir
    %v = "onnx.Loop"(%m, %none, %x) ({
    ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<2x3xf32>):
      %g = onnx.GatherElements %v, %idx axis = 1 : tensor<2x3xf32>, tensor<2x3xi64>
      onnx.Yield %c, %g : tensor<i1>, tensor<2x3xf32>
    }) : (tensor<i64>, none, tensor<2x3xf32>) -> tensor<2x3xf32>
    ```

    `convert-onnx-to-linalg` lowers it to `scf.while` (`M` and `cond` must
    then have static shapes; scan outputs need `M`, which bounds their
    rows, and values of a static shape).
  }];
  let arguments = (ins AnyTypeOf<[TensorOf<[I64]>, NoneType]>:$M,
                       AnyTypeOf<[TensorOf<[I1]>, NoneType]>:$cond,
                       Variadic<AnyType>:$v_initial);
  let results = (outs Variadic<AnyType>:$v_final_and_scan_outputs);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of scan outputs (results after the carried values).
    unsigned getNumScanOutputs() {
      return getNumResults() - getVInitial().size();
    }
  }];
}

def ONNX_YieldOp : ONNX_Op<"Yield", [
    Pure, ReturnLike, Terminator]> {
  let summary = "The results of a subgraph (onnx.If, onnx.Loop, onnx.Scan)";
  let description = [{
    Ends the region of an ONNX control-flow op (`onnx.If`, `onnx.Loop`, or
    an op gather does not define, such as `onnx.Scan`) with the subgraph's
    outputs, as onnx-mlir's `onnx.Yield` does.

    ```mlir
    onnx.Yield %c, %v : tensor<i1>, tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

#endif // GATHER_DIALECT_ONNX_ONNXOPS_TD
