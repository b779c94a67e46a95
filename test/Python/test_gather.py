# Part of the gather project.
# Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
# license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The Python package (python/gather), run by pytest from test/Python/pytest.test
with the build's package on PYTHONPATH and its tools in GATHER_BIN."""

import concurrent.futures
import gc
import os
import subprocess

import numpy as np
import pytest

import gather

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TYPES = os.path.join(ROOT, "test", "Tools", "gather-run", "Inputs", "types.mlir")
MODEL_TEXT = os.path.join(ROOT, "test", "Tools", "gather-compile", "Inputs",
                          "softmax_topk_gather_mul.txtpb")
BIN = os.environ.get("GATHER_BIN", "")


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """softmax_topk_gather_mul.onnx, encoded from its text form."""
    path = tmp_path_factory.mktemp("model") / "model.onnx"
    with open(MODEL_TEXT, "rb") as text, open(path, "wb") as out:
        subprocess.run(["protoc", "--proto_path=/usr/include/onnx",
                        "--encode=onnx.ModelProto", "onnx.proto"],
                       stdin=text, stdout=out, check=True)
    return path


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def test_model_kernel_matches_numpy(model):
    m = gather.compile(model)
    kernel = m.main_graph_gather_0
    assert [repr(t) for t in kernel.arguments] == ["tensor<3x5xf32>", "tensor<3x3xi64>"]
    rng = np.random.default_rng(5)
    for _ in range(10):
        x = rng.standard_normal((3, 5)).astype(np.float32)
        data = rng.standard_normal((3, 5)).astype(np.float32)
        p = softmax(x)
        positions = np.argsort(-p, axis=1, kind="stable")[:, :3]
        y = kernel(data, positions) * np.take_along_axis(p, positions, 1)
        expected = np.take_along_axis(data, positions, 1) * np.take_along_axis(p, positions, 1)
        assert y.dtype == np.float32 and y.tobytes() == expected.tobytes()


def test_bad_index_raises_with_the_node(model):
    m = gather.compile(model)
    indices = np.zeros((3, 3), dtype=np.int64)
    indices[1, 2] = 5
    with pytest.raises(gather.Error) as error:
        m.main_graph_gather_0(np.zeros((3, 5), np.float32), indices)
    message = str(error.value)
    assert "model.onnx: node 'pick' (GatherElements): error: 'onnx.GatherElements' op " \
        "operand 'indices' holds value 5 at position [1, 2], outside the valid range " \
        "[-5, 4] for axis 1 of size 5" in message
    # The module goes on working.
    ok = m.main_graph_gather_0(np.ones((3, 5), np.float32), np.zeros((3, 3), np.int64))
    assert (ok == 1).all()


@pytest.mark.parametrize("name,dtype,index_dtype", [
    ("f16", np.float16, np.int64), ("f64", np.float64, np.int32),
    ("ui8", np.uint8, np.int64), ("i1", np.bool_, np.int64),
    ("c64", np.complex64, np.int64)])
def test_element_types_and_dynamic_shapes(name, dtype, index_dtype):
    m = gather.compile(open(TYPES).read())
    rng = np.random.default_rng(3)
    for rows, columns, picks in [(3, 7, 5), (1, 1, 1), (4, 2, 9), (2, 3, 0)]:
        data = rng.integers(0, 200, (rows, columns)).astype(dtype)
        indices = rng.integers(-columns, columns, (rows, picks)).astype(index_dtype)
        result = getattr(m, name)(data, indices)
        expected = np.take_along_axis(data, indices.astype(np.int64) % columns, 1)
        assert result.dtype == dtype and result.shape == expected.shape
        assert result.tobytes() == expected.tobytes()


def test_load_a_gather_compile_library(model, tmp_path):
    library = tmp_path / "model.so"
    subprocess.run([os.path.join(BIN, "gather-compile"), str(model), "-o", str(library)],
                   check=True, capture_output=True)
    m = gather.load(library)
    data = np.arange(15, dtype=np.float32).reshape(3, 5)
    indices = np.array([[4, 0, -1], [1, 1, 2], [0, 3, -5]])
    assert m.main_graph_gather_0(data, indices).tolist() == \
        [[4, 0, 4], [6, 6, 7], [10, 13, 10]]


def test_one_library_loaded_twice(model, tmp_path):
    """Two Modules of one library (mapped once, one error sink): freeing one
    leaves the other's reports intact."""
    library = tmp_path / "model.so"
    subprocess.run([os.path.join(BIN, "gather-compile"), str(model), "-o", str(library)],
                   check=True, capture_output=True)
    first = gather.load(library)
    second = gather.load(library)
    assert first._reports is second._reports  # What the sink calls.
    del second
    gc.collect()
    junk = [bytes(128) for _ in range(10000)]  # Reuses freed memory, if any.
    indices = np.zeros((3, 3), dtype=np.int64)
    indices[2, 0] = -6
    with pytest.raises(gather.Error) as error:
        first.main_graph_gather_0(np.zeros((3, 5), np.float32), indices)
    assert "holds value -6 at position [2, 0]" in str(error.value)
    del junk


def test_library_for_another_cpu():
    """Code for a CPU this host is not is refused at load, not run into an
    illegal instruction."""
    try:
        m = gather.compile(open(TYPES).read(), target_cpu="sapphirerapids")
    except gather.Error as error:
        assert "compiled for sapphirerapids, cannot run on this host" in str(error)
        return
    # This host runs Sapphire Rapids code.
    data = np.arange(4, dtype=np.float64).reshape(2, 2)
    assert m.f64(data, np.array([[1], [0]], np.int32)).tolist() == [[1], [2]]


def test_threads_call_at_once(model):
    m = gather.compile(model)
    kernel = m.main_graph_gather_0

    def work(seed):
        rng = np.random.default_rng(seed)
        for _ in range(50):
            data = rng.standard_normal((3, 5)).astype(np.float32)
            indices = rng.integers(-5, 5, (3, 3))
            bad = seed % 4 == 0
            if bad:
                indices[0, 0] = 5 + seed
                with pytest.raises(gather.Error, match=f"holds value {5 + seed} "):
                    kernel(data, indices)
                continue
            assert kernel(data, indices).tobytes() == \
                np.take_along_axis(data, indices % 5, 1).tobytes()
        return seed

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        assert sorted(pool.map(work, range(16))) == list(range(16))


def test_threaded_kernel_reports(tmp_path):
    # 3 x 40000: threaded (OpenMP); its reports come from worker threads.
    m = gather.compile(open(TYPES).read(), options="parallel-threshold=1")
    data = np.ones((3, 40000))
    indices = np.zeros((3, 64), dtype=np.int32)
    assert (m.f64(data, indices) == 1).all()
    indices[2, 63] = 40000
    with pytest.raises(gather.Error, match=r"holds value 40000 at position \[2, 63\]"):
        m.f64(data, indices)


def test_misuse_is_an_error():
    m = gather.compile(open(TYPES).read())
    with pytest.raises(TypeError, match="takes 2 arrays"):
        m.f64(np.zeros((2, 2)))
    with pytest.raises(TypeError, match="an array of float32, the function takes tensor<\\?x\\?xf64>"):
        m.f64(np.zeros((2, 2), np.float32), np.zeros((2, 2), np.int32))
    with pytest.raises(ValueError, match="shape \\(2,\\)"):
        m.f64(np.zeros(2), np.zeros(2, np.int32))
    with pytest.raises(AttributeError, match="no entry point 'nope'"):
        m.nope
    with pytest.raises(gather.Error, match="source.mlir:1:27: error: expected non-function type"):
        gather.compile("func.func @f(%a: tensor<2xf33>) {\n  return\n}\n")
    with pytest.raises(gather.Error, match="invalid value 'banana' for option 'vector-size'"):
        gather.compile(open(TYPES).read(), options="vector-size=banana")
    scalar = gather.compile("func.func @s(%x: f32) -> f32 {\n  return %x : f32\n}\n"
                            "func.func @t(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                            "  return %a : tensor<2xf32>\n}\n")
    assert scalar.t(np.ones(2, np.float32)).tolist() == [1, 1]
    with pytest.raises(gather.Error, match="entry point s has the type \\(f32\\) -> f32"):
        scalar.s
    with pytest.raises(gather.Error, match="no such file"):
        gather.compile("missing.onnx")
    with pytest.raises(gather.Error, match="not made by gather-compile"):
        gather.load(os.path.join(os.path.dirname(gather._config.LIBRARY_DIR + "/"),
                                 "libgather_runtime.so"))


TWO_RESULTS = """
func.func @two(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = "onnx.GatherElements"(%d, %i) {axis = 1 : si64}
      : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %1 = "onnx.GatherElements"(%d, %i) {axis = 0 : si64}
      : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}
"""


def test_any_array_layout_and_large_results():
    m = gather.compile(TWO_RESULTS)
    rng = np.random.default_rng(7)
    data = rng.standard_normal((300, 300)).astype(np.float32)
    indices = rng.integers(-300, 300, (300, 300))
    # Views, Fortran order, unaligned and read-only buffers, nested lists
    # (of the right type: nothing is cast):
    # each is taken as its contiguous copy.
    unaligned = np.frombuffer(b"\0" + data.tobytes(), np.float32, offset=1)
    read_only = data.copy()
    read_only.flags.writeable = False
    for d, i in [(data.T, indices.T), (np.asfortranarray(data), indices),
                 (data[::2, ::3], indices[:150, :100] % 100),
                 (unaligned.reshape(300, 300), indices), (read_only, indices),
                 (data[:2, :2], [[0, 1], [1, 0]])]:
        a, b = m.two(d, i)
        d, i = np.asarray(d, np.float32), np.asarray(i)
        assert a.tobytes() == np.take_along_axis(d, i % d.shape[1], 1).tobytes()
        assert b.tobytes() == np.take_along_axis(d, i % d.shape[0], 0).tobytes()
    # Results over 64 KiB are the kernel's buffers, freed with the array:
    # they outlive the module, and repeated calls do not grow the process.
    a, b = m.two(data, indices)
    del m
    import gc
    gc.collect()
    assert a.flags.owndata is False and a.base is not None
    assert a.tobytes() == np.take_along_axis(data, indices % 300, 1).tobytes()
    m = gather.compile(TWO_RESULTS)

    def rss_kib():
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))

    for _ in range(50):
        m.two(data, indices)
    before = rss_kib()
    for _ in range(2000):  # 2 x 360 KB per call: 1.4 GB if leaked
        m.two(data, indices)
    assert rss_kib() - before < 100 * 1024
    with pytest.raises(TypeError, match="no keyword"):
        m.two(data, indices=indices)
    with pytest.raises(TypeError, match="takes 2 arrays"):
        m.two()
