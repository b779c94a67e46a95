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
        self._result_words = sum(3 + 2 * r.rank for r in results)
        self._words = ctypes.c_int64 * (
            self._result_words + sum(3 + 2 * a.rank for a in arguments))

    def __repr__(self):
        args = ", ".join(map(repr, self.arguments))
        res = ", ".join(map(repr, self.results))
        return f"<gather function {self.name}({args}) -> ({res})>"

    def __call__(self, *arrays):
        arguments = self.arguments
        if len(arrays) != len(arguments):
            raise TypeError(f"{self.name} takes {len(arguments)} arrays "
                            f"({', '.join(map(repr, arguments))}), "
                            f"{len(arrays)} given")
        # One buffer of descriptors: the results' (as the C wrapper writes
        # them), then each argument's (allocated, aligned, offset, sizes,
        # strides).
        words = self._words()
        base = ctypes.addressof(words)
        at = self._result_words
        pointers = [base] if self.results else []
        kept = []
        for i, array in enumerate(arrays):
            type = arguments[i]
            if (array.__class__ is not np.ndarray or array.dtype != type.dtype
                    or not array.flags.c_contiguous):
                array = self._convert(i, array, type)
            shape = array.shape
            rank = len(shape)
            if rank != type.rank:
                self._bad_shape(i, shape, type)
            for d, size in type.static:
                if shape[d] != size:
                    self._bad_shape(i, shape, type)
            address = _address(array)
            words[at] = address
            words[at + 1] = address
            words[at + 2] = 0
            stride = 1
            for d in range(rank - 1, -1, -1):
                words[at + 3 + d] = shape[d]
                words[at + 3 + rank + d] = stride
                stride *= shape[d]
            pointers.append(base + 8 * at)
            at += 3 + 2 * rank
            kept.append(array)
        errors = self._module._call(self._function, pointers)
        outputs = []
        at = 0
        for type in self.results:
            outputs.append(_adopt(words, at, type))
            at += 3 + 2 * type.rank
        if errors:
            raise Error("\n".join(errors))
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _bad_shape(self, i, shape, type):
        raise ValueError(f"{self.name} argument {i}: an array of shape "
                         f"{shape}, the function takes {type}")

    def _convert(self, i, array, type):
        array = np.ascontiguousarray(array)
        if array.dtype != type.dtype:
            raise TypeError(f"{self.name} argument {i}: an array of "
                            f"{array.dtype}, the function takes {type}")
        return array


def _address(array):
    """The address of a contiguous array's first element."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(array))
    except (TypeError, ValueError):  # Read-only, or no element.
        return array.ctypes.data


# Results up to this size are copied into an array NumPy owns (and their
# buffer freed at once); larger ones are wrapped and freed with the array.
_COPY_BYTES = 1 << 16


def _adopt(words, at, type):
    """The result described at words[at:], as a NumPy array that owns its
    data (the call malloc'ed the buffer)."""
    rank = type.rank
    allocated, aligned, offset = words[at], words[at + 1], words[at + 2]
    sizes = tuple(words[at + 3 + d] for d in range(rank))
    dtype = type.dtype
    count = 1
    for size in sizes:
        count *= size
    nbytes = count * dtype.itemsize
    start = aligned + offset * dtype.itemsize
    if nbytes <= _COPY_BYTES:
        array = np.empty(sizes, dtype)
        if nbytes:
            ctypes.memmove(_address(array), start, nbytes)
        if allocated:
            _libc.free(allocated)
        return array
    buffer = (ctypes.c_char * nbytes).from_address(start)
    weakref.finalize(buffer, _libc.free, allocated)
    return np.frombuffer(buffer, dtype=dtype, count=count).reshape(sizes)


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
        self._uncallable = {}
        for name, entry in parse_entry_points(text).items():
            if isinstance(entry, str):
                self._uncallable[name] = entry
            else:
                self.functions[name] = Function(self, name, *entry)
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
        uncallable = self.__dict__.get("_uncallable", {})
        if name in uncallable:
            raise Error(uncallable[name])
        raise AttributeError(f"{self.__dict__.get('path', 'the module')} has "
                             f"no entry point {name!r} (it has: "
                             f"{', '.join(functions) or 'none'})")

    def __dir__(self):
        return list(super().__dir__()) + list(self.functions)
