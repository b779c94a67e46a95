# Part of the gather project.
# Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
# license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The package over gather's C API (libGatherCAPI.so, gather-c/Compile.h)
and the libraries gather-compile makes: ctypes compiles and loads (one ABI,
the C one that C hosts use too); the calls go through the extension module
gather._call (_call.c), which checks the arrays, releases the GIL and wraps
the results in C, a few hundred nanoseconds where ctypes took microseconds."""

import ctypes
import os
import shutil
import tempfile
import threading
import weakref

import numpy as np

from . import _call, _config
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
            capi.mlirGatherCheckLibraryTarget.argtypes = [
                _StringRef, _StringRef, _STRING_CALLBACK, ctypes.c_void_p]
            capi.mlirGatherCheckLibraryTarget.restype = ctypes.c_int8
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


class Function(_call.Entry):
    """One entry point: called with NumPy arrays (or anything np.asarray
    takes), one per argument, of the argument's element type and static
    sizes; returns a NumPy array, or a tuple of them for several results.
    The arrays own their buffers."""

    def __init__(self, module, name, arguments, results):
        function = getattr(module._library, "_mlir_ciface_" + name)
        super().__init__(
            ctypes.cast(function, ctypes.c_void_p).value, module._reports,
            [(a.dtype, a.shape) for a in arguments],
            [(r.dtype, r.shape) for r in results], self._complain)
        self._module = module
        self.name = name
        self.arguments = arguments
        self.results = results

    def __repr__(self):
        args = ", ".join(map(repr, self.arguments))
        res = ", ".join(map(repr, self.results))
        return f"<gather function {self.name}({args}) -> ({res})>"

    def _complain(self, i, array):
        """Raises the error of a call whose argument i (-1: the count of
        arguments) does not fit."""
        arguments = self.arguments
        if i < 0:
            raise TypeError(f"{self.name} takes {len(arguments)} arrays "
                            f"({', '.join(map(repr, arguments))})")
        type = arguments[i]
        if array.dtype != type.dtype:
            raise TypeError(f"{self.name} argument {i}: an array of "
                            f"{array.dtype}, the function takes {type}")
        raise ValueError(f"{self.name} argument {i}: an array of shape "
                         f"{array.shape}, the function takes {type}")


def _check_target(library, path):
    """Raises Error unless the code of `library` (at `path`) can run on this
    host: the CPU and features gather-compile recorded in __gather_target
    (a library for another CPU would die of an illegal instruction)."""
    try:
        target = ctypes.c_char.in_dll(library, "__gather_target")
    except ValueError:
        return  # Not recorded (an older gather-compile).
    text = ctypes.string_at(ctypes.addressof(target))
    messages = []
    callback = _STRING_CALLBACK(
        lambda message, _: messages.append(
            ctypes.string_at(message.data, message.length).decode(errors="replace")))
    if not _get_capi().mlirGatherCheckLibraryTarget(
            _StringRef.of(text), _StringRef.of(path), callback, None):
        raise Error("".join(messages) or f"{path} cannot run on this host")


# The Reports of each loaded library, by the address of its error sink: a
# library loaded twice (two Modules; the dynamic loader maps it once) has
# one sink, so one Reports for both, which lives as long as the process
# (ctypes never unloads a library).
_reports_by_sink = {}
_reports_lock = threading.Lock()


def _reports_of(library, path, sink):
    """The Reports of `library` (at `path`), given to its error sink the
    first time."""
    key = ctypes.addressof(sink) if sink is not None else None
    with _reports_lock:
        if key in _reports_by_sink:
            return _reports_by_sink[key]
        # Threaded kernels (OpenMP) report on worker threads, so their calls
        # are one at a time.
        with open(path, "rb") as f:
            threaded = b"libomp.so" in f.read()
        reports = _call.Reports(threaded, Error)
        if sink is None:
            return reports  # Nothing in it reports.
        runtime = ctypes.CDLL("libgather_runtime.so")  # The library's own.
        runtime.gatherSetKernelErrorHandler.argtypes = [
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        runtime.gatherSetKernelErrorHandler.restype = None
        runtime.gatherSetKernelErrorHandler(key, reports.handler,
                                            reports.context)
        _reports_by_sink[key] = reports
        return reports


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
        _check_target(self._library, path)
        self.path = path
        self.functions = {}
        self._uncallable = {}
        # Reports of this library's kernels (on the calling thread, they go
        # to that call), shared with any other Module of the same library.
        try:
            sink = ctypes.c_char.in_dll(self._library, "__gather_error_sink")
        except ValueError:
            sink = None  # Nothing in it reports.
        self._reports = _reports_of(self._library, path, sink)
        for name, entry in parse_entry_points(text).items():
            if isinstance(entry, str):
                self._uncallable[name] = entry
                continue
            try:
                self.functions[name] = Function(self, name, *entry)
            except (TypeError, ValueError) as error:
                self._uncallable[name] = f"entry point {name}: {error}"

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
