"""Writes two JSON-RPC messages for gather-lsp-server: a request whose
params are nested 50,000 deep, then `exit`."""
import sys

depth = 50000
messages = [
    '{"jsonrpc":"2.0","id":1,"method":"x","params":' + "[" * depth + "]" * depth + "}",
    '{"jsonrpc":"2.0","method":"exit"}',
]
for body in messages:
    sys.stdout.write("Content-Length: %d\r\n\r\n%s" % (len(body), body))
