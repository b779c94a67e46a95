"""Prints a text-format ONNX model whose graph calls model-local function f0,
which calls f1, ..., which calls f<n-1>, which is a Relu: calls nest n deep.
With a second argument k, each function calls the next k times in a row:
inlined, the graph has k^(n-1) nodes.

  function_chain.py <n> [<k>]"""
import sys

n = int(sys.argv[1])
k = int(sys.argv[2]) if len(sys.argv) > 2 else 1
tensor = 'type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } }'
print('ir_version: 8')
print('opset_import { domain: "" version: 13 }')
print('opset_import { domain: "local" version: 1 }')
print('graph {')
print('  name: "chain"')
print('  node { input: "x" output: "y" op_type: "f0" domain: "local" }')
print('  input { name: "x" %s }' % tensor)
print('  output { name: "y" %s }' % tensor)
print('}')
for i in range(n):
    body = ('op_type: "f%d" domain: "local"' % (i + 1) if i + 1 < n
            else 'op_type: "Relu"')
    print('functions { name: "f%d" domain: "local" input: "a" output: "b"' % i)
    print('  opset_import { domain: "" version: 13 }')
    print('  opset_import { domain: "local" version: 1 }')
    calls = k if i + 1 < n else 1
    values = ["a"] + ["t%d" % c for c in range(1, calls)] + ["b"]
    for c in range(calls):
        print('  node { input: "%s" output: "%s" %s }' % (values[c], values[c + 1], body))
    print('}')
