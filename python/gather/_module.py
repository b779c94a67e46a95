# Part of the gather project.
# Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
# license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The package over gather's C API (libGatherCAPI.so, gather-c/Compile.h)
and the libraries gather-compile makes, through ctypes: no extension module
to build, one ABI (the C one) that C hosts use too, and ctypes releases the
GIL around every foreign call."""

import ctypes
import os
import shutil
import tempfile
import threading
import weakref

import numpy as np

from . import _config
from ._types import parse_entry_points

__all__ = ["Error", "Function", "Module", "compile", "load"]


class Error(Exception):
    """An error of gather: the located diagnostics of a compilation, or a
    run-time report of a call (`model.onnx: node 'pick' (GatherElements):
    error: ... holds value 5 at position [1, 2], outside the valid range
    [-5, 4] ...`)."""


class _StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

    @classmethod
    def of(cls, text):
        data = text.encode() if isinstance(text, str) else bytes(text)
        return cls(data, len(data))


_STRING_CALLBACK = ctypes.CFUNCTYPE(None, _StringRef, ctypes.c_void_p)
_ERROR_HANDLER = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)

_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]
_libc.free.restype = None

_capi = None
_capi_lock = threading.Lock()


def _get_capi():
    global _capi
    with _capi_lock:
        if _capi is None:
            path = os.path.join(_config.LIBRARY_DIR, "libGatherCAPI.so")
            capi = ctypes.CDLL(path)
            capi.mlirGatherCompileFileToLibrary.argtypes = [
                _StringRef, _StringRef, _StringRef, _StringRef, ctypes.c_int,
                _STRING_CALLBACK, ctypes.c_void_p]
            capi.mlirGatherCompileFileToLibrary.restype = ctypes.c_int8
            _capi = capi
        return _capi


def compile(source, options="", target_cpu=None, opt_level=3):
    """Compiles `source` as gather-compile does and loads the result.

    `source`: a path (str or os.PathLike) to an ONNX model (`.onnx`) or an
    MLIR file; MLIR text (a str holding a newline or `func.func`); or the
    bytes of an ONNX ModelProto. A model with nodes gather does not lower
    gets one function per GatherElements (`main_graph_gather_<n>`).
    `options`: the onnx-to-llvm pipeline options, space-separated
    (`"num-threads=1 gather-form=scalar"`); `target_cpu`: LLVM's CPU name
    (default this host's); `opt_level`: 0-3. Raises Error with the
    compiler's located diagnostics."""
    work = tempfile.mkdtemp(prefix="gather-")
    try:
        if isinstance(source, (bytes, bytearray)):
            path = os.path.join(work, "model.onnx")
            with open(path, "wb") as f:
                f.write(source)
        elif isinstance(source, str) and ("\n" in source or "func.func" in source):
            path = os.path.join(work, "source.mlir")
            with open(path, "w", encoding="utf-8") as f:
                f.write(source)
        else:
            path = os.fspath(source)
            if not os.path.exists(path):
                raise Error(f"{path}: no such file (give a path, MLIR text or "
                            "the bytes of an ONNX model)")
        if target_cpu:
            options = f"{options} target-cpu={target_cpu}"
        library = os.path.join(work, "module.so")
        messages = []
        callback = _STRING_CALLBACK(
            lambda text, _: messages.append(
                ctypes.string_at(text.data, text.length).decode(errors="replace")))
        status = _get_capi().mlirGatherCompileFileToLibrary(
            _StringRef.of(path), _StringRef.of(library), _StringRef.of(""),
            _StringRef.of(options), int(opt_level), callback, None)
        if not status:
            raise Error("".join(messages).rstrip() or f"cannot compile {path}")
        module = Module(library)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    # The library stays mapped while the module lives; its file may go.
    weakref.finalize(module, shutil.rmtree, work, True)
    return module


def load(path):
    """Loads a library made by gather-compile (or gather.compile)."""
    return Module(path)


class Function:
    """One entry point: called with NumPy arrays (or anything
    np.ascontiguousarray takes), one per argument, of the argument's element
    type and static sizes; returns a NumPy array, or a tuple of them for
    several results. The arrays own their buffers."""

    def __init__(self, module, name, arguments, results):
        self._module = module
        self.name = name
        self.arguments = arguments
        self.results = results
        function = getattr(module._library, "_mlir_ciface_" + name)
        count = len(arguments) + (1 if results else 0)
        function.argtypes = [ctypes.c_void_p] * count
        function.restype = None
        self._function = function

    def __repr__(self):
        args = ", ".join(map(repr, self.arguments))
        res = ", ".join(map(repr, self.results))
        return f"<gather function {self.name}({args}) -> ({res})>"

    def _descriptor(self, array):
        rank = array.ndim
        words = (ctypes.c_int64 * (3 + 2 * rank))()
        address = array.ctypes.data
        words[0] = address
        words[1] = address
        words[2] = 0
        for d in range(rank):
            words[3 + d] = array.shape[d]
            words[3 + rank + d] = array.strides[d] // array.itemsize if array.itemsize else 1
        return words

    def __call__(self, *arrays):
        if len(arrays) != len(self.arguments):
            raise TypeError(f"{self.name} takes {len(self.arguments)} arrays "
                            f"({', '.join(map(repr, self.arguments))}), "
                            f"{len(arrays)} given")
        inputs = []
        for i, (array, type) in enumerate(zip(arrays, self.arguments)):
            array = np.ascontiguousarray(array)
            if array.dtype != type.dtype:
                raise TypeError(f"{self.name} argument {i}: an array of "
                                f"{array.dtype}, the function takes {type}")
            if array.ndim != type.rank or any(
                    s is not None and s != n for s, n in zip(type.shape, array.shape)):
                raise ValueError(f"{self.name} argument {i}: an array of shape "
                                 f"{array.shape}, the function takes {type}")
            inputs.append(array)
        results = (ctypes.c_int64 * sum(3 + 2 * r.rank for r in self.results))()
        pointers = [ctypes.addressof(results)] if self.results else []
        descriptors = [self._descriptor(a) for a in inputs]
        pointers += [ctypes.addressof(d) for d in descriptors]
        errors = self._module._call(self._function, pointers)
        outputs = []
        at = 0
        for type in self.results:
            outputs.append(_adopt(results, at, type))
            at += 3 + 2 * type.rank
        if errors:
            raise Error("\n".join(errors))
        return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _adopt(words, at, type):
    """The result described at words[at:], as a NumPy array that frees its
    buffer (malloc'ed by the call) when it goes."""
    rank = type.rank
    allocated, aligned, offset = words[at], words[at + 1], words[at + 2]
    sizes = tuple(words[at + 3 + d] for d in range(rank))
    dtype = type.dtype
    count = int(np.prod(sizes, dtype=np.int64)) if rank else 1
    nbytes = count * dtype.itemsize
    buffer = (ctypes.c_char * nbytes).from_address(aligned + offset * dtype.itemsize)
    if allocated:
        weakref.finalize(buffer, _libc.free, allocated)
    array = np.frombuffer(buffer, dtype=dtype, count=count).reshape(sizes)
    return array


class Module:
    """A loaded library: one attribute per entry point (a Function)."""

    def __init__(self, path):
        path = os.path.abspath(os.fspath(path))
        try:
            self._library = ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_LOCAL)
        except OSError as error:
            raise Error(f"cannot load {path}: {error}") from None
        try:
            described = ctypes.c_char.in_dll(self._library, "__gather_entry_points")
        except ValueError:
            raise Error(f"{path} does not describe its entry points (no "
                        "__gather_entry_points): it was not made by "
                        "gather-compile") from None
        text = ctypes.string_at(ctypes.addressof(described)).decode()
        self.path = path
        self.functions = {}
        for name, (arguments, results) in parse_entry_points(text).items():
            self.functions[name] = Function(self, name, arguments, results)
        # Reports of this library's kernels: on the calling thread, they go
        # to that call; threaded kernels (OpenMP) report on worker threads,
        # so their calls are one at a time.
        with open(path, "rb") as f:
            self._threaded = b"libomp.so" in f.read()
        self._call_lock = threading.Lock()
        self._local = threading.local()
        self._worker_errors = []
        self._handler = _ERROR_HANDLER(self._on_error)
        try:
            sink = ctypes.c_char.in_dll(self._library, "__gather_error_sink")
        except ValueError:
            sink = None  # Nothing in it reports.
        if sink is not None:
            runtime = ctypes.CDLL("libgather_runtime.so")  # The library's own.
            runtime.gatherSetKernelErrorHandler.argtypes = [
                ctypes.c_void_p, _ERROR_HANDLER, ctypes.c_void_p]
            runtime.gatherSetKernelErrorHandler.restype = None
            runtime.gatherSetKernelErrorHandler(
                ctypes.addressof(sink), self._handler, None)

    def _on_error(self, message, _):
        text = message.decode(errors="replace")
        errors = getattr(self._local, "errors", None)
        if errors is not None:
            errors.append(text)
        else:
            self._worker_errors.append(text)

    def _call(self, function, pointers):
        self._local.errors = []
        try:
            if self._threaded:
                with self._call_lock:
                    self._worker_errors.clear()
                    function(*pointers)  # ctypes releases the GIL.
                    return self._local.errors + self._worker_errors
            function(*pointers)
            return list(self._local.errors)
        finally:
            self._local.errors = None

    def __getattr__(self, name):
        functions = self.__dict__.get("functions", {})
        if name in functions:
            return functions[name]
        raise AttributeError(f"{self.__dict__.get('path', 'the module')} has "
                             f"no entry point {name!r} (it has: "
                             f"{', '.join(functions) or 'none'})")

    def __dir__(self):
        return list(super().__dir__()) + list(self.functions)
