#!/usr/bin/python3
"""Writes one ONNX model per workload of workloads.json (a single
GatherElements node, opset 13, inputs `data` and `indices`, output `y`) into
a directory, for the ONNX Runtime peer (bench/ort/bench.mjs); a "dynamic"
workload's model has symbolic sizes. Uses Debian's python3-onnx."""
import json
import os
import sys

import onnx
from onnx import TensorProto, helper


def main(workloads_path, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for w in json.load(open(workloads_path))["workloads"]:
        index_type = (TensorProto.INT32 if w["indices_type"] == "int32"
                      else TensorProto.INT64)
        node = helper.make_node("GatherElements", ["data", "indices"], ["y"],
                                name="gather", axis=w["axis"])
        data_shape, indices_shape = w["data"], w["indices"]
        if w.get("dynamic"):
            # Symbolic sizes: equal names off the axis, as the op requires.
            data_shape = [f"n{d}" if d != w["axis"] else "s" for d in range(len(data_shape))]
            indices_shape = [f"n{d}" if d != w["axis"] else "m"
                             for d in range(len(indices_shape))]
        graph = helper.make_graph(
            [node], f"gather_{w['name']}",
            [helper.make_tensor_value_info("data", TensorProto.FLOAT, data_shape),
             helper.make_tensor_value_info("indices", index_type, indices_shape)],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, indices_shape)])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 7
        onnx.checker.check_model(model)
        onnx.save(model, os.path.join(out_dir, f"{w['name']}.onnx"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
