//===- GPUDeviceMemory.h - Buffers of gpu-memory=device ---------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rewrites of gather-gpu-kernels that gpu-memory=device needs around
// the kernels (Passes.td): buffers allocated on the device, returned from
// there, host copies for host code that still reads them, and the check
// that no other host code touches them. GPUKernels.cpp builds the kernels
// and their launches.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_GPU_GPUDEVICEMEMORY_H
#define GATHER_LIB_GPU_GPUDEVICEMEMORY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace gather::device_memory {

/// `alloc` (a gather's result buffer the function allocates) allocated on
/// the device instead (gpu.alloc), and freed there; the device buffer.
mlir::Value allocateOnDevice(mlir::memref::AllocOp alloc);

/// A buffer that `func` returns and allocated on the host is copied to the
/// device before it is returned, so that every returned buffer is the
/// device's.
void returnDeviceBuffers(mlir::func::FuncOp func);

/// Host code that still reads an argument of `func` (a device buffer) reads
/// a host copy instead.
void copyArgumentsForHostReaders(mlir::func::FuncOp func);

/// Whether `buffer` is (a view of) memory on the device: an argument of the
/// function or what gpu.alloc allocated.
bool isDeviceResident(mlir::Value buffer);

/// No host code left that reads or writes a buffer allocated on the
/// device; an error at the op otherwise.
mlir::LogicalResult checkNoHostAccessToDevice(mlir::func::FuncOp func);

} // namespace gather::device_memory

#endif // GATHER_LIB_GPU_GPUDEVICEMEMORY_H
