//===- Passes.td - GPU passes of gather --------------------*- tablegen -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_GPU_PASSES_TD
#define GATHER_GPU_PASSES_TD

include "gather/Support/PassBase.td"

def GPUKernelsPass : GatherPass<"gather-gpu-kernels", "::mlir::func::FuncOp"> {
  let summary = "Each bufferized gather as a GPU kernel with its index "
                "check fused";
  let description = [{
    Runs after bufferization (`onnx-to-llvm{gpu=cuda}`, docs/GPU.md). Each
    `linalg.generic` marked `gather.elements` on memrefs (the form of
    include/gather/Conversion/ONNXToLinalg/GatherLinalgForm.h, bufferized:
    one input `indices`, one output, one `memref.load` of `data` in its
    body) becomes, on the host:

    - `gpu.wait async`, `gpu.alloc` of a device buffer for `data`,
      `indices`, the result and one `i64` (the first bad position),
      `gpu.memcpy` of `data`, `indices` and the position's initial value
      (the element count) to the device;
    - a `gpu.launch` of `ceildiv(n, threads-per-block * elements-per-thread)`
      blocks of `threads-per-block` threads: thread `t` of block `b` handles
      elements `b * B * E + t + k * B` (`k < E`), so that neighbouring
      threads touch neighbouring elements (coalesced). Each element's
      coordinates come from its row-major position, the index value is
      normalized (negative values wrap) and clamped into range, and the
      element is copied. Per thread, the `E` index loads, then the `E` data
      loads, come before any store or atomic, and no load takes a branch
      (a position past the end reads element 0): the loads are in flight
      together, as in ONNX Runtime's kernel. The offsets are computed in `i32` when `data` and
      `indices` have at most 2^31 - 1 - B * E elements, in `i64` otherwise:
      decided at compile time for static shapes, at run time for dynamic
      ones (both kernels are built, an `scf.if` chooses);
    - the index check of the gather (the `linalg.generic` marked
      `gather.index_check` that follows it on the same `indices`) fused into
      the kernel: an element whose index value is out of range records its
      row-major position with `memref.atomic_rmw mins`; after the kernel the
      host reads it back, and the check's `memref<i1>` says whether any
      position was recorded. The report that follows it (the same code and
      runtime functions as on the CPU) then names each bad position;
    - `gpu.memcpy` of the result back, `gpu.dealloc` of the four buffers and
      `gpu.wait`.

    A gather of no elements launches nothing (dynamic shapes: an `scf.if` on
    the element count). Host buffers with a non-identity layout are copied
    into contiguous ones first (`linalg.copy`: loops, no call into MLIR's
    runtime libraries). A gather of `!onnx.string` elements is an
    error at its location: its elements are pointers into host memory.
    Other ops stay as they are (host code).

    With `memory=device` the function's buffers already live on the
    device: `data` and `indices` go to the kernel as they are (no device
    buffer, no copy in), and the result is written in place: a result
    buffer the function allocates (`memref.alloc`) becomes a `gpu.alloc`
    (its `memref.dealloc`s `gpu.dealloc`s), one the caller passes is used
    as it is (no copy out). Only the first bad position travels back. When
    it names one, the report's code reads a host copy of `indices` made in
    the report's `scf.if` (the good path copies nothing). Buffers with a
    non-identity layout are an error at the gather: a view of device
    memory cannot be made contiguous on the host.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
  let options = [
    Option<"threadsPerBlock", "threads-per-block", "int64_t",
           /*default=*/"128", "Threads of each block (1 to 1024)">,
    Option<"elementsPerThread", "elements-per-thread", "int64_t",
           /*default=*/"4", "Elements each thread copies (1 to 64)">,
    Option<"memory", "memory", "::gather::GPUMemory",
           /*default=*/"::gather::GPUMemory::Host",
           "Where the function's buffers live",
           "::gather::getEnumOptionValues(::gather::kGPUMemoryValues)">,
  ];
}

def GPUReadOnlyLoadsPass : GatherPass<"gather-gpu-read-only-loads", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Mark the loads of read-only kernel buffers invariant "
                "(ld.global.nc)";
  let description = [{
    Runs on each `gpu.module` after its lowering to the LLVM and NVVM
    dialects (`onnx-to-llvm{gpu=cuda}`). In each kernel (`nvvm.kernel`), a
    pointer argument whose every use, through `llvm.getelementptr` and
    `llvm.addrspacecast`, is the address of a plain (neither volatile nor
    atomic) `llvm.load` is read-only:
    those loads get `invariant` (LLVM's `!invariant.load`), which NVPTX
    emits as `ld.global.nc`, the read-only data path. Any other use (a
    store, an atomic, a call, the pointer passed on or stored) leaves the
    argument's loads as they are.

    The kernel's buffers must not overlap one it writes: true of the
    kernels `gather-gpu-kernels` builds (`data` and `indices` are never the
    result or the position of the fused check).
  }];
}

def GPULoadLazilyPass : GatherPass<"gather-gpu-load-lazily", "::mlir::ModuleOp"> {
  let summary = "Load each GPU module at its first launch, not before main";
  let description = [{
    Runs after `gpu-to-llvm` and `gpu-module-to-binary`
    (`onnx-to-llvm{gpu=cuda}`): each `gpu.binary` (one object: PTX, cubin
    or fatbin) becomes an internal constant of its bytes and a module slot,
    and each `gpu.launch_func` of its kernels, on LLVM types, becomes
    LLVM dialect calls:

    - `gatherCUDAGetKernel(module slot, kernel slot, bytes, size, format,
      optimization level, kernel name)`, which loads the module at the
      first launch (from any thread) and keeps the module and the kernel
      in their slots; it reports to the error handler and returns null
      when it cannot (no driver, no device, PTX the driver rejects);
    - the kernel's arguments copied into a struct in the function's entry
      block and a pointer to each, and `mgpuLaunchKernel` on the launch's
      stream (without one: the null stream, then `mgpuStreamSynchronize`).

    One internal global destructor unloads every module loaded
    (`gatherCUDAUnloadModule`) and clears the kernel slots. Unlike
    `#gpu.select_object`'s global constructor, nothing touches the driver
    before the first launch: a host can check for a driver
    (`gatherCUDAInit`) and fall back to a CPU kernel, and a program without
    a GPU runs `main` (docs/GPU.md, "Errors"). A launch with a cluster
    size or an async token result, a binary of several objects or of
    format `offload`, and a launch of a kernel whose module is not a
    `gpu.binary` are errors at the op.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GPUDataLayoutPass : GatherPass<"gather-gpu-data-layout", "::mlir::ModuleOp"> {
  let summary = "Give every gpu.module the data layout of its target";
  let description = [{
    Sets `llvm.data_layout` on every `gpu.module` that has none (and no
    `dlti.dl_spec`). Without it the device module is translated to LLVM IR
    under LLVM's default data layout, where `i64` is 4-byte aligned: a
    `memref.load` of an `i64` index value becomes `load i64, ptr, align 4`
    and the NVPTX backend splits it into two 32-bit loads plus a shift and
    an or. With the NVPTX layout it is one `ld.global.b64`. The default is
    the layout LLVM 22's NVPTX backend gives `nvptx64-nvidia-cuda`
    (test/GPU/data-layout.test compares it with `opt`'s).
  }];
  let options = [
    Option<"dataLayout", "data-layout", "std::string",
           /*default=*/"::gather::kNVPTX64DataLayout.str()",
           "LLVM data layout string of the device modules">,
  ];
}

#endif // GATHER_GPU_PASSES_TD
